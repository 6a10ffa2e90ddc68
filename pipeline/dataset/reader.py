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
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pipeline.core.model import Provenance, Record, RecordFile, Retired
from pipeline.core.reach import Reach, reach_from_json
from pipeline.dataset import history
from pipeline.dataset.safefile import (
    UnsafeFile,
    is_record_id,
    open_regular,
    read_json,
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
        return {k: v for k, v in _retired(self.manifest.get("retired")).items() if k not in current}

    @cached_property
    def retired_records(self) -> Mapping[str, Record]:
        """id -> last published body of a retired record, when it could be found."""
        bodies: dict[str, Record] = {}
        by_version: dict[str, dict[str, Record]] = {}
        for rid, entry in sorted(self.retired.items()):
            if entry.lastVersion not in by_version:
                by_version[entry.lastVersion] = _version_records(self.root, entry.lastVersion)
            body = by_version[entry.lastVersion].get(rid)
            if body is not None and body.repo == self.repo:
                bodies[rid] = body
        return bodies

    @cached_property
    def reach(self) -> Mapping[str, Reach]:
        """How each record is reached (`reach.json`, issue 10), by id; empty without an index."""
        return load_reach(self.root)

    def record_file(self, record_id: str) -> Path:
        """Path of `records/<id>.json` for a current record."""
        return self.root / "records" / f"{record_id}.json"

    def record_bytes(self, record_id: str) -> bytes:
        """The bytes of `records/<id>.json`, refusing a link, a FIFO or a huge file."""
        path = self.record_file(record_id)
        try:
            return read_regular(path)
        except FileNotFoundError as exc:
            raise DatasetChanged(f"{path}: vanished while being read") from exc
        except OSError as exc:
            raise DatasetError(
                str(exc) if isinstance(exc, UnsafeFile) else f"{path}: {exc}"
            ) from exc


def load_reach(root: Path) -> dict[str, Reach]:
    """`reach.json` of a dataset directory by record id; a malformed entry is left out."""
    try:  # supplementary: a damaged file costs the paths, not the dataset
        data = _read_json(root / "reach.json") if (root / "reach.json").is_file() else None
    except DatasetError:
        data = None
    entries = data.get("records") if isinstance(data, dict) else None
    found: dict[str, Reach] = {}
    for rid, raw in entries.items() if isinstance(entries, dict) else ():
        try:
            found[str(rid)] = reach_from_json(raw)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return found


def safe_repo(repo: str) -> bool:
    """True when `owner/name` can be two path segments: no `..`, a dot name only like `.github`."""
    parts = repo.split("/")
    return (
        len(parts) == 2
        and bool(_SEGMENT.match(parts[0]))
        and bool(_SEGMENT.match(parts[1]) or _DOT_NAME.match(parts[1]))
    )


def page_path(record: Record) -> str:
    """The page of a record, relative to the site root: `<owner>/<name>/<id>-<slug>.html`."""
    slug = re.sub(r"[^a-z0-9-]+", "", record.slug.lower())[:50].strip("-") or "error"
    return f"{record.repo}/{record.id}-{slug}.html"


def _read_json(path: Path) -> Any:
    try:
        return read_json(path)
    except FileNotFoundError as exc:
        raise DatasetChanged(f"{path}: vanished while being read") from exc
    except OSError as exc:  # a link, a FIFO, too large: said once, in one line
        raise DatasetError(str(exc)) from exc
    except ValueError as exc:
        raise DatasetError(f"{path}: unreadable JSON ({exc}); re-run `errdoc extract`") from exc


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
        try:
            parsed = RecordFile.model_validate(_read_json(path))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise DatasetError(
                f"{path}: not a valid record ({where}: {first['msg']}); "
                "check it with `errdoc validate`"
            ) from exc
        if parsed.record.id != path.stem:
            raise DatasetError(f"{path}: holds record {parsed.record.id}, not {path.stem}")
        records.append(parsed.record)
        versions.append(parsed.datasetVersion)
    return records, versions


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
    known = set(Provenance.model_fields)
    for rid, entry in raw.items():
        if not isinstance(entry, dict):
            continue
        try:  # a newer manifest may carry more keys: keep what this version knows
            out[str(rid)] = Provenance.model_validate(
                {k: v for k, v in entry.items() if k in known}
            )
        except ValidationError:
            continue
    return out


def _retired(raw: Any) -> dict[str, Retired]:
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


def _version_records(root: Path, version: str) -> dict[str, Record]:
    """Records of one published version, by id; empty when it cannot be rebuilt."""
    if not _VERSION_NAME.match(version) or version.startswith("."):
        return {}
    try:
        lines = history.rebuild(root, version)
        return {rid: Record.model_validate_json(line) for rid, line in lines.items()}
    except (StoreError, OSError, ValidationError):
        return {}


def load_dataset(repo_dir: Path) -> Dataset:
    """Load `OUT/<owner>/<name>/`; the manifest and versions are optional."""
    if not (repo_dir / "records").is_dir():
        raise DatasetError(f"{repo_dir}: no records/ directory; run `errdoc extract` first")
    for path in (repo_dir, repo_dir / "records", repo_dir / "versions"):
        if path.is_symlink():  # its files would be read from wherever the link points
            raise DatasetError(f"{path}: is a symbolic link; errdoc never follows one")
    manifest = read_manifest(repo_dir)
    published = manifest.get("datasetVersion")
    records, versions = load_records(repo_dir, published if isinstance(published, str) else None)
    repo = str(manifest.get("repo") or f"{repo_dir.parent.name}/{repo_dir.name}")
    if not safe_repo(repo):
        raise DatasetError(f"{repo_dir}: repository name {repo!r} is not owner/name")
    strangers = sorted({r.repo for r in records} - {repo})
    if strangers:
        raise DatasetError(f"{repo_dir}: holds records of {strangers[0]}, not of {repo}")
    shas = Counter(r.analyzedSha for r in records)
    sha = str(manifest.get("sha") or (shas.most_common(1)[0][0] if shas else ""))
    version = str(manifest.get("datasetVersion") or (max(versions) if versions else ""))
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


def load_all(out: Path) -> list[Dataset]:
    """Every dataset under OUT (each `OUT/<owner>/<name>/` with a records/ directory).

    A publish swaps a whole dataset directory in one step; a reader that meets the
    swap half-way (a listed file gone) reads again, and gives up in one line.
    """
    for _ in range(READ_ATTEMPTS):
        try:
            return [load_dataset(p) for p in dataset_dirs(out)]
        except (DatasetChanged, FileNotFoundError, NotADirectoryError):
            time.sleep(0.05)
    raise DatasetError(f"{out} kept changing while being read (an extract publishing?); run again")
