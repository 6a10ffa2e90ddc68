"""Renderings of a `DatasetDiff`: text (git-like) and JSON (stable keys); Markdown in `diff_markdown`.

Record text is hostile: the text form escapes control and format characters (no
terminal escapes, no bidi overrides), the Markdown form puts every record value
in a code span or a fenced block sized to outrun the backticks it contains.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from typing import Any

from pipeline.core.model import Record
from pipeline.versions.diff import DatasetDiff, FieldChange, Pair, Side
from pipeline.versions.diff_view import (
    DEFAULT_VIEW,
    View,
    changed_lists,
    commit_range,
    folded_line,
    repository,
    shown_fields,
)

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


def where(record: Record) -> str:
    """`path:line` of a record."""
    return _where(record)


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


def title(old: Side, new: Side) -> str:
    """`errdoc diff owner/name old..new`: what was compared, in one line (cleaned)."""
    repo = repository(old, new)
    return clean(f"errdoc diff {repo + ' ' if repo else ''}{commit_range(old, new)}")


def format_text(diff: DatasetDiff, old: Side, new: Side, view: View = DEFAULT_VIEW) -> str:
    """Git-like text for a terminal."""
    out = [title(old, new), f"--- old {_describe(old)}", f"+++ new {_describe(new)}"]
    out.append(_counts(diff))
    if view.summary_only:
        return "\n".join(out) + "\n"
    listed, folded = changed_lists(diff, view)

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
    section("changed", len(listed))
    for p in listed:
        ids = p.new.id if p.old.id == p.new.id else f"{p.old.id} -> {p.new.id}"
        out.append(f"~ {ids}  {clean(_where(p.new))}  {clean(p.new.errorMessage)}")
        out += _text_fields(p)
    if folded:
        out += ["", folded_line(len(folded), view)]
    return "\n".join(out) + "\n"


def _text_fields(pair: Pair) -> list[str]:
    out = []
    shown, folded = shown_fields(pair)
    for change in shown:
        out.append(f"    {change.name}")
        out += [f"      {line}" for line in field_diff(change, pair.old, pair.new)]
    if folded:
        out.append(f"    (reworded with the message: {', '.join(folded)})")
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


def to_json(diff: DatasetDiff, old: Side, new: Side, view: View = DEFAULT_VIEW) -> dict[str, Any]:
    """The JSON document, keys in a stable order (SPEC 7); every change, nothing folded."""

    def side(s: Side) -> dict[str, Any]:
        return {"label": s.label, "sha": s.sha, "datasetVersion": s.dataset_version}

    def at(r: Record) -> dict[str, Any]:
        return {"filePath": r.filePath, "lineNumber": r.lineNumber}

    s = diff.summary
    head = {
        "repo": repository(old, new),
        "old": side(old),
        "new": side(new),
        "summary": {
            "added": s.added,
            "removed": s.removed,
            "moved": s.moved,
            "changed": s.changed,
            "unchanged": s.unchanged,
        },
    }
    if view.summary_only:
        return head
    return {
        **head,
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


def format_json(diff: DatasetDiff, old: Side, new: Side, view: View = DEFAULT_VIEW) -> str:
    """Indented JSON with a trailing newline."""
    return json.dumps(to_json(diff, old, new, view), indent=2, ensure_ascii=False) + "\n"


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
