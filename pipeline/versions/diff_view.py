"""What a person reads of a diff: the change that matters shown, its echoes folded. Pure.

A reworded message also changes the fields derived from it (`messagePattern`,
`slug`) and every snippet that quotes it (`sourceCode`, `exampleFix`, ...): those
are folded under the message change as one line naming them. A changed record
whose only difference is the source lines around its site (an edit near it, the
site itself untouched) is folded into one count line unless `context` asks for
them. The JSON form folds nothing: it is for programs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.versions.diff import DatasetDiff, FieldChange, Pair, Side

# Fields computed from `errorMessage` alone.
DERIVED = ("messagePattern", "slug")
MAX_CHARS = 60_000  # a GitHub comment holds 65,536 characters


@dataclass(frozen=True)
class View:
    """How much of a diff to show."""

    context: bool = False  # list the records whose source window alone changed
    summary_only: bool = False  # the header and the counts, nothing else
    max_chars: int | None = MAX_CHARS  # Markdown: cut entries beyond this, keep the summary


def window_only(pair: Pair) -> bool:
    """True when the pair differs in its source window and nothing else."""
    return [c.name for c in pair.fields] == ["sourceCode"]


def changed_lists(diff: DatasetDiff, view: View) -> tuple[tuple[Pair, ...], tuple[Pair, ...]]:
    """The changed pairs to list, and those folded into a count (window-only ones)."""
    if view.context:
        return diff.changed, ()
    listed = tuple(p for p in diff.changed if not window_only(p))
    return listed, tuple(p for p in diff.changed if window_only(p))


def shown_fields(pair: Pair) -> tuple[tuple[FieldChange, ...], tuple[str, ...]]:
    """The field changes to show, and the names folded under the message change."""
    before, after = pair.old.errorMessage, pair.new.errorMessage
    if before == after:
        return pair.fields, ()
    shown: list[FieldChange] = []
    folded: list[str] = []
    for change in pair.fields:
        if change.name in DERIVED or (
            change.name != "errorMessage" and _echoes(change.before, change.after, before, after)
        ):
            folded.append(change.name)
        else:
            shown.append(change)
    return tuple(shown), tuple(folded)


def _echoes(old: Any, new: Any, before: str, after: str) -> bool:
    """True when `new` is `old` with the message reworded, and nothing else changed."""
    if not before:
        return False
    if isinstance(old, str) and isinstance(new, str):
        return old.replace(before, after) == new
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return all(_echoes(a, b, before, after) or a == b for a, b in zip(old, new, strict=True))
    return False


def repository(old: Side, new: Side) -> str | None:
    """The repository the records belong to (the new side's, else the old one's)."""
    return next((r.repo for r in (*new.records, *old.records)), None)


def commit_range(old: Side, new: Side) -> str:
    """`<old sha>..<new sha>` (12 hex each), `?` for a side without a known commit."""
    return f"{(old.sha or '?')[:12]}..{(new.sha or '?')[:12]}"


def folded_line(count: int, view: View) -> str:
    """The one line that stands for the window-only changes."""
    hint = "" if view.context else " (--context lists them)"
    return f"{count} changed only in the source lines around their site{hint}"


DEFAULT_VIEW = View()
