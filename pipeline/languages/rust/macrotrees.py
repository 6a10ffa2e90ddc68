"""Sites inside macro token trees (`tokio::select!` arms, `fail_point!` closures, `println!`
arguments, `macro_rules!` bodies): tree-sitter leaves those as flat tokens, so each such
token tree that may hold a site is parsed again on its own, positions kept. Pure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache

from tree_sitter import Language, Node, Parser, Point, Query, QueryCursor, Range, Tree

from pipeline.core.sitetypes import MACRO_INVOCATION, MACRO_RULES, Site
from pipeline.languages.rust.facts import site_facts
from pipeline.languages.rust.index_items import text_of
from pipeline.languages.rust.macroitems import item_groups
from pipeline.languages.rust.regions import parse_ranges, site_hints
from pipeline.languages.rust.snippets import enclosing_call, initializer_item
from pipeline.languages.rust.testcode import is_test_code

MAX_DEPTH = 3  # a select! in a select! in a macro_rules! body; deeper is not worth a parse
_TREES = """
(macro_invocation macro: (_) @name (token_tree) @tree) @outer
(macro_rule right: (token_tree) @tree) @outer
"""


@cache
def _query(language: Language) -> Query:
    return Query(language, _TREES)


def macro_tree_sites(
    tree: Tree,
    source: bytes,
    parser: Parser,
    skip: frozenset[str],
    scan: Callable[[Tree], list[Site]],
) -> list[Site]:
    """The sites of the token trees of `tree`'s macros (not those named in `skip`)."""
    found: list[Site] = []
    for _, captures in QueryCursor(_query(parser.language)).matches(tree.root_node):
        outer, token_tree = captures["outer"][0], captures["tree"][0]
        names = captures.get("name")
        name = (names[0].text or b"").decode().rsplit("::", 1)[-1] if names else ""
        if name in skip or token_tree.end_byte - token_tree.start_byte < 4:
            continue
        inner = source[token_tree.start_byte + 1 : token_tree.end_byte - 1]
        if not site_hints(inner) or is_test_code(outer):
            continue
        groups = _as_items(parser, source, outer, token_tree)
        if groups:  # a fn's sites, with the facts of their own fn (`macroitems`)
            for items in groups:
                found += scan(items)
            continue
        sub = parse_ranges(parser, source, [_inside(token_tree)])
        outer_facts = site_facts(outer, source)
        failpoint = _failpoint_name(token_tree) if name == "fail_point" else None
        for site in scan(sub):
            facts = replace(
                outer_facts,
                conditions=(*outer_facts.conditions, *site.facts.conditions),
                receiver=site.facts.receiver,
                callee=site.facts.callee,
                snippet=site.facts.snippet,
                ignored_error=site.facts.ignored_error,  # its own closure, in the tree
                fields=site.facts.fields,  # its own variant's
                call=enclosing_call(outer),
                item=_macro_rules(outer) or initializer_item(outer) or _item_level(outer),
                failpoint=failpoint or site.facts.failpoint,
            )
            found.append(replace(site, facts=facts))
    return found


def _failpoint_name(token_tree: Node) -> str:
    """The name a `fail_point!("name", |_| ..)` gives its failpoint: its first argument, the
    quotes off a literal (a const's name as written)."""
    first = next((c for c in token_tree.children if c.type not in ("(", "[", "{")), None)
    written = text_of(first) if first is not None else ""
    if first is not None and first.type == "string_literal":
        return written.strip('"')
    return written or "?"


def _as_items(parser: Parser, source: bytes, outer: Node, token_tree: Node) -> list[Tree]:
    """The macro's body parsed as the items it wraps (`macroitems.item_groups`: the whole,
    or each group of a `cfg_if!`), when it is invoked where an item goes and parses so."""
    if not _at_item_level(outer):
        return []
    return [tree for tree, _, _ in item_groups(parser, source, outer, token_tree, every=True)]


def _at_item_level(outer: Node) -> bool:
    """Whether `outer` is a macro invoked where an item goes (a file's or a module's, an
    impl's or a trait's items)."""
    parent = outer.parent
    return (
        outer.type == "macro_invocation"
        and parent is not None
        and parent.type in ("source_file", "declaration_list")
    )


def _macro_rules(outer: Node) -> str | None:
    """`macro_rules! name` for a rule of that macro's body (`MACRO_RULES` + its name)."""
    definition = outer.parent if outer.type == "macro_rule" else None
    name = definition.child_by_field_name("name") if definition is not None else None
    return f"{MACRO_RULES}{(name.text or b'').decode()}" if name is not None else None


def _item_level(outer: Node) -> str | None:
    """`invocation cast! { Binding` for a macro invoked where an item goes, whose body is no
    items (`MACRO_INVOCATION`): what the site runs in is the code the macro generates, not
    "the top-level code" of its file (typst's `cast!`, reading 190). Its head: the macro's
    name and the body's first token, when that is a type's name."""
    if not _at_item_level(outer):
        return None
    name = text_of(outer.child_by_field_name("macro")).strip()
    tree = next((c for c in outer.named_children if c.type == "token_tree"), None)
    first = tree.named_children[0] if tree is not None and tree.named_children else None
    head = text_of(first) if first is not None and first.type == "identifier" else ""
    head = head if head[:1].isupper() else ""  # a type's name, not a field's (`name: ..`)
    opened = (text_of(tree) or " ")[:1] if tree is not None else "{"
    return f"{MACRO_INVOCATION}{name}! {opened} {head}".rstrip() if name else None


def _inside(token_tree: Node) -> Range:
    start, end = token_tree.start_point, token_tree.end_point
    return Range(
        Point(start.row, start.column + 1),
        Point(end.row, max(end.column - 1, 0)),
        token_tree.start_byte + 1,
        token_tree.end_byte - 1,
    )
