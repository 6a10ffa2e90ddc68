"""Compare two versions of a dataset: which records were added, removed, moved, changed.

The contract (SPEC 7), for `diff_records(old, new)`:

- Fields fall in four groups. *Identity*: `id`. *Location*: `lineNumber`,
  `sourceCodeStart`, `sourceCodeEnd`, `githubUrl`, `analyzedSha` -- they move with
  every commit and are never a change on their own. *Timestamps*: `analyzedAt`,
  `contentChangedAt` -- bookkeeping, never reported. *Content*: every other field.
- Every old record and every new record lands in exactly one category, so
  `added + moved + changed + unchanged == len(new)` and
  `removed + moved + changed + unchanged == len(old)`.
- Pairs are made in rounds, strongest evidence first; a record taken by one
  round is out of the later ones. Ties are broken by score, then same file,
  then line distance, then ids, so the result never depends on input order.
  Ids are permanent (SPEC 4: a site found again keeps its id), so diffs follow
  them first; the later rounds pair what ids cannot (an edited message is a new
  pattern, hence a new id) and datasets made before ids were permanent.
  1. Same id and equal content: *unchanged*; `shifted` when its line or window
     bounds moved (a line shift alone is no change).
  2. Same id, other file: *moved*, with the content fields that differ.
  3. Same id: *changed*.
  4. Different ids, equal `messagePattern`, `errorMessage` and `sourceCode`:
     *moved*.
  5. Different ids, equal `messagePattern` and `errorMessage`, neighbourhoods
     alike: *moved*, with the content fields that differ.
  6. Different ids, same `filePath`, neighbourhoods alike: *changed*, with
     `old_id != new.id`. An edited message changes `messagePattern` and hence
     the id, yet it is the same site: this round pairs it back.
  7. What is left: *removed* (old) and *added* (new).
- The neighbourhood of a record is the site line and `NEIGHBOURHOOD` lines
  either side, taken from its own `sourceCode`, indentation stripped; two are
  alike when difflib's ratio is at least `ALIKE`. A site moved to another file
  AND edited is reported as removed + added.
- Inputs must not repeat an id within one side (`ValueError`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from pipeline.core.model import Record

LOCATION_FIELDS = ("lineNumber", "sourceCodeStart", "sourceCodeEnd", "githubUrl", "analyzedSha")
TIMESTAMP_FIELDS = ("analyzedAt", "contentChangedAt")
CONTENT_FIELDS = tuple(
    name
    for name in Record.model_fields
    if name != "id" and name not in LOCATION_FIELDS and name not in TIMESTAMP_FIELDS
)
NEIGHBOURHOOD = 4
ALIKE = 0.6


@dataclass(frozen=True)
class Side:
    """One side of a diff: its records and how to name it."""

    label: str
    records: tuple[Record, ...]
    sha: str | None = None
    dataset_version: str | None = None


@dataclass(frozen=True)
class FieldChange:
    """One content field whose value differs between the two records of a pair."""

    name: str
    before: Any
    after: Any


@dataclass(frozen=True)
class Pair:
    """An old record and the new record it became."""

    old: Record
    new: Record
    fields: tuple[FieldChange, ...] = ()

    @property
    def shifted(self) -> bool:
        """True when the site's line or window bounds moved."""
        return (self.old.lineNumber, self.old.sourceCodeStart, self.old.sourceCodeEnd) != (
            self.new.lineNumber,
            self.new.sourceCodeStart,
            self.new.sourceCodeEnd,
        )


@dataclass(frozen=True)
class Summary:
    """The counts of a diff (the JSON `summary`)."""

    added: int
    removed: int
    moved: int
    changed: int
    unchanged: int


@dataclass(frozen=True)
class DatasetDiff:
    """Every old and new record, each in exactly one category, in a stable order."""

    added: tuple[Record, ...]
    removed: tuple[Record, ...]
    moved: tuple[Pair, ...]
    changed: tuple[Pair, ...]
    unchanged: tuple[Pair, ...]

    @property
    def summary(self) -> Summary:
        """Counts per category."""
        return Summary(
            len(self.added),
            len(self.removed),
            len(self.moved),
            len(self.changed),
            len(self.unchanged),
        )

    @property
    def shifted(self) -> tuple[Pair, ...]:
        """The unchanged pairs whose site only changed line."""
        return tuple(p for p in self.unchanged if p.shifted)

    @property
    def has_differences(self) -> bool:
        """True when anything was added, removed, moved or changed (`--exit-code`)."""
        return bool(self.added or self.removed or self.moved or self.changed)


def field_changes(old: Record, new: Record, skip: Iterable[str] = ()) -> tuple[FieldChange, ...]:
    """The content fields whose values differ, in record key order."""
    skipped = set(skip)
    return tuple(
        FieldChange(name, getattr(old, name), getattr(new, name))
        for name in CONTENT_FIELDS
        if name not in skipped and getattr(old, name) != getattr(new, name)
    )


def neighbourhood(record: Record) -> tuple[str, ...]:
    """The site line and `NEIGHBOURHOOD` lines either side, indentation stripped."""
    lines = record.sourceCode.split("\n")
    # Clamped: a window that does not contain its own line is bad data, not a crash.
    at = min(max(record.lineNumber - record.sourceCodeStart, 0), len(lines) - 1)
    return tuple(
        line.strip() for line in lines[max(at - NEIGHBOURHOOD, 0) : at + NEIGHBOURHOOD + 1]
    )


def _position(record: Record) -> tuple[str, int, str]:
    return (record.filePath, record.lineNumber, record.id)


def _unique(records: Sequence[Record], side: str) -> dict[str, Record]:
    by_id: dict[str, Record] = {}
    for record in records:
        if record.id in by_id:
            raise ValueError(f"record id {record.id} appears twice in the {side} records")
        by_id[record.id] = record
    return by_id


class _Matcher:
    """The records not yet paired, and the rounds that pair them."""

    def __init__(self, old: dict[str, Record], new: dict[str, Record]) -> None:
        self.old = old
        self.new = new
        self._near: dict[str, tuple[str, ...]] = {}

    def near(self, side: str, record: Record) -> tuple[str, ...]:
        """The record's neighbourhood, computed once."""
        key = side + record.id
        if key not in self._near:
            self._near[key] = neighbourhood(record)
        return self._near[key]

    def alike(self, a: Record, b: Record) -> float:
        """Neighbourhood similarity in [0, 1]."""
        return self.similarities([a], b)[0]

    def similarities(self, olds: Sequence[Record], new: Record) -> list[float]:
        """Neighbourhood similarity of each old record to `new` (0.0 below `ALIKE`)."""
        target = self.near("n", new)
        matcher = SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(target)  # difflib indexes seq2 once for all the olds
        found = []
        for old in olds:
            seen = self.near("o", old)
            matcher.set_seq1(seen)
            if seen == target:
                found.append(1.0)
            elif matcher.real_quick_ratio() < ALIKE or matcher.quick_ratio() < ALIKE:
                found.append(0.0)
            else:
                found.append(matcher.ratio())
        return found

    def same_id(self, accept: Callable[[Record, Record], bool]) -> list[tuple[Record, Record]]:
        """Take the id pairs that `accept` admits."""
        taken = [
            (self.old[i], self.new[i])
            for i in sorted(self.old.keys() & self.new.keys())
            if accept(self.old[i], self.new[i])
        ]
        for old, new in taken:
            del self.old[old.id], self.new[new.id]
        return taken

    def greedy(self, key: Callable[[Record], Hashable], exact: bool) -> list[tuple[Record, Record]]:
        """Pair records of different ids that share `key`, most alike first, one to one.

        With `exact`, sharing the key is enough; otherwise neighbourhoods must be alike.
        """
        buckets: dict[Hashable, tuple[list[Record], list[Record]]] = defaultdict(lambda: ([], []))
        for record in self.old.values():
            buckets[key(record)][0].append(record)
        for record in self.new.values():
            buckets[key(record)][1].append(record)
        candidates = []
        for olds, news in buckets.values():
            for n in news:
                scores = [1.0] * len(olds) if exact else self.similarities(olds, n)
                for o, score in zip(olds, scores, strict=True):
                    if o.id != n.id and score >= ALIKE:
                        far = abs(o.lineNumber - n.lineNumber)
                        candidates.append((-score, o.filePath != n.filePath, far, o.id, n.id))
        taken = []
        for _, _, _, old_id, new_id in sorted(candidates):
            if old_id in self.old and new_id in self.new:
                taken.append((self.old.pop(old_id), self.new.pop(new_id)))
        return taken


def diff_records(old: Sequence[Record], new: Sequence[Record]) -> DatasetDiff:
    """Compare two record collections (see the module docstring for the rules)."""
    m = _Matcher(_unique(old, "old"), _unique(new, "new"))
    unchanged = m.same_id(lambda o, n: not field_changes(o, n))
    id_moves = m.same_id(lambda o, n: o.filePath != n.filePath)
    changed = m.same_id(lambda o, n: True)
    exact_moves = m.greedy(lambda r: (r.messagePattern, r.errorMessage, r.sourceCode), exact=True)
    near_moves = m.greedy(lambda r: (r.messagePattern, r.errorMessage), exact=False)
    changed += m.greedy(lambda r: r.filePath, exact=False)

    def ordered(made: Iterable[Pair]) -> tuple[Pair, ...]:
        return tuple(sorted(made, key=lambda p: _position(p.new)))

    def pairs(found: list[tuple[Record, Record]], skip: tuple[str, ...] = ()) -> tuple[Pair, ...]:
        return ordered(Pair(o, n, field_changes(o, n, skip)) for o, n in found)

    return DatasetDiff(
        added=tuple(sorted(m.new.values(), key=_position)),
        removed=tuple(sorted(m.old.values(), key=_position)),
        moved=pairs(id_moves + exact_moves + near_moves, skip=("filePath",)),
        changed=pairs(changed),
        unchanged=ordered(Pair(o, n) for o, n in unchanged),  # no field differs, by round 1
    )
