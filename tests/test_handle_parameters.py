"""A parameter named as a handle (`pool`, `conn`, `ctx`, `client`, `working_set`) is what the
code works through, not a value its caller chose: "pass another `pool`" and "values the check
accepts (`working_set`)" were no advice (lemmy, nushell, sccache: readings 162, 170)."""

from __future__ import annotations

import pytest
from site_fixtures import explained

from pipeline.analyze.static_code import is_handle


@pytest.mark.parametrize(
    ("name", "handle"),
    [
        ("pool", True), ("db_conn", True), ("ctx", True), ("s3_client", True),
        ("working_set", True), ("gctx", True), ("_txn", True),
        ("context", False), ("state", False), ("name", False), ("pool_size", False),
    ],
)  # fmt: skip
def test_a_handle_is_told_by_its_name(name: str, handle: bool) -> None:
    assert is_handle(name) == handle


def test_a_check_on_a_handle_and_a_value_names_the_value_alone() -> None:
    source = (
        "pub fn register(pool: &Pool, name: &str) -> anyhow::Result<()> {\n"
        "    if pool.is_closed() || name.is_empty() {\n"
        '        anyhow::bail!("cannot register {}", name);\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )

    solutions = explained(source).solutions

    assert any("(`name`): the values its caller passes decide it" in s for s in solutions)
    assert not any("`pool`" in s for s in solutions)
