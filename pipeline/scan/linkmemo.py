"""The previous link, kept so that a regeneration resolves again only the calls a change
can have moved (issue 14: a version's cost follows the change).

Resolving a call reads the file's own index and looks names up in tables over the whole
repository (`callgraph._Tables`): fns by name, a type's methods, fields, aliases, traits,
another file's `use`s. Each lookup a file's calls made is recorded as a key (`Key`: its
kind, then what was looked up). A file that changed, appeared or went away touches the
keys its definitions, impls and path contribute to those tables, old and new. A file
whose blob is the one the previous link read, and none of whose lookups is touched,
resolves as it did then: its resolutions are taken over, their nodes renumbered. Anything
else is resolved again, so the graph is the one a full link makes (the tests and `bench
regen` hold the two equal edge for edge).

Stored per repository (`owner/name`) in the cache directory with `marshal`: no code
is loaded from it; a memo of the wrong shape or version is no memo (a full link), and
neither is one that another version of the resolving code wrote (`LINK_CODE`: a memo's
resolutions are only as good as the code that made them).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pipeline.core.cachefile import (
    read_marshalled,
    repository_file,
    source_digest,
    write_marshalled,
)
from pipeline.core.index import Definition, FileIndex
from pipeline.core.native import PACKAGE
from pipeline.scan.context import _crate
from pipeline.scan.names import crate_name, inner_type, module_of
from pipeline.scan.signatures import handled_message, is_rpc, tuple_fields

MEMO_FORMAT = 1
# The modules whose code decides how a call resolves: a memo holds only for the same code.
_RESOLVING = ("callgraph", "linkmemo", "names", "signatures", "context", "elements")

Key = tuple[str, ...]
# One call resolved, with nodes named so that they outlive a renumbering: (the call's index
# in its file's calls, the caller's index in its file's definitions, how it was resolved,
# each callee as (path, definition index)).
Linked = tuple[int, int, str, tuple[tuple[str, int], ...]]


@dataclass(frozen=True)
class LinkMemo:
    """What one link read and resolved, file by file."""

    index_version: str
    dispatch_limit: int
    blobs: Mapping[str, str]  # path -> blob of every file linked
    resolved: Mapping[str, tuple[Linked, ...]]  # path -> its calls resolved
    keys: tuple[Key, ...]  # every key looked up, numbered (`encoded`)
    base: int  # how many keys the table had when it was last built from scratch
    lookups: Mapping[str, bytes]  # path -> the numbers of what resolving its calls looked up
    generation: int = 0  # how many links this memo's line has made
    since: Mapping[str, int] = field(default_factory=dict)  # path -> the link that resolved it


@cache
def link_code() -> str | None:
    """A digest of the resolving modules' source (None when it cannot be read: no memo)."""
    # the package's sources, also where the compiled modules run (`native`: from these)
    return source_digest([PACKAGE / "scan" / f"{name}.py" for name in _RESOLVING])


def memo_path(cache_dir: Path, repo: str, index_version: str) -> Path:
    """Where the memo of a repository's last link is kept (`repo`: `owner/name`). Any memo
    gives the right graph (it is checked file by file); the key keeps one per repository."""
    return repository_file(cache_dir, "link", repo, index_version)


def save_memo(path: Path, memo: LinkMemo) -> None:
    """Write `memo` atomically (a reader sees the old file or the new one)."""
    write_marshalled(
        path,
        MEMO_FORMAT,
        {
            "code": link_code(),
            "index": memo.index_version,
            "limit": memo.dispatch_limit,
            "blobs": dict(memo.blobs),
            "resolved": dict(memo.resolved),
            "keys": memo.keys,
            "base": memo.base,
            "lookups": dict(memo.lookups),
            "generation": memo.generation,
            "since": dict(memo.since),
        },
    )


def load_memo(path: Path, index_version: str, dispatch_limit: int) -> LinkMemo | None:
    """The memo at `path`, or None: none there, another version or limit, not a memo."""
    data = read_marshalled(path, MEMO_FORMAT)
    if data is None:
        return None
    if link_code() is None or data.get("code") != link_code():
        return None
    if data.get("index") != index_version or data.get("limit") != dispatch_limit:
        return None
    blobs, resolved, lookups = data.get("blobs"), data.get("resolved"), data.get("lookups")
    if not all(isinstance(part, dict) for part in (blobs, resolved, lookups)):
        return None
    assert isinstance(blobs, dict) and isinstance(resolved, dict) and isinstance(lookups, dict)
    if not (blobs.keys() == resolved.keys() == lookups.keys()):
        return None
    keys, base = data.get("keys"), data.get("base")
    if (
        not isinstance(keys, tuple)
        or not isinstance(base, int)
        or not all(isinstance(v, bytes) and len(v) % _ID.itemsize == 0 for v in lookups.values())
    ):
        return None
    generation, since = data.get("generation"), data.get("since")
    if not isinstance(generation, int) or not isinstance(since, dict):
        return None
    return LinkMemo(
        index_version, dispatch_limit, blobs, resolved, keys, base, lookups, generation, since
    )


_ID = array("i")  # a key's number in `LinkMemo.keys`, as stored


def encoded(numbers: Iterable[int]) -> bytes:
    """Key numbers as `LinkMemo.lookups` stores them: 4 bytes each, native order (the memo
    stays on the machine that wrote it)."""
    return array("i", sorted(numbers)).tobytes()


def numbers(raw: bytes) -> array[int]:
    """The key numbers `encoded` stored."""
    out = array("i")
    out.frombytes(raw)
    return out


def numbered(
    previous: LinkMemo | None, fresh: Mapping[str, frozenset[Key]], kept: Mapping[str, bytes]
) -> tuple[tuple[Key, ...], int, dict[str, bytes]]:
    """The key table, its size when last built, and every file's lookups by number:
    `kept` as stored (numbers of `previous`'s table, which only grows), `fresh` numbered
    anew. A table grown to twice its size since it was last built (keys no file may look
    up any more among them) is built again from the lookups."""
    table = list(previous.keys) if previous is not None and kept else []
    base = previous.base if previous is not None else 0
    if previous is not None and kept and len(table) > 2 * base + 4096:
        by_number = previous.keys
        again = {p: frozenset(by_number[n] for n in numbers(raw)) for p, raw in kept.items()}
        fresh, kept, table = {**again, **fresh}, {}, []
    index = {key: n for n, key in enumerate(table)}
    out = dict(kept)
    for path, keys in fresh.items():
        ids = []
        for key in keys:
            n = index.get(key)
            if n is None:
                n = index[key] = len(table)
                table.append(key)
            ids.append(n)
        out[path] = encoded(ids)
    return tuple(table), (base if kept else len(table)), out


def contributions(path: str, index: FileIndex) -> dict[Key, tuple[Any, ...]]:
    """The table keys a file's index gives values to (`callgraph._Tables`, the module and
    crate maps, its `use`s), each with what it gives, in file order: a lookup of any other
    key reads nothing of this file, and one of a key whose value is the same as before
    reads what it read then."""
    crate = _crate(path)
    out: dict[Key, list[Any]] = {
        ("file", path): [index.uses],
        ("mod", crate, module_of(path)): [True],
        ("crate", crate_name(crate)): [True],
    }
    for use in index.uses:  # a renamed import: a name calls may have (`Use.renames`), and
        if use.renames():  # the type it names (`_Tables.renamed_types`)
            out.setdefault(("k", use.alias), [True])
            out.setdefault(("u", use.alias), []).append(use.path)
    for d in index.definitions:
        name, owner = d.name, d.owner
        keys: tuple[Key, ...] = ()
        if d.kind == "fn":
            out.setdefault(("k", name), [True])  # `known`: whether a fn has the name at all
            if owner is None:
                keys = (("f", name),)
            else:
                keys = (("m", owner, name), ("n", name))
                if owner == d.trait:
                    keys += (("t", owner),)
                elif d.trait and is_rpc(d):
                    keys += (("r", name),)
        elif d.kind == "trait":
            keys = (("t", name), ("s", name), ("d", name))
        elif d.kind in ("struct", "enum"):
            keys = (("d", name), ("x", name))
            if d.kind == "struct" and "(" in d.signature:  # a tuple struct's `self.0`
                keys += tuple(("fd", name, str(at)) for at in range(len(tuple_fields(d.signature))))
        elif d.kind == "type":
            keys = (("d", name), ("a", name), ("as", name))
            if owner is not None:
                keys += (("x", owner),)
            elif d.value:  # an alias of the type it names (`callgraph._methods_of_aliases`)
                keys += (("ra", inner_type(d.value)),)
        elif d.kind == "variant" and owner is not None:
            keys = (("v", owner),)
        elif d.kind == "field" and owner is not None:
            keys = (("fd", owner, name),)
        fingerprint = _fingerprint(d)
        for key in keys:
            out.setdefault(key, []).append(fingerprint)
    for impl in index.impls:
        out.setdefault(("o", impl.type), []).append(impl.trait)
        handled = handled_message(impl.trait) if impl.trait else None
        if handled:  # an actor's `impl Handler<M>`: what a send of an M reaches (`handlers`)
            handle = [_fingerprint(d) for d in index.definitions if d.trait == "Handler"
                      and d.owner == impl.type and d.name == "handle"]  # fmt: skip
            out.setdefault(("h", handled), []).append((impl.type, *handle))
    return {key: tuple(values) for key, values in out.items()}


def _fingerprint(d: Definition) -> tuple[Any, ...]:
    """What resolving a call may read of a definition: all but where it is and its docs."""
    return (d.kind, d.name, d.owner, d.trait, d.signature, d.params, d.has_self, d.value, d.module)


# Per changed file, its fns' definition indexes in the previous link -> in this one.
Moves = dict[str, dict[int, int]]


def touched(
    memo: LinkMemo,
    blobs: Mapping[str, str],
    indexes: Mapping[str, FileIndex],
    old_indexes: Mapping[str, FileIndex],
    known: Callable[[str], bool],
    named_elsewhere: Callable[[str, frozenset[str]], bool],
) -> tuple[frozenset[str], set[Key], Moves] | None:
    """The files that differ from the memo's (changed, new or gone), the keys whose values
    they changed, and where each fn of a changed file went (the k-th definition of a
    fingerprint is the k-th one still); None when an old index is not to be had
    (`old_indexes`: by path, each file as the memo's link read it).
    `known(name)`: whether a fn has the name now; `named_elsewhere(name, changed)`: whether
    a fn of a file not in `changed` has it."""
    changed = frozenset(
        path for path in memo.blobs.keys() | blobs.keys() if memo.blobs.get(path) != blobs.get(path)
    )
    keys: set[Key] = set()
    moves: Moves = {}
    named_before: set[str] = set()  # fn names the changed files had
    for path in changed:
        old = old_indexes.get(path) if path in memo.blobs else None
        if path in memo.blobs and old is None:
            return None
        new = indexes[path] if path in blobs else None
        before = contributions(path, old) if old is not None else {}
        after = contributions(path, new) if new is not None else {}
        keys.update(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        named_before.update(k[1] for k in before if k[0] == "k")
        if old is not None and new is not None:
            moves[path] = _moves(old, new)
    # `known` is whether any fn has a name: touched only where that changed
    for key in [k for k in keys if k[0] == "k"]:
        if known(key[1]) == (key[1] in named_before or named_elsewhere(key[1], changed)):
            keys.discard(key)
    return changed, keys, moves


def _moves(old: FileIndex, new: FileIndex) -> dict[int, int]:
    """Each fn of `old` -> the definition index of the same fn in `new` (by fingerprint and
    order of appearance); a fn with no such match is left out."""
    places: dict[tuple[Any, ...], list[int]] = {}
    for i, d in enumerate(new.definitions):
        if d.kind == "fn":
            places.setdefault(_fingerprint(d), []).append(i)
    taken: dict[tuple[Any, ...], int] = {}
    out = {}
    for i, d in enumerate(old.definitions):
        if d.kind != "fn":
            continue
        fingerprint = _fingerprint(d)
        k = taken.get(fingerprint, 0)
        found = places.get(fingerprint, [])
        if k < len(found):
            out[i] = found[k]
        taken[fingerprint] = k + 1
    return out


def reusable(memo: LinkMemo, changed: frozenset[str], keys: set[Key]) -> Iterable[str]:
    """The files of the memo whose resolutions stand: unchanged, and no lookup touched."""
    hit = {n for n, key in enumerate(memo.keys) if key in keys}
    for path, raw in memo.lookups.items():
        if path not in changed and hit.isdisjoint(numbers(raw)):
            yield path
