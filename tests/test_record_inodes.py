"""A publish writes new record files into files the staging tree no longer needs, not new ones.

Creating a file costs up to 40x renaming one on some filesystems; the count of files
created is read from Python's `open` audit events (os.open with O_CREAT), not guessed.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from gitrepo import GitRepo
from regen_fixtures import BARRIER_RS, BASE, CATALOG_RS, dataset, edit, extract, records, regenerate

_RECORD = re.compile(r"^[0-9a-f]{16}\.json$")
_created: list[str] | None = None


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if _created is not None and event == "open" and len(args) == 3:
        path, _, flags = args
        if isinstance(flags, int) and flags & os.O_CREAT and _RECORD.match(str(path)):
            _created.append(str(path))


sys.addaudithook(_hook)  # audit hooks cannot be removed: it records only inside `creations`


@contextmanager
def creations() -> Iterator[list[str]]:
    """The record files created (O_CREAT) while the block runs."""
    global _created
    _created = []
    try:
        yield _created
    finally:
        _created = None


def files_of(out: Path) -> dict[str, tuple[int, str]]:
    """records/<id>.json by id: inode and the datasetVersion it holds."""
    return {
        path.stem: (path.stat().st_ino, json.loads(path.read_text())["datasetVersion"])
        for path in (dataset(out) / "records").iterdir()
    }


def test_records_written_anew_take_the_files_the_spare_tree_no_longer_needs(
    tmp_path: Path,
) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(BASE)
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0
    # v2 rewrites catalog's 2 records; barrier's 3 stay linked.
    files = edit(CATALOG_RS, "CATALOG_DROP_TABLE_44: u32 = 44", "CATALOG_DROP_TABLE_44: u32 = 9")
    files = files(dict(BASE))
    repo.commit(files)
    with creations() as created:
        assert regenerate(out, cache).exit_code == 0
    assert len(created) == 2  # no spare tree yet: every file written is created
    v2 = files_of(out)
    spare = dataset(out).parent / ".widgets.spare" / "records"
    alone = {e.inode() for e in os.scandir(spare)} - {ino for ino, _ in v2.values()}
    assert len(alone) == 2  # v1's catalog files: only the spare holds them

    # v3 rewrites barrier's 3 records (their spare files are v2's live ones: never written
    # through) and keeps catalog's: two of them take the spare's catalog files.
    repo.commit(
        edit(BARRIER_RS, "BARRIER_INJECT_44: u32 = 44", "BARRIER_INJECT_44: u32 = 7")(files)
    )
    with creations() as created:
        assert regenerate(out, cache).exit_code == 0
    assert len(created) == 1

    v3 = files_of(out)
    paths = {rid: r["filePath"] for rid, r in records(out).items()}
    for rid, (inode, version) in v3.items():
        if paths[rid] == CATALOG_RS:
            assert (inode, version) == v2[rid]  # kept: the live file as it was
        else:
            assert version != v2[rid][1] and inode != v2[rid][0]
    assert len({ino for ino, _ in v3.values()} & alone) == 2
    for rid, record in records(out).items():  # what each file holds is its record
        line = json.loads((dataset(out) / "records" / f"{rid}.json").read_text())["record"]
        assert line == record
    jsonl = {
        json.loads(line)["id"]: json.loads(line)
        for line in (dataset(out) / "records.jsonl").read_text().splitlines()
    }
    assert jsonl == records(out)
    # v2's live files, now the spare's, were never written through.
    spare_v2 = {e.name: e.inode() for e in os.scandir(spare)}
    for rid, (inode, version) in v2.items():
        if paths[rid] == BARRIER_RS:
            assert spare_v2[f"{rid}.json"] == inode
            kept = json.loads((spare / f"{rid}.json").read_text())["datasetVersion"]
            assert kept == version


def test_a_prestaged_version_makes_its_files_before_and_publishes_the_same_tree(
    tmp_path: Path,
) -> None:
    """`prestage` (a run waiting for its index) makes the record files; `publish` then only
    writes them, and what it publishes is what `publish` alone makes, also when the prestage
    stopped part-way (the run makes them in a fork that may be lost)."""
    from test_store import SHA1, SHA2, assert_whole, make_record, publication

    from pipeline.dataset.previous import load_previous
    from pipeline.dataset.store import prestage, prestage_records, publish

    ids = [f"{n:016x}" for n in range(1, 7)]
    first = publication("2026-01-01T00:00:00.000Z", SHA1, [make_record(r, "one") for r in ids])
    later = [make_record(r, "two", SHA2) for r in ids[3:]] + [make_record("f" * 16, "new", SHA2)]
    trees = {}
    for name in ("alone", "prestaged", "cut short"):
        root = tmp_path / name / "acme" / "big"
        publish(root, first, None)
        previous = load_previous(root)
        assert previous is not None
        kept = {r: previous.records.raw[r] for r in ids[:3]}  # carried over, unchanged
        second = replace(
            publication("2026-01-02T00:00:00.000Z", SHA2, later),
            carried_lines=kept,
            carried_provenance={r: previous.provenance.raw[r] for r in kept},
        )
        staged = None
        if name == "prestaged":
            with creations() as created:
                staged = prestage(root)
                prestage_records(root, staged, [*kept, *(r.id for r in later)], kept)
            assert len(created) == 4  # the 3 changed records' and the new one's: empty
            assert all((staged / "records" / f"{r}.json").stat().st_size == 0 for r in ids[3:])
        elif name == "cut short":  # the run's fork that makes them died after two
            staged = prestage(root)
            prestage_records(root, staged, [*kept, *(r.id for r in later)][:2], kept)
        with creations() as created:
            publish(root, second, previous, staged=staged)
        assert len(created) == {"alone": 4, "prestaged": 0, "cut short": 4}[name]
        assert_whole(root)
        trees[name] = {p.name: p.read_bytes() for p in sorted((root / "records").iterdir())}
        for rid in ids[:3]:  # kept: the first version's file, not rewritten
            assert (
                json.loads((root / "records" / f"{rid}.json").read_text())["datasetVersion"]
                == "2026-01-01T00:00:00.000Z"
            )
        assert not list(root.parent.glob(".*staging*"))
    assert trees["alone"] == trees["prestaged"] == trees["cut short"]
