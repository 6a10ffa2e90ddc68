"""A `.context(..)` on a parse of text (reading 132, pixi): the parse is what failed, and the
error type is the one the fn's `Result` names (`miette::Result`: a `miette::Report`)."""

from __future__ import annotations

import pytest
from site_fixtures import explained

from pipeline.languages.rust.sites import find_sites
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
