"""Where an `#[error]` variant's error comes from: the fns that build `Enum::Variant`
(`FileIndex.builds`), for `callerpaths` to walk up from. Pure, over a built `CallGraph`."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import NamedTuple

from pipeline.core.index import Definition, FileIndex
from pipeline.languages import language_of
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.context import _crate
from pipeline.scan.conversions import (
    converted_by_try,
    from_source,
    meant,
    names_type,
    spelled_out,
)


class Built(NamedTuple):
    """A variant and the fns that build it."""

    variant: str  # `Enum::Variant`
    builders: dict[int, int]  # fn node -> the first line that builds it
    converts: str | None = None  # the `#[from]` type some of them build it from with `?`


def variant_builders(graph: CallGraph, path: str, line: int) -> Built | None:
    """The variant (or error struct) `path:line` is an attribute of and its builders, when
    something builds it; else None."""
    variant = _variant_at(graph, path, line)
    if variant is None:
        struct = _struct_at(graph, path, line)
        return struct_builders(graph, path, struct) if struct is not None else None
    builders, converts = _builders_of(graph, path, *variant)
    return Built("::".join(variant), builders, converts) if builders else None


def enum_builders(graph: CallGraph, path: str, enum: str, variant: str) -> Built | None:
    """The fns that build `enum::variant` as written (`Self::V` in `impl E` counts), of
    `path`'s crate when another crate defines one so named; None when none does."""
    builders, converts = _builders_of(graph, path, enum, variant)
    return Built(f"{enum}::{variant}", builders, converts) if builders else None


def named_builders(graph: CallGraph, path: str, enum: str, variant: str) -> Built | None:
    """`variant_builders` for a variant known by name (a `Display` impl's arm writes it):
    `enum`'s, else that of the one enum of the site's crate that defines a variant so named
    (`match self.kind` writes the kind's variants)."""
    builders, converts = _builders_of(graph, path, enum, variant)
    if not builders:
        crate = _crate(path)
        owners = {d.owner for p, d in graph.definitions("variant", variant) if _crate(p) == crate}
        if len(owners) == 1 and (owner := owners.pop()) is not None and owner != enum:
            enum, (builders, converts) = owner, _builders_of(graph, path, owner, variant)
    return Built(f"{enum}::{variant}", builders, converts) if builders else None


def struct_builders(graph: CallGraph, path: str, struct: str) -> Built | None:
    """The fns that build the error struct `struct` of `path`'s crate by its literal
    (`InvalidPatternError { .. }`), when some do (two crates' `Error`s: the site's crate's)."""
    defined = [p for p, _ in graph.definitions("struct", struct)]
    found = _originals(
        graph, _of_site(graph, path, struct, defined, _builds(graph).get((struct, ""), {}))
    )
    return Built(struct, found) if found else None


def _struct_at(graph: CallGraph, path: str, line: int) -> str | None:
    """The struct whose attribute `line` is (thiserror's `#[error("..")] struct E { .. }`):
    the next definition of the file is that struct, starting below the line."""
    index = graph.indexes.get(path)
    if index is None:
        return None
    after = [d for d in index.definitions if d.line > line and d.kind in _ITEM_KINDS]
    if not after:
        return None
    nearest = min(after, key=lambda d: d.line)
    return nearest.name if nearest.kind == "struct" else None


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


def _builders_of(
    graph: CallGraph, path: str, enum: str, variant: str
) -> tuple[dict[int, int], str | None]:
    """The fns that build `enum::variant` (node -> the first line that does), and the type
    a `#[from]` field of it is built from by `?` in some of them (`conversions`). When the
    repository defines another `enum::variant` (two crates' `Error::Io`), only those of
    the site's crate: a name does not say which one the others build."""
    variants = [(p, d) for p, d in graph.definitions("variant", variant) if d.owner == enum]
    defined = [p for p, _ in variants]
    found = _originals(
        graph, _of_site(graph, path, enum, defined, _builds(graph).get((enum, variant), {}))
    )
    selector = next((_selector(graph, p, enum, d) for p, d in variants if p == path), None)
    if selector is not None:  # snafu's: `.context(ListSchemasSnafu { catalog })?` builds it
        made = _builds(graph).get((selector, ""), {})
        places = _variant_files(graph, variant)
        found = {**_originals(graph, _of_site(graph, path, selector, places, made)), **found}
    mine = [p for p in dict.fromkeys(defined) if _crate(p) == _crate(path)]
    source = next((from_source(d) for p, d in variants if p == path), None)
    if source is None:
        return found, None
    found, converted = dict(found), False
    spelled = spelled_out(graph, path, source)
    for name in (enum, *_newtypes(graph, path, enum)):
        for node_id, (line, written) in converted_by_try(graph, name, spelled).items():
            if node_id not in found and names_type(graph, node_id, written, name, path, mine):
                found[node_id], converted = line, True
    return found, (source if converted else None)


def _selector(graph: CallGraph, path: str, enum: str, variant: Definition) -> str | None:
    """The snafu context selector that builds `variant` of the `enum` of `path`, when the
    enum derives `Snafu`: `selector_name`. None for a `#[snafu(context(..))]`
    of the variant or the enum that says otherwise: `context(false)` (no selector: `?`
    converts the variant's source), `suffix(false)` or another suffix (a selector the index
    does not tell from other names: it keeps names that end in `Snafu`)."""
    if not _is_snafu(graph, path, enum):
        return None
    enums = [d for p, d in graph.definitions("enum", enum) if p == path]
    for attr in (*variant.attrs, *(a for d in enums for a in d.attrs)):
        context = _SNAFU_CONTEXT.search(attr) if attr.startswith("snafu") else None
        if context is not None:
            return selector_name(variant.name) if context[2] == "Snafu" else None
    return selector_name(variant.name)


def selector_name(variant: str) -> str:
    """The default snafu context selector of a variant: its name, less a trailing `Error`,
    and `Snafu` (vector's `BindError` is built by `BindSnafu`, reading 231's recheck)."""
    stem = variant[: -len("Error")] if variant.endswith("Error") and variant != "Error" else variant
    return stem + "Snafu"


_SNAFU_DERIVE = re.compile(r"^derive\s*\(.*\bSnafu\b")
_SNAFU_CONTEXT = re.compile(r"\bcontext\s*\(\s*(false|suffix\s*\(\s*(\w+)\s*\))")


def _variant_files(graph: CallGraph, variant: str) -> list[str]:
    """The files of the variants a selector of this variant's name may build: two crates'
    `TableNotFound` make two `TableNotFoundSnafu`s, each its crate's."""
    return [p for p, d in graph.definitions("variant", variant) if d.owner is not None]


def _originals(graph: CallGraph, found: dict[int, int]) -> dict[int, int]:
    """The builds of `found` but a copy's and a test's: a `clone`, `maybe_clone` or `clone_*`
    fn builds the variant from one that exists (tikv's `ErrorInner::maybe_clone` named as
    where `Committed` is built and the way users meet it, reading 181), no place it comes
    about; nor does a fn only a test or fault-injection feature compiles (`_INJECTED`)."""
    return {
        n: at
        for n, at in found.items()
        if not _COPIES.fullmatch((d := graph.nodes[n].definition).name)
        and not any(_INJECTED.match(a) for a in d.attrs)
    }


_COPIES = re.compile(r"(?:\w+_)?clone(?:_\w+)?|to_owned")
# a build only a test or fault-injection feature compiles (tikv's `#[cfg(feature =
# "failpoints")] fn make_txn_error`, named where `Committed` is built: reading 181's
# recheck); a release build has no such builder
_INJECTED = re.compile(
    r'^cfg\b(?!.*\bnot\s*\().*\bfeature\s*=\s*"[\w-]*(?:test|fail[_-]?points?)[\w-]*"'
)


def _of_site(
    graph: CallGraph, path: str, name: str, defined: Sequence[str], found: dict[int, int]
) -> dict[int, int]:
    """The builds of `found` that are of the type `name` as `path` defines it, when the
    repository defines more than one (`defined`: their files): another crate's are not
    (two crates' `Error::Io`), nor, within the site's crate, those whose file names the
    other one or neither (`meant`: alacritty's `config::Error::Io` and
    `macos::proc::Error::Io`, cargo's two `MissingDependencyError` structs)."""
    if len(defined) < 2:
        return found
    crate = _crate(path)
    found = {n: at for n, at in found.items() if graph.nodes[n].crate == crate}
    mine = [p for p in dict.fromkeys(defined) if _crate(p) == crate]
    home = meant(graph, path, name, mine) if len(mine) > 1 else None
    if home is None:
        return found
    return {
        n: at for n, at in found.items() if meant(graph, graph.nodes[n].path, name, mine) == home
    }


# `#[thiserror_ext(newtype(name = StreamExecutorError, backtrace))]` on `enum ErrorKind`:
# the newtype wraps the enum and takes each `From` the enum has (risingwave's errors)
_NEWTYPE = re.compile(r"^thiserror_ext\s*\(\s*newtype\s*\(\s*name\s*=\s*(\w+)")


def _newtypes(graph: CallGraph, path: str, enum: str) -> list[str]:
    """The types `thiserror_ext` wraps the `enum` of `path` in, which `?` converts into."""
    return [
        found[1]
        for p, d in graph.definitions("enum", enum)
        if p == path
        for attr in d.attrs
        if (found := _NEWTYPE.match(attr))
    ]


def _builds(graph: CallGraph) -> dict[tuple[str, str], dict[int, int]]:
    """Every variant built in a fn of the graph, by `(Enum, Variant)` (`Self` taken as the
    impl's type; an error struct's by `(Struct, "")`): node -> the first line that builds
    it. Made once per graph."""
    table: dict[tuple[str, str], dict[int, int]] | None = graph.derived.get("builds")
    if table is None:
        table = graph.derived["builds"] = _all_builds(graph)
    return table


def _all_builds(graph: CallGraph) -> dict[tuple[str, str], dict[int, int]]:
    table: dict[tuple[str, str], dict[int, int]] = {}
    for path, index in graph.indexes.items():
        ids = graph.by_file.get(path)
        if not ids:
            continue
        # `use crate::storage::kv::ErrorInner as KvErrorInner` .. `KvErrorInner::KeyIsLocked(..)`
        # builds an `ErrorInner` (tikv's raftkv, reading 326: the variant had no builder)
        renamed = {
            use.alias: use.path.rsplit("::", 1)[-1]
            for use in index.uses
            if use.renames() and use.alias[:1].isupper()
        }
        for build in index.builds:
            node = ids.get(build.caller)
            if node is None:
                continue
            enum = renamed.get(build.enum, build.enum)
            if enum == "Self":
                enum = graph.nodes[node].definition.owner or enum
            table.setdefault((enum, build.variant), {}).setdefault(node, build.line)
        for (enum, variant), node, line in _bare_builds(graph, index, ids):
            table.setdefault((enum, variant), {}).setdefault(node, line)
    return table


# An argument that is a variant written bare: `UnterminatedBacktick`, `Name { .. }`, `Name(..)`
_BARE = re.compile(r"([A-Z][a-z]\w*)\s*(?:[({]|$)")


def _bare_builds(
    graph: CallGraph, index: FileIndex, ids: Mapping[int, int]
) -> list[tuple[tuple[str, str], int, int]]:
    """The variants a file builds by their bare names, which its glob import of their enum
    brings in (just's `use {super::*, CompileErrorKind::*}` then
    `.error(CircularRecipeDependency { recipe, circle })`): a call of the variant's name
    (`Name(..)`), or an argument that is it (`Name`, `Name { .. }`, `Name(..)`). Only
    variants that enum defines: a bare name of anything else builds nothing."""
    enums = [
        use.path.rsplit("::", 1)[-1]
        for use in index.uses
        if use.alias == "*" and use.path.rsplit("::", 1)[-1][:1].isupper()
    ]
    variants: dict[str, str] = {}
    for enum in enums:
        for name in _variants_of(graph, enum):
            variants.setdefault(name, enum)
    if not variants:
        return []
    out = []
    for call in index.calls:
        node = ids.get(call.caller)
        if node is None:
            continue
        named = [call.name] if call.kind == "plain" else []
        named += [found[1] for arg in call.args if (found := _BARE.match(arg.strip()))]
        for name in named:
            if name in variants:
                out.append(((variants[name], name), node, call.line))
    return out


def _variants_of(graph: CallGraph, enum: str) -> list[str]:
    """The variants the repository's enums named `enum` define (once per graph)."""
    table: dict[str, list[str]] | None = graph.derived.get("variants by enum")
    if table is None:
        table = graph.derived["variants by enum"] = {}
        for index in graph.indexes.values():
            for d in index.definitions:
                if d.kind == "variant" and d.owner:
                    table.setdefault(d.owner, []).append(d.name)
    return table.get(enum, [])


def never_built(graph: CallGraph, path: str, line: int) -> str | None:
    """`Enum::Variant` when `line` is the text of a variant (an attribute of it) that no
    code the index reads builds or names as a value (`_unnamed_variant`), and the indexed
    files write its name only where variants of the name are defined, its selector's
    nowhere (`settle_mentions`: outside `match` arms' patterns; a pattern in a macro's
    tokens, `matches!(e, E::V)`, counts, so much the worse for the claim). None otherwise,
    or when `line` is no variant's."""
    found = _unnamed_variant(graph, path, line)
    # the text's word: a build the index does not read (a macro's tokens, a `static`'s
    # initializer, a name cut in an argument) still writes the name (`settle_mentions`)
    mentions: Mapping[str, int] | None = graph.derived.get("mentions")
    if found is None or mentions is None or found[1] not in mentions:
        return None
    enum, name, selector = found
    defined = sum(1 for p, d in graph.definitions("variant", name) if d.owner is not None)
    if mentions[name] > defined or mentions.get(selector, 0):
        return None
    return f"{enum}::{name}"


def _unnamed_variant(graph: CallGraph, path: str, line: int) -> tuple[str, str, str] | None:
    """(enum, variant, snafu selector) when `line` is the text of a variant that no code the
    index reads builds or names as a value: no build of it or of its selector, no call of
    its name (`E::V(..)`, a glob's `V(..)`), no argument, `let` or `macro_rules!` body that
    writes its name (`_named_anywhere`), no `#[from]` field (`.into()`, `From::from`) nor
    snafu context option (a renamed or dropped selector) by which code builds it unnamed."""
    found = _variant_at(graph, path, line)
    if found is None:
        return None
    enum, name = found
    variant = next(
        (d for p, d in graph.definitions("variant", name) if p == path and d.owner == enum), None
    )
    if variant is None or from_source(variant) is not None:
        return None
    selector = selector_name(name)
    if _is_snafu(graph, path, enum) and _selector(graph, path, enum, variant) != selector:
        return None  # a `context(..)` option renamed or dropped the selector
    named = _named_anywhere(graph)
    return None if name in named or selector in named else (enum, name, selector)


def unbuilt_candidates(graph: CallGraph, sites: Iterable[tuple[str, int]]) -> set[str]:
    """The names `never_built` asks the text about, of the sites (`(path, line)`) that sit
    in no fn: each unnamed variant's (`_unnamed_variant`) and its snafu selector's. Only
    those: one `git grep` over risingwave took 12 s for every variant's 922 names, 0.2 s
    for ten."""
    found: set[str] = set()
    for path, line in sites:
        if graph.enclosing(path, line) is None:
            unnamed = _unnamed_variant(graph, path, line)
            if unnamed is not None:
                found.update(unnamed[1:])
    return found


def counted_file(graph: CallGraph, path: str) -> bool:
    """Whether a file's words count for `settle_mentions`: a file of the graph under no
    test directory. A test harness crate's do count (risingwave's `hummock_test` holds the
    trace replay tool, which builds `TraceError`s), and so do a `#[cfg(test)]` module's
    lines: the text cannot tell them, and a mention only keeps the claim off."""
    return path in graph.indexes and not language_of(path).is_test_path(path)


def in_patterns(path: str, source: bytes, words: Collection[str]) -> Mapping[str, int]:
    """How many times the file writes each of `words` in a `match` arm's pattern, which
    matches a variant and never builds it (`Language.pattern_mentions`): surrealdb's
    `to_types.rs` names every `Error` variant in one `match`, the dead `DtAlreadyExists`
    too, whose record read as one a user meets (reading 313)."""
    return language_of(path).pattern_mentions(path, source, words)


def settle_mentions(graph: CallGraph, counts: Mapping[str, int] | None) -> None:
    """Give the graph how many times the indexed files write each of `unbuilt_candidates`
    outside `match` arms' patterns (`wordcount.value_counts`): only a variant whose name is
    written nowhere else but where it is defined is said built by nothing (`never_built`);
    without the counts, none is."""
    if counts is not None:
        graph.derived["mentions"] = dict(counts)


def _is_snafu(graph: CallGraph, path: str, enum: str) -> bool:
    """Whether the `enum` of `path` derives snafu's `Snafu`."""
    return any(
        _SNAFU_DERIVE.search(a) for p, d in graph.definitions("enum", enum) if p == path
        for a in d.attrs
    )  # fmt: skip


_UPPER_NAME = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")


def _named_anywhere(graph: CallGraph) -> frozenset[str]:
    """Every upper-case name the indexed code builds, calls or writes as a value: the
    builds' types and variants, the calls' names, the names in their arguments and in
    `let` types, and those of `macro_rules!` bodies. Made once per graph."""
    table: frozenset[str] | None = graph.derived.get("named")
    if table is None:
        names: set[str] = set()
        texts: list[str] = []
        for index in graph.indexes.values():
            names.update(index.macro_names)
            for build in index.builds:
                names.add(build.enum)
                names.add(build.variant)
            for call in index.calls:
                names.add(call.name)
                texts.extend(call.args)
            for local in index.locals:
                texts.append(local.type)
                texts.append(local.variant)
        names.update(_UPPER_NAME.findall("\n".join(texts)))
        table = graph.derived["named"] = frozenset(names)
    return table
