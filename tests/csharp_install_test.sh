#!/usr/bin/env bash
# The C# binding as its users get it: installed into a prefix (bazel run
# //install), the example and the binding's test program compiled with
# Debian's mcs from PREFIX/share/mnk/csharp/ outside the repository and run
# with mono, no LD_LIBRARY_PATH: the test program's checks pass, the
# person (these moves) never beats the table, and docs/api.md's C# snippet
# and example run.
set -u
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
src="$TEST_SRCDIR/mnk"
source "$src/tests/e2e_lib.sh"
prefix="$TMP/prefix"
install_for_outside_builds "$prefix"

mkdir -p "$TMP/mygame" && cd "$TMP/mygame"
unset RUNFILES_DIR RUNFILES_MANIFEST_FILE LD_LIBRARY_PATH
cs="$prefix/share/mnk/csharp"
mcs -nologo -out:MnkTest.exe "$src/api/csharp/MnkTest.cs" "$cs/Mnk.cs"
expect_eq "mcs MnkTest exit" 0 $?
got=$(mono MnkTest.exe "$version")
expect_eq "MnkTest exit" 0 $?
expect_contains "MnkTest" "checks passed" "$got"
mcs -nologo -out:TicTacToe.exe "$cs/TicTacToe.cs" "$cs/Mnk.cs"
expect_eq "mcs TicTacToe exit" 0 $?

# docs/api.md's C# snippet compiles and runs.
{
  echo "static class Doc { static void Main() {"
  awk '/^```csharp$/ {on = 1; next} on && /^```$/ {exit} on' "$src/docs/api.md"
  echo "} }"
} > doc.cs
mcs -nologo -out:doc.exe doc.cs "$cs/Mnk.cs" && mono doc.exe
expect_eq "docs/api.md's C# snippet exit" 0 $?

play() {  # play NAME INPUT EXPECTED-LAST-LINE
  out=$(printf "$2" | mono TicTacToe.exe)
  expect_eq "$1 exit" 0 $?
  expect_eq "$1" "$3" "$(printf '%s\n' "$out" | tail -n 1)"
  expect_contains "$1 version" "libmnk $version" "$out"
  expect_contains "$1 refusal" "refused: position 'XXXX': position has 4 cells" "$out"
}
# The lowest free cell each time, on one line: the table wins.
play "lowest cells" "0 1 2 3 4 5 6 7 8\n" "XXOXO.O..: O wins"
# The centre, then blocking, a move a line: a draw.
play "centre then blocks" "4\n2\n3\n7\n8\n" "OOXXXOOXX: a draw"
# Bad moves are asked again; a slip later loses.
play "bad input" "9 x\n4 0 6 5 7\n" "OOO.XXX..: O wins"
# The input ends before the game does: no result.
play "input ends" "4 2\n" "O.X.X.O..: game abandoned"
finish csharp_install
