"""The published dataset on disk (SPEC 6), written so that a crash never leaves it half-done.

```
OUT/<owner>/<name>/
  records/<id>.json                   {"record": {...}, "datasetVersion": "..."}
  records.jsonl                       every record, compact, sorted by id
  manifest.json                       repo, sha, datasetVersion, counts, records, retired, versions
  versions/<datasetVersion>.jsonl.gz  every published version
```
Publishing builds the whole next dataset directory beside the live one
(`OUT/<owner>/.<name>.staging-*/`: new `records/`, `records.jsonl`, `manifest.json`,
and hard links to everything else, `versions/` included), makes it durable, then
exchanges the two directories in one `renameat2(RENAME_EXCHANGE)` (two renames where
the kernel lacks it; `recover` repairs the gap). The old tree is kept as
`.<name>.spare`, whose files the next publish rewrites in place (cheaper than
creating thousands of files); it is never read. So
`records/` and `manifest.json` change together: a crash leaves one whole version.
Every file is written to a temp file, fsynced and `os.replace`d. A reader that
finds a manifest of format it does not know refuses it.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import gzip
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pipeline.model import Provenance, Record, Retired

MANIFEST_FORMAT = 1


class StoreError(Exception):
    """A dataset on disk that cannot be read as one."""


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


@dataclass(frozen=True)
class Previous:
    """The dataset as it was before this run."""

    version: str
    sha: str
    records: Mapping[str, Record]
    provenance: Mapping[str, Provenance]
    retired: Mapping[str, Retired]
    versions: list[dict[str, Any]]


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
        if name.is_dir() and not name.name.startswith(".") and (name / "records").is_dir()
    )


def new_version() -> str:
    """Now, as ISO-8601 UTC with milliseconds and `Z`."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def record_json(record: Record, version: str) -> bytes:
    """The bytes of `records/<id>.json`, key order as in the seeds."""
    return _record_file(_compact(record), version)


def records_jsonl(records: Sequence[Record]) -> bytes:
    """All records, one compact line each, sorted by id."""
    return _jsonl({r.id: _compact(r) for r in records})


def _compact(record: Record) -> str:
    # pydantic's serialiser writes what `json.dumps(..., ensure_ascii=False, separators=(",",
    # ":"))` would (field order, escapes), at a fraction of the cost; a test holds it to that.
    return record.model_dump_json()


def _record_file(compact: str, version: str) -> bytes:
    return f'{{"record":{compact},"datasetVersion":{json.dumps(version)}}}\n'.encode()


def _jsonl(lines: Mapping[str, str]) -> bytes:
    return "".join(lines[rid] + "\n" for rid in sorted(lines)).encode("utf-8")


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temp file in the same directory, fsync, `os.replace`, fsync the directory."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def publish(root: Path, publication: Publication, previous: Previous | None) -> None:
    """Publish a new version of the dataset at `root`, atomically as seen by readers."""
    root.mkdir(parents=True, exist_ok=True)
    recover(root)
    version = publication.version
    lines = {r.id: _compact(r) for r in publication.records}  # each record serialised once
    body = _jsonl(lines)
    # zlib releases the GIL: the version file is packed while the record files are written.
    with ThreadPoolExecutor(1) as packer:
        packed = packer.submit(gzip.compress, body, compresslevel=6, mtime=0)
        staging = _stage(root, publication, previous, lines, body)
        # An orphan version file (if we die before the exchange) is harmless: nothing lists it.
        name = f"{version}.jsonl.gz"
        write_atomic(root / "versions" / name, packed.result())
    (staging / "versions").mkdir(exist_ok=True)
    os.link(root / "versions" / name, staging / "versions" / name)
    _fsync_tree(staging)
    _swap_in(staging, root)
    _keep_as_spare(staging, root)


def _stage(
    root: Path,
    publication: Publication,
    previous: Previous | None,
    lines: Mapping[str, str],
    body: bytes,
) -> Path:
    """The next dataset directory, complete but for the new version file."""
    version = publication.version

    staging = _claim_staging(root)
    _link_tree(root, staging, skip={"records", "records.jsonl", "manifest.json"})
    staged_records = staging / "records"
    staged_records.mkdir(exist_ok=True)
    stale = set(os.listdir(staged_records))
    for rid, compact in lines.items():
        _rewrite(staged_records / f"{rid}.json", _record_file(compact, version))
        stale.discard(f"{rid}.json")
    for name in stale:
        (staged_records / name).unlink()
    _rewrite(staging / "records.jsonl", body)
    _rewrite(staging / "manifest.json", _manifest(publication, previous))
    return staging


def _spare(root: Path) -> Path:
    return root.parent / f".{root.name}.spare"


def _claim_staging(root: Path) -> Path:
    """A staging directory: the previous version's tree (the spare) if there is one.

    Creating a file costs far more than rewriting one on some filesystems (0.7 ms
    against 0.04 ms on this project's machines), and every record file changes at
    every commit (`analyzedSha`), so the spare's files are rewritten in place. The
    spare is not live: nobody reads it. Its hard links to the live tree (`versions/`,
    `.lock`) are dropped first and made again by `_link_tree`.
    """
    spare = _spare(root)
    staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.staging-", dir=root.parent))
    os.chmod(staging, 0o777 & ~_umask())  # mkdtemp's 0700 would become the dataset's mode
    if not spare.is_dir():
        return staging
    os.rmdir(staging)
    os.rename(spare, staging)  # claimed: a crash from here on leaves a staging dir to drop
    for entry in staging.iterdir():
        if entry.name not in ("records", "records.jsonl", "manifest.json"):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    return staging


def _rewrite(path: Path, data: bytes) -> None:
    """Write `data` to `path`, reusing the file if it is ours alone (one link)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    else:
        if os.fstat(fd).st_nlink != 1:  # shared with another tree: never write through it
            os.close(fd)
            path.unlink()
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view, done = memoryview(data), 0
        while done < len(data):
            done += os.pwrite(fd, view[done:], done)
        os.ftruncate(fd, len(data))  # after the write: frees only a shorter file's tail
    finally:
        os.close(fd)


def _keep_as_spare(old: Path, root: Path) -> None:
    """Keep the previous version's tree for the next publish to rewrite (see `_claim_staging`)."""
    spare = _spare(root)
    if spare.exists():
        _discard(old)
    else:
        os.rename(old, spare)


def _discard(old: Path) -> None:
    """Delete the previous version's tree off the critical path (a detached `rm -rf`).

    It is renamed out of the staging namespace first, so `recover` of a later run
    only ever sees it as trash, and removes it if the `rm` did not finish.
    """
    trash = old.with_name(old.name.replace(".staging-", ".trash-", 1))
    os.rename(old, trash)
    try:
        subprocess.Popen(
            ["rm", "-rf", "--", str(trash)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        shutil.rmtree(trash, ignore_errors=True)


def _link_tree(source: Path, target: Path, skip: set[str]) -> None:
    """Hard-link every file under `source` into `target` (directories re-created), but `skip`."""
    for entry in source.iterdir():
        # `.lock` too: a hard link keeps the inode that a running writer holds locked.
        if entry.name in skip or (entry.name.startswith(".") and entry.name.endswith(".tmp")):
            continue
        if entry.is_dir() and not entry.is_symlink():
            (target / entry.name).mkdir()
            _link_tree(entry, target / entry.name, set())
        else:
            os.link(entry, target / entry.name, follow_symlinks=False)


def _fsync_tree(directory: Path) -> None:
    """Make a freshly written directory durable: one `syncfs` rather than a fsync per file."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        syncfs = getattr(_libc(), "syncfs", None) if _libc() is not None else None
        if syncfs is None or syncfs(fd) != 0:
            os.sync()
    finally:
        os.close(fd)


@functools.cache
def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name, use_errno=True) if name else None


def _swap_in(staged: Path, live: Path) -> None:
    """Make `staged` the live directory; the old one ends up at `staged`'s path."""
    if not live.exists():
        os.rename(staged, live)
    elif not _exchange(staged, live):
        backup = staged.with_name(staged.name + ".old")
        os.rename(live, backup)  # `recover` puts it back if we die before the next line
        os.rename(staged, live)
        os.rename(backup, staged)
    _fsync_dir(live.parent)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux renameat2 RENAME_EXCHANGE); False if unsupported."""
    libc = _libc()
    renameat2 = getattr(libc, "renameat2", None) if libc is not None else None
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return bool(result == 0)


def recover(root: Path) -> None:
    """Repair what an interrupted `publish` left: restore the live dir, drop staging dirs."""
    staged = sorted(root.parent.glob(f".{root.name}.staging-*"))
    for backup in (p for p in staged if p.name.endswith(".old")):
        if not root.exists():
            os.rename(backup, root)
    for staging in root.parent.glob(f".{root.name}.staging-*"):
        shutil.rmtree(staging, ignore_errors=True)
    for trash in root.parent.glob(f".{root.name}.trash-*"):
        shutil.rmtree(trash, ignore_errors=True)
    if root.is_dir():
        for tmp in root.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
        for old in root.glob(".staging-*"):  # left by errdoc before 0.1 published this way
            shutil.rmtree(old, ignore_errors=True)


def _manifest(publication: Publication, previous: Previous | None) -> bytes:
    versions = list(previous.versions) if previous else []
    versions.append(
        {
            "datasetVersion": publication.version,
            "sha": publication.sha,
            "records": len(publication.records),
        }
    )
    manifest = {
        "format": MANIFEST_FORMAT,
        "repo": publication.repo,
        "sha": publication.sha,
        "datasetVersion": publication.version,
        "counts": dict(publication.counts),
        **dict(publication.extra),
        "records": {
            rid: publication.provenance[rid].model_dump(mode="json")
            for rid in sorted(publication.provenance)
        },
        "retired": {
            rid: publication.retired[rid].model_dump(mode="json")
            for rid in sorted(publication.retired)
        },
        "versions": versions,
    }
    # Compact: the indenting encoder is pure Python and costs seconds on large datasets.
    return (json.dumps(manifest, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def load_previous(root: Path) -> Previous | None:
    """The dataset published at `root`, or None if there is none yet."""
    recover_if_present(root)
    manifest_path = root / "manifest.json"
    if not manifest_path.exists():
        return None
    manifest = read_manifest(root)
    records: dict[str, Record] = {}
    jsonl = root / "records.jsonl"
    if jsonl.exists():
        for line in _lines(jsonl):
            record = Record.model_validate_json(line)
            records[record.id] = record
    return Previous(
        version=manifest["datasetVersion"],
        sha=manifest["sha"],
        records=records,
        provenance={
            k: Provenance.model_validate(v) for k, v in manifest.get("records", {}).items()
        },
        retired={k: Retired.model_validate(v) for k, v in manifest.get("retired", {}).items()},
        versions=list(manifest.get("versions", [])),
    )


def recover_if_present(root: Path) -> None:
    """`recover` for a dataset dir that may not exist (or that a crash left aside)."""
    if root.parent.is_dir():
        recover(root)


def read_manifest(root: Path) -> dict[str, Any]:
    """The manifest, refusing a format this version does not know."""
    try:
        manifest: dict[str, Any] = json.loads((root / "manifest.json").read_text("utf-8"))
    except (OSError, ValueError) as err:
        raise StoreError(f"{root}/manifest.json cannot be read ({err}); re-run extract") from err
    if manifest.get("format", MANIFEST_FORMAT) > MANIFEST_FORMAT:
        raise StoreError(
            f"{root}/manifest.json has format {manifest['format']}, newer than this errdoc "
            f"understands ({MANIFEST_FORMAT}); upgrade errdoc"
        )
    return manifest


def _lines(path: Path) -> Iterator[str]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield line


def read_version(root: Path, version: str) -> list[Record]:
    """The records of one published version."""
    path = root / "versions" / f"{version}.jsonl.gz"
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    return [Record.model_validate_json(line) for line in text.splitlines() if line.strip()]
