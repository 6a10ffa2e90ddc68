"""Which parts of a Rust file are worth parsing, and the source lines around a site. Pure.

Parsing is most of the cost of extraction, and most of a file cannot hold a site.
`site_hints` finds the byte offsets where one may be (literal needles, searched in
C); `parse_relevant` parses only the top-level items that hold a hint.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Parser, Point, Range, Tree

from pipeline.languages.rust.testcode import is_test_attribute

# Macros whose name alone marks a possible site (the `assert*` family is one needle).
ERROR_MACROS = (
    "bail", "anyhow", "ensure", "format_err", "eyre", "panic", "unreachable", "todo",
    "unimplemented",
)  # fmt: skip
WINDOW_RADIUS = 18

# (Not after a `;`: a comment line may end with one, and rustfmt leaves a blank line anyway.)
_ITEM_BOUNDARY = re.compile(rb"(?:\n\n|\n\}[^\n]*\n)(?=[^\s})\]])")
_TEST_ITEM = b"\n#[cfg(test)]"
_NEEDLES = (
    *(f"{name}!".encode() for name in ERROR_MACROS),
    b"assert",
    b"error(",
    b".expect",
    b"context(",
    b"wrap_err",
    b"Err(",
    b"Error::",
    b"Status::",
    b"Code::",
    b"write!",
    b"writeln!",
)
_REACH = 4000  # how far after a needle its message literal may start (the `;` usually comes first)
# Members of an `impl`/`mod`/`trait` block, at 4 spaces, cut like top-level items.
_MEMBER_BOUNDARY = re.compile(rb"(?:\n\n|\n    \}[^\n]*\n)(?=    [^\s})\]])")
# Attributes and comments, then a block item's header through the line that opens it.
_BLOCK_HEAD = re.compile(
    rb"(?:[ \t]*(?://[^\n]*|#!?\[[^\n]*)\n)*"
    rb"(?:pub(?:\([^)\n]*\))? )?(?:unsafe )?(impl|mod|trait)\b[^;{]*\{[ \t]*\n"
)
# A blank, attribute or comment line (without its `\n`): it belongs to the item below it.
_LEAD_LINE = re.compile(rb"[ \t]*(?:(?:#\[|//|/\*|\*)[^\n]*)?\r?")
_SPLIT_BYTES = 1024  # smaller blocks are parsed whole: splitting them saves nothing
_WHOLE = Range(Point(0, 0), Point(0xFFFFFFFF, 0xFFFFFFFF), 0, 0xFFFFFFFF)


def is_test_file(source: bytes) -> bool:
    """A test inner attribute (`#![cfg(test)]`, `#![cfg(all(test, ..))]`) heads the file.

    Only the file's head counts (blank lines, comments, inner attributes), as in a
    whole parse: an indented `#![cfg(test)]` opens a test module, not a test file.
    """
    if source.find(b"#![") < 0:
        return False
    pos = 0
    while pos < len(source):
        end = source.find(b"\n", pos)
        end = len(source) if end < 0 else end
        line = source[pos:end].strip()
        if line.startswith(b"/*"):  # a block comment: skip to its end
            close = source.find(b"*/", pos)
            end = len(source) if close < 0 else source.find(b"\n", close)
            end = len(source) if end < 0 else end
        elif line.startswith(b"#![") and line.endswith(b"]"):
            if is_test_attribute(line[3:-1].decode("utf-8", errors="replace")):
                return True
        elif line and not line.startswith(b"//"):
            return False
        pos = end + 1
    return False


def parse_relevant(parser: Parser, source: bytes, hints: Sequence[int]) -> Tree:
    """Parse only the top-level items that can hold a site or an alias.

    Items are cut at column-0 lines that follow a blank line or a line starting with
    `}` (the shape rustfmt gives); `#[cfg(test)]` items are never parsed. The items kept
    are parsed as one document through tree-sitter's included ranges, so positions
    stay those of the whole file. If the cut was wrong the parse shows errors, and
    the whole file is parsed instead: the result never depends on the shortcut.
    """
    return parse_units(parser, source, relevant_units(source, hints))


def parse_units(parser: Parser, source: bytes, units: Sequence[Unit]) -> Tree:
    """`units` parsed as one document, or the whole file if that parse shows errors."""
    return parse_units_checked(parser, source, units)[0]


def parse_units_checked(parser: Parser, source: bytes, units: Sequence[Unit]) -> tuple[Tree, bool]:
    """`parse_units`, and whether the tree is a parse of exactly `units` with no error."""
    ranges = ranges_of(source, units)
    if ranges is not None:
        tree = parse_ranges(parser, source, ranges)
        if not tree.root_node.has_error:
            return tree, True
        return parser.parse(source), False
    tree = parser.parse(source)
    return tree, not tree.root_node.has_error


def parse_ranges(parser: Parser, source: bytes, ranges: Sequence[Range] | None) -> Tree:
    """Parse `ranges` of `source` (all of it for None) as one document, positions kept."""
    if ranges is None:
        return parser.parse(source)
    parser.included_ranges = list(ranges)
    try:
        return parser.parse(source)
    finally:
        parser.included_ranges = [_WHOLE]


def site_hints(source: bytes) -> list[int]:
    """Byte offsets where a site or a `Result` alias may be: literal needles, found in C.

    A site needs a string literal, so a needle counts only with a `"` after it and
    before the statement ends (`Err(e);`, `assert!(x);`, `.context(MSG)?;` hold none).
    """
    hints: list[int] = []
    for needle in _NEEDLES:
        index = source.find(needle)
        while index >= 0:
            end = source.find(b";", index, index + _REACH)
            if source.find(b'"', index, end if end >= 0 else index + _REACH) >= 0:
                hints.append(index)
            index = source.find(needle, index + 1)
    index = source.find(b"type ")
    while index >= 0:
        if b"Result" in source[index : source.find(b"\n", index)]:
            hints.append(index)
        index = source.find(b"type ", index + 1)
    return hints


@dataclass(frozen=True, slots=True)
class Unit:
    """A part of a file that parses on its own: a top-level item, or one member of a large block.

    `spans` are the byte ranges to parse (for a member: the block's header, the member,
    the block's closing line); `body` is the part whose sites belong to the unit (the
    item, or the member). Both start at the beginning of a line.
    """

    spans: tuple[tuple[int, int], ...]
    body: tuple[int, int]


def relevant_units(source: bytes, hints: Sequence[int]) -> list[Unit]:
    """The units that hold a hint, in file order (`#[cfg(test)]` items left out)."""
    starts, ends, tests = top_items(source)
    by_chunk: dict[int, list[int]] = {}
    for hint in hints:
        by_chunk.setdefault(bisect_right(starts, hint) - 1, []).append(hint)
    for chunk in tests:
        by_chunk.pop(chunk, None)
    units: list[Unit] = []
    floor = 0
    for chunk in sorted(by_chunk):
        start = starts[chunk]
        units += _inner_units(
            source, lead_start(source, start, floor), start, ends[chunk], by_chunk[chunk]
        )
        floor = start
    return units


def top_items(source: bytes) -> tuple[list[int], list[int], set[int]]:
    """The top-level items as `relevant_units` cuts them: their starts and ends, and which
    of them are `#[cfg(test)]` items (by index)."""
    starts = [0, *(m.end() for m in _ITEM_BOUNDARY.finditer(source))]
    tests: set[int] = set()
    index = source.find(_TEST_ITEM)
    while index >= 0:
        chunk = bisect_right(starts, index + 1) - 1
        if starts[chunk] == index + 1:
            tests.add(chunk)
        index = source.find(_TEST_ITEM, index + 1)
    return starts, [*starts[1:], len(source)], tests


def product_units(source: bytes) -> list[Unit]:
    """The top-level items but the `#[cfg(test)]` ones: what the index parses of a file."""
    starts, ends, tests = top_items(source)
    return [
        Unit(((start, end),), (start, end))
        for chunk, (start, end) in enumerate(zip(starts, ends, strict=True))
        if chunk not in tests
    ]


def lead_start(source: bytes, start: int, floor: int) -> int:
    """Where the blank, attribute and comment lines right above `start` begin (not above `floor`).

    They belong to the item below: a `#[cfg(test)]` or a `///` doc comment cut off by a
    blank line still marks or documents it. A unit's spans start there, so a unit parsed
    on its own sees what a whole parse sees; its body (whose sites it owns) does not.
    """
    top = start
    while top > floor:
        above = source.rfind(b"\n", 0, top - 1) + 1
        if above < floor or not _LEAD_LINE.fullmatch(source, above, top - 1):
            break
        top = above
    return top


def ranges_of(source: bytes, units: Sequence[Unit]) -> list[Range] | None:
    """The included ranges that parse `units` together, or None when that is the whole file."""
    spans: list[list[int]] = []
    for start, end in sorted({span for unit in units for span in unit.spans}):
        if spans and spans[-1][1] >= start:  # adjacent, or a lead inside the unit above
            spans[-1][1] = max(spans[-1][1], end)
        else:
            spans.append([start, end])
    if spans == [[0, len(source)]]:
        return None
    ranges: list[Range] = []
    row, offset = 0, 0
    for start, end in spans:
        row += source.count(b"\n", offset, start)
        end_row = row + source.count(b"\n", start, end)
        ranges.append(Range(Point(row, 0), Point(end_row, 0), start, end))
        row, offset = end_row, end
    return ranges


def _inner_units(source: bytes, lead: int, start: int, end: int, hints: list[int]) -> list[Unit]:
    """A chunk's units: one per member holding hints of a large block, else the whole chunk.

    Members are cut like top-level items, one indentation level (4 spaces) in. Each
    is parsed with the block's header and closing line, which read as one valid block,
    so the enclosing impl and everything inside a member are seen as in the whole file.
    `lead` is where the lines above the chunk that belong to it begin (`lead_start`).
    """
    whole = [Unit(((lead, end),), (start, end))]
    if end - start < _SPLIT_BYTES:
        return whole
    head = _BLOCK_HEAD.match(source, start, end)
    closing = source.rfind(b"\n}", start, end) + 1
    if head is None or closing <= head.end():
        return whole
    body = head.end()
    if any(h < body or h >= closing for h in hints):
        return whole  # a hint in the header or after the block: nothing to gain, be exact
    members = [body, *(m.end() for m in _MEMBER_BOUNDARY.finditer(source, body, closing))]
    member_ends = [*members[1:], closing]
    keep = sorted({bisect_right(members, h) - 1 for h in hints})
    units, floor = [], body
    for k in keep:
        member = (lead_start(source, members[k], floor), member_ends[k])
        units.append(Unit(((lead, body), member, (closing, end)), (members[k], member_ends[k])))
        floor = members[k]
    return units


def split_lines(source: bytes) -> list[str]:
    """Lines as tree-sitter counts them (on `\\n` only), `\\r` dropped, bad UTF-8 replaced."""
    lines = source.decode("utf-8", errors="replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines] if b"\r" in source else lines


def source_window(lines: Sequence[str], line: int) -> tuple[str, int]:
    """Lines `line-18 .. line+18` clipped to the file, joined by "\\n", and the first's number."""
    start = max(1, line - WINDOW_RADIUS)
    end = min(len(lines), line + WINDOW_RADIUS)
    return "\n".join(lines[start - 1 : end]), start
