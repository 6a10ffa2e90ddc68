"""An error type's hand-written `Display` impl: the literals its `fmt` writes are the text
of its errors, as thiserror's `#[error(..)]` attributes are (site kind `display`).

```rust
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Self::UnknownRecipe { name } => write!(f, "justfile does not contain recipe `{name}`"),
```

A `Display` impl is one of `Display` or of a trait named so (just's `ColorDisplay`, whose
`fmt` takes a color too). A type is an error type by its name (`..Error`, `..Err`) or by an `impl Error for T` in
the same file; a `Display` impl of any other type writes no error. The variant is the
pattern of the innermost arm of a `match` on `self` around the `write!`. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tree_sitter import Node

from pipeline.core.brackets import first_outside_brackets
from pipeline.languages.rust.index_items import base_name

# `Display`, `fmt::Display`, and a crate's own display trait (just's `ColorDisplay`)
_DISPLAY = re.compile(r"^(?:(?:::)?\w+::)*\w*Display$")
_ERROR_NAME = re.compile(r"(?:Error|Err)$")
_GENERICS = re.compile(r"<.*>", re.S)
# `match self: Self::UnknownRecipe { name } =>`, `match *self: Error::Io(..) =>`, `match &self: V =>`;
# a field of it too (`match &*self.kind: ..`, just's `CompileError` writes its kind's variants)
_SELF_ARM = re.compile(
    r"^match\s+[&*\s]*self(?P<field>(?:\.\w+)*)\s*:\s*(?P<pattern>.+?)\s*=>$", re.S
)
_VARIANT = re.compile(r"^(?:(?:Self|[A-Z]\w*)::)?(?P<variant>[A-Z]\w*)\s*(?:[({]|$)")


def display_owner(node: Node, source: bytes) -> str | None:
    """The error type whose `Display::fmt` holds `node`, or None (not in such a `fmt`, or
    the type is no error type)."""
    current = node.parent
    while current is not None and current.type != "function_item":
        current = current.parent
    if current is None or _text(current.child_by_field_name("name")) != "fmt":
        return None
    body = current.parent
    impl = body.parent if body is not None and body.type == "declaration_list" else None
    if impl is None or impl.type != "impl_item":
        return None
    trait = _GENERICS.sub("", _text(impl.child_by_field_name("trait")))
    if not _DISPLAY.match(trait.strip()):
        return None
    owner = base_name(_text(impl.child_by_field_name("type")))
    if not owner:
        return None
    if _ERROR_NAME.search(owner) or _implements_error(owner, source):
        return owner
    return None


def display_trait(node: Node) -> str | None:
    """The trait of the `fmt` impl that holds `node` when it is no plain `Display` (just's
    `impl ColorDisplay for Error`: that type has no `Display` of its own), else None."""
    current = node.parent
    while current is not None and current.type != "impl_item":
        current = current.parent
    trait = _GENERICS.sub("", _text(current.child_by_field_name("trait"))) if current else ""
    base = trait.strip().rsplit("::", 1)[-1]
    return base if base and base != "Display" else None


def continues_a_message(node: Node) -> bool:
    """Whether an earlier `write!` of the same arm (or of the `fmt`, with no arm) began the
    message this one continues (`write!(f, "got {} but takes ", ..)?; write!(f, "at most
    {}", ..)`): one record per message, its head's."""
    scope = node.parent
    while scope is not None and scope.type not in ("match_arm", "function_item"):
        scope = scope.parent
    if scope is None:
        return False
    stack = [scope]
    while stack:
        current = stack.pop()
        if current.start_byte >= node.start_byte:
            continue
        if current.type == "macro_invocation" and current.end_byte <= node.start_byte:
            name = current.child_by_field_name("macro")
            if _text(name).rsplit("::", 1)[-1] in ("write", "writeln") and _before(current, node):
                return True
        stack.extend(current.named_children)
    return False


def _before(earlier: Node, node: Node) -> bool:
    """Whether `earlier` runs before `node` on the same way through the code, not in another
    branch of an `if` or `match` (just's `if circle.len() == 2 { write!(f, "depends on
    itself") } else { write!(f, "has circular dependency ..") }`: two messages)."""
    current = earlier
    while current.parent is not None and not _holds(current.parent, node):
        parent = current.parent
        if parent.type in ("match_arm", "else_clause") or (
            current.type == "block" and parent.type == "if_expression"
        ):
            return False
        current = parent
    common = current.parent  # holds both: are they in two of its branches?
    return not (
        common is not None
        and common.type in ("if_expression", "match_block", "else_clause")
        and current.type in ("block", "match_arm", "else_clause", "if_expression")
    )


def _holds(outer: Node, inner: Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def display_variant(conditions: Iterable[str], *, fields: bool = True) -> str | None:
    """The variant a `Display::fmt` writes for, from its conditions' texts (the innermost
    arm of a `match` on `self`, or with `fields` on a field of it: then the variant is the
    field's enum's, whose name the text does not give); None when no such arm names one,
    or it names several (`A | B`)."""
    for text in reversed(list(conditions)):
        arm = _SELF_ARM.match(text.strip())
        if arm is None:
            continue
        if arm["field"] and not fields:
            return None
        pattern = arm["pattern"].split(" if ", 1)[0].strip()
        if first_outside_brackets(pattern, "|") >= 0:  # `A | B`: several variants
            return None
        found = _VARIANT.match(pattern)
        return found["variant"] if found else None
    return None


def _implements_error(owner: str, source: bytes) -> bool:
    pattern = rb"impl(?:\s*<[^>]*>)?\s+(?:(?:::)?std::)?(?:error::)?Error\s+for\s+" + re.escape(
        owner.encode()
    )
    return re.search(pattern + rb"\b", source) is not None


def _text(node: Node | None) -> str:
    return (node.text or b"").decode("utf-8", errors="replace") if node is not None else ""
