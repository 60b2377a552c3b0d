#!/usr/bin/env bash
# End to end for verify with a work dir (a tier at a time): the same report
# as in memory, for boards with and without gravity; killed with SIGKILL at
# random moments and resumed until done, the same again; and its errors.
set -u
SOLVE="$TEST_SRCDIR/mnk/solver/solve"
VERIFY="$TEST_SRCDIR/mnk/verify/verify"
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"

# The tables: numbered as in tiers_e2e_test.
for n in 2 4 5; do
  "$SOLVE" ${tier_games[n - 1]} --quiet --out="$TMP/plain$n.mnk" > /dev/null \
    || fail "solve ${tier_games[n - 1]}"
done

# --- verify a tier at a time: the same counts as in memory, and the same
# again when killed at random moments and resumed until done.
"$VERIFY" --table="$TMP/plain4.mnk" --quiet > "$TMP/v.out"
expect_eq "verify in memory exit" 0 $?
records=$(grep '^records' "$TMP/v.out")
expect_contains "verify in memory" "3945711 reachable (header: 3945711), 785365 stored records checked" "$records"
"$VERIFY" --table="$TMP/plain4.mnk" --quiet --work-dir="$TMP/v1" \
  --tier-indices=4096 > "$TMP/v.out"
expect_eq "verify in tiers exit" 0 $?
expect_eq "verify in tiers" "$records" "$(grep '^records' "$TMP/v.out")"
# Done: only the manifest, the lock, the forward pass's mark and a file a
# layer pair (C00 to C20).
expect_eq "verify work dir at the end" 14 "$(ls "$TMP/v1" | wc -l)"
run_killed "" 410 "$TMP/v.out" "$TMP/v.err" "$VERIFY" --table="$TMP/plain4.mnk" \
  --quiet --work-dir="$TMP/v2" --tier-indices=4096
expect_eq "verify killed and resumed exit ($(cat "$TMP/v.err"))" 0 "$status"
expect_eq "verify killed $kills times, resumed" "$records" "$(grep '^records' "$TMP/v.out")"
[ "$kills" -gt 0 ] || fail "verify: never killed mid-way"
"$VERIFY" --table="$TMP/plain4.mnk" --quiet --work-dir="$TMP/v1" > /dev/null 2> "$TMP/err"
expect_eq "verify work dir in use exit" 1 $?
expect_contains "verify work dir in use" "holds a verify already; pass --resume" "$(cat "$TMP/err")"
"$VERIFY" --table="$TMP/plain4.mnk" --quiet --work-dir="$TMP/v1" --resume > /dev/null 2> "$TMP/err"
expect_eq "another verify exit" 1 $?
expect_contains "another verify" "holds another verify" "$(cat "$TMP/err")"
flock "$TMP/v1/lock" "$VERIFY" --table="$TMP/plain4.mnk" --quiet \
  --work-dir="$TMP/v1" --resume > /dev/null 2> "$TMP/err"
expect_eq "verify work dir held exit" 1 $?
expect_contains "verify work dir held" "another process is running a verify in the work dir $TMP/v1 (it holds $TMP/v1/lock)" "$(cat "$TMP/err")"
"$VERIFY" --table="$TMP/plain5.mnk" --quiet > "$TMP/v.out"
records=$(grep '^records' "$TMP/v.out")
"$VERIFY" --table="$TMP/plain5.mnk" --quiet --work-dir="$TMP/v3" \
  --tier-indices=4096 > "$TMP/v.out"
expect_eq "verify 4,4,4 (free) in tiers exit" 0 $?
expect_eq "verify 4,4,4 (free) in tiers" "$records" "$(grep '^records' "$TMP/v.out")"
"$VERIFY" --table="$TMP/plain2.mnk" --quiet --work-dir="$TMP/v5" > /dev/null 2> "$TMP/err"
expect_eq "verify a full table in tiers exit" 1 $?
expect_contains "verify a full table in tiers" "compressed tables only" "$(cat "$TMP/err")"
"$VERIFY" --table="$TMP/plain4.mnk" --quiet --resume > /dev/null 2> "$TMP/err"
expect_eq "verify resume without work dir exit" 1 $?
"$VERIFY" --table="$TMP/plain4.mnk" --quiet --work-dir="$TMP/v4" \
  --tier-indices=100 > /dev/null 2> "$TMP/err"
expect_eq "verify tier size exit" 1 $?
expect_contains "verify tier size" "expected a power of two from 64" "$(cat "$TMP/err")"
"$VERIFY" --table="$TMP/plain4.mnk" --quiet --work-dir=/proc/no-such-dir > /dev/null 2> "$TMP/err"
expect_eq "verify uncreatable work dir exit" 7 $?

finish verify_tiers
