#!/usr/bin/env bash
# The dependency rules of README "How the code is laid out", from bazel
# query: no production package depends on tests/, and the packages form no
# cycle (tsort fails on a loop). --list prints the package edges.
set -euo pipefail
cd "$(dirname "$0")/.."

production='//solver/... + //table/... + //player/... + //data/... + //:all'
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
echo "deps: $(printf '%s\n' "$edges" | wc -l) package edges, no cycle, nothing depends on tests/"
if [ "${1:-}" = "--list" ]; then printf '%s\n' "$edges" | sed 's/^/  /'; fi
