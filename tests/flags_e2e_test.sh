#!/usr/bin/env bash
# Every tool alike on its command line: --help answers with exit 0 and
# lists both spellings of a two-word flag; a misspelt flag gets the closest
# known one; --work-dir and --work_dir (and every such pair) are the same
# flag; a flag given an empty value is refused.
set -u
TMP="${TEST_TMPDIR:-$(mktemp -d)}"
source "$TEST_SRCDIR/mnk/tests/e2e_lib.sh"
cd "$TMP"
bin="$TEST_SRCDIR/mnk"
# tool, a flag of its own misspelt, the flag meant, the exit status of a
# bad command line
while read -r tool typo meant bad_exit; do
  name=$(basename "$tool")
  out=$("$bin/$tool" --help 2> "$TMP/err")
  expect_eq "$name --help exit" 0 $?
  expect_contains "$name --help" "flags:" "$out"
  expect_eq "$name --help stderr" "" "$(cat "$TMP/err")"
  "$bin/$tool" "--$typo=1" > /dev/null 2> "$TMP/err"
  expect_eq "$name --$typo exit" "$bad_exit" $?
  expect_contains "$name --$typo" "unknown flag --$typo: did you mean --$meant? (--help lists the flags)" "$(cat "$TMP/err")"
  "$bin/$tool" --no-such-thing > /dev/null 2> "$TMP/err"
  expect_eq "$name unknown exit" "$bad_exit" $?
  expect_contains "$name unknown" "unknown flag --no-such-thing (--help lists the flags)" "$(cat "$TMP/err")"
done << 'TOOLS'
solver/solve widht width 1
verify/verify tabel table 1
player/play serach-memory search-memory 1
serve/serve prot port 1
search/book/book pliez plies 1
tests/table_check cuont count 2
solver/naive_dfs widht width 1
player/sample cuont count 1
TOOLS

# --version: every tool says its name and the one version (base/version).
version=$(sed -n 's/.*kVersion\[\] = "\(.*\)";/\1/p' "$TEST_SRCDIR/mnk/base/version/version.h")
expect_eq "the version's form" 1 "$(echo "$version" | grep -cE '^[0-9]+\.[0-9]+\.[0-9]+$')"
for tool in solver/solve verify/verify player/play serve/serve search/book/book player/sample; do
  expect_eq "$tool --version" "$(basename "$tool") $version" "$("$bin/$tool" --version)"
done

# A value given as the next argument is a value, even one that starts
# with '-'.
"$bin/solver/solve" --threads -1 > /dev/null 2> "$TMP/err"
expect_eq "solve --threads -1 exit" 1 $?
expect_contains "solve --threads -1" "--threads=-1: expected 0 (one per core) to 256" "$(cat "$TMP/err")"
out=$("$bin/player/play" --position X.O/X.X/OO. 2> "$TMP/err")
expect_contains "play --position P" "win in 1" "$out"

# Both spellings of a two-word flag, in every tool that has one, and the
# help listing both.
for spelling in --search-memory --search_memory; do
  "$bin/player/play" --width=7 --height=6 --k=4 --gravity "$spelling=1K" \
    --position=. > /dev/null 2> "$TMP/err"
  expect_eq "play $spelling exit" 1 $?
  expect_contains "play $spelling" "is too little: expected at least 16 KiB" "$(cat "$TMP/err")"
  "$bin/serve/serve" "$spelling=1" > /dev/null 2> "$TMP/err"
  expect_eq "serve $spelling exit" 1 $?
  expect_contains "serve $spelling" "is too little" "$(cat "$TMP/err")"
done
for spelling in --work-dir --work_dir; do
  "$bin/solver/solve" --width=3 --height=3 --k=3 --quiet "$spelling=w$spelling" \
    > /dev/null
  expect_eq "solve $spelling exit" 0 $?
  [ -f "w$spelling/manifest" ] || fail "solve $spelling: no work dir"
  "$bin/search/book/book" --width=4 --height=4 --k=4 --plies=2 --quiet \
    --search-memory=16M "$spelling=b$spelling" --out=b.mnk > /dev/null
  expect_eq "book $spelling exit" 0 $?
  [ -d "b$spelling" ] || fail "book $spelling: no work dir"
done
expect_contains "play --help both spellings" "--search-memory (or --search_memory)" "$("$bin/player/play" --help)"
expect_contains "book --help both spellings" "--work-dir (or --work_dir)" "$("$bin/search/book/book" --help)"

# A flag several tools take is defined once: its line of --help is the
# same in each, and so is its check.
help_line() { "$bin/$1" --help | grep -- "^  --$2 "; }
while read -r flag tools; do
  first=${tools%% *}
  line=$(help_line "$first" "$flag")
  [ -n "$line" ] || fail "$first --help: no --$flag"
  for tool in $tools; do
    expect_eq "$tool --help, --$flag" "$line" "$(help_line "$tool" "$flag")"
  done
done << 'SHARED'
width solver/solve player/play search/book/book solver/naive_dfs
gravity solver/solve player/play search/book/book solver/naive_dfs
misere solver/solve player/play search/book/book solver/naive_dfs
threads solver/solve verify/verify player/play search/book/book
search-memory player/play serve/serve search/book/book
work-dir solver/solve verify/verify search/book/book
resume solver/solve verify/verify
tier-indices solver/solve verify/verify
SHARED
while read -r tool flag; do
  "$bin/$tool" --threads=300 $flag > /dev/null 2> "$TMP/err"
  expect_eq "$tool --threads=300 exit" 1 $?
  expect_contains "$tool --threads=300" "--threads=300: expected 0 (one per core" "$(cat "$TMP/err")"
done << 'THREADS'
solver/solve
verify/verify --table=x
search/book/book --out=x.mnk
THREADS
"$bin/verify/verify" --table=x --resume > /dev/null 2> "$TMP/err"
expect_eq "verify --resume alone exit" 1 $?
expect_contains "verify --resume alone" "--resume needs the --work-dir=DIR of the run" "$(cat "$TMP/err")"
"$bin/solver/solve" --tier-indices=4096 > /dev/null 2> "$TMP/err"
expect_eq "solve --tier-indices alone exit" 1 $?
expect_contains "solve --tier-indices alone" "--tier-indices needs the --work-dir=DIR of the run" "$(cat "$TMP/err")"
out=$("$bin/solver/naive_dfs" --width=3 --height=3 --k=3 --misere)
expect_contains "naive_dfs --misere" "3,3,3 misère: draw in 9, " "$out"

# solve --estimate: the figures, and no table.
out=$("$bin/solver/solve" --width=4 --height=4 --k=4 --estimate --out=e.mnk)
expect_eq "solve --estimate exit" 0 $?
expect_contains "solve --estimate" "solve 4,4,4, full, in memory" "$out"
expect_contains "solve --estimate" "  indices   10,165,779 boards to test" "$out"
[ ! -e e.mnk ] || fail "solve --estimate wrote a table"
out=$("$bin/solver/solve" --width=7 --height=6 --k=4 --estimate)
expect_eq "solve --estimate, 7,6,4 exit" 0 $?
expect_contains "solve --estimate, 7,6,4" "refused as it is: solving 7,6,4 needs" "$out"

# solve --plan: each process's share, and no solve; refused without a work
# dir, for zero processes, at zero bytes a second.
out=$("$bin/solver/solve" --width=5 --height=4 --k=4 --gravity --threads=1 --layout=compressed --work-dir="$TMP/plan" --plan=2)
expect_eq "solve --plan exit" 0 $?
expect_contains "solve --plan" "plan: solve 5,4,4 gravity, compressed, tiers of 1048576 indices, 2 processes of 1 thread" "$out"
expect_contains "solve --plan, rank 1" "  1                10" "$out"
[ ! -e "$TMP/plan" ] || fail "solve --plan made its work dir"
"$bin/solver/solve" --plan=2 > /dev/null 2> "$TMP/err"
expect_eq "solve --plan, no work dir exit" 1 $?
expect_contains "solve --plan, no work dir" "--plan plans a solve in tiers: it needs --work-dir=DIR" "$(cat "$TMP/err")"
"$bin/solver/solve" --plan=-3 --work-dir="$TMP/plan" > /dev/null 2> "$TMP/err"
expect_eq "solve --plan=-3 exit" 1 $?
expect_contains "solve --plan=-3" "--plan=-3: expected a number of processes from 1 to 65536" "$(cat "$TMP/err")"
"$bin/solver/solve" --plan=2 --work-dir="$TMP/plan" --network=0 > /dev/null 2> "$TMP/err"
expect_eq "solve --network=0 exit" 1 $?
expect_contains "solve --network=0" "--network=0: expected a positive number of bytes" "$(cat "$TMP/err")"

# sample's own checks.
"$bin/player/sample" --table=x --count=0 > /dev/null 2> "$TMP/err"
expect_eq "sample --count=0 exit" 1 $?
expect_contains "sample --count=0" "--count=0: expected 1 to 1000000" "$(cat "$TMP/err")"
"$bin/player/sample" --table="$TMP/missing.mnk" > /dev/null 2> "$TMP/err"
expect_eq "sample, no table exit" 3 $?

# An empty value: refused, not taken as "not given".
while read -r tool flag; do
  "$bin/$tool" "$flag" > /dev/null 2> "$TMP/err"
  status=$?
  [ "$status" -eq 1 ] || [ "$status" -eq 2 ] || fail "$tool $flag: exit $status"
  expect_contains "$tool $flag" "$flag is empty: expected" "$(cat "$TMP/err")"
done << 'EMPTY'
solver/solve --memory=
solver/solve --work-dir=
verify/verify --table=
player/play --table=
serve/serve --tables=
search/book/book --work_dir=
tests/table_check --table=
player/sample --table=
EMPTY

finish flags_e2e
