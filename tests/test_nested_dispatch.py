"""A statement dispatch reached from another's arm over the same enum is no statement a user
gives: risingwave's `do_handle_explain` matches the statement an `EXPLAIN` wraps (reached from
`handle`'s `Statement::Explain` arm), and its `Statement::CreateSink` arm was the best way in
for 333 records (a hop shorter than `handle`'s own `CreateSink` arm, which a user runs). Such
an arm ranks after the dispatch's own; it is kept when nothing else reaches the site, named
with the outer arm that reaches it when one does."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of, paths_of

SOURCE = """\
pub enum Statement {
    Explain { statement: Box<Statement> },
    CreateSink,
    FetchCursor,
    CreateTable,
    Delete,
}
pub fn handle(stmt: Statement) -> anyhow::Result<()> {
    match stmt {
        Statement::Explain { statement } => handle_explain(*statement),
        Statement::CreateSink => handle_create_sink(),
        Statement::CreateTable => handle_create_table(),
        _ => Ok(()),
    }
}
fn handle_create_table() -> anyhow::Result<()> {
    bind(Statement::Delete)
}
fn bind(stmt: Statement) -> anyhow::Result<()> {
    match stmt {
        Statement::Delete => bind_delete(),
        _ => Ok(()),
    }
}
fn bind_delete() -> anyhow::Result<()> {
    anyhow::bail!("delete error")
}
fn handle_explain(stmt: Statement) -> anyhow::Result<()> {
    do_handle_explain(stmt)
}
fn do_handle_explain(stmt: Statement) -> anyhow::Result<()> {
    match stmt {
        Statement::CreateSink => gen_sink_plan(),
        Statement::FetchCursor => fetch_plan(),
        _ => Ok(()),
    }
}
fn handle_create_sink() -> anyhow::Result<()> {
    gen_sink_plan()
}
fn gen_sink_plan() -> anyhow::Result<()> {
    anyhow::bail!("sink error")
}
fn fetch_plan() -> anyhow::Result<()> {
    anyhow::bail!("fetch error")
}
"""


def test_a_dispatch_nested_in_another_s_arm_ranks_after_the_outer_one(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "fe"\n', "src/lib.rs": SOURCE})
    best = paths_of(graph, "gen_sink_plan")[0]
    assert best[:2] == ("statement", "statement `Statement::CreateSink`")
    assert [hop[0] for hop in best[2]] == ["handle", "handle_create_sink", "gen_sink_plan"]
    # reached only through the nested dispatch: that arm is still the way in, named with
    # the one arm above it that reaches it (the statement the user gives)
    only = paths_of(graph, "fetch_plan")[0]
    assert only[:2] == (
        "statement",
        "statement `Statement::FetchCursor` inside `Statement::Explain`",
    )
    assert [hop[0] for hop in only[2]] == ["do_handle_explain", "fetch_plan"]


def test_an_arm_above_that_wraps_no_statement_nests_nothing(tmp_path: Path) -> None:
    # `CreateTable` holds no statement: `bind`'s dispatch is its own, not one inside it
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "fe"\n', "src/lib.rs": SOURCE})
    best = paths_of(graph, "bind_delete")[0]
    assert best[:2] == ("statement", "statement `Statement::Delete`")
    assert [hop[0] for hop in best[2]] == ["bind", "bind_delete"]
