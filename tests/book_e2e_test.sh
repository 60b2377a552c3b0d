#!/usr/bin/env bash
# End to end: the opening book built by one process and by three MPI ranks
# (mpirun -np 3 book_mpi, on loopback) is the same file; a run resumed by a
# different number of ranks reads every rank's log and solves only the rest;
# a book seeded by a shallower one is the same file; a layer of every
# position backs up the plies before it (solve --frontier); books merge
# into one (book --merge); and the errors
# of a shared run (no work dir, a book rank 0 cannot write) and of a bad seed.
set -u
BOOK="$TEST_SRCDIR/mnk/search/book/book"
BOOK_MPI="$TEST_SRCDIR/mnk/search/book/book_mpi"
SOLVE="$TEST_SRCDIR/mnk/solver/solve"
VERIFY="$TEST_SRCDIR/mnk/verify/verify"
PLAY="$TEST_SRCDIR/mnk/player/play"
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"
use_mpi "$TMP"
C5x4=(--width=5 --height=4 --k=4 --search_memory=16M --threads=2)

# --- One process, plies 6 and 8: the reference files.
for plies in 6 8; do
  "$BOOK" "${C5x4[@]}" --plies=$plies --out="$TMP/plain$plies.mnk" --quiet \
    > /dev/null
  expect_eq "plain book $plies exit" 0 $?
done

# --- Three ranks: the same bytes, each rank's share in a log of its own.
out=$(mpirun --oversubscribe -np 3 "$BOOK_MPI" "${C5x4[@]}" --plies=6 \
  --work_dir="$TMP/m" --out="$TMP/mpi6.mnk" 2> "$TMP/err")
expect_eq "mpi book exit" 0 $?
expect_contains "mpi book summary" "book of 5,4,4 gravity to ply 6: 1084 positions" "$out"
cmp -s "$TMP/plain6.mnk" "$TMP/mpi6.mnk" \
  || fail "MPI book differs: $(cat "$TMP/err")"
for log in book-5x4k4g.log book-5x4k4g-rank1.log book-5x4k4g-rank2.log; do
  [ -s "$TMP/m/$log" ] || fail "no records in $log: $(ls "$TMP/m")"
done
# Progress lines come from rank 0 alone.
expect_contains "mpi progress" "book: ply 6:" "$(cat "$TMP/err")"
case "$(cat "$TMP/err")" in *rank*) fail "progress from other ranks" ;; esac

# --- Resumed deeper by two ranks: the three logs read, the same bytes as
# one process.
mpirun --oversubscribe -np 2 "$BOOK_MPI" "${C5x4[@]}" --plies=8 \
  --work_dir="$TMP/m" --out="$TMP/mpi8.mnk" > /dev/null 2> "$TMP/err"
expect_eq "mpi resumed exit" 0 $?
cmp -s "$TMP/plain8.mnk" "$TMP/mpi8.mnk" \
  || fail "resumed MPI book differs: $(cat "$TMP/err")"
# And once more by one process: nothing left to solve.
"$BOOK" "${C5x4[@]}" --plies=8 --work_dir="$TMP/m" --out="$TMP/again8.mnk" \
  > /dev/null 2> "$TMP/err"
expect_eq "resumed alone exit" 0 $?
cmp -s "$TMP/plain8.mnk" "$TMP/again8.mnk" || fail "resumed book differs"
expect_contains "nothing solved again" "0 solved in this run" "$(tail -1 "$TMP/err")"

# --- Seeded by the ply-6 book: the same ply-8 bytes, with a work dir or not,
# solving only what the seed lacks.
"$BOOK" "${C5x4[@]}" --plies=8 --seed="$TMP/plain6.mnk" \
  --out="$TMP/seeded8.mnk" > /dev/null 2> "$TMP/err"
expect_eq "seeded exit" 0 $?
cmp -s "$TMP/plain8.mnk" "$TMP/seeded8.mnk" || fail "seeded book differs"
expect_contains "seeded: ply 6 solved already" "book: ply 6: 0 to solve here" \
  "$(cat "$TMP/err")"
"$BOOK" "${C5x4[@]}" --plies=8 --seed="$TMP/plain6.mnk" --work_dir="$TMP/s" \
  --out="$TMP/seeded8w.mnk" --quiet > /dev/null
expect_eq "seeded with work dir exit" 0 $?
cmp -s "$TMP/plain8.mnk" "$TMP/seeded8w.mnk" || fail "seeded book differs (work dir)"
# Resumed without the seed: its entries are in the work dir's log.
"$BOOK" "${C5x4[@]}" --plies=8 --work_dir="$TMP/s" --out="$TMP/again8s.mnk" \
  > /dev/null 2> "$TMP/err"
cmp -s "$TMP/plain8.mnk" "$TMP/again8s.mnk" || fail "resumed seeded book differs"
expect_contains "seed logged" "0 solved in this run" "$(tail -1 "$TMP/err")"
"$BOOK" "${C5x4[@]}" --seed="$TMP/nonexistent.mnk" --out="$TMP/x.mnk" \
  > /dev/null 2> "$TMP/err"
expect_eq "missing seed exit" 3 $?
"$BOOK" --width=4 --height=4 --k=4 --search_memory=16M \
  --seed="$TMP/plain6.mnk" --out="$TMP/x.mnk" > /dev/null 2> "$TMP/err"
expect_eq "seed of another game exit" 3 $?
expect_contains "seed of another game" "is a table for 5,4,4 gravity, not for the game asked for, 4,4,4 gravity" "$(cat "$TMP/err")"

# --- A frontier: every position of ply 6 solved by search, the plies
# before backed up from it by solve; verify checks those against their
# children, and play answers every move of a position before ply 6 from it.
"$BOOK" "${C5x4[@]}" --plies=6 --every_position --out="$TMP/layer6.mnk" \
  --quiet > /dev/null
expect_eq "layer exit" 0 $?
out=$("$SOLVE" --width=5 --height=4 --k=4 --gravity --layout=book \
  --frontier="$TMP/layer6.mnk" --out="$TMP/upto6.mnk" --quiet 2>&1)
expect_eq "frontier solve exit" 0 $?
expect_contains "frontier start" "start       draw for X, the first player, in 20 plies" "$out"
expect_contains "frontier plies" "by ply      1 5 25 95 345 1070 3230 0 0" "$out"
out=$("$VERIFY" --table="$TMP/upto6.mnk" --quiet 2>&1)
expect_eq "frontier verify exit" 0 $?
expect_contains "frontier verify" "785 stored records checked against their children" "$out"
out=$("$VERIFY" --table="$TMP/upto6.mnk" --leaves=all --threads=2 --quiet 2>&1)
expect_eq "frontier leaves exit" 0 $?
expect_contains "frontier leaves" "leaves      1626 of 1626 leaves searched afresh (seed 1)" "$out"
"$VERIFY" --table="$TMP/upto6.mnk" --leaves=some --quiet > /dev/null 2> "$TMP/err"
expect_eq "bad leaves exit" 1 $?
expect_contains "bad leaves" "--leaves=some: expected a number of leaves from 1 up, or all" "$(cat "$TMP/err")"
out=$("$PLAY" --width=5 --height=4 --k=4 --gravity --book="$TMP/upto6.mnk" \
  --position=...../...../...../..X.. --json 2>&1)
expect_contains "frontier answers" '"moves":[{"cell":15,"column":0,"value":"draw","remoteness":19},' "$out"
"$SOLVE" --width=5 --height=4 --k=4 --gravity --frontier="$TMP/layer6.mnk" \
  --quiet > /dev/null 2> "$TMP/err"
expect_eq "frontier without book layout exit" 1 $?
expect_contains "frontier without book layout" "needs --layout=book" "$(cat "$TMP/err")"
"$SOLVE" --width=5 --height=4 --k=4 --gravity --layout=book \
  --frontier="$TMP/plain6.mnk" --quiet > /dev/null 2> "$TMP/err"
expect_eq "frontier of lines exit" 1 $?
expect_contains "frontier of lines" "expected one layer (book --every_position)" "$(cat "$TMP/err")"
"$SOLVE" --width=5 --height=4 --k=4 --gravity --layout=book \
  --frontier="$TMP/upto6.mnk" --quiet > /dev/null 2> "$TMP/err"
expect_eq "frontier of a solve exit" 1 $?

# --- The frontier's table and the lines to ply 8 merged into one book:
# every position of either, which verify checks as any book; books that
# are not of one game are refused; an empty book is a valid file.
out=$("$BOOK" --merge="$TMP/upto6.mnk,$TMP/plain8.mnk" --out="$TMP/merged.mnk" 2>&1)
expect_eq "merge exit" 0 $?
expect_contains "merge" "book of 5,4,4 gravity: 5546 positions merged from 2 books" "$out"
out=$("$VERIFY" --table="$TMP/merged.mnk" --quiet 2>&1)
expect_eq "merged verify exit" 0 $?
# One book alone is written again, as it was: the same bytes.
out=$("$BOOK" --merge="$TMP/merged.mnk" --out="$TMP/again.mnk" 2>&1)
expect_eq "merge of one exit" 0 $?
expect_contains "merge of one" "5546 positions merged from 1 book, written to" "$out"
cmp -s "$TMP/merged.mnk" "$TMP/again.mnk"
expect_eq "merge of one: the same bytes" 0 $?
"$BOOK" --merge= --out="$TMP/x.mnk" > /dev/null 2> "$TMP/err"
expect_eq "merge of none exit" 1 $?
expect_contains "merge of none" "--merge= is empty: expected a value" "$(cat "$TMP/err")"
"$BOOK" --width=4 --height=4 --k=4 --plies=16 --every_position --quiet \
  --out="$TMP/empty.mnk" > /dev/null
expect_eq "empty layer exit" 0 $?
"$VERIFY" --table="$TMP/empty.mnk" --quiet > /dev/null 2>&1
expect_eq "empty book verify exit" 0 $?
"$BOOK" --merge="$TMP/upto6.mnk,$TMP/empty.mnk" --out="$TMP/x.mnk" > /dev/null 2> "$TMP/err"
expect_eq "merge of two games exit" 1 $?
expect_contains "merge of two games" "is a table for 4,4,4 gravity, not for the game asked for, 5,4,4 gravity" "$(cat "$TMP/err")"

# --- Errors.
mpirun --oversubscribe -np 2 "$BOOK_MPI" "${C5x4[@]}" --out="$TMP/x.mnk" \
  --quiet > /dev/null 2> "$TMP/err"
expect_eq "mpi without work dir exit" 1 $?
expect_contains "mpi without work dir" "needs a work dir" "$(cat "$TMP/err")"
timeout 120 mpirun --oversubscribe -np 2 "$BOOK_MPI" "${C5x4[@]}" --quiet \
  --out=/nonexistent/dir/b.mnk --work_dir="$TMP/mz" > /dev/null 2> "$TMP/err"
expect_eq "mpi unwritable book exit" 6 $?
expect_contains "mpi unwritable book" "book (rank 0): " "$(cat "$TMP/err")"
"$BOOK" "${C5x4[@]}" --plies=6 --work_dir= --out="$TMP/x.mnk" > /dev/null 2> "$TMP/err"
expect_eq "empty work dir exit" 1 $?
expect_contains "empty work dir" "book: --work_dir= is empty: expected a value" "$(cat "$TMP/err")"
"$BOOK" --width=5 --height=4 --k=4 --search_memory=1 --out="$TMP/x.mnk" > /dev/null 2> "$TMP/err"
expect_eq "too little search memory exit" 1 $?
expect_contains "too little search memory" "book: --search_memory=1 is too little: expected at least 32 KiB (2 searches of 16 KiB)" "$(cat "$TMP/err")"

finish book_e2e
