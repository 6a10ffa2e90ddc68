"""The repository index of one Rust file: one whole-file parse, one query pass. Pure."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cache
from importlib import resources

from tree_sitter import Node, Query, QueryCursor

from pipeline.core.index import (
    Arm,
    Call,
    CallKind,
    Definition,
    DefKind,
    FileIndex,
    Impl,
    Local,
    Route,
    Use,
)
from pipeline.languages.rust.facts import doc_comment
from pipeline.languages.rust.sites import LANGUAGE, parser
from pipeline.languages.rust.testcode import is_test_attribute, is_test_path

# Bump when `index_file` may answer differently for the same bytes: it keys the index cache.
INDEX_VERSION = "2"

_ARG_CHARS = 40
_KEYWORDS = frozenset(
    [
        "as",
        "async",
        "await",
        "break",
        "const",
        "continue",
        "crate",
        "else",
        "enum",
        "extern",
        "fn",
        "for",
        "if",
        "impl",
        "in",
        "let",
        "loop",
        "match",
        "mod",
        "move",
        "mut",
        "pub",
        "ref",
        "return",
        "self",
        "Self",
        "static",
        "struct",
        "super",
        "trait",
        "type",
        "unsafe",
        "use",
        "where",
        "while",
        "dyn",
        "Some",
        "Ok",
        "Err",
        "None",
        "Box",
        "Vec",
        "vec",
        "format",
        "println",
        "write",
        "writeln",
    ]
)
_ENUM_ARM = re.compile(r"^\s*(?:&\s*)?(?:(?:\w+::)*)([A-Z]\w*)::([A-Z]\w*)")
_STRING_ARM = re.compile(r'^\s*(?:Some\s*\(\s*\(\s*)?"([\w.-]+)"')
_STATUS = re.compile(r"StatusCode::([A-Z_]+)")
_ROUTE_ATTR = re.compile(r'^(get|post|put|delete|patch|head)\s*\(\s*"([^"]*)"')
_ROUTE_CALL = re.compile(r"\b(get|post|put|delete|patch|head|any)\s*\(\s*([\w:]+)\s*\)")
_SUBCOMMAND = re.compile(
    r'^(?:(?:\w+::)*(?:Command|App|SubCommand)::(?:new|with_name)\s*\()?\s*"([\w-]+)"'
)
_KEPT_ATTRIBUTE = re.compile(r"^(?:derive|command|clap|get|post|put|delete|patch|head)\b")
_RECEIVER_SPACE = re.compile(r"\s+(?=[.?])|(?<=\.)\s+")
_GENERIC = re.compile(r"<.*>", re.S)


@cache
def _query() -> Query:
    text = (
        resources.files("pipeline.languages.rust.queries")
        .joinpath("rust-index.scm")
        .read_text("utf-8")
    )
    return Query(LANGUAGE, text)


def _text(node: Node | None) -> str:
    return (node.text or b"").decode("utf-8", errors="replace") if node is not None else ""


def _short(text: str, limit: int = _ARG_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def base_name(type_text: str) -> str:
    """`&mut risingwave::Foo<T>` -> `Foo`; `Arc<Foo>` -> `Arc` (see `callgraph.inner_type`)."""
    text = _GENERIC.sub("", type_text).strip()
    text = text.lstrip("&").replace("mut ", "").replace("dyn ", "").strip()
    return text.rsplit("::", 1)[-1].strip()


def index_file(path: str, source: bytes) -> FileIndex:
    """Definitions, calls, imports, dispatch arms and routes of one file (test code left out)."""
    if is_test_path(path):
        return FileIndex()
    tree = parser().parse(source)
    captures = QueryCursor(_query()).captures(tree.root_node)
    builder = _Builder()
    kinds: tuple[DefKind, ...] = (
        "fn", "struct", "enum", "variant", "const", "static", "type", "trait", "field",
    )  # fmt: skip
    for kind in kinds:
        for node in captures.get(f"def.{kind}.node", []):
            builder.definition(kind, node)
    builder.finish_definitions()
    for node in captures.get("impl", []):
        builder.impl(node)
    for node in captures.get("use", []):
        builder.use(node)
    for node in captures.get("call", []):
        builder.call(node)
    for node in captures.get("mcall.plain", []):
        builder.macro_call(node, "plain")
    for node in captures.get("mcall.method", []):
        builder.macro_call(node, "method")
    for node in captures.get("mcall.path", []):
        builder.macro_call(node, "path")
    builder.finish_calls()
    for node in captures.get("let", []):
        builder.local(node)
    builder.arms_of(captures.get("arm", []))
    return builder.result()


class _Builder:
    """Collects one file's index; calls are attributed to their innermost enclosing fn."""

    def __init__(self) -> None:
        self.defs: list[Definition] = []
        self.fn_spans: list[tuple[int, int, int]] = []  # (start byte, end byte, def index)
        self.starts: list[int] = []
        self.calls: list[tuple[int, Call]] = []  # (start byte, call)
        self.call_starts: list[int] = []
        self.uses: list[Use] = []
        self.locals: list[Local] = []
        self.arms: list[Arm] = []
        self.routes: list[Route] = []
        self.impls: list[Impl] = []
        self.subcommands: list[str] = []

    def definition(self, kind: DefKind, node: Node) -> None:
        owner, trait, module, test = _context(node, kind)
        if test:
            return
        name = _text(node.child_by_field_name("name"))
        attrs = _attributes(node)
        visibility = next((c for c in node.children if c.type == "visibility_modifier"), None)
        signature, value, has_self = "", None, False
        params: tuple[tuple[str, str], ...] = ()
        codes: tuple[str, ...] = ()
        if kind == "fn":
            signature, params, has_self = _fn_signature(node)
            body = node.child_by_field_name("body")
            if body is not None and b"StatusCode::" in (body.text or b""):
                codes = tuple(dict.fromkeys(_STATUS.findall(_text(body))))
            for attr in attrs:
                route = _ROUTE_ATTR.match(attr)
                if route:
                    line = node.start_point[0] + 1
                    self.routes.append(Route(route[1].upper(), route[2], name, line))
        else:
            signature = _short(_text(node).split("{", 1)[0], 200)
            if kind in ("const", "static"):
                value = _short(_text(node.child_by_field_name("value")), 200)
            elif kind in ("field", "type"):
                value = _text(node.child_by_field_name("type"))
        if kind == "fn":
            self.fn_spans.append((node.start_byte, node.end_byte, len(self.defs)))
        self.defs.append(
            Definition(
                kind=kind,
                name=name,
                line=node.start_point[0] + 1,
                end_line=node.end_point[0] + 1,
                owner=owner,
                trait=trait,
                signature=signature,
                doc=doc_comment(node),
                public=visibility is not None and _text(visibility) == "pub",
                params=params,
                has_self=has_self,
                value=value,
                module=module,
                attrs=attrs,
                status_codes=codes,
            )
        )

    def finish_definitions(self) -> None:
        self.fn_spans.sort()
        self.starts = [start for start, _, _ in self.fn_spans]

    def caller(self, start: int, end: int) -> int:
        """The innermost fn that holds the byte range, or -1."""
        i = bisect_right(self.starts, start) - 1
        while i >= 0:
            s, e, index = self.fn_spans[i]
            if s <= start and end <= e:
                return index
            i -= 1
        return -1

    def impl(self, node: Node) -> None:
        written = node.child_by_field_name("type")
        trait = node.child_by_field_name("trait")
        if written is None or _in_test(node):
            return
        self.impls.append(
            Impl(base_name(_text(written)), _text(trait) or None, node.start_point[0] + 1)
        )

    def use(self, node: Node) -> None:
        argument = node.child_by_field_name("argument")
        if argument is not None:
            _uses(argument, "", self.uses)

    def call(self, node: Node) -> None:
        function = node.child_by_field_name("function")
        if function is not None and function.type == "generic_function":
            function = function.child_by_field_name("function")
        if function is None:
            return
        kind: CallKind
        if function.type == "identifier":
            kind, name, qualifier = "plain", _text(function), ""
        elif function.type == "scoped_identifier":
            kind, name = "path", _text(function.child_by_field_name("name"))
            qualifier = _text(function.child_by_field_name("path"))
        elif function.type == "field_expression":
            kind, name = "method", _text(function.child_by_field_name("field"))
            # `self\n    .field` as `self.field`: the receiver is matched as written
            qualifier = _RECEIVER_SPACE.sub(
                "", _short(_text(function.child_by_field_name("value")), 80)
            )
        else:
            return
        arguments = node.child_by_field_name("arguments")
        args = tuple(
            _short(_text(a)) for a in (arguments.named_children if arguments else ()) if a.type
            not in ("line_comment", "block_comment")
        )  # fmt: skip
        line = node.start_point[0] + 1
        if name in ("subcommand", "new", "with_name") and args:
            found = _SUBCOMMAND.match(args[0])
            if found and (name == "subcommand" or qualifier.endswith(("Command", "App"))):
                self.subcommands.append(found[1])
        if kind == "method" and name == "route" and len(args) >= 2 and args[0].startswith('"'):
            for method, handler in _ROUTE_CALL.findall(args[1]):
                self.routes.append(Route(method.upper(), args[0].strip('"'), handler, line))
        caller = self.caller(node.start_byte, node.end_byte)
        if caller >= 0:
            self.calls.append(
                (node.start_byte, Call(name, kind, qualifier, line, len(args), caller, args))
            )

    def macro_call(self, node: Node, kind: CallKind) -> None:
        name = _text(node)
        previous = node.prev_sibling
        if name in _KEYWORDS or (not name[:1].islower() and kind != "path"):
            return
        if kind == "plain" and previous is not None and previous.type in (".", "::", "fn"):
            return
        tree = node.next_sibling
        if tree is None or tree.child_count == 0 or tree.children[0].type != "(":
            return
        qualifier = ""
        if kind != "plain":
            before = previous.prev_sibling if previous is not None else None
            qualifier = _text(before) if before is not None else ""
        caller = self.caller(node.start_byte, tree.end_byte)
        if caller < 0:
            return
        arity = _token_arity(tree)
        call = Call(name, kind, qualifier, node.start_point[0] + 1, arity, caller, in_macro=True)
        self.calls.append((node.start_byte, call))

    def finish_calls(self) -> None:
        self.calls.sort(key=lambda pair: pair[0])
        self.call_starts = [start for start, _ in self.calls]

    def local(self, node: Node) -> None:
        pattern = node.child_by_field_name("pattern")
        if pattern is None or pattern.type != "identifier":
            return
        written = node.child_by_field_name("type")
        type_text = _text(written) if written is not None else ""
        if not type_text:
            value = node.child_by_field_name("value")
            while value is not None and value.type in ("try_expression", "await_expression"):
                value = value.named_children[0] if value.named_children else None
            if value is not None and value.type == "call_expression":
                function = value.child_by_field_name("function")
                if function is not None and function.type == "scoped_identifier":
                    path = _text(function.child_by_field_name("path"))
                    if base_name(path)[:1].isupper():
                        type_text = path
            elif value is not None and value.type == "struct_expression":
                type_text = _text(value.child_by_field_name("name"))
        if not type_text:
            return
        caller = self.caller(node.start_byte, node.end_byte)
        if caller >= 0:
            self.locals.append(Local(_text(pattern), type_text, caller))

    def arms_of(self, nodes: list[Node]) -> None:
        """Dispatch arms, and the fns an arm names without calling (`"build" => build::exec`)."""
        found: list[tuple[str, Node, Node, int]] = []
        for node in nodes:
            pattern = _text(node.child_by_field_name("pattern"))
            enum = _ENUM_ARM.match(pattern)
            label = f"{enum[1]}::{enum[2]}" if enum else None
            if label is None:
                string = _STRING_ARM.match(pattern)
                label = f'"{string[1]}"' if string else None
            value = node.child_by_field_name("value")
            caller = self.caller(node.start_byte, node.end_byte)
            if label is None or value is None or caller < 0:
                continue
            found.append((label, node, value, caller))
            if value.type in ("identifier", "scoped_identifier"):
                line = value.start_point[0] + 1
                if value.type == "identifier":
                    call = Call(_text(value), "plain", "", line, -1, caller)
                else:
                    name = _text(value.child_by_field_name("name"))
                    qualifier = _text(value.child_by_field_name("path"))
                    call = Call(name, "path", qualifier, line, -1, caller)
                self.calls.append((value.start_byte, call))
        self.finish_calls()
        for label, node, value, caller in found:
            lo = bisect_right(self.call_starts, value.start_byte - 1)
            hi = bisect_right(self.call_starts, value.end_byte - 1)
            if hi > lo:
                line = node.start_point[0] + 1
                self.arms.append(Arm(label, line, caller, tuple(range(lo, hi))))

    def result(self) -> FileIndex:
        return FileIndex(
            definitions=tuple(self.defs),
            calls=tuple(call for _, call in self.calls),
            uses=tuple(self.uses),
            locals=tuple(self.locals),
            arms=tuple(self.arms),
            routes=tuple(self.routes),
            impls=tuple(self.impls),
            subcommands=tuple(dict.fromkeys(self.subcommands)),
        )


def _context(node: Node, kind: str) -> tuple[str | None, str | None, str, bool]:
    """(owner, trait, inline module path, is test code) of a definition."""
    owner: str | None = None
    trait: str | None = None
    modules: list[str] = []
    current: Node | None = node
    test = _has_test_attribute(node)
    parent = node.parent
    while parent is not None and not test:
        kind_of = parent.type
        if kind_of == "impl_item" and owner is None and kind == "fn":
            owner = base_name(_text(parent.child_by_field_name("type")))
            written = parent.child_by_field_name("trait")
            trait = base_name(_text(written)) if written is not None else None
        elif kind_of == "trait_item" and owner is None and kind == "fn":
            owner = trait = _text(parent.child_by_field_name("name"))
        elif (
            kind_of in ("enum_item", "struct_item")
            and owner is None
            and kind
            in (
                "variant",
                "field",
            )
        ):
            owner = _text(parent.child_by_field_name("name"))
        elif kind_of == "enum_variant" and kind == "field":
            owner = None  # a struct-like variant's field: not a field of a struct
            break
        elif kind_of == "function_item" and kind != "fn":
            break  # a local item: not reachable by name from elsewhere
        elif kind_of == "mod_item":
            modules.append(_text(parent.child_by_field_name("name")))
        if kind_of in ("mod_item", "impl_item", "trait_item", "function_item"):
            test = _has_test_attribute(parent)
        current, parent = parent, parent.parent
    if kind == "fn" and current is not None and current.type == "source_file" and not test:
        test = _file_is_test(current)
    return owner, trait, "::".join(reversed(modules)), test


def _in_test(node: Node) -> bool:
    current: Node | None = node
    while current is not None:
        if current.type in ("mod_item", "impl_item", "function_item") and _has_test_attribute(
            current
        ):
            return True
        current = current.parent
    return False


def _attributes(node: Node) -> tuple[str, ...]:
    """The attributes the index uses (derives, routes, tests): the rest only cost cache space."""
    attrs: list[str] = []
    sibling = node.prev_named_sibling
    while sibling is not None and sibling.type in (
        "attribute_item",
        "line_comment",
        "block_comment",
    ):
        if sibling.type == "attribute_item":
            inner = next((c for c in sibling.named_children if c.type == "attribute"), None)
            text = _text(inner)
            if _KEPT_ATTRIBUTE.match(text) or is_test_attribute(text):
                attrs.append(text)
        sibling = sibling.prev_named_sibling
    return tuple(reversed(attrs))


def _has_test_attribute(node: Node) -> bool:
    return any(is_test_attribute(attr) for attr in _attributes(node))


def _file_is_test(root: Node) -> bool:
    for child in root.named_children:
        if child.type == "inner_attribute_item":
            inner = next((c for c in child.named_children if c.type == "attribute"), None)
            if is_test_attribute(_text(inner)):
                return True
        elif child.type not in ("line_comment", "block_comment"):
            return False
    return False


def _fn_signature(node: Node) -> tuple[str, tuple[tuple[str, str], ...], bool]:
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    source = node.text or b""
    signature = " ".join(source[: end - node.start_byte].decode("utf-8", "replace").split())
    params: list[tuple[str, str]] = []
    has_self = False
    parameters = node.child_by_field_name("parameters")
    for child in parameters.named_children if parameters is not None else ():
        if child.type == "self_parameter":
            has_self = True
        elif child.type == "parameter":
            pattern = child.child_by_field_name("pattern")
            name = _text(pattern).removeprefix("mut ").strip()
            params.append((name, _text(child.child_by_field_name("type"))))
    return signature.rstrip(" ;"), tuple(params), has_self


def _uses(node: Node, prefix: str, out: list[Use]) -> None:
    """Flatten a use tree: `a::{b, c as d, e::*}`."""
    kind = node.type

    def join(tail: str) -> str:
        return f"{prefix}::{tail}" if prefix else tail

    if kind in ("identifier", "scoped_identifier", "crate", "self", "super"):
        path = join(_text(node))
        out.append(Use(path.rsplit("::", 1)[-1], path))
    elif kind == "use_as_clause":
        path = join(_text(node.child_by_field_name("path")))
        out.append(Use(_text(node.child_by_field_name("alias")), path))
    elif kind == "use_wildcard":
        glob = node.named_children[0] if node.named_children else None
        out.append(Use("*", join(_text(glob)) if glob is not None else prefix))
    elif kind == "scoped_use_list":
        scope = node.child_by_field_name("path")
        inner_path = join(_text(scope)) if scope is not None else prefix
        listed = node.child_by_field_name("list")
        if listed is not None:
            _uses(listed, inner_path, out)
    elif kind == "use_list":
        for child in node.named_children:
            _uses(child, prefix, out)


def _token_arity(tree: Node) -> int:
    """The number of comma-separated arguments in a `( .. )` token tree."""
    inner = tree.children[1:-1]
    if not inner:
        return 0
    return 1 + sum(1 for child in inner if child.type == ",")
