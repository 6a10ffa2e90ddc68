"""The scan stage: every `.rs` blob at a commit -> its `FileScan`, parsed once per blob id.

Blobs whose id is in the scan cache are not read or parsed again; the rest are
read and parsed in a process pool over all cores, each worker with its own
`git cat-file --batch`, and the results are cached by blob id.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.core.macros import ErrorMacros, set_for_process, using
from pipeline.core.orphans import die_with_parent
from pipeline.core.progress import Progress
from pipeline.core.redact import for_terminal
from pipeline.core.sitetypes import FileScan
from pipeline.languages import language_of
from pipeline.languages.base import FileRefused
from pipeline.scan.cache import ScanCache, with_path
from pipeline.source.repository import BlobReader, Listing, TreeEntry

INLINE_LIMIT = 16  # below this many files a pool costs more than it saves
CHUNK_BYTES = 1_000_000


@dataclass
class RepoScan:
    """What the scan stage found at one commit."""

    scans: dict[str, FileScan]  # by path
    skipped: Counter[str] = field(default_factory=Counter)
    parsed: int = 0
    cached: int = 0
    warnings: list[str] = field(default_factory=list)


def merged(first: RepoScan, second: RepoScan) -> RepoScan:
    """Two scans of disjoint files as one."""
    return RepoScan(
        scans={**first.scans, **second.scans},
        skipped=first.skipped + second.skipped,
        parsed=first.parsed + second.parsed,
        cached=first.cached + second.cached,
        warnings=first.warnings + second.warnings,
    )


_reader: BlobReader | None = None
_cache: ScanCache | None = None


def _init_worker(git_dir: Path, cache_dir: Path, macros: ErrorMacros, pooled: bool = True) -> None:
    global _reader, _cache
    die_with_parent()  # a killed run leaves no worker behind
    if pooled:  # a worker scans one repository for its life (inline: `using` instead)
        set_for_process(macros)
    _reader = BlobReader(git_dir)
    _cache = ScanCache(cache_dir, macros.digest())


# A file to scan, and the blob its path held in the previous version (if another one).
Job = tuple[TreeEntry, str | None]


def _scan_chunk(jobs: Sequence[Job]) -> list[tuple[TreeEntry, FileScan | str | None]]:
    """Read, parse and cache one chunk; the cache is written here so encoding runs in parallel.

    A file whose previous version is in the cache parses only its changed units.
    """
    assert _reader is not None and _cache is not None
    out: list[tuple[TreeEntry, FileScan | str | None]] = []
    olds = [old for _, old in jobs if old is not None]
    old_scans = _cache.get_many(olds) if olds else {}
    wanted = [entry.blob_sha for entry, _ in jobs] + [old for old in olds if old in old_scans]
    blobs = dict(zip(wanted, _reader.read_many(wanted), strict=True))
    for entry, old in jobs:
        data = blobs[entry.blob_sha]
        if data is None:
            out.append((entry, None))
            continue
        language = language_of(entry.path)
        old_data, old_scan = blobs.get(old or ""), old_scans.get(old or "")
        known = language.unit_scans(old_data, old_scan) if old_data and old_scan else None
        try:
            out.append((entry, language.find_sites_after(entry.path, data, known)))
        except FileRefused as refused:  # a reason, not a scan: never cached, said each run
            out.append((entry, str(refused)))
    _cache.put_many({e.blob_sha: scan for e, scan in out if isinstance(scan, FileScan)})
    return out


def scan_listing(
    git_dir: Path,
    listing: Listing,
    cache: ScanCache,
    jobs: int | None = None,
    previous: Mapping[str, str] | None = None,
) -> RepoScan:
    """Scan every entry of a listing, reusing cached scans by blob id.

    `previous` maps paths to the blobs they held in the previous version: a changed
    file whose previous blob is in the cache parses only its changed units.
    """
    result = RepoScan(scans={})
    for skipped in listing.skipped:
        result.skipped[skipped.reason] += 1
        if skipped.reason == "missing-blob":
            result.warnings.append(
                f"{skipped.path}: blob missing from the object database; skipped"
            )
    # A test path's scan is empty by its path (`Language.is_test_path`), whatever its bytes:
    # never looked up nor cached by them, which a product file may hold too (a blob's scan
    # cached from `tests/lib.rs` had made the same bytes at `src/lib.rs` scan empty).
    tests = {e.path for e in listing.entries if language_of(e.path).is_test_path(e.path)}
    cached = cache.get_many(e.blob_sha for e in listing.entries if e.path not in tests)
    todo: list[TreeEntry] = []
    for entry in listing.entries:
        if entry.path in tests:
            result.scans[entry.path] = FileScan(sites=())
            result.parsed += 1
            continue
        hit = cached.get(entry.blob_sha)
        if hit is None:
            todo.append(entry)
        else:
            result.scans[entry.path] = with_path(hit, entry.path)
            result.cached += 1
    before = previous or {}
    work = [(entry, _other(before.get(entry.path), entry.blob_sha)) for entry in todo]
    with Progress(len(todo), "parse") as bar:
        for entry, scan in _run(git_dir, cache.directory, work, jobs, bar, listing.macros):
            if isinstance(scan, str):
                result.skipped["too-deep"] += 1
                result.warnings.append(f"{scan}; skipped")
                continue
            if scan is None:
                result.skipped["missing-blob"] += 1
                result.warnings.append(
                    f"{entry.path}: blob {entry.blob_sha[:12]} missing from the object database "
                    "(partial clone?); skipped"
                )
                continue
            result.scans[entry.path] = scan
            result.parsed += 1
    for warning in result.warnings:
        print(f"warning: {for_terminal(warning)}", file=sys.stderr)
    return result


def _other(old: str | None, new: str) -> str | None:
    return old if old != new else None


def _run(
    git_dir: Path,
    cache_dir: Path,
    todo: list[Job],
    jobs: int | None,
    bar: Progress,
    macros: ErrorMacros,
) -> list[tuple[TreeEntry, FileScan | str | None]]:
    workers = jobs or os.cpu_count() or 1
    if len(todo) <= INLINE_LIMIT or workers == 1:
        _init_worker(git_dir, cache_dir, macros, pooled=False)
        try:
            results = []
            with using(macros):
                for chunk in _chunks(todo, 1):
                    results.extend(_scan_chunk(chunk))
                    bar.advance(len(chunk))
            return results
        finally:
            if _reader is not None:
                _reader.close()
            if _cache is not None:
                _cache.close()
    results = []
    initargs = (git_dir, cache_dir, macros)
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=initargs) as pool:
        futures = [pool.submit(_scan_chunk, chunk) for chunk in _chunks(todo, workers)]
        for future in as_completed(futures):
            done = future.result()
            results.extend(done)
            bar.advance(len(done))
    return results


def _chunks(jobs: list[Job], workers: int) -> list[list[Job]]:
    """Chunks of about CHUNK_BYTES, biggest files first, so the workers finish together."""
    ordered = sorted(jobs, key=lambda job: job[0].size, reverse=True)
    target = min(CHUNK_BYTES, max(1, sum(job[0].size for job in jobs) // (workers * 4)))
    chunks: list[list[Job]] = [[]]
    size = 0
    for job in ordered:
        if size >= target:
            chunks.append([])
            size = 0
        chunks[-1].append(job)
        size += job[0].size
    return [c for c in chunks if c]
