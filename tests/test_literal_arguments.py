"""A check on a parameter whose one caller passes a literal leaves no value to pass: cargo's
`prepare_context(.., error_if_no_units: bool)` is called once, by `report_timings` with
`true`, and read "pass values the check accepts" (reading 149)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_reach import graph_of

from pipeline.analyze.static import explain_apart, with_reach
from pipeline.core.reach import handoff_text
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import reaches_of, spec_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan


def source(visibility: str, argument: str) -> str:
    return (
        "pub fn report_timings(log: &Log) -> anyhow::Result<()> {\n"
        f"    prepare_context(log, {argument})\n"
        "}\n"
        f"{visibility}fn prepare_context(log: &Log, error_if_no_units: bool) -> anyhow::Result<()> {{\n"
        "    if error_if_no_units && log.units.is_empty() {\n"
        '        anyhow::bail!("no timing data found in log");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    )


def solutions_with_reach(tmp_path: Path, text: str) -> list[str]:
    """The solutions of `text`'s one site, with its reach in a package of that one file."""
    files = {"Cargo.toml": '[package]\nname = "tool"\n', "src/lib.rs": text}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", text.encode())
    (context,) = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    reach = reaches_of([spec_of(context)], graph)[context.record_id]
    return with_reach(explain_apart(context), reach, "ab" * 20, context.site).solutions


@pytest.mark.parametrize(
    ("visibility", "argument", "literal"),
    [
        ("pub(crate) ", "true", True),
        ("pub(crate) ", "log.strict", False),  # a value the caller computes
        ("pub ", "true", False),  # code outside the crate may pass another
    ],
)
def test_a_parameter_its_one_caller_passes_as_a_literal_is_no_value_to_change(
    tmp_path: Path, visibility: str, argument: str, literal: bool
) -> None:
    text = source(visibility, argument)

    solutions = solutions_with_reach(tmp_path, text)

    said = (
        "The check depends on what is passed to `prepare_context` (`log`): the values its "
        "caller passes decide it, and where they come from (an input, a setting, or the "
        "program's own state) is what to change. Its one caller passes a literal for `error_if_no_units` "
        "(`report_timings` passes `true` (src/lib.rs:2)): no value to change there."
    )
    assert (said in solutions) == literal
    # else both are values to follow: up to the callers of a crate-only fn, or to pass
    assert any("(`log`, `error_if_no_units`)" in s for s in solutions) != literal


def test_a_check_that_reads_only_a_literal_s_parameter_says_the_rest_decides(
    tmp_path: Path,
) -> None:
    text = source("pub(crate) ", "true").replace("log.units.is_empty()", "units().is_empty()")

    solutions = solutions_with_reach(tmp_path, text)

    assert solutions[0] == (
        "The check reads what the one caller of `prepare_context` passes, a literal "
        "(`report_timings` passes `true` (src/lib.rs:2)): no value of a caller's to change; "
        "the rest of the check decides."
    )


def test_a_caller_that_passes_a_literal_at_one_call_of_several_passes_no_literal(
    tmp_path: Path,
) -> None:
    """nushell's `read_ext` calls `make_date(seconds as i64, 0)` once and `make_date(secs,
    nanos)` twice; the record said "Its one caller passes a literal for `nanos`", citing the
    one call that cannot fail (reading 182). The handoff says the other calls."""
    text = source("pub(crate) ", "true").replace(
        "    prepare_context(log, true)\n",
        "    prepare_context(log, true)?;\n    prepare_context(log, log.strict)\n",
    )

    solutions = solutions_with_reach(tmp_path, text)

    assert not any("a literal" in s for s in solutions)
    assert any("(`log`, `error_if_no_units`)" in s for s in solutions)
    files = {"Cargo.toml": '[package]\nname = "tool"\n', "src/lib.rs": text}
    scan = find_sites("src/lib.rs", text.encode())
    (context,) = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    reach = reaches_of([spec_of(context)], graph_of(tmp_path / "g", files))[context.record_id]
    assert reach is not None
    (handoff,) = next(d for d in reach.dependencies if d.name == "error_if_no_units").passed
    assert handoff_text(handoff) == (
        "`report_timings` passes `true` (src/lib.rs:2) and something else at 1 other call"
    )
