"""The code a repository's own code gives an error's variant: an arm of a fn of its type
that answers it with one (greptimedb's `ErrorExt::status_code`: `InvalidSourceAndTargetRegion
{ .. } => StatusCode::InvalidArguments`; meilisearch's `error_code`: `Code::IndexNotFound`;
neon's `StatusCode::NOT_FOUND`), or of another type's fn that matches on it (a `tonic::Status`
conversion's `Code::NotFound`). What the code says the error is, beside what its message's
words say (`Reach.code`, read by `analyze.status_class`)."""

from __future__ import annotations

from collections.abc import Iterator

from pipeline.scan.callgraph import CallGraph
from pipeline.scan.context import _crate
from pipeline.scan.names import inner_type

Code = tuple[str, str]  # (the code as written: `StatusCode::InvalidArguments`, where)


def made_code(
    graph: CallGraph, error_class: str | None, made_by: str | None, site_path: str
) -> Code | None:
    """The code of the variant `made_by` (`Error::InvalidSourceAndTargetRegion`) names, when
    a fn of its type gives it one, or else the fns of other types that match on it agree on
    one; None for a fn that makes the error (`bad_request`), or no such arm."""
    if not made_by:
        return None
    owner, _, variant = made_by.rpartition("::")
    owner = owner.rpartition("::")[2]
    if not owner or not variant[:1].isupper():
        return None
    if error_class is not None and inner_type(error_class) not in (owner, ""):
        return None  # the fn returns another type: it converts the variant
    key = ("code arms", owner, _crate(site_path))
    if key not in graph.derived:
        graph.derived[key] = _own_arms(graph, owner, site_path)
    own: dict[str, Code] = graph.derived[key]
    found = own.get(variant)
    if found is None and len(graph.definitions("enum", owner)) == 1:
        found = _matched_elsewhere(graph).get(f"{owner}::{variant}")
    return found


def _written(code: str) -> str:
    """`StatusCode.NOT_FOUND` (`Definition.status_arms`) as written: `StatusCode::NOT_FOUND`;
    tonic's `Status.not_found` as its call, `Status::not_found(..)`."""
    kind, _, name = code.rpartition(".")
    return f"{kind}::{name}(..)" if name.islower() else f"{kind}::{name}"


def own_arm_codes(graph: CallGraph, owner: str, site_path: str) -> Iterator[tuple[str, str, str]]:
    """(variant, its arm's code as `status_arms` keeps it, where) for each arm of a fn of the
    type `owner` that names one of its variants, in the type's crate: the site's, else the
    only one that declares it; in file order."""
    crates = {_crate(path) for path, _ in graph.definitions("enum", owner)}
    crate = _crate(site_path) if _crate(site_path) in crates else None
    if crate is None and len(crates) == 1:
        (crate,) = crates
    if crate is None:
        return
    for path in graph.crate_files(crate):
        for d in graph.indexes[path].definitions:
            if d.kind != "fn" or d.owner != owner or not d.status_arms:
                continue
            for arm in d.status_arms:
                named, _, code = arm.rpartition(":")
                enum, _, variant = named.rpartition("::")
                if not enum or enum == owner:  # another enum's: `_matched_elsewhere`
                    yield variant, code, f"`{owner}::{d.name}` ({path}:{d.line})"


def _own_arms(graph: CallGraph, owner: str, site_path: str) -> dict[str, Code]:
    """Variant -> code from `own_arm_codes`, the first where two fns give one."""
    out: dict[str, Code] = {}
    for variant, code, where in own_arm_codes(graph, owner, site_path):
        out.setdefault(variant, (_written(code), where))
    return out


def elsewhere_arm_codes(graph: CallGraph) -> Iterator[tuple[str, str, str]]:
    """(`Enum::Variant`, its arm's code as `status_arms` keeps it, where) for each arm of a
    fn that names another enum's variant (qdrant's `HttpError::status_code` over its
    `StorageError`)."""
    for path, index in graph.indexes.items():
        for d in index.definitions:
            for arm in d.status_arms if d.kind == "fn" else ():
                named, _, code = arm.rpartition(":")
                if "::" in named:
                    where = f"`{d.owner or ''}::{d.name}` ({path}:{d.line})".replace("`::", "`")
                    yield named, code, where


def _matched_elsewhere(graph: CallGraph) -> dict[str, Code]:
    """`Enum::Variant` -> code from `elsewhere_arm_codes`, where every such arm gives the
    one code."""
    table: dict[str, Code] | None = graph.derived.get("code arms elsewhere")
    if table is not None:
        return table
    seen: dict[str, dict[str, str]] = {}
    for named, code, where in elsewhere_arm_codes(graph):
        seen.setdefault(named, {}).setdefault(_written(code), where)
    table = {named: next(iter(codes.items())) for named, codes in seen.items() if len(codes) == 1}
    graph.derived["code arms elsewhere"] = table
    return table
