#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian 12 machine (idempotent;
# run as root or with sudo). Nothing is downloaded at build time: Bazel 4.2.3,
# GoogleTest, Google Benchmark, OpenSSL's libcrypto and nlohmann-json come
# from Debian's packages; Abseil, zlib, zstd and libmicrohttpd from Debian's
# source packages (into /usr/local/src/mnk-wasm), compiled by the build and
# linked statically.
#
#   ./setup.sh           what building, solving and playing need
#   ./setup.sh --web     that, and the WebAssembly build (//wasm): Debian's
#                        emscripten and node
#   ./setup.sh --tests   all that, and what only the tests and CI need: Open
#                        MPI (solve_mpi and its tests), Chromium, its driver
#                        and Selenium (the web page's tests), clang and its
#                        runtimes (sanitizers, fuzzing), clang-format, time
set -euo pipefail

packages=(
  bazel-bootstrap        # Bazel 4.2.3
  bazel-platforms        # @platforms, as a local repository
  bazel-rules-java       # @rules_java, as a local repository
  libgtest-dev           # GoogleTest
  libbenchmark-dev       # Google Benchmark
  libssl-dev             # SHA-256 (libcrypto): what verify's work dir names
  nlohmann-json3-dev     # JSON output, and JSON read back in tests
  pybind11-dev           # the Python package (//python:wheel) ...
  python3-dev            # ... for Debian's Python 3
  g++
  make                   # libmicrohttpd's configure (its sources, below)
  git
)
web_packages=(
  emscripten             # em++: the WebAssembly build
  node-acorn             # ... its JavaScript optimizer's parser
  nodejs                 # ... and its tests
)
test_packages=(
  libopenmpi-dev         # //solver:solve_mpi
  openmpi-bin            # ... and mpirun, for it and its tests
  chromium               # the web page's tests, in a real browser
  chromium-driver        # ... driven by Selenium's WebDriver
  python3-selenium       # ... from /usr/bin/python3
  clang                  # libFuzzer targets and sanitizer builds
  libclang-rt-14-dev     # clang's sanitizer and fuzzer runtimes
  clang-format           # the style check in CI
  time                   # /usr/bin/time: peak memory in the end-to-end tests
  python3-pytest         # the Python module's tests
  mono-mcs               # the C# example (P/Invoke into libmnk.so)
  pkg-config             # the installed C library, found by pkg-config ...
  cmake                  # ... and by CMake's find_package
)

case "${1:-}" in
  "") ;;
  --web) packages+=("${web_packages[@]}") ;;
  --tests) packages+=("${web_packages[@]}" "${test_packages[@]}") ;;
  *)
    echo "setup: unknown option '$1': expected nothing, --web or --tests" >&2
    exit 1
    ;;
esac
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" > /dev/null
fi
bazel --version > /dev/null

# The sources every build compiles (//third_party:debian_sources.bzl finds
# them here): Abseil, zlib and zstd, the versions of Debian's own packages,
# from its source packages (a deb-src entry is added for them if there is
# none), so that what the project ships links them statically.
sources=/usr/local/src/mnk-wasm
if ! [ -f "$sources/abseil/absl/base/config.h" -a -f "$sources/zlib/crc32.c" \
       -a -f "$sources/zstd/lib/zstd.h" -a -f "$sources/microhttpd/MHD_config.h" ]; then
  echo "setup: fetching Abseil's, zlib's, zstd's and libmicrohttpd's sources into $sources"
  if ! grep -rqs "^Types: deb-src" /etc/apt/sources.list.d/ &&
     ! grep -qs "^deb-src" /etc/apt/sources.list; then
    printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" \
      "Suites: bookworm" "Components: main" \
      "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
      $sudo tee /etc/apt/sources.list.d/mnk-deb-src.sources > /dev/null
    $sudo apt-get update -qq
  fi
  download=$(mktemp -d)
  (cd "$download" &&
   apt-get source --download-only -qq abseil zlib libzstd libmicrohttpd 2> /dev/null)
  for package in abseil:abseil zlib:zlib libzstd:zstd libmicrohttpd:microhttpd; do
    archive=$(ls "$download/${package%:*}"_*.orig.tar.* | grep -v '\.asc$')
    $sudo mkdir -p "$sources/${package#*:}"
    $sudo tar -xf "$archive" -C "$sources/${package#*:}" --strip-components=1
  done
  rm -rf "$download"
  # libmicrohttpd's MHD_config.h, for this system, without HTTPS (nothing
  # of GnuTLS linked in) and the parts serve does not use.
  (cd "$sources/microhttpd" &&
   $sudo ./configure -q --enable-https=no --disable-doc --disable-examples \
     --disable-curl --disable-dauth --disable-bauth --disable-postprocessor \
     > /dev/null)
fi
if [ "${1:-}" == --tests ]; then
  echo "setup: all packages present, the tests' extras included"
elif [ "${1:-}" == --web ]; then
  echo "setup: all packages present, the WebAssembly build's included"
else
  echo "setup: all packages present"
fi
