#!/usr/bin/env bash
# The WebAssembly module (wasm/mnk.mjs) against the native `play`, under
# node: every reachable tic-tac-toe position, 2,000 of Connect-style 4x4
# (built in), the same 4x4 table opened from its bytes, Connect Four 7x6
# from the book and by search (its progress and its node budget), 5x4
# after a book given as bytes, bad
# positions, the errors of bad games and tables, and the list of built-in
# games (wasm_test.mjs).
set -euo pipefail
out=${TEST_TMPDIR:-$(mktemp -d)}
positions() {  # table count: positions drawn by `sample`, one a line
  player/sample --table="$1" --count="$2" | grep -v '^#' | cut -d' ' -f1
}
positions data/3x3k3.mnk 6000 > "$out/ttt.txt"    # all 5,478 of them
positions data/4x4k4g.mnk 2000 > "$out/c4x4.txt"
cat > "$out/c7x6.txt" <<'POSITIONS'
......./......./......./......./......./.......
......./......./......./......./......./...X...
......./......./......./......./...O.../..OXX..
......./...X.../...O.../...X.../...O.../.OOX.X.
......./......./.OO..../.XX..../.XXO.O./XOXXOO.
......./......./......./XO...../OXOXOXO/XOXOXOX
......./......./......./......./OOOOOO./XXXXXXX
XXXX.../......./......./......./......./.......
......./......./......./...O.../.O.XO../XXOXO.X
POSITIONS
printf '%s\n' ".../.../..." "XXX/OO./..." "X../.../" "nonsense" >> "$out/ttt.txt"
player/play --version | cut -d' ' -f2 > "$out/version"
player/play --batch --json < "$out/ttt.txt" > "$out/ttt.native"
player/play --batch --json --width=4 --height=4 --k=4 --gravity \
  < "$out/c4x4.txt" > "$out/c4x4.native"
player/play --batch --json --width=7 --height=6 --k=4 --gravity \
  < "$out/c7x6.txt" > "$out/c7x6.native"
# A book of Connect-style 5x4 (which has no built-in table or book), opened
# from its bytes.
search/book/book --width=5 --height=4 --k=4 --gravity --plies=4 --quiet \
  --threads=1 --out="$out/5x4k4g-book.mnk" > /dev/null
printf '%s\n' "...../...../...../....." "...../...../...../..X.." \
  > "$out/c5x4.txt"
player/play --batch --json --width=5 --height=4 --k=4 --gravity \
  --book="$out/5x4k4g-book.mnk" < "$out/c5x4.txt" > "$out/c5x4.native"
# Runfiles are symbolic links: the modules import each other where they
# are linked, not where their sources are.
exec node --preserve-symlinks --preserve-symlinks-main wasm/wasm_test.mjs \
  "$out" data/4x4k4g.mnk
