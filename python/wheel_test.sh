#!/usr/bin/env bash
# Each CPython 3.8 to 3.13 on the machine (args: VERSION=INTERPRETER, from
# @cpythons; a version absent is skipped, and said so) installs its wheel
# with pip into a fresh venv, offline, and then, with no PYTHONPATH, from
# outside the repository:
#   - runs every example of docs/python.md (doctest),
#   - plays a game of tic-tac-toe with `python -m mnk`,
#   - finds the package's types (PEP 561: py.typed, __init__.pyi).
set -euo pipefail
src="$TEST_SRCDIR/mnk"
unset PYTHONPATH
cd "$TEST_TMPDIR"
for minor in 8 9 10 11 12 13; do
  version="3.$minor"
  python=""
  for arg in "$@"; do
    [ "${arg%%=*}" = "$version" ] && python="${arg#*=}"
  done
  if [ -z "$python" ] || [ ! -x "$python" ]; then
    echo "skipped: CPython $version is not on this machine"
    continue
  fi
  tag="cp3$minor"
  venv="$TEST_TMPDIR/venv$minor"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --no-index --no-cache-dir \
    "$src"/python/mnk-*-"$tag"-"$tag"-linux_x86_64.whl

  "$venv/bin/python" -B - "$src/docs/python.md" <<'PY'
import doctest, sys
import mnk
assert mnk.__file__.startswith(sys.prefix), mnk.__file__
failed, attempted = doctest.testfile(
    sys.argv[1], module_relative=False,
    optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
assert attempted >= 15 and failed == 0, (failed, attempted)
PY

  # X (the person) takes 4, 0 and 8 against the perfect player, then
  # tries cells in order: O blocks, then completes its top row.
  game=$(printf '4\n0\n8\n2\n5\n3\n1\n7\n6\nn\n' | "$venv/bin/python" -m mnk)
  grep -q "I play cell 0 (" <<< "$game" || { echo "$game"; exit 1; }
  grep -qx "I win." <<< "$game" || { echo "$game"; exit 1; }
  "$venv/bin/python" -m mnk --version | grep -qx "mnk $("$venv/bin/python" -c 'import mnk; print(mnk.__version__)')"

  package=$("$venv/bin/python" -c 'import mnk, os; print(os.path.dirname(mnk.__file__))')
  for f in py.typed __init__.pyi; do
    [ -f "$package/$f" ] || { echo "FAIL: $version: no $f in $package"; exit 1; }
  done
  echo "ok: CPython $version ($("$venv/bin/python" -c 'import sys; print(sys.version.split()[0])'))"
done
