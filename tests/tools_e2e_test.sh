#!/usr/bin/env bash
# End to end for solve and verify: the JSON summary, identical bytes on every
# run, verify's verdicts and exit codes, and crash safety: solve killed with
# SIGKILL at random moments while it writes leaves the target path holding
# the previous complete table or the new one, never a partial file.
set -u
SOLVE="$TEST_SRCDIR/mnk/solver/solve"
VERIFY="$TEST_SRCDIR/mnk/verify/verify"
PLAY="$TEST_SRCDIR/mnk/player/play"
JSON="$TEST_SRCDIR/mnk/tests/json_get"
CHECK="$TEST_SRCDIR/mnk/tests/table_check"
BUILT="$TEST_SRCDIR/mnk/data/3x3k3.mnk"
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"

# --- solve --json for tic-tac-toe.
out=$("$SOLVE" --json --quiet)
expect_eq "solve exit" 0 $?
fields=$(printf '%s\n' "$out" | "$JSON" /game /start_value /start_remoteness /reachable /canonical /symmetries /terminal /terminal_by_outcome /by_ply /indices /layout /table_bytes)
# 765 positions up to symmetry: the published count.
expect_eq "json fields" '{"width":3,"height":3,"k":3,"gravity":false,"misere":false} "draw" 9 5478 765 8 958 {"x_wins":626,"o_wins":316,"draws":16} [1,9,72,252,756,1260,1520,1140,390,78] 6046 "full" 13688' "$(echo $fields)"
# Misère tic-tac-toe: a draw; the game object says misère.
out=$("$SOLVE" --json --quiet --misere)
fields=$(printf '%s\n' "$out" | "$JSON" /game/misere /start_value /reachable)
expect_eq "misere json" 'true "draw" 5478' "$(echo $fields)"
out=$("$SOLVE" --quiet --misere)
expect_contains "misere summary" "3,3,3 misère (3x3, 3 in a row loses)" "$out"
"$SOLVE" --k=4 --quiet > /dev/null 2> "$TMP/err"
expect_eq "bad game exit" 1 $?
expect_contains "bad game" "k = 4 on a 3x3 board: expected 1 <= k <= 3" "$(cat "$TMP/err")"
"$SOLVE" --quiet --out=/nonexistent/dir/t.mnk > /dev/null 2> "$TMP/err"
expect_eq "unwritable exit" 3 $?

# --- The same bytes on every run, with 1 or 2 threads, and at build time.
"$SOLVE" --quiet --threads=1 --out="$TMP/a.mnk" > /dev/null
cmp -s "$TMP/a.mnk" "$BUILT" || fail "3,3,3 differs from the build-time table"
for game in "--width=4 --height=4 --k=3" "--width=4 --height=4 --k=4 --gravity" \
            "--width=5 --height=3 --k=3"; do
  "$SOLVE" $game --quiet --threads=1 --out="$TMP/one.mnk" > /dev/null
  "$SOLVE" $game --quiet --threads=2 --out="$TMP/two.mnk" > /dev/null
  cmp -s "$TMP/one.mnk" "$TMP/two.mnk" || fail "$game: 1 and 2 threads differ"
done

# --- verify: a good table, a corrupt file, records that lie.
out=$("$VERIFY" --table="$BUILT" --quiet)
expect_eq "verify exit" 0 $?
expect_contains "verify ok" "6046 entries, 5478 reachable (header: 5478), 5478 stored records checked against their children (958 terminal" "$out"
expect_contains "verify result" "result      ok, 0 errors" "$out"
"$VERIFY" --table="$TMP/missing.mnk" > /dev/null 2> "$TMP/err"
expect_eq "verify missing exit" 3 $?
head -c 9000 "$BUILT" > "$TMP/short.mnk"
"$VERIFY" --table="$TMP/short.mnk" > /dev/null 2> "$TMP/err"
expect_eq "verify truncated exit" 3 $?
expect_contains "verify truncated" "truncated" "$(cat "$TMP/err")"
"$VERIFY" > /dev/null 2>&1
expect_eq "verify usage exit" 1 $?
"$VERIFY" --table="$TMP" > /dev/null 2> "$TMP/err"
expect_eq "verify directory exit" 3 $?
expect_contains "verify directory" "is a directory" "$(cat "$TMP/err")"
: > "$TMP/empty.mnk"
"$VERIFY" --table="$TMP/empty.mnk" > /dev/null 2> "$TMP/err"
expect_eq "verify empty exit" 3 $?
expect_contains "verify empty" "is empty" "$(cat "$TMP/err")"
for spot in 8 14 9000; do  # the version (to 7), the game's k, a record
  cp "$BUILT" "$TMP/changed.mnk" && chmod u+w "$TMP/changed.mnk"
  printf '\x07' | dd of="$TMP/changed.mnk" bs=1 seek=$spot conv=notrunc 2> /dev/null
  "$VERIFY" --table="$TMP/changed.mnk" > /dev/null 2> "$TMP/err"
  expect_eq "verify changed byte $spot exit" 3 $?
done
expect_contains "verify changed record" "checksum" "$(cat "$TMP/err")"
"$SOLVE" --width=4 --height=4 --k=3 --quiet --out="$TMP/443.mnk" > /dev/null
"$PLAY" --table="$TMP/443.mnk" --k=4 2> "$TMP/err" < /dev/null
expect_eq "other game exit" 3 $?
expect_contains "other game" "is a table for 4,4,3, not for the game asked for, 4,4,4" "$(cat "$TMP/err")"

# --- The compact layout: written on request, read by play and verify.
out=$("$SOLVE" --width=4 --height=4 --k=4 --gravity --layout=compact --quiet --out="$TMP/compact.mnk")
expect_contains "compact summary" "table       compact layout, 20934 bytes" "$out"
out=$("$VERIFY" --table="$TMP/compact.mnk" --quiet)
expect_eq "compact verify exit" 0 $?
expect_contains "compact verify" "201755 entries, 161029 reachable (header: 161029), 80031 stored records checked" "$out"
out=$("$PLAY" --table="$TMP/compact.mnk" --position=..../..../..../XO.. --json)
fields=$(printf '%s\n' "$out" | "$JSON" /value /remoteness /best_move /best_column /moves/1/cell /moves/1/value /moves/1/remoteness)
expect_eq "compact json" '"draw" null 8 0 9 "loss" null' "$(echo $fields)"
"$SOLVE" --layout=tiny --quiet > /dev/null 2>&1
expect_eq "bad layout exit" 1 $?

# --- --layout=book: the reachable positions alone (the sparse solver), for
# boards whose index is far larger: a table (complete, unlike an opening
# book) that answers as the full table does, and verify checks.
out=$("$SOLVE" --width=4 --height=3 --k=3 --layout=book --quiet --json --out="$TMP/4x3.book.mnk")
fields=$(printf '%s\n' "$out" | "$JSON" /layout /start_value /start_remoteness /reachable /canonical /index_visits /table_bytes)
expect_eq "book json" '"book" "win" 7 111973 28275 20088 45079' "$(echo $fields)"
"$SOLVE" --width=4 --height=3 --k=3 --quiet --out="$TMP/4x3.full.mnk" > /dev/null
out=$("$VERIFY" --table="$TMP/4x3.book.mnk" --quiet)
expect_eq "book verify exit" 0 $?
expect_contains "book verify" "20088 entries, 20088 reachable (header: 20088), 20088 stored records checked" "$out"
for p in ..../..../.... X.../O.../.... XXX./OO../....; do
  expect_eq "book answer $p" "$("$PLAY" --table="$TMP/4x3.full.mnk" --position=$p --json)" "$("$PLAY" --table="$TMP/4x3.book.mnk" --position=$p --json)"
done
# One column of 40 with gravity: 2.8e11 indices, 41 positions.
out=$("$SOLVE" --width=1 --height=40 --k=2 --gravity --layout=book --quiet --json --out="$TMP/1x40.mnk")
fields=$(printf '%s\n' "$out" | "$JSON" /start_value /start_remoteness /reachable /indices)
expect_eq "1x40 json" '"draw" 40 41 278116364686' "$(echo $fields)"
"$SOLVE" --width=1 --height=40 --k=2 --gravity --quiet > /dev/null 2> "$TMP/err"
expect_eq "1x40 dense exit" 4 $?
expect_contains "1x40 dense hint" "--layout=book needs 9 bytes a reachable position" "$(cat "$TMP/err")"
out=$("$PLAY" --width=1 --height=40 --k=2 --gravity --book="$TMP/1x40.mnk" --position="$(printf '.%.0s/' $(seq 39)).")
expect_contains "1x40 play" "draw in 40" "$out"
out=$("$PLAY" --table="$TMP/1x40.mnk" --position="$(printf './%.0s' $(seq 38))O/X")
expect_contains "1x40 table" "draw in 38" "$out"
"$SOLVE" --layout=book --remoteness=no --quiet > /dev/null 2> "$TMP/err"
expect_eq "book without remoteness exit" 1 $?
"$SOLVE" --layout=book --work-dir="$TMP/wd" --quiet > /dev/null 2> "$TMP/err"
expect_eq "book work dir exit" 1 $?
expect_contains "book work dir" "takes no --work-dir" "$(cat "$TMP/err")"
"$SOLVE" --width=4 --height=4 --k=4 --layout=book --memory=64K --quiet > /dev/null 2> "$TMP/err"
expect_eq "book memory exit" 4 $?
expect_contains "book memory" "in play up to ply" "$(cat "$TMP/err")"

# --- The compressed layout: with and without remoteness; play answers as
# from the full table, verify re-derives every stored record.
"$SOLVE" --width=4 --height=4 --k=4 --gravity --quiet --out="$TMP/full.mnk" > /dev/null
out=$("$SOLVE" --width=4 --height=4 --k=4 --gravity --layout=compressed --quiet --json --out="$TMP/compressed.mnk")
fields=$(printf '%s\n' "$out" | "$JSON" /layout /canonical /table_bytes)
expect_eq "compressed json" '"compressed" 80541 43522' "$(echo $fields)"
out=$("$VERIFY" --table="$TMP/compressed.mnk" --quiet)
expect_eq "compressed verify exit" 0 $?
expect_contains "compressed verify terminal" "(terminal positions are not stored: the rules decide them)" "$out"
for p in ..../..../..../XO.. ..../..../.O../XXO. ..../..../..../....; do
  expect_eq "compressed answer $p" "$("$PLAY" --table="$TMP/full.mnk" --position=$p --json)" "$("$PLAY" --table="$TMP/compressed.mnk" --position=$p --json)"
done
# --layout=auto: full up to 64 MiB (4x4 gravity: 454 KB), compressed past
# it (6x3, k=3: a full table would take 195 MB).
out=$("$SOLVE" --width=4 --height=4 --k=4 --gravity --quiet --json)
expect_eq "auto small" '"full"' "$(printf '%s\n' "$out" | "$JSON" /layout)"
out=$("$SOLVE" --width=6 --height=3 --k=3 --quiet --json --out="$TMP/auto.mnk")
fields=$(printf '%s\n' "$out" | "$JSON" /layout /reachable /canonical)
expect_eq "auto big" '"compressed" 46487328 11632111' "$(echo $fields)"
out=$("$VERIFY" --table="$TMP/auto.mnk" --quiet)
expect_eq "auto big verify exit" 0 $?
"$SOLVE" --width=4 --height=4 --k=4 --gravity --layout=compressed --remoteness=no --quiet --out="$TMP/noplies.mnk" > /dev/null
out=$("$PLAY" --table="$TMP/noplies.mnk" --position=..../..../..../XO.. --json)
fields=$(printf '%s\n' "$out" | "$JSON" /value /remoteness /best_move)
expect_eq "compressed without remoteness" '"draw" null 8' "$(echo $fields)"
"$SOLVE" --remoteness=no --layout=full --quiet > /dev/null 2> "$TMP/err"
expect_eq "remoteness=no with a full layout exit" 1 $?
expect_contains "remoteness=no with a full layout" "full tables always keep remoteness" "$(cat "$TMP/err")"
"$SOLVE" --remoteness=yes --layout=compact --quiet > /dev/null 2> "$TMP/err"
expect_eq "remoteness=yes with a compact layout exit" 1 $?
expect_contains "remoteness=yes with a compact layout" "compact tables never keep remoteness" "$(cat "$TMP/err")"
"$SOLVE" --layout=compressed --remoteness=maybe --quiet > /dev/null 2> "$TMP/err"
expect_eq "bad remoteness exit" 1 $?
expect_contains "bad remoteness" "--remoteness=maybe: expected yes or no" "$(cat "$TMP/err")"

# --- Crash safety: the target first holds a complete 3,3,3 table; solve of
# 4,4,4 to the same path is killed with SIGKILL, half the time at a random
# moment of the run, half the time as soon as its temporary file appears
# (while it writes).
target="$TMP/target.mnk"
cp "$BUILT" "$target" && chmod u+w "$target"
"$SOLVE" --width=4 --height=4 --k=4 --quiet --out="$TMP/new.mnk" > /dev/null
old=0 new=0 midwrite=0
for i in $(seq 1 30); do
  rm -f "$target".tmp-*
  "$SOLVE" --width=4 --height=4 --k=4 --quiet --out="$target" > /dev/null &
  pid=$!
  if [ $((i % 2)) -eq 0 ]; then
    sleep "0.$(printf '%03d' $((RANDOM % 1000)))"
  else
    while kill -0 "$pid" 2> /dev/null && ! ls "$target".tmp-* > /dev/null 2>&1; do
      :
    done
  fi
  kill -KILL "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  ls "$target".tmp-* > /dev/null 2>&1 && midwrite=$((midwrite + 1))
  if cmp -s "$target" "$BUILT"; then
    old=$((old + 1))
  elif cmp -s "$target" "$TMP/new.mnk"; then
    new=$((new + 1))
    cp "$BUILT" "$target"
  else
    fail "kill $i: $target is neither the old nor the new table"
    cp "$BUILT" "$target"
  fi
  # Whatever is at the path loads.
  "$PLAY" --table="$target" --position=......... > /dev/null 2>&1 ||
    fail "kill $i: $target does not load"
done
echo "killed 30 solves: the target held the old table $old times, the new one $new times; $midwrite kills came while the table was being written"
[ "$midwrite" -gt 0 ] || fail "no kill landed while the table was written"
# With no previous table the path holds nothing or the whole new table.
for i in $(seq 1 6); do
  rm -f "$target" "$target".tmp-*
  "$SOLVE" --width=4 --height=4 --k=4 --quiet --out="$target" > /dev/null &
  pid=$!
  sleep "0.$(printf '%03d' $((RANDOM % 1000)))"
  kill -KILL "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  [ ! -e "$target" ] || cmp -s "$target" "$TMP/new.mnk" ||
    fail "fresh kill $i: a partial table is at $target"
done

# --- table_check, the proof of big tables, on tic-tac-toe: every sampled
# position agrees with alpha-beta; those with too many empty cells skipped.
out=$("$CHECK" --table="$BUILT" --count=1000 --max_empty=6 --search_bits=16)
expect_eq "table_check exit" 0 $?
expect_contains "table_check" "3,3,3: 1000 positions checked, 0 disagree" "$out"
expect_contains "table_check skips" "ply  2: 0 checked, 10 skipped (over 6 empty cells)" "$out"
"$CHECK" > /dev/null 2> "$TMP/err"
expect_eq "table_check no table exit" 2 $?
expect_contains "table_check no table" "--table=FILE is required" "$(cat "$TMP/err")"
"$CHECK" --table="$BUILT" --max_empty=-1 > /dev/null 2> "$TMP/err"
expect_eq "table_check bad max_empty exit" 2 $?
expect_contains "table_check bad max_empty" "--max_empty=-1: expected 0 to 9" "$(cat "$TMP/err")"
echo "not a table" > "$TMP/not-a-table"
"$CHECK" --table="$TMP/not-a-table" > /dev/null 2> "$TMP/err"
expect_eq "table_check not a table exit" 2 $?
expect_contains "table_check not a table" "is not a table file" "$(cat "$TMP/err")"

finish "solve and verify end-to-end"
