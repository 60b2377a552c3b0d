#!/usr/bin/env bash
# End to end for solves in tiers: a work dir changes nothing in the table;
# a solve killed with SIGKILL at random moments and resumed, again and again,
# writes the same bytes as one uninterrupted solve; a damaged tier is solved
# again, never trusted; and the errors: a work dir in use, of another solve,
# held by a running one, a full disk, too little memory. MPI is in
# tiers_mpi_e2e_test, verify in tiers in verify_tiers_e2e_test.
set -u
SOLVE="$TEST_SRCDIR/mnk/solver/solve"
JSON="$TEST_SRCDIR/mnk/tests/json_get"
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"

# --- The same bytes with a work dir (small tiers), for every layout.
n=0
for game in "${tier_games[@]}"; do
  n=$((n + 1))
  "$SOLVE" $game --quiet --out="$TMP/plain$n.mnk" > /dev/null \
    || fail "$game: plain solve"
  "$SOLVE" $game --quiet --json --out="$TMP/tiers$n.mnk" --work-dir="$TMP/w$n" \
    --tier-indices=4096 > "$TMP/tiers$n.json" || fail "$game: solve with a work dir"
  cmp -s "$TMP/plain$n.mnk" "$TMP/tiers$n.mnk" \
    || fail "$game: a work dir changed the table"
  # Resuming a finished solve solves nothing and writes the same table.
  out=$("$SOLVE" $game --quiet --json --out="$TMP/again$n.mnk" \
    --work-dir="$TMP/w$n" --tier-indices=4096 --resume)
  expect_eq "$game: resumed finished solve" "0 0" \
    "$(printf '%s\n' "$out" | "$JSON" /tiers/solved /tiers/redone | xargs)"
  cmp -s "$TMP/plain$n.mnk" "$TMP/again$n.mnk" || fail "$game: resume differs"
done
# A compressed solve keeps each layer done ("D", and "S" for its sections)
# and removes the tiers nothing reads again: at the end only the empty
# board's tier is left, and no reachable bits; resumed, it takes the 21
# layers of 5x4 gravity (17 of 4,4,4) whole.
for n in 4 5; do
  expect_eq "game $n: tiers left" "1 0" \
    "$(ls "$TMP/w$n" | grep -c '^L') $(ls "$TMP/w$n" | grep -c '^R')"
done
expect_eq "5x4 gravity: layers done" "21 11" \
  "$(ls "$TMP/w4" | grep -c '^D') $(ls "$TMP/w4" | grep -c '^S')"
out=$("$SOLVE" --width=5 --height=4 --k=4 --gravity --layout=compressed --quiet \
  --json --out="$TMP/again4.mnk" --work-dir="$TMP/w4" --tier-indices=4096 --resume)
expect_eq "5x4 gravity: layers taken whole" 21 \
  "$(printf '%s\n' "$out" | "$JSON" /tiers/layers_loaded)"

# --- Killed at random moments, resumed until done: the same bytes.
kill_and_resume() {  # NAME PLAIN_TABLE FLAGS...
  local name=$1 plain=$2
  shift 2
  local dir="$TMP/k-$name"
  rm -rf "$dir"
  # The first kill comes early (the solve takes 0.3 s or more).
  run_killed 0.05 710 "$TMP/k.json" "$TMP/k.err" "$SOLVE" "$@" --quiet --json \
    --out="$TMP/k.mnk" --work-dir="$dir" --tier-indices=65536
  expect_eq "$name: resumed solve exit ($(cat "$TMP/k.err"))" 0 "$status"
  ls "$dir" | grep -q '\.tmp\.' && fail "$name: temporary files left in the work dir"
  cmp -s "$plain" "$TMP/k.mnk" || fail "$name: killed $kills times, then a different table"
  [ "$kills" -gt 0 ] || fail "$name: never killed mid-solve"
  echo "$name: killed $kills times, then finished with the same bytes"
}
kill_and_resume gravity "$TMP/plain4.mnk" --width=5 --height=4 --k=4 --gravity \
  --layout=compressed
kill_and_resume full "$TMP/plain2.mnk" --width=4 --height=4 --k=3 --misere

# --- A damaged tier is solved again, never trusted (a full table's work
# dir keeps every tier).
dir="$TMP/w2"
victim=$(ls "$dir" | grep '^L1.*\.tier$' | head -1)
printf 'x' | dd of="$dir/$victim" bs=1 seek=40 conv=notrunc 2> /dev/null
: > "$dir/$(ls "$dir" | grep '^L0.*\.tier$' | head -1)"
out=$("$SOLVE" --width=4 --height=4 --k=3 --misere --quiet --json \
  --out="$TMP/mended.mnk" --work-dir="$dir" --tier-indices=4096 --resume)
expect_eq "damaged tiers redone" "2 2" \
  "$(printf '%s\n' "$out" | "$JSON" /tiers/solved /tiers/redone | xargs)"
cmp -s "$TMP/plain2.mnk" "$TMP/mended.mnk" || fail "mended table differs"
# A damaged layer of a compressed solve cannot be solved again (the tiers
# it came from are gone): the resumed solve says so and writes nothing.
# expect_lost WORK_DIR FILE: FILE of the finished 5x4 gravity work dir
# damaged, the resumed solve fails naming it.
expect_lost() {
  printf 'x' | dd of="$1/$2.tier" bs=1 seek=70 conv=notrunc 2> /dev/null
  "$SOLVE" --width=5 --height=4 --k=4 --gravity --layout=compressed --quiet \
    --out="$TMP/lost.mnk" --work-dir="$1" --tier-indices=4096 --resume \
    > /dev/null 2> "$TMP/err"
  expect_eq "lost $2 exit" 5 $?
  expect_contains "lost $2" "$2 in $1 is lost" "$(cat "$TMP/err")"
  expect_contains "lost $2 advice" "start the solve again in an empty work dir" "$(cat "$TMP/err")"
  [ -e "$TMP/lost.mnk" ] && fail "a table was written from a lost $2"
}
# Its sections are read back as the table is written, a layer at a time.
cp -r "$TMP/w4" "$TMP/w4lost"
expect_lost "$TMP/w4lost" S08
expect_lost "$TMP/w4" D07

# --- Errors.
"$SOLVE" --quiet --work-dir="$TMP/w1" > /dev/null 2> "$TMP/err"
expect_eq "work dir in use exit" 1 $?
expect_contains "work dir in use" "holds a solve already; pass --resume" "$(cat "$TMP/err")"
"$SOLVE" --quiet --k=2 --work-dir="$TMP/w1" --resume > /dev/null 2> "$TMP/err"
expect_eq "another solve exit" 1 $?
expect_contains "another solve" "holds another solve" "$(cat "$TMP/err")"
# A solve running in the dir (here flock(1) holding its lock) keeps a second
# one out, even to resume: its tiers would be overwritten.
flock "$TMP/w1/lock" "$SOLVE" --quiet --work-dir="$TMP/w1" --resume \
  > /dev/null 2> "$TMP/err"
expect_eq "work dir held exit" 1 $?
expect_contains "work dir held" "another process is running a solve in the work dir $TMP/w1 (it holds $TMP/w1/lock); wait for it to end" "$(cat "$TMP/err")"
"$SOLVE" --quiet --resume > /dev/null 2> "$TMP/err"
expect_eq "resume without work dir exit" 1 $?
expect_contains "resume without work dir" "--resume needs the --work-dir" "$(cat "$TMP/err")"
"$SOLVE" --quiet --tier-indices=5000 > /dev/null 2> "$TMP/err"
expect_eq "tier size exit" 1 $?
expect_contains "tier size" "--tier-indices=5000: expected a power of two" "$(cat "$TMP/err")"
"$SOLVE" --quiet --memory=lots > /dev/null 2> "$TMP/err"
expect_eq "bad memory exit" 1 $?
expect_contains "bad memory" "--memory=lots: expected a positive number of bytes" "$(cat "$TMP/err")"
"$SOLVE" --quiet --width=4 --height=4 --k=4 --memory=1M > /dev/null 2> "$TMP/err"
expect_eq "too little memory exit" 4 $?
expect_contains "too little memory" "needs 4.84 MiB; the limit is 1.00 MiB (--memory)" "$(cat "$TMP/err")"
# A suggestion is made only when it needs less.
"$SOLVE" --quiet --width=5 --height=4 --k=4 --memory=300M > /dev/null 2> "$TMP/err"
expect_contains "work dir hint" "needs 325.70 MiB; the limit is 300.00 MiB (--memory); with --work-dir=DIR it needs 138.98 MiB" "$(cat "$TMP/err")"
# auto steps down to the compressed layout when it fits, and says so.
"$SOLVE" --quiet --json --width=4 --height=4 --k=4 --memory=20M > "$TMP/out" 2> "$TMP/err"
expect_eq "auto under --memory exit" 0 $?
expect_contains "auto under --memory" "a full table needs 25.66 MiB to solve, more than --memory=20.00 MiB; writing a compressed table instead" "$(cat "$TMP/err")"
expect_contains "auto under --memory layout" '"layout":"compressed"' "$(cat "$TMP/out")"
"$SOLVE" --quiet --tier-indices=abc > /dev/null 2> "$TMP/err"
expect_eq "bad tier size exit" 1 $?
expect_eq "bad tier size" "solve: --tier-indices=abc: expected a power of two from 64 to 4294967296, e.g. 1048576" "$(cat "$TMP/err")"
# solve and verify take the same tier sizes: 64 at least.
"$SOLVE" --quiet --tier-indices=1 --work-dir="$TMP/w-one" > /dev/null 2> "$TMP/err"
expect_eq "one-index tiers exit" 1 $?
expect_contains "one-index tiers" "--tier-indices=1: expected a power of two from 64" "$(cat "$TMP/err")"
# An empty value is refused, never taken as "not given".
for flag in --memory= --work-dir= --work_dir= --tier-indices= --out=; do
  "$SOLVE" --quiet "$flag" > /dev/null 2> "$TMP/err"
  expect_eq "empty $flag exit" 1 $?
  expect_contains "empty $flag" "solve: $flag is empty: expected a value" "$(cat "$TMP/err")"
done
# Special files in a work dir are refused at once, with or without --resume.
mkdir "$TMP/fifo" && mkfifo "$TMP/fifo/manifest"
for resume in "" --resume; do
  timeout 20 "$SOLVE" --quiet --work-dir="$TMP/fifo" $resume > /dev/null 2> "$TMP/err"
  expect_eq "fifo in work dir exit $resume" 5 $?
  expect_contains "fifo in work dir $resume" "manifest, which is a FIFO" "$(cat "$TMP/err")"
done
# A work dir that cannot be created: exit 5, and no --resume advice.
"$SOLVE" --quiet --work-dir=/proc/no-such-dir > /dev/null 2> "$TMP/err"
expect_eq "uncreatable work dir exit" 5 $?
expect_contains "uncreatable work dir" "cannot create the work dir /proc/no-such-dir" "$(cat "$TMP/err")"
grep -q -- "--resume" "$TMP/err" && fail "uncreatable work dir: --resume advised"
"$SOLVE" --quiet --memory=64M --out="$TMP/small.mnk" > /dev/null
expect_eq "memory with a suffix exit" 0 $?
# A full disk (a file-size limit stands in for it): exit 5, the tiers done
# kept; resumed with room, the same table.
(ulimit -f 8; "$SOLVE" --width=5 --height=4 --k=4 --gravity --layout=compressed \
  --quiet --out="$TMP/full.mnk" --work-dir="$TMP/full" --tier-indices=4096 \
  > /dev/null 2> "$TMP/err")
expect_eq "full disk exit" 5 $?
expect_contains "full disk" "File too large; the tiers done are kept in $TMP/full: run again with --resume" "$(cat "$TMP/err")"
[ -e "$TMP/full.mnk" ] && fail "a table was written after a full disk"
ls "$TMP/full" | grep -q tmp && fail "a temporary tier file was left behind"
"$SOLVE" --width=5 --height=4 --k=4 --gravity --layout=compressed --quiet \
  --out="$TMP/full.mnk" --work-dir="$TMP/full" --tier-indices=4096 --resume > /dev/null
cmp -s "$TMP/plain4.mnk" "$TMP/full.mnk" || fail "resumed after a full disk: differs"

finish tiers
