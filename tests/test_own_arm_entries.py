"""A site in an arm of its own fn's statement or subcommand dispatch is reached from that
statement or subcommand: risingwave's `handle` bails in its `Statement::AlterView` arm ("SET
CONFIG is only supported for materialized views"), and the record named only the callers of
`handle` (reading 202). Only calls in an arm had made an entry point."""

from __future__ import annotations

from pathlib import Path

from test_ruled_out_callers import reaches_by_message

SOURCE = """\
pub enum Statement {
    AlterView { materialized: bool },
    Explain(Box<Statement>),
    Query,
}

pub fn serve(sql: &str) -> anyhow::Result<()> {
    helper(sql.len() as u32)?;
    handle(parse(sql))
}

fn parse(sql: &str) -> Statement {
    Statement::Query
}

fn handle(stmt: Statement) -> anyhow::Result<()> {
    match stmt {
        Statement::AlterView { materialized } => {
            if !materialized {
                anyhow::bail!("SET CONFIG is only supported for materialized views");
            }
            Ok(())
        }
        Statement::Explain(inner) => explain(*inner),
        Statement::Query => run_query(),
    }
}

fn explain(stmt: Statement) -> anyhow::Result<()> {
    match stmt {
        Statement::AlterView { .. } => anyhow::bail!("cannot explain an ALTER VIEW"),
        _ => Ok(()),
    }
}

fn run_query() -> anyhow::Result<()> {
    anyhow::bail!("query failed")
}

fn helper(n: u32) -> anyhow::Result<()> {
    anyhow::ensure!(n > 0, "helper needs a positive number");
    Ok(())
}
"""


def paths(tmp_path: Path) -> dict[str, list[tuple[str | None, list[str]]]]:
    return {
        message: [(p.entry_label, [h.name for h in p.hops]) for p in reach.paths]
        for message, reach in reaches_by_message(tmp_path, SOURCE).items()
    }


def test_a_site_in_a_statement_arm_of_its_own_fn_is_reached_from_that_statement(
    tmp_path: Path,
) -> None:
    found = paths(tmp_path)

    assert found["SET CONFIG is only supported for materialized views"][0] == (
        "statement `Statement::AlterView`",
        ["handle"],
    )
    # a call in an arm, as before
    assert found["query failed"][0] == ("statement `Statement::Query`", ["handle", "run_query"])
    # a dispatch nested in another's arm over the same enum says the outer statement
    assert found["cannot explain an ALTER VIEW"][0] == (
        "statement `Statement::AlterView` inside `Statement::Explain`",
        ["explain"],
    )
    # no arm: the callers alone
    assert not any(
        (label or "").startswith("statement")
        for label, _ in found["helper needs a positive number"]
    )
    assert found["helper needs a positive number"] == [("public API `serve`", ["serve", "helper"])]
