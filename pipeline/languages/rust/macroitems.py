"""Items a macro wraps: `cfg_rt! { pub fn spawn(..) { .. } }` (tokio), `ffi_fn! { fn .. }`
(minijinja). tree-sitter leaves a macro's body as flat tokens, so the fns inside were no
items: no definitions in the index, no enclosing fn for a site ("the top-level code of
`clock.rs`", tokio's `time::pause`), no caller paths through them.

A macro invoked where an item goes (in a file, a `mod`, an `impl` or a `trait` block) whose
body parses as items, with no error, is read as those items (a `cfg_if!`'s or `cfg_select!`'s
each group that does, `item_groups`): almost every such macro emits
what it wraps (behind a `#[cfg]`, with an attribute or a wrapper fn added), and a body that
is a DSL (typst's `cast!`, `lazy_static!`'s `static ref`, `bitflags!`) does not parse so.
The body is parsed with the headers and closing braces of the blocks around the macro
(`impl Runtime {` .. `}`), so its fns are methods of the same type, in the same module, as
in the expanded code; positions are the file's. Nested such macros are read too, up to
`MAX_DEPTH`. Not those in test code (their items are not indexed). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node, Parser, Point, Range, Tree

from pipeline.languages.rust.index_items import in_test

MAX_DEPTH = 3
_CONTAINERS = ("mod_item", "impl_item", "trait_item")
# What a body must hold to be read as items (not only comments or attributes)
_ITEMS = frozenset(
    ("function_item", "impl_item", "trait_item", "mod_item", "struct_item", "enum_item",
     "use_declaration", "const_item", "static_item", "type_item", "function_signature_item",
     "macro_invocation", "macro_definition")
)  # fmt: skip


@dataclass(frozen=True)
class MacroItems:
    """A macro's body parsed as items: `tree` holds them (inside the blocks around the
    macro, re-created from their headers), `start`/`end` the body's bytes."""

    tree: Tree
    start: int
    end: int

    def owns(self, node: Node) -> bool:
        """Whether `node` is of the body (not one of the blocks re-created around it)."""
        return self.start <= node.start_byte and node.end_byte <= self.end

    def holds(self, other: MacroItems) -> bool:
        """Whether `other` is a macro's body inside this one's."""
        return self.start <= other.start and other.end <= self.end


def may_wrap_items(source: bytes) -> bool:
    """Whether `source` may invoke a macro with a braced body (`cfg_rt! {`): a cheap test."""
    return b"! {" in source or b"!{" in source


def item_macros(root: Node) -> Iterator[tuple[Node, Node]]:
    """Each macro invoked at item level under `root` (not in test code) with its token
    tree, in file order: in the file and in `mod`, `impl` and `trait` blocks, not in fns."""
    stack = [root]
    while stack:
        node = stack.pop()
        for child in reversed(node.named_children):
            kind = child.type
            if kind in _CONTAINERS:
                body = child.child_by_field_name("body")
                if body is not None and body.type == "declaration_list":
                    stack.append(body)
            elif kind == "macro_invocation":
                tree = child.named_children[-1] if child.named_child_count else None
                if tree is not None and tree.type == "token_tree" and tree.child_count > 2:
                    yield child, tree


def macro_items(tree: Tree, source: bytes, parser: Parser, depth: int = 1) -> list[MacroItems]:
    """The bodies of `tree`'s item-level macros that parse as items, nested ones too."""
    found: list[MacroItems] = []
    for macro, token_tree in item_macros(tree.root_node):
        start, end = token_tree.start_byte + 1, token_tree.end_byte - 1
        if b"\n" not in source[start:end] and b";" not in source[start:end]:
            continue  # `impl_x!(Foo);`, `define!{A, B}`: a list, never items
        if in_test(macro):
            continue
        for parsed, start, end in item_groups(parser, source, macro, token_tree):
            found.append(MacroItems(parsed, start, end))
            if depth < MAX_DEPTH:
                found += macro_items(parsed, source, parser, depth + 1)
    return found


# Macros that pick one of several groups of items by `cfg`: `cfg_if! { if #[cfg(unix)] {
# .. } else { .. } }` (the cfg-if crate), `cfg_select! { feature = "full" => { .. } }` (std's,
# and lemmy's error.rs, whose `LemmyResult` and `LemmyError` impls are all in one). Their
# body is no list of items, each group of it is.
_CFG_DISPATCH = frozenset(("cfg_if", "cfg_select", "cfg_match"))


# a group's `cfg` that holds only in tests (not `not(test)`): vector's `if #[cfg(any(test,
# feature = "test"))] { .. }` holds its test implementation of telemetry
_TEST_ONLY = re.compile(rb"\btest\b")
_NOT_TEST = re.compile(rb"\bnot\s*\(\s*test\b")


def item_groups(
    parser: Parser, source: bytes, macro: Node, token_tree: Node, every: bool = False
) -> list[tuple[Tree, int, int]]:
    """The items a macro's body wraps, as (parse, first byte, end byte) of each part that
    parses as items: the whole body, or each `{ .. }` group of a `cfg` dispatcher's
    (`_CFG_DISPATCH`) that does (with `every`, all of them or none: a scan reads a group
    that does not parse as the tokens of the whole); none when neither."""
    whole = parse_items(parser, source, macro, token_tree)
    if whole is not None:
        return [(whole, token_tree.start_byte + 1, token_tree.end_byte - 1)]
    name = macro.child_by_field_name("macro")
    written = (name.text or b"").decode("utf-8", "replace") if name is not None else ""
    if written.rsplit("::", 1)[-1] not in _CFG_DISPATCH:
        return []
    groups = []
    after = token_tree.start_byte + 1  # where the tokens of the next group's condition start
    for group in token_tree.named_children:
        if group.type != "token_tree" or source[group.start_byte : group.start_byte + 1] != b"{":
            continue
        condition, after = source[after : group.start_byte], group.end_byte
        if not source[group.start_byte + 1 : group.end_byte - 1].strip():
            continue  # `_ => {}`: no items, none missed
        if _TEST_ONLY.search(condition) and not _NOT_TEST.search(condition):
            continue  # `if #[cfg(any(test, feature = "test"))] { .. }`: test code
        parsed = parse_items(parser, source, macro, group)
        if parsed is not None:
            groups.append((parsed, group.start_byte + 1, group.end_byte - 1))
        elif every:
            return []
    return groups


def parse_items(parser: Parser, source: bytes, macro: Node, token_tree: Node) -> Tree | None:
    """The body of `token_tree` parsed as items (`_parse_wrapped`), or None when that parse
    shows an error or no item of the kinds read sits in the body."""
    parsed = _parse_wrapped(parser, source, macro, token_tree)
    start, end = token_tree.start_byte + 1, token_tree.end_byte - 1
    root = parsed.root_node
    return None if root.has_error or not _holds_items(root, start, end) else parsed


def _parse_wrapped(parser: Parser, source: bytes, macro: Node, token_tree: Node) -> Tree:
    """The body of `token_tree` parsed inside the headers and closing braces of the blocks
    around `macro` (`mod a {`, `impl T {` .. `}`), positions those of the file."""
    heads: list[Range] = []
    tails: list[Range] = []
    block = macro.parent
    while block is not None and block.type == "declaration_list":
        container = block.parent
        if container is None:
            break
        heads.append(
            Range(
                container.start_point, _after(block.start_point),
                container.start_byte, block.start_byte + 1,
            )
        )  # fmt: skip
        tails.append(
            Range(_before(block.end_point), container.end_point, block.end_byte - 1,
                  container.end_byte)
        )  # fmt: skip
        block = container.parent
    start, end = token_tree.start_byte + 1, token_tree.end_byte - 1
    body = Range(_after(token_tree.start_point), _before(token_tree.end_point), start, end)
    ranges = [*reversed(heads), body, *tails]
    parser.included_ranges = ranges
    try:
        return parser.parse(source)
    finally:
        parser.included_ranges = [_WHOLE]


def _holds_items(root: Node, start: int, end: int) -> bool:
    """Whether an item of the kinds read sits in the body (`start`..`end`), at any depth of
    the blocks re-created around it."""
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if start <= child.start_byte and child.end_byte <= end:
                if child.type in _ITEMS:
                    return True
            elif child.start_byte < start and end < child.end_byte:
                stack.append(child)  # a re-created block: its body holds the macro's
    return False


_WHOLE = Range(Point(0, 0), Point(0xFFFFFFFF, 0xFFFFFFFF), 0, 0xFFFFFFFF)


def _after(point: Point) -> Point:
    return Point(point.row, point.column + 1)


def _before(point: Point) -> Point:
    return Point(point.row, max(point.column - 1, 0))
