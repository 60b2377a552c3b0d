"""The sources the WebAssembly build (//wasm) compiles with em++ that Debian
packages only as libraries: Abseil's and zlib's, which `./setup.sh --web`
(or --tests) puts in /usr/local/src/mnk-wasm. Without them the repository
still loads (so that `bazel query` works), and its targets fail when built,
saying how to get them.

    wasm_sources(name = "wasm_sources", path = "/usr/local/src/mnk-wasm")
"""

_FOUND = """
package(default_visibility = ["//visibility:public"])

# Abseil's libraries, as Debian's libabsl-dev builds them: all but flags,
# random, the tests and the test helpers.
filegroup(
    name = "abseil",
    srcs = glob(
        ["abseil/absl/**/*.cc"],
        exclude = [
            "**/*_test.cc",
            "**/*_test_*.cc",
            "**/*test_util*.cc",
            "**/*testing*.cc",
            "**/*benchmark*.cc",
            "**/*mock*.cc",
            "abseil/absl/flags/**",
            "abseil/absl/random/**",
            "abseil/absl/hash/internal/print_hash_of.cc",
            "abseil/absl/debugging/failure_signal_handler.cc",
            "abseil/absl/debugging/leak_check*.cc",
            "abseil/absl/debugging/symbolize_*.cc",
            "abseil/absl/debugging/internal/stack_consumption.cc",
            "abseil/absl/debugging/internal/examine_stack.cc",
        ],
    ),
)

filegroup(
    name = "abseil_headers",
    srcs = glob(["abseil/absl/**/*.h", "abseil/absl/**/*.inc"]),
)

# zlib's CRC-32, all the tables need of it.
filegroup(
    name = "zlib",
    srcs = ["zlib/crc32.c", "zlib/zutil.c"] + glob(["zlib/*.h"]),
)
"""

_MISSING = """
package(default_visibility = ["//visibility:public"])

[genrule(
    name = n,
    outs = [n + ".missing"],
    cmd = "echo 'the WebAssembly build needs Abseil and zlib sources in {path}: run ./setup.sh --web' >&2; exit 1",
) for n in ["abseil", "abseil_headers", "zlib"]]
"""

def _wasm_sources_impl(ctx):
    path = ctx.path(ctx.attr.path)
    found = (path.get_child("abseil").get_child("absl").exists and
             path.get_child("zlib").get_child("crc32.c").exists)
    if found:
        # Copies, without Abseil's own BUILD files (which would make its
        # folders packages of their own, out of the globs' reach).
        for name in ["abseil", "zlib"]:
            ctx.execute(["cp", "-r", str(path.get_child(name)), name])
        ctx.execute(["find", ".", "-name", "BUILD", "-delete", "-o",
                     "-name", "BUILD.bazel", "-delete"])
        ctx.file("BUILD.bazel", _FOUND)
    else:
        ctx.file("BUILD.bazel", _MISSING.format(path = ctx.attr.path))

wasm_sources = repository_rule(
    implementation = _wasm_sources_impl,
    attrs = {"path": attr.string(mandatory = True)},
    local = True,
)
