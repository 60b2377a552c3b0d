#!/usr/bin/env bash
# Compiles the perfect player to WebAssembly with em++ (//wasm:mnk_core):
#   build.sh OUT.mjs SOURCE...
# Every .cc and .c among the sources is compiled (headers are found beside
# them), two at a time a core, then linked with embind into OUT.mjs, an ES
# module for browsers and web workers, and OUT.wasm beside it.
set -euo pipefail
out=$1; shift
command -v em++ > /dev/null || {
  echo "wasm: em++ not found: run ./setup.sh --web" >&2; exit 1; }
# Debian's emscripten runs its JavaScript tools with node, which finds
# Debian's acorn there.
export NODE_PATH=/usr/share/nodejs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# nlohmann-json's headers, alone: /usr/include as a whole would bring the
# host's C library headers.
mkdir -p "$work/include" && ln -s /usr/include/nlohmann "$work/include/nlohmann"
flags=(-O2 -std=c++17 -I. -Iexternal/debian_sources/abseil
       -Iexternal/debian_sources/zlib -I"$work/include" -Wno-c++11-narrowing)
# The generated sources (data/builtin.cc) include from the output tree.
for s in "$@"; do
  case $s in bazel-out/*/bin/*) flags+=(-I"${s%%/bin/*}/bin"); break ;; esac
done
compile() {
  local src=$1 obj=$work/$(echo "$1" | tr / _).o
  case $src in
    *.c) emcc -O2 -c "$src" -o "$obj" ;;
    *.cc) em++ "${flags[@]}" -c "$src" -o "$obj" ;;
  esac
}
export -f compile
export work
export flags_line="${flags[*]}"
# The module's built-in files are data/builtin_web.cc's (Connect Four's
# lines book), not the native data/builtin.cc's.
sources=($(printf '%s\n' "$@" | grep -v '/data/builtin\.cc$'))
printf '%s\n' "${sources[@]}" | grep -E '\.(cc|c)$' |
  xargs -P "$(( $(nproc) * 2 ))" -I{} bash -c 'flags=($flags_line); compile "$@"' _ {}
em++ -O2 --bind -sALLOW_MEMORY_GROWTH=1 -sMODULARIZE=1 -sEXPORT_ES6=1 \
  -sENVIRONMENT=web,worker -sEXPORT_NAME=MnkCore -sEXPORTED_RUNTIME_METHODS=FS,HEAP8 \
  -o "$out" "$work"/*.o
