"""The PEP 517 build backend of `pip install .`: Bazel builds the wheel of
the Python running pip (//python:wheel_cpXY, offline), which is copied to
where pip asks. Nothing else is built here: the wheel is the one
`bazel build //python:wheel` makes.

  pip install .        # from the checkout, after ./setup.sh
"""

import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _version():
    """The project's version, from base/version/version.bzl."""
    with open(os.path.join(ROOT, "base", "version", "version.bzl")) as f:
        return re.search(r'^VERSION = "([^"]+)"', f.read(), re.M).group(1)


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    tag = "cp%d%d" % sys.version_info[:2]
    name = "mnk-%s-%s-%s-linux_x86_64.whl" % (_version(), tag, tag)
    if shutil.which("bazel") is None:
        raise RuntimeError("bazel is not installed: run ./setup.sh first")
    built = subprocess.run(["bazel", "build", "//python:wheel_" + tag],
                           cwd=ROOT)
    if built.returncode != 0:
        raise RuntimeError(
            "bazel build //python:wheel_%s failed: CPython %d.%d needs its "
            "headers on this machine (Debian's python3-dev, or pyenv's)"
            % ((tag,) + sys.version_info[:2]))
    bazel_bin = subprocess.run(["bazel", "info", "bazel-bin"], cwd=ROOT,
                               capture_output=True, text=True,
                               check=True).stdout.strip()
    shutil.copyfile(os.path.join(bazel_bin, "python", name),
                    os.path.join(wheel_directory, name))
    return name
