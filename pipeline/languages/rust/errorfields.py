"""What an error type's fields say of its causes, read from its `#[error(..)]` (thiserror) or
`#[snafu(display(..))]` item: the field its `source()` returns, and the fields only its
derived `Debug` prints.

thiserror's `source()` is the field marked `#[source]` or `#[from]`, or else the one named
`source`; snafu's is the field named `source` (unless `#[snafu(source(false))]`) or one
marked `#[snafu(source)]`. A variant with none keeps no cause: "log it with its causes"
told of it is false (tikv's `ErrorWrapper(String)`, reading 326).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from pipeline.languages.rust.index_items import attributes_before, text_of

# `#[source]`, `#[from]`, `#[snafu(source)]`, `#[snafu(source(from(..)))]`
_MARKS_SOURCE = re.compile(
    r"#\[\s*(?:source|from)\s*\]|#\[\s*snafu\s*\(.*\bsource\b(?!\s*\(\s*false)", re.S
)
_NOT_SOURCE = re.compile(r"\bsource\s*\(\s*false\s*\)")
_FIELD_LISTS = ("field_declaration_list", "ordered_field_declaration_list")
# `#[derive(Debug, ..)]`, `#[derive(thiserror::Error, Debug)]`
_DERIVES_DEBUG = re.compile(r"#\[\s*derive\s*\([^)]*\bDebug\b")
# a derive that writes `source()` from the fields: thiserror's (err-derive's) `Error`, `Snafu`
_DERIVES_SOURCE = re.compile(r"#\[\s*derive\s*\([^)]*\b(?:Error|Snafu)\b")


def cause_field(item: Node, owner: Node | None) -> str | None:
    """The name of the field `item`'s (a variant's, a struct's) `source()` returns (a tuple
    field by its position, `0`); "" when no field is one; None when the code does not say:
    an owner (the enum, or the struct itself) that derives neither `Error` nor `Snafu` may
    write its own `source()`, and an item whose body is not a field list is not read. (An
    `#[error(transparent)]`, which forwards another error's `source()`, has no text of its
    own: no site asks.)"""
    if owner is None or not any(_DERIVES_SOURCE.search(a) for a in _attributes_of(owner)):
        return None
    fields = _fields_with_attributes(item)
    if fields is None:
        return None
    for name, attributes in fields:
        if any(_MARKS_SOURCE.search(a) for a in attributes):
            return name
    for name, attributes in fields:
        if name == "source" and not any(_NOT_SOURCE.search(a) for a in attributes):
            return name
    return ""


def debug_only_fields(item: Node, owner: Node | None, attribute: str) -> tuple[str, ...]:
    """The fields of `item` that its message (`attribute`'s text) does not name and its
    owner's (an enum's, or the struct's own) derived `Debug` prints; () when `Debug` is not
    derived (a hand-written one may print anything)."""
    if owner is None or not any(_DERIVES_DEBUG.search(a) for a in _attributes_of(owner)):
        return ()
    fields = _fields_with_attributes(item) or []
    return tuple(
        name
        for name, _ in fields
        if not re.search(rf"(?<!\w){re.escape(name.removeprefix('r#'))}(?!\w)", attribute)
    )


def _fields_with_attributes(item: Node) -> list[tuple[str, list[str]]] | None:
    """Each field of `item` with the attributes written before it; [] for a unit variant or
    struct; None for a body of another kind."""
    body = item.child_by_field_name("body")
    if body is None:
        return [] if item.type in ("enum_variant", "struct_item") else None
    if body.type not in _FIELD_LISTS:
        return None
    found: list[tuple[str, list[str]]] = []
    pending: list[str] = []
    for child in body.named_children:
        if child.type == "attribute_item":
            pending.append(text_of(child))
        elif child.type in ("line_comment", "block_comment", "visibility_modifier"):
            continue
        elif body.type == "field_declaration_list":
            name = child.child_by_field_name("name")
            if child.type == "field_declaration" and name is not None:
                found.append((text_of(name), pending))
            pending = []
        else:  # a tuple's field: its type, named by its position
            found.append((str(len(found)), pending))
            pending = []
    return found


def _attributes_of(item: Node) -> list[str]:
    """The text of each attribute written before `item`."""
    return [text_of(a) for a in attributes_before(item)]
