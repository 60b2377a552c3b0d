#!/usr/bin/env bash
# The C# example (api/csharp/TicTacToe.cs), built with Debian's mcs and run
# with mono against libmnk.so: the person (these moves) never beats the
# table, whose answers and the refusal of a bad position are checked.
set -u
cd "$TEST_SRCDIR/mnk"
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
mcs -nologo -out:"$TMP/TicTacToe.exe" api/csharp/TicTacToe.cs || exit 1
lib="$(dirname "$(readlink -f api/libmnk.so)")"
failed=0
check() {  # check NAME MOVES EXPECTED-LAST-LINE
  out=$(printf '%s\n' $2 | LD_LIBRARY_PATH="$lib" mono "$TMP/TicTacToe.exe")
  status=$?
  last=$(printf '%s\n' "$out" | tail -n 1)
  if [ "$status" -ne 0 ] || [ "$last" != "$3" ]; then
    echo "FAIL: $1: exit $status, last line [$last], expected [$3]"
    printf '%s\n' "$out"
    failed=$((failed + 1))
  fi
  case "$out" in
    *"libmnk 1.0.0"*"refused: position 'XXXX': position has 4 cells"*) ;;
    *) echo "FAIL: $1: no version or refusal in: $out"; failed=$((failed + 1)) ;;
  esac
}
# The lowest free cell each time: the table wins.
check "lowest cells" "0 1 2 3 4 5 6 7 8" "XXOXO.O..: O wins"
# The centre, then blocking: a draw.
check "centre then blocks" "4 2 3 7 8" "OOXXXOOXX: a draw"
# Bad moves are asked again; a slip later loses.
check "bad input" "9 x 4 0 6 5 7" "OOO.XXX..: O wins"
echo "$((3 - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
