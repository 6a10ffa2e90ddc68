"""Scanning a changed file by parsing only its changed units.

A commit usually changes a few functions of a large file. `regions` cuts a file
into units that parse on their own (top-level items, members of large blocks).
The previous version of the file was scanned before (its scan is in the blob
cache), so its sites can be split by unit with no parse; a unit whose text is the
same in the new version gives the same sites, moved to its new lines. Only the
new units are parsed.

A unit is known by a hash of what its sites depend on: its text (with the attribute
and comment lines above it, `regions.lead_start`) and the file's inner attributes
(`#![cfg(..)]`). If
the previous scan cannot be split exactly (it recovered from a syntax error, or a
site lies outside every unit), or the new units do not parse cleanly, the file is
scanned the plain way (as `sites.find_sites` does): the result never depends on the shortcut.
Pure.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import replace

from tree_sitter import Tree

from pipeline.core.sitetypes import FileScan, Site, TypeAlias, placed
from pipeline.languages.rust.regions import (
    Unit,
    is_generated_file,
    is_test_file,
    parse_ranges,
    parse_units,
    ranges_of,
    relevant_units,
    site_hints,
)
from pipeline.languages.rust.sites import collect, parser, placed_scan, scan_tree, siteless_scan
from pipeline.languages.rust.testcode import is_test_path

_INNER_ATTRIBUTE = re.compile(rb"(?m)^[ \t]*#!\[[^\n]*")


UnitScans = Mapping[str, FileScan]  # unit key -> its sites and aliases, lines relative to it


def find_sites_after(path: str, source: bytes, known: UnitScans) -> FileScan:
    """`find_sites(path, source)`, parsing only the units that `known` does not hold."""
    if is_test_path(path) or is_test_file(source):
        return FileScan(sites=())
    hints = site_hints(source)
    if not hints:
        return siteless_scan(source)
    units = relevant_units(source, hints)
    context = file_context(source)
    keys = [unit_key(source, unit, context) for unit in units]
    todo = {key: unit for unit, key in zip(units, keys, strict=True) if key not in known}
    if todo:
        new = list(todo.values())
        ranges = ranges_of(source, new)
        tree = parse_ranges(parser(), source, ranges)
        parsed = None if tree.root_node.has_error else _split_parse(path, source, new, tree)
        if parsed is None:
            # The plain way, as `find_sites` parses: all the units, or the whole file if
            # they show errors. When every unit was new, `tree` is that first parse.
            if len(new) < len(units):
                tree = parse_units(parser(), source, units)
            elif tree.root_node.has_error and ranges is not None:
                tree = parser().parse(source)
            return scan_tree(path, source, tree)
        known = {**known, **dict(zip(todo, parsed, strict=True))}
    parts = (
        (first - 1, known[key].sites, known[key].aliases)
        for first, key in zip(_first_lines(source, units), keys, strict=True)
    )
    return placed_scan(path, source, parts, parse_errors=0)


def unit_scans(source: bytes, scan: FileScan) -> dict[str, FileScan] | None:
    """The scan of a file split by unit (no parse), or None when that cannot be exact."""
    if scan.parse_errors or is_test_file(source) or is_generated_file(source):
        # a generated file's scan keeps each message once: its units' own sites are not in it
        return None
    hints = site_hints(source)
    units = relevant_units(source, hints) if hints else []
    if not units:
        return {} if not scan.sites and not scan.aliases else None
    context = file_context(source)
    keys = [unit_key(source, unit, context) for unit in units]
    return _split(source, units, keys, scan.sites, scan.aliases)


def file_context(source: bytes) -> bytes:
    """What every unit key of a file includes: its `#![..]` lines (they can make it test code)."""
    if source.find(b"#![") < 0:
        return b""
    return b"\n".join(_INNER_ATTRIBUTE.findall(source))


def unit_key(source: bytes, unit: Unit, context: bytes) -> str:
    """The hash of what a unit's sites depend on: its spans (leads included), the file's `#!`."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(context)
    for start, end in unit.spans:
        digest.update(b"\0")
        digest.update(source[start:end])
    return digest.hexdigest()


def _first_lines(source: bytes, units: Sequence[Unit]) -> list[int]:
    """The 1-based line on which each unit's body starts (units in file order)."""
    firsts, row, offset = [], 0, 0
    for unit in units:
        row += source.count(b"\n", offset, unit.body[0])
        offset = unit.body[0]
        firsts.append(row + 1)
    return firsts


def _split_parse(
    path: str, source: bytes, units: Sequence[Unit], tree: Tree
) -> list[FileScan] | None:
    """Each unit's sites and aliases from a clean parse of `units`, lines relative to its body.

    None if that cannot be exact (a site or an alias lies in no unit).
    """
    sites, aliases = collect(tree, path, source)
    keys = [str(index) for index in range(len(units))]
    split = _split(source, units, keys, sites, aliases)
    return None if split is None else [split[key] for key in keys]


def _split(
    source: bytes,
    units: Sequence[Unit],
    keys: Sequence[str],
    sites: Sequence[Site],
    aliases: Sequence[TypeAlias],
) -> dict[str, FileScan] | None:
    """Sites and aliases by unit key, lines relative to the unit; None if one is in no unit."""
    firsts = _first_lines(source, units)
    lasts = [
        first + source.count(b"\n", *unit.body) - 1
        for unit, first in zip(units, firsts, strict=True)
    ]

    def owner(line: int) -> int | None:
        index = bisect_right(firsts, line) - 1
        return index if index >= 0 and line <= lasts[index] else None

    found: list[list[Site]] = [[] for _ in units]
    declared: list[list[TypeAlias]] = [[] for _ in units]
    for site in sites:
        index = owner(site.line)
        if index is None:
            return None
        found[index].append(placed(site, 1 - firsts[index], "", "", 1))
    for alias in aliases:
        index = owner(alias.line)
        if index is None:
            return None
        declared[index].append(replace(alias, line=alias.line + 1 - firsts[index]))
    return {
        key: FileScan(sites=tuple(s), aliases=tuple(a))
        for key, s, a in zip(keys, found, declared, strict=True)
    }
