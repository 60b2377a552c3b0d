"""A libFuzzer target and the test that replays its corpus."""

def fuzz_target(name, srcs, deps, corpus):
    """Defines `name` (a libFuzzer binary under --config=fuzz) and
    `name`_corpus_test (replays every file of `corpus` in any build).

    Args:
      name: the fuzzer's name.
      srcs: sources defining LLVMFuzzerTestOneInput.
      deps: its dependencies.
      corpus: the seed corpus folder, relative to the package.
    """
    native.cc_binary(
        name = name,
        srcs = srcs,
        deps = deps,
        linkopts = ["-fsanitize=fuzzer"],
        tags = ["manual"],
        testonly = True,
    )
    native.cc_test(
        name = name + "_corpus_test",
        srcs = srcs,
        deps = deps + ["//tools:fuzz_replay_main"],
        args = [native.package_name() + "/" + corpus],
        data = native.glob([corpus + "/*"]),
    )
