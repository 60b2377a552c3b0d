#!/usr/bin/env bash
# The C library as its users get it: installed into a prefix (bazel run
# //install), docs/api.md's example and CMake project copied out of the
# page and built outside the repository, once with pkg-config and once with
# CMake's find_package(mnk), and run with no LD_LIBRARY_PATH: each prints
# what the page says.
set -u
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"
page="$TEST_SRCDIR/mnk/docs/api.md"
prefix="$TMP/prefix"
install_for_outside_builds "$prefix"
expect_contains "install" "installed the C library $version in $prefix" "$(cat "$TMP/install.out")"
expect_eq "SONAME" "libmnk.so.${version%%.*}" \
  "$(readelf -d "$prefix/lib/libmnk.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"

# Out of the repository, with nothing of Bazel's around.
mkdir -p "$TMP/mygame" && cd "$TMP/mygame"
unset RUNFILES_DIR RUNFILES_MANIFEST_FILE LD_LIBRARY_PATH
awk '/^```c$/ {on = 1; next} on && /^```$/ {exit} on' "$page" > mygame.c
awk '/^```cmake$/ {on = 1; next} on && /^```$/ {exit} on' "$page" > CMakeLists.txt
awk '/^```text$/ {on = 1; next} on && /^```$/ {exit} on' "$page" > expected
[ -s mygame.c ] && [ -s CMakeLists.txt ] && [ -s expected ] || fail "no example in docs/api.md"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
expect_eq "pkg-config --modversion" "$version" "$(pkg-config --modversion mnk)"
cc -std=c99 -Wall -Werror mygame.c $(pkg-config --cflags --libs mnk) -o mygame
expect_eq "pkg-config build exit" 0 $?
./mygame > got 2>&1
expect_eq "pkg-config build run exit" 0 $?
expect_eq "pkg-config build prints" "$(cat expected)" "$(cat got)"

cmake -S . -B build -DCMAKE_PREFIX_PATH="$prefix" > cmake.out 2>&1 &&
  cmake --build build > build.out 2>&1
expect_eq "CMake build exit" 0 $?
./build/mygame > got 2>&1
expect_eq "CMake build run exit" 0 $?
expect_eq "CMake build prints" "$(cat expected)" "$(cat got)"
# A newer major version than installed is not found.
sed -i 's/find_package(mnk 1 REQUIRED)/find_package(mnk 2 REQUIRED)/' CMakeLists.txt
cmake -S . -B build2 -DCMAKE_PREFIX_PATH="$prefix" > cmake2.out 2>&1
expect_eq "CMake find_package(mnk 2) exit" 1 $?
finish c_install
