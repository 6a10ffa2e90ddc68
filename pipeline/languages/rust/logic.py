"""A site's condition chain as one boolean expression, negated and simplified: `validationCode`.

The error is produced when every step of the chain holds (`if` true, `else` false, a
`let` pattern matched or not, a `match` arm taken, an earlier `ensure!` passed, the
failed check false). The check that avoids it is the negation of that conjunction,
pushed inward by De Morgan; a `let` pattern becomes `.is_some()`/`.is_ok()`/... or
`matches!`. A step that cannot be written as a test of values in scope (a `for` loop
element, a wildcard arm, a name a pattern binds) makes the whole check None: a check
that is wrong in some state is worse than none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from tree_sitter import Node

from pipeline.core.brackets import first_outside_brackets, split_outside_brackets
from pipeline.core.sitetypes import Condition
from pipeline.languages.rust.bindings import without_bindings
from pipeline.languages.rust.codecheck import parses_as_code, rust_parser
from pipeline.languages.rust.purity import only_reads


@dataclass(frozen=True, slots=True)
class Atom:
    """A test written as Rust text; `primary` when `!` can prefix it without parentheses."""

    text: str
    primary: bool


@dataclass(frozen=True, slots=True)
class Not:
    operand: Expr


@dataclass(frozen=True, slots=True)
class Junction:
    """`&&` (all=True) or `||` of two or more operands."""

    all: bool
    operands: tuple[Expr, ...]


Expr = Atom | Not | Junction


class Unknown(Exception):
    """A step that is no test of values in scope."""


_PRIMARY = {
    "identifier", "call_expression", "field_expression", "macro_invocation", "index_expression",
    "parenthesized_expression", "boolean_literal", "scoped_identifier", "try_expression",
    "await_expression", "unary_expression", "self", "generic_function",
}  # fmt: skip
_FLIP = {"==": "!=", "!=": "=="}
_PAIRS = {"is_some": "is_none", "is_ok": "is_err", "is_none": "is_some", "is_err": "is_ok"}
_PATTERN_TESTS = {"Some": "is_some", "Ok": "is_ok", "Err": "is_err"}
# a name a pattern binds, whatever the value (not the literal `true` or `false`: tikv's `let
# Some(true) = self.titan.enabled` read as `.is_some()`, reading 181)
_SIMPLE_BINDING = re.compile(r"^(?:mut\s+)?(?:ref\s+)?(?!(?:true|false)$)(?:_\w*|[a-z]\w*)$")
_WORD = re.compile(r"[A-Za-z_]\w*")
_BOUND = re.compile(r"(?<![:\w.])([a-z_]\w*)\b(?!\s*(?:\(|::|\{|!))")
_NOT_NAMES = {"ref", "mut", "_", "if", "in", "true", "false"}
# `x was None (ok_or_else)`, `x was Err (expect)`: a receiver whose kind of value is known;
# `env::var("X") was Ok (map)`: the closure that got its value.
_CLOSURE_NONE = re.compile(r"^(.*) was (None|Err|Ok|Some) \((\w+)\)$")
_OUTCOME_TESTS = {"None": "is_none", "Err": "is_err", "Ok": "is_ok", "Some": "is_some"}


def validation_code(conditions: Sequence[Condition]) -> str | None:
    """`let ok = <the negated chain>;`, or None when a step is no test of values in scope."""
    try:
        steps = [step for c in conditions if (step := _step(c)) is not None]
        _no_bound_names(conditions)
    except Unknown:
        return None
    if not steps:
        return None
    check = render(named_tests(merged(push_not(Not(_all(steps))))))
    code = f"let ok = {check};"
    node, broken = _parsed(check)
    readonly = node is not None and not broken and only_reads(node, _parsed)
    return code if readonly and parses_as_code(code) else None


def type_guard(conditions: Sequence[Condition]) -> str | None:
    """The pattern test of the innermost `let ... else`, as `matches!`/`.is_some()`."""
    for condition in reversed(conditions):
        if condition.kind == "let_else":
            pattern, _, value = (
                condition.text.removeprefix("let ").removesuffix(" did not match").partition(" = ")
            )
            try:
                code = render(_let_atom(pattern, value))
            except Unknown:
                return None
            return code if parses_as_code(code) else None
    return None


def _no_bound_names(conditions: Sequence[Condition]) -> None:
    """A step that reads a name an earlier pattern bound cannot be tested from outside."""
    bound: set[str] = set()
    for condition in conditions:
        if bound & set(_WORD.findall(condition.text)):
            raise Unknown(condition.text)
        bound |= _bindings(condition)


def _bindings(condition: Condition) -> set[str]:
    text = condition.text
    if condition.kind == "match_arm":
        pattern = text.removesuffix(" =>").partition(": ")[2]
    elif condition.kind in ("if_let", "while", "if") and text.startswith("let "):
        pattern = text.removeprefix("let ").partition(" = ")[0]
    else:
        return set()
    return pattern_names(pattern)


def pattern_names(pattern: str) -> set[str]:
    """The names a pattern as written binds (`Ok(opt)`, `(a, mut b)`, `Foo { key, .. }`),
    its guard (`if ..`) left out."""
    return set(_BOUND.findall(pattern.partition(" if ")[0])) - _NOT_NAMES


def _all(steps: list[Expr]) -> Expr:
    return steps[0] if len(steps) == 1 else Junction(True, tuple(steps))


def _step(condition: Condition) -> Expr | None:
    kind, text = condition.kind, condition.text
    if kind == "while" and text.startswith("let "):
        raise Unknown(text)  # `while let Some(x) = it.next()`: a new value each round
    if kind == "ensure":
        # An earlier check that passed: a premise of reaching the site, not what fails here.
        # Negating it would read as "this error happens whenever the check holds".
        return None
    if condition.fails_later and kind == "else":
        # `if a { bail!(..) } else { <site> }` is `if a { bail!(..) }` before the site: `!a`
        # is a premise of reaching it, as an earlier check is (`ensure`)
        return None
    if condition.fails_later and kind in ("if", "if_let"):
        # every other branch fails as well: whether the code goes on is decided before it
        # (pingora's `if upgraded != self.upgraded { if upgraded { panic!(..) } else {
        # panic!(..) } }` goes on only when `upgraded == self.upgraded`)
        return None
    if kind in ("if", "if_let", "while"):
        return parse_condition(text)
    if kind in ("else", "check_failed", "exit"):
        # an early exit above, not taken: the error is avoided as well when it is
        return Not(parse_condition(text))
    if kind == "let_else":
        pattern, _, value = (
            text.removeprefix("let ").removesuffix(" did not match").partition(" = ")
        )
        return Not(_let_atom(pattern, value))
    if kind == "match_arm":
        head, _, pattern = text.removeprefix("match ").removesuffix(" =>").partition(": ")
        if not head or (_binds_all(pattern) and not condition.excluded):
            raise Unknown(text)  # `_ =>` alone: taken always, no test to write
        # taken only when no earlier arm matched (a guard included: `matches!` takes one); an
        # arm that fails (a panic, a `bail!`, a `return Err(..)`: `Condition.diverging`) is no
        # way past the `match` either: the check leaves it out (cargo's `"ws" =>
        # unimplemented!()` read as a value the code goes on with, 140)
        passing = [p for p in condition.excluded if p not in condition.diverging]
        gates = dict(zip(condition.excluded, condition.excluded_gates, strict=False))
        if any(gates.get(p) and _may_overlap(p, pattern) for p in passing):
            # an arm only some builds have (`#[cfg(feature = "x")]`) lets its values past
            # there alone: no one check holds in every build (lance's lindera arm, 232)
            raise Unknown(text)
        if condition.diverging and not passing and _binds_all(pattern):
            raise Unknown(text)  # every other value panics: no value goes on
        if condition.fails_later and not _binds_all(pattern):
            # `!matches!(v, this)` would count the values a later failing arm takes as going
            # on (sccache's `Err(e) =>` before `_ => "unexpected response"`, reading 170);
            # an earlier one is a premise, as above
            raise Unknown(text)
        head = _borrowed_tuple(head, [*passing, pattern])
        # a test binds no name: `HashMap(ref mut map)` as `HashMap(_)` (`without_bindings`)
        tried: list[Expr] = [
            Not(Atom(f"matches!({head}, {without_bindings(p)})", True)) for p in passing
        ]
        if not _binds_all(pattern):
            tried.append(Atom(f"matches!({head}, {without_bindings(pattern)})", True))
        return _all(tried)
    if kind == "closure":
        match = _CLOSURE_NONE.match(text)
        if match is None:
            raise Unknown(text)
        test = _OUTCOME_TESTS[match.group(2)]
        return Atom(f"{_wrap(match.group(1))}.{test}()", True)
    return None  # a loop: the check holds per element, inside it


def parse_condition(text: str) -> Expr:
    """A condition as written (`!a && b.c()`, `let Some(x) = y`) as an expression tree."""
    if "\u2026" in text:  # clipped when collected: not the whole condition
        raise Unknown(text)
    node = _condition_node(text)
    if node is None:
        raise Unknown(text)
    expr = _convert(node)
    _check_bindings(node)
    return expr


@cache
def _parsed(text: str) -> tuple[Node | None, bool]:
    tree = rust_parser().parse(f"fn f() {{ if {text} {{}} }}".encode())
    body = tree.root_node.named_children[0].child_by_field_name("body")
    statement = body.named_children[0] if body is not None and body.named_children else None
    if_node = statement.named_children[0] if statement is not None else None
    condition = if_node.child_by_field_name("condition") if if_node is not None else None
    return condition, tree.root_node.has_error


def _condition_node(text: str) -> Node | None:
    node, broken = _parsed(text)
    return None if broken else node


def _convert(node: Node) -> Expr:
    kind = node.type
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        inner = node.named_children[0]
        if inner.type in ("binary_expression", "unary_expression", "parenthesized_expression"):
            return _convert(inner)
    if kind in ("binary_expression", "let_chain"):
        operator = node.child_by_field_name("operator")
        op = _text(operator) if operator is not None else "&&"
        if op in ("&&", "||"):
            operands = [_convert(c) for c in node.named_children if c.type != "line_comment"]
            return Junction(op == "&&", tuple(_flatten(op == "&&", operands)))
    if kind == "unary_expression" and _text(node).startswith("!"):
        return Not(_convert(node.named_children[0]))
    if kind == "let_condition":
        pattern = node.child_by_field_name("pattern")
        value = node.child_by_field_name("value")
        if pattern is None or value is None:
            raise Unknown(_text(node))
        return _let_atom(_text(pattern), _text(value))
    return Atom(" ".join(_text(node).split()), kind in _PRIMARY)


def _flatten(all_: bool, operands: list[Expr]) -> list[Expr]:
    flat: list[Expr] = []
    for operand in operands:
        if isinstance(operand, Junction) and operand.all == all_:
            flat.extend(operand.operands)
        else:
            flat.append(operand)
    return flat


def _let_atom(pattern: str, value: str) -> Atom:
    """`let Some(x) = v` -> `v.is_some()`; other patterns -> `matches!(v, P)`."""
    pattern, value = " ".join(pattern.split()), " ".join(value.split())
    if not pattern or not value or "\u2026" in pattern + value:
        raise Unknown(pattern)
    if _binds_all(pattern):
        raise Unknown(pattern)  # an irrefutable pattern: no test at all
    return _pattern_atom(value, pattern)


def _pattern_atom(value: str, pattern: str) -> Atom:
    """The test that `value` matches `pattern`, which binds no name in it (`without_bindings`):
    `Some(_)` -> `value.is_some()`, `None` -> `value.is_none()`, else `matches!`."""
    pattern = without_bindings(pattern)
    name, _, rest = pattern.partition("(")
    test = _PATTERN_TESTS.get(name.strip())
    if pattern == "None":
        test, rest = "is_none", "_)"
    if test and rest.endswith(")") and rest[:-1].strip() == "_":
        return Atom(f"{_wrap(_unborrowed(value))}.{test}()", True)
    return Atom(f"matches!({value}, {pattern})", True)


def _unborrowed(value: str) -> str:
    """`&self.delta` as `self.delta`: a method call borrows its receiver itself."""
    node = _condition_node(value)
    if node is None or node.type != "reference_expression":
        return value
    inner = node.child_by_field_name("value")
    return _text(inner) if inner is not None and inner.type in _PRIMARY else value


def named_tests(expr: Expr) -> Expr:
    """`matches!(v, Some(_))` as `v.is_some()` (`!matches!(v, None)` as `v.is_some()`), once
    the tests of one value are merged (`merged` reads `matches!` only)."""
    if isinstance(expr, Junction):
        return Junction(expr.all, tuple(named_tests(o) for o in expr.operands))
    if isinstance(expr, Not):
        inner = named_tests(expr.operand)
        renamed = isinstance(expr.operand, Atom) and inner != expr.operand
        return _negate_atom(inner) if renamed and isinstance(inner, Atom) else Not(inner)
    test = _pattern_test(expr, negated=False)
    return _pattern_atom(*test) if test is not None else expr


_CONST_NAME = re.compile(r"(?<![\w])[A-Z][A-Z0-9_]*[A-Z0-9]\b(?!\s*[({])")
_PLACE = re.compile(r"(?:self|[A-Za-z_]\w*)(?:\.[A-Za-z_]\w*|\.\d+)*")


def _borrowed_tuple(head: str, patterns: Sequence[str]) -> str:
    """`(a, b)` as `(&a, &b)`: a tuple built of places moves them (qdrant's
    `matches!((shard_id, shard_key), ..) || !matches!((shard_id, shard_key), ..)` is E0382
    for a `Vec`-holding `Option`, reading 240); borrowed, the patterns match through the
    references. Not where a pattern has a reference, a string literal or a constant (`&x`,
    `"a"`, `CF_DEFAULT`), which match the values' own types, nor under a guard."""
    if not (head.startswith("(") and head.endswith(")")):
        return head
    parts = [p for p in split_outside_brackets(head[1:-1], ",") if p]
    if len(parts) < 2 or not all(_PLACE.fullmatch(p) for p in parts):
        return head
    if any(c in p for p in patterns for c in ("&", '"', "'", "ref ", " if ")):
        return head  # (a guard's names would be references too: `x > 3` on a `&u8`)
    if any(_CONST_NAME.search(p) for p in patterns):
        return head  # a const may be a `&str` (tikv's `CF_DEFAULT`): matched as it is typed
    return "(" + ", ".join(f"&{p}" for p in parts) + ")"


def _may_overlap(earlier: str, pattern: str) -> bool:
    """Whether a value the arm `earlier` takes could match `pattern` were that arm not
    there: always for a catch-all, never for another variant or literal (`A::X(_)` after
    `A::Y { .. }`)."""
    if _binds_all(pattern):
        return True
    mine, other = _variant_keys(pattern), _variant_keys(without_bindings(earlier))
    return mine is None or other is None or bool(mine & other)


def _binds_all(pattern: str) -> bool:
    return pattern.strip() == "_" or bool(_SIMPLE_BINDING.match(pattern.strip()))


def _wrap(value: str) -> str:
    node = _condition_node(value)
    return value if node is not None and node.type in _PRIMARY else f"({value})"


def _check_bindings(node: Node) -> None:
    """A let chain whose later parts use a name its pattern binds cannot be tested apart."""
    if node.type != "let_chain":
        return
    bound: set[str] = set()
    for part in node.named_children:
        if bound & set(_WORD.findall(_text(part))):
            raise Unknown(_text(node))
        if part.type == "let_condition":
            pattern = part.child_by_field_name("pattern")
            bound |= set(_WORD.findall(_text(pattern))) if pattern is not None else set()


def push_not(expr: Expr) -> Expr:
    """Negations pushed down to the atoms (De Morgan), double negations removed."""
    if isinstance(expr, Junction):
        return Junction(expr.all, tuple(_flatten(expr.all, [push_not(o) for o in expr.operands])))
    if isinstance(expr, Atom):
        return expr
    inner = expr.operand
    if isinstance(inner, Not):
        return push_not(inner.operand)
    if isinstance(inner, Junction):
        negated = [push_not(Not(o)) for o in inner.operands]
        return Junction(not inner.all, tuple(_flatten(not inner.all, negated)))
    return _negate_atom(inner)


def _negate_atom(atom: Atom) -> Expr:
    node = _condition_node(atom.text)
    if node is not None and node.type == "binary_expression":
        operator = node.child_by_field_name("operator")
        op = _text(operator) if operator is not None else ""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op in _FLIP and left is not None and right is not None:
            return Atom(f"{_text(left)} {_FLIP[op]} {_text(right)}", False)
    if node is not None and node.type == "call_expression":
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is not None and function.type == "field_expression" and arguments is not None:
            field = function.child_by_field_name("field")
            value = function.child_by_field_name("value")
            method = _text(field) if field is not None else ""
            if method in _PAIRS and value is not None and arguments.named_child_count == 0:
                return Atom(f"{_text(value)}.{_PAIRS[method]}()", True)
    return Not(atom)


def merged(expr: Expr) -> Expr:
    """Tests of one value against patterns that bind nothing, side by side, as one
    `matches!` of an or-pattern: `matches!(k, "all") || matches!(k, "dev")` ->
    `matches!(k, "all" | "dev")`, and `!matches!(k, A) && !matches!(k, B)` ->
    `!matches!(k, A | B)` (a catch-all arm after ten others reads as the ten values)."""
    if not isinstance(expr, Junction):
        return expr
    out: list[Expr] = []
    for operand in (merged(o) for o in expr.operands):
        test = _pattern_test(operand, negated=expr.all)
        last = _pattern_test(out[-1], negated=expr.all) if out else None
        if test is not None and last is not None and test[0] == last[0]:
            atom = Atom(f"matches!({test[0]}, {last[1]} | {test[1]})", True)
            out[-1] = Not(atom) if expr.all else atom
        else:
            out.append(operand)
    if not expr.all:
        out = _without_implied(out)
    return out[0] if len(out) == 1 else Junction(expr.all, tuple(out))


def _without_implied(operands: list[Expr]) -> list[Expr]:
    """`matches!(k, A::X | A::Y) || !matches!(k, A::Z)` -> `!matches!(k, A::Z)`: the arm
    `A::Z` is taken only when no earlier arm matched, but a value that matches `A::X` or
    `A::Y` never matches `A::Z` (other variants, other literals): the first test adds
    nothing. Only where every pattern is a variant or a literal, told apart by name; what a
    variant's fields bind does not matter (`A::X { name, .. }` never matches an `A::Z`)."""
    refused = {
        test[0]: keys
        for o in operands
        if (test := _pattern_test(o, negated=True, binding=True)) is not None
        and (keys := _variant_keys(test[1])) is not None
    }
    kept = []
    for operand in operands:
        test = _pattern_test(operand, negated=False, binding=True)
        keys = _variant_keys(test[1]) if test is not None else None
        other = refused.get(test[0]) if test is not None else None
        if keys is not None and other is not None and not keys & other:
            continue  # implied by `!matches!(value, other)`
        kept.append(operand)
    return kept or operands


# A pattern that is a variant (`A::B`, `B(..)`, `A::B { .. }`, `A::B(x)`, `A::B { f, .. }`:
# whatever its fields hold, it matches that variant's values only) or a literal.
_VARIANT = re.compile(
    r"^(?:(?:[A-Za-z_]\w*::)*([A-Z]\w*)(?:\s*\(.*\)|\s*\{.*\})?|"
    r'("(?:[^"\\]|\\.)*"|-?\d+))$',
    re.S,
)


def _variant_keys(pattern: str) -> frozenset[str] | None:
    """The variant names or literals an or-pattern of variants and literals is made of;
    None for any other pattern."""
    keys = []
    rest = pattern
    while rest:
        at = first_outside_brackets(rest, "|")
        part, rest = (rest, "") if at < 0 else (rest[:at], rest[at + 1 :])
        found = _VARIANT.match(part.strip())
        if found is None:
            return None
        keys.append(found.group(1) or found.group(2))
    return frozenset(keys)


def _pattern_test(expr: Expr, negated: bool, binding: bool = False) -> tuple[str, str] | None:
    """(value, pattern) of `matches!(value, pattern)` (under a `!` when `negated`) whose
    pattern has no guard and binds no name (`binding`: or does); None for anything else."""
    if negated:
        if not isinstance(expr, Not):
            return None
        expr = expr.operand
    if (
        not isinstance(expr, Atom)
        or not expr.text.startswith("matches!(")
        or not expr.text.endswith(")")
    ):
        return None
    inner = expr.text[len("matches!(") : -1]
    at = first_outside_brackets(inner, ",")
    if at < 0:
        return None
    value, pattern = inner[:at].strip(), inner[at + 1 :].strip()
    if not value or not pattern or " if " in pattern or (not binding and _binds_a_name(pattern)):
        return None
    return value, pattern


_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)\'')
# a lowercase name not a path's part, a call or a macro, nor a field's name (`f: _`)
_NAME_IN_PATTERN = re.compile(r"(?<![\w:.])[a-z_][a-z0-9_]*\b(?!\s*(?:::|!|\(|:(?!:)))")
_NOT_BINDINGS = frozenset(("_", "true", "false"))


def _binds_a_name(pattern: str) -> bool:
    """Whether a pattern binds a name (`Some(v)`, `T { field, .. }`, `ref x`): an
    or-pattern's alternatives must bind the same ones."""
    names = _NAME_IN_PATTERN.findall(_LITERAL.sub('""', pattern))
    return any(name not in _NOT_BINDINGS for name in names)


def render(expr: Expr, parent: str = "") -> str:
    """Rust text of an expression; `&&` inside `||` gets parentheses for the reader."""
    if isinstance(expr, Atom):
        return expr.text
    if isinstance(expr, Not):
        inner = expr.operand
        text = render(inner)
        simple = isinstance(inner, Atom) and inner.primary
        return f"!{text}" if simple else f"!({text})"
    op = "&&" if expr.all else "||"
    text = f" {op} ".join(render(o, op) for o in expr.operands)
    return f"({text})" if parent and parent != op else text


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")
