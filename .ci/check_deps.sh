#!/usr/bin/env bash
# The dependency rules of docs/code.md, from bazel query:
#   - no production package depends on tests/;
#   - the packages form no cycle (tsort fails on a loop);
#   - the top-level folders are in pipeline order, each depending only on
#     earlier ones (the root package and docs/ aside, and tests/ last);
#   - the graph is a Y: the read branch (the search, the player, the
#     built-in tables, the browser module) never depends on the write
#     branch (store/, the solver, verify, the book builder). Both grow from
#     the root (rules/, base/, table/: the format and its readers); the
#     bindings, install/ and bench/ may use both.
# Test targets are left out of the package edges: a test may build its
# fixtures with any branch.
#   check_deps.sh            the rules on the workspace's graph
#   check_deps.sh --list     the same, then the package edges
#   check_deps.sh --edges F  the last three rules on F's edges ("//from //to"
#                            a line), with no bazel: what the rules' test uses
set -euo pipefail
cd "$(dirname "$0")/.."

# The pipeline, first to last.
order=(tools rules base table store search solver verify data answer player serve api python wasm install bench)
# The branches, by package: a pattern matches the package and, with /...,
# those under it.
read_branch=(//search //data/... //answer/... //player/... //serve/... //wasm/...)
write_branch=(//store/... //solver/... //verify/... //search/book/...)

# Whether package $2 is $1 or, for a pattern //x/..., under //x.
matches() {
  [ "$2" = "${1%/...}" ] || { [ "${1%/...}" != "$1" ] && [[ $2 == "${1%/...}"/* ]]; }
}

# "read", "write" or "" for a package.
in_branch() {
  local pattern
  for pattern in "${read_branch[@]}"; do matches "$pattern" "$1" && { echo read; return; }; done
  for pattern in "${write_branch[@]}"; do matches "$pattern" "$1" && { echo write; return; }; done
  echo ""
}

# A folder's place in the pipeline: 0 for the root package and docs/ (the
# manual, which the tests of its examples read), 99 for tests/.
rank() {
  local top=${1#//}; top=${top%%/*}
  { [ -z "$top" ] || [ "$top" = docs ]; } && { echo 0; return; }
  [ "$top" = tests ] && { echo 99; return; }
  local i
  for i in "${!order[@]}"; do
    [ "${order[$i]}" = "$top" ] && { echo $((i + 1)); return; }
  done
  echo "unknown"
}

# The package edges of the workspace's non-test targets, a line each.
workspace_edges() {
  local production="//:all" folder
  for folder in "${order[@]}"; do production="$production + //$folder/..."; done
  local bad
  bad=$(bazel query --noshow_progress "deps($production) intersect //tests/..." 2> /dev/null)
  if [ -n "$bad" ]; then
    echo "production targets depend on tests/:" >&2; echo "$bad" >&2; return 1
  fi
  # Every package, named (`//...` would also walk into the convenience
  # symlinks, bazel-<folder>, which may belong to another output base).
  local all="$production + //tests/..."
  bazel query --noshow_progress --noimplicit_deps --notool_deps \
      "deps(($all) - kind(test, $all))" --output=graph --nograph:factored 2> /dev/null |
    sed -n 's|^ *"\(//[^:"]*\):[^"]*" -> "\(//[^:"]*\):[^"]*"$|\1 \2|p' |
    awk '$1 != $2' | sort -u
}

# The rules on the edges in $1: a message for each edge that breaks one.
check_edges() {
  local edges=$1
  if ! printf '%s\n' "$edges" | tsort > /dev/null 2> /tmp/tsort.$$; then
    echo "package cycle:"; cat /tmp/tsort.$$; rm -f /tmp/tsort.$$; return 1
  fi
  rm -f /tmp/tsort.$$
  local backward="" across="" from to from_rank to_rank
  while read -r from to; do
    [ -z "$from" ] && continue
    from_rank=$(rank "$from"); to_rank=$(rank "$to")
    if [ "$from_rank" = unknown ] || [ "$to_rank" = unknown ]; then
      backward="$backward  $from -> $to (a folder not in the pipeline: add it to .ci/check_deps.sh)\n"
    elif [ "$from_rank" -ne 0 ] && [ "$to_rank" -gt "$from_rank" ]; then
      backward="$backward  $from -> $to\n"
    fi
    if [ "$(in_branch "$from")" = read ] && [ "$(in_branch "$to")" = write ]; then
      across="$across  $from -> $to\n"
    fi
  done <<< "$edges"
  if [ -n "$backward" ]; then
    echo "dependencies against the pipeline (${order[*]}):"
    printf '%b' "$backward"; return 1
  fi
  if [ -n "$across" ]; then
    echo "the read branch (${read_branch[*]}) depends on the write branch (${write_branch[*]}):"
    printf '%b' "$across"; return 1
  fi
}

if [ "${1:-}" = "--edges" ]; then
  edges=$(cat "$2")
  check_edges "$edges"
  echo "deps: $(printf '%s\n' "$edges" | wc -l) package edges, no cycle, in pipeline order, the read branch apart from the write branch"
  exit 0
fi
edges=$(workspace_edges)
check_edges "$edges"
echo "deps: $(printf '%s\n' "$edges" | wc -l) package edges, no cycle, folders in pipeline order (${order[*]}), the read branch apart from the write branch, nothing depends on tests/"
if [ "${1:-}" = "--list" ]; then printf '%s\n' "$edges" | sed 's/^/  /'; fi
