"""The extension mnk._mnk and a wheel of the package for each CPython
version on the machine (@cpythons, third_party/cpythons.bzl):

    mnk_wheels(name = "wheel", srcs = ["mnk_module.cc"], package = [...],
               deps = [...], readme = "//docs:python_md",
               license = "//:LICENSE")

makes _mnk_cpXY.so, mnk-VERSION-cpXY-cpXY-linux_x86_64.whl for each
version 3.X found (XY: "311"), and `name`, every wheel.
"""

load("@cpythons//:versions.bzl", "CPYTHONS")
load("//base/version:version.bzl", "VERSION")

def wheel_name(version):
    """The wheel's file name for CPython `version` ("3.11")."""
    tag = "cp" + version.replace(".", "")
    return "mnk-%s-%s-%s-linux_x86_64.whl" % (VERSION, tag, tag)

def mnk_wheels(name, srcs, package, deps, readme, license):
    wheels = []
    for version in CPYTHONS:
        tag = "cp" + version.replace(".", "")
        extension = "_mnk_%s.so" % tag

        # The core and Abseil are linked in (statically, position-
        # independent); Python's own symbols come from the interpreter
        # that loads it.
        native.cc_binary(
            name = extension,
            srcs = srcs,
            copts = ["-fvisibility=hidden"],
            linkshared = True,
            visibility = ["//tests:__pkg__"],
            deps = deps + ["@cpythons//:python" + tag[2:]],
        )
        native.genrule(
            name = "wheel_" + tag,
            srcs = package + [extension, readme, license],
            outs = [wheel_name(version)],
            cmd = " ".join([
                "python3 $(location wheel.py) --out=$@",
                "--python=" + version,
                "--version=" + VERSION,
                "--extension=$(location :%s)" % extension,
                "--readme=$(location %s)" % readme,
                "--license=$(location %s)" % license,
            ] + ["$(location %s)" % f for f in package]),
            tools = ["wheel.py"],
        )
        wheels.append(":wheel_" + tag)
    native.filegroup(
        name = name,
        srcs = wheels,
        visibility = ["//visibility:public"],
    )
