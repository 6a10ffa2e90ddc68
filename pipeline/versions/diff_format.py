"""Renderings of a `DatasetDiff`: text (git-like), JSON (stable keys) and Markdown.

Record text is hostile: the text form escapes control and format characters (no
terminal escapes, no bidi overrides), the Markdown form puts every record value
in a code span or a fenced block sized to outrun the backticks it contains.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from pipeline.core.model import Record
from pipeline.versions.diff import DatasetDiff, FieldChange, Pair, Side

FORMATS = ("text", "json", "markdown")
_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def clean(text: str) -> str:
    """Escape control and format characters so that text is inert on a terminal."""
    return "".join(
        f"\\u{ord(c):04x}"
        if c != "\t" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")
        else c
        for c in text
    )


def _lines(value: Any) -> list[str]:
    if value is None:
        return ["null"]
    if isinstance(value, list):
        return [clean(str(item)) for item in value]
    return [clean(line) for line in str(value).split("\n")]


def field_diff(change: FieldChange, old: Record, new: Record) -> list[str]:
    """A readable before/after of one field: `-`/`+` lines, or a unified diff if long."""
    before, after = _lines(change.before), _lines(change.after)
    if len(before) == 1 and len(after) == 1:
        return [f"-{before[0]}", f"+{after[0]}"]
    out = []
    for line in list(difflib.unified_diff(before, after, lineterm="", n=2))[2:]:
        hunk = _HUNK.match(line)
        if hunk and change.name == "sourceCode":
            # Number the hunks by file line, not by line of the window.
            a = int(hunk[1]) + old.sourceCodeStart - 1
            b = int(hunk[3]) + new.sourceCodeStart - 1
            line = f"@@ -{a}{hunk[2] or ''} +{b}{hunk[4] or ''} @@"
        out.append(line)
    return out


def _where(record: Record) -> str:
    return f"{record.filePath}:{record.lineNumber}"


def _describe(side: Side) -> str:
    version = side.dataset_version if side.dataset_version != side.label else None
    extra = [x for x in (side.sha and side.sha[:12], version) if x]
    return clean(side.label) + (f" ({', '.join(extra)})" if extra else "")


def _counts(diff: DatasetDiff) -> str:
    s = diff.summary
    shifted = len(diff.shifted)
    return (
        f"{s.added} added, {s.removed} removed, {s.moved} moved, {s.changed} changed, "
        f"{s.unchanged} unchanged ({shifted} of them only shifted lines)"
    )


def format_text(diff: DatasetDiff, old: Side, new: Side) -> str:
    """Git-like text for a terminal."""
    out = [f"--- old {_describe(old)}", f"+++ new {_describe(new)}", _counts(diff)]

    def section(title: str, count: int) -> None:
        if count:
            out.extend(["", f"{title} ({count})"])

    section("added", len(diff.added))
    out += [f"+ {r.id}  {clean(_where(r))}  {clean(r.errorMessage)}" for r in diff.added]
    section("removed", len(diff.removed))
    out += [f"- {r.id}  {clean(_where(r))}  {clean(r.errorMessage)}" for r in diff.removed]
    section("moved", len(diff.moved))
    for p in diff.moved:
        out.append(f"> {p.old.id} -> {p.new.id}  {clean(_where(p.old))} -> {clean(_where(p.new))}")
        out.append(f"    {clean(p.new.errorMessage)}")
        out += _text_fields(p)
    section("changed", len(diff.changed))
    for p in diff.changed:
        ids = p.new.id if p.old.id == p.new.id else f"{p.old.id} -> {p.new.id}"
        out.append(f"~ {ids}  {clean(_where(p.new))}  {clean(p.new.errorMessage)}")
        out += _text_fields(p)
    return "\n".join(out) + "\n"


def _text_fields(pair: Pair) -> list[str]:
    out = []
    for change in pair.fields:
        out.append(f"    {change.name}")
        out += [f"      {line}" for line in field_diff(change, pair.old, pair.new)]
    return out


def _brief(record: Record) -> dict[str, Any]:
    return {
        "id": record.id,
        "filePath": record.filePath,
        "lineNumber": record.lineNumber,
        "message": record.errorMessage,
    }


def _fields(pair: Pair) -> dict[str, Any]:
    return {c.name: {"before": c.before, "after": c.after} for c in pair.fields}


def to_json(diff: DatasetDiff, old: Side, new: Side) -> dict[str, Any]:
    """The JSON document, keys in a stable order (SPEC 7)."""

    def side(s: Side) -> dict[str, Any]:
        return {"label": s.label, "sha": s.sha, "datasetVersion": s.dataset_version}

    def at(r: Record) -> dict[str, Any]:
        return {"filePath": r.filePath, "lineNumber": r.lineNumber}

    s = diff.summary
    return {
        "old": side(old),
        "new": side(new),
        "summary": {
            "added": s.added,
            "removed": s.removed,
            "moved": s.moved,
            "changed": s.changed,
            "unchanged": s.unchanged,
        },
        "added": [_brief(r) for r in diff.added],
        "removed": [_brief(r) for r in diff.removed],
        "moved": [
            {
                "id": p.new.id,
                "oldId": p.old.id,
                "message": p.new.errorMessage,
                "from": at(p.old),
                "to": at(p.new),
                "fields": _fields(p),
            }
            for p in diff.moved
        ],
        "changed": [
            {"id": p.new.id, "oldId": p.old.id, **_brief(p.new), "fields": _fields(p)}
            for p in diff.changed
        ],
        "unchanged": sorted(p.new.id for p in diff.unchanged),
        "shifted": sorted(p.new.id for p in diff.shifted),
    }


def format_json(diff: DatasetDiff, old: Side, new: Side) -> str:
    """Indented JSON with a trailing newline."""
    return json.dumps(to_json(diff, old, new), indent=2, ensure_ascii=False) + "\n"


def code(text: str, in_table: bool = False) -> str:
    """A Markdown code span holding `text` literally (pipes escaped inside tables)."""
    text = clean(text.replace("\n", "\\n"))
    if not text:
        return "(empty)"
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text[0] == "`" or text[-1] == "`" or (text[0] == text[-1] == " ") else ""
    span = f"{ticks}{pad}{text}{pad}{ticks}"
    return span.replace("|", "\\|") if in_table else span


def fenced(lines: list[str], lang: str) -> list[str]:
    """A fenced block longer than any backtick run in its lines."""
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + lang, *lines, fence]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def format_markdown(diff: DatasetDiff, old: Side, new: Side) -> str:
    """Markdown for a pull-request comment or release notes."""
    s = diff.summary
    out = [f"## Dataset diff: {code(old.label)} → {code(new.label)}", ""]
    out += _table(
        ["", "old", "new"],
        [
            ["dataset", code(old.label, True), code(new.label, True)],
            ["commit", code(old.sha or "", True), code(new.sha or "", True)],
            [
                "datasetVersion",
                code(old.dataset_version or "", True),
                code(new.dataset_version or "", True),
            ],
        ],
    )
    out += [""]
    out += _table(
        ["added", "removed", "moved", "changed", "unchanged", "of which shifted"],
        [
            [str(n) for n in (s.added, s.removed, s.moved, s.changed, s.unchanged)]
            + [str(len(diff.shifted))]
        ],
    )
    listed: list[tuple[str, tuple[Record, ...]]] = [
        ("Added", diff.added),
        ("Removed", diff.removed),
    ]
    for title, records in listed:
        if records:
            out += ["", f"### {title} ({len(records)})", ""]
            out += _table(
                ["id", "where", "message"],
                [
                    [code(r.id, True), code(_where(r), True), code(r.errorMessage, True)]
                    for r in records
                ],
            )
    if diff.moved:
        out += ["", f"### Moved ({len(diff.moved)})", ""]
        out += _table(
            ["id", "from", "to", "message", "also changed"],
            [
                [
                    code(f"{p.old.id} → {p.new.id}", True),
                    code(_where(p.old), True),
                    code(_where(p.new), True),
                    code(p.new.errorMessage, True),
                    ", ".join(c.name for c in p.fields) or "—",
                ]
                for p in diff.moved
            ],
        )
    if diff.changed:
        out += ["", f"### Changed ({len(diff.changed)})"]
    for p in diff.changed:
        ids = p.new.id if p.old.id == p.new.id else f"{p.old.id} → {p.new.id}"
        out += ["", f"#### {code(ids)} at {code(_where(p.new))}", "", code(p.new.errorMessage)]
        for change in p.fields:
            out += ["", f"**{change.name}**", ""]
            out += fenced(field_diff(change, p.old, p.new), "diff")
    return "\n".join(out) + "\n"


RENDERERS: dict[str, Callable[[DatasetDiff, Side, Side], str]] = {
    "text": format_text,
    "json": format_json,
    "markdown": format_markdown,
}
