"""How often a file writes some names inside a `match` arm's pattern: there a variant's name
is matched, never built. A conversion of an error enum to another type (surrealdb's
`to_types.rs`, `| DtAlreadyExists { .. } => ..`, greptime's `status_code` match) names
every variant, the dead ones too (reading 313: a variant nothing builds read as one a
user meets)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

from tree_sitter import Node

from pipeline.languages.rust.index_items import text_of
from pipeline.languages.rust.sites import parser

# The leaves a pattern writes a name in: `E::V(..)`, `V { .. }`, `E::V`, a bare `V`
_NAME_LEAVES = ("identifier", "type_identifier")


def pattern_mentions(source: bytes, words: Collection[str]) -> Counter[str]:
    """How many times each of `words` is written in the patterns of the file's `match` arms
    (a guard's `if ..` left out: it may build one). The whole-word count `git grep` gives
    holds these too; what is left of it is written elsewhere."""
    wanted = set(words)
    found: Counter[str] = Counter()
    if not wanted or not any(word.encode() in source for word in wanted):
        return found
    tree = parser().parse(source)
    stack: list[Node] = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "match_pattern":
            _count_names(node, wanted, found)
            continue
        stack.extend(node.named_children)
    return found


def _count_names(pattern: Node, wanted: set[str], found: Counter[str]) -> None:
    guard = pattern.child_by_field_name("condition")
    stack = [c for c in pattern.named_children if guard is None or c != guard]
    while stack:
        node = stack.pop()
        if node.type in _NAME_LEAVES:
            name = text_of(node)
            if name in wanted:
                found[name] += 1
        else:
            stack.extend(node.named_children)
