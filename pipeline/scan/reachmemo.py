"""The caller paths of the last run, kept so that a regeneration walks again only the fns a
change can have moved (issue 10: a regeneration's cost stays proportional to what changed).

`reach.json` holds a row for every record, and a carried record's row is made again at
every version: over one commit of risingwave, 2.0 s of a 4.95 s regeneration, 3,356 walks
made again of which 71 could have found something else.

A fn's paths (`callerpaths.caller_paths`) are read off the graph around it: the callers of
each fn the walk visits (each edge's caller, line, resolution, candidates and arm), each
visited fn's entry point and impl count, and the definitions of the fns named on the
paths. Each fn gets a digest of what of that is its own (`node_digests`): its place (path,
index in its file), its file's blob, its module and crate, its entry point, its impl count,
and its incoming edges in order, each caller by its place with the call's resolution and
its candidates (by their digests' own part: place, blob, module, crate). What else a walk
reads of an edge (the call's line, arm and arguments) is the caller's file's, and a walk
that reads it has the caller within `MAX_DEPTH` hops of its fn. A fn whose digest is not
the last run's (or that is new) is touched. A walk that visits no touched
fn reads what it read then and finds what it found then; a walk visits only fns within
`MAX_DEPTH` caller hops above its own, so the paths of every fn more than `MAX_DEPTH`
callee hops below every touched fn are taken over (`taken_over`). A touched fn's removed
edge touches the fn it pointed at; a path that went through it is walked again. A walk from
a variant's builders is kept under the builders it started from: found anew at every run,
a changed set of builders is another walk.

Stored per repository in the cache directory with `marshal`, as `linkmemo` is: no code is
loaded from it; one of another format, index or code (`walk_code`: the walk's modules'
source), or over other clap subcommands (a dispatch arm's label reads them), is no memo.
"""

from __future__ import annotations

import contextlib
import hashlib
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

from pipeline.core.cachefile import (
    read_marshalled,
    repository_file,
    source_digest,
    write_marshalled,
)
from pipeline.core.native import PACKAGE
from pipeline.core.reach import CallerPath, Hop
from pipeline.scan.buildable import type_facts
from pipeline.scan.callerpaths import MAX_DEPTH, Walked, Walks, trait_declared_elsewhere
from pipeline.scan.callgraph import CallGraph

MEMO_FORMAT = 3  # 2: a walk keeps how many entry points it found; 3: a returned error's walk
# The modules whose code decides what a walk finds: a memo holds only for the same code.
_WALKING = ("scan/callerpaths.py", "scan/buildable.py", "scan/callgraph.py",
            "scan/entrypoints.py", "scan/exports.py", "scan/reachmemo.py", "core/reach.py",
            "scan/valueflow.py", "languages/rust/cargo_deps.py")  # fmt: skip
_HOP_FIELDS = tuple(f.name for f in fields(Hop))

NodeKey = tuple[str, int]  # (path, the fn's index in its file's definitions)
# A walk as stored: whether its targets are a variant's builders, the targets by `NodeKey`.
StoredKey = tuple[bool, tuple[NodeKey, ...], bool]


@dataclass(frozen=True)
class ReachMemo:
    """What one run's walks read (a digest per fn) and found (by `StoredKey`: the targets
    by place, where `callerpaths.WalkKey` has them by node id)."""

    key: str  # what every walk read: code, index version, the graph's CLI names and package dependencies
    digests: Mapping[NodeKey, int]
    found: Mapping[StoredKey, tuple[Any, ...]]  # paths and counts, as plain tuples (`_plain`)


@cache
def walk_code() -> str | None:
    """A digest of the walking modules' source (None when it cannot be read: no memo)."""
    # the package's sources, also where the compiled modules run (`native`: from these)
    return source_digest([PACKAGE / name for name in _WALKING])


def memo_key(graph: CallGraph, index_version: str) -> str | None:
    """What every walk of `graph` reads besides its fns' own digests; None: keep no memo."""
    code = walk_code()
    if code is None:
        return None
    named = "\0".join(sorted(graph.subcommands)) + "\1" + "\0".join(sorted(graph.clap_enums))
    named += "\1" + repr(graph.dependency_tables)  # which packages see which (`buildable`)
    named += "\1" + repr(sorted(graph.clap_packages.items()))  # and their clap enums'
    named_digest = hashlib.sha256(named.encode()).hexdigest()[:16]
    # the digests are Python's hashes of ints and tuples: one Python's are not another's
    return f"{MEMO_FORMAT}:{code}:{index_version}:{named_digest}:{sys.hexversion}"


def memo_path(cache_dir: Path, repo: str, index_version: str) -> Path:
    """Where a repository's last paths are kept (`repo`: `owner/name`)."""
    return repository_file(cache_dir, "paths", repo, index_version)


def node_keys(graph: CallGraph) -> list[NodeKey]:
    """Each fn's `NodeKey` by node id (what outlives the graph's numbering)."""
    return graph.keys()


def node_digests(graph: CallGraph, blobs: Mapping[str, str], keys: Sequence[NodeKey]) -> list[int]:
    """Each fn's digest by node id: what of the graph a walk reads that is this fn's own.

    A hash of ints (a fn's own part is a 64-bit digest of its strings; an int's and a
    tuple's hash do not change from one process to the next, a str's does), so that
    risingwave's 75,000 edges are digested in a tenth of a second."""
    words: dict[Any, int] = {None: 0}  # a path, a blob, a module, an entry point: numbered once

    def word(value: Any) -> int:
        number = words.get(value)
        if number is None:
            number = words[value] = _number(repr(value))
        return number

    # who a fn is (its place), and what it is (its place, its file's blob, module, crate,
    # package, which of its types the repository defines: `type_facts`, and whether its
    # trait is declared elsewhere)
    place = [hash((word(key[0]), key[1])) for key in keys]
    blob = {path: word(blobs.get(path, "")) for path in graph.by_file}
    packages = graph.packages or [None] * len(keys)
    programs = graph.programs or [""] * len(keys)
    own = [
        hash((where, blob[key[0]], word(node.module), word(node.crate), word(package),
              word(program),
              tuple(map(word, type_facts(graph, node_id))),
              word(trait_declared_elsewhere(graph, node_id))))
        for node_id, (where, key, node, package, program) in enumerate(
            zip(place, keys, graph.nodes, packages, programs, strict=True)
        )
    ]  # fmt: skip
    impls = graph.derived.get("impls", {})
    callers, entries, doors = graph.callers, graph.entries, graph.front_doors
    out = []
    for node_id, mine in enumerate(own):
        way_in = word((entries.get(node_id), doors.get(node_id)))
        edges = callers.get(node_id)
        if edges:
            # A caller by its place: its line, arm and call are its file's, and a walk that
            # reads them names the caller on a path, or sets it aside by its call's
            # arguments: within `MAX_DEPTH` hops of the site's fn either way, so a change of
            # its file moves that walk (`below`) without moving this fn's other walks. How
            # the call resolved, and to which others, can change with other files.
            listed = [
                (place[e.caller], word(e.resolution),
                 tuple([own[c] for c in e.candidates]) if e.candidates else ())
                for e in edges
            ]  # fmt: skip
            out.append(hash((mine, way_in, impls.get(node_id, 0), *listed)))
        else:
            out.append(hash((mine, way_in, impls.get(node_id, 0))))
    return out


def _number(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def below(graph: CallGraph, touched: set[int], depth: int) -> set[int]:
    """The fns within `depth` callee hops below any of `touched` (`touched` included)."""
    callees: dict[int, list[int]] = {}
    for callee, edges in graph.callers.items():
        for e in edges:
            callees.setdefault(e.caller, []).append(callee)
    reached = dict.fromkeys(touched, 0)
    frontier = list(touched)
    while frontier:
        nearer = []
        for node in frontier:
            hops = reached[node] + 1
            if hops > depth:
                continue
            for callee in callees.get(node, ()):
                if callee not in reached:
                    reached[callee] = hops
                    nearer.append(callee)
        frontier = nearer
    return set(reached)


def taken_over(
    previous: ReachMemo | None,
    key: str | None,
    keys: Sequence[NodeKey],
    digests: Sequence[int],
    graph: CallGraph,
) -> Walks:
    """The walks of `previous` that `graph`'s would find again, by `WalkKey`: those none of
    whose targets lies within `MAX_DEPTH` callee hops below a touched fn."""
    if previous is None or key is None or previous.key != key or not previous.found:
        return {}
    old = previous.digests
    touched = {n for n, (k, d) in enumerate(zip(keys, digests, strict=True)) if old.get(k) != d}
    moved = below(graph, touched, MAX_DEPTH)
    ids = {k: n for n, k in enumerate(keys)}
    out: Walks = {}
    for stored, plain in previous.found.items():
        try:
            lone, targets, passed = stored
            nodes = tuple(ids[t] for t in targets)
        except (KeyError, TypeError, ValueError):  # a target gone, or a key of another shape
            continue
        if any(n in moved for n in nodes):
            continue
        found = _found(plain)
        if found is not None:
            out[(bool(lone), nodes, bool(passed))] = found
    return out


def kept(key: str, keys: Sequence[NodeKey], digests: Sequence[int], walks: Walks) -> ReachMemo:
    """This run's memo: every fn's digest, and every walk made (or taken over)."""
    return ReachMemo(
        key,
        dict(zip(keys, digests, strict=True)),
        {
            (lone, tuple(keys[n] for n in nodes), passed): _plain(v)
            for (lone, nodes, passed), v in walks.items()
        },
    )


def save_memo(path: Path, memo: ReachMemo) -> None:
    """Write `memo` atomically (a reader sees the old file or the new one)."""
    write_marshalled(
        path,
        MEMO_FORMAT,
        {"key": memo.key, "digests": dict(memo.digests), "found": dict(memo.found)},
    )


def load_memo(path: Path) -> ReachMemo | None:
    """The memo at `path`, or None: none there, not a memo (a row of the wrong shape is
    dropped when it is taken over, `_found`)."""
    data = read_marshalled(path, MEMO_FORMAT)
    if data is None:
        return None
    key, digests, found = data.get("key"), data.get("digests"), data.get("found")
    if not isinstance(key, str) or not isinstance(digests, dict) or not isinstance(found, dict):
        return None
    return ReachMemo(key, digests, found)


def _plain(value: Walked) -> tuple[Any, ...]:
    paths, callers, entries = value
    return (
        tuple(
            (tuple(tuple(getattr(h, f) for f in _HOP_FIELDS) for h in p.hops), p.entry,
             p.entry_label)
            for p in paths
        ),
        callers,
        entries,
    )  # fmt: skip


def _found(plain: Any) -> Walked | None:
    """`_plain`'s inverse; None for a value of another shape."""
    try:
        rows, callers, entries = plain
        paths = tuple(
            CallerPath(tuple(Hop(*hop) for hop in hops), entry, label)
            for hops, entry, label in rows
        )
    except (TypeError, ValueError):
        return None
    return (
        (paths, callers, entries) if isinstance(callers, int) and isinstance(entries, int) else None
    )


@dataclass
class KeptPaths:
    """The paths a run takes over from the last one's memo, and what keeps its own.

    `open` (after the link): the memo of `repo`'s last run read, the fns' digests taken and
    the walks that still hold found (`taken`: to seed `reaches_of`'s memo);
    `save(found)` (after the walks): this run's memo written. Digests are taken at `open`
    only when there is a memo to compare them with (a first run takes them in `save`, which
    the run does beside its own work)."""

    path: Path
    key: str | None
    graph: CallGraph
    blobs: Mapping[str, str]
    keys: list[NodeKey]
    digests: list[int] | None
    taken: Walks

    @classmethod
    def open(
        cls,
        cache_dir: Path,
        repo: str,
        graph: CallGraph,
        blobs: Mapping[str, str],
        index_version: str,
        wanted: bool = True,
    ) -> KeptPaths:
        """`wanted`: whether any walk is still to make (a run with no carried record has
        made all of its walks: none is read back)."""
        path = memo_path(cache_dir, repo, index_version)
        key = memo_key(graph, index_version)
        keys = node_keys(graph)
        previous = load_memo(path) if key is not None and wanted else None
        if previous is None or previous.key != key:
            return cls(path, key, graph, blobs, keys, None, {})
        digests = node_digests(graph, blobs, keys)
        return cls(
            path, key, graph, blobs, keys, digests, taken_over(previous, key, keys, digests, graph)
        )

    def save(self, found: Walks) -> None:
        """Keep `found` (every walk made or taken over) for the next run; a cache
        that cannot be written costs the next run its walks, nothing else."""
        if self.key is None:
            return
        digests = self.digests or node_digests(self.graph, self.blobs, self.keys)
        with contextlib.suppress(OSError):
            save_memo(self.path, kept(self.key, self.keys, digests, found))
