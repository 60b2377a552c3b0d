#!/usr/bin/env bash
# End to end: what a new user meets first. Paths are taken from the folder
# the user ran the command in, also under `bazel run` (which runs the
# program elsewhere and names that folder in BUILD_WORKING_DIRECTORY);
# --help lists each tool's own flags and exits 0; flag combinations that
# mean something do it, the others say what to add or drop; the built-in
# tables include 4x4 Connect-style; the interactive game offers another.
set -u
SOLVE="$TEST_SRCDIR/mnk/solver/solve"
PLAY="$TEST_SRCDIR/mnk/player/play"
VERIFY="$TEST_SRCDIR/mnk/verify/verify"
SERVE="$TEST_SRCDIR/mnk/serve/serve"
TMP="$(mktemp -d "${TEST_TMPDIR:-/tmp}/first.XXXXXX")"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"

# --- Relative paths under `bazel run`: the program runs in its runfiles
# folder, the user is elsewhere.
mkdir -p "$TMP/user/tables" "$TMP/runfiles"
cd "$TMP/runfiles"
export BUILD_WORKING_DIRECTORY="$TMP/user"
out=$("$SOLVE" --width=4 --height=3 --k=3 --quiet --out=t.mnk)
expect_eq "solve exit" 0 $?
[ -f "$TMP/user/t.mnk" ] || fail "solve --out=t.mnk did not land in the user's folder"
[ -e "$TMP/runfiles/t.mnk" ] && fail "solve --out=t.mnk landed in the runfiles"
expect_contains "solve says where" "written to $TMP/user/t.mnk" "$out"
out=$("$PLAY" --table=t.mnk --position=..../..../....)
expect_eq "play exit" 0 $?
expect_contains "play" "value       win in" "$out"
"$VERIFY" --table=t.mnk --quiet > /dev/null
expect_eq "verify exit" 0 $?
"$SOLVE" --width=4 --height=3 --k=3 --quiet --work-dir=w --out=w.mnk > /dev/null
expect_eq "work dir exit" 0 $?
[ -f "$TMP/user/w/manifest" ] || fail "--work-dir=w did not land in the user's folder"
cp "$TMP/user/t.mnk" "$TMP/user/tables/"
"$SERVE" --port=0 --tables=tables > "$TMP/serve.out" 2> "$TMP/serve.err" &
serve=$!
for _ in $(seq 100); do [ -s "$TMP/serve.out" ] && break; sleep 0.1; done
expect_contains "serve --tables=tables" "serving 5 games" "$(cat "$TMP/serve.out")"
kill -TERM $serve
wait $serve
expect_eq "serve exit" 0 $?
unset BUILD_WORKING_DIRECTORY
# Without bazel run: the current folder, and the message names it whole.
cd "$TMP/user"
out=$("$SOLVE" --width=3 --height=3 --k=3 --quiet --out=./here.mnk)
expect_contains "absolute path written" "written to $TMP/user/here.mnk" "$out"

# --- --help: the tool's own flags, one line each, exit 0.
for tool in "$SOLVE" "$PLAY" "$VERIFY" "$SERVE"; do
  name=$(basename "$tool")
  out=$("$tool" --help)
  expect_eq "$name --help exit" 0 $?
  expect_contains "$name --help usage" "$name: " "$out"
  expect_contains "$name --help flags" "flags:" "$out"
  case "$out" in *"--flagfile"*|*"No flags matched"*) fail "$name --help: Abseil's flags or none" ;; esac
done
expect_contains "solve --help" "  --width  board width" "$("$SOLVE" --help)"
expect_contains "solve --help" "  --work-dir (or --work_dir)  keep the work in this folder" "$("$SOLVE" --help)"
expect_contains "play --help" "  --gravity  Connect-style: stones drop to the lowest empty cell of a column (default: the tool's game)" "$("$PLAY" --help)"
case "$("$PLAY" --help)" in *"says)); default"*) fail "play --help: two defaults" ;; esac

# --- Flag combinations.
out=$("$SOLVE" --width=4 --height=3 --k=3 --remoteness=no --quiet --json)
expect_eq "remoteness=no without --layout exit" 0 $?
expect_contains "remoteness=no picks compressed" '"layout":"compressed"' "$out"
"$SOLVE" --remoteness=no --layout=full --quiet > /dev/null 2> "$TMP/err"
expect_eq "remoteness=no full exit" 1 $?
expect_contains "remoteness=no full" "full tables always keep remoteness; use --layout=compressed" "$(cat "$TMP/err")"
"$PLAY" --first=ai --position=......... > /dev/null 2> "$TMP/err"
expect_eq "first with position exit" 1 $?
expect_contains "first with position" "--first applies to a game, not to the answers of --position or --batch" "$(cat "$TMP/err")"
"$PLAY" --json < /dev/null > /dev/null 2> "$TMP/err"
expect_eq "json alone exit" 1 $?
expect_contains "json alone" "--json applies to the answers of --position or --batch: add one of them" "$(cat "$TMP/err")"
out=$("$PLAY" --width=4 --height=4 --k=4 --gravity --position=..../..../..../....)
expect_eq "built-in 4x4k4g exit" 0 $?
expect_contains "built-in 4x4k4g" "value       draw in 16" "$out"

# --- What a player reads.
out=$("$PLAY" --position=XXX/OO./...)
expect_contains "finished position" "value       loss (the game is over)" "$out"
out=$("$PLAY" --position=X........)
expect_contains "remoteness said once" "value       draw in 8" "$out"
case "$out" in *"(remoteness"*) fail "remoteness said twice: $out" ;; esac
# A game, then another: "y" starts it, end of input ends quietly.
out=$(printf '0\n8\n2\ny\nquit\n' | "$PLAY")
expect_eq "again exit" 0 $?
expect_contains "again asked" "I win.
Play again? (y/n) " "$out"
expect_eq "two games" 2 "$(grep -c "against the perfect player\|Game abandoned" <<< "$out")"
out=$(printf '0\n8\n2\n' | "$PLAY")
expect_contains "no more" "Play again? (y/n) " "$out"
help=$(printf 'help\nquit\n' | "$PLAY")
long=$(awk 'length($0) > 80' <<< "$help")
expect_eq "help lines fit 80 columns" "" "$long"

# A board too big for this machine is refused at once, saying what it needs;
# the player, asked for it, names the estimate.
timeout 60 "$SOLVE" --width=7 --height=6 --k=4 > /dev/null 2> "$TMP/err"
expect_eq "7,6,4 without gravity exit" 4 $?
expect_contains "7,6,4 without gravity" "solve: solving 7,6,4 needs" "$(cat "$TMP/err")"
"$PLAY" --width=7 --height=6 --k=4 --position=. > /dev/null 2> "$TMP/err"
expect_eq "no table for 7,6,4 exit" 3 $?
expect_contains "no table for 7,6,4" "--k=4 --estimate\` says what solving it takes" "$(cat "$TMP/err")"
# A solve without --out says that it wrote no table.
expect_contains "solve without --out" "; not written (no --out=FILE)" "$("$SOLVE" --width=3 --height=3 --k=3 --quiet)"

rm -rf "$TMP"
finish "first steps"
