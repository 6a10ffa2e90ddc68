"""The published dataset on disk (SPEC 6), written so that a crash never leaves it half-done.

```
OUT/<owner>/<name>/
  records/<id>.json                   {"record": {...}, "datasetVersion": "..."}
  records.jsonl                       every record, compact, sorted by id
  manifest.json                       repo, sha, datasetVersion, counts, records, retired, versions
  versions/<datasetVersion>.*         every published version: changes or a snapshot (`history`)
  reach.json                          how each record is reached (caller paths), by record id
```
Publishing builds the whole next dataset directory beside the live one (new
`records.jsonl` and `manifest.json`, hard links to everything else, `versions/`
included) and swaps it in with `atomicdir`, so `records/` and `manifest.json`
change together: a crash leaves one whole version. In `records/`, the file of a
record that did not change (`Publication.kept`: its source file's blob is the one it
was made from) is a hard link to the live one, so its inode, mtime and
`datasetVersion` (the version that last wrote it) stay, and a dataset committed to
git changes by what changed (SPEC 7). A reader that finds a manifest of a format it
does not know refuses it.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pipeline.core.errors import StoreError as StoreError
from pipeline.core.model import Provenance, Record, Retired
from pipeline.core.timeline import mark
from pipeline.dataset import atomicdir, history
from pipeline.dataset.previous import MANIFEST_FORMAT, Previous
from pipeline.dataset.spill import Layered


@dataclass(frozen=True)
class Publication:
    """Everything one run publishes."""

    repo: str
    sha: str
    version: str
    records: Sequence[Record]
    provenance: Mapping[str, Provenance]
    counts: Mapping[str, Any]
    retired: Mapping[str, Retired] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    # Records carried over unparsed (`carry`): compact lines and provenance in JSON form.
    carried_lines: Mapping[str, str] = field(default_factory=dict)
    carried_provenance: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # `reach.json`'s bytes (`reach_file`: how each record is reached; issue 10), or what
    # gives them, called once when the file is written, after the records are staged (the
    # index child makes them meanwhile; it returns None once the child has written the file
    # into the `prestage`d directory itself); None when no index was built.
    reach: bytes | Callable[[], bytes | None] | None = None
    # Records and provenance already serialised (`compact_record`, `compact_json`), as an
    # extract of 200,000 files passes them: text takes a third of a model's memory.
    lines: Mapping[str, str] = field(default_factory=dict)
    provenance_lines: Mapping[str, str] = field(default_factory=dict)

    # Records made again whose line is the previous version's, to the byte (explained again
    # by another analyzer version to the same text): their published file stays too.
    same: frozenset[str] = frozenset()

    @property
    def kept(self) -> frozenset[str]:
        """The records whose published file stays as it is (SPEC 7)."""
        return frozenset(self.carried_lines) | self.same


def dataset_dir(out: Path, repo: str) -> Path:
    """`OUT/<owner>/<name>`."""
    owner, name = repo.split("/", 1)
    return out / owner / name


def dataset_dirs(out: Path) -> list[Path]:
    """Every published dataset `OUT/<owner>/<name>/`; hidden entries (staging, spare) skipped."""
    if not out.is_dir():
        return []
    return sorted(
        name
        for owner in out.iterdir()
        if owner.is_dir() and not owner.name.startswith(".")
        for name in owner.iterdir()
        if name.is_dir() and _dataset_name(name.name) and (name / "records").is_dir()
    )


def _dataset_name(name: str) -> bool:
    """A dataset's directory name: not hidden, or hidden with no other dot (`.github`)."""
    return not name.startswith(".") or (name.count(".") == 1 and len(name) > 1)


def new_version() -> str:
    """Now, as ISO-8601 UTC with milliseconds and `Z`."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def record_json(record: Record, version: str) -> bytes:
    """The bytes of `records/<id>.json`, key order as in the seeds."""
    return _record_file(compact_record(record), version)


def compact_record(record: Record) -> str:
    """A record's line in `records.jsonl`."""
    # pydantic's serialiser writes what `json.dumps(..., ensure_ascii=False, separators=(",",
    # ":"))` would (field order, escapes), at a fraction of the cost; a test holds it to that.
    return record.model_dump_json()


def compact_json(value: Any) -> str:
    """JSON as the manifest writes it: compact, UTF-8 kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def reach_file(head: Mapping[str, Any], rows: Mapping[str, str]) -> bytes:
    """`reach.json` from its head and each record's row by id (`reach_json_text`): valid JSON with one
    record per line, so that a version committed to git changes the lines of the records
    whose paths changed."""
    compact = _COMPACT.encode
    top = compact(dict(head))[:-1] + ("," if head else "")
    # Joined as bytes, each row encoded alone: one `str` of the whole file would be stored
    # two bytes a character as soon as one row holds a non-ASCII one (a cut text's `…`),
    # then copied twice (risingwave's 21 MB file: 128 MB made, 33,000 pages faulted in
    # 0.09 s, against 24 MB and 0.02 s).
    parts = [f'{top}"records":{{\n'.encode()]
    for rid in sorted(rows):
        parts += (f"{compact(rid)}:{rows[rid]}".encode(), b",\n")
    if len(parts) > 1:
        parts.pop()  # the last row's comma
    parts.append(b"\n}}\n")
    return b"".join(parts)


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _record_file(compact: str, version: str) -> bytes:
    return f'{{"record":{compact},"datasetVersion":{json.dumps(version)}}}\n'.encode()


def prestage(root: Path) -> Path:
    """The next version's directory, claimed ahead of `publish` (`staged`): the spare tree
    or a new one, the live tree's other files linked in. `prestage_records` then makes its
    record files; a run does both while it waits (for its index)."""
    root.mkdir(parents=True, exist_ok=True)
    atomicdir.recover(root)
    staging = atomicdir.claim_staging(root)
    try:
        atomicdir.link_tree(root, staging, skip=set(_REWRITTEN))
    except BaseException:
        unstage(staging)
        raise
    return staging


def prestage_records(root: Path, staged: Path, ids: Iterable[str], kept: Iterable[str]) -> None:
    """The record files of a `prestage`d directory, but for their contents: what takes the
    time is making files, not writing them (creating one costs up to 40x rewriting one on
    this project's machines). `ids`: the records the version will hold; `kept`: those whose
    live file it keeps (SPEC 7), linked now. Each other record gets a file of the new tree's
    own, empty; `publish` writes it."""
    _prepare_records(root / "records", staged / "records", ids, frozenset(kept))


def unstage(staged: Path) -> None:
    """A `prestage`d directory that will not be published, removed: a run that failed (a
    full disk, say) gives its space back, as `publish` does."""
    shutil.rmtree(staged, ignore_errors=True)


def publish(
    root: Path,
    publication: Publication,
    previous: Previous | None,
    keep: int | None = None,
    staged: Path | None = None,
) -> None:
    """Publish a new version of the dataset at `root`, atomically as seen by readers.

    `keep`: how many versions stay rebuildable (`--keep-versions`); None keeps all.
    `staged`: what `prestage` made ready under the same lock, since nothing else wrote.
    """
    root.mkdir(parents=True, exist_ok=True)
    if staged is None:
        atomicdir.recover(root)
    # A view, not a copy: `publication.lines` may live on disk (`spill`). Carried lines win.
    made = {r.id: compact_record(r) for r in publication.records}  # each serialised once
    lines = Layered(publication.carried_lines, publication.lines, made)
    name, delta, entries = _version(root, publication, previous, lines)
    pruned, entries = history.prune(entries, keep)
    swapped = False
    try:
        # zlib releases the GIL: the version file is packed while the record files are written.
        # A snapshot is packed from the lines as they stream, never joined into one body.
        with ThreadPoolExecutor(1) as packer:
            packed = (
                packer.submit(history.pack, delta)
                if delta is not None
                else packer.submit(history.pack_chunks, history.jsonl_chunks(lines))
            )
            staging = _stage(root, publication, lines, entries, staged)
            # An orphan version file (if we die before the exchange) is harmless: nothing lists it.
            atomicdir.write_atomic(root / "versions" / name, packed.result())
        (staging / "versions").mkdir(exist_ok=True)
        os.link(root / "versions" / name, staging / "versions" / name)
        history.drop(root, staging / "versions", pruned, entries[0] if pruned else None)
        atomicdir.fsync_tree(staging)
        atomicdir.swap_in(staging, root)
        swapped = True
        atomicdir.keep_as_spare(staging, root)
    except Exception:
        # A full disk (ENOSPC, EFBIG): give the space back now, not at the next run, or
        # the disk stays full; the live dataset is untouched (recover restores it if needed).
        # So too when what gives `reach.json` fails (the index child died).
        atomicdir.recover(root)
        if not swapped:
            (root / "versions" / name).unlink(missing_ok=True)
        raise


def _version(
    root: Path,
    publication: Publication,
    previous: Previous | None,
    lines: Mapping[str, str],
) -> tuple[str, bytes | None, list[dict[str, Any]]]:
    """The new version file's name, its body if a delta (None: a snapshot of `lines`), and
    the manifest's `versions` with it.

    A delta from the previous version (whose lines are `records.jsonl`'s), unless the
    chain since the last snapshot is long, the previous version has no file, or the
    delta would hold most of the records.
    """
    entries = [dict(e) for e in previous.versions] if previous else []
    entry: dict[str, Any] = {
        "datasetVersion": publication.version,
        "sha": publication.sha,
        "records": len(lines),
    }
    chain = int(entries[-1].get("chain", 0)) + 1 if entries else 0
    if (
        previous is not None
        and 0 < chain < history.SNAPSHOT_EVERY
        and history.file_of(root, previous.version) is not None
    ):
        changes, count = history.delta(previous.version, previous.records.raw, lines)
        if 2 * count <= len(lines):
            entries.append({**entry, "chain": chain})
            return f"{publication.version}{history.DELTA}", changes, entries
    entries.append({**entry, "chain": 0})
    return f"{publication.version}{history.SNAPSHOT}", None, entries


# What each version writes; everything else in a dataset's directory is linked from the live one.
REACH_FILE = "reach.json"
_REWRITTEN = frozenset(("records", "records.jsonl", "manifest.json", REACH_FILE))


def _stage(
    root: Path,
    publication: Publication,
    lines: Mapping[str, str],
    versions: list[dict[str, Any]],
    staged: Path | None = None,
) -> Path:
    """The next dataset directory, complete but for the new version file (`staged`: made
    ready by `prestage`)."""
    version = publication.version
    staging = staged
    if staging is None:
        staging = atomicdir.claim_staging(root)
        atomicdir.link_tree(root, staging, skip=set(_REWRITTEN))
    _stage_records(root / "records", staging / "records", lines, publication.kept, version)
    atomicdir.rewrite(staging / "records.jsonl", history.jsonl_chunks(lines))
    atomicdir.rewrite(staging / "manifest.json", _manifest(publication, versions))
    reach = publication.reach
    if reach is not None:
        mark("staged, waiting for reach.json")
        body = reach if isinstance(reach, bytes) else reach()
        mark("reach.json received")
        if body is not None:  # else the index child wrote it there
            atomicdir.rewrite(staging / REACH_FILE, body)
    return staging


def _stage_records(
    live: Path, staged: Path, lines: Mapping[str, str], kept: frozenset[str], version: str
) -> None:
    """`records/` of the next version: the kept records' live files linked, the others
    written (into files of the new tree's own, which `_prepare_records` makes)."""
    writes = _prepare_records(live, staged, lines.keys(), kept)
    staged_fd = os.open(staged, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for rid in writes:
            # A file still shared with the live tree is replaced, never written through.
            atomicdir.rewrite(f"{rid}.json", _record_file(lines[rid], version), dir_fd=staged_fd)
    finally:
        os.close(staged_fd)


def _prepare_records(
    live: Path, staged: Path, ids: Iterable[str], kept: frozenset[str]
) -> list[str]:
    """`records/` of the next version but for the contents; returns the ids to write.

    A kept record's file is the live one (same inode, same mtime, its `datasetVersion`
    the version that last wrote it): the staging directory, the previous version's tree,
    often links it already, so the cost follows the change. Every other record has a file
    that only the staging tree holds (its own already, else one that the tree no longer
    needs renamed to its name: a retired record's, or one the live file replaces by a link;
    else an empty one made): creating a file costs up to 40x renaming one on some
    filesystems (0.2-0.6 ms against 0.016 ms on this project's machines). Whatever else is
    there goes. Done twice (`prestage`, then `publish`), the second time finds it done.
    """
    staged.mkdir(exist_ok=True)
    live_inodes = {e.name: e.inode() for e in os.scandir(live)} if live.is_dir() else {}
    ids = list(ids)
    links = {}  # name -> the live inode it links
    for rid in kept.intersection(ids):
        name = f"{rid}.json"
        inode = live_inodes.get(name)
        if inode is not None:  # a kept record with no live file is written
            links[name] = inode
    writes = [rid for rid in ids if f"{rid}.json" not in links]
    written = {f"{rid}.json" for rid in writes}
    present: dict[str, int] = {}
    free: list[str] = []  # regular files of the staging tree alone that no record keeps
    for entry in os.scandir(staged):
        present[entry.name] = inode = entry.inode()
        if (
            inode != live_inodes.get(entry.name)
            and entry.name not in written
            and entry.is_file(follow_symlinks=False)
        ):
            free.append(entry.name)
    staged_fd = os.open(staged, os.O_RDONLY | os.O_DIRECTORY)
    live_fd = os.open(live, os.O_RDONLY | os.O_DIRECTORY) if live_inodes else None
    try:
        for name in sorted(written):
            inode = present.get(name)
            if inode is not None and inode != live_inodes.get(name):
                continue  # the tree's own file already
            if free:
                spare = free.pop()
                os.rename(spare, name, src_dir_fd=staged_fd, dst_dir_fd=staged_fd)
                present[name] = present.pop(spare)
                continue
            if inode is not None:  # shared with the live tree: never written through
                os.unlink(name, dir_fd=staged_fd)
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=staged_fd))
            present[name] = -1
        for name, inode in links.items():
            if name in present:
                if present[name] == inode:
                    continue
                os.unlink(name, dir_fd=staged_fd)
            os.link(name, name, src_dir_fd=live_fd, dst_dir_fd=staged_fd)
        for name in present.keys() - links.keys() - written:
            os.unlink(name, dir_fd=staged_fd)
    finally:
        os.close(staged_fd)
        if live_fd is not None:
            os.close(live_fd)
    return writes


def _manifest(publication: Publication, versions: list[dict[str, Any]]) -> Iterator[bytes]:
    """`manifest.json` in pieces: one compact JSON document, its records' provenance
    streamed from their serialised form rather than held as one dict and one string."""
    head = {
        "format": MANIFEST_FORMAT,
        "repo": publication.repo,
        "sha": publication.sha,
        "datasetVersion": publication.version,
        "counts": dict(publication.counts),
        **dict(publication.extra),
    }
    for key in ("records", "retired", "versions"):
        head.pop(key, None)  # never from `extra`: the three below are the manifest's own
    yield compact_json(head)[:-1].encode() + b',"records":{'
    made = {
        rid: compact_json(p.model_dump(mode="json")) for rid, p in publication.provenance.items()
    }
    carried, given = publication.carried_provenance, publication.provenance_lines
    for n, rid in enumerate(sorted(carried.keys() | given.keys() | made.keys())):
        text = made.get(rid) or given.get(rid) or compact_json(carried[rid])
        yield f"{',' if n else ''}{compact_json(rid)}:{text}".encode()
    retired = {
        rid: publication.retired[rid].model_dump(mode="json") for rid in sorted(publication.retired)
    }
    yield f'}},"retired":{compact_json(retired)},"versions":{compact_json(versions)}}}\n'.encode()
