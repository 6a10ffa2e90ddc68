"""The type-like names a file's `macro_rules!` bodies write: a variant a macro builds
(`macro_rules! bail_x { .. => { return Err(Error::NotImplemented(..)) } }`) is built
wherever the macro is used, though no call of the index names it. Pure."""

from __future__ import annotations

import re

_MACRO_RULES = re.compile(rb"\bmacro_rules!\s*\w+\s*([{(\[])")
_BRACKET = re.compile(rb"[{}()\[\]]")
_OPENING = frozenset(b"{([")
_NAME = re.compile(rb"\b[A-Z][A-Za-z0-9_]*\b")
# A body is read up to its closing bracket, the next `macro_rules!` or this many bytes,
# whichever comes first: a file of many unclosed definitions costs its length, once.
MAX_BODY = 64_000


def macro_rules_names(source: bytes) -> tuple[str, ...]:
    """The upper-case names in the bodies of the file's `macro_rules!` definitions, sorted,
    each once (brackets counted, strings not: a bracket in a string may end a body early,
    which only leaves names out)."""
    if b"macro_rules!" not in source:
        return ()
    names: set[bytes] = set()
    starts = list(_MACRO_RULES.finditer(source))
    for k, found in enumerate(starts):
        start = found.start(1)
        limit = min(len(source), start + MAX_BODY)
        if k + 1 < len(starts):
            limit = min(limit, starts[k + 1].start())
        depth, end = 0, limit
        for bracket in _BRACKET.finditer(source, start, limit):
            depth += 1 if source[bracket.start()] in _OPENING else -1
            if depth == 0:
                end = bracket.start()
                break
        names.update(_NAME.findall(source, found.end(), end))
    return tuple(sorted(name.decode("ascii") for name in names))
