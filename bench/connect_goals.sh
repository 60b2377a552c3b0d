#!/usr/bin/env bash
# Runs bench/connect_goals.py (what it measures is said there) with Debian's
# python3, from the runfiles.
#
#   bazel run //bench:connect_goals -- [--games=100] [--c4=DIR]
set -euo pipefail
# Run by hand, from the runfiles as `bazel run` does.
[ -x player/play ] || cd "$0.runfiles/mnk"
exec /usr/bin/python3 -B bench/connect_goals.py "$@"
