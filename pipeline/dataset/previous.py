"""The live dataset read back before a run: its manifest, records and versions (the input
of a regeneration's carry-over and id matching), read as untrusted (`safefile`)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from pipeline.core.errors import StoreError
from pipeline.core.model import Provenance, Record, Retired
from pipeline.dataset import atomicdir, history, safefile

MANIFEST_FORMAT = 1


M = TypeVar("M", bound=BaseModel)


class LazyModels(Mapping[str, M]):
    """Models by id, validated from their JSON form (a dict, or a JSON text) on first access.

    A regeneration reads the previous version whole, but looks at most records
    only to copy them (`carry`): validating 6,000 records it never inspects would
    cost more than the rest of the run.
    """

    def __init__(self, raw: Mapping[str, Any], model: type[M]) -> None:
        self.raw = raw
        self._model = model
        self._made: dict[str, M] = {}

    def __getitem__(self, key: str) -> M:
        made = self._made.get(key)
        if made is None:
            value = self.raw[key]
            if isinstance(value, str):
                made = self._model.model_validate_json(value)
            else:
                made = self._model.model_validate(value)
            self._made[key] = made
        return made

    def __contains__(self, key: object) -> bool:
        return key in self.raw

    def __iter__(self) -> Iterator[str]:
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)


def line_field(line: str, key: str) -> Any:
    """A top-level string, integer or null field of a compact record line, without parsing
    the rest.

    In compact JSON a `"key":` with bare quotes is a key: quotes inside strings are
    escaped. Records are flat, so the key is found once.
    """
    match = _field_pattern(key).search(line)
    if match is None:
        raise StoreError(f"a record line has no {key}; run `errdoc validate` on the dataset")
    text = match.group(1)
    if text[0] == '"' and "\\" not in text:  # nothing escaped: the JSON string is its text
        return text[1:-1]
    return json.loads(text)


@functools.cache
def _field_pattern(key: str) -> re.Pattern[str]:
    return re.compile(f'"{key}":("(?:[^"\\\\]|\\\\.)*"|null|-?[0-9]+(?![0-9.eE]))')


@dataclass(frozen=True)
class Previous:
    """The dataset as it was before this run."""

    version: str
    sha: str
    records: LazyModels[Record]
    provenance: LazyModels[Provenance]
    retired: Mapping[str, Retired]
    versions: list[dict[str, Any]]
    # What the carry-over needs (empty for datasets made before errdoc recorded it).
    files: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)

    @functools.cached_property
    def ids_by_file(self) -> dict[str, list[str]]:
        """Record ids by `filePath`, read from the lines."""
        found: dict[str, list[str]] = {}
        for rid, line in self.records.raw.items():
            found.setdefault(line_field(line, "filePath"), []).append(rid)
        return found


def load_previous(root: Path) -> Previous | None:
    """The dataset published at `root`, or None if there is none yet."""
    recover_if_present(root)
    manifest_path = root / "manifest.json"
    if not manifest_path.exists():
        return None
    manifest = read_manifest(root)
    records: dict[str, str] = {}  # compact lines, validated when looked at (`LazyModels`)
    jsonl = root / "records.jsonl"
    if jsonl.exists():
        for number, line in enumerate(_lines(jsonl), 1):
            match = _ID.match(line)
            if match is None:
                raise StoreError(
                    f"{jsonl}:{number} is not a record line; run `errdoc validate` on it, "
                    "or extract into a fresh OUT"
                )
            records[match.group(1)] = line.rstrip("\n")
    if not manifest.get("datasetVersion") or not manifest.get("sha"):
        raise StoreError(f"{manifest_path} lacks sha or datasetVersion; extract into a fresh OUT")
    return Previous(
        version=manifest["datasetVersion"],
        sha=manifest["sha"],
        records=LazyModels(records, Record),
        provenance=LazyModels(manifest.get("records", {}), Provenance),
        retired={k: Retired.model_validate(v) for k, v in manifest.get("retired", {}).items()},
        versions=list(manifest.get("versions", [])),
        files=manifest.get("files", {}),
        settings={key: manifest.get(key) for key in SETTINGS},
    )


_ID = re.compile(r'\{"id":"([0-9a-f]{16})",')
# What the previous version must share with this run for its files to be carried over.
SETTINGS = (
    "extractor", "summaryFormat", "errorMacros", "errorMacroTable", "include", "exclude",
    "entries", "compiledOnly",
)  # fmt: skip
# Of those, what a file's records depend on only if it invokes a macro that changed
# (`extract._scan_or_carry`: the files that do are scanned again, the others carried).
MACRO_SETTINGS = ("errorMacros", "errorMacroTable")


def recover_if_present(root: Path) -> None:
    """`recover` for a dataset dir that may not exist (or that a crash left aside)."""
    if root.parent.is_dir():
        atomicdir.recover(root)


def read_manifest(root: Path) -> dict[str, Any]:
    """The manifest, refusing a format this version does not know."""
    try:  # a regular, bounded file: a FIFO or a link is refused, never waited on or followed
        raw = safefile.read_json(root / "manifest.json")
    except (OSError, ValueError) as err:
        raise StoreError(f"{root}/manifest.json cannot be read ({err}); re-run extract") from err
    if not isinstance(raw, dict):
        raise StoreError(f"{root}/manifest.json is not an errdoc manifest; re-run extract")
    manifest: dict[str, Any] = raw
    fmt = manifest.get("format", MANIFEST_FORMAT)
    if not isinstance(fmt, int) or isinstance(fmt, bool):
        raise StoreError(f"{root}/manifest.json is not an errdoc manifest; re-run extract")
    for key in ("sha", "datasetVersion"):
        if not isinstance(manifest.get(key), str):
            raise StoreError(f"{root}/manifest.json has no {key}; re-run extract")
    if fmt > MANIFEST_FORMAT:
        raise StoreError(
            f"{root}/manifest.json has format {manifest['format']}, newer than this errdoc "
            f"understands ({MANIFEST_FORMAT}); upgrade errdoc"
        )
    return manifest


def _lines(path: Path) -> Iterator[str]:
    with safefile.open_regular(path) as handle:
        for raw in handle:
            line = raw.decode("utf-8")
            if line.strip():
                yield line


def read_version(root: Path, version: str) -> list[Record]:
    """The records of one published version (rebuilt from its snapshot and deltas)."""
    lines = history.rebuild(root, version)
    return [Record.model_validate_json(lines[rid]) for rid in sorted(lines)]
