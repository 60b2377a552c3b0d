#!/usr/bin/env bash
# Copies built files out of Bazel into a folder (made if missing), for the
# targets named after what they copy (install/BUILD):
#
#   bazel run //install:npm -- [DIR]    the npm package, mnk-VERSION.tgz
#                                       (default ~/.local/share/mnk/npm)
#   bazel run //install:site -- [DIR]   the static site's files
#                                       (default ~/.local/share/mnk/site)
#   bazel run //install:mpi -- [DIR]    solve_mpi and book_mpi
#                                       (default ~/.local/bin)
set -euo pipefail
target=$(basename "$0")
case "$target" in
  npm) what="the npm package" dir=.local/share/mnk/npm files=(wasm/mnk-*.tgz) ;;
  site) what="the static site" dir=.local/share/mnk/site files=(wasm/site/*) ;;
  mpi) what="the MPI tools" dir=.local/bin files=(solver/solve_mpi search/book/book_mpi) ;;
  *) echo "install: unknown target '$target': expected npm, site or mpi" >&2; exit 1 ;;
esac
[ $# -gt 1 ] && { echo "install: expected at most one folder, got $*" >&2; exit 1; }
dir="${1:-${HOME:?install: no folder given and no HOME}/$dir}"
case "$dir" in
  /*) ;;
  *) dir="${BUILD_WORKING_DIRECTORY:-$PWD}/$dir" ;;
esac
# The files are in the runfiles (bazel run starts it there).
runfiles="${RUNFILES_DIR:-$0.runfiles}"
[ -d "$runfiles/mnk" ] && cd "$runfiles/mnk"
for f in "${files[@]}"; do
  [ -f "$f" ] || { echo "install: $f is missing: run it as bazel run //install:$target" >&2; exit 1; }
done
mkdir -p "$dir"
for f in "${files[@]}"; do
  cp -f "$f" "$dir/"
  mode=0644
  [ "$(head -c 4 "$f" | tail -c 3)" = ELF ] && mode=0755  # a program
  chmod "$mode" "$dir/${f##*/}"
done
echo "installed $what in $dir: ${files[*]##*/}"
