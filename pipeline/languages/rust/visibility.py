"""What a file makes visible outside its crate, from its text (as `testcode` reads test
modules): the modules it declares that are not `pub` (`mod parser;`, `pub(crate) mod x;`),
and the lines of its `pub use` declarations. The link reads them to tell a `pub` fn that is
the crate's public API from one in a private module that nothing re-exports. Both are read
at the file's top level: at column 0, and in the blocks of macros invoked there whose body
is items (`cfg_rt! {` .. `}`, one indentation level in for each: tokio declares most of
its modules and re-exports so, `macroitems`). Pure."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from pipeline.languages.rust.testcode import is_test_attribute

# A top-level module declaration (rustfmt's column 0): `mod x;`, `pub(crate) mod x {`
_MOD = re.compile(rb"^(pub\b\s*(?:\([^)\n]*\))?\s*)?mod\s+(?:r#)?(\w+)\s*[;{]", re.M)
# A top-level re-export: `pub use a::b;`, `pub use a::{b, c};` (not `pub(crate) use`)
_PUB_USE = re.compile(rb"^pub\s+use\b", re.M)
_CRATE_USE = re.compile(rb"^pub\s*\(\s*crate\s*\)\s*use\b", re.M)


# A macro invoked at column 0 whose body is a block of its own lines (`cfg_rt! {`)
_MACRO_BLOCK = re.compile(rb"^[A-Za-z_][\w:]*![ \t]*\{[ \t]*\r?$", re.M)
# Its line's end, and the macro's name before it: found from the `!`, which a search runs to
# in C (a `^` of `re.M` is tried at every byte of the file: 2-3 times as long over a file)
_BLOCK_OPENED = re.compile(rb"![ \t]*\{[ \t]*\r?$", re.M)
_MACRO_NAME = re.compile(rb"[A-Za-z_][\w:]*")
# How a line that each top-level pattern matches starts: the pattern is tried at those lines
# only (found by searching for "\n" and the word), for the same reason
_LEADS = {_MOD: (b"pub", b"mod"), _PUB_USE: (b"pub",), _CRATE_USE: (b"pub",)}


def private_modules(source: bytes) -> tuple[str, ...]:
    """The top-level modules the file declares without a plain `pub`, in file order; not
    those test code is (`#[cfg(test)] mod tests {`: never in the call graph), nor one it
    also declares `pub` (tokio's `lib.rs`: `pub mod runtime;` in `cfg_rt! {`, `pub(crate)
    mod runtime;` in `cfg_not_rt! {`: public where the crate has its runtime)."""
    return module_privacy(source)[0]


def module_privacy(source: bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`private_modules`, and of them those declared `pub(crate)` (or `pub(in crate)`):
    seen by the whole crate (vector's `pub(crate) mod config;` in `sinks::kafka`, whose
    `pub(crate) fn to_rdkafka` read "only code in module `sinks::kafka` can call", reading
    211). One read of the file's declarations for both."""
    if b"mod " not in source:
        return (), ()
    declared = [m for m in _top_level(_MOD, source) if not _under_test_attribute(source, m.start())]
    public = {m.group(2) for m in declared if m.group(1) and b"(" not in m.group(1)}
    private = tuple(
        dict.fromkeys(m.group(2).decode() for m in declared if m.group(2) not in public)
    )
    crate_wide = tuple(
        dict.fromkeys(
            m.group(2).decode()
            for m in declared
            if m.group(2) not in public and m.group(1) and _CRATE_WIDE.fullmatch(m.group(1).strip())
        )
    )
    return private, crate_wide


_CRATE_WIDE = re.compile(rb"pub\s*\(\s*(?:in\s+)?crate\s*\)")


def _top_level(pattern: re.Pattern[bytes], source: bytes) -> list[re.Match[bytes]]:
    """`pattern`'s matches at column 0 and at the level of each macro block's items, in
    file order (`pattern` anchored at a line's start, read there without the indentation)."""
    found = _column_zero(pattern, source)
    if not _has_macro_block(source):
        return found
    unanchored = _unanchored(pattern)
    for line_start, indent in _macro_block_lines(source):
        match = unanchored.match(source, line_start + indent)
        if match is not None:
            found.append(match)
    return sorted(found, key=lambda m: m.start())


def _column_zero(pattern: re.Pattern[bytes], source: bytes) -> list[re.Match[bytes]]:
    """`list(pattern.finditer(source))`, `pattern` tried only at the lines that start with
    one of its `_LEADS`."""
    unanchored = _unanchored(pattern)
    starts = {0}
    for lead in _LEADS[pattern]:
        needle = b"\n" + lead
        at = source.find(needle)
        while at >= 0:
            starts.add(at + 1)
            at = source.find(needle, at + 1)
    found: list[re.Match[bytes]] = []
    end = 0  # as `finditer`: no match starts inside the one before
    for start in sorted(starts):
        if start >= end and (match := unanchored.match(source, start)) is not None:
            found.append(match)
            end = match.end()
    return found


def _has_macro_block(source: bytes) -> bool:
    """`_MACRO_BLOCK.search(source) is not None`."""
    for opened in _BLOCK_OPENED.finditer(source):
        line_start = source.rfind(b"\n", 0, opened.start()) + 1
        if _MACRO_NAME.fullmatch(source, line_start, opened.start()):
            return True
    return False


@cache
def _unanchored(pattern: re.Pattern[bytes]) -> re.Pattern[bytes]:
    """`pattern` without its leading `^`, to match at an indented line's text."""
    return re.compile(pattern.pattern.removeprefix(b"^"), pattern.flags)


def _macro_block_lines(source: bytes) -> list[tuple[int, int]]:
    """(start, indentation) of each line at the items' level of a macro block opened at
    column 0, nested blocks one level (4 spaces) further in; the line `}` at a block's own
    indentation closes it."""
    lines: list[tuple[int, int]] = []
    for opened in _MACRO_BLOCK.finditer(source):
        depth = 1
        for pos, line in _lines_after(source, opened.end()):
            indent = len(line) - len(line.lstrip(b" "))
            text = line[indent:]
            if text == b"}" and indent == 4 * (depth - 1):
                depth -= 1
                if depth == 0:
                    break
            elif indent == 4 * depth:
                if _MACRO_BLOCK.fullmatch(text):
                    depth += 1
                else:
                    lines.append((pos, indent))
    return lines


def _lines_after(source: bytes, at: int) -> Iterator[tuple[int, bytes]]:
    """(start, text without its line end) of each line after the one `at` is on."""
    pos = source.find(b"\n", at) + 1
    while 0 < pos < len(source):
        end = source.find(b"\n", pos)
        end = len(source) if end < 0 else end
        yield pos, source[pos:end].rstrip(b"\r")
        pos = end + 1


def _under_test_attribute(source: bytes, start: int) -> bool:
    """Whether the attribute lines right above `start` (a line's start) mark test code; up
    to 8 lines read, upwards (not the whole text above: a `lib.rs` declares many modules)."""
    end = start
    for _ in range(8):
        if end <= 0:
            return False
        begin = source.rfind(b"\n", 0, end - 1) + 1
        text = source[begin:end].strip()
        if not text.startswith(b"#["):
            return False
        if is_test_attribute(text[2:].rstrip(b"]").decode("utf-8", errors="replace")):
            return True
        end = begin
    return False


def crate_use_lines(source: bytes) -> tuple[int, ...]:
    """The lines (1-based) where the file's top-level `pub(crate) use` declarations start."""
    if b"crate" not in source:
        return ()
    return tuple(
        source.count(b"\n", 0, match.start()) + 1 for match in _top_level(_CRATE_USE, source)
    )


def public_use_lines(source: bytes) -> tuple[int, ...]:
    """The lines (1-based) where the file's top-level `pub use` declarations start."""
    if b"use" not in source:
        return ()
    return tuple(
        source.count(b"\n", 0, match.start()) + 1 for match in _top_level(_PUB_USE, source)
    )


# A public inline module opened at column 0 (`pub mod core {`), and a `pub use` one level in
_INLINE_MODULE = re.compile(rb"^pub\s+mod\s+(?:r#)?(\w+)\s*\{[ \t]*\r?$", re.M)
_INNER_PUB_USE = re.compile(rb"^    pub\s+use\b")


def inline_public_uses(source: bytes) -> tuple[tuple[int, str], ...]:
    """The lines (1-based) of the `pub use` declarations one level inside a public inline
    module opened at column 0, with that module's name: rust-prometheus' `pub mod core {
    pub use super::desc::{Desc, Describer}; .. }` makes `prometheus::core::Desc` public
    (its `Desc::new` read "only code in its own crate calls", reading 303)."""
    if b"pub mod" not in source:
        return ()
    found: list[tuple[int, str]] = []
    for opened in _INLINE_MODULE.finditer(source):
        name = opened.group(1).decode()
        for pos, line in _lines_after(source, opened.end()):
            if line == b"}":
                break
            if _INNER_PUB_USE.match(line):
                found.append((source.count(b"\n", 0, pos) + 1, name))
    return tuple(found)
