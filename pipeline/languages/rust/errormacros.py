"""A repository's own error macros: `macro_rules!` definitions that return, build or panic
with an error from the tokens they are given, so that their invocations are sites too.

polars writes 2,300 of its errors as `polars_bail!(ComputeError: "cannot ..")`,
`polars_ensure!(cond, InvalidOperation: "..")` and `polars_err!(..)`; risingwave has its
`bail_invalid_param!`. None is a macro the extractor knows by name, and all of them pass
the invocation's literal on to one it does know (`bail!`, `anyhow!`, `panic!`), to
`return Err(..)`, or to an error type's constructor. That is what is read here, from the
definition's tokens (tree-sitter parses a macro body as a flat token tree):

- a rule that returns: `return Err(..)`, or an invocation of `bail!`/`ensure!` or of
  another error macro that returns -> `bail`; one whose first fragment is an `expr`
  that the body tests with `if !$cond` -> `ensure` (the message is its 2nd argument);
- a rule that builds an error value: `anyhow!`/`format_err!`/`eyre!`, another such
  macro, `Err(..)`, or `SomeError::Variant(..)` with `format!` -> `constructor`;
- a rule that panics (`panic!`, `unreachable!`, `todo!`, `unimplemented!`) -> `panic`;

and only a rule whose error is led by one of its fragments (`bail!($($arg)*)`,
`format!($fmt, ..)`): the invocation's literal is then the message. One that writes its
own text (`panic!("activate '{}' feature", $feature)`) takes no message from it. Macros invoking one
another are settled together (polars' `polars_ensure!` -> `polars_bail!` ->
`polars_err!`). A name the extractor knows already (risingwave's own `bail!`) keeps its
built-in meaning.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from tree_sitter import Node, Tree

from pipeline.core.macros import ErrorMacros, MacroSpec
from pipeline.core.sitetypes import SiteKind
from pipeline.languages.rust.facts import CHECK_OPERANDS

# Bumped whenever what a file's definitions read as (`Rule`) changes: it keys their cache.
MACROS_VERSION = "2"
_RETURNING = frozenset(("bail", "ensure"))
_BUILDING = frozenset(("anyhow", "format_err", "eyre"))
_PANICKING = frozenset(("panic", "unreachable", "todo", "unimplemented"))
# What a rule may resolve to, strongest first: a macro with several rules is what its
# strongest one does (polars' `polars_err!` has a `const { panic!(..) }` rule that guards
# against misuse at compile time: it builds errors all the same).
_STRENGTH: tuple[SiteKind, ...] = ("ensure", "bail", "constructor", "panic")


class Rule(NamedTuple):
    """What one `pattern => body` rule of a macro does with the tokens it is given: only
    an error led by one of the rule's fragments (`$msg`, `$($arg)*`) counts (a code
    generator's `_ => unimplemented!()` arm takes nothing from its invocation)."""

    invokes: frozenset[str]  # the macros it invokes led by a fragment, by their last name
    returns_err: bool  # `return Err(..)` of a fragment
    builds_err: bool  # `Err(..)`, or `SomeError::Variant(format!(..))`, of a fragment
    ensure: bool  # its first fragment is an `expr` that the body tests with `if !$x`


def macro_rules_of(tree: Tree) -> dict[str, tuple[Rule, ...]]:
    """Every `macro_rules!` definition of a parse, by name (the last one of a name wins)."""
    found: dict[str, tuple[Rule, ...]] = {}
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "macro_definition":
            name = node.child_by_field_name("name")
            if name is not None:
                rules = [_rule(c) for c in node.named_children if c.type == "macro_rule"]
                found[(name.text or b"").decode()] = tuple(r for r in rules if r is not None)
            continue
        stack.extend(node.named_children)
    return found


def _rule(rule: Node) -> Rule | None:
    left, right = rule.child_by_field_name("left"), rule.child_by_field_name("right")
    if left is None or right is None:
        return None
    bound = _metavariables(left)
    fragments = frozenset(bound) - {"$crate"}
    tokens = list(_tokens(right))
    texts = [(t.text or b"").decode() for t in tokens]
    invokes: set[str] = set()
    returns_err = builds_err = False
    for at, (token, text) in enumerate(zip(tokens, texts, strict=True)):
        if token.type != "identifier" or at + 1 >= len(texts):
            continue
        after, tree = texts[at + 1], _tree_after(token)
        if tree is None:
            continue
        if after == "!" and _leads(tree, fragments):
            invokes.add(text)
        elif text == "Err" and after == "(" and _passes_on(tree, fragments):
            builds_err = True
            returns_err = returns_err or (at > 0 and texts[at - 1] == "return")
        elif after == "::" and "Error" in text and _passes_on(tree, fragments):
            builds_err = True  # `$crate::PolarsError::$variant(format!($fmt, ..).into())`
    ensure = bool(bound) and _is_expr(left, bound[0]) and _tested(texts, bound[0])
    return Rule(frozenset(invokes), returns_err, builds_err, ensure)


def _tree_after(token: Node) -> Node | None:
    """The token tree that `token` opens: `name ! (..)`, `Err (..)`, `Error :: $v (..)`."""
    sibling = token.next_sibling
    while sibling is not None and sibling.type in _PATH_TOKENS:
        sibling = sibling.next_sibling
    return sibling if sibling is not None and sibling.type == "token_tree" else None


def _leads(tree: Node, fragments: frozenset[str]) -> bool:
    """Whether a token tree starts with one of `fragments` (`($fmt, ..)`, `($($arg)*)`):
    what the invocation gave is the message, not an argument of the rule's own text
    (polars' `feature_gated!` panics with "activate '{}' feature" of the feature it names)."""
    inner = [c for c in tree.children[1:-1] if c.type not in ("line_comment", "block_comment")]
    if not inner:
        return False
    first = inner[0]
    if first.type == "token_repetition":
        first = next((c for c in first.children if c.type == "metavariable"), first)
    return first.type == "metavariable" and (first.text or b"").decode() in fragments


def _passes_on(tree: Node, fragments: frozenset[str]) -> bool:
    """An `Err(..)` or a variant's `(..)` that is the message (`Err($msg)`), or that holds
    an invocation that is (`Err(polars_err!($($tt)+))`, `(format!($fmt, ..).into())`)."""
    if _leads(tree, fragments):
        return True
    leaves = list(_tokens(tree))
    return any(
        leaf.type == "identifier"
        and at + 1 < len(leaves)
        and leaves[at + 1].type == "!"
        and (inner := _tree_after(leaf)) is not None
        and _leads(inner, fragments)
        for at, leaf in enumerate(leaves)
    )


_PATH_TOKENS = frozenset(("!", "::", "identifier", "metavariable"))


def _tokens(node: Node) -> Iterable[Node]:
    """The leaves of a token tree, in order (nested trees' delimiters included)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.child_count == 0:
            yield current
        else:
            stack.extend(reversed(current.children))


def _metavariables(pattern: Node) -> list[str]:
    """The fragments a rule's pattern binds, in order (`$cond`, `$tt`)."""
    return [(n.text or b"").decode() for n in _tokens(pattern) if n.type == "metavariable"]


def _is_expr(pattern: Node, name: str) -> bool:
    """Whether the pattern binds `name` as an `expr` (`$cond:expr`)."""
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node.type == "token_binding_pattern":
            bound = node.child_by_field_name("name") or (
                node.children[0] if node.children else None
            )
            kind = node.child_by_field_name("type")
            if kind is None:
                kind = next((c for c in node.children if c.type == "fragment_specifier"), None)
            if bound is not None and (bound.text or b"").decode() == name:
                return kind is not None and (kind.text or b"") == b"expr"
        stack.extend(node.children)
    return False


def _tested(texts: list[str], name: str) -> bool:
    """`if !$x` or `if !($x)` in a body's tokens."""
    for at, text in enumerate(texts[:-2]):
        if text == "if" and texts[at + 1] == "!":
            following = texts[at + 2 : at + 4]
            if following[:1] == [name] or following == ["(", name]:
                return True
    return False


def error_macros(
    definitions: Mapping[str, tuple[Rule, ...]], builtin: Iterable[str]
) -> ErrorMacros:
    """The error macros among a repository's definitions (`macro_rules_of` of its files),
    each by what its strongest rule does; names in `builtin` are left to their own meaning."""
    known = frozenset(builtin)
    kinds: dict[str, SiteKind] = {}
    changed = True
    while changed:  # a macro that invokes another is settled once that one is
        changed = False
        for name, rules in definitions.items():
            if name in known:
                continue
            found = [k for k in (_rule_kind(r, kinds) for r in rules) if k is not None]
            best = min(found, key=_STRENGTH.index) if found else None
            if best is not None and kinds.get(name) != best:
                kinds[name] = best
                changed = True
    # the message follows a check's operands, as `ensure!`'s does
    return ErrorMacros(
        {name: MacroSpec(kind, CHECK_OPERANDS.get(kind, 0)) for name, kind in sorted(kinds.items())}
    )


def _rule_kind(rule: Rule, kinds: Mapping[str, SiteKind]) -> SiteKind | None:
    invoked = {kinds.get(name) for name in rule.invokes} - {None}
    returns = (
        rule.returns_err or bool(rule.invokes & _RETURNING) or bool(invoked & {"bail", "ensure"})
    )
    if returns:
        return "ensure" if rule.ensure else "bail"
    if rule.builds_err or rule.invokes & _BUILDING or "constructor" in invoked:
        return "constructor"
    if rule.invokes & _PANICKING or "panic" in invoked:
        return "panic"
    return None
