"""Whether a generated check only reads: evaluating it again outside the code must not do
what the code does (a `compare_exchange`, a write, a `recv().await`)."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from pipeline.core.brackets import first_outside_brackets

# A condition's text -> (its node, whether the parse had errors).
Parse = Callable[[str], tuple[Node | None, bool]]


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


# Calls a check may repeat: they read a value and change nothing (by name; `is_*` etc.).
# fmt: off
_READS = frozenset((
    "len", "get", "first", "last", "kind", "contains", "contains_key", "starts_with",
    "ends_with", "strip_prefix", "strip_suffix", "trim", "trim_start", "trim_end", "eq",
    "ne", "cmp", "partial_cmp", "exists", "iter", "keys", "values", "any", "all", "count",
    "capacity", "min", "max", "abs", "parse", "find", "position", "chars", "bytes",
    "as_str", "as_ref", "as_deref", "borrow", "deref", "clone", "unwrap_or",
    "unwrap_or_default", "map_or", "new", "from", "matches",
))
# fmt: on
_READ_PREFIXES = ("is_", "has_", "as_", "to_", "can_", "should_", "contains_")
_ALLOWED_MACROS = frozenset({"matches", "cfg"})


def only_reads(node: Node, parse: Parse) -> bool:
    """Whether evaluating the expression at `node` again outside the code only reads: a
    check that repeats `self.state.compare_exchange(..)` or `self.inner.write(buf)` would
    do what it tests. `parse` parses a condition's text (for `matches!`'s operand)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "await_expression":
            return False
        if current.type == "macro_invocation":
            name = current.child_by_field_name("macro")
            if name is None or _text(name).rsplit("::", 1)[-1] not in _ALLOWED_MACROS:
                return False
            operands = _macro_operands(current, parse)
            if operands is None:
                return False
            stack.extend(operands)
            continue
        if current.type == "call_expression" and not _reads(current):
            return False
        stack.extend(current.named_children)
    return True


def _reads(call: Node) -> bool:
    function = call.child_by_field_name("function")
    if function is not None and function.type == "generic_function":
        function = function.child_by_field_name("function")
    if function is None:
        return False
    if function.type == "field_expression":
        name = _text(function.child_by_field_name("field") or function)
        receiver = function.child_by_field_name("value")
        if name == "next" and receiver is not None and receiver.type == "call_expression":
            return _reads(receiver)  # `s.chars().next()`: a fresh iterator, nothing consumed
    else:
        name = _text(function).rsplit("::", 1)[-1]
    if name in ("var", "var_os"):  # `env::var("X")` reads a variable the check names
        return _names_a_variable(call)
    # `Some(x)`, `Kind::Table(..)`: a variant or tuple struct is built, nothing is done
    return name in _READS or name.startswith(_READ_PREFIXES) or name[:1].isupper()


def _names_a_variable(call: Node) -> bool:
    """Whether a `var(..)` call's one argument is a string literal (`env::var("RW_CI")`): a
    check a reader can make in a shell. Not a name held elsewhere (`env::var(key)`), whose
    check would read as one on the caller's argument."""
    arguments = call.child_by_field_name("arguments")
    return (
        arguments is not None
        and arguments.named_child_count == 1
        and arguments.named_children[0].type == "string_literal"
    )


def _macro_operands(macro: Node, parse: Parse) -> list[Node] | None:
    """The value of `matches!(v, P)` (or a `cfg!`'s nothing), parsed to be walked; None if not."""
    tree = next((c for c in macro.children if c.type == "token_tree"), None)
    if tree is None:
        return None
    if not _text(macro).startswith("matches"):
        return []  # `cfg!(..)`: a compile-time flag, no expression
    value = _first_operand(_text(tree)[1:-1])
    node, broken = parse(value)
    return None if node is None or broken else [node]


def _first_operand(inner: str) -> str:
    """The text before the first comma outside brackets."""
    at = first_outside_brackets(inner, ",")
    return inner if at < 0 else inner[:at]
