"""Where `?` builds a `#[from]` variant: thiserror's `Io(#[from] std::io::Error)` writes
`impl From<std::io::Error> for Error`, which `?` calls in a fn whose error type is `Error`
on a call whose error type is `std::io::Error`. No code names the variant there: 192 of the
22 repositories' `#[error]` records read had no builder. Pure, over a built `CallGraph`.

Both error types are read off the signatures: `Result<T, E>`, `io::Result<T>`, and a
repository's alias (`type MetaResult<T> = Result<T, MetaError>`, `type Result<T, E = Error>`).
So only calls into the repository's own fns count (a `std::fs::read(..)?` is not in the
graph), and a fn that maps the error first (`f()?` after `.map_err(..)` is a method call on
the result, not `f`'s `?`) converts nothing here.
"""

from __future__ import annotations

import re

from pipeline.core.index import Definition
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.context import _crate
from pipeline.scan.names import crate_name, generic_parts
from pipeline.scan.signatures import LONGEST, return_text

# `Io(#[from] std::io::Error)`, `SessionConfig( #[from] #[backtrace] SessionConfigError, ..)`
_FROM_FIELD = re.compile(r"#\[from\]\s*(?:#\[[^\]]*\]\s*)*([^,()]+?)\s*[,)]")
_ALIAS_PARAMS = re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?type\s+\w+\s*<(.*)>\s*=", re.S)
_STD_IO = ("io::Result", "std::io::Result")

# (the enum's name, the source's key) -> fn node -> (the line of its first `?` call, the
# error type its signature writes)
Converting = dict[tuple[str, str], dict[int, tuple[int, str]]]


def from_source(variant: Definition) -> str | None:
    """The type a tuple variant's `#[from]` field holds (`Io(#[from] std::io::Error)` ->
    `std::io::Error`); None without one."""
    found = _FROM_FIELD.search(variant.signature)
    return found[1].strip() if found else None


def converted_by_try(graph: CallGraph, enum: str, source: str) -> dict[int, tuple[int, str]]:
    """The fns whose `?` turns a `source` error into an error type named `enum` (node -> the
    line of the first such `?`, and the error type as the fn writes it: which `enum` it is,
    the caller tells)."""
    table: Converting | None = graph.derived.get("tried")
    if table is None:
        table = graph.derived["tried"] = _converting(graph)
    return table.get((enum, key(source)), {})


def key(type_text: str) -> str:
    """What two spellings of one error type share: `std::io::Error` and `io::Error` ->
    `io::Error`; `crate::error::ParsingError` -> `ParsingError` (an `Error` keeps its module,
    the one word names too many)."""
    segments = [s for s in type_text.replace(" ", "").split("::") if s]
    if not segments:
        return ""
    if (
        segments[-1] == "Error"
        and len(segments) > 1
        and segments[-2] not in ("crate", "self", "super")
    ):
        return "::".join(segments[-2:])
    return segments[-1]


def _converting(graph: CallGraph) -> Converting:
    """Every `?` on a call into a fn of the graph whose error type differs from the
    caller's, by (the caller's error type's name, the callee's error type's key)."""
    errors: dict[int, str | None] = {}

    def error_of(node_id: int) -> str | None:
        if node_id not in errors:
            node = graph.nodes[node_id]
            errors[node_id] = result_error(graph, node.definition.signature, node.path)
        return errors[node_id]

    table: Converting = {}
    for callee, edges in graph.callers.items():
        tried = [e for e in edges if e.call is not None and e.call.tried]
        if not tried:
            continue
        made = error_of(callee)
        if made is None:
            continue
        made_key = key(made)
        for edge in tried:
            into = error_of(edge.caller)
            if into is None or key(into) == made_key:
                continue
            name = into.replace(" ", "").rsplit("::", 1)[-1]
            mine = table.setdefault((name, made_key), {})
            line = edge.line
            if edge.caller not in mine or line < mine[edge.caller][0]:
                mine[edge.caller] = (line, into)
    return table


def result_error(graph: CallGraph, signature: str, path: str) -> str | None:
    """The error type a fn's signature returns, as written: `Result<T, E>` -> `E`,
    `io::Result<T>` -> `std::io::Error`, an alias of the fn's crate (or the one alias of the
    name) through its target; None for anything else (`Self::Err`, a generic `E`)."""
    if len(signature) > LONGEST:
        return None
    written = return_text(signature)
    for _ in range(3):  # an alias of an alias
        name, arguments = generic_parts(written)
        head, _, last = name.rpartition("::")
        if not last.endswith("Result"):
            return None
        if name in _STD_IO:
            return "std::io::Error"
        if last == "Result" and len(arguments) == 2:
            return _plain(arguments[1])
        first = head.split("::")[0]
        if head and first not in ("crate", "self", "super"):
            # `risingwave_expr::Result<T>`: that crate's alias; `anyhow::Result<T>`: none of ours
            path = _crate_dirs(graph).get(first, "")
            if not path:
                return None
        alias = _alias(graph, last, path)
        if alias is None:
            return None
        written = _applied(alias, arguments)
    return None


def _crate_dirs(graph: CallGraph) -> dict[str, str]:
    """The repository's crates by the name code gives them (`risingwave_expr`) -> a path in
    each (its crate's key for `_crate`), once per graph."""
    dirs: dict[str, str] | None = graph.derived.get("crate paths")
    if dirs is None:
        dirs = graph.derived["crate paths"] = {}
        for path in sorted(graph.indexes):
            dirs.setdefault(crate_name(_crate(path)), path)
    return dirs


def _plain(type_text: str) -> str | None:
    """A named error type, or None (`Self::Err`, `E`, `Box<dyn Error>`)."""
    text = type_text.strip()
    last = text.rsplit("::", 1)[-1]
    if "<" in text or not last[:1].isupper() or text.startswith(("Self::", "<")) or len(last) == 1:
        return None
    return text


def _alias(graph: CallGraph, name: str, path: str) -> Definition | None:
    """The type alias `name` of `path`'s crate, or the repository's one of that name."""
    found = graph.definitions("type", name)
    mine = [d for p, d in found if _crate(p) == _crate(path)]
    chosen = mine or [d for _, d in found]
    targets = {d.value for d in chosen}
    return chosen[0] if len(targets) == 1 and chosen[0].value else None


def _applied(alias: Definition, arguments: tuple[str, ...]) -> str:
    """The alias's target with the arguments it was given in place of its parameters
    (defaults for those not given): `Result<T, E = Error>` given `(Foo,)` -> `Result<Foo, Error>`."""
    params = _ALIAS_PARAMS.match(alias.signature)
    target = alias.value or ""
    if params is None:
        return target
    _, declared = generic_parts(f"X<{params[1]}>")
    bound: dict[str, str] = {}
    for at, param in enumerate(declared):
        name, _, default = param.partition("=")
        name = name.split(":")[0].strip()
        value = arguments[at] if at < len(arguments) else default.strip()
        if value:
            bound[name] = value
    target_name, target_arguments = generic_parts(target)
    if not target_arguments:
        return target
    applied = [bound.get(a.strip(), a) for a in target_arguments]
    return f"{target_name}<{', '.join(applied)}>"
