"""Which builds compile a file at all: the `#[cfg(..)]` on the `mod x;` line that declares
it (and those that declare its ancestors), and the `#![cfg(..)]` at the head of each. Pure.

A site's own `Facts.gates` are those of the items around it in its file (`facts.cfg_gates`).
A file its parent declares `#[cfg(windows)] mod windows;` holds Windows-only code too,
which only the parent says (ripgrep's and starship's Windows files, readings 314 and 315):
each file's text gives its `file_gates` and `declared_modules`, and `module_gates` joins
them across the repository, as `testcode.test_module_paths` does for test modules.

Not followed: a `mod x;` inside an inline `mod a { .. }` (read as the file's own `x`) and
the `mod` lines a `cfg_if!` wraps.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

from pipeline.core.sitetypes import ModuleLines
from pipeline.languages.rust.facts import gate_of
from pipeline.languages.rust.testcode import (
    PATH_ATTRIBUTE,
    as_module_path,
    is_test_attribute,
    test_module_paths,
)

# `mod x;` with the attributes written before it (`pub(..)` allowed before `mod`)
_MOD_LINE = re.compile(
    rb"((?:#\[[^\]\n]*\]\s*)*)(?:pub(?:\s*\([^)\n]*\))?\s+)?mod\s+(?:r#)?(\w+)\s*;"
)
_MOD_WORD = re.compile(rb"\bmod\s+(?:r#)?\w+\s*;")
_ATTRIBUTE = re.compile(rb"#\[[^\]\n]*\]")
# blanks and comments before a file's first inner attribute or item
_HEAD_FILLER = re.compile(rb"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_HEAD_BYTES = 16384  # a license and the crate's doc fit; a file's code is below


def file_gates(source: bytes) -> tuple[str, ...]:
    """The `#![cfg(..)]` predicates at the head of a file, among its leading comments and
    inner attributes, as `Facts.gates` writes them (test gates left out: such a file is
    test code, `testcode.is_test_file`)."""
    gates: list[str] = []
    at = 0
    head = source[:_HEAD_BYTES]
    while True:
        filler = _HEAD_FILLER.match(head, at)
        at = filler.end() if filler else at
        if not head.startswith(b"#![", at):
            return tuple(gates)
        end = _attribute_end(head, at + 2)
        if end < 0:
            return tuple(gates)
        written = "#" + head[at + 2 : end].decode("utf-8", errors="replace")
        gate = gate_of(written)
        if gate is not None and gate not in gates:
            gates.append(gate)
        at = end


def _attribute_end(text: bytes, start: int) -> int:
    """The index past the `]` that closes the `[` at `start` (strings skipped), or -1."""
    depth, at, quoted = 0, start, False
    while at < len(text):
        char = text[at]
        if quoted:
            if char == 0x5C:  # `\`: the next byte is escaped
                at += 1
            elif char == 0x22:
                quoted = False
        elif char == 0x22:
            quoted = True
        elif char == 0x5B:
            depth += 1
        elif char == 0x5D:
            depth -= 1
            if depth == 0:
                return at + 1
        at += 1
    return -1


def declared_modules(source: bytes, every: bool = False) -> ModuleLines:
    """The modules a file declares by `mod x;` (`./unit/x.rs` for one with a `#[path]`), each
    with the `cfg` predicates on its line; those with none only when `every` (a file whose
    own `#![cfg(..)]` its modules share). Test modules are left out (`test_modules`)."""
    if _MOD_WORD.search(source) is None:  # most files declare none: searched in C first
        return ()
    found: list[tuple[str, tuple[str, ...]]] = []
    for match in _MOD_LINE.finditer(source):
        attributes = [a.decode("utf-8", errors="replace") for a in _ATTRIBUTE.findall(match[1])]
        if any(is_test_attribute(a[2:-1]) for a in attributes):
            continue
        gates = tuple(dict.fromkeys(g for a in attributes if (g := gate_of(a))))
        if gates or every:
            path = PATH_ATTRIBUTE.search(match[1])
            found.append((as_module_path(path[1]) if path else match[2].decode(), gates))
    return tuple(found)


def module_gates(
    files: Mapping[str, tuple[tuple[str, ...], ModuleLines]],
) -> dict[str, tuple[str, ...]]:
    """Each file's gates from the files that declare it and its ancestors, outermost first:
    `files` maps a path to its (`file_gates`, `declared_modules(.., every=bool(file_gates))`).
    A file with none is left out."""
    rules: list[tuple[int, int, str, tuple[str, ...]]] = []
    for path, (own, declared) in files.items():
        if own:
            rules.append((_depth(path), 1, path, own))
        for module, written in declared:
            inherited = (*own, *written)
            if inherited:
                for prefix in test_module_paths([(path, (module,))]):
                    rules.append((_depth(prefix), 0, prefix, inherited))
    if not rules:
        return {}
    rules.sort(key=lambda rule: rule[:2])  # outer directories first, a `mod` line before a head
    found: dict[str, tuple[str, ...]] = {}
    for path in files:
        gates: list[str] = []
        for _, _, prefix, given in rules:
            if path == prefix or (prefix.endswith("/") and path.startswith(prefix)):
                gates.extend(g for g in given if g not in gates)
        if gates:
            found[path] = tuple(gates)
    return found


def _depth(prefix: str) -> int:
    """How deep a path or directory prefix is: `a/x.rs` and `a/x/` are one module deep."""
    return posixpath.normpath(prefix.removesuffix(".rs")).count("/")
