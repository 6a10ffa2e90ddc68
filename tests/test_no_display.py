"""A `tryCatchPattern` that tells an error by its text calls `e.to_string()`, which compiles
only where the error type has `Display`. typst's `SourceResult<T>` holds an
`EcoVec<SourceDiagnostic>` (a collection: no `Display`), its `HintedString` derives `Debug`
alone, axum's example `AppError` too: a stop 54 reading found such patterns (FALSE). The
reach says when the index finds no `Display` (`Reach.no_display`): a collection of another
crate, or the struct or enum the site's file means by the name with neither an `impl
Display for` it nor a derive that writes one (thiserror's `Error`, renamed too; `Display`;
`Snafu`); the pattern then reads `format!("{e:?}")`. Unknown stays as it was: another
crate's type (`tonic::Status`, even beside a type of that name in the crate)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from test_reach import graph_of

from pipeline.analyze.static import explain
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import SiteSpec, no_display, reaches_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

DIAG = """\
#[derive(Debug, Clone)]
pub struct HintedString(String);
#[derive(Debug, thiserror::Error)]
#[error("load failed")]
pub struct LoadError;
#[derive(Debug, ThisError)]
pub enum Renamed { #[error("x")] X }
#[derive(Debug)]
pub struct Shown;
#[derive(Debug)]
pub enum Error<'src> { Compile(&'src str) }
impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { f.write_str("shown") }
}
"""
USE = """\
use crate::diag::HintedString;
pub fn hinted(x: u32) -> Result<u8, HintedString> {
    if x > 9 {
        return Err(HintedString::from("the value is far too large"));
    }
    Ok(1)
}
"""
RPC = """\
use tonic::Status;
pub fn call(x: u32) -> Result<u8, Status> {
    enum Status { Idle }
    Err(Status::invalid_argument("the request is malformed"))
}
"""
FILES = {
    "Cargo.toml": '[package]\nname = "app"\n',
    "src/lib.rs": "pub mod diag;\npub mod use_it;\npub mod rpc;\n",
    "src/diag.rs": DIAG,
    "src/use_it.rs": USE,
    "src/rpc.rs": RPC,
}


def test_the_index_tells_which_error_types_print_no_display_text(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    site = "src/use_it.rs"
    assert no_display(graph, "HintedString", site)
    assert no_display(graph, "EcoVec<SourceDiagnostic>", site)  # a collection
    assert not no_display(graph, "LoadError", site)  # thiserror's derive writes it
    assert not no_display(graph, "Renamed", site)  # `use thiserror::Error as ThisError`
    assert not no_display(graph, "Shown", site)  # `impl Display for Shown`
    assert not no_display(graph, "Status", "src/rpc.rs")  # tonic's, not the fn's enum
    assert not no_display(graph, "anyhow::Error", site)
    assert not no_display(graph, "Missing", site)  # nothing known: as it was
    # just's `Error<'src>`: lifetimes alone are the type (reading 281)
    assert no_display(graph, "Error<'src>", site)
    assert not no_display(graph, "Error<T>", site)  # a type's argument: not known


def test_its_handling_reads_the_debug_text(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    scan = find_sites("src/use_it.rs", USE.encode())
    (context,) = build_contexts("o/app", "ab" * 20, RepoScan(scans={"src/use_it.rs": scan}))
    assert context.error_class == "HintedString"
    spec = SiteSpec(context.record_id, context.error_class, "src/use_it.rs", context.site.line, ())
    reach = reaches_of([spec], graph)[context.record_id]

    assert reach.no_display
    pattern = explain(replace(context, reach=reach)).tryCatchPattern or ""
    assert 'format!("{e:?}").contains("the value is far too large")' in pattern
    assert "to_string" not in pattern
    assert "e.to_string()" in (explain(context).tryCatchPattern or "")  # no reach: as before


def test_which_type_a_name_means_is_asked_of_each_site_s_file(tmp_path: Path) -> None:
    """One crate, one error class name, two files: `local.rs` declares its own `Status`
    (no `Display`), `remote.rs` takes tonic's. tikv's `diagnostics/log.rs` declares an
    `Error` with `Debug` alone while its crate's other files return others: the answer of
    the first file asked had stood for every file of the crate."""
    files = {
        "Cargo.toml": '[package]\nname = "app"\n',
        "src/lib.rs": "pub mod local;\npub mod remote;\n",
        "src/local.rs": (
            "#[derive(Debug)]\npub enum Status { Down }\n"
            "pub fn check() -> Result<u8, Status> {\n    Err(Status::Down)\n}\n"
        ),
        "src/remote.rs": (
            "use tonic::Status;\n"
            "pub fn call() -> Result<u8, Status> {\n"
            '    Err(Status::invalid_argument("the request is malformed"))\n}\n'
        ),
    }
    graph = graph_of(tmp_path, files)
    specs = [SiteSpec(p, "Status", p, 4 if p == "src/local.rs" else 3, ()) for p in
             ("src/remote.rs", "src/local.rs", "src/remote.rs")]  # fmt: skip
    for order in (specs, specs[::-1]):
        found = reaches_of(order, graph)
        assert found["src/local.rs"].no_display
        assert not found["src/remote.rs"].no_display
