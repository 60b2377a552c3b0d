"""Abseil's, zlib's, zstd's and libmicrohttpd's sources, the versions of Debian's own
packages, which `./setup.sh` puts in /usr/local/src/mnk-wasm (from Debian's
source packages). Every build compiles them, so that what the project ships
links them statically, position-independent where a shared library
(libmnk.so, the Python module) takes them, and needs only the C and C++
runtime of the system (Debian's static libraries are not all
position-independent); the WebAssembly build (//wasm) compiles Abseil and
zlib's CRC-32 from them with em++. Without them the repository still
loads (so that `bazel query` works), and its targets fail when built,
saying how to get them.

    debian_sources(name = "debian_sources", path = "/usr/local/src/mnk-wasm")
"""

# What is not Abseil's libraries: tests, benchmarks, test helpers, mocks.
_NOT_LIBRARY = [
    "**/*_test.cc",
    "**/*_test_*.cc",
    "**/*test_util*.cc",
    "**/*testing*.cc",
    "**/*benchmark*.cc",
    "**/*mock*.cc",
    "abseil/absl/hash/internal/print_hash_of.cc",
    "abseil/absl/debugging/internal/stack_consumption.cc",
]

_FOUND = """
package(default_visibility = ["//visibility:public"])

# Abseil for the native build: its libraries but random (the project uses
# none of it), compiled as the project's own code is, linked statically.
cc_library(
    name = "absl",
    srcs = glob(
        ["abseil/absl/**/*.cc"],
        exclude = {not_library} + [
            "abseil/absl/random/**",
            "abseil/absl/debugging/leak_check.cc",
        ],
    ),
    hdrs = glob(["abseil/absl/**/*.h", "abseil/absl/**/*.inc"]),
    copts = ["-w"],
    includes = ["abseil"],
    linkopts = ["-lpthread"],
)

# Abseil's libraries, as Debian's libabsl-dev builds them, for the
# WebAssembly build: all but flags, random, the tests and the test
# helpers.
filegroup(
    name = "abseil",
    srcs = glob(
        ["abseil/absl/**/*.cc"],
        exclude = {not_library} + [
            "abseil/absl/flags/**",
            "abseil/absl/random/**",
            "abseil/absl/debugging/failure_signal_handler.cc",
            "abseil/absl/debugging/leak_check*.cc",
            "abseil/absl/debugging/symbolize_*.cc",
            "abseil/absl/debugging/internal/examine_stack.cc",
        ],
    ),
)

filegroup(
    name = "abseil_headers",
    srcs = glob(["abseil/absl/**/*.h", "abseil/absl/**/*.inc"]),
)

# zlib's CRC-32, all the tables need of it: for em++, and as a library.
filegroup(
    name = "zlib",
    srcs = ["zlib/crc32.c", "zlib/zutil.c"] + glob(["zlib/*.h"]),
)

cc_library(
    name = "zlib_crc32",
    srcs = ["zlib/crc32.c", "zlib/zutil.c"],
    hdrs = glob(["zlib/*.h"]),
    copts = ["-w"],
    includes = ["zlib"],
)

# libmicrohttpd without HTTPS (serve's HTTP layer), configured by
# ./setup.sh (MHD_config.h): the library's sources, threads by POSIX's,
# glibc's tsearch, no digest or basic auth, no post processor.
cc_library(
    name = "microhttpd",
    srcs = ["microhttpd/src/microhttpd/" + f for f in [
        "connection.c", "daemon.c", "internal.c", "memorypool.c",
        "mhd_compat.c", "mhd_itc.c", "mhd_mono_clock.c", "mhd_send.c",
        "mhd_sockets.c", "mhd_str.c", "mhd_threads.c", "reason_phrase.c",
        "response.c", "sysfdsetsize.c",
    ]] + glob([
        "microhttpd/src/microhttpd/*.h",
        "microhttpd/src/include/*.h",
    ]) + ["microhttpd/MHD_config.h"],
    hdrs = ["microhttpd/src/include/microhttpd.h"],
    copts = [
        "-w",
        "-DHAVE_CONFIG_H",
        "-DBUILDING_MHD_LIB=1",
        "-Iexternal/debian_sources/microhttpd",
        "-Iexternal/debian_sources/microhttpd/src/include",
        "-Iexternal/debian_sources/microhttpd/src/microhttpd",
    ],
    includes = ["microhttpd/src/include"],
    linkopts = ["-lpthread"],
)

# zstd's compressor and decompressor (the solver's tier files), one thread.
cc_library(
    name = "zstd",
    srcs = glob([
        "zstd/lib/common/*.c",
        "zstd/lib/compress/*.c",
        "zstd/lib/decompress/*.c",
        "zstd/lib/decompress/*.S",
        "zstd/lib/**/*.h",
    ]),
    hdrs = ["zstd/lib/zstd.h", "zstd/lib/zstd_errors.h"],
    copts = ["-w"],
    includes = ["zstd/lib"],
)
"""

_MISSING = """
package(default_visibility = ["//visibility:public"])

[genrule(
    name = n,
    outs = [n + ".missing"],
    cmd = "echo 'the build needs Abseil, zlib, zstd and libmicrohttpd sources in {path}: run ./setup.sh' >&2; exit 1",
) for n in ["abseil", "abseil_headers", "zlib", "missing"]]

[cc_library(
    name = n,
    srcs = [":missing"],
) for n in ["absl", "microhttpd", "zlib_crc32", "zstd"]]
"""

def _debian_sources_impl(ctx):
    path = ctx.path(ctx.attr.path)
    found = (path.get_child("abseil").get_child("absl").exists and
             path.get_child("zlib").get_child("crc32.c").exists and
             path.get_child("zstd").get_child("lib").exists and
             path.get_child("microhttpd").get_child("MHD_config.h").exists)
    if found:
        # Copies, without Abseil's own BUILD files (which would make its
        # folders packages of their own, out of the globs' reach).
        for name in ["abseil", "zlib", "zstd", "microhttpd"]:
            ctx.execute(["cp", "-r", str(path.get_child(name)), name])
        ctx.execute(["find", ".", "-name", "BUILD", "-delete", "-o",
                     "-name", "BUILD.bazel", "-delete"])
        ctx.file("BUILD.bazel", _FOUND.format(not_library = repr(_NOT_LIBRARY)))
    else:
        ctx.file("BUILD.bazel", _MISSING.format(path = ctx.attr.path))

debian_sources = repository_rule(
    implementation = _debian_sources_impl,
    attrs = {"path": attr.string(mandatory = True)},
    local = True,
)
