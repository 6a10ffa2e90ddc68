"""What `?` converts: thiserror's `Io(#[from] std::io::Error)` writes `impl
From<std::io::Error> for Error`, which `?` calls in a fn whose error type is `Error` on a
call whose error type is `std::io::Error`. No code names the variant there (192 of the 22
repositories' `#[error]` records read had no builder: `converted_by_try` gives `builders`
those fns), nor a hand-written `From` impl's `from` (`add_conversion_edges` adds those calls
to the graph, the one thing here that changes it). And what a type's name means in a file
(`meant`, `names_type`): one crate may define two `Error`s, another crate names one by path.

Both error types are read off the signatures: `Result<T, E>`, `io::Result<T>`, and a
repository's alias (`type MetaResult<T> = Result<T, MetaError>`, `type Result<T, E = Error>`).
A repository fn returning `anyhow::Result<T>` (or `Result<T>` where its file imports
anyhow's) makes an `anyhow::Error`. Calls out of the repository count where the standard
library or a common crate says what they fail with (`external_error`: `std::fs::read(..)?`,
`File::open(..)?` an `io::Error`, `serde_json::from_str(..)?` a `serde_json::Error`,
`spawn_blocking(..).await?` a `JoinError`). A fn that maps the error first (`f()?` after
`.map_err(..)` is a method call on the result, not `f`'s `?`) converts nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.core.index import Call, Definition
from pipeline.scan.buildable import type_name
from pipeline.scan.callgraph import CallGraph, Edge, crate_dirs
from pipeline.scan.context import _crate
from pipeline.scan.names import crate_name, generic_parts, module_of, relative_module
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


def add_conversion_edges(graph: CallGraph) -> None:
    """A `?` that converts a `S` error into `E` calls `impl From<S> for E`'s `from`: an edge
    into that fn from the fn whose `?` it is, on the line of the call `?` applies to,
    resolved as `conversion` (alacritty's `impl From<io::Error> for Error`, which builds
    `Error::Io`, had no caller). The type `E` is the impl's: of its crate, or named by a path
    or a `use` of it (`names_type`)."""
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        if d.trait != "From" or d.name != "from" or not d.owner or len(d.params) != 1:
            continue
        owner = type_name(d.owner)  # `Error<'a>` -> `Error`
        source = spelled_out(graph, node.path, d.params[0][1].strip())
        mine = [p for kind in ("enum", "struct") for p, _ in graph.definitions(kind, owner)
                if _crate(p) == node.crate]  # fmt: skip
        home = next((p for p in mine if p == node.path), mine[0] if mine else node.path)
        for caller, (line, written) in converted_by_try(graph, owner, source).items():
            if caller != node_id and names_type(graph, caller, written, owner, home, mine):
                graph.callers.setdefault(node_id, []).append(
                    Edge(caller, node_id, line, "conversion")
                )


def spelled_out(graph: CallGraph, path: str, type_text: str) -> str:
    """A type as its file's `use` names it: another crate's by its path (`use toml::de::Error
    as TomlError`: `TomlError` -> `toml::de::Error`, whose `key` is what `toml::from_str(..)?`
    makes; alacritty's `impl From<TomlError> for Error` had no caller), the repository's by
    its own name (`use crate::parse::PError as ParseFailure` -> `PError`, as the fns
    returning it write it); `type_text` itself for a path, a generic type, a name no `use`
    brings in, or a renamed `Error` of the repository's."""
    if not type_text.isidentifier():
        return type_text
    index = graph.indexes.get(path)
    for use in index.uses if index is not None else ():
        if use.alias == type_text and "::" in use.path:
            root, _, rest = use.path.partition("::")
            if root not in ("crate", "self", "super") and root not in crate_dirs(graph):
                return use.path
            # (an `Error` of the repository's is every fn's `Error` by its own name: tikv's
            # `use tikv_util::codec::Error as CodecError` is no other module's `Error`)
            name = rest.rsplit("::", 1)[-1]
            return type_text if name == "Error" else name
    return type_text


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
    """Every `?` on a call whose error type differs from the caller's (a fn of the graph, or
    one `external_error` knows), by (the caller's error type's name, the callee's error
    type's key)."""
    errors: dict[int, str | None] = {}

    def error_of(node_id: int) -> str | None:
        if node_id not in errors:
            node = graph.nodes[node_id]
            errors[node_id] = result_error(graph, node.definition.signature, node.path)
        return errors[node_id]

    table: Converting = {}

    def converts(caller: int, made_key: str, line: int) -> None:
        into = error_of(caller)
        if into is None or key(into) in (made_key, _ANYHOW):  # anyhow's is no enum of ours
            return
        name = into.replace(" ", "").rsplit("::", 1)[-1]
        mine = table.setdefault((name, made_key), {})
        if caller not in mine or line < mine[caller][0]:
            mine[caller] = (line, into)

    for callee, edges in graph.callers.items():
        tried = [e for e in edges if e.call is not None and e.call.tried]
        if not tried:
            continue
        made = error_of(callee)
        if made is None:
            continue
        for edge in tried:
            converts(edge.caller, key(made), edge.line)
    for caller, line, made_key in _external_tries(graph):
        converts(caller, made_key, line)
    return table


_ANYHOW = "anyhow::Error"
_IO = "io::Error"
# What calls out of the repository fail with, by the last segment of the path they are
# called by and their name ("*": any fn of that module): each error as `key` writes it.
_EXTERNAL_PATHS: dict[tuple[str, str], str] = {
    # `std::fs::read`, `tokio::fs::write`, `fs::create_dir_all`, `fs_err::read_to_string`
    **{(module, "*"): _IO for module in ("fs", "fs_err")},
    **{("File", name): _IO for name in ("open", "create", "create_new")},
    **{("env", name): _IO for name in ("current_dir", "current_exe", "set_current_dir")},
    **{
        (sock, name): _IO
        for sock in ("TcpListener", "TcpStream", "UdpSocket", "UnixListener", "UnixStream")
        for name in ("bind", "connect")
    },
    # serde's formats: `serde_json::from_str(..)?` a `serde_json::Error`, serde_yaml's so
    **{
        (crate, name): f"{crate}::Error"
        for crate in ("serde_json", "serde_yaml")
        for name in (
            "from_str",
            "from_slice",
            "from_reader",
            "from_value",
            "to_string",
            "to_string_pretty",
            "to_vec",
            "to_vec_pretty",
            "to_writer",
            "to_writer_pretty",
            "to_value",
        )
    },
    ("toml", "from_str"): "de::Error",
    ("toml", "to_string"): "ser::Error",
    ("toml", "to_string_pretty"): "ser::Error",
    ("String", "from_utf8"): "FromUtf8Error",
    ("str", "from_utf8"): "Utf8Error",
    **{
        (module, name): "JoinError"
        for module in ("task", "tokio")
        for name in ("spawn", "spawn_blocking")
    },
}
_EXTERNAL_ROOTS = frozenset(("std", "core", "tokio", "serde_json", "serde_yaml", "toml", "fs_err"))
# Methods of std's `Read`/`Write`/`File`: an `io::Error`, where no fn of the repository has
# the name (a repository's own `flush` fails with whatever it says).
_IO_METHODS = frozenset(
    ("read_to_string", "read_to_end", "read_exact", "write_all", "sync_all", "sync_data",
     "set_len", "read_line", "flush")
)  # fmt: skip


def external_error(call: Call, repository_names: frozenset[str] | set[str]) -> str | None:
    """The error type's key of a call out of the repository that `?` applies to, where the
    standard library or a common crate says it (`std::fs::read(..)` -> `io::Error`); None
    for any other call, and for a name a fn of the repository has (that fn may be it)."""
    if call.kind == "path":
        segments = call.qualifier.replace(" ", "").split("::")
        # `tokio::task::spawn_blocking` is tokio's whatever fns the repository names so
        # (uv's own `spawn_blocking`); `fs::read` may be a module of the repository's
        if segments[0] not in _EXTERNAL_ROOTS and call.name in repository_names:
            return None
        module = segments[-1]
        return _EXTERNAL_PATHS.get((module, call.name)) or _EXTERNAL_PATHS.get((module, "*"))
    if call.kind == "method" and call.name in _IO_METHODS and call.name not in repository_names:
        return _IO
    return None


def fn_names(graph: CallGraph) -> set[str]:
    """The names of the repository's fns, made once per graph: a call of a name none has is
    a dependency's."""
    names: set[str] | None = graph.derived.get("fn names")
    if names is None:
        names = graph.derived["fn names"] = {n.definition.name for n in graph.nodes}
    return names


def _external_tries(graph: CallGraph) -> list[tuple[int, int, str]]:
    """(caller node, line, error key) of every `?` on a call `external_error` knows."""
    names = fn_names(graph)
    out = []
    for path, index in graph.indexes.items():
        ids = graph.by_file.get(path, {})
        for call in index.calls:
            if not call.tried or call.caller not in ids:
                continue
            made = external_error(call, names)
            if made is not None:
                out.append((ids[call.caller], call.line, made))
    return out


def result_error(graph: CallGraph, signature: str, path: str) -> str | None:
    """The error type a fn's signature returns, as written: `Result<T, E>` -> `E`,
    `io::Result<T>` -> `std::io::Error`, an alias of the fn's crate (or the one alias of the
    name) through its target; None for anything else (`Self::Err`, a generic `E`)."""
    written = written_error(graph, signature, path)
    return _plain(written) if written is not None else None


def written_error(graph: CallGraph, signature: str, path: str) -> str | None:
    """`result_error`'s type as the `Result` writes it, generic ones too
    (`CommandDispatcherError<Box<PlatformUnsat>>`, `Box<E>`, `Error<'a>`)."""
    if len(signature) > LONGEST:
        return None
    written, crate = return_text(signature), _crate(path)
    for _ in range(3):  # an alias of an alias
        name, arguments = generic_parts(written)
        head, _, last = name.rpartition("::")
        if not last.endswith("Result"):
            return None
        if last == "Result" and len(arguments) == 2:
            # anyhow's `Result<T, E = Error>` given an `E` too: neon's `timeline.rs` imports
            # it and writes `Result<Arc<Timeline>, GetReadyAncestorError>`
            return arguments[1].strip()
        if name in _STD_IO:
            return "std::io::Error"
        if name == "anyhow::Result" or (name == "Result" and _anyhow_result(graph, path)):
            return _ANYHOW
        first = head.split("::")[0]
        if head and first not in ("crate", "self", "super"):
            # `risingwave_expr::Result<T>`: that crate's alias; `anyhow::Result<T>`: none of ours
            if first not in crate_dirs(graph):
                return None
            crate = crate_dirs(graph)[first]
        alias = _alias(graph, last, crate)
        if alias is None:
            return None
        written = _applied(alias, arguments)
    return None


def _anyhow_result(graph: CallGraph, path: str) -> bool:
    """Whether `Result` in `path` is anyhow's (`use anyhow::Result;`, `use anyhow::{Result, ..}`)."""
    index = graph.indexes.get(path)
    return index is not None and any(
        u.alias == "Result" and u.path == "anyhow::Result" for u in index.uses
    )


def _plain(type_text: str) -> str | None:
    """A named error type, or None (`Self::Err`, `E`, `Box<dyn Error>`)."""
    text = type_text.strip()
    last = text.rsplit("::", 1)[-1]
    if "<" in text or not last[:1].isupper() or text.startswith(("Self::", "<")) or len(last) == 1:
        return None
    return text


def _alias(graph: CallGraph, name: str, crate: str) -> Definition | None:
    """The type alias `name` of the `crate`, or the repository's one of that name."""
    found = graph.definitions("type", name)
    mine = [d for p, d in found if _crate(p) == crate]
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


def names_type(
    graph: CallGraph, node_id: int, written: str, enum: str, path: str, mine: Sequence[str]
) -> bool:
    """Whether the error type a fn writes (`Error`, `crate::Error`, `uv_python::Error`) is
    the type `enum` that `path` defines (`mine`: the files of its crate defining one so named): in its
    crate unless a path names another of the repository's crates, and where the crate has
    two, the one the fn's file names; in another crate, only where the written path or a
    `use` of the file names the site's crate."""
    node = graph.nodes[node_id]
    crate = _crate(path)
    own = crate_name(crate)
    segments = written.replace(" ", "").split("::")
    if node.crate == crate:
        if len(segments) > 1 and segments[0] != own and segments[0] in crate_dirs(graph):
            return False
        return len(mine) < 2 or meant(graph, node.path, enum, mine) == path
    if segments[0] == own:
        return True
    index = graph.indexes.get(node.path)
    uses = index.uses if index is not None else ()
    return len(segments) == 1 and any(
        u.alias == enum and u.path.split("::")[0] == own for u in uses
    )


def meant(graph: CallGraph, path: str, enum: str, defined: Sequence[str]) -> str | None:
    """Which of the files `defined` (each defines an `enum` of one crate) the name `enum`
    means in `path`: its own, or the one a `use` names (`use super::proc::Error`, `use
    crate::config::*`); None when the file says nothing of it (a build there is of neither,
    as far as the index can tell: not counted)."""
    if path in defined:
        return path
    index = graph.indexes.get(path)
    if index is None:
        return None
    homes = {module_of(p): p for p in defined}
    here = module_of(path)
    for use in index.uses:
        if use.alias == enum and use.path.endswith(f"::{enum}"):
            written = use.path[: -len(enum) - 2]
        elif use.alias == "*":
            written = use.path
        else:
            continue
        module = _module_named(written, here, crate_name(_crate(path)))
        if module is not None and module in homes:
            return homes[module]
    return None


def imported_from(graph: CallGraph, path: str, defined: Sequence[str]) -> str | None:
    """Which one of the files `defined` the file `path` imports anything from (its `use`s'
    modules), when exactly one: risingwave's `use crate::hummock::error::Result` means the
    `Error` of `hummock/error.rs`, the alias's. None otherwise."""
    index = graph.indexes.get(path)
    if index is None:
        return None
    homes = {module_of(p): p for p in defined}
    here, crate = module_of(path), crate_name(_crate(path))
    found = set()
    for use in index.uses:
        written = use.path if use.alias == "*" else use.path.rpartition("::")[0]
        module = _module_named(written, here, crate) if written else None
        if module is not None and module in homes:
            found.add(homes[module])
    return found.pop() if len(found) == 1 else None


def _module_named(written: str, here: str, crate: str) -> str | None:
    """The module of this crate a `use` path names (`super::proc` from `macos::x` is
    `macos::proc`); None for another crate's."""
    segments = written.split("::")
    if segments[0] == crate:
        segments[0] = "crate"
    if segments[0] not in ("crate", "self", "super"):
        return None
    return relative_module(segments, here)
