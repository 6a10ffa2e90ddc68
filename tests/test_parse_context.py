"""A `.context(..)` on a parse of text (reading 132, pixi): the parse is what failed, and the
error type is the one the fn's `Result` names (`miette::Result`: a `miette::Report`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo
from regen_fixtures import cli
from site_fixtures import explained

from pipeline.languages.rust.sites import find_sites, own_error_macros
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

PIXI = """
use miette::{Context, IntoDiagnostic};

fn lock(url: &str) -> miette::Result<Url> {
    let direct = Url::parse(&format!("direct+{url}"))
        .into_diagnostic()
        .context("cannot create direct url")?;
    Ok(direct)
}
"""


def test_a_miette_result_makes_a_miette_report() -> None:
    scan = find_sites("src/lock.rs", PIXI.encode())
    (context,) = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/lock.rs": scan}))
    assert context.error_class == "miette::Report"
    solutions = " ".join(explained(PIXI).solutions)
    assert "miette's report" in solutions
    assert "anyhow" not in solutions


@pytest.mark.parametrize(
    "receiver",
    [
        'Url::parse(&format!("direct+{url}")).into_diagnostic()',
        "url.parse::<Url>()",
        "serde_json::from_str(url).map_err(|e| e.to_string())",
    ],
)
def test_a_failed_parse_is_a_parse_error_whatever_step_the_message_names(receiver: str) -> None:
    source = f'fn f(url: &str) -> anyhow::Result<()> {{\n    let u = {receiver}.context("cannot create direct url")?;\n    Ok(())\n}}\n'
    assert explained(source).backgroundTag == "parse-error"


@pytest.mark.parametrize(
    ("receiver", "tag"),
    [
        ("std::fs::create_dir_all(p)", "io-error"),
        # qdrant's: a name that holds "parse" is no parse
        ("self.storage.get_sparse::<Random>(p)", "operation-failed"),
        # openssl's `BigNum::from_slice` reads bytes, no text
        ("openssl::bn::BigNum::from_slice(p)", "operation-failed"),
    ],
)
def test_a_step_that_is_no_parse_keeps_the_class_of_its_words(receiver: str, tag: str) -> None:
    source = f'fn f(p: &[u8]) -> anyhow::Result<()> {{\n    {receiver}.context("failed to create the value")?;\n    Ok(())\n}}\n'
    assert explained(source).backgroundTag == tag


OWN_BAIL = """\
use risingwave_common::bail;
use risingwave_expr::{Result, build_function};

fn build_lookup(children: Vec<Expr>) -> Result<Expr> {
    if children.is_empty() {
        bail!("children must not be empty");
    }
    Ok(children[0])
}
"""

ANYHOW_BAIL = OWN_BAIL.replace("use risingwave_common::bail;", "use anyhow::bail;")
# risingwave's batch executors: `ensure!` in scope by `#[macro_use] extern crate
# risingwave_common;`, no `use` of it, in a fn returning another crate's `Result<T>` alias
# (`BatchError`): anyhow's would not compile there (reading 305: 2 F)
MACRO_USE_BAIL = OWN_BAIL.replace("use risingwave_common::bail;\n", "") + (
    "#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"  # a test module's glob brings in none
)
# .. but a glob may bring anyhow's in (zellij's `use zellij_utils::errors::prelude::*`)
GLOB_BAIL = OWN_BAIL.replace("use risingwave_common::bail;", "use utils::errors::prelude::*;")
# .. and `anyhow::bail!` is anyhow's by its path, whatever `Result` the fn returns (mdBook's
# examples: `use mdbook_preprocessor::errors::Result;` .. `anyhow::bail!("Boom!!1!")`, 309)
PATH_BAIL = MACRO_USE_BAIL.replace('        bail!("children', '        anyhow::bail!("children')


@pytest.mark.parametrize(
    ("source", "expected"),
    [(OWN_BAIL, None), (ANYHOW_BAIL, "anyhow::Error"), (MACRO_USE_BAIL, None),
     (GLOB_BAIL, "anyhow::Error"), (PATH_BAIL, "anyhow::Error")],
)  # fmt: skip
def test_a_bail_the_repository_imports_from_its_own_crate_is_not_anyhows(
    tmp_path: Path, source: str, expected: str | None
) -> None:
    """risingwave's `use risingwave_common::bail;` returns `Err(anyhow!(..).into())`, the
    fn's error type (`ExprError` through `risingwave_expr::Result`, which the scan cannot
    see): not `anyhow::Error`, whose `e.chain()` does not compile on it (reading 146)."""
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({"src/expr/case.rs": source})
    out = tmp_path / "out"
    done = cli("extract", "--repo", "o/r", "--sha", sha, "--source", repo.path, "--out", out,
               "--cache", tmp_path / "cache", "--jobs", "1")  # fmt: skip
    assert done.exit_code == 0, done.output
    (record,) = [json.loads(line) for line in (out / "o/r/records.jsonl").read_text().splitlines()]
    assert record["errorClass"] == expected
    assert ("e.chain()" in (record["tryCatchPattern"] or "")) == (expected is not None)


def test_only_use_declarations_say_where_a_macro_comes_from() -> None:
    """A comment's "use that as the root. .. Ok(..);" ran on to cargo's `use anyhow::{..,
    bail}` and took it for the repository's own (82 of cargo's records, caught by reading
    the run's changes)."""
    source = (
        b"use risingwave_common::bail;\n"
        b"pub(crate) use crate::{\n    ensure,\n    other,\n};\n"
        b"    // Otherwise use that as the root. `Ok(x.bail())`;\n"
        b"use anyhow::{Context as _, anyhow, bail};\n"
        b"use color_eyre::eyre::ensure;\n"
    )
    assert own_error_macros(source) == ("bail", "ensure")
    assert own_error_macros(b"// use the root: anyhow!(..);\nuse anyhow::anyhow;\n") == ()
