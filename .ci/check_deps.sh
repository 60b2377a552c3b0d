#!/usr/bin/env bash
# The dependency rules of docs/code.md, from bazel query: the top-level
# folders are in pipeline order and each depends only on earlier ones (the
# root package with the static site, docs/ and tests/ aside); no
# production package depends on tests/; the packages form no cycle (tsort
# fails on a loop). --list prints the package edges.
set -euo pipefail
cd "$(dirname "$0")/.."

# The pipeline, first to last.
order=(tools rules base table search solver verify data player api python wasm install bench)

production="//:all"
for folder in "${order[@]}"; do production="$production + //$folder/..."; done
bad=$(bazel query --noshow_progress "deps($production) intersect //tests/..." 2> /dev/null)
if [ -n "$bad" ]; then
  echo "production targets depend on tests/:"; echo "$bad"; exit 1
fi

# Every package, named (`//...` would also walk into the convenience
# symlinks, bazel-<folder>, which may belong to another output base).
all="$production + //tests/..."
edges=$(bazel query --noshow_progress --noimplicit_deps "deps($all)" \
          --output=graph --nograph:factored 2> /dev/null |
        sed -n 's|^ *"\(//[^:"]*\):[^"]*" -> "\(//[^:"]*\):[^"]*"$|\1 \2|p' |
        awk '$1 != $2' | sort -u)
if ! printf '%s\n' "$edges" | tsort > /dev/null 2> /tmp/tsort.err; then
  echo "package cycle:"; cat /tmp/tsort.err; exit 1
fi

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
backward=""
while read -r from to; do
  [ -z "$from" ] && continue
  from_rank=$(rank "$from"); to_rank=$(rank "$to")
  if [ "$from_rank" = unknown ] || [ "$to_rank" = unknown ]; then
    backward="$backward  $from -> $to (a folder not in the pipeline: add it to .ci/check_deps.sh)\n"
  elif [ "$from_rank" -ne 0 ] && [ "$to_rank" -gt "$from_rank" ]; then
    backward="$backward  $from -> $to\n"
  fi
done <<< "$edges"
if [ -n "$backward" ]; then
  echo "dependencies against the pipeline (${order[*]}):"
  printf '%b' "$backward"; exit 1
fi
echo "deps: $(printf '%s\n' "$edges" | wc -l) package edges, no cycle, folders in pipeline order (${order[*]}), nothing depends on tests/"
if [ "${1:-}" = "--list" ]; then printf '%s\n' "$edges" | sed 's/^/  /'; fi
