#!/usr/bin/env bash
# Runs pytest with Debian's /usr/bin/python3 (whose python3-pytest and
# python3-dev the module is built for), the module's folder on PYTHONPATH.
# -B: no __pycache__ beside the sources (runfiles are symlinks).
set -euo pipefail
cd "$TEST_SRCDIR/mnk"
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
exec /usr/bin/python3 -B -m pytest -q -p no:cacheprovider "$@"
