"""Test code produces no records: by path, and by `#[cfg(test)]` / `#[test]` attributes."""

from __future__ import annotations

import re

from tree_sitter import Node

_TEST_DIRS = {"tests", "benches", "test", "testing", "fuzz"}
# `foo_test.rs`, `tests.rs`, and the helper modules only tests use: `test_utils.rs`, `test_util.rs`.
_TEST_FILE = re.compile(r"(?:^|_)tests?\.rs$|^test_utils?\.rs$")
# `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[cfg(test)]`, `#[cfg(all(test, feature = ".."))]`
_TEST_ATTRIBUTE = re.compile(r"^(?:\w+::)*(?:test|rstest|test_case|quickcheck|proptest)\b")
_CFG_TEST = re.compile(r"^cfg\s*\((?:.*[(,\s])?test\s*[,)]")
_CFG_NOT_TEST = re.compile(r"not\s*\(\s*test\s*\)")
_ITEM_TYPES = {"mod_item", "function_item", "impl_item", "trait_item", "struct_item", "enum_item"}


def is_test_path(path: str) -> bool:
    """`tests/`, `benches/`, `*_test(s).rs` and `test_util(s).rs` files hold only test code."""
    parts = path.split("/")
    return any(part in _TEST_DIRS for part in parts[:-1]) or bool(_TEST_FILE.search(parts[-1]))


def is_test_attribute(text: str) -> bool:
    """Whether the inside of `#[...]` marks test-only code."""
    text = text.strip()
    if _CFG_TEST.match(text):
        return not _CFG_NOT_TEST.search(text)
    return bool(_TEST_ATTRIBUTE.match(text))


def is_test_code(node: Node) -> bool:
    """Whether a node sits in a test module or test function (or a `#![cfg(test)]` file)."""
    current: Node | None = node
    while current is not None:
        if current.type in _ITEM_TYPES and _has_test_attribute(current):
            return True
        if current.type == "source_file":
            return _file_is_test_only(current)
        current = current.parent
    return False


def _has_test_attribute(item: Node) -> bool:
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in (
        "attribute_item",
        "line_comment",
        "block_comment",
    ):
        if sibling.type == "attribute_item" and is_test_attribute(_inner(sibling)):
            return True
        sibling = sibling.prev_named_sibling
    return False


def _file_is_test_only(root: Node) -> bool:
    for child in root.named_children:
        if child.type == "inner_attribute_item":
            if is_test_attribute(_inner(child)):
                return True
        elif child.type not in ("line_comment", "block_comment"):
            return False
    return False


def _inner(attribute_item: Node) -> str:
    for child in attribute_item.named_children:
        if child.type == "attribute":
            return (child.text or b"").decode("utf-8", errors="replace")
    return ""
