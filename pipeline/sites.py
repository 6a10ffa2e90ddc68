"""Find the error sites of one Rust file with one tree-sitter query pass: pure, no IO."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources

import tree_sitter_rust
from tree_sitter import Language, Node, Parser, Point, Query, QueryCursor, Range, Tree

from pipeline.facts import site_facts, span_text
from pipeline.formats import decode_rust_string, literal_segments
from pipeline.model import Condition, FileScan, Site, SiteKind, TypeAlias
from pipeline.testcode import is_test_code, is_test_path

# Bump when a change here would change what a cached FileScan holds.
EXTRACTOR_VERSION = "8"

LANGUAGE = Language(tree_sitter_rust.language())

MACRO_KINDS: dict[str, SiteKind] = {
    "bail": "bail",
    "anyhow": "anyhow",
    "ensure": "ensure",
    "format_err": "format_err",
    "eyre": "eyre",
    "panic": "panic",
    "unreachable": "unreachable",
    "todo": "todo",
    "unimplemented": "unimplemented",
    "assert": "assert",
    "assert_eq": "assert",
    "assert_ne": "assert",
    "debug_assert": "assert",
    "debug_assert_eq": "assert",
    "debug_assert_ne": "assert",
}
# Which macro argument holds the message (0-based): after the condition or the two operands.
MESSAGE_ARGUMENT = {"ensure": 1, "assert": 1, "debug_assert": 1}
MESSAGE_ARGUMENT.update(dict.fromkeys(("assert_eq", "assert_ne", "debug_assert_eq"), 2))
MESSAGE_ARGUMENT["debug_assert_ne"] = 2

METHOD_KINDS: dict[str, SiteKind] = {
    "expect": "expect",
    "expect_err": "expect",
    "context": "context",
    "with_context": "context",
    "wrap_err": "context",
    "wrap_err_with": "context",
}

# gRPC status constructors carry a stable, client-visible code.
GRPC_CODES = {
    "cancelled", "unknown", "invalid_argument", "deadline_exceeded", "not_found",
    "already_exists", "permission_denied", "resource_exhausted", "failed_precondition",
    "aborted", "out_of_range", "unimplemented", "internal", "unavailable", "data_loss",
    "unauthenticated",
}  # fmt: skip

# Where a top-level item may start: a column-0 line after a blank line, a `}` line or a `;`.
_ITEM_BOUNDARY = re.compile(rb"(?:\n\n|\n\}[^\n]*\n|;\n)(?=[^\s})\]])")
_TEST_ITEM = b"\n#[cfg(test)]"
_TEST_FILE = b"#![cfg(test)]"
_NEEDLES = (
    *(f"{name}!".encode() for name in MACRO_KINDS if not name.startswith(("assert", "debug_"))),
    b"assert",
    b"error(",
    b".expect",
    b"context(",
    b"wrap_err",
    b"Err(",
    b"Error::",
    b"Status::",
    b"Code::",
)
_LOOSE_NEEDLES = {b"Err(", b"Error::", b"Status::", b"Code::", b"context("}
_WHOLE = Range(Point(0, 0), Point(0xFFFFFFFF, 0xFFFFFFFF), 0, 0xFFFFFFFF)
_STRING_TYPES = ("string_literal", "raw_string_literal")
_ANYHOW_RESULT = re.compile(rb"use\s+(?:::)?anyhow::(?:Result\b|\{[^}]*\bResult\b)")
WINDOW_RADIUS = 18
_STRING_CONVERSIONS = {"to_string", "to_owned", "into", "to_compact_string"}


@dataclass(frozen=True, slots=True)
class Message:
    """A message taken from the syntax tree."""

    text: str
    is_format: bool
    args: tuple[str, ...] = ()


@cache
def _query() -> Query:
    text = resources.files("pipeline.queries").joinpath("rust-sites.scm").read_text("utf-8")
    return Query(LANGUAGE, text)


@cache
def _parser() -> Parser:
    return Parser(LANGUAGE)


def may_hold_site(source: bytes) -> bool:
    """Whether a file is worth parsing at all."""
    return bool(site_hints(source))


def find_sites(path: str, source: bytes) -> FileScan:
    """Every error site of one file, with the type aliases it declares."""
    if is_test_path(path) or _is_test_file(source):
        return FileScan(sites=())
    hints = site_hints(source)
    if not hints:
        return FileScan(sites=())
    tree = parse_relevant(source, hints)
    lines = split_lines(source)
    sites: list[Site] = []
    aliases: list[TypeAlias] = []
    for pattern, captures in QueryCursor(_query()).matches(tree.root_node):
        node = captures[_ROOT_CAPTURE[pattern]][0]
        if pattern == _ALIAS:
            alias = _type_alias(captures)
            if alias is not None:
                aliases.append(alias)
            continue
        site = _site(pattern, node, captures, path)
        if site is not None and not is_test_code(node):
            window, start = source_window(lines, site.line)
            sites.append(replace(site, window=window, window_start=start))
    sites.sort(key=lambda s: (s.line, s.column))
    return FileScan(
        sites=tuple(sites),
        aliases=tuple(aliases),
        parse_errors=1 if tree.root_node.has_error else 0,
        uses_anyhow_result=_ANYHOW_RESULT.search(source) is not None,
    )


def parse_relevant(source: bytes, hints: Sequence[int]) -> Tree:
    """Parse only the top-level items that can hold a site or an alias.

    Items are cut at column-0 lines that follow a blank line, a `}` line or a `;`
    (the shape rustfmt gives); `#[cfg(test)]` items are never parsed. The items kept
    are parsed as one document through tree-sitter's included ranges, so positions
    stay those of the whole file. If the cut was wrong the parse shows errors, and
    the whole file is parsed instead: the result never depends on the shortcut.
    """
    parser = _parser()
    ranges = relevant_ranges(source, hints)
    if ranges is not None:
        parser.included_ranges = ranges
        try:
            tree = parser.parse(source)
        finally:
            parser.included_ranges = [_WHOLE]
        if not tree.root_node.has_error:
            return tree
    return parser.parse(source)


def _is_test_file(source: bytes) -> bool:
    """`#![cfg(test)]` at the start of a line: the whole file is test code."""
    index = source.find(_TEST_FILE)
    return index >= 0 and (index == 0 or source[index - 1 : index] == b"\n")


def site_hints(source: bytes) -> list[int]:
    """Byte offsets where a site or a `Result` alias may be: literal needles, found in C."""
    hints: list[int] = []
    for needle in _NEEDLES:
        loose = needle in _LOOSE_NEEDLES
        index = source.find(needle)
        while index >= 0:
            # `Err(e)`, `Error::from(e)`: only a literal nearby can make a site.
            if not loose or source.find(b'"', index, index + 160) >= 0:
                hints.append(index)
            index = source.find(needle, index + 1)
    index = source.find(b"type ")
    while index >= 0:
        if b"Result" in source[index : source.find(b"\n", index)]:
            hints.append(index)
        index = source.find(b"type ", index + 1)
    return hints


def relevant_ranges(source: bytes, hints: Sequence[int]) -> list[Range] | None:
    """The ranges worth parsing, or None when that is the whole file."""
    starts = [0, *(m.end() for m in _ITEM_BOUNDARY.finditer(source))]
    keep = {bisect_right(starts, hint) - 1 for hint in hints}
    index = source.find(_TEST_ITEM)
    while index >= 0:
        chunk = bisect_right(starts, index + 1) - 1
        if starts[chunk] == index + 1:
            keep.discard(chunk)
        index = source.find(_TEST_ITEM, index + 1)
    ends = [*starts[1:], len(source)]
    spans: list[list[int]] = []
    for chunk in sorted(keep):
        if spans and spans[-1][1] == starts[chunk]:
            spans[-1][1] = ends[chunk]
        else:
            spans.append([starts[chunk], ends[chunk]])
    if spans == [[0, len(source)]]:
        return None
    ranges: list[Range] = []
    row, offset = 0, 0
    for start, end in spans:
        row += source.count(b"\n", offset, start)
        end_row = row + source.count(b"\n", start, end)
        ranges.append(Range(Point(row, 0), Point(end_row, 0), start, end))
        row, offset = end_row, end
    return ranges


def split_lines(source: bytes) -> list[str]:
    """Lines as tree-sitter counts them (on `\\n` only), `\\r` dropped, bad UTF-8 replaced."""
    lines = source.decode("utf-8", errors="replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def source_window(lines: Sequence[str], line: int) -> tuple[str, int]:
    """Lines `line-18 .. line+18` clipped to the file, joined by "\\n", and the first's number."""
    start = max(1, line - WINDOW_RADIUS)
    end = min(len(lines), line + WINDOW_RADIUS)
    return "\n".join(lines[start - 1 : end]), start


_MACRO, _ATTR, _METHOD, _CTOR, _ERRWRAP, _ALIAS = range(6)
_ROOT_CAPTURE = {
    _MACRO: "macro",
    _ATTR: "attr",
    _METHOD: "method",
    _CTOR: "ctor",
    _ERRWRAP: "errwrap",
    _ALIAS: "alias",
}


def _site(pattern: int, node: Node, captures: dict[str, list[Node]], path: str) -> Site | None:
    if pattern == _MACRO:
        return _macro_site(node, captures, path)
    if pattern == _ATTR:
        return _attr_site(node, captures, path)
    if pattern == _METHOD:
        return _method_site(node, captures, path)
    return _ctor_site(pattern, node, captures, path)


def _macro_site(node: Node, captures: dict[str, list[Node]], path: str) -> Site | None:
    name = _text(captures["macro.name"][0])
    arguments = split_token_tree(captures["macro.args"][0])
    index = MESSAGE_ARGUMENT.get(name, 0)
    if len(arguments) <= index:
        return None
    message = _token_message(arguments[index], is_format=True)
    if message is None:
        return None
    extra = tuple(_join(tokens) for tokens in arguments[index + 1 :])
    if extra and not message.args:
        message = Message(message.text, message.is_format, extra)
    macro_node = node.child_by_field_name("macro")
    site = _make_site(
        MACRO_KINDS[name], node, path, message, _text(macro_node) if macro_node else name
    )
    if site is None or index == 0:
        return site
    operands = [_join(tokens) for tokens in arguments[:index]]
    check = (
        operands[0]
        if len(operands) == 1
        else f"{operands[0]} {'!=' if name.endswith('_ne') else '=='} {operands[1]}"
    )
    failed = Condition("check_failed", check, site.line)
    return replace(site, facts=replace(site.facts, conditions=(*site.facts.conditions, failed)))


def _attr_site(node: Node, captures: dict[str, list[Node]], path: str) -> Site | None:
    literal = captures["attr.message"][0]
    message = Message(decode_rust_string(_text(literal)), is_format=True)
    args_node = literal.parent
    if args_node is not None:
        rest = split_token_tree(args_node)[1:]
        message = Message(message.text, True, tuple(_join(tokens) for tokens in rest))
    return _make_site("error_attr", node, path, message, "error")


def _method_site(node: Node, captures: dict[str, list[Node]], path: str) -> Site | None:
    method = captures["method.name"][0]
    name = _text(method)
    message = expression_message(captures["method.arg"][0])
    if message is None:
        return None
    # `.expect(..)` on a multi-line chain: the line of the method, not of the receiver.
    return _make_site(METHOD_KINDS[name], node, path, message, name, anchor=method)


def _ctor_site(pattern: int, node: Node, captures: dict[str, list[Node]], path: str) -> Site | None:
    prefix = "ctor" if pattern == _CTOR else "errwrap"
    message = expression_message(captures[f"{prefix}.arg"][0])
    if message is None:
        return None
    callee = _text(captures[f"{prefix}.fn"][0])
    arguments = captures[f"{prefix}.arg"][0].parent
    if (
        message.is_format is False
        and " " not in message.text.strip()
        and arguments is not None
        and arguments.named_child_count > 1
    ):
        return None  # `catalog_id_not_found("table", id)`: a noun argument, not a message
    code, http = _code_of(callee)
    return _make_site("constructor", node, path, message, callee, error_code=code, http=http)


def _code_of(callee: str) -> tuple[str | None, int | None]:
    parts = callee.split("::")
    owner, member = (parts[-2], parts[-1]) if len(parts) >= 2 else ("", parts[-1])
    if owner == "Status" and member in GRPC_CODES:
        return member.upper(), None
    if owner.endswith("Code") and member[:1].isupper():
        return member, None
    return None, None


def _make_site(
    kind: SiteKind,
    node: Node,
    path: str,
    message: Message,
    macro: str,
    *,
    anchor: Node | None = None,
    error_code: str | None = None,
    http: int | None = None,
) -> Site | None:
    if not _has_words(message):
        return None
    start = (anchor or node).start_point
    facts = site_facts(node)
    if (
        kind == "error_attr"
        and error_code is None
        and (facts.enclosing_type or "").endswith("Code")
    ):
        error_code = facts.variant
    if error_code is None:
        error_code = _code_in_message(message.text)
    return Site(
        kind=kind,
        file_path=path,
        line=start.row + 1,
        column=start.column,
        message=message.text,
        is_format=message.is_format,
        macro=macro,
        format_args=message.args,
        error_code=error_code,
        http_status=http,
        facts=facts,
    )


_CODE_PREFIX = re.compile(r"^\[?([A-Z]\d{4}|[0-9A-Z]{5}(?=:))\]?[: ]")


def _code_in_message(message: str) -> str | None:
    """`E0123: ...` or a SQLSTATE like `42P01: ...` leading the message."""
    match = _CODE_PREFIX.match(message)
    return match.group(1) if match else None


def _has_words(message: Message) -> bool:
    """A message of placeholders alone (`"{}"`) says nothing and matches everything."""
    return any(
        any(ch.isalpha() for ch in segment)
        for segment in literal_segments(message.text, is_format=message.is_format)
    )


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


def _token_message(tokens: Sequence[Node], *, is_format: bool) -> Message | None:
    """A message from a macro argument: a literal, or `format!`/`concat!` of literals."""
    if len(tokens) == 1 and tokens[0].type in _STRING_TYPES:
        return Message(decode_rust_string(_text(tokens[0])), is_format)
    if (  # `"..".to_owned()` inside a macro: tokens `"..", ".", to_owned, ()`
        len(tokens) == 4
        and tokens[0].type in _STRING_TYPES
        and tokens[1].type == "."
        and _text(tokens[2]) in _STRING_CONVERSIONS
        and tokens[3].type == "token_tree"
        and tokens[3].named_child_count == 0
    ):
        # `bail!("..".to_owned())` is anyhow's single-expression form: not a format string.
        return Message(decode_rust_string(_text(tokens[0])), is_format=False)
    if len(tokens) >= 3 and tokens[-1].type == "token_tree" and tokens[-2].type == "!":
        name = _text(tokens[-3])
        inner = split_token_tree(tokens[-1])
        if name == "format" and inner:
            first = _token_message(inner[0], is_format=True)
            if first is None:
                return None
            return Message(first.text, True, tuple(_join(t) for t in inner[1:]))
        if name == "concat" and inner:
            parts = [_token_message(t, is_format=False) for t in inner]
            if any(p is None for p in parts):
                return None
            return Message("".join(p.text for p in parts if p), is_format)
    return None


def expression_message(node: Node) -> Message | None:
    """A message from an expression: a literal, `"..".to_string()`, `format!(..)`, a closure."""
    kind = node.type
    if kind in _STRING_TYPES:
        return Message(decode_rust_string(_text(node)), is_format=False)
    if kind == "macro_invocation":
        macro = node.child_by_field_name("macro")
        args = next((c for c in node.children if c.type == "token_tree"), None)
        if macro is None or args is None:
            return None
        name = _text(macro).rsplit("::", 1)[-1]
        if name not in ("format", "concat"):
            return None
        return _token_message([macro, *_bang(node), args], is_format=name == "format")
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
        converts = field is not None and _text(field) in _STRING_CONVERSIONS
        if converts and value is not None and value.type in (*_STRING_TYPES, "macro_invocation"):
            return expression_message(value)
        return None
    if _text(function) in ("String::from", "std::string::String::from"):
        first = arguments.named_children[:1]
        return expression_message(first[0]) if first else None
    return None


def _type_alias(captures: dict[str, list[Node]]) -> TypeAlias | None:
    """`type XResult<T> = Result<T, XError>` (or `= std::result::Result<T, E = XError>`)."""
    target = captures["alias.type"][0]
    base = target.child_by_field_name("type")
    arguments = target.child_by_field_name("type_arguments")
    if base is None or arguments is None or not _text(base).endswith("Result"):
        return None
    types = [c for c in arguments.named_children if c.type not in ("lifetime", "line_comment")]
    if len(types) < 2:
        return None
    error = _text(types[1])
    params = captures["alias"][0].child_by_field_name("type_parameters")
    if params is not None:  # `type Result<T, E = MyError> = std::result::Result<T, E>`
        for param in params.named_children:
            name = param.child_by_field_name("name")
            default = param.child_by_field_name("default_type")
            if name is not None and default is not None and _text(name) == error:
                error = _text(default)
    return TypeAlias(name=_text(captures["alias.name"][0]), error_type=error)


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def _join(tokens: Sequence[Node]) -> str:
    """A macro argument's tokens as written (the token tree's own text, not re-spaced)."""
    if not tokens:
        return ""
    parent = tokens[0].parent
    if parent is None:
        return " ".join(_text(t) for t in tokens)
    return " ".join(span_text(parent, tokens[0], tokens[-1]).split())
