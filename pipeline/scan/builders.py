"""Where an `#[error]` variant's error comes from: the fns that build `Enum::Variant`
(`FileIndex.builds`), for `callerpaths` to walk up from. Pure, over a built `CallGraph`."""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.scan.callgraph import CallGraph
from pipeline.scan.context import _crate
from pipeline.scan.names import crate_name, module_of


def variant_builders(graph: CallGraph, path: str, line: int) -> tuple[str, dict[int, int]] | None:
    """`("Enum::Variant", {fn node: the first line that builds it})` when `path:line` is an
    attribute of a variant something builds; else None."""
    variant = _variant_at(graph, path, line)
    if variant is None:
        return None
    builders = _builders_of(graph, path, *variant)
    return ("::".join(variant), builders) if builders else None


def named_builders(
    graph: CallGraph, path: str, enum: str, variant: str
) -> tuple[str, dict[int, int]] | None:
    """`variant_builders` for a variant known by name (a `Display` impl's arm writes it):
    `enum`'s, else that of the one enum of the site's crate that defines a variant so named
    (`match self.kind` writes the kind's variants)."""
    builders = _builders_of(graph, path, enum, variant)
    if not builders:
        crate = _crate(path)
        owners = {d.owner for p, d in graph.definitions("variant", variant) if _crate(p) == crate}
        if len(owners) == 1 and (owner := owners.pop()) is not None and owner != enum:
            enum, builders = owner, _builders_of(graph, path, owner, variant)
    return (f"{enum}::{variant}", builders) if builders else None


def _variant_at(graph: CallGraph, path: str, line: int) -> tuple[str, str] | None:
    """`(Enum, Variant)` when `line` is an attribute of an enum's variant: the next
    definition of the file is a variant, of an enum whose span holds the line."""
    index = graph.indexes.get(path)
    if index is None:
        return None
    after = [d for d in index.definitions if d.line >= line and d.kind in _ITEM_KINDS]
    if not after:
        return None
    nearest = min(after, key=lambda d: d.line)
    enum = nearest.owner
    if nearest.kind != "variant" or enum is None:
        return None
    holds = any(
        d.kind == "enum" and d.name == enum and d.line < line <= d.end_line
        for d in index.definitions
    )
    return (enum, nearest.name) if holds else None


_ITEM_KINDS = frozenset(("variant", "struct", "enum", "fn", "const", "static", "type", "trait"))


def _builders_of(graph: CallGraph, path: str, enum: str, variant: str) -> dict[int, int]:
    """The fns that build `enum::variant` (node -> the first line that does). When the
    repository defines another `enum::variant` (two crates' `Error::Io`), only those of
    the site's crate: a name does not say which one the others build."""
    table: dict[tuple[str, str], dict[int, int]] | None = graph.derived.get("builds")
    if table is None:
        table = graph.derived["builds"] = _builds(graph)
    found = table.get((enum, variant), {})
    defined = [p for p, d in graph.definitions("variant", variant) if d.owner == enum]
    if len(defined) > 1:
        crate = _crate(path)
        found = {n: at for n, at in found.items() if graph.nodes[n].crate == crate}
        mine = [p for p in dict.fromkeys(defined) if _crate(p) == crate]
        home = _meant(graph, path, enum, mine) if len(mine) > 1 else None
        if home is not None:  # one crate's two `Error::Io`s: a build is of the one it names
            found = {
                n: at for n, at in found.items()
                if _meant(graph, graph.nodes[n].path, enum, mine) == home
            }  # fmt: skip
    return found


def _meant(graph: CallGraph, path: str, enum: str, defined: Sequence[str]) -> str | None:
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
    here = module_of(path).split("::") if module_of(path) else []
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


def _module_named(written: str, here: list[str], crate: str) -> str | None:
    """The module of this crate a `use` path names (`super::proc` from `macos::x` is
    `macos::proc`); None for another crate's."""
    segments = written.split("::")
    if segments[0] == crate:
        segments[0] = "crate"
    if segments[0] not in ("crate", "self", "super"):
        return None
    base = [] if segments[0] == "crate" else list(here)
    at = 0
    while at < len(segments) and segments[at] in ("crate", "self", "super"):
        if segments[at] == "super" and base:
            base.pop()
        at += 1
    return "::".join([*base, *segments[at:]])


def _builds(graph: CallGraph) -> dict[tuple[str, str], dict[int, int]]:
    """Every variant built in a fn of the graph, by `(Enum, Variant)` (`Self` taken as the
    impl's type): node -> the first line that builds it."""
    table: dict[tuple[str, str], dict[int, int]] = {}
    for path, index in graph.indexes.items():
        ids = graph.by_file.get(path)
        if not ids or not index.builds:
            continue
        for build in index.builds:
            node = ids.get(build.caller)
            if node is None:
                continue
            enum = build.enum
            if enum == "Self":
                enum = graph.nodes[node].definition.owner or enum
            table.setdefault((enum, build.variant), {}).setdefault(node, build.line)
    return table
