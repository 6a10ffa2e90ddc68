"""A dataset read for `render` in bounded memory: a small summary per record, then each record once.

`reader.load_dataset` holds every record as a pydantic model (2.3 GB for 200,000 records).
`render` needs the whole record only for its own page and API file; listings, related
errors and the search index need a dozen short fields. So the one read of the dataset keeps
a `Summary` (a NamedTuple) per record and copies the record's bytes to an unnamed spill file;
the pages are then made from the spill, one record at a time. The spill, not the dataset, is
read the second time: a publish that swaps the dataset in meanwhile cannot make the pages
of one publication and the listings of another.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NamedTuple

from pydantic import ValidationError

from pipeline.core.model import Record, RecordFile, Retired
from pipeline.dataset.reader import (
    check_dataset_dir,
    check_one_repo,
    dataset_head,
    dataset_repo,
    file_bytes,
    parsed_json,
    provenance_entry,
    read_every,
    read_manifest,
    record_bytes,
    record_file,
    retired_bodies,
    retired_entries,
)
from pipeline.dataset.safefile import load_json, open_regular


class Summary(NamedTuple):
    """What render keeps of one record: the fields of listings, related errors and search.

    Field names are the Record's, so code that reads them takes either.
    """

    id: str
    repo: str
    slug: str
    errorMessage: str
    messagePattern: str
    filePath: str
    lineNumber: int
    severity: str
    backgroundTag: str
    tags: tuple[str, ...]
    kind: str | None  # of the manifest's provenance entry; None: the record has none
    enclosingFn: str | None
    analyzer: str | None
    status: str | None


class ProvenanceBits(NamedTuple):
    """The fields of a provenance entry that pages show."""

    kind: str
    enclosingFn: str | None
    analyzer: str
    status: str


_NO_PROVENANCE = (None, None, None, None)


@dataclass(frozen=True)
class Outline:
    """One dataset as render holds it: its summaries sorted by id, its records spilled."""

    repo: str
    sha: str
    dataset_version: str
    summaries: tuple[Summary, ...]
    retired: Mapping[str, Retired]  # not current again
    retired_provenance: Mapping[str, ProvenanceBits]
    root: Path
    from_jsonl: bool  # spilled lines of records.jsonl; else whole `records/<id>.json` files
    spill: IO[bytes]  # each record's bytes after their length, in the order they were read

    def records(self) -> Iterator[tuple[Record, bytes]]:
        """Each current record as first read, with the bytes of its `records/<id>.json`."""
        self.spill.seek(0)
        for _ in self.summaries:
            data = self.spill.read(int(self.spill.readline()))
            if self.from_jsonl:  # the record file's bytes are read where they are, as ever
                record = Record.model_validate_json(data)
                yield record, record_bytes(self.root, record.id)
            else:
                doc = load_json(data)
                yield RecordFile.model_validate(doc).record, data

    def retired_records(self) -> dict[str, Record]:
        """id -> last published body of each retired record, when it could be found."""
        return retired_bodies(self.root, self.repo, self.retired)


def _spilled(spill: IO[bytes], data: bytes) -> None:
    spill.write(b"%d\n" % len(data))
    spill.write(data)


def _jsonl_summaries(
    root: Path, prov: Mapping[str, ProvenanceBits], shas: Counter[str], spill: IO[bytes]
) -> list[Summary] | None:
    """Summaries from `records.jsonl` when it holds exactly the records of `records/`, else None.

    The same test as `reader.load_records`: the store writes both in one swap; a dataset
    edited by hand falls back to the record files, which are the reference.
    """
    path = root / "records.jsonl"
    if not path.is_file():
        return None
    found: list[Summary] = []
    try:
        with open_regular(path) as handle:
            for line in handle:
                if line.strip():
                    record = Record.model_validate_json(line)
                    found.append(_summary(record, prov))
                    shas[record.analyzedSha] += 1
                    _spilled(spill, line)
    except (OSError, ValidationError):
        _unspilled(shas, spill)
        return None
    files = {name[:-5] for name in os.listdir(root / "records") if name.endswith(".json")}
    if {s.id for s in found} != files or len(found) != len(files):
        _unspilled(shas, spill)
        return None
    return found


def _unspilled(shas: Counter[str], spill: IO[bytes]) -> None:
    """Forget what a records.jsonl that is not to be used left behind."""
    shas.clear()
    spill.seek(0)
    spill.truncate()


def _shared(text: str) -> str:
    """One string object for values many records repeat (repository, class, severity, kind)."""
    return sys.intern(text) if len(text) < 64 else text


def _summary(record: Record, prov: Mapping[str, ProvenanceBits]) -> Summary:
    bits = prov.get(record.id)
    kind, enclosing, analyzer, status = bits if bits is not None else _NO_PROVENANCE
    return Summary(
        record.id,
        _shared(record.repo),
        record.slug,
        record.errorMessage,
        record.messagePattern,
        record.filePath,
        record.lineNumber,
        _shared(record.severity),
        _shared(record.backgroundTag),
        tuple(_shared(t) for t in record.tags),
        None if kind is None else _shared(kind),
        enclosing,
        analyzer,
        status,
    )


def _provenance_bits(raw: Any) -> dict[str, ProvenanceBits]:
    """The manifest's provenance entries that validate, kept as four fields each."""
    out: dict[str, ProvenanceBits] = {}
    for rid, entry in raw.items() if isinstance(raw, dict) else ():
        prov = provenance_entry(entry)
        if prov is not None:
            out[str(rid)] = ProvenanceBits(
                _shared(prov.kind), prov.enclosingFn, _shared(prov.analyzer), _shared(prov.status)
            )
    return out


def outline(repo_dir: Path, spill_dir: Path | None = None) -> Outline:
    """Read `OUT/<owner>/<name>/` once: the same checks and answers as `load_dataset`.

    The records are spilled to an unnamed file in `spill_dir` (default: TMPDIR), about
    the size of `records.jsonl`; it goes when the Outline is closed or dropped.
    """
    check_dataset_dir(repo_dir)
    manifest = read_manifest(repo_dir)
    prov = _provenance_bits(manifest.pop("records", None))  # the manifest's bulk, dropped here
    published = manifest.get("datasetVersion")
    shas: Counter[str] = Counter()
    summaries = None
    spill = tempfile.TemporaryFile(dir=spill_dir)  # noqa: SIM115 - lives as the Outline does
    if isinstance(published, str) and published:
        summaries = _jsonl_summaries(repo_dir, prov, shas, spill)
    from_jsonl = summaries is not None
    versions: set[str] = {str(published)} if from_jsonl else set()
    if summaries is None:
        summaries = []
        for path in sorted((repo_dir / "records").glob("*.json")):
            data = file_bytes(path)
            parsed = record_file(path, parsed_json(path, data))
            summaries.append(_summary(parsed.record, prov))
            _spilled(spill, data)
            versions.add(parsed.datasetVersion)
            shas[parsed.record.analyzedSha] += 1
    repo = dataset_repo(repo_dir, manifest)
    check_one_repo(repo_dir, repo, {s.repo for s in summaries})
    sha, version = dataset_head(manifest, shas, versions)
    current = {s.id for s in summaries}
    retired = {
        k: v for k, v in retired_entries(manifest.get("retired")).items() if k not in current
    }
    return Outline(
        repo=repo,
        sha=sha,
        dataset_version=version,
        summaries=tuple(sorted(summaries, key=lambda s: s.id)),
        retired=retired,
        retired_provenance={rid: prov[rid] for rid in retired if rid in prov},
        root=repo_dir,
        from_jsonl=from_jsonl,
        spill=spill,
    )


def outline_all(out: Path, spill_dir: Path | None = None) -> list[Outline]:
    """Every dataset under OUT outlined; read again when a publish swaps one in half-way."""
    return read_every(out, lambda repo_dir: outline(repo_dir, spill_dir))
