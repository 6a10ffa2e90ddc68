"""Code a site's explanation quotes: its whole statement, and a call of its enclosing fn. Pure."""

from __future__ import annotations

import re
import textwrap

from tree_sitter import Node

from pipeline.core.sitetypes import value_name
from pipeline.languages.rust.facts import runs_in_place

MAX_SNIPPET_LINES = 14
# Climbing from the site stops below these: the statement it is part of is their child.
_HOLDERS = {
    "block", "match_arm", "source_file", "declaration_list", "token_tree", "match_block",
    "field_initializer_list", "enum_variant_list", "static_item", "const_item",
}  # fmt: skip
_STATEMENTS = {"expression_statement", "let_declaration"}


def statement_snippet(node: Node) -> str | None:
    """The statement the site is part of (or the site alone if that is long), dedented. In a
    struct literal's field (`ok_or(Error::Milli { error: <site>, .. })`), the statement that
    holds the literal, else the field's value: `error: ..` alone is no code."""
    statement = _climbed(node)
    candidates = [statement, node]
    if statement.type == "field_initializer":
        value = statement.child_by_field_name("value")
        candidates = [_climbed(statement.parent or statement), *([value] if value else []), node]
    for candidate in candidates:
        text = _dedented(candidate)
        if text.count("\n") < MAX_SNIPPET_LINES:
            if candidate.type not in _STATEMENTS and not text.endswith(("}", ";")):
                text += ";"
            return text
    return None


def _climbed(node: Node) -> Node:
    """The child of the nearest holder (block, arm, list, ...) above `node`."""
    while node.parent is not None and node.parent.type not in _HOLDERS:
        node = node.parent
    return node


def _dedented(node: Node) -> str:
    text = (node.text or b"").decode("utf-8", errors="replace")
    return textwrap.dedent(" " * node.start_point.column + text).strip()


def enclosing_call(node: Node) -> str | None:
    """How a caller calls the site's fn: `worker.inject(job_id, paused).await`, or None."""
    function = node.parent
    while function is not None and function.type != "function_item":
        if function.type in ("static_item", "const_item") or (
            function.type == "closure_expression" and not runs_in_place(function)
        ):
            return None  # the site runs when the closure or initializer does, not at a call
        function = function.parent
    if function is None:
        return None
    name = function.child_by_field_name("name")
    parameters = function.child_by_field_name("parameters")
    if name is None or parameters is None:
        return None
    if _text(name) == "main" and not parameters.named_children and impl_type(function) is None:
        # a program's `main`: no code calls it, the runtime prints what it returns (and
        # `#[tokio::main]` takes its `async` away: crates.io's `match main().await` did not
        # compile, reading 139)
        return None
    arguments: list[str] = []
    receiver: str | None = None
    for parameter in parameters.named_children:
        if parameter.type == "self_parameter":
            receiver = _receiver_name(function)
        elif parameter.type == "parameter":
            pattern = parameter.child_by_field_name("pattern")
            text = _text(pattern).removeprefix("mut ") if pattern is not None else "_"
            arguments.append(text if text.isidentifier() else "_")
    if "_" in arguments:
        return None  # a destructuring parameter: no one name to pass
    call = f"{_text(name)}({', '.join(arguments)})"
    if receiver is not None:
        call = f"{receiver}.{call}"
    else:
        owner = impl_type(function)
        trait = declaring_trait(function) if owner is None else None
        if owner is not None:
            call = f"{owner}::{call}"
        elif trait is not None:
            # a trait's associated fn: called through the type that implements it
            # (risingwave's `SinkType::set_default_commit_checkpoint_interval(..)`; a bare
            # call does not compile, reading 202)
            call = f"<T as {trait}>::{call}"
    is_async = any(
        c.type == "function_modifiers" and b"async" in (c.text or b"") for c in function.children
    )
    returned = function.child_by_field_name("return_type")
    # a fn that returns a future it builds (`-> BoxFut<'a, Result<Value>>`, `-> impl Future<..>`,
    # `Pin<Box<dyn Future<..>>>`): its error is the future's output too (surrealdb's
    # `match search_analyze.invoke_async(ctx, args)` matched the future, reading 313)
    future = returned is not None and _FUTURE.search(_text(returned)) is not None
    return f"{call}.await" if is_async or future else call


_FUTURE = re.compile(r"\b(?:impl|dyn)\s+(?:\w+::)*Future\b|\b(?:Local)?BoxFut(?:ure)?\b")


def in_unsafe_fn(node: Node) -> bool:
    """Whether the fn `enclosing_call` calls is an `unsafe fn`: a caller writes that call in
    an `unsafe` block."""
    function = node.parent
    while function is not None and function.type != "function_item":
        function = function.parent
    return function is not None and any(
        c.type == "function_modifiers" and b"unsafe" in (c.text or b"").split()
        for c in function.children
    )


def impl_type(function: Node) -> str | None:
    """The type a method's `impl` block is for (`impl<T> Trait for Foo<T>` -> `Foo`); None
    for a free fn or a trait's provided method."""
    impl = _holder(function, "impl_item")
    kind = impl.child_by_field_name("type") if impl is not None else None
    if kind is None:
        return None
    base = kind.child_by_field_name("type") if kind.type == "generic_type" else kind
    return _text(base if base is not None else kind)


def declaring_trait(function: Node) -> str | None:
    """The name of the trait whose declaration holds a fn (a provided fn), or None."""
    trait = _holder(function, "trait_item")
    name = trait.child_by_field_name("name") if trait is not None else None
    return _text(name) if name is not None else None


def _holder(function: Node, kind: str) -> Node | None:
    """The `impl` or `trait` block (`kind`) a fn is an item of, or None (a free fn, or a fn
    nested in another fn's body)."""
    holder = function.parent
    while holder is not None and holder.type not in ("impl_item", "trait_item", "function_item"):
        holder = holder.parent
    return holder if holder is not None and holder.type == kind else None


def _receiver_name(function: Node) -> str:
    return value_name(impl_type(function) or "value")


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def initializer_item(node: Node) -> str | None:
    """`static FOO`/`const BAR` (a `Lazy` included) whose initializer holds the site, if any."""
    current = node.parent
    while current is not None and current.type != "function_item":
        if current.type in ("static_item", "const_item"):
            name = current.child_by_field_name("name")
            keyword = "static" if current.type == "static_item" else "const"
            return f"{keyword} {_text(name)}" if name is not None else None
        current = current.parent
    return None
