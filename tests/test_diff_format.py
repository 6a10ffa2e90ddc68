"""The three renderings of a diff: golden files, and hostile text kept inert."""

from __future__ import annotations

import json
import os

import pytest
from diff_fixtures import GOLDEN, NEW_SHA, OLD_SHA, V1, V2, fixture_pair, seed, shifted, variant

from pipeline.versions.diff import Side, diff_records
from pipeline.versions.diff_cli import RENDERERS
from pipeline.versions.diff_format import clean, code, fenced, format_text
from pipeline.versions.diff_markdown import format_markdown

SUFFIX = {"text": "txt", "json": "json", "markdown": "md"}


def _sides() -> tuple[Side, Side]:
    old, new = fixture_pair()
    return Side(V1, tuple(old), OLD_SHA, V1), Side(V2, tuple(new), NEW_SHA, V2)


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_golden(fmt: str) -> None:
    old, new = _sides()
    rendered = RENDERERS[fmt](diff_records(old.records, new.records), old, new)
    golden = GOLDEN / f"fixture.{SUFFIX[fmt]}"
    if os.environ.get("ERRDOC_UPDATE_GOLDEN"):
        golden.write_text(rendered, encoding="utf-8")
        pytest.fail("golden file rewritten; re-run without ERRDOC_UPDATE_GOLDEN")
    assert rendered == golden.read_text(encoding="utf-8")


def test_json_has_the_spec_shape() -> None:
    old, new = _sides()
    doc = json.loads(RENDERERS["json"](diff_records(old.records, new.records), old, new))
    assert list(doc) == [
        "repo", "old", "new", "summary", "added", "removed", "moved", "changed", "unchanged", "shifted",
    ]  # fmt: skip
    assert doc["summary"] == {"added": 1, "removed": 1, "moved": 1, "changed": 2, "unchanged": 2}
    assert doc["old"] == {"label": V1, "sha": OLD_SHA, "datasetVersion": V1}
    assert doc["repo"] == "risingwavelabs/risingwave"
    assert sum(doc["summary"][k] for k in ("added", "moved", "changed", "unchanged")) == 6
    (edited,) = [c for c in doc["changed"] if c["id"] != c["oldId"]]
    assert edited["fields"]["errorMessage"] == {
        "before": "cannot pause {job_id}",
        "after": "cannot pause while snapshot backfill job {job_id} runs",
    }
    assert doc["shifted"] == [seed("002").id]


def test_source_hunks_are_numbered_by_file_line() -> None:
    old, new = _sides()
    text = format_text(diff_records(old.records, new.records), old, new)
    # The edit sits at line 966 of stream_manager.rs: 2 lines of context above it.
    assert "@@ -964,5 +964,5 @@" in text


@pytest.mark.parametrize(
    ("raw", "span"),
    [
        ("plain {job_id}", "`plain {job_id}`"),
        ("a | b", "`a \\| b`"),
        ("uses `x` here", "``uses `x` here``"),
        ("`edge`", "`` `edge` ``"),
        ("two ``ticks``", "``` two ``ticks`` ```"),
        ("line\nbreak", "`line\\nbreak`"),
        ("bell\x07 and \x1b[31mred", "`bell\\u0007 and \\u001b[31mred`"),
        ("rtl \u202e override", "`rtl \\u202e override`"),
        ("", "(empty)"),
    ],
)
def test_markdown_code_spans_hold_text_literally(raw: str, span: str) -> None:
    assert code(raw, in_table=True) == span


def test_fences_outrun_backticks_in_the_block() -> None:
    block = fenced(["x", "```", "````rust"], "diff")
    assert block[0] == "`````diff" and block[-1] == "`````"


def test_text_output_escapes_terminal_control() -> None:
    a = seed("002")
    hostile = variant(a, errorMessage="boom \x1b[2J\x1b]0;owned\x07 {job_id}")
    old = Side("old", (a,))
    new = Side("new", (shifted(a, 1), hostile))
    text = format_text(diff_records(old.records, new.records), old, new)
    assert "\x1b" not in text and "\x07" not in text
    assert "boom \\u001b[2J" in text
    assert clean("tab\tkept") == "tab\tkept"


def test_markdown_table_rows_stay_rows() -> None:
    a = seed("002")
    hostile = variant(a, errorMessage="x | y\n| forged | row |\n<img src=x onerror=alert(1)>")
    old, new = Side("old", ()), Side("new", (hostile,))
    md = format_markdown(diff_records(old.records, new.records), old, new)
    (row,) = [line for line in md.splitlines() if line.startswith(f"| `{hostile.id}`")]
    assert row.count(" | ") == 2  # three cells: nothing in the message split a cell
    assert "\n| forged" not in md
    assert "`x \\| y\\n\\| forged \\| row \\|\\n<img src=x onerror=alert(1)>`" in row
