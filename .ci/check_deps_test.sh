#!/usr/bin/env bash
# check_deps.sh's rules on edge lists made to break each: it passes the
# workspace's kind of graph and rejects a cycle, an edge against the
# pipeline, and the read branch depending on the write branch, naming the
# edge.
set -uo pipefail
cd "$(dirname "$0")/.."
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# expect NAME WANT_STATUS WANT_TEXT EDGES...
expect() {
  local name=$1 want_status=$2 want_text=$3; shift 3
  printf '%s\n' "$@" > "$work/edges"
  local out status
  out=$(.ci/check_deps.sh --edges "$work/edges" 2>&1); status=$?
  if [ "$status" -ne "$want_status" ] || [[ $out != *"$want_text"* ]]; then
    echo "FAIL $name: exit $status (want $want_status), output:"
    echo "$out" | sed 's/^/  /'
    failures=$((failures + 1))
  fi
}

expect "the Y" 0 "the read branch apart from the write branch" \
  "//player //table" "//player //search" "//store //table" \
  "//solver //store" "//search/book //search" "//api //player" "//api //solver"
expect "a reader linking the writer" 1 "  //player -> //store" \
  "//player //table" "//player //store" "//store //table"
expect "a later reader linking the solver" 1 "  //data -> //solver" \
  "//data //solver" "//solver //table"
expect "the search linking the book builder" 1 "  //search -> //search/book" \
  "//search //search/book"
expect "the browser module linking verify" 1 "  //wasm -> //verify" \
  "//wasm //verify"
expect "against the pipeline" 1 "  //table -> //player" "//table //player"
expect "a cycle" 1 "package cycle" "//table //store" "//store //table"

if [ "$failures" -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "check_deps rules: 7 edge lists judged as expected"
