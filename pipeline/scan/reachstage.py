"""The index stage of a run: index every file (cached per blob) and build the call graph;
`callerpaths` gives each site its `Reach` from it. `ERRDOC_NO_INDEX=1` turns it off (records
are the same either way; only the dataset's `reach.json` and the explanations that use a
path differ)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.core.index import FileIndex
from pipeline.core.timeline import mark
from pipeline.languages import INDEX_VERSION, RepositoryModules, language_of
from pipeline.scan.callgraph import MAX_DISPATCH, CallGraph
from pipeline.scan.entrypatterns import EntryPattern
from pipeline.scan.entrypoints import build_graph
from pipeline.scan.indexcache import IndexCache, index_entries
from pipeline.scan.linkmemo import LinkMemo, load_memo, memo_path, save_memo
from pipeline.source.repository import TreeEntry

REACH_FORMAT = 1


def index_enabled() -> bool:
    """False when `ERRDOC_NO_INDEX` is set to anything but `0` or empty."""
    return os.environ.get("ERRDOC_NO_INDEX", "") in ("", "0")


def reach_head(sha: str) -> dict[str, Any]:
    """What `reach.json` says of itself before its records."""
    return {"format": REACH_FORMAT, "index": INDEX_VERSION, "sha": sha}


def index_graph(
    git_dir: Path,
    entries: Sequence[TreeEntry],
    cache_dir: Path,
    jobs: int | None = None,
    advance: Callable[[int], None] | None = None,
    patterns: Sequence[EntryPattern] = (),
    memo_key: str | None = None,
    modules: RepositoryModules | None = None,
) -> CallGraph | None:
    """Index the commit's files and build its call graph; None when the index is turned off.

    `advance(n)` is told of each n files indexed (default: a progress bar of its own).
    `memo_key` (the repository's `owner/name`): the link starts from the previous one kept
    in the cache under it (`linkmemo`), and the graph has this one's (`save_link_memo`).
    `modules`: what the build manifests call the files (the entry points' names)."""
    if not index_enabled():
        return None
    indexes = index_entries(git_dir, entries, cache_dir, jobs, advance)
    mark("index: indexed")
    if memo_key is None:
        return build_graph(indexes, jobs, patterns, modules=modules)
    blobs = {e.path: e.blob_sha for e in entries if e.path in indexes}
    previous = load_memo(memo_path(cache_dir, memo_key, INDEX_VERSION), INDEX_VERSION, MAX_DISPATCH)
    old = _old_indexes(cache_dir, previous, blobs, indexes)
    return build_graph(indexes, jobs, patterns, (blobs, previous, old), modules)


def save_link_memo(cache_dir: Path, memo_key: str, graph: CallGraph) -> None:
    """Keep what `graph`'s link read and resolved for the next one (`linkmemo`); a cache
    that cannot be written costs the next run a full link, nothing else."""
    if graph.memo is None:
        return
    with contextlib.suppress(OSError):
        save_memo(memo_path(cache_dir, memo_key, INDEX_VERSION), graph.memo())


def _old_indexes(
    cache_dir: Path,
    previous: LinkMemo | None,
    blobs: Mapping[str, str],
    indexes: Mapping[str, FileIndex],
) -> dict[str, FileIndex]:
    """The index each path the previous link read had then: this run's where the blob is
    the same, else the cached one of the old blob (a path left out: not cached)."""
    if previous is None:
        return {}
    cache = IndexCache(cache_dir)
    try:
        fetched = cache.get_many({b for p, b in previous.blobs.items() if blobs.get(p) != b})
    finally:
        cache.close()
    out = {}
    for path, blob in previous.blobs.items():
        found = indexes.get(path) if blobs.get(path) == blob else fetched.get(blob)
        if found is not None and language_of(path).index_leaves_out(path):
            found = FileIndex(clean=False)  # as `index_entries` made it: no blob's index
        if found is not None:
            out[path] = found
    return out
