#!/usr/bin/env bash
# Runs pytest (Debian's python3-pytest) on the package as a user has it:
# its wheel for Debian's /usr/bin/python3 installed by pip into a fresh
# venv (with the system's site-packages, for pytest), no PYTHONPATH.
# -B: no __pycache__ beside the sources (runfiles are symlinks).
set -euo pipefail
cd "$TEST_SRCDIR/mnk"
tag=$(/usr/bin/python3 -c 'import sys; print("cp%d%d" % sys.version_info[:2])')
venv="$TEST_TMPDIR/venv"
/usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install -q --no-index --no-cache-dir \
  python/mnk-*-"$tag"-"$tag"-linux_x86_64.whl
unset PYTHONPATH
exec "$venv/bin/python" -B -m pytest -q -p no:cacheprovider "$@"
