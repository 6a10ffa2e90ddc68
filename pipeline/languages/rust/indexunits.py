"""Indexing a changed file by parsing only its changed units, as `unitscan` scans one.

A commit usually changes a few fns of a large file. The index of a file splits by unit:
its top-level items (but the `#[cfg(test)]` ones, which it never indexes) and the members
of a large `impl` or `mod` block, each parsed with the block's header and closing line
around it, so that a method still knows its impl and a fn its inline module. Everything
the index records of an item is learnt inside its unit (its doc and attributes are in the
lines above it, which the unit's spans hold); only the order of the file's lists and
their lines depend on the rest, and `merge` rebuilds those.

So the previous version's index, split by unit (no parse), gives the index of every unit
whose text is unchanged, moved to its new lines; only the new units are parsed (one
parse through included ranges). When that cannot be exact (the previous index came
from a parse with errors, an item lies outside every unit, the new units parse with
errors, the file has `#![..]` attributes) the file is indexed whole: the result never
depends on the shortcut (tests hold it equal to `index_file` on every changed file of
risingwave's and cargo's recent history). Pure.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tree_sitter import Tree

from pipeline.core.index import (
    DEF_KINDS,
    Arm,
    Build,
    Call,
    Definition,
    FileIndex,
    Impl,
    Local,
    Route,
    Scope,
    Subcommand,
    Use,
)
from pipeline.languages.rust.regions import (
    _BLOCK_HEAD,
    _MEMBER_BOUNDARY,
    _SPLIT_BYTES,
    Unit,
    lead_start,
    parse_units_checked,
    top_items,
)
from pipeline.languages.rust.sites import parser


def index_units(source: bytes) -> list[Unit]:
    """A file's units for the index, in file order: top-level items (their leading
    comment and attribute lines in their spans) but the `#[cfg(test)]` ones; a large
    `impl` or `mod` block as its header (with its closing line) and one unit per member."""
    starts, ends, tests = top_items(source)
    units: list[Unit] = []
    floor = 0
    for chunk, (start, end) in enumerate(zip(starts, ends, strict=True)):
        if chunk not in tests:
            units += _chunk_units(source, lead_start(source, start, floor), start, end)
        floor = start
    return units


def _chunk_units(source: bytes, lead: int, start: int, end: int) -> list[Unit]:
    whole = [Unit(((lead, end),), (start, end))]
    if end - start < _SPLIT_BYTES:
        return whole
    head = _BLOCK_HEAD.match(source, start, end)
    closing = source.rfind(b"\n}", start, end) + 1
    # A trait's definition spans its block (its end line would move with any member).
    if head is None or closing <= head.end() or head[1] == b"trait":
        return whole
    body = head.end()
    members = [body, *(m.end() for m in _MEMBER_BOUNDARY.finditer(source, body, closing))]
    member_ends = [*members[1:], closing]
    units = [Unit(((lead, body), (closing, end)), (start, body))]
    floor = body
    for first, last in zip(members, member_ends, strict=True):
        member = (lead_start(source, first, floor), last)
        units.append(Unit(((lead, body), member, (closing, end)), (first, last)))
        floor = first
    return units


def unit_key(source: bytes, unit: Unit) -> str:
    """The hash of what a unit's index depends on: the text of its spans."""
    digest = hashlib.blake2b(digest_size=16)
    for start, end in unit.spans:
        digest.update(b"\0")
        digest.update(source[start:end])
    return digest.hexdigest()


def body_lines(source: bytes, units: Sequence[Unit]) -> tuple[list[int], list[int]]:
    """The first and last line (1-based) of each unit's body (units in file order)."""
    firsts, lasts = [], []
    row, offset = 1, 0
    for unit in units:
        start, end = unit.body
        row += source.count(b"\n", offset, start)
        offset = start
        firsts.append(row)
        lasts.append(row + source.count(b"\n", start, max(start, end - 1)))
    return firsts, lasts


def split_index(source: bytes, units: Sequence[Unit], index: FileIndex) -> list[_Part] | None:
    """A file's index cut by unit (no copy: each part keeps the items as they are, with
    the line its unit starts on); None when an item lies outside every unit or across
    two, or a unit's calls are not contiguous (the cut does not fit: `index_file` then)."""
    firsts, lasts = body_lines(source, units)
    parts = [_Part(first) for first in firsts]

    def owner(line: int, last: int) -> int:
        at = bisect_right(firsts, line) - 1
        if at < 0 or last > lasts[at]:
            raise _Outside
        return at

    try:
        def_unit = []
        for number, d in enumerate(index.definitions):
            at = owner(d.line, d.end_line)
            def_unit.append(at)
            parts[at].definitions.append(d)
            parts[at].numbers.append(number)
        for number, c in enumerate(index.calls):
            at = def_unit[c.caller]
            part = parts[at]
            if not firsts[at] <= c.line <= lasts[at] or (
                part.calls and part.call_from + len(part.calls) != number
            ):
                raise _Outside
            if not part.calls:
                part.call_from = number
            part.calls.append(c)
        for a in index.arms:
            at = def_unit[a.caller]
            part = parts[at]
            within = range(part.call_from, part.call_from + len(part.calls))
            if not all(i in within for i in a.calls) or not firsts[at] <= a.line <= lasts[at]:
                raise _Outside
            part.arms.append(a)
        for local in index.locals:
            parts[def_unit[local.caller]].locals.append(local)
        for build in index.builds:
            at = def_unit[build.caller]
            if not firsts[at] <= build.line <= lasts[at]:
                raise _Outside
            parts[at].builds.append(build)
        for scope in index.scopes:
            at = def_unit[scope.caller]
            if not firsts[at] <= scope.line <= scope.end_line <= lasts[at]:
                raise _Outside
            parts[at].scopes.append(scope)
        for name in ("uses", "routes", "impls", "subcommands"):
            for item in getattr(index, name):
                getattr(parts[owner(item.line, item.line)], name).append(item)
    except _Outside:
        return None
    return parts


def merge(source: bytes, units: Sequence[Unit], parts: Sequence[_Part]) -> FileIndex:
    """The index of a file from its units' parts, in its order and on its lines."""
    firsts, _ = body_lines(source, units)
    shifts = [first - part.first for first, part in zip(firsts, parts, strict=True)]
    ids: list[dict[int, int]] = [{} for _ in parts]  # a part's item numbers -> the file's
    definitions: list[Definition] = []
    for kind in DEF_KINDS:
        for at, part in enumerate(parts):
            shift, mine = shifts[at], ids[at]
            for number, d in zip(part.numbers, part.definitions, strict=True):
                if d.kind == kind:
                    mine[number] = len(definitions)
                    definitions.append(
                        d
                        if not shift
                        else d._replace(line=d.line + shift, end_line=d.end_line + shift)
                    )
    calls: list[Call] = []
    arms: list[Arm] = []
    locals_: list[Local] = []
    builds: list[Build] = []
    scopes: list[Scope] = []
    lists: dict[str, list[Any]] = {"uses": [], "routes": [], "impls": [], "subcommands": []}
    for at, part in enumerate(parts):
        shift, mine, moved = shifts[at], ids[at], len(calls) - part.call_from
        for call in part.calls:
            calls.append(call._replace(line=call.line + shift, caller=mine[call.caller]))
        arms += [
            Arm(a.pattern, a.line + shift, mine[a.caller], tuple(i + moved for i in a.calls))
            for a in part.arms
        ]
        locals_ += [
            Local(n, t, mine[c], v, at + shift, end + shift if end else 0)
            for n, t, c, v, at, end in part.locals
        ]
        builds += [Build(e, v, line + shift, mine[c], w) for e, v, line, c, w in part.builds]
        scopes += [
            Scope(k, name, line + shift, end + shift, mine[c])
            for k, name, line, end, c in part.scopes
        ]
        for name, items in lists.items():
            mine_items = getattr(part, name)
            items += (
                mine_items if not shift else [i._replace(line=i.line + shift) for i in mine_items]
            )
    return FileIndex(
        definitions=tuple(definitions),
        calls=tuple(calls),
        uses=tuple(lists["uses"]),
        locals=tuple(locals_),
        arms=tuple(arms),
        routes=tuple(lists["routes"]),
        impls=tuple(lists["impls"]),
        subcommands=tuple(lists["subcommands"]),
        builds=tuple(builds),
        scopes=tuple(scopes),
    )


def index_after(
    source: bytes,
    old_source: bytes,
    old_index: FileIndex,
    index_tree: Callable[[Tree, bytes, frozenset[str]], FileIndex],
) -> FileIndex | None:
    """The index of `source` from an earlier version's and a parse of the units that
    changed (made into an index by `index_tree`, told the free fns of the units it does not
    parse); None when that cannot be exact (then the file is indexed whole): also when the
    file's free fns are not those of before, which the calls of a unit that did not change
    may name (`.map(resolve_resource_group)`, passed by its bare name). The earlier index comes from the cache, which is not trusted:
    one that does not hold together is a miss, not a failure."""
    if not old_index.clean or b"#![" in source or b"#![" in old_source:
        return None
    try:
        return _index_after(source, old_source, old_index, index_tree)
    except (IndexError, KeyError, TypeError, ValueError, AttributeError):
        return None


def _index_after(
    source: bytes,
    old_source: bytes,
    old_index: FileIndex,
    index_tree: Callable[[Tree, bytes, frozenset[str]], FileIndex],
) -> FileIndex | None:
    old_units = index_units(old_source)
    old_parts = split_index(old_source, old_units, old_index)
    if old_parts is None:
        return None
    known = {unit_key(old_source, u): p for u, p in zip(old_units, old_parts, strict=True)}
    units = index_units(source)
    keys = [unit_key(source, unit) for unit in units]
    todo = [at for at, key in enumerate(keys) if key not in known]
    parts: list[_Part | None] = [known.get(key) for key in keys]
    if todo:
        tree, clean = parse_units_checked(parser(), source, [units[at] for at in todo])
        if not clean:
            return None
        kept = frozenset(
            free_fns(d for part in parts if part is not None for d in part.definitions)
        )
        fresh = split_index(source, units, index_tree(tree, source, kept))
        if fresh is None:
            return None
        for at in todo:
            parts[at] = fresh[at]
    merged = merge(source, units, [p for p in parts if p is not None])
    if free_fns(merged.definitions) != free_fns(old_index.definitions):
        return None
    return merged


def free_fns(definitions: Iterable[Definition]) -> set[str]:
    """The names of the free fns among `definitions` (no impl's, no trait's)."""
    return {d.name for d in definitions if d.kind == "fn" and d.owner is None}


class _Outside(Exception):
    """An item of the index lies outside the unit it should belong to."""


class _Part:
    """The items of one unit, as they are in the index they were cut from."""

    def __init__(self, first: int) -> None:
        self.first = first  # the line the unit's body starts on in that index's file
        self.definitions: list[Definition] = []
        self.numbers: list[int] = []  # each definition's index in that file
        self.calls: list[Call] = []  # contiguous there, from `call_from` on
        self.call_from = 0
        self.arms: list[Arm] = []
        self.locals: list[Local] = []
        self.uses: list[Use] = []
        self.routes: list[Route] = []
        self.impls: list[Impl] = []
        self.subcommands: list[Subcommand] = []
        self.builds: list[Build] = []
        self.scopes: list[Scope] = []
