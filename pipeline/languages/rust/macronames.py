"""The type-like names a file's `macro_rules!` bodies write: a variant a macro builds
(`macro_rules! bail_x { .. => { return Err(Error::NotImplemented(..)) } }`) is built
wherever the macro is used, though no call of the index names it. Pure."""

from __future__ import annotations

import re

_MACRO_RULES = re.compile(rb"\bmacro_rules!\s*\w+\s*([{(\[])")
_CLOSING = {ord("{"): ord("}"), ord("("): ord(")"), ord("["): ord("]")}
_NAME = re.compile(rb"\b[A-Z][A-Za-z0-9_]*\b")


def macro_rules_names(source: bytes) -> tuple[str, ...]:
    """The upper-case names in the bodies of the file's `macro_rules!` definitions, sorted,
    each once (brackets counted, strings not: a bracket in a string may end a body early,
    which only leaves names out)."""
    if b"macro_rules!" not in source:
        return ()
    names: set[bytes] = set()
    for found in _MACRO_RULES.finditer(source):
        opening = source[found.start(1)]
        closing, depth, at = _CLOSING[opening], 0, found.start(1)
        while at < len(source):
            byte = source[at]
            if byte == opening:
                depth += 1
            elif byte == closing:
                depth -= 1
                if depth == 0:
                    break
            at += 1
        names.update(_NAME.findall(source, found.end(), at))
    return tuple(sorted(name.decode("ascii") for name in names))
