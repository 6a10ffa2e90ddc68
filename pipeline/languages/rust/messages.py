"""Messages from the syntax tree: literals, `format!`/`concat!`, conversions. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Node

from pipeline.languages.rust.facts import (
    attributed_item,
    doc_comment,
    span_text,
)
from pipeline.languages.rust.formats import decode_rust_string, literal_segments
from pipeline.languages.rust.index_items import ATTRIBUTE_SIBLINGS

_STRING_TYPES = ("string_literal", "raw_string_literal")
# What a conversion may be called on: `"..".to_owned().into()` converts a conversion.
_CONVERTED = ("string_literal", "raw_string_literal", "macro_invocation", "call_expression")
_STRING_CONVERSIONS = {"to_string", "to_owned", "into", "to_compact_string"}


@dataclass(frozen=True, slots=True)
class Message:
    """A message taken from the syntax tree."""

    text: str
    is_format: bool
    args: tuple[str, ...] = ()


def split_token_tree(tree: Node) -> list[list[Node]]:
    """The top-level, comma-separated arguments of a macro's token tree."""
    arguments: list[list[Node]] = [[]]
    children = tree.children[1:-1]  # drop the delimiters
    for child in children:
        if child.type == ",":
            arguments.append([])
        elif child.type not in ("line_comment", "block_comment"):
            arguments[-1].append(child)
    if not arguments[-1]:
        arguments.pop()  # a trailing comma
    return arguments


def token_message(tokens: Sequence[Node], *, is_format: bool) -> Message | None:
    """A message from a macro argument: a literal, or `format!`/`concat!` of literals."""
    if len(tokens) == 1 and tokens[0].type in _STRING_TYPES:
        return Message(decode_rust_string(node_text(tokens[0])), is_format)
    if (  # `"..".to_owned()` inside a macro: tokens `"..", ".", to_owned, ()`
        len(tokens) == 4
        and tokens[0].type in _STRING_TYPES
        and tokens[1].type == "."
        and node_text(tokens[2]) in _STRING_CONVERSIONS
        and tokens[3].type == "token_tree"
        and tokens[3].named_child_count == 0
    ):
        # `bail!("..".to_owned())` is anyhow's single-expression form: not a format string.
        return Message(decode_rust_string(node_text(tokens[0])), is_format=False)
    if len(tokens) >= 3 and tokens[-1].type == "token_tree" and tokens[-2].type == "!":
        name = node_text(tokens[-3])
        inner = split_token_tree(tokens[-1])
        if name == "format" and inner:
            first = token_message(inner[0], is_format=True)
            if first is None:
                return None
            return Message(first.text, True, tuple(join_tokens(t) for t in inner[1:]))
        if name == "concat" and inner:
            parts = [token_message(t, is_format=False) for t in inner]
            if any(p is None for p in parts):
                return None
            return Message("".join(p.text for p in parts if p), is_format)
    return None


def expression_message(node: Node) -> Message | None:
    """A message from an expression: a literal, `"..".to_string()`, `format!(..)`, a closure."""
    kind = node.type
    if kind in _STRING_TYPES:
        return Message(decode_rust_string(node_text(node)), is_format=False)
    if kind == "macro_invocation":
        macro = node.child_by_field_name("macro")
        args = next((c for c in node.children if c.type == "token_tree"), None)
        if macro is None or args is None:
            return None
        name = node_text(macro).rsplit("::", 1)[-1]
        if name not in ("format", "concat"):
            return None
        return token_message([macro, *_bang(node), args], is_format=name == "format")
    if kind == "call_expression":
        return _conversion_message(node)
    if kind == "closure_expression":
        body = node.child_by_field_name("body")
        return expression_message(body) if body is not None else None
    if kind == "block":
        tail = [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]
        if tail and tail[-1].type != "expression_statement":
            return expression_message(tail[-1])
    if kind == "reference_expression":
        value = node.child_by_field_name("value")
        return expression_message(value) if value is not None else None
    return None


def through_helper(node: Node, callee: str, message: Message) -> Message:
    """The message a helper of the file writes with a literal it is given:
    `Err(data_type_not_supported("Vector"))`, where `fn data_type_not_supported(data_type_name:
    &str)` builds `"{data_type_name} is not supported in SQL Server"`, gives "Vector is not
    supported in SQL Server", the text a user reads (the record said "Vector": reading 320).
    Only for a free fn of the file's top level called by its bare name, the literal its
    first argument, whose body writes that parameter inline (`{name}`) in one string
    literal; `message` itself otherwise."""
    if message.is_format or not callee.isidentifier():
        return message
    root = node
    while root.parent is not None:
        root = root.parent
    helpers = [
        item
        for item in root.named_children
        if item.type == "function_item"
        and (name := item.child_by_field_name("name")) is not None
        and node_text(name) == callee
    ]
    if len(helpers) != 1:
        return message
    parameters = helpers[0].child_by_field_name("parameters")
    first = (
        next((p for p in parameters.named_children if p.type == "parameter"), None)
        if parameters
        else None
    )
    pattern = first.child_by_field_name("pattern") if first is not None else None
    body = helpers[0].child_by_field_name("body")
    if pattern is None or pattern.type != "identifier" or body is None:
        return message
    placeholder = "{" + node_text(pattern) + "}"
    templates = [
        text
        for literal in _string_literals(body)
        if placeholder in (text := decode_rust_string(node_text(literal)))
    ]
    if len(templates) != 1:
        return message
    given = message.text.replace("{", "{{").replace("}", "}}")
    return Message(templates[0].replace(placeholder, given), True)


def _string_literals(node: Node) -> list[Node]:
    """The string literals under `node`, macros' tokens included, in document order."""
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.type in _STRING_TYPES:
            found.append(current)
        else:
            stack.extend(reversed(current.children))
    return found


def _bang(node: Node) -> list[Node]:
    return [c for c in node.children if c.type == "!"]


def _conversion_message(node: Node) -> Message | None:
    """`"..".to_string()`, `"..".into()`, `String::from("..")`, `format!(..).into()`."""
    function = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if function is None or arguments is None:
        return None
    if function.type == "field_expression":
        field = function.child_by_field_name("field")
        value = function.child_by_field_name("value")
        converts = field is not None and node_text(field) in _STRING_CONVERSIONS
        if converts and value is not None and value.type in _CONVERTED:
            return expression_message(value)
        return None
    if node_text(function) in ("String::from", "std::string::String::from"):
        first = arguments.named_children[:1]
        return expression_message(first[0]) if first else None
    return None


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def join_tokens(tokens: Sequence[Node]) -> str:
    """A macro argument's tokens as written (the token tree's own text, not re-spaced)."""
    if not tokens:
        return ""
    parent = tokens[0].parent
    if parent is None:
        return " ".join(node_text(t) for t in tokens)
    return " ".join(span_text(parent, tokens[0], tokens[-1]).split())


def local_message(node: Node, name: str) -> Message | None:
    """The message of `let <name> = "..";` or `= format!(..)` earlier in the same fn, if any."""
    child, parent = node, node.parent
    while parent is not None and parent.type not in ("function_item", "closure_expression"):
        if parent.type == "block":
            sibling = child.prev_named_sibling
            while sibling is not None:
                if sibling.type == "let_declaration":
                    pattern = sibling.child_by_field_name("pattern")
                    value = sibling.child_by_field_name("value")
                    if pattern is not None and node_text(pattern) in (name, f"mut {name}"):
                        return expression_message(value) if value is not None else None
                sibling = sibling.prev_named_sibling
        child, parent = parent, parent.parent
    return None


def placeholder_only(message: Message) -> str | None:
    """`"{msg}"` (or `"{}", msg`): the one name a message prints and nothing else, if so."""
    text = message.text.strip()
    if not message.is_format or not (text.startswith("{") and text.endswith("}")):
        return None
    inner = text[1:-1]
    if inner.isidentifier():
        return inner
    if inner == "" and len(message.args) == 1 and message.args[0].isidentifier():
        return message.args[0]
    return None


def closure_messages(closure: Node) -> list[Message]:
    """Every message a closure may return: each branch, arm and `return`, not only the tail."""
    body = closure.child_by_field_name("body")
    if body is None:
        return []
    found: list[Message] = []
    pending = [body]
    while pending:  # iterative: deep `if`/`match` nesting must not exhaust the stack
        node = pending.pop()
        if node.type == "block":
            named = [
                c for c in node.named_children if c.type not in ("line_comment", "block_comment")
            ]
            tail = named[-1] if named else None
            if tail is not None and tail.type == "expression_statement":
                # a trailing `if`/`match` is a statement to the grammar, the value all the same
                text = tail.text or b""
                tail = (
                    tail.named_children[0]
                    if tail.named_children and not text.endswith(b";")
                    else None
                )
            if tail is not None:
                pending.append(tail)
            pending.extend(_returns(node))
        elif node.type == "if_expression":
            pending.extend(
                c for c in (node.child_by_field_name("consequence"),
                            node.child_by_field_name("alternative")) if c is not None
            )  # fmt: skip
        elif node.type == "else_clause":
            pending.extend(node.named_children)
        elif node.type == "match_expression":
            arms = node.child_by_field_name("body")
            for arm in arms.named_children if arms is not None else ():
                value = arm.child_by_field_name("value")
                if value is not None:
                    pending.append(value)
        else:
            message = expression_message(node)
            if message is not None and message not in found:
                found.append(message)
    return found


def _returns(block: Node) -> list[Node]:
    """The values of `return` expressions inside a block, nested closures left out."""
    values: list[Node] = []
    stack = list(block.named_children)
    while stack:
        node = stack.pop()
        if node.type == "closure_expression":
            continue
        if node.type == "return_expression" and node.named_child_count:
            values.append(node.named_children[0])
        stack.extend(node.named_children)
    return values


# Where an error's help is written: a method on it, or a field of the struct that is it.
_HELP_METHODS = frozenset(("with_help", "help"))
_HELP_STOP = frozenset(
    ("expression_statement", "let_declaration", "block", "closure_expression", "match_arm")
)


def attached_help(node: Node) -> str | None:
    """The help the error at `node` carries, when written as a message: a `.with_help("..")`
    called on it (nushell's `LabeledError`, `GenericError`), or the `help` field of the
    struct literal it is part of (`help: Some("..".into())`); for an `#[error(..)]`
    attribute, its type's `#[diagnostic(help(..))]` (miette), else the `# Resolution`
    paragraph of its doc comment."""
    if node.type == "attribute_item":
        item = attributed_item(node)
        if item is None:
            return None
        return _diagnostic_help(item) or resolution(doc_comment(item))
    child, current = node, node.parent
    while current is not None and current.type not in _HELP_STOP:
        if current.type == "struct_expression":  # the error itself: its field, or none
            body = current.child_by_field_name("body")
            for field in body.named_children if body is not None else ():
                name = field.child_by_field_name("field")
                if (
                    field.type == "field_initializer"
                    and name is not None
                    and (node_text(name) == "help")
                ):
                    return _help_text(field.child_by_field_name("value"))
            return None
        function = current.child_by_field_name("function")
        if (
            current.type == "call_expression"
            and child == function  # called on the error, not given it as an argument
            and function is not None
            and function.type == "field_expression"
        ):
            method = function.child_by_field_name("field")
            if method is not None and node_text(method) in _HELP_METHODS:
                arguments = current.child_by_field_name("arguments")
                first = arguments.named_children[:1] if arguments is not None else []
                return _help_text(first[0]) if first else None
        child, current = current, current.parent
    return None


def _help_text(value: Node | None) -> str | None:
    """A help value's text: a message, in `Some(..)` or not."""
    if value is not None and value.type == "call_expression":
        function = value.child_by_field_name("function")
        arguments = value.child_by_field_name("arguments")
        if function is not None and node_text(function) == "Some" and arguments is not None:
            value = arguments.named_children[0] if arguments.named_children else None
    message = expression_message(value) if value is not None else None
    return _worded(message.text) if message is not None else None


def _worded(help_text: str) -> str | None:
    """A help's text, or None when it has no word of its own: nushell's `help("{3}")`
    prints a field the attribute does not show, and quoting `"{3}"` tells a reader
    nothing."""
    text = help_text.strip()
    words = "".join(literal_segments(text))
    return text if any(c.isalpha() for c in words) else None


def _diagnostic_help(item: Node) -> str | None:
    """The message of `help(..)` in an item's `#[diagnostic(..)]` (what miette prints under
    the error; a `help("{}", x)` format as written)."""
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in ATTRIBUTE_SIBLINGS:
        attribute = sibling.named_children[0] if sibling.type == "attribute_item" else None
        if attribute is not None and node_text(attribute.named_children[0]) == "diagnostic":
            arguments = attribute.child_by_field_name("arguments")
            return _help_argument(arguments) if arguments is not None else None
        sibling = sibling.prev_named_sibling
    return None


def _help_argument(arguments: Node) -> str | None:
    """`help(<message>)` among an attribute's arguments, its message's text."""
    for tokens in split_token_tree(arguments):
        if len(tokens) == 2 and node_text(tokens[0]) == "help" and tokens[1].type == "token_tree":
            inner = split_token_tree(tokens[1])
            message = token_message(inner[0], is_format=True) if inner else None
            return _worded(message.text) if message is not None else None
    return None


def resolution(doc: str | None) -> str | None:
    """The paragraph under a `# Resolution` heading of a doc comment (nushell's errors), or
    None."""
    found = _RESOLUTION.search(doc) if doc else None
    if found is None:
        return None
    paragraph = found.group(1).strip().split("\n\n", 1)[0]
    return " ".join(paragraph.split()) or None


_RESOLUTION = re.compile(r"^#+\s*Resolution\s*\n+((?:(?!#).*\n?)+)", re.MULTILINE | re.IGNORECASE)
