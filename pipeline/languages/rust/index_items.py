"""What one item of the index says of itself: its owner, attributes, signature, uses. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence

from tree_sitter import Node

from pipeline.core.index import DISCOURAGED, Use
from pipeline.languages.rust.testcode import has_test_attribute, is_test_attribute

ARG_CHARS = 40
# The macros that never return: a block that ends in one leaves for good.
DIVERGING_MACROS = frozenset(("bail", "panic", "unreachable", "todo", "unimplemented"))
_KEPT_ATTRIBUTE = re.compile(
    r"^(?:derive|command|clap|get|post|put|delete|patch|head|thiserror_ext|(?:pyo3::)?pyclass)\b"
)
# An attribute that lists routes, `"/path" => get(handler)` (meilisearch's `#[routes::routes(
# routes("" => [get(list), post(create)], "/x" => sub(m::XApi)))]` on a struct)
ROUTE_ARROW = re.compile(r'"([^"\\]*)"\s*=>\s*(\[[^\]"]*\]|\w+\s*\(\s*[\w:]+\s*\))')
ROUTE_VERB = re.compile(r"\b(get|post|put|delete|patch|head|any|sub)\s*\(\s*([\w:]+)\s*\)")
_GENERIC = re.compile(r"<.*>", re.S)
_LIFETIME = re.compile(r"^'\w+\s+")


def text_of(node: Node | None) -> str:
    return (node.text or b"").decode("utf-8", errors="replace") if node is not None else ""


# What stands between an item and the attributes written before it
ATTRIBUTE_SIBLINGS = ("attribute_item", "line_comment", "block_comment")


def attributes_before(item: Node) -> list[Node]:
    """The attributes written before `item` (a variant's, a field's, an item's), comments
    passed over, in the order written."""
    found: list[Node] = []
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in ATTRIBUTE_SIBLINGS:
        if sibling.type == "attribute_item":
            found.append(sibling)
        sibling = sibling.prev_named_sibling
    return found[::-1]


def short(text: str, limit: int = ARG_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def base_name(type_text: str) -> str:
    """`&mut risingwave::Foo<T>` -> `Foo`; `Arc<Foo>` -> `Arc` (see `callgraph.inner_type`)."""
    text = _GENERIC.sub("", type_text).strip()
    text = text.lstrip("&").replace("mut ", "").replace("dyn ", "").strip()
    text = _LIFETIME.sub("", text)  # `&'a StateWorkingSet<'a>` -> `StateWorkingSet`
    return text.rsplit("::", 1)[-1].strip()


_GATED = ("mod_item", "impl_item", "trait_item", "function_item")  # whose gate covers an item


def item_context(
    node: Node, kind: str, test: bool, marked: dict[int, bool]
) -> tuple[str | None, str | None, str, bool]:
    """(owner, trait, inline module path, is test code) of a definition whose own attributes
    say `test` (`leading`); `marked` remembers its ancestors' by node id (an impl's for each
    of its methods)."""
    owner: str | None = None
    trait: str | None = None
    modules: list[str] = []
    nested = False  # a fn inside a fn body: a free fn of that body, whatever impl is around
    parent = node.parent
    while parent is not None and not test:
        kind_of = parent.type
        free = owner is None and not nested
        # a method, or an associated type (`type Error = X;` of an impl: not an alias of
        # every `Error` in the repository)
        if kind_of == "impl_item" and free and kind in ("fn", "type"):
            owner = base_name(text_of(parent.child_by_field_name("type")))
            written = parent.child_by_field_name("trait")
            trait = base_name(text_of(written)) if written is not None else None
            if trait is not None and trait == owner:
                # `impl dist::Client for Client` (sccache): a type named as its trait; the
                # trait keeps its path, so that the method is no declaration of the trait's
                # (`owner == trait`) but one of its impls, dispatched to like any other
                trait = " ".join(_GENERIC.sub("", text_of(written)).split()) or trait
        elif kind_of == "trait_item" and free and kind in ("fn", "type"):
            owner = trait = text_of(parent.child_by_field_name("name"))
        elif kind_of in ("enum_item", "struct_item") and free and kind in ("variant", "field"):
            owner = text_of(parent.child_by_field_name("name"))
        elif kind_of == "enum_variant" and kind == "field":
            owner = None  # a struct-like variant's field: not a field of a struct
            break
        elif kind_of == "function_item" and kind != "fn":
            # a local item: not reachable by name from elsewhere; test code if its fn is
            test = in_test(parent)
            break
        elif kind_of == "function_item":
            nested = True
        elif kind_of == "mod_item":
            modules.append(text_of(parent.child_by_field_name("name")))
        if kind_of in _GATED:
            test = _marked(marked, parent)
        parent = parent.parent
    return owner, trait, "::".join(reversed(modules)), test


def _marked(marked: dict[int, bool], node: Node) -> bool:
    """`has_test_attribute(node)`, remembered by node id in `marked`."""
    found = marked.get(node.id)
    if found is None:
        found = marked[node.id] = has_test_attribute(node)
    return found


def in_test(node: Node) -> bool:
    current: Node | None = node
    while current is not None:
        if current.type in ("mod_item", "impl_item", "function_item") and has_test_attribute(
            current
        ):
            return True
        current = current.parent
    return False


ATTRIBUTE_CHARS = 200
# The compiler's, lints', docs' and tracing's attributes: never how a user reaches a fn.
# a `cfg` that builds the item only with a test or fault-injection feature: kept (a builder
# of an error that release builds lack, `builders._INJECTED`; a fn meant for tests)
_TEST_OR_FAULT_GATE = re.compile(r'\bfeature\s*=\s*"[\w-]*(?:test|fail[_-]?points?)[\w-]*"')
_SILENT_ATTRIBUTE = re.compile(
    r"^(?:inline|allow|warn|deny|expect|forbid|must_use|cfg|cfg_attr|doc|cold|track_caller|"
    r"deprecated|rustfmt|clippy|async_trait|instrument|tracing|await_tree|no_mangle|"
    r"export_name|target_feature)\b"
)


def leading(
    node: Node, every: bool = False, error: bool = False
) -> tuple[tuple[str, ...], bool, str | None]:
    """What the lines above an item say, read in one walk over its siblings (each step back
    costs the C library a walk from the parent's first child): the attributes the index uses
    (derives, routes, tests; with `every`, a fn's: all but the compiler's and lints', which
    say nothing of how a fn is reached, each cut at ATTRIBUTE_CHARS characters: a
    repository's `entries` may name fns by them, risingwave's `#[function("sqrt(float8) ->
    float8")]`), whether one marks test code (`testcode.has_test_attribute`), and its doc
    comment (`facts.doc_comment`). With `error`, its thiserror `#[error(..)]` too (a
    `#[from]` variant's: whether its text prints what it wraps, `callerpaths`)."""
    attrs: list[str] = []
    test = False
    doc: list[str] = []
    doc_open = True  # until a comment that is no doc comment ends it
    sibling = node.prev_named_sibling
    while sibling is not None:
        kind = sibling.type
        if kind == "attribute_item":
            inner = next((c for c in sibling.named_children if c.type == "attribute"), None)
            text = text_of(inner)
            marks = is_test_attribute(text)
            if (
                marks
                or _KEPT_ATTRIBUTE.match(text)
                or ("=>" in text and ROUTE_ARROW.search(text))
                or ("value_parser" in text and VALUE_PARSER.search(text))
                or (text.startswith("cfg") and _TEST_OR_FAULT_GATE.search(text))
                or (text.startswith("snafu") and "context" in text)  # its selector's name
            ):
                attrs.append(text)
                test = test or marks
            elif text.startswith("arg(") or (
                (every and (not _SILENT_ATTRIBUTE.match(text) or DISCOURAGED.match(text)))
                or (error and text.startswith("error"))
            ):  # a clap field's: how it is typed (`value_parsers`)
                attrs.append(" ".join(text[: 3 * ATTRIBUTE_CHARS].split())[:ATTRIBUTE_CHARS])
        elif kind == "line_comment" or kind == "block_comment":
            if doc_open:
                text = text_of(sibling)
                if kind == "line_comment" and text.startswith("///") and text[3:4] != "/":
                    doc.append(text[3:].strip())
                elif kind == "block_comment" and text.startswith("/**"):
                    doc.append(text[3:-2].strip(" *\n"))
                else:
                    doc_open = False
        else:
            break
        sibling = sibling.prev_named_sibling
    joined = "\n".join(reversed(doc)).strip() if doc else ""
    return tuple(reversed(attrs)), test, joined or None


# clap's derive: `#[arg(long, value_parser = parse_size)]` on a field names the fn that parses
# the option's value (not `value_parser!(u16)`, a macro, nor `PossibleValuesParser::new(..)`)
VALUE_PARSER = re.compile(r"\bvalue_parser\s*=\s*((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*)\s*(?=[,)]|$)")
_LONG = re.compile(r'(?<![\w.])long(?![\w!])\s*(?:=\s*"([^"]*)")?')
_SHORT = re.compile(r"(?<![\w.])short(?![\w!])\s*(?:=\s*'([^'])')?")
_ARG_ATTRIBUTE = re.compile(r"^(?:arg|clap|structopt)\s*\(")
# A field clap fills but makes no option of: a flattened struct, a subcommand, a skipped one
_NOT_AN_OPTION = re.compile(r"\b(?:flatten|subcommand|skip)\b")
# A field clap parses otherwise: a `ValueEnum`, a nested struct or subcommand, a count
_NOT_PARSED = re.compile(r"\b(?:value_enum|arg_enum|flatten|subcommand|skip|value_parser|parse)\b")
# The type clap parses each value as: `Timeout` of `Option<Timeout>`, `Vec<Resolve>`,
# `Option<Vec<T>>`; a plain path (no generics of its own), named as a type is
_PARSED_TYPE = re.compile(
    r"(?:(?:std::option::)?Option\s*<\s*)?(?:Vec\s*<\s*)?(?:[a-z_]\w*::)*([A-Z]\w*)\s*>?\s*>?"
)
# Types clap parses by its own parsers, or the standard library's `FromStr`
_CLAP_PARSES = frozenset(
    ("String", "PathBuf", "OsString", "Url", "IpAddr", "Ipv4Addr", "Ipv6Addr", "SocketAddr",
     "Duration", "Regex", "Uri", "Version", "NonZeroUsize", "NonZeroU32", "NonZeroU64",
     "NonZeroU16", "NonZeroU8", "Box", "Option", "Vec", "Self")
)  # fmt: skip


def value_parsers(field: str, attrs: Sequence[str], field_type: str = "") -> list[tuple[str, str]]:
    """(the option as a user types it, the fn that parses its value) of a clap-derived
    field: `#[arg(long, short = 'S', value_parser = SizeFilter::from_string)] size` ->
    `("--size", "SizeFilter::from_string")`; `-S` with no `long`, `<SIZE>` for a positional
    argument. Clap calls the fn on what the user typed: its errors are the option's.

    Without a `value_parser`, clap parses a value of a type of the program's own with its
    `FromStr`: `#[arg(long)] timeout: Option<Timeout>` -> `("--timeout", "Timeout::from_str")`
    (the link finds that fn when the repository has one: xh's `Timeout`, `Resolve`). Not a
    `value_enum` (clap's derive writes that parser), nor a flattened or subcommand field."""
    spec = " ".join(attr for attr in attrs if _ARG_ATTRIBUTE.match(attr))
    parsers = VALUE_PARSER.findall(spec)
    if not parsers and spec and field_type and not _NOT_PARSED.search(spec):
        parsed = _PARSED_TYPE.fullmatch(" ".join(field_type.split()))
        if parsed and parsed[1] not in _CLAP_PARSES:
            parsers = [f"{parsed[1]}::from_str"]
    if not parsers:
        return []
    option = _option_named(field, spec)
    return [(option, parser) for parser in dict.fromkeys(parsers)]


def clap_option(field: str, attrs: Sequence[str]) -> str | None:
    """The option a clap-derived field is, as a user types it (`#[arg(long)] serve: bool` ->
    `--serve`; `-S` with no `long`, `<SIZE>` for a positional argument); None for a field
    with no `#[arg]`/`#[clap]`/`#[structopt]`, or one clap fills otherwise (flattened, a
    subcommand, skipped)."""
    spec = " ".join(attr for attr in attrs if _ARG_ATTRIBUTE.match(attr))
    if not spec or _NOT_AN_OPTION.search(spec):
        return None
    return _option_named(field, spec)


def _option_named(field: str, spec: str) -> str:
    long, short_ = _LONG.search(spec), _SHORT.search(spec)
    if long:
        return "--" + (long[1] or field.removeprefix("r#").replace("_", "-"))
    if short_:
        return "-" + (short_[1] or field[:1])
    return f"<{field.removeprefix('r#').upper()}>"


def variant_of(field: Node) -> str | None:
    """`Commands::Build` for a field of the struct-like variant `Build` of `enum Commands`."""
    variant = field.parent.parent if field.parent is not None else None
    if variant is None or variant.type != "enum_variant":
        return None
    enum = variant.parent.parent if variant.parent is not None else None
    name = text_of(variant.child_by_field_name("name"))
    if enum is None or enum.type != "enum_item":
        return name
    return f"{text_of(enum.child_by_field_name('name'))}::{name}"


def fn_signature(node: Node, source: bytes) -> tuple[str, tuple[tuple[str, str], ...], bool]:
    """(signature, params, has self) of a fn; `source` is the file (`node.text` copies the body)."""
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    signature = " ".join(source[node.start_byte : end].decode("utf-8", "replace").split())
    params: list[tuple[str, str]] = []
    has_self = False
    parameters = node.child_by_field_name("parameters")
    for child in parameters.named_children if parameters is not None else ():
        if child.type == "self_parameter":
            has_self = True
        elif child.type == "parameter":
            pattern = child.child_by_field_name("pattern")
            name = text_of(pattern).removeprefix("mut ").strip()
            if name == "self":  # `self: Box<Self>`, `self: Arc<Self>`, `self: Pin<&mut Self>`
                has_self = True
                continue
            params.append((name, text_of(child.child_by_field_name("type"))))
    return signature.rstrip(" ;"), tuple(params), has_self


def flatten_use(node: Node, prefix: str, out: list[Use], line: int) -> None:
    """Flatten a use tree: `a::{b, c as d, e::*}` (of the `use` on `line`)."""
    kind = node.type

    def join(tail: str) -> str:
        return f"{prefix}::{tail}" if prefix else tail

    if kind == "self" and prefix:  # `use tokio::runtime::{self, Handle}`: `runtime` itself
        out.append(Use(prefix.rsplit("::", 1)[-1], prefix, line))
    elif kind in ("identifier", "scoped_identifier", "crate", "self", "super"):
        path = join(text_of(node))
        out.append(Use(path.rsplit("::", 1)[-1], path, line))
    elif kind == "use_as_clause":
        named = text_of(node.child_by_field_name("path"))
        path = prefix if named == "self" and prefix else join(named)  # `{self as rt}`
        out.append(Use(text_of(node.child_by_field_name("alias")), path, line))
    elif kind == "use_wildcard":
        glob = node.named_children[0] if node.named_children else None
        out.append(Use("*", join(text_of(glob)) if glob is not None else prefix, line))
    elif kind == "scoped_use_list":
        scope = node.child_by_field_name("path")
        inner_path = join(text_of(scope)) if scope is not None else prefix
        listed = node.child_by_field_name("list")
        if listed is not None:
            flatten_use(listed, inner_path, out, line)
    elif kind == "use_list":
        for child in node.named_children:
            flatten_use(child, prefix, out, line)


def token_arity(tree: Node) -> int:
    """The number of comma-separated arguments in a `( .. )` token tree."""
    inner = tree.children[1:-1]
    if not inner:
        return 0
    return 1 + sum(1 for child in inner if child.type == ",")
