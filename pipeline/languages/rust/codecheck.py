"""Whether a snippet of text is valid Rust: parsed by tree-sitter-rust in a wrapper that fits it."""

from __future__ import annotations

from functools import cache, lru_cache

import tree_sitter_rust
from tree_sitter import Language, Node, Parser

_LANGUAGE = Language(tree_sitter_rust.language())
# A snippet is tried as items (a fn, a `use`), then as the statements of a fn body.
_WRAPPERS = (
    ("", ""),
    ("fn __errdoc_wrapper() {\n", "\n}\n"),
)


@cache
def rust_parser() -> Parser:
    """A parser of this module's own (no included ranges ever set on it)."""
    return Parser(_LANGUAGE)


# Memoized: a run checks each record's code fields when it builds the record, and may
# check them earlier (while its index runs: `records.check_code`); 5,757 distinct texts,
# 1 MB, on risingwave.
@lru_cache(maxsize=1 << 15)
def parses_as_code(text: str) -> bool:
    """True when `text` parses, with no error or missing node, as items or as a fn body."""
    if not text.strip() or "\u2026" in text:
        return False
    for head, tail in _WRAPPERS:
        tree = rust_parser().parse(f"{head}{text}{tail}".encode())
        if not _broken(tree.root_node) and (head or _items_only(tree.root_node)):
            return True
    return False


def _broken(root: Node) -> bool:
    """A parse error, or a `macro_rules!` metavariable (`$ty`): a macro's body is no code a
    reader can paste (tree-sitter-rust parses `$x` as an expression, to read macro bodies)."""
    return root.has_error or (b"$" in (root.text or b"") and _has_metavariable(root))


def _has_metavariable(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "metavariable":
            return True
        stack.extend(current.children)
    return False


def _items_only(root: Node) -> bool:
    """At top level, only items: a bare expression statement is not a valid Rust file."""
    return all(
        child.type != "expression_statement" or child.named_child_count == 0
        for child in root.named_children
    )
