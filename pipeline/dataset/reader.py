"""Read-only loader of a published dataset (SPEC 6), for `render` and `explain`.

A dataset directory is `OUT/<owner>/<name>/` with `records/<id>.json` (the truth),
and optionally `manifest.json` (provenance, retired records) and
`versions/` (the bodies of retired records). Only
`records/` is required: the seeds' JSON records alone make a dataset.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import ValidationError

from pipeline.core.model import Provenance, Record, RecordFile, Retired
from pipeline.core.reach import Reach, reach_from_json
from pipeline.dataset import history
from pipeline.dataset.safefile import (
    UnsafeFile,
    is_record_id,
    load_json,
    open_regular,
    read_regular,
)
from pipeline.dataset.store import StoreError, dataset_dirs

_SEGMENT = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
_DOT_NAME = re.compile(r"^\.[A-Za-z0-9_-]+$")  # `org/.github`; never a staging/spare/trash dir
_VERSION_NAME = re.compile(r"^[0-9A-Za-z:._-]+$")


class DatasetError(Exception):
    """A dataset directory that cannot be read; the message says what to do."""


@dataclass(frozen=True)
class Dataset:
    """One repository's published records, their provenance and retired records.

    Provenance and retired records are read from the manifest on first use: `explain`
    needs only the records, and validating every provenance entry costs more than it does.
    """

    repo: str
    sha: str
    dataset_version: str
    records: tuple[Record, ...]
    manifest: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    root: Path = field(default=Path("."))

    @cached_property
    def provenance(self) -> Mapping[str, Provenance]:
        """Provenance of each record, by id, as the manifest gives it."""
        return _provenance(self.manifest.get("records"))

    @cached_property
    def retired(self) -> Mapping[str, Retired]:
        """Records the manifest lists as retired that are not current again, by id."""
        current = {r.id for r in self.records}
        return {
            k: v
            for k, v in retired_entries(self.manifest.get("retired")).items()
            if k not in current
        }

    @cached_property
    def retired_records(self) -> Mapping[str, Record]:
        """id -> last published body of a retired record, when it could be found."""
        return retired_bodies(self.root, self.repo, self.retired)

    @cached_property
    def reach(self) -> Mapping[str, Reach]:
        """How each record is reached (`reach.json`, issue 10), by id; empty without an index."""
        return load_reach(self.root)

    def record_file(self, record_id: str) -> Path:
        """Path of `records/<id>.json` for a current record."""
        return self.root / "records" / f"{record_id}.json"

    def record_bytes(self, record_id: str) -> bytes:
        """The bytes of `records/<id>.json`, refusing a link, a FIFO or a huge file."""
        return record_bytes(self.root, record_id)


def record_bytes(root: Path, record_id: str) -> bytes:
    """The bytes of `root/records/<id>.json`, refusing a link, a FIFO or a huge file."""
    path = root / "records" / f"{record_id}.json"
    try:
        return read_regular(path)
    except FileNotFoundError as exc:
        raise DatasetChanged(f"{path}: vanished while being read") from exc
    except OSError as exc:
        raise DatasetError(str(exc) if isinstance(exc, UnsafeFile) else f"{path}: {exc}") from exc


def reach_entries(root: Path) -> dict[str, Any]:
    """The raw entries of `reach.json` by record id; empty when absent or damaged."""
    try:  # supplementary: a damaged file costs the paths, not the dataset
        data = _read_json(root / "reach.json") if (root / "reach.json").is_file() else None
    except DatasetError:
        data = None
    entries = data.get("records") if isinstance(data, dict) else None
    return {str(k): v for k, v in entries.items()} if isinstance(entries, dict) else {}


def reach_entry(raw: Any) -> Reach | None:
    """One raw `reach.json` entry as a Reach; None when it is malformed."""
    try:
        return reach_from_json(raw)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def load_reach(root: Path) -> dict[str, Reach]:
    """`reach.json` of a dataset directory by record id; a malformed entry is left out."""
    found: dict[str, Reach] = {}
    for rid, raw in reach_entries(root).items():
        reach = reach_entry(raw)
        if reach is not None:
            found[rid] = reach
    return found


def safe_repo(repo: str) -> bool:
    """True when `owner/name` can be two path segments: no `..`, a dot name only like `.github`."""
    parts = repo.split("/")
    return (
        len(parts) == 2
        and bool(_SEGMENT.match(parts[0]))
        and bool(_SEGMENT.match(parts[1]) or _DOT_NAME.match(parts[1]))
    )


class Paged(Protocol):
    """What names a record's page: a Record, or render's summary of one."""

    @property
    def id(self) -> str: ...
    @property
    def repo(self) -> str: ...
    @property
    def slug(self) -> str: ...


def page_path(record: Paged) -> str:
    """The page of a record, relative to the site root: `<owner>/<name>/<id>-<slug>.html`."""
    slug = re.sub(r"[^a-z0-9-]+", "", record.slug.lower())[:50].strip("-") or "error"
    return f"{record.repo}/{record.id}-{slug}.html"


@contextmanager
def read_errors(path: Path) -> Iterator[None]:
    """A dataset file's read failures as every reader says them: one that vanished is
    `DatasetChanged` (read again), a link, a FIFO or one too large one `DatasetError` line."""
    try:
        yield
    except FileNotFoundError as exc:
        raise DatasetChanged(f"{path}: vanished while being read") from exc
    except OSError as exc:
        raise DatasetError(str(exc)) from exc


def _read_json(path: Path) -> Any:
    return parsed_json(path, file_bytes(path))


def file_bytes(path: Path) -> bytes:
    """A dataset file's bytes (a regular file, bounded), failing as `read_errors` says."""
    with read_errors(path):
        return read_regular(path)


def parsed_json(path: Path, data: bytes) -> Any:
    """The JSON of a dataset file read as `data`; one that is not JSON is a `DatasetError`."""
    try:
        return load_json(data)
    except ValueError as exc:
        raise DatasetError(f"{path}: unreadable JSON ({exc}); re-run `errdoc extract`") from exc


def dataset_head(
    manifest: Mapping[str, Any], shas: Counter[str], versions: Iterable[str]
) -> tuple[str, str]:
    """The dataset's commit and version: the manifest's, else the records' most common
    commit and their latest version."""
    sha = str(manifest.get("sha") or (shas.most_common(1)[0][0] if shas else ""))
    version = str(manifest.get("datasetVersion") or max(versions, default=""))
    return sha, version


def read_manifest(repo_dir: Path) -> dict[str, Any]:
    """`manifest.json` of a dataset directory; empty when absent or not an object."""
    path = repo_dir / "manifest.json"
    if not os.path.lexists(path):
        return {}
    raw = _read_json(path)
    return raw if isinstance(raw, dict) else {}


def load_records(root: Path, version: str | None) -> tuple[list[Record], list[str]]:
    """The current records: from `records.jsonl` (one read) when it agrees with `records/`."""
    if version:
        fast = _load_jsonl(root)
        if fast is not None:
            return fast, [version] * len(fast)
    records: list[Record] = []
    versions: list[str] = []
    for path in sorted((root / "records").glob("*.json")):
        parsed = record_file(path, _read_json(path))
        records.append(parsed.record)
        versions.append(parsed.datasetVersion)
    return records, versions


def record_file(path: Path, doc: Any) -> RecordFile:
    """The parsed JSON of `records/<id>.json` validated, its id checked against its name."""
    try:
        parsed = RecordFile.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DatasetError(
            f"{path}: not a valid record ({where}: {first['msg']}); check it with `errdoc validate`"
        ) from exc
    if parsed.record.id != path.stem:
        raise DatasetError(f"{path}: holds record {parsed.record.id}, not {path.stem}")
    return parsed


def _load_jsonl(root: Path) -> list[Record] | None:
    """`records.jsonl` when it holds exactly the records of `records/`, else None.

    The store writes both in one atomic swap, so they agree; a dataset edited by hand
    or copied in part falls back to the record files, which are the reference.
    """
    path = root / "records.jsonl"
    if not path.is_file():
        return None
    try:
        with open_regular(path) as handle:
            records = [Record.model_validate_json(line) for line in handle if line.strip()]
    except (OSError, ValidationError):
        return None
    files = {name[:-5] for name in os.listdir(root / "records") if name.endswith(".json")}
    if {r.id for r in records} != files or len(records) != len(files):
        return None
    return records


def _provenance(raw: Any) -> dict[str, Provenance]:
    out: dict[str, Provenance] = {}
    if not isinstance(raw, dict):
        return out
    for rid, entry in raw.items():
        prov = provenance_entry(entry)
        if prov is not None:
            out[str(rid)] = prov
    return out


_KNOWN = frozenset(Provenance.model_fields)


def provenance_entry(entry: Any) -> Provenance | None:
    """One manifest `records` entry as a Provenance; None when it is not one."""
    if not isinstance(entry, dict):
        return None
    try:  # a newer manifest may carry more keys: keep what this version knows
        return Provenance.model_validate({k: v for k, v in entry.items() if k in _KNOWN})
    except ValidationError:
        return None


def retired_bodies(root: Path, repo: str, retired: Mapping[str, Retired]) -> dict[str, Record]:
    """id -> last published body of each retired record of `repo`, when it could be found."""
    bodies: dict[str, Record] = {}
    by_version: dict[str, dict[str, Record]] = {}
    wanted = set(retired)
    for rid, entry in sorted(retired.items()):
        if entry.lastVersion not in by_version:
            by_version[entry.lastVersion] = _version_records(root, entry.lastVersion, wanted)
        body = by_version[entry.lastVersion].get(rid)
        if body is not None and body.repo == repo:
            bodies[rid] = body
    return bodies


def retired_entries(raw: Any) -> dict[str, Retired]:
    """The manifest's `retired` map, each key a record id and each entry valid."""
    out: dict[str, Retired] = {}
    if not isinstance(raw, dict):
        return out
    for rid, entry in raw.items():
        if not is_record_id(rid):  # the key names a page and an API file: never a path
            continue
        try:
            out[rid] = Retired.model_validate(entry)
        except ValidationError:
            continue
    return out


def _version_records(root: Path, version: str, wanted: set[str]) -> dict[str, Record]:
    """The `wanted` records of one published version, by id; empty when it cannot be rebuilt.

    Every line is validated (one bad line discards the version, as it always did), but only
    the wanted ones are kept: a version of 200,000 records would otherwise be held whole.
    """
    if not _VERSION_NAME.match(version) or version.startswith("."):
        return {}
    try:
        lines = history.rebuild(root, version)
        found: dict[str, Record] = {}
        for rid in list(lines):
            record = Record.model_validate_json(lines.pop(rid))
            if rid in wanted:
                found[rid] = record
        return found
    except (StoreError, OSError, ValidationError):
        return {}


def check_dataset_dir(repo_dir: Path) -> None:
    """Refuse a dataset directory without records/, or one whose parts are symbolic links."""
    if not (repo_dir / "records").is_dir():
        raise DatasetError(f"{repo_dir}: no records/ directory; run `errdoc extract` first")
    for path in (repo_dir, repo_dir / "records", repo_dir / "versions"):
        if path.is_symlink():  # its files would be read from wherever the link points
            raise DatasetError(f"{path}: is a symbolic link; errdoc never follows one")


def dataset_repo(repo_dir: Path, manifest: Mapping[str, Any]) -> str:
    """The dataset's `owner/name`: the manifest's, else its directory's; never a path trick."""
    repo = str(manifest.get("repo") or f"{repo_dir.parent.name}/{repo_dir.name}")
    if not safe_repo(repo):
        raise DatasetError(f"{repo_dir}: repository name {repo!r} is not owner/name")
    return repo


def check_one_repo(repo_dir: Path, repo: str, repos: set[str]) -> None:
    """Refuse a dataset holding records of another repository."""
    strangers = sorted(repos - {repo})
    if strangers:
        raise DatasetError(f"{repo_dir}: holds records of {strangers[0]}, not of {repo}")


def load_dataset(repo_dir: Path) -> Dataset:
    """Load `OUT/<owner>/<name>/`; the manifest and versions are optional."""
    check_dataset_dir(repo_dir)
    manifest = read_manifest(repo_dir)
    published = manifest.get("datasetVersion")
    records, versions = load_records(repo_dir, published if isinstance(published, str) else None)
    repo = dataset_repo(repo_dir, manifest)
    check_one_repo(repo_dir, repo, {r.repo for r in records})
    sha, version = dataset_head(manifest, Counter(r.analyzedSha for r in records), versions)
    return Dataset(
        repo=repo,
        sha=sha,
        dataset_version=version,
        records=tuple(sorted(records, key=lambda r: r.id)),
        manifest=manifest,
        root=repo_dir,
    )


class DatasetChanged(DatasetError):
    """A file vanished while being read: a publish swapped the dataset in meanwhile."""


READ_ATTEMPTS = 5
_T = TypeVar("_T")


def load_all(out: Path) -> list[Dataset]:
    """Every dataset under OUT (each `OUT/<owner>/<name>/` with a records/ directory).

    A publish swaps a whole dataset directory in one step; a reader that meets the
    swap half-way (a listed file gone) reads again, and gives up in one line.
    """
    return read_every(out, load_dataset)


def read_every(out: Path, read: Callable[[Path], _T]) -> list[_T]:
    """`read` of every dataset under OUT; all read again when a publish swaps one in
    half-way (a listed file gone), and one line when that keeps happening."""
    for _ in range(READ_ATTEMPTS):
        try:
            return [read(p) for p in dataset_dirs(out)]
        except (DatasetChanged, FileNotFoundError, NotADirectoryError):
            time.sleep(0.05)
    raise DatasetError(f"{out} kept changing while being read (an extract publishing?); run again")
