"""Diffs for people: window-only changes folded, message echoes folded, Markdown cut to size."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from diff_fixtures import GOLDEN, NEW_SHA, OLD_SHA, V1, V2, edit_line, fixture_pair, seed, variant

from pipeline.core.model import Record
from pipeline.versions.diff import Side, diff_records
from pipeline.versions.diff_cli import diff_command
from pipeline.versions.diff_format import format_text
from pipeline.versions.diff_markdown import format_markdown
from pipeline.versions.diff_view import View, shown_fields

A, B = seed("002"), seed("004")


def window_edits(n: int) -> tuple[list[Record], list[Record]]:
    """`n` records, each with a line of its window edited and nothing else."""
    old = [variant(A, filePath=f"src/m/f{k:03}.rs") for k in range(n)]
    new = [
        variant(edit_line(r, -12, f"    let edited_{k} = 1;"), id=r.id) for k, r in enumerate(old)
    ]
    return old, new


def sides(old: list[Record], new: list[Record]) -> tuple[Side, Side]:
    return Side(V1, tuple(old), OLD_SHA, V1), Side(V2, tuple(new), NEW_SHA, V2)


def test_window_only_changes_are_one_count_line_unless_context_is_asked() -> None:
    old, new = window_edits(3)
    fixture_old, fixture_new = fixture_pair()
    o, n = sides(old + fixture_old, new + fixture_new)
    diff = diff_records(o.records, n.records)
    assert diff.summary.changed == 5

    text = format_text(diff, o, n)
    assert "3 changed only in the source lines around their site (--context lists them)" in text
    assert "edited_" not in text and "changed (2)" in text
    md = format_markdown(diff, o, n)
    assert "3 changed only in the source lines around their site" in md and "edited_" not in md

    listed = format_text(diff, o, n, View(context=True))
    assert "changed (5)" in listed and all(f"edited_{k}" in listed for k in range(3))
    assert "only in the source lines" not in listed


def test_a_reworded_message_shows_once_with_its_echoes_named() -> None:
    old = variant(A, errorMessage="cannot pause {job_id}")
    new = variant(old, errorMessage="pause refused for {job_id}", id=old.id)
    new = variant(new, id=old.id, exampleFix=old.exampleFix.replace("x", "y") + " (edited)")
    (pair,) = diff_records([old], [new]).changed
    shown, folded = shown_fields(pair)
    assert [c.name for c in shown] == ["errorMessage", "exampleFix"]  # not an echo: kept
    assert folded == ("slug", "messagePattern", "sourceCode")
    o, n = sides([old], [new])
    text = format_text(diff_records([old], [new]), o, n)
    assert text.count("pause refused for {job_id}") == 2  # the entry line and the + line
    assert "(reworded with the message: slug, messagePattern, sourceCode)" in text


def test_the_header_names_the_repository_and_the_commit_range() -> None:
    o, n = sides(*fixture_pair())
    diff = diff_records(o.records, n.records)
    assert format_text(diff, o, n).splitlines()[0] == (
        f"errdoc diff risingwavelabs/risingwave {OLD_SHA[:12]}..{NEW_SHA[:12]}"
    )
    assert format_markdown(diff, o, n).startswith(
        f"## Dataset diff: `risingwavelabs/risingwave` `{OLD_SHA[:12]}..{NEW_SHA[:12]}`"
    )


@pytest.mark.parametrize("limit", [3_000, 10_000, 60_000])
def test_markdown_fits_max_chars_keeps_the_summary_and_says_what_it_cut(limit: int) -> None:
    old, new = window_edits(400)
    o, n = sides(old, new)
    diff = diff_records(o.records, n.records)
    whole = format_markdown(diff, o, n, View(context=True, max_chars=None))
    assert len(whole) > 60_000

    md = format_markdown(diff, o, n, View(context=True, max_chars=limit))
    assert len(md) <= limit
    assert "| 0 | 0 | 0 | 400 | 0 | 0 |" in md  # the counts stay
    shown = md.count("#### `")
    assert 0 < shown < 400
    assert f"**Cut to stay under {limit:,} characters:** {400 - shown} of changed (400)." in md
    assert md.count("<details>") == md.count("</details>") == 1


def test_golden_cut_markdown() -> None:
    extra_old, extra_new = window_edits(2)
    old, new = fixture_pair()
    o, n = sides(old + extra_old, new + extra_new)
    md = format_markdown(diff_records(o.records, n.records), o, n, View(max_chars=2_500))
    golden = GOLDEN / "fixture_cut.md"
    if os.environ.get("ERRDOC_UPDATE_GOLDEN"):
        golden.write_text(md, encoding="utf-8")
        pytest.fail("golden file rewritten; re-run without ERRDOC_UPDATE_GOLDEN")
    assert md == golden.read_text(encoding="utf-8")
    assert len(md) <= 2_500


def test_summary_and_context_through_the_cli(tmp_path: Path) -> None:
    old, new = window_edits(2)
    o = tmp_path / "old.jsonl"
    n = tmp_path / "new.jsonl"
    o.write_text("".join(r.model_dump_json() + "\n" for r in old))
    n.write_text("".join(r.model_dump_json() + "\n" for r in new))
    runner = CliRunner()

    brief = runner.invoke(diff_command, [str(o), str(n), "--summary"])
    assert brief.exit_code == 0, brief.output
    assert brief.output.splitlines()[-1].startswith("0 added, 0 removed, 0 moved, 2 changed")
    assert len(brief.output.splitlines()) == 4

    folded = runner.invoke(diff_command, [str(o), str(n)])
    assert "2 changed only in the source lines" in folded.output
    listed = runner.invoke(diff_command, [str(o), str(n), "--context"])
    assert "edited_0" in listed.output and "edited_1" in listed.output

    md = runner.invoke(diff_command, [str(o), str(n), "--format", "markdown", "--summary"])
    assert "<details>" not in md.output and "| 0 | 0 | 0 | 2 | 0 | 0 |" in md.output
    bad = runner.invoke(diff_command, [str(o), str(n), "--max-chars", "10"])
    assert bad.exit_code == 2 and "--max-chars" in bad.output
