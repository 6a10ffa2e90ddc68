"""The per-blob index cache and the pass that fills it: a git blob id -> its `FileIndex`.

One SQLite file per index version (`CACHE/index-v<INDEX_VERSION>.sqlite`), apart from
the scan cache: the index reads whole files, the scan only the items that can hold a
site, and either may change without invalidating the other. A blob's index does not
depend on its path (test paths are decided before indexing), so a renamed file is not
parsed again. `marshal`, not pickle: the cache directory is not trusted to hold code, and
loading marshal's data runs none; a row that is not an index's shape is a miss.
"""

from __future__ import annotations

import gc
import marshal
import os
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from pipeline.core.cachefile import MARSHAL_FORMAT
from pipeline.core.index import (
    Arm,
    Build,
    Call,
    Definition,
    FileIndex,
    Impl,
    Local,
    Route,
    Scope,
    Subcommand,
    Use,
)
from pipeline.core.orphans import die_with_parent
from pipeline.core.progress import Progress
from pipeline.languages import INDEX_VERSION, language_of
from pipeline.languages.base import FileRefused
from pipeline.scan.cache import select_in
from pipeline.source.gitcmd import SHA_RE
from pipeline.source.repository import BlobReader, TreeEntry

INLINE_LIMIT = 16
_T = TypeVar("_T")
_FIELDS = (
    "definitions",
    "calls",
    "uses",
    "locals",
    "arms",
    "routes",
    "impls",
    "subcommands",
    "builds",
    "scopes",
)
_TYPES: dict[str, Any] = {
    "definitions": Definition,
    "calls": Call,
    "uses": Use,
    "locals": Local,
    "arms": Arm,
    "routes": Route,
    "impls": Impl,
    "subcommands": Subcommand,
    "builds": Build,
    "scopes": Scope,
}
_TUPLES = {  # fields that are tuples in the dataclass
    Definition: {
        f
        for f in Definition._fields
        if f in ("params", "attrs", "status_codes", "status_arms", "variant_arms")
    },
    Call: {"args"},
    Arm: {"calls"},
    Build: {"when"},
}


class IndexCache:
    """File indexes by blob id, persisted in SQLite."""

    def __init__(self, cache_dir: Path) -> None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        self.path = cache_dir / f"index-v{INDEX_VERSION}.sqlite"
        self._db = sqlite3.connect(self.path, timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS indexes (blob TEXT PRIMARY KEY, body BLOB NOT NULL)"
        )
        # The blob each path held when last indexed: a changed file is indexed from that
        # version's index, parsing only the units that changed (`index_file_after`). Any
        # repository's path may be here: a blob this repository lacks is simply not used.
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS paths (path TEXT PRIMARY KEY, blob TEXT NOT NULL)"
        )

    def get_many(self, blobs: Iterable[str]) -> dict[str, FileIndex]:
        """The cached indexes among `blobs`; a damaged row is a miss."""
        found: dict[str, FileIndex] = {}
        for blob, body in select_in(self._db, "blob, body FROM indexes WHERE blob", blobs):
            try:
                found[blob] = decoded(body)
            except (KeyError, TypeError, ValueError, EOFError):
                continue
        return found

    def present(self, blobs: Iterable[str]) -> set[str]:
        """Which of `blobs` have a row (not decoded: see `get_many`)."""
        return {blob for (blob,) in select_in(self._db, "blob FROM indexes WHERE blob", blobs)}

    def last_blobs(self, paths: Iterable[str]) -> dict[str, str]:
        """The blob each of `paths` held when it was last indexed (those known)."""
        rows = select_in(self._db, "path, blob FROM paths WHERE path", paths)
        # the cache is not trusted: only a blob id goes on to `git cat-file`
        return {p: b for p, b in rows if isinstance(b, str) and SHA_RE.fullmatch(b)}

    def remember(self, entries: Iterable[TreeEntry]) -> None:
        """Record the blob each entry's path holds now (`last_blobs`). Only the rows that
        differ are written: a regeneration's paths mostly hold the blob they held (writing
        risingwave's 2,700 rows again took 0.2 s, on the way to the call graph)."""
        now = {e.path: e.blob_sha for e in entries}
        known = dict(select_in(self._db, "path, blob FROM paths WHERE path", now))
        changed = [(path, blob) for path, blob in now.items() if known.get(path) != blob]
        if not changed:
            return
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO paths VALUES (?, ?)", changed)

    def put_many(self, indexes: Mapping[str, FileIndex]) -> None:
        """Store indexes by blob id, in one transaction."""
        self.put_encoded({blob: encoded(index) for blob, index in indexes.items()})

    def put_encoded(self, bodies: Mapping[str, bytes]) -> None:
        """Store indexes already `encoded`, by blob id, in one transaction."""
        rows = list(bodies.items())
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO indexes VALUES (?, ?)", rows)

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def encoded(index: FileIndex) -> bytes:
    """A file index as the cache stores it and a pool worker sends it: `marshal` bytes of
    `encode_index` (bytes pickle at memcpy speed, 400,000 NamedTuples do not; risingwave's
    2,700 indexes decode in 0.5 s, 0.9 s from JSON, which loses which lists were tuples)."""
    return marshal.dumps(encode_index(index), MARSHAL_FORMAT)


def decoded(body: bytes) -> FileIndex:
    """The inverse of `encoded`; ValueError (or TypeError) when `body` is not one."""
    data = marshal.loads(body)
    if not isinstance(data, dict):
        raise ValueError("not an encoded index")
    return decode_index(data)


def encode_index(index: FileIndex) -> dict[str, Any]:
    """A plain form of a file index: each record the tuple of its fields, in order, its
    own tuple fields tuples (the builders may give lists); no other type but str, int,
    bool and None in it."""
    body: dict[str, Any] = {
        "clean": index.clean,
        "test_modules": tuple(index.test_modules),
        "private_modules": tuple(index.private_modules),
        "crate_modules": tuple(index.crate_modules),
        "public_uses": tuple(index.public_uses),
        "inline_uses": tuple(map(tuple, index.inline_uses)),
        "crate_uses": tuple(index.crate_uses),
        "macro_names": tuple(index.macro_names),
    }
    for name in _FIELDS:
        flat, nested = _FLAT[name], _NESTED[name]
        rows = getattr(index, name)
        if not flat and not nested:
            body[name] = tuple(map(tuple, rows))
            continue
        out = []
        for row in rows:
            raw = list(row)
            for at in flat:
                raw[at] = tuple(raw[at])
            for at in nested:
                raw[at] = tuple(map(tuple, raw[at]))
            out.append(tuple(raw))
        body[name] = tuple(out)
    return body


def decode_index(data: dict[str, Any]) -> FileIndex:
    """The inverse of `encode_index`: positional (`_make`), nothing converted (a
    regeneration decodes ~2,500 files). A row of the wrong shape raises TypeError."""
    parts: dict[str, Any] = {
        "clean": bool(data["clean"]),
        "test_modules": tuple(str(m) for m in data["test_modules"]),
        "private_modules": tuple(str(m) for m in data["private_modules"]),
        "crate_modules": tuple(str(m) for m in data["crate_modules"]),
        "public_uses": tuple(int(n) for n in data["public_uses"]),
        "inline_uses": tuple((int(n), str(m)) for n, m in data["inline_uses"]),
        "crate_uses": tuple(int(n) for n in data["crate_uses"]),
        "macro_names": tuple(str(n) for n in data["macro_names"]),
    }
    for name in _FIELDS:
        rows = data[name]
        if type(rows) is not tuple:
            raise TypeError(f"{name}: not a tuple")
        parts[name] = tuple(map(_TYPES[name]._make, rows))
    return FileIndex(**parts)


_NESTED_FIELDS = {"params", "when"}  # lists of pairs (triples): [name, type], [kind, text, negated]
_FLAT = {
    name: [i for i, f in enumerate(kind._fields) if f in _TUPLES.get(kind, set()) - _NESTED_FIELDS]
    for name, kind in _TYPES.items()
}
_NESTED = {
    name: [i for i, f in enumerate(kind._fields) if f in _TUPLES.get(kind, set()) & _NESTED_FIELDS]
    for name, kind in _TYPES.items()
}


_reader: BlobReader | None = None
_cache: IndexCache | None = None


def _init_worker(git_dir: Path, cache_dir: Path, pooled: bool = False) -> None:
    global _reader, _cache
    die_with_parent()  # a killed run leaves no worker behind
    if pooled:  # a worker frees what it made file by file: collect as usual, whoever forked it
        gc.enable()
    _reader = BlobReader(git_dir)
    _cache = IndexCache(cache_dir)


# A file to index, and the blob its path held when last indexed (whose index is cached).
Job = tuple[TreeEntry, str | None]


def _index_chunk(jobs: Sequence[Job]) -> list[tuple[TreeEntry, bytes | None]]:
    """Read, index and cache one chunk; each index comes back `encoded` (None: no blob).

    A file whose earlier version is cached parses only its changed units. The cache is
    written here, so encoding runs in parallel; the caller decodes."""
    assert _reader is not None and _cache is not None
    olds = [old for _, old in jobs if old is not None]
    old_indexes = _cache.get_many(olds) if olds else {}
    wanted = [entry.blob_sha for entry, _ in jobs] + [o for o in olds if o in old_indexes]
    blobs = dict(zip(wanted, _reader.read_many(wanted), strict=True))
    out: list[tuple[TreeEntry, bytes | None]] = []
    for entry, old in jobs:
        data = blobs[entry.blob_sha]
        if data is None:
            out.append((entry, None))
            continue
        old_data, old_index = blobs.get(old or ""), old_indexes.get(old or "")
        before = (old_data, old_index) if old_data is not None and old_index is not None else None
        out.append((entry, encoded(_index_one(entry.path, data, before))))
    _cache.put_encoded({entry.blob_sha: body for entry, body in out if body is not None})
    return out


def _index_one(path: str, data: bytes, before: tuple[bytes, FileIndex] | None) -> FileIndex:
    """One file's index (from `before`, an earlier version and its index, when given); a
    file the front end refuses (nested too deeply) indexes as empty."""
    language = language_of(path)
    try:
        if before is not None:
            return language.index_file_after(path, data, *before)
        return language.index_file(path, data)
    except FileRefused:  # the scan pass reports the reason; the index just has nothing here
        return FileIndex(clean=False)


def index_entries(
    git_dir: Path,
    entries: Sequence[TreeEntry],
    cache_dir: Path,
    jobs: int | None = None,
    advance: Callable[[int], None] | None = None,
) -> dict[str, FileIndex]:
    """The index of every entry by path: cached by blob id, the rest parsed in a process pool.

    The cached ones are decoded while the pool parses the others. `advance(n)` is told of
    each n files done, cached ones included; by default a bar on stderr counts the parsed.
    A file the index leaves out by its path (test code) is neither looked up nor cached: a
    blob's index is its bytes', and the same bytes may sit at a product path too (tauri's
    `build.rs` of its examples and of its benchmarks' tests)."""
    everything = entries
    left_out = {e.path for e in entries if language_of(e.path).index_leaves_out(e.path)}
    entries = [e for e in entries if e.path not in left_out]
    if advance is not None and left_out:
        advance(len(left_out))
    cache = IndexCache(cache_dir)
    try:
        present = cache.present(e.blob_sha for e in entries)
        todo = [e for e in entries if e.blob_sha not in present]
        before = cache.last_blobs(e.path for e in todo)
        indexed = cache.present(before.values())
        jobs_of: list[Job] = [(e, before.get(e.path)) for e in todo]
        jobs_of = [(e, old if old in indexed else None) for e, old in jobs_of]

        def decode() -> dict[str, FileIndex]:
            found = cache.get_many(present)
            if advance is not None:
                advance(sum(1 for e in entries if e.blob_sha in found))
            return found

        made, cached = _run(git_dir, cache_dir, jobs_of, jobs, advance, decode)
        damaged: list[Job] = [
            (e, None) for e in entries if e.blob_sha in present and e.blob_sha not in cached
        ]
        if damaged:  # a row that does not decode is a miss: parsed again, here
            made += _run(git_dir, cache_dir, damaged, 1, advance, dict)[0]
        cache.remember(entries)
    finally:
        cache.close()
    by_entry = dict(made)
    result: dict[str, FileIndex] = {}
    for entry in everything:
        index = cached.get(entry.blob_sha) or by_entry.get(entry)
        if entry.path in left_out:
            index = FileIndex(clean=False)  # what indexing it says, and no cache's
        if index is not None:
            result[entry.path] = index
    return result


def _run(
    git_dir: Path,
    cache_dir: Path,
    todo: list[Job],
    jobs: int | None,
    advance: Callable[[int], None] | None,
    meanwhile: Callable[[], _T],
) -> tuple[list[tuple[TreeEntry, FileIndex | None]], _T]:
    """Index `todo`, and run `meanwhile` in this process while a pool does."""
    workers = jobs or os.cpu_count() or 1
    if len(todo) <= INLINE_LIMIT or workers == 1:
        other = meanwhile()
        if not todo:
            return [], other
        _init_worker(git_dir, cache_dir)
        try:
            done = _decoded(_index_chunk(todo))
            if advance is not None:
                advance(len(done))
            return done, other
        finally:
            if _reader is not None:
                _reader.close()
            if _cache is not None:
                _cache.close()
    ordered = sorted(todo, key=lambda job: job[0].size, reverse=True)
    chunks = [ordered[i :: workers * 16] for i in range(workers * 16)]
    out: list[tuple[TreeEntry, FileIndex | None]] = []
    with (
        ProcessPoolExecutor(
            workers, initializer=_init_worker, initargs=(git_dir, cache_dir, True)
        ) as pool,
        Progress(0 if advance else len(todo), "index") as bar,
    ):
        results = pool.map(_index_chunk, [c for c in chunks if c])  # submitted, all of them
        other = meanwhile()
        for rows in results:
            out.extend(_decoded(rows))
            (advance or bar.advance)(len(rows))
    return out, other


def _decoded(
    rows: Sequence[tuple[TreeEntry, bytes | None]],
) -> list[tuple[TreeEntry, FileIndex | None]]:
    return [(entry, None if body is None else decoded(body)) for entry, body in rows]
