"""Where a `static`'s initializer runs: at the static's first use. A site in one
(`static SETTINGS: LazyLock<Settings> = LazyLock::new(|| Settings::init().expect(..))`,
`Lazy::new`, a `OnceLock` filled in place) sits in no fn, and no call names it; the fns
that use the static reach it, the first of them to run. Pure, over a built `CallGraph`.

A use is what the index keeps of a call: the static as a method's receiver
(`SETTINGS.hostname()`, `RE.is_match(x)`, `SETTINGS.database.pool_size()`, also inside a
macro's tokens) or as an argument (`connect(&SETTINGS)`), by its name alone or by a path
(`crate::settings::SETTINGS.get()`). A field read alone (`SETTINGS.port`) is no call: not
seen. Where several statics share the name (`static RE: LazyLock<Regex>` in many files), a
use counts only in the static's own file or in a file whose `use` names its module."""

from __future__ import annotations

import re
from collections import defaultdict

from pipeline.core.index import Definition
from pipeline.scan.callgraph import CallGraph

# A value's head: `&*SETTINGS.db` -> `SETTINGS`, `crate::settings::SETTINGS` -> its last name
_HEAD = re.compile(r"[&*\s]*(?:mut\s+)?((?:\w+::)*)(\w+)")

# (path, caller fn's node, line, the path written before the name) of each use, by name
Uses = dict[str, list[tuple[str, int, int, str]]]


def static_at(graph: CallGraph, path: str, line: int) -> Definition | None:
    """The `static` of `path` whose item holds `line` (its initializer), if any."""
    index = graph.indexes.get(path)
    if index is None:
        return None
    for definition in index.definitions:
        if definition.kind == "static" and definition.line <= line <= definition.end_line:
            return definition
    return None


def static_users(graph: CallGraph, path: str, static: Definition) -> dict[int, int]:
    """The fns that use `static` (defined in `path`), each with the line of its first use."""
    several = len(graph.definitions("static", static.name)) > 1
    module = _module_name(path)
    users: dict[int, int] = {}
    for where, node, line, written in _uses(graph).get(static.name, ()):
        if where != path and not _names_static(graph, where, static.name, module, written, several):
            continue
        if node not in users or line < users[node]:
            users[node] = line
    return users


def _uses(graph: CallGraph) -> Uses:
    """Every use of a static's name in a call, grouped once per graph."""
    found: Uses | None = graph.derived.get("static uses")
    if found is not None:
        return found
    names = {name for kind, name in graph.named if kind == "static"}
    grouped: Uses = defaultdict(list)
    if names:
        for path, index in graph.indexes.items():
            fns = graph.by_file.get(path, {})
            for call in index.calls:
                node = fns.get(call.caller)
                if node is None:
                    continue
                for text in (call.qualifier, *call.args):
                    head = _HEAD.match(text) if text else None
                    if head and head[2] in names and text[head.end() :][:1] in ("", ".", ")"):
                        grouped[head[2]].append((path, node, call.line, head[1]))
    graph.derived["static uses"] = found = dict(grouped)
    return found


def _names_static(
    graph: CallGraph, where: str, name: str, module: str, written: str, several: bool
) -> bool:
    """Whether a use in another file, `where`, names this static (of module `module`): by a
    path written before the name (`settings::SETTINGS`: ending in the module when several
    statics have the name), or by the name alone that a `use` brings in (`use
    lemmy_utils::settings::SETTINGS`, or a glob of the module); not when the file defines
    a const or static of the name itself."""
    if any(
        d.name == name and d.kind in ("const", "static") for d in graph.indexes[where].definitions
    ):
        return False
    if written:
        return not several or written.rstrip(":").rsplit("::", 1)[-1] == module
    for use in graph.indexes[where].uses:
        parent = use.path.rsplit("::", 2)[-2:-1]
        if use.alias == name and (not several or parent == [module]):
            return True
        if use.alias == "*" and use.path.rsplit("::", 1)[-1] == module:
            return True
    return False


def _module_name(path: str) -> str:
    """The module a file is: `settings` of `src/settings/mod.rs` and of `src/settings.rs`."""
    parts = path.rsplit("/", 2)
    stem = parts[-1].removesuffix(".rs")
    return parts[-2] if stem in ("mod", "lib", "main") and len(parts) > 1 else stem
