"""The CPython versions 3.8 to 3.13 whose headers are on this machine:
Debian's (python3-dev: /usr/include/python3.X) and any others found under
pyenv's root ($PYENV_ROOT, else ~/.pyenv: versions/3.X.Y/include), the
newest patch release of each minor version. //python builds its extension
and a wheel for each one found (a version absent is skipped); versions.bzl
lists them with an interpreter of each, for the tests.

    cpythons(name = "cpythons")
    load("@cpythons//:versions.bzl", "CPYTHONS")  # {"3.11": "/usr/bin/python3.11"}
"""

_MINORS = [8, 9, 10, 11, 12, 13]

def _patch(name):
    """3.12.1 -> 1; anything else (3.12-dev, 3.12.1t) -> -1: not taken."""
    parts = name.split(".")
    if len(parts) != 3 or not parts[2].isdigit():
        return -1
    return int(parts[2])

def _find(ctx):
    """{"3.X": (include dir, interpreter)} for each minor version found."""
    found = {}
    for minor in _MINORS:
        version = "3.%d" % minor
        include = ctx.path("/usr/include/python%s/Python.h" % version)
        python = ctx.path("/usr/bin/python" + version)
        if include.exists and python.exists:
            found[version] = (str(include.dirname), str(python))
    root = ctx.os.environ.get("PYENV_ROOT", ctx.os.environ.get("HOME", "/root") + "/.pyenv")
    versions = ctx.path(root + "/versions")
    if not versions.exists:
        return found
    best = {}
    for entry in versions.readdir():
        name = entry.basename
        for minor in _MINORS:
            version = "3.%d" % minor
            if not name.startswith(version + ".") or _patch(name) < 0:
                continue
            include = entry.get_child("include").get_child("python" + version)
            python = entry.get_child("bin").get_child("python" + version)
            if not include.get_child("Python.h").exists or not python.exists:
                continue
            if version not in best or _patch(name) > best[version][0]:
                best[version] = (_patch(name), str(include), str(python))
    for version, (_, include, python) in best.items():
        if version not in found:
            found[version] = (include, python)
    return found

def _in_order(found):
    """The versions found, oldest first."""
    return ["3.%d" % minor for minor in _MINORS if "3.%d" % minor in found]

def _cpythons_impl(ctx):
    found = _find(ctx)
    build = ['package(default_visibility = ["//visibility:public"])\n']
    for version in _in_order(found):
        include, _ = found[version]
        tag = version.replace(".", "")
        ctx.symlink(include, "include" + tag)
        build.append("""
# CPython {version}'s headers ({include}).
cc_library(
    name = "python{tag}",
    hdrs = glob(["include{tag}/**/*.h"]),
    includes = ["include{tag}"],
)
""".format(version = version, include = include, tag = tag))
    ctx.file("BUILD", "".join(build))
    entries = ['    "%s": "%s",\n' % (v, found[v][1]) for v in _in_order(found)]
    ctx.file("versions.bzl", "# The CPython versions found, and an interpreter of each.\nCPYTHONS = {\n" + "".join(entries) + "}\n")

cpythons = repository_rule(
    implementation = _cpythons_impl,
    environ = ["HOME", "PYENV_ROOT"],
    local = True,
)
