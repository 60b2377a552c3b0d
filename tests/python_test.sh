#!/usr/bin/env bash
# Runs a Python test with Debian's /usr/bin/python3, which sees Debian's
# python3-* packages (Selenium); a `python3` earlier on PATH may not.
# -B: no __pycache__ written beside the sources (runfiles are symlinks).
exec /usr/bin/python3 -B -u "$@"
