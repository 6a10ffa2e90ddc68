"""Permanent record ids (SPEC 4): a site found again keeps its id, a new one gets an id never used.

The sites of the files scanned by a run are matched to the previous version's
records that no carried file kept, in rounds, strongest evidence first; a record
or a site taken by one round is out of the later ones:

1. Same file, same `messagePattern`: every pair is admissible (the site is still
   there, perhaps rewritten around); the best pairs are taken first.
2. A renamed file (its path gone from the commit, paired with the new path that
   shares most of its patterns): as round 1, across the two paths.
3. Another file, same pattern: only when the enclosing item is the same or the
   lines around the site are alike (a function moved to another module).

"Best" is, in order: the same enclosing item, the most alike lines around the site
(the site line and `NEAR` lines either side, indentation stripped), the nearest
line, then the ids (so the result never depends on input order). A site left over
gets `sha256(repo, filePath, messagePattern, counter)[:16]` with the smallest counter
that gives an id this dataset never used: current and retired ids (retired records
are never forgotten, so the two together are every id ever published). A first
extraction thus gives each site the id of its ordinal among equal patterns in its
file, as errdoc did before ids were permanent. Pure.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from difflib import SequenceMatcher

from pipeline.core.model import Record
from pipeline.languages import language_of
from pipeline.scan.context import SiteContext, record_id

NEAR = 4
ALIKE = 0.6  # difflib ratio of two sites' surroundings for a move to another file


@dataclass(frozen=True)
class _Old:
    """A previous record that may be found again."""

    id: str
    path: str
    pattern: str
    line: int
    enclosing: str | None
    near: tuple[str, ...]


@dataclass(frozen=True)
class _New:
    """A site of this run, by its index among the run's contexts."""

    index: int
    path: str
    pattern: str
    line: int
    enclosing: str | None
    near: tuple[str, ...]


def surroundings(lines: Sequence[str], at: int) -> tuple[str, ...]:
    """Line `at` (0-based, clamped) of `lines` and `NEAR` lines either side, stripped."""
    at = min(max(at, 0), len(lines) - 1)
    return tuple(line.strip() for line in lines[max(at - NEAR, 0) : at + NEAR + 1])


def _old(record: Record, enclosing: str | None) -> _Old:
    lines = record.sourceCode.split("\n")
    near = surroundings(lines, record.lineNumber - record.sourceCodeStart)
    pattern = language_of(record.filePath).pattern_identity(record.messagePattern)
    return _Old(record.id, record.filePath, pattern, record.lineNumber, enclosing, near)


def _new(index: int, context: SiteContext) -> _New:
    site = context.site
    near = surroundings(context.window.split("\n"), site.line - context.window_start)
    pattern = language_of(site.file_path).pattern_identity(context.message_pattern)
    return _New(index, site.file_path, pattern, site.line, site.facts.enclosing_fn, near)


def assign_ids(
    contexts: Sequence[SiteContext],
    previous: Mapping[str, Record],
    enclosing: Mapping[str, str | None],
    used: Set[str],
    present: Set[str],
) -> list[SiteContext]:
    """`contexts` with permanent ids (see the module docstring).

    `previous`: the previous records that may be found again (those of carried files
    excluded), `enclosing`: their enclosing fn by id, `used`: every id the dataset
    ever published, `present`: the paths of this commit's files.
    """
    olds = {rid: _old(r, enclosing.get(rid)) for rid, r in previous.items()}
    news = {i: _new(i, c) for i, c in enumerate(contexts)}
    before = {o.path for o in olds.values()}
    found: dict[int, str] = {}
    _match(olds, news, found, lambda r: (r.path, r.pattern), lambda o, n: True)
    renamed = _renames(olds.values(), news.values(), present, before)
    _match(
        olds,
        news,
        found,
        lambda r: (renamed.get(r.path, r.path), r.pattern),
        lambda o, n: True,
    )
    _match(
        olds,
        news,
        found,
        lambda r: r.pattern,
        lambda o, n: _same_item(o, n) or _alike(o, n) >= ALIKE,
    )
    taken = set(used)
    result = []
    for i, context in enumerate(contexts):
        rid = found.get(i)
        if rid is None:
            rid = fresh_id(context.repo, context.site.file_path, context.message_pattern, taken)
        taken.add(rid)
        result.append(dataclasses.replace(context, record_id=rid))
    return result


def fresh_id(repo: str, path: str, pattern: str, taken: Set[str]) -> str:
    """The id of a new site: the first counter whose hash is not in `taken`."""
    counter = 0
    while (rid := record_id(repo, path, pattern, counter)) in taken:
        counter += 1
    return rid


def _same_item(old: _Old, new: _New) -> bool:
    return old.enclosing is not None and old.enclosing == new.enclosing


def _alike(old: _Old, new: _New) -> float:
    if old.near == new.near:
        return 1.0
    return SequenceMatcher(None, old.near, new.near, autojunk=False).ratio()


def _match(
    olds: dict[str, _Old],
    news: dict[int, _New],
    found: dict[int, str],
    key: Callable[[_Old | _New], Hashable],
    admit: Callable[[_Old, _New], bool],
) -> None:
    """Pair the records and sites that share `key`, best first, one to one; take them out."""
    buckets: dict[Hashable, tuple[list[_Old], list[_New]]] = defaultdict(lambda: ([], []))
    for old in olds.values():
        buckets[key(old)][0].append(old)
    for new in news.values():
        buckets[key(new)][1].append(new)
    candidates = []
    for group_old, group_new in buckets.values():
        if len(group_old) == len(group_new) == 1 and admit(group_old[0], group_new[0]):
            # Buckets are disjoint: a lone pair is taken whatever its score (most are lone).
            candidates.append(((False, 0.0, 0), group_old[0].id, group_new[0].index))
            continue
        for o in group_old:
            for n in group_new:
                if admit(o, n):
                    score = (not _same_item(o, n), -_alike(o, n), abs(o.line - n.line))
                    candidates.append((score, o.id, n.index))
    for _, old_id, index in sorted(candidates):
        if old_id in olds and index in news:
            del olds[old_id], news[index]
            found[index] = old_id


def _renames(
    olds: Iterable[_Old], news: Iterable[_New], present: Set[str], old_paths: Set[str]
) -> dict[str, str]:
    """Old path -> new path for files gone from the commit whose patterns reappear in a new file.

    The new path must have held no previous record (it is new) and share at least one
    pattern; the pairs sharing most patterns are taken first.
    """
    gone: dict[str, set[str]] = defaultdict(set)
    for o in olds:
        if o.path not in present:
            gone[o.path].add(o.pattern)
    arrived: dict[str, set[str]] = defaultdict(set)
    for n in news:
        arrived[n.path].add(n.pattern)
    shared = sorted(
        (-len(patterns & arrived[new]), old, new)
        for old, patterns in gone.items()
        for new in arrived
        if new not in old_paths and patterns & arrived[new]
    )
    pairs: dict[str, str] = {}
    for _, old, new in shared:
        if old not in pairs and new not in pairs.values():
            pairs[old] = new
    return pairs
