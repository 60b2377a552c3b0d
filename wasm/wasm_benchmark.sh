#!/usr/bin/env bash
# Connect Four 7x6 in WebAssembly against the native player, on the same
# positions in the same run, one thread each: every move's value and
# remoteness (as the page asks) of positions drawn from random games
# (connect_benchmark --list), one search reused through each ply's
# positions, as `play --batch` does. Each side's transposition table is
# its default (16M, play's and the module's) unless --search-memory sets
# both, or --native-memory / --wasm-memory one.
#
#   bazel run //wasm:wasm_benchmark -- [--plies=10,12] [--positions=50]
#       [--search-memory=16M]
set -euo pipefail
# Run by hand, from the runfiles as `bazel run` does.
[ -x search/connect_benchmark ] || cd "$0.runfiles/mnk"
plies=10,12 positions=50 native_memory=16M wasm_memory=16M
for arg in "$@"; do
  case $arg in
    --plies=*) plies=${arg#*=} ;;
    --positions=*) positions=${arg#*=} ;;
    --search-memory=*) native_memory=${arg#*=} wasm_memory=${arg#*=} ;;
    --native-memory=*) native_memory=${arg#*=} ;;
    --wasm-memory=*) wasm_memory=${arg#*=} ;;
    *) echo "wasm_benchmark: unknown argument '$arg': expected" \
         "--plies=P,Q --positions=N --search-memory=16M" \
         "(or --native-memory=16M --wasm-memory=16M)" >&2; exit 2 ;;
  esac
done
bytes=$(numfmt --from=iec "$wasm_memory")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# "total median" of the seconds on standard input, one a line.
seconds() {
  python3 -c 'import statistics, sys
v = [float(x) for x in sys.stdin]
print("%.3f %.4f" % (sum(v), statistics.median(v)))'
}
echo "Connect Four 7x6, every move's value, one thread, tables of" \
  "$native_memory (native) and $wasm_memory (WebAssembly)"
for ply in ${plies//,/ }; do
  search/connect_benchmark --list --plies="$ply" --positions="$positions" \
    > "$work/positions"
  start=$(date +%s%N)
  player/play --batch --json --threads=1 --search-memory="$native_memory" \
    --width=7 --height=6 --k=4 --gravity < "$work/positions" > /dev/null
  native=$(( $(date +%s%N) - start ))
  read -r wasm median < <(node --preserve-symlinks --preserve-symlinks-main \
    wasm/wasm_benchmark.mjs "$work/positions" "$bytes" | seconds)
  python3 -c 'import sys
ply, n, native, wasm, median = sys.argv[1:]
native = int(native) / 1e9
print("ply %s: %s positions, native %.2f s, WebAssembly %.2f s (median %s s "
      "a position), %.2fx" % (ply, n, native, float(wasm), median,
                              float(wasm) / native))' \
    "$ply" "$positions" "$native" "$wasm" "$median"
done
