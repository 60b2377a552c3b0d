#!/usr/bin/env bash
# End to end for solves in tiers over MPI: three ranks on this machine
# (mpirun -np 3 solve_mpi, on loopback) write the same bytes as one process,
# for boards with and without gravity and every layout, each rank solving
# only its share; a rank killed mid-solve ends them all, and the solve
# resumed writes the same bytes; a rank that fails alone ends the others.
set -u
SOLVE="$TEST_SRCDIR/mnk/solver/solve"
SOLVE_MPI="$TEST_SRCDIR/mnk/solver/solve_mpi"
JSON="$TEST_SRCDIR/mnk/tests/json_get"
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"
use_mpi "$TMP"

# One process first: the table and the number of tiers it solves.
n=0
for game in "${tier_games[@]}"; do
  n=$((n + 1))
  "$SOLVE" $game --quiet --json --out="$TMP/plain$n.mnk" --work-dir="$TMP/w$n" \
    --tier-indices=4096 > "$TMP/tiers$n.json" || fail "$game: solve with a work dir"
done

# --- MPI: three ranks on this machine, the same bytes as one process.
if command -v mpirun > /dev/null; then
  n=0
  for game in "${tier_games[@]}"; do
    n=$((n + 1))
    out=$(mpirun --oversubscribe -np 3 "$SOLVE_MPI" $game --quiet --json \
      --out="$TMP/mpi$n.mnk" --work-dir="$TMP/m$n" --tier-indices=4096 \
      2> "$TMP/mpi_err")
    expect_eq "$game: mpirun exit" 0 $?
    cmp -s "$TMP/plain$n.mnk" "$TMP/mpi$n.mnk" \
      || fail "$game: MPI table differs: $(cat "$TMP/mpi_err")"
    # Rank 0 solved only its share of the tiers.
    solved=$(printf '%s\n' "$out" | "$JSON" /tiers/solved)
    total=$("$JSON" /tiers/solved < "$TMP/tiers$n.json")
    [ "$solved" -lt "$total" ] || fail "$game: rank 0 solved $solved of $total tiers"
  done
  # MPI needs a shared work dir.
  mpirun --oversubscribe -np 2 "$SOLVE_MPI" --quiet > /dev/null 2> "$TMP/err"
  expect_eq "mpi without work dir exit" 1 $?
  expect_contains "mpi without work dir" "needs a work dir" "$(cat "$TMP/err")"
  # A rank that fails alone (only rank 0 writes the table) ends them all
  # with its exit status instead of leaving the others waiting.
  timeout 120 mpirun --oversubscribe -np 2 "$SOLVE_MPI" --quiet \
    --out=/nonexistent/dir/t.mnk --work-dir="$TMP/mz" > /dev/null 2> "$TMP/err"
  expect_eq "mpi unwritable table exit" 3 $?
  expect_contains "mpi unwritable table" "solve (rank 0): cannot write" "$(cat "$TMP/err")"
  # A rank killed (SIGKILL) mid-solve: mpirun ends the others by itself and
  # fails; run again with --resume, the same bytes.
  game4=(--width=5 --height=4 --k=4 --gravity --layout=compressed --quiet
         --out="$TMP/rank_killed.mnk" --work-dir="$TMP/mk" --tier-indices=4096)
  killed=""
  for attempt in 1 2 3 4 5; do
    rm -rf "$TMP/mk"
    timeout 60 mpirun --oversubscribe -np 3 "$SOLVE_MPI" "${game4[@]}" \
      > /dev/null 2> "$TMP/err" &
    runner=$!
    sleep 0.$((3 + RANDOM % 5))
    ranks=($(pgrep -f "^$SOLVE_MPI " || true))
    [ "${#ranks[@]}" -gt 0 ] && kill -KILL "${ranks[RANDOM % ${#ranks[@]}]}"
    wait "$runner"
    status=$?
    [ "$status" -eq 124 ] && fail "mpirun still running 60 s after a rank was killed"
    if [ "$status" -ne 0 ]; then killed=yes; break; fi
  done
  [ -n "$killed" ] || fail "no rank was killed mid-solve in 5 attempts"
  expect_contains "rank killed" "exited on signal 9" "$(cat "$TMP/err")"
  mpirun --oversubscribe -np 3 "$SOLVE_MPI" "${game4[@]}" --resume > /dev/null 2> "$TMP/err"
  expect_eq "resumed after a rank was killed exit" 0 $?
  cmp -s "$TMP/plain4.mnk" "$TMP/rank_killed.mnk" \
    || fail "table after a killed rank differs: $(cat "$TMP/err")"
else
  fail "mpirun not found: run setup.sh"
fi

finish tiers_mpi
