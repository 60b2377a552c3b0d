"""The C++ sources of libraries, gathered from the Bazel graph.

A build with another compiler (em++, //wasm:mnk_core) compiles what the
native build links: `cc_sources` collects the srcs and hdrs of every
cc_library of this workspace that its deps reach, so that no source list is
kept by hand beside the real dependencies. External repositories (Abseil,
zlib) are left out: the other build brings its own.

    cc_sources(
        name = "core_sources",
        deps = ["//answer"],
    )
"""

_CcSourcesInfo = provider(
    doc = "The srcs and hdrs of a target's cc_library closure.",
    fields = ["files"],
)

def _collect_impl(target, ctx):
    own = []
    if ctx.rule.kind == "cc_library" and not target.label.workspace_name:
        for attr in ("srcs", "hdrs", "textual_hdrs"):
            own += [t.files for t in getattr(ctx.rule.attr, attr, [])]
    deps = [
        d[_CcSourcesInfo].files
        for d in getattr(ctx.rule.attr, "deps", [])
        if _CcSourcesInfo in d
    ]
    return [_CcSourcesInfo(files = depset(transitive = own + deps))]

_collect = aspect(
    implementation = _collect_impl,
    attr_aspects = ["deps"],
)

def _cc_sources_impl(ctx):
    files = depset(transitive = [d[_CcSourcesInfo].files for d in ctx.attr.deps])
    return [DefaultInfo(files = files)]

cc_sources = rule(
    implementation = _cc_sources_impl,
    attrs = {"deps": attr.label_list(aspects = [_collect])},
    doc = "The srcs and hdrs of every cc_library of this workspace in deps' closure.",
)
