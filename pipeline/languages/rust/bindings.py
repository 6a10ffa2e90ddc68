"""A `match` arm's pattern as a test: the names it binds made `_`. Pure.

`match self.tokens { TokenMap::HashMap(ref mut map) => .., _ => panic!(..) }` is taken
when `matches!(token_set.tokens, TokenMap::HashMap(_))` does not hold; written with the
arm's own `ref mut map`, the check a reader pastes does not compile on a place behind a
shared reference (lance's `TokenSet::add`, reading 232), and a by-value `Some(name)`
moves out of it. A test needs no name: each binding becomes `_` (`name @ P` becomes `P`, a
struct's shorthand field `val` becomes `val: _`), except a name the arm's guard reads
(`Some(n) if n > 200`). A binding is told from a constant or a unit variant as rustc
tells them apart for its lint: by a lowercase first letter. A pattern that does not parse
is kept as written.
"""

from __future__ import annotations

from functools import lru_cache

from tree_sitter import Node

from pipeline.languages.rust.codecheck import rust_parser
from pipeline.languages.rust.index_items import text_of

_HEAD = b"fn __errdoc_pattern() { match __v { "
_TAIL = b" => {} } }"
# Where an `identifier` child names no binding: a path's parts, a struct's or a tuple
# struct's type, a field's name, a range's bounds, a macro's name.
_NO_BINDING_FIELDS = frozenset({"type", "path", "name", "left", "right", "macro"})
_NOT_PATTERNS = frozenset({"scoped_identifier", "scoped_type_identifier", "macro_invocation"})


@lru_cache(maxsize=1 << 12)
def without_bindings(pattern: str) -> str:
    """`pattern` with each name it binds written `_` (guarded names kept)."""
    if not any(c.islower() or c == "_" for c in pattern):
        return pattern  # `Kind::A | Kind::B`, `None`: no lowercase name to bind
    source = _HEAD + pattern.encode() + _TAIL
    tree = rust_parser().parse(source)
    if tree.root_node.has_error:
        return pattern
    arm = _first(tree.root_node, "match_pattern")
    if arm is None:
        return pattern
    guard = arm.child_by_field_name("condition")
    guarded = _names(guard) if guard is not None else frozenset()
    edits: list[tuple[int, int, str]] = []
    for child in arm.children:
        if child.type == "if" or child == guard:
            break
        _erase(child, guarded, edits)
    if not edits:
        return pattern
    text = source
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement.encode() + text[end:]
    rewritten = text[len(_HEAD) : len(text) - len(_TAIL)].decode()
    check = rust_parser().parse(_HEAD + rewritten.encode() + _TAIL)
    return pattern if check.root_node.has_error else rewritten


def _erase(node: Node, guarded: frozenset[str], edits: list[tuple[int, int, str]]) -> None:
    """Record the edits that make `node`'s bindings `_`."""
    kind = node.type
    if kind in _NOT_PATTERNS:
        return
    if kind == "identifier":
        if _binding(node, guarded):
            edits.append((node.start_byte, node.end_byte, "_"))
        return
    if kind in ("ref_pattern", "mut_pattern"):
        named = _first(node, "identifier")
        if named is not None and _binding(named, guarded):
            edits.append((node.start_byte, node.end_byte, "_"))
        return
    if kind == "captured_pattern":  # `rest @ ..`, `n @ 1..=3`
        name = node.named_children[0] if node.named_child_count else None
        inner = node.named_children[-1] if node.named_child_count > 1 else None
        if name is not None and inner is not None and _binding(name, guarded):
            edits.append((name.start_byte, inner.start_byte, ""))
        if inner is not None:
            _erase(inner, guarded, edits)
        return
    if kind == "struct_pattern" and _only_bindings(node, guarded):
        # `ResolverStatus::Pending { locks, memory_quota, .. }`: `Pending { .. }`
        written = node.child_by_field_name("type")
        if written is not None:
            edits.append((node.start_byte, node.end_byte, f"{text_of(written)} {{ .. }}"))
            return
    if kind == "field_pattern":
        short = _first_child(node, "shorthand_field_identifier")
        if short is not None:  # `Value::String { val, .. }`, `{ ref mut b }`
            if _lowercase(short) and text_of(short) not in guarded:
                edits.append((node.start_byte, node.end_byte, f"{text_of(short)}: _"))
            return
        inner = node.child_by_field_name("pattern")
        if inner is not None:
            _erase(inner, guarded, edits)
        return
    for index, child in enumerate(node.children):
        if node.field_name_for_child(index) in _NO_BINDING_FIELDS:
            continue
        _erase(child, guarded, edits)


def _only_bindings(node: Node, guarded: frozenset[str]) -> bool:
    """A struct pattern that tests only its type: each field binds a name (`..` or not)."""
    fields = [c for c in node.named_children if c.type == "field_pattern"]
    return all(_binds_only(field, guarded) for field in fields)


def _binds_only(field: Node, guarded: frozenset[str]) -> bool:
    short = _first_child(field, "shorthand_field_identifier")
    if short is not None:
        return _lowercase(short) and text_of(short) not in guarded
    inner = field.child_by_field_name("pattern")
    while inner is not None and inner.type in ("ref_pattern", "mut_pattern"):
        inner = _first(inner, "identifier")
    return inner is not None and _binding(inner, guarded)


def _binding(node: Node, guarded: frozenset[str]) -> bool:
    return node.type == "identifier" and _lowercase(node) and text_of(node) not in guarded


def _lowercase(node: Node) -> bool:
    text = text_of(node).removeprefix("r#")
    return bool(text) and (text[0].islower() or (text[0] == "_" and len(text) > 1))


def _names(node: Node) -> frozenset[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            found.add(text_of(current))
        stack.extend(current.children)
    return frozenset(found)


def _first(node: Node, kind: str) -> Node | None:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            return current
        stack.extend(reversed(current.children))
    return None


def _first_child(node: Node, kind: str) -> Node | None:
    return next((c for c in node.children if c.type == kind), None)
