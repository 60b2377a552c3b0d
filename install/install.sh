#!/usr/bin/env bash
# Puts the tools on a PATH:
#
#   bazel run //install                  # into ~/.local/bin
#   bazel run //install -- /usr/local    # into /usr/local/bin (as root)
#
# Copies play, serve, sample, solve, verify and book to PREFIX/bin. Each
# carries what it needs inside it (the built-in tables, Connect Four's
# book, the web page), so the copies work from any folder; they link
# Debian's shared libraries that ./setup.sh installs.
set -euo pipefail
prefix="${1:-$HOME/.local}"
case "$prefix" in
  /*) ;;
  *) prefix="${BUILD_WORKING_DIRECTORY:-$PWD}/$prefix" ;;
esac
# The tools are in this script's runfiles (bazel run starts it there).
runfiles="${RUNFILES_DIR:-${TEST_SRCDIR:-$0.runfiles}}"
[ -d "$runfiles/mnk" ] && cd "$runfiles/mnk"
mkdir -p "$prefix/bin"
for tool in player/play serve/serve player/sample solver/solve verify/verify search/book/book; do
  if [ ! -f "$tool" ]; then
    echo "install: $tool is missing: run it as bazel run //install" >&2
    exit 1
  fi
  cp -f "$tool" "$prefix/bin/" && chmod 0755 "$prefix/bin/${tool##*/}"
done
echo "installed play, serve, sample, solve, verify and book in $prefix/bin"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "add it to your PATH: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
