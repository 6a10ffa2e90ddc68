"""A procedural macro is a way in: the compiler runs it while it builds the crate that
writes `query!(..)`, `#[derive(Type)]` or `#[command]`, and an error it returns is that
build's error (sqlx's `expand_query` turns it into `compile_error!`). Its fn is `pub` in a
`proc-macro` crate, and had been labelled "public API `sqlx_macros::expand_query`", a fn no
program can call (stop 54's reading: a `tryCatchPattern` that matches a runtime `Result`
no one holds). Now it is an entry of kind `macro`, named as the using crate writes it; an
error met only so has no `tryCatchPattern`, and a `try-catch` handling becomes
`fail-fast` (the build stops on it; the fix is in what the macro is given)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from test_reach import graph_of, line_of_text

from pipeline.analyze.static import explain
from pipeline.core.reach import CallerPath, Hop, Reach
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import site_reach
from pipeline.scan.collect import build_contexts
from pipeline.scan.entrypoints import proc_macro_use
from pipeline.scan.pool import RepoScan

LIB = """\
use proc_macro::TokenStream;

#[proc_macro]
pub fn expand_query(input: TokenStream) -> TokenStream {
    match expand(input) {
        Ok(ts) => ts,
        Err(e) => e.to_compile_error(),
    }
}

#[proc_macro_derive(Type, attributes(sqlx))]
pub fn derive_type(input: TokenStream) -> TokenStream {
    expand(input).unwrap()
}

#[proc_macro_attribute]
pub fn command(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}

fn expand(input: TokenStream) -> anyhow::Result<TokenStream> {
    if input.is_empty() {
        anyhow::bail!("expected a query string");
    }
    Ok(input)
}

fn connect(url: &str) -> anyhow::Result<u8> {
    let conn = open(url)?;
    if conn.closed() {
        anyhow::bail!("the cached query describes other columns");
    }
    Ok(1)
}
"""
FILES = {
    "Cargo.toml": '[package]\nname = "query_macros"\n[lib]\nproc-macro = true\n',
    "src/lib.rs": LIB,
}


def test_a_procedural_macro_is_an_entry_named_as_the_using_crate_writes_it(
    tmp_path: Path,
) -> None:
    graph = graph_of(tmp_path, FILES)

    assert sorted(
        (graph.nodes[n].label, kind, label) for n, (kind, label) in graph.entries.items()
    ) == [
        ("command", "macro", "attribute `#[command]`, as the using crate compiles"),
        ("derive_type", "macro", "`#[derive(Type)]`, as the using crate compiles"),
        ("expand_query", "macro", "macro `expand_query!`, as the using crate compiles"),
    ]
    reach = site_reach(graph, "src/lib.rs", line_of_text(LIB, "expected a query string"))
    assert reach is not None
    assert [(p.entry, [h.name for h in p.hops]) for p in reach.paths] == [
        ("macro", ["expand_query", "expand"]),
        ("macro", ["derive_type", "expand"]),
    ]


def test_only_the_three_attributes_make_one() -> None:
    assert proc_macro_use("f", ("inline",)) is None
    assert proc_macro_use("f", ("proc_macro_derive ( Row , attributes(sqlx))",)) == (
        "`#[derive(Row)]`"
    )
    assert proc_macro_use("f", ("doc(hidden)", "proc_macro")) == "macro `f!`"


def explained(reach: Reach | None, message: str = "expected") -> tuple[str | None, str]:
    scan = find_sites("src/lib.rs", LIB.encode())
    contexts = build_contexts("acme/q", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    (context,) = [c for c in contexts if c.site.message.startswith(message)]
    explanation = explain(replace(context, reach=reach))
    return explanation.tryCatchPattern, explanation.handlingStrategy


def _path(entry: str) -> CallerPath:
    hops = (
        Hop(
            "expand_query", "src/lib.rs", 4, "pub fn expand_query(input: TokenStream)", call_line=5
        ),
        Hop("expand", "src/lib.rs", 21, "fn expand(input: TokenStream)"),
    )
    return CallerPath(hops, entry, "macro `expand_query!`, as the using crate compiles")  # type: ignore[arg-type]


def test_an_error_met_only_as_a_macro_expands_has_no_runtime_handling() -> None:
    runtime_catch, runtime_strategy = explained(None, "the cached")
    assert runtime_catch is not None and runtime_strategy == "try-catch"

    at_build = Reach(paths=(_path("macro"),), callers=1)
    assert explained(at_build, "the cached") == (None, "fail-fast")
    # a check of what the macro is given stays one: the fix is in that input
    assert explained(at_build) == (None, "validation")
    # one way in that a program runs keeps the handling a caller writes
    also_called = Reach(paths=(_path("macro"), _path("pub-api")), callers=2)
    assert explained(also_called, "the cached") == (runtime_catch, "try-catch")


def test_a_panic_met_only_as_a_macro_expands_fails_the_using_crate_s_build() -> None:
    """rust-prometheus' `make_static_metric!` panics on what it is given; the record said
    the panic "ends the whole process where the build sets `panic = "abort"`" (reading 303):
    the compiler catches a proc macro's panic, whatever the build sets, and reports it."""
    source = LIB.replace("expand(input).unwrap()", 'expand(input).expect("a valid type")')
    scan = find_sites("src/lib.rs", source.encode())
    contexts = build_contexts("acme/q", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    (context,) = [c for c in contexts if c.site.kind == "expect"]
    at_build = explain(replace(context, reach=Reach(paths=(_path("macro"),), callers=1)))
    assert "the whole process" not in at_build.documentation
    assert at_build.documentation.endswith(
        "A panic while a procedural macro expands stops no program: the compiler reports it"
        ' ("proc macro panicked", with this message), and the crate that uses the macro fails'
        " to build. Class: Internal invariant violated."
    )
    at_run = explain(replace(context, reach=Reach(paths=(_path("pub-api"),), callers=1)))
    assert "the whole process with it when it is the main thread" in at_run.documentation
    # a build script's: Cargo reports it (rust-prometheus' `build.rs`, reading 303's recheck)
    at_build_script = explain(replace(context, reach=Reach(paths=(_path("build"),), callers=1)))
    assert at_build_script.documentation.endswith(
        'A panic in a build script stops no program: Cargo reports "failed to run custom build'
        ' command" with this message, and the package fails to build. Class: Internal'
        " invariant violated."
    )
