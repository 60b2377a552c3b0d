#!/usr/bin/env bash
# End to end: the play binary driven through standard input and flags, with
# the built tic-tac-toe table, and its exit codes for bad input and tables.
set -u
PLAY="$TEST_SRCDIR/mnk/player/play"
TABLE="$TEST_SRCDIR/mnk/data/3x3k3.mnk"
JSON="$TEST_SRCDIR/mnk/tests/json_get"
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"

# --- A scripted game: a typo, then moves; the table wins with column 1-4-7.
out=$(printf 'abc\n0\n8\n2\n' | "$PLAY")
expect_eq "game exit" 0 $?
expect_contains "game typo" "'abc' is not a cell number or a command" "$out"
expect_contains "game reply" "I play cell 4 (" "$out"
expect_contains "game finish" "I play cell 7 (" "$out"
expect_contains "game board" " X | O | X
---+---+---
 3 | O | 5
---+---+---
 6 | O | X" "$out"
expect_contains "game result" "I win." "$out"

# --- Bad moves, hint and eval, then end of input mid-game.
out=$(printf '9\n0\n0\nhint\neval\n' | "$PLAY")
expect_eq "eof exit" 0 $?
expect_contains "off board" "cell 9 is off the board: expected 0 to 8." "$out"
expect_contains "taken" "cell 0 is taken. Choose an empty cell." "$out"
expect_contains "hint" "Best move: cell 1 (draw in 7)." "$out"
expect_contains "eval" "  cell 1: draw in 7  <- best
  cell 2: draw in 7" "$out"
expect_contains "eof" "End of input: game abandoned." "$out"

# --- The table moves first; the person plays O.
out=$(printf '1\n' | "$PLAY" --first=ai --mark=O)
expect_contains "ai first" "I play cell 0 (" "$out"
expect_contains "ai first reply" "I play cell 3 (" "$out"
out=$("$PLAY" < /dev/null)
expect_eq "empty stdin exit" 0 $?

# --- One-shot queries.
out=$("$PLAY" --position=X.OX.XOO. --json)
fields=$(printf '%s\n' "$out" | "$JSON" /game/width /game/misere /position /to_move /value /remoteness /best_move /moves/0/cell /moves/0/value /moves/0/remoteness /moves/1/cell /moves/1/value /moves/1/remoteness /moves/2/cell /moves/2/value /moves/2/remoteness /moves/3)
expect_eq "json" '3 false "X.O/X.X/OO." "X" "win" 1 4 1 "loss" 2 4 "win" 1 8 "loss" 2 <missing>' "$(echo $fields)"
out=$("$PLAY" --position=XXX/OO./... --json)
fields=$(printf '%s\n' "$out" | "$JSON" /position /to_move /value /remoteness /best_move /moves)
expect_eq "json terminal" '"XXX/OO./..." "O" "loss" 0 null []' "$(echo $fields)"
# Levels: seeded, the same move every time; level 10, the perfect one.
out=$(printf 'quit\n' | "$PLAY" --first=ai --level=1 --seed=1)
expect_contains "level 1" "I play cell 6 (draw in 9 for me)." "$out"
out=$(printf 'quit\n' | "$PLAY" --first=ai --level=1 --seed=2)
expect_contains "level 1 seed 2" "I play cell 0 (draw in 9 for me)." "$out"
out=$(printf 'quit\n' | "$PLAY" --first=ai)
expect_contains "level 10" "I play cell 0 (draw in 9 for me)." "$out"
"$PLAY" --level=11 < /dev/null 2> "$TMP/err" > /dev/null
expect_eq "level 11 exit" 1 $?
expect_contains "level 11" "--level 11: expected a level from 1 (random) to 10 (perfect)" "$(cat "$TMP/err")"
out=$("$PLAY" --position=XO./.X./... --pv --json)
expect_eq "pv json" '[8,3,2,5]' "$(printf '%s\n' "$out" | "$JSON" /pv)"
out=$("$PLAY" --position=XO./.X./... --pv)
expect_contains "pv text" "best line   cells 8 3 2 5" "$out"
out=$("$PLAY" --position=XXX/OO./... --pv --json)
expect_eq "pv finished" '[]' "$(printf '%s\n' "$out" | "$JSON" /pv)"
"$PLAY" --pv 2> "$TMP/err" > /dev/null
expect_eq "pv without position exit" 1 $?
expect_contains "pv without position" "--pv applies to the answer of --position" "$(cat "$TMP/err")"
out=$("$PLAY" --position=XO.XO....)
expect_contains "text" "best move   6" "$out"
expect_contains "text moves" "cell 6  win in 1  <- best" "$out"

# --- Batch protocol: one answer line per input line, errors included.
out=$(printf 'XO.......\n\nX.?\nXO.XO....\n' | "$PLAY" --batch)
expect_eq "batch" "position=XO./.../... to_move=X value=win remoteness=5 best_move=3 moves=2:draw:7,3:win:5,4:win:5,5:draw:7,6:win:5,7:draw:7,8:draw:7
error: empty line: expected a position
error: unknown character '?' at character 3: expected 'X', 'O', '.' or '/'
position=XO./XO./... to_move=X value=win remoteness=1 best_move=6 moves=2:loss:2,5:loss:2,6:win:1,7:draw:5,8:loss:2" "$out"
out=$(printf 'X........\nOOO\n' | "$PLAY" --batch --json)
fields=$(printf '%s\n' "$out" | "$JSON" /position /to_move /value /remoteness /best_move /moves/3/cell /moves/3/value /moves/3/remoteness /moves/0/value /input /error)
expect_eq "batch json" '"X../.../..." "O" "draw" 8 4 4 "draw" 8 "loss" <missing> <missing> <missing> <missing> <missing> <missing> <missing> <missing> <missing> <missing> <missing> "OOO" "position has 3 cells: a 3x3 board has 9"' "$(echo $fields)"
# Garbage: a 1 MB line, binary bytes, then a CRLF line (answered) and a
# line without '\n' at the end.
out=$( { head -c 1000000 /dev/zero | tr '\0' 'X'; printf '\n\x00\xff\x01\nX........\r\n.........'; } | "$PLAY" --batch)
expect_eq "garbage exit" 0 $?
expect_eq "garbage lines" 4 "$(printf '%s\n' "$out" | wc -l)"
expect_contains "long line" "error: line is longer than 4096 bytes" "$out"
expect_contains "binary" "error: unknown character byte 0x00 at character 1" "$out"
expect_contains "crlf" "position=X../.../... to_move=O value=draw remoteness=8" "$out"
expect_contains "no newline" "position=.../.../... to_move=X value=draw remoteness=9 best_move=0" "$out"

# --- Misère: the built-in misère table, its game object, its title and help,
# and a table refused when asked for as the other game.
out=$("$PLAY" --misere --position=......... --json)
fields=$(printf '%s\n' "$out" | "$JSON" /game/misere /value /best_move /moves/4/value /moves/0/value)
expect_eq "misere json" 'true "draw" 4 "draw" "loss"' "$(echo $fields)"
out=$(printf 'help\nquit\n' | "$PLAY" --misere)
expect_contains "misere title" "Misère tic-tac-toe against the perfect player: 3 in a row loses." "$out"
expect_contains "misere help" "This is Misère tic-tac-toe: 3 in a row loses." "$out"
"$PLAY" --table="$TABLE" --misere --position=......... 2> "$TMP/err"
expect_eq "misere mismatch exit" 3 $?
expect_contains "misere mismatch" "is a table for 3,3,3, not for the game asked for, 3,3,3 misère" "$(cat "$TMP/err")"
# Valid UTF-8 comes back as UTF-8 in JSON errors.
out=$(printf '\xef\xbc\xb8\n' | "$PLAY" --batch --json)
expect_eq "utf-8 echo" '"Ｘ"' "$(printf '%s\n' "$out" | "$JSON" /input)"

# --- A gravity board: columns typed, labels drawn, columns in the JSON.
GRAVITY="$TEST_SRCDIR/mnk/data/4x4k4g.mnk"
out=$(printf '7\n1\n1\n1\n1\nhint\n' | "$PLAY" --table="$GRAVITY" --first=human)
expect_contains "gravity intro" "Type a column number (0-3)" "$out"
expect_contains "gravity labels" " | . | . | . | . |
 | . | . | . | . |
 | . | . | . | . |
 | . | . | . | . |
   0   1   2   3" "$out"
expect_contains "gravity off board" "column 7 is off the board: expected 0 to 3." "$out"
expect_contains "gravity full" "column 1 is full. Choose another column." "$out"
expect_contains "gravity hint" "Best move: column" "$out"
out=$("$PLAY" --table="$GRAVITY" --position=..../..../..../.... --json)
fields=$(printf '%s\n' "$out" | "$JSON" /game/gravity /value /remoteness /best_move /best_column /moves/1/cell /moves/1/column /moves/1/value /moves/1/remoteness)
expect_eq "gravity json" 'true "draw" 16 12 0 13 1 "draw" 16' "$(echo $fields)"
"$PLAY" --table="$GRAVITY" --position=..../..../X.../O... 2> "$TMP/err"
expect_eq "gravity unreachable exit" 2 $?
expect_contains "gravity unreachable" "no order of moves reaches this position" "$(cat "$TMP/err")"
"$PLAY" --table="$GRAVITY" --nogravity 2> "$TMP/err" < /dev/null
expect_eq "gravity mismatch exit" 3 $?
expect_contains "gravity mismatch" "a table for 4,4,4 gravity, not for the game asked for, 4,4,4" "$(cat "$TMP/err")"
out=$("$PLAY" --table="$GRAVITY" --gravity --width=4 --position=..../..../..../X...)
expect_eq "gravity flags exit" 0 $?

# --- Exit codes and messages.
"$PLAY" --position=XX. 2> "$TMP/err" > /dev/null
expect_eq "bad position exit" 2 $?
expect_contains "bad position message" "position has 3 cells" "$(cat "$TMP/err")"
"$PLAY" --first=bob 2> "$TMP/err" < /dev/null
expect_eq "bad flag exit" 1 $?
"$PLAY" --no_such_flag 2> /dev/null < /dev/null
expect_eq "unknown flag exit" 1 $?
"$PLAY" --table="$TMP/missing.mnk" 2> "$TMP/err" < /dev/null
expect_eq "missing table exit" 3 $?
expect_contains "missing table" "No such file or directory" "$(cat "$TMP/err")"
"$PLAY" --table="$TMP" 2> "$TMP/err" < /dev/null
expect_eq "directory exit" 3 $?
expect_contains "directory" "is a directory" "$(cat "$TMP/err")"
: > "$TMP/empty.mnk"
"$PLAY" --table="$TMP/empty.mnk" 2> "$TMP/err" < /dev/null
expect_eq "empty table exit" 3 $?
expect_contains "empty table" "is empty" "$(cat "$TMP/err")"
head -c 5000 "$TABLE" > "$TMP/short.mnk"
"$PLAY" --table="$TMP/short.mnk" 2> "$TMP/err" < /dev/null
expect_eq "truncated exit" 3 $?
expect_contains "truncated" "is truncated: 5000 bytes, expected 13688" "$(cat "$TMP/err")"
cp "$TABLE" "$TMP/flipped.mnk" && chmod u+w "$TMP/flipped.mnk"
printf '\x07' | dd of="$TMP/flipped.mnk" bs=1 seek=9000 conv=notrunc 2> /dev/null
"$PLAY" --table="$TMP/flipped.mnk" --position=......... 2> "$TMP/err"
expect_eq "flipped exit" 3 $?
expect_contains "flipped" "checksum" "$(cat "$TMP/err")"
cp "$TABLE" "$TMP/version.mnk" && chmod u+w "$TMP/version.mnk"
printf '\x01' | dd of="$TMP/version.mnk" bs=1 seek=8 conv=notrunc 2> /dev/null
"$PLAY" --table="$TMP/version.mnk" 2> "$TMP/err" < /dev/null
expect_eq "version exit" 3 $?
expect_contains "version" "has format version 1; this program reads version 3: solve the game again" "$(cat "$TMP/err")"
printf 'GIF89a, not a table at all' > "$TMP/other.mnk"
"$PLAY" --table="$TMP/other.mnk" 2> "$TMP/err" < /dev/null
expect_eq "not a table exit" 3 $?
expect_contains "not a table" "is not a table file" "$(cat "$TMP/err")"
# A table without read permission. Root reads anything, so as root the
# check runs a copy of play as nobody, in a folder nobody can enter.
perm=$(mktemp -d /tmp/mnk-perm.XXXXXX)
chmod 755 "$perm"
cp "$TABLE" "$perm/table.mnk" && chmod 000 "$perm/table.mnk"
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null; then
  cp "$PLAY" "$perm/play" && chmod 755 "$perm/play"
  setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$perm/play" --table="$perm/table.mnk" 2> "$TMP/err" < /dev/null
else
  "$PLAY" --table="$perm/table.mnk" 2> "$TMP/err" < /dev/null
fi
expect_eq "unreadable exit" 3 $?
expect_contains "unreadable" "Permission denied" "$(cat "$TMP/err")"
rm -rf "$perm"
"$PLAY" --table="$TABLE" --k=2 2> "$TMP/err" < /dev/null
expect_eq "other game exit" 3 $?
expect_contains "other game" "a table for 3,3,3, not for the game asked for, 3,3,2" "$(cat "$TMP/err")"
"$PLAY" --width=4 --height=4 --k=4 2> "$TMP/err" < /dev/null
expect_eq "no built-in table exit" 3 $?
expect_contains "no built-in" "no built-in table for 4,4,4" "$(cat "$TMP/err")"
# No advice to solve a board no table can hold.
"$PLAY" --width=8 --height=8 --k=5 2> "$TMP/err" < /dev/null
expect_eq "no table possible exit" 3 $?
expect_eq "no table possible" "play: no built-in table for 8,8,5, and 8,8,5 has 64 cells: tables hold boards of at most 63 (a remoteness takes 6 bits)" "$(cat "$TMP/err")"

# --- Batch through a pipe that sends the next line only after the answer
# to the last: each answer must come at once, though answers to a full pipe
# are written in large blocks (flushed only before a read would wait).
coproc BATCH { "$PLAY" --batch; }
# Bash unsets BATCH and BATCH_PID once the coprocess is reaped: copy them.
batch_pid=$BATCH_PID
batch_in=${BATCH[1]}
batch_out=${BATCH[0]}
answers=0
for p in XO./.../... .../.X./... XXX/OO./...; do
  echo "$p" >&"$batch_in"
  if IFS= read -r -t 10 line <&"$batch_out"; then
    expect_contains "interactive batch $p" "position=$p" "$line"
    answers=$((answers + 1))
  fi
done
expect_eq "interactive batch answers, one at a time" 3 "$answers"
exec {batch_in}>&-
wait "$batch_pid"
expect_eq "interactive batch exit" 0 $?

# --- A table cut short while mapped: seen before the next read (or, in the
# middle of a probe, SIGBUS caught), said, exit 3.
cp "$TABLE" "$TMP/cut.mnk" && chmod u+w "$TMP/cut.mnk"
coproc CUT { "$PLAY" --table="$TMP/cut.mnk" --batch 2> "$TMP/cut_err"; }
cut_pid=$CUT_PID
cut_in=${CUT[1]}
cut_out=${CUT[0]}
echo "X........" >&"$cut_in"
IFS= read -r -t 10 line <&"$cut_out"
expect_contains "cut: first answer" "position=X../.../..." "$line"
: > "$TMP/cut.mnk"  # cut to nothing, in place
echo ".X......." >&"$cut_in"
exec {cut_in}>&-
wait "$cut_pid"
expect_eq "cut exit" 3 $?
expect_contains "cut message" "cut short while in use" "$(cat "$TMP/cut_err")"

# --- Connect Four 7x6 has no table: the exact search answers, the same way.
C4=(--width=7 --height=6 --k=4 --gravity)
# The empty board, from the built-in book: the published result (only the
# centre column wins, on ply 41; the two beside it draw; the rest lose).
out=$("$PLAY" "${C4[@]}" --position=......./......./......./......./......./.......)
expect_eq "book exit" 0 $?
expect_contains "book value" "value       win in 41
best move   38 (column 3)" "$out"
expect_contains "book moves" "  column 0   loss in 40
  column 1   loss in 42
  column 2   draw in 42
  column 3   win in 41  <- best
  column 4   draw in 42
  column 5   loss in 42
  column 6   loss in 40" "$out"
# The second player's first reply, from the book too.
out=$("$PLAY" "${C4[@]}" --position=......./......./......./......./......./...X...)
expect_contains "book reply" "value       loss in 40
best move   31 (column 3)" "$out"
out=$("$PLAY" "${C4[@]}" --position=......./......./...O.../..XX.O./.OOXXX./OXXOOXO)
expect_eq "search exit" 0 $?
expect_contains "search value" "value       win in 1
best move   16 (column 2)" "$out"
expect_contains "search tie" "  column 2   win in 1  <- best" "$out"
expect_contains "search tie 2" "  column 6   win in 1" "$out"
# Asking for less: the value, remoteness and best move, no moves (past the
# opening table, by search).
off_book=......./......./......./...O.../.OXXO.O/XXOXO.X
full=$("$PLAY" "${C4[@]}" --position=$off_book --json)
best=$("$PLAY" "${C4[@]}" --position=$off_book --json --best_only)
expect_eq "best_only exit" 0 $?
expect_contains "best_only moves" '"moves":[]' "$best"
expect_eq "best_only answer" "${full%%,\"moves\"*}" "${best%%,\"moves\"*}"
out=$("$PLAY" "${C4[@]}" --best_only 2>&1 < /dev/null)
expect_eq "best_only without --position exit" 1 $?
expect_contains "best_only without --position" "--best_only applies to the answers of --position or --batch" "$out"
out=$(printf '......./......./......./......./......./XXX.OO.\nXXXX\n' |
      "$PLAY" "${C4[@]}" --batch)
expect_eq "search batch exit" 0 $?
expect_contains "search batch" "to_move=O value=win remoteness=33 best_move=38 moves=28:loss:2,29:loss:2,30:loss:2,38:win:33,32:loss:2,33:loss:2,41:loss:2" "$out"
expect_contains "search batch error" "error: " "$out"
out=$("$PLAY" "${C4[@]}" --misere --position=. 2>&1)
expect_eq "search misere exit" 3 $?
expect_contains "search misere" "the exact search plays the normal game, not misère" "$out"
out=$("$PLAY" "${C4[@]}" --book="$TABLE" --position=. 2>&1)
expect_eq "book not a book exit" 3 $?
expect_contains "book not a book" "is a table for 3,3,3, not for the game asked for" "$out"
out=$("$PLAY" "${C4[@]}" --search_memory=1K --position=. 2>&1)
expect_eq "search memory exit" 1 $?
expect_contains "search memory" "--search_memory=1K is too little: expected at least 16 KiB" "$out"
"$TEST_SRCDIR/mnk/search/book/book" --width=4 --height=4 --plies=4 --threads=1 \
  --search_memory=16M --out="$TMP/4x4-book.mnk" --quiet > /dev/null
expect_eq "book exit" 0 $?
out=$("$PLAY" --table="$TMP/4x4-book.mnk" --position=. 2>&1)
expect_eq "book as table exit" 3 $?
expect_contains "book as table" "is an opening book, not a table: a book answers beside a search (play takes it as --book=FILE)" "$out"

finish "play end-to-end"
