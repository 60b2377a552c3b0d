#!/usr/bin/env bash
# Copies the npm package's tarball (//wasm:npm) into a folder, for
# `npm install FOLDER/mnk-VERSION.tgz`:
#
#   bazel run //install:npm                  # into ~/.local/share/mnk/npm
#   bazel run //install:npm -- DIR
set -euo pipefail
dir="${1:-$HOME/.local/share/mnk/npm}"
case "$dir" in
  /*) ;;
  *) dir="${BUILD_WORKING_DIRECTORY:-$PWD}/$dir" ;;
esac
runfiles="${RUNFILES_DIR:-${TEST_SRCDIR:-$0.runfiles}}"
[ -d "$runfiles/mnk" ] && cd "$runfiles/mnk"
tgz=(wasm/mnk-*.tgz)
[ -f "${tgz[0]}" ] || { echo "install: no npm package: run it as bazel run //install:npm" >&2; exit 1; }
mkdir -p "$dir"
cp -f "${tgz[0]}" "$dir/" && chmod 0644 "$dir/${tgz[0]##*/}"
echo "installed $dir/${tgz[0]##*/}: npm install $dir/${tgz[0]##*/}"
