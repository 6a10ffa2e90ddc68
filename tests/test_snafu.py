"""snafu's errors are errors a user sees as much as thiserror's: `#[snafu(display(".."))]`
on a variant writes its text (greptimedb has 1,894 of them, vector 535, and no `#[error]`),
and a context selector (`ListSchemasSnafu { catalog }`, the variant's name and `Snafu`)
builds the variant where the code writes it: `.context(..)?`, `ensure!(ok, ..)`,
`..fail()`, bare or through the error module's path. Each variant is one record whose
caller paths lead to the fns that write its selector."""

from __future__ import annotations

from pathlib import Path

from test_reach import committed_and_extracted
from test_unbuilt_variants import settled_graph

from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import site_reach
from pipeline.scan.callgraph import CallGraph

ERRORS = """\
use snafu::{Location, Snafu};

#[derive(Snafu)]
#[snafu(visibility(pub))]
pub enum Error {
    #[snafu(display("Failed to list {}'s schemas", catalog))]
    ListSchemas {
        #[snafu(implicit)]
        location: Location,
        catalog: String,
        source: BoxedError,
    },

    #[snafu(display("Table not found: {table}"))]
    TableNotFound { table: String },

    #[snafu(visibility(pub(crate)), display(r#"Invalid "raw" value {x}"#))]
    Raw { x: u32 },

    #[snafu(display("Failed to list catalogs"))]
    ListCatalogs { source: BoxedError },

    #[snafu(display("Failed to bind {addr}"))]
    BindError { addr: String },

    #[snafu(display("Never built"))]
    NeverBuilt,

    #[snafu(implicit)]
    NoText,
}
"""

CATALOG = """\
use snafu::{ensure, OptionExt, ResultExt};

use crate::error::{self, ListCatalogsSnafu, ListSchemasSnafu, Result, TableNotFoundSnafu};

pub fn schemas(c: &Catalog) -> Result<Vec<String>> {
    let listed = c.list_schemas().context(ListSchemasSnafu { catalog: "greptime" })?;
    ensure!(!listed.is_empty(), TableNotFoundSnafu { table: "numbers" });
    Ok(listed)
}

pub fn catalogs(c: &Catalog) -> Result<Vec<String>> {
    c.list_catalogs().context(ListCatalogsSnafu)
}

pub fn bind(addr: &str) -> Result<()> {
    listen(addr).context(BindSnafu { addr })
}

pub fn raw(x: u32) -> Result<()> {
    if x > 9 {
        return error::RawSnafu { x }.fail();
    }
    Ok(())
}
"""


def sites_of(text: str) -> list[tuple[int, str, str, tuple[str, ...], str | None]]:
    scan = find_sites("src/error.rs", text.encode())
    return [
        (s.line, s.kind, s.message, s.format_args, s.facts.variant)
        for s in scan.sites
        if s.macro == "snafu"
    ]


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_snafu_display_attribute_is_its_variant_s_text() -> None:
    assert sites_of(ERRORS) == [
        (6, "error_attr", "Failed to list {}'s schemas", ("catalog",), "ListSchemas"),
        (14, "error_attr", "Table not found: {table}", (), "TableNotFound"),
        (17, "error_attr", 'Invalid "raw" value {x}', (), "Raw"),
        (20, "error_attr", "Failed to list catalogs", (), "ListCatalogs"),
        (23, "error_attr", "Failed to bind {addr}", (), "BindError"),
        (26, "error_attr", "Never built", (), "NeverBuilt"),
    ]


def test_a_pattern_of_a_snafu_text_matches_it_rendered() -> None:
    scan = find_sites("src/error.rs", ERRORS.encode())
    (schemas,) = [s for s in scan.sites if s.facts.variant == "ListSchemas"]
    assert schemas.pattern == "Failed to list (.+?)'s schemas"


def graph_of(files: dict[str, str], tmp_path: Path) -> CallGraph:
    return settled_graph(tmp_path, files)


def built(graph: CallGraph, needle: str, text: str = ERRORS, path: str = "src/error.rs"):  # type: ignore[no-untyped-def]
    reach = site_reach(graph, path, line_of(text, needle))
    if reach is None:
        return None
    if reach.unbuilt:
        return f"nothing builds {reach.unbuilt}"
    return reach.built, sorted((p.hops[-1].name, p.hops[-1].call_line) for p in reach.paths)


def test_a_context_selector_builds_its_variant_where_the_code_writes_it(tmp_path: Path) -> None:
    graph = graph_of(
        {
            "src/lib.rs": "pub mod catalog;\npub mod error;\n",
            "src/error.rs": ERRORS,
            "src/catalog.rs": CATALOG,
        },
        tmp_path,
    )

    # `.context(Selector { .. })?`, `ensure!(ok, Selector { .. })`, a unit selector, and one
    # through the error module's path with `.fail()`
    assert built(graph, "Failed to list {}'s") == ("Error::ListSchemas", [("schemas", 6)])
    assert built(graph, "Table not found") == ("Error::TableNotFound", [("schemas", 7)])
    assert built(graph, "Failed to list catalogs") == ("Error::ListCatalogs", [("catalogs", 12)])
    assert built(graph, "Invalid") == ("Error::Raw", [("raw", 21)])
    # a variant named `..Error` is built by its selector without the `Error`: `BindSnafu`
    assert built(graph, "Failed to bind") == ("Error::BindError", [("bind", 16)])
    # no selector written anywhere: no path is made up, and the record says nothing builds it
    assert built(graph, "Never built") == "nothing builds Error::NeverBuilt"


def test_a_selector_imported_by_a_use_is_no_build(tmp_path: Path) -> None:
    """No path to `f`; but the file writes the selector's name, so no claim that nothing
    builds the variant either (`never_built`)."""
    body = "pub fn f() {\n    use crate::error::NeverBuiltSnafu;\n}\n"
    graph = graph_of({"src/error.rs": ERRORS, "src/f.rs": body}, tmp_path)

    assert built(graph, "Never built") is None


def test_a_context_option_that_renames_or_drops_the_selector_leaves_no_path(tmp_path: Path) -> None:
    """`#[snafu(context(suffix(Ctx)))]` on the enum makes `ListSchemasCtx`, which the index
    does not tell from other names (it keeps those ending in `Snafu`), and `context(false)`
    on a variant makes no selector (`?` converts its source): no builder is claimed for
    either, nor for `TableNotFoundSnafu`, no selector of an enum whose suffix is `Ctx`."""
    errors = ERRORS.replace(
        "#[snafu(visibility(pub))]", "#[snafu(visibility(pub), context(suffix(Ctx)))]"
    )
    catalog = CATALOG.replace("ListSchemasSnafu", "ListSchemasCtx")
    graph = graph_of({"src/error.rs": errors, "src/catalog.rs": catalog}, tmp_path / "a")

    assert built(graph, "Failed to list {}'s", errors) is None
    assert built(graph, "Table not found", errors) is None

    errors = ERRORS.replace(
        '    #[snafu(display("Failed to list catalogs"))]',
        '    #[snafu(context(false), display("Failed to list catalogs"))]',
    )
    graph = graph_of({"src/error.rs": errors, "src/catalog.rs": CATALOG}, tmp_path / "b")

    assert built(graph, "Failed to list catalogs", errors) is None
    assert built(graph, "Table not found", errors) == ("Error::TableNotFound", [("schemas", 7)])


def test_two_crates_variants_of_one_name_are_built_by_their_own_crate_s_selectors(
    tmp_path: Path,
) -> None:
    """greptimedb defines `TableNotFound` in many crates' `Error`s: each crate's
    `TableNotFoundSnafu` builds its own."""
    other = (
        "use crate::error::TableNotFoundSnafu;\npub fn open() -> Result<()> {\n"
        '    None.context(TableNotFoundSnafu { table: "t" })?;\n    Ok(())\n}\n'
    )
    graph = graph_of(
        {
            "crates/catalog/src/error.rs": ERRORS,
            "crates/catalog/src/catalog.rs": CATALOG,
            "crates/table/src/error.rs": ERRORS,
            "crates/table/src/open.rs": other,
        },
        tmp_path,
    )

    assert built(graph, "Table not found", path="crates/table/src/error.rs") == (
        "Error::TableNotFound",
        [("open", 3)],
    )
    assert built(graph, "Table not found", path="crates/catalog/src/error.rs") == (
        "Error::TableNotFound",
        [("schemas", 7)],
    )


def test_an_extracted_snafu_record_names_its_attribute_and_where_its_selector_is_written(
    tmp_path: Path,
) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "catalog"\n\n[dependencies]\nsnafu = "0.8"\n',
        "src/lib.rs": "pub mod catalog;\npub mod error;\n",
        "src/error.rs": ERRORS,
        "src/catalog.rs": CATALOG,
    }
    _, record = committed_and_extracted(files, "o/catalog", tmp_path, "Table not found")

    assert record["messagePattern"] == "Table not found: (.+?)"
    assert record["documentation"].startswith(
        "`Error::TableNotFound` is a variant of the error type `Error`; its message "
        '(`#[snafu(display(..))]`) reads "Table not found: {table}".'
    )
    assert "`schemas`" in record["triggerScenarios"], record["triggerScenarios"]
