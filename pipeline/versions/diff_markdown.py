"""A diff as Markdown for a pull request: the summary first, each list in a collapsed section.

The summary (what was compared, the counts) always stays; an entry that would
take the whole past `View.max_chars` (a GitHub comment holds 65,536 characters)
is cut, with the rest of its section, and a closing line says what was cut.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.core.model import Record
from pipeline.versions.diff import DatasetDiff, Pair, Side
from pipeline.versions.diff_format import code, fenced, field_diff, where
from pipeline.versions.diff_view import (
    DEFAULT_VIEW,
    View,
    changed_lists,
    commit_range,
    folded_line,
    repository,
    shown_fields,
)

# Room kept for the closing line that says what was cut.
_NOTE_ROOM = 400


@dataclass
class _Section:
    """One collapsed list: its title, the lines before its entries, its entries."""

    title: str
    prefix: list[str]
    entries: list[list[str]] = field(default_factory=list)


def _table_head(*header: str) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]


def _row(*cells: str) -> list[str]:
    return ["| " + " | ".join(cells) + " |"]


def _head(diff: DatasetDiff, old: Side, new: Side) -> list[str]:
    s = diff.summary
    repo = repository(old, new)
    name = f"{code(repo)} " if repo else ""
    out = [f"## Dataset diff: {name}{code(commit_range(old, new))}", ""]
    out += _table_head("", "old", "new")
    out += _row("dataset", code(old.label, True), code(new.label, True))
    out += _row("commit", code(old.sha or "", True), code(new.sha or "", True))
    out += _row(
        "datasetVersion",
        code(old.dataset_version or "", True),
        code(new.dataset_version or "", True),
    )
    out += [""]
    out += _table_head("added", "removed", "moved", "changed", "unchanged", "of which shifted")
    counts = (s.added, s.removed, s.moved, s.changed, s.unchanged, len(diff.shifted))
    return out + _row(*(str(n) for n in counts))


def _records(title: str, records: tuple[Record, ...]) -> _Section:
    section = _Section(title, _table_head("id", "where", "message"))
    for r in records:
        section.entries.append(
            _row(code(r.id, True), code(where(r), True), code(r.errorMessage, True))
        )
    return section


def _moved(pairs: tuple[Pair, ...]) -> _Section:
    section = _Section("Moved", _table_head("id", "from", "to", "message", "also changed"))
    for p in pairs:
        shown, folded = shown_fields(p)
        also = ", ".join([c.name for c in shown] + list(folded)) or "—"
        ids = p.new.id if p.old.id == p.new.id else f"{p.old.id} → {p.new.id}"
        section.entries.append(
            _row(
                code(ids, True),
                code(where(p.old), True),
                code(where(p.new), True),
                code(p.new.errorMessage, True),
                also,
            )
        )
    return section


def _changed(pairs: tuple[Pair, ...]) -> _Section:
    section = _Section("Changed", [])
    for p in pairs:
        ids = p.new.id if p.old.id == p.new.id else f"{p.old.id} → {p.new.id}"
        entry = ["", f"#### {code(ids)} at {code(where(p.new))}", "", code(p.new.errorMessage)]
        shown, folded = shown_fields(p)
        for change in shown:
            entry += ["", f"**{change.name}**", ""]
            entry += fenced(field_diff(change, p.old, p.new), "diff")
        if folded:
            entry += ["", f"Reworded with the message: {', '.join(folded)}."]
        section.entries.append(entry)
    return section


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def format_markdown(diff: DatasetDiff, old: Side, new: Side, view: View = DEFAULT_VIEW) -> str:
    """Markdown for a pull-request comment or release notes."""
    out = _head(diff, old, new)
    if view.summary_only:
        return "\n".join(out) + "\n"
    listed, folded = changed_lists(diff, view)
    sections = [
        _records("Added", diff.added),
        _records("Removed", diff.removed),
        _moved(diff.moved),
        _changed(listed),
    ]
    tail = ["", folded_line(len(folded), view)] if folded else []
    budget = None if view.max_chars is None else view.max_chars - _NOTE_ROOM - _size(out + tail)
    cut: list[str] = []
    for section in sections:
        if not section.entries:
            continue
        title = f"{section.title} ({len(section.entries)})"
        block = ["", "<details>", f"<summary>{title}</summary>"]
        block += ["", *section.prefix] if section.prefix else []
        closing = ["", "</details>"]
        kept = 0
        for entry in section.entries:
            if budget is not None and _size(block + entry + closing) > budget:
                break
            block += entry
            kept += 1
        if kept < len(section.entries):
            cut.append(f"{len(section.entries) - kept} of {title.lower()}")
        block = block + closing if kept else ["", f"{title}: cut"]
        out += block
        if budget is not None:
            budget -= _size(block)
    out += tail
    if cut:
        out += [
            "",
            f"**Cut to stay under {view.max_chars:,} characters:** {', '.join(cut)}. "
            "Run `errdoc diff` without `--max-chars` (or with `--format json`) for the whole diff.",
        ]
    return "\n".join(out) + "\n"
