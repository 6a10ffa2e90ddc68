"""A way in whose own attributes tell users not to take it (`#[deprecated]`, `#[doc(hidden)]`)
comes after the others of its kind: sqlx's deprecated `Query::fetch_many` led five records'
paths before the `fetch` every user calls, and its `#[doc(hidden)]` `Describe::try_into_any`
another's (reading 308)."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of, line_of_text

from pipeline.languages.rust.index import index_file
from pipeline.scan.callerpaths import site_reach

LIB = """\
pub struct Query;

impl Query {
    #[deprecated = "use `fetch` instead"]
    pub fn fetch_many(&self) -> anyhow::Result<u8> {
        self.run()
    }

    #[doc(hidden)]
    pub fn describe(&self) -> anyhow::Result<u8> {
        self.run()
    }

    pub fn fetch(&self) -> anyhow::Result<u8> {
        self.run()
    }

    fn run(&self) -> anyhow::Result<u8> {
        anyhow::bail!("the server closed the connection")
    }
}
"""
FILES = {"Cargo.toml": '[package]\nname = "db"\n', "src/lib.rs": LIB}


def test_the_index_keeps_a_fn_s_deprecated_and_doc_hidden_attributes() -> None:
    kept = {d.name: d.attrs for d in index_file("src/lib.rs", LIB.encode()).definitions}
    assert kept["fetch_many"] == ('deprecated = "use `fetch` instead"',)
    assert kept["describe"] == ("doc(hidden)",)
    assert kept["fetch"] == ()


def test_a_deprecated_or_hidden_way_in_comes_after_the_others(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    reach = site_reach(graph, "src/lib.rs", line_of_text(LIB, "closed the connection"))
    assert reach is not None
    assert [p.hops[0].name for p in reach.paths] == [
        "Query::fetch",
        "Query::fetch_many",
        "Query::describe",
    ]
