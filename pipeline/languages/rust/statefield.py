"""The field of `self` a site's conditions read, alone, and what its impl does with it. Pure.

pingora's `HttpCache` keeps a `phase` that its methods move on (`self.phase =
CachePhase::CacheKey` in `set_cache_key`, `CachePhase::Miss` in `set_miss`, ..), and each
method panics on a phase it does not handle (`_ => panic!("wrong phase {:?}", self.phase)`):
the panic is the order of the calls made before it, not a value passed (reading 201). When
every condition on the way to a site reads one field of `self` and nothing else, the scan
keeps that field, the fns of the impl that assign it (with the value, when it is short) and
the `pub` fn that returns it, if one does (`pub fn phase(&self) -> CachePhase`)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import NamedTuple

from tree_sitter import Node

from pipeline.core.sitetypes import Condition

MAX_SETTERS = 12
MAX_VALUE_CHARS = 60
# the conditions whose text is a test of values (a closure's or loop's is not)
_TESTS = frozenset(("if", "else", "match_arm", "let_else", "if_let", "check_failed", "exit"))
_STRING = re.compile(r'(?:\bb)?"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)\'')
_SELF_FIELD = re.compile(r"\bself\s*\.\s*([a-z_]\w*)\b(?!\s*\()")
# a read of `self.f`, with the methods and fields after it: `self.f.as_ref().is_some()`
_SELF_READ = re.compile(r"\bself\s*\.\s*[a-z_]\w*(?:\s*\.\s*\w+(?:\s*\(\s*\))?)*")
# a plain name that is neither a call, a path, a macro, nor a keyword
_NAME = re.compile(r"(?<![\w:.'])([a-z_]\w*)\b(?!\s*[(:!])")
_NOT_NAMES = frozenset(("true", "false", "as", "mut", "ref", "_", "matches", "self"))
_SHORT_VALUE = re.compile(r"[\w:&.]+(?:\([^(){};\n]*\))?|\"[^\"\n]*\"|-?\d[\w.]*")
_FN_HEAD = re.compile(rb"\bfn\s+([A-Za-z_]\w*)")


class FieldState(NamedTuple):
    """A field of `self` that the site's conditions read alone."""

    field: str
    # a `pub fn x(&self)` of the impl whose body is the field: "x", or "&x" when it returns
    # a reference to it (`&self.tabs`), which a comparison cannot take as the field's value
    getter: str | None
    setters: tuple[tuple[str, str], ...]  # (fn, value assigned, "" when not short)


def field_state(
    conditions: Sequence[Condition], impl: Node | None, source: bytes
) -> FieldState | None:
    """The field of `self` every condition reads, when they read nothing else (None when
    one reads a parameter, a local or another field, or the site is in no impl)."""
    if impl is None or impl.type != "impl_item" or not conditions:
        return None
    fields: set[str] = set()
    for condition in conditions:
        if condition.kind not in _TESTS:
            return None
        tested = _tested_part(condition)
        read = set(_SELF_FIELD.findall(tested))
        rest = _SELF_READ.sub(" ", tested)
        if any(n not in _NOT_NAMES for n in _NAME.findall(rest)):
            return None  # a parameter, a local, a binding of the pattern
        fields |= read
    if len(fields) != 1:
        return None
    field = fields.pop()
    body = source[impl.start_byte : impl.end_byte]
    return FieldState(field, _getter(body, field), _setters(body, field))


def _tested_part(condition: Condition) -> str:
    """The part of a condition's text that holds values: a match arm's scrutinee (its
    pattern binds names of its own), an `if let`'s or a `let .. else`'s value."""
    text = _STRING.sub('""', condition.text)
    if condition.kind == "match_arm":
        head, found, _pattern = text.partition(": ")
        return head.removeprefix("match ") if found and head.startswith("match ") else ""
    if condition.kind in ("if_let", "let_else"):
        _pattern, found, value = text.partition(" = ")
        return value.removesuffix(" did not match") if found else ""
    return text


def _setters(body: bytes, field: str) -> tuple[tuple[str, str], ...]:
    """The fns of the impl that assign `self.<field>`, in order, with the short values they
    write (`Phase::Hit | Phase::Stale`; "" when none is short)."""
    assignment = re.compile(rb"\bself\s*\.\s*" + re.escape(field.encode()) + rb"\s*=(?!=)\s*")
    heads = [(head.start(), head.group(1).decode()) for head in _FN_HEAD.finditer(body)]
    found: dict[str, str] = {}
    for match in assignment.finditer(body):
        at = bisect_right(heads, (match.start(),)) - 1  # the last fn head above it
        if at < 0:
            continue
        fn = heads[at][1]
        end = body.find(b";", match.end())
        value = body[match.end() : end if end >= 0 else match.end()].decode(errors="replace")
        value = " ".join(value.split())
        short = len(value) <= MAX_VALUE_CHARS and _SHORT_VALUE.fullmatch(value)
        found.setdefault(fn, "")
        if short and value not in found[fn].split(" | "):  # each value it writes, once
            found[fn] = f"{found[fn]} | {value}" if found[fn] else value
    return tuple(list(found.items())[:MAX_SETTERS])


def _getter(body: bytes, field: str) -> str | None:
    """A `pub fn name(&self) -> T { self.field }` of the impl (`self.field.clone()` too;
    `&self.field` as "&name"): what code outside the module reads the field with."""
    name = re.escape(field.encode())
    getter = re.compile(
        rb"\bpub\s+(?:const\s+)?fn\s+([A-Za-z_]\w*)\s*\(\s*&\s*self\s*\)\s*->[^{;]*\{\s*"
        rb"(&?)\s*self\s*\.\s*" + name + rb"(?:\s*\.\s*clone\s*\(\s*\))?\s*\}"
    )
    found = getter.search(body)
    return (found.group(2) + found.group(1)).decode() if found else None
