"""SPEC 7: a regeneration rewrites the record files of changed files only."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from gitrepo import GitRepo
from regen_fixtures import (
    BARRIER_RS,
    BASE,
    CATALOG_RS,
    Files,
    dataset,
    edit,
    extract,
    manifest,
    records,
    regenerate,
)

BARRIER_EDIT = edit(BARRIER_RS, "BARRIER_INJECT_44: u32 = 44", "BARRIER_INJECT_44: u32 = 7")
CATALOG_EDIT = edit(CATALOG_RS, "CATALOG_DROP_TABLE_44: u32 = 44", "CATALOG_DROP_TABLE_44: u32 = 9")


def files_of(out: Path) -> dict[str, tuple[int, int, str]]:
    """records/<id>.json by id: inode, mtime (ns), the datasetVersion it holds."""
    found = {}
    for path in (dataset(out) / "records").iterdir():
        stat = path.stat()
        version = json.loads(path.read_text())["datasetVersion"]
        found[path.stem] = (stat.st_ino, stat.st_mtime_ns, version)
    return found


def paths_of(out: Path) -> dict[str, str]:
    return {rid: r["filePath"] for rid, r in records(out).items()}


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    r = GitRepo.init(tmp_path / "src")
    r.commit(BASE, message="base")
    return r


def commit(repo: GitRepo, files: Files, out: Path) -> str:
    sha = repo.commit(files)
    result = regenerate(out, out.parent / "cache")
    assert result.exit_code == 0, result.output
    return sha


def test_unchanged_files_keep_their_record_files_version_after_version(
    repo: GitRepo, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    first_sha = repo.head()
    assert extract(repo.path, out, tmp_path / "cache", "main").exit_code == 0
    v1, first = manifest(out)["datasetVersion"], files_of(out)
    before = records(out)
    paths = paths_of(out)

    # 1. barrier.rs changes: catalog's records stay as they were, files untouched.
    edited = BARRIER_EDIT(dict(BASE))
    second_sha = commit(repo, edited, out)
    v2, second = manifest(out)["datasetVersion"], files_of(out)
    assert manifest(out)["sha"] == second_sha and v2 != v1
    for rid, path in paths.items():
        if path == CATALOG_RS:
            assert second[rid] == first[rid]  # same inode, same mtime, written by v1
            assert records(out)[rid] == before[rid]
            assert records(out)[rid]["analyzedSha"] == first_sha
        else:
            assert second[rid][2] == v2
            assert records(out)[rid]["analyzedSha"] == second_sha
    assert any(p == CATALOG_RS for p in paths.values())

    # 2. catalog.rs changes: now barrier's files (written by v2) are the kept ones; the
    # staging tree is the v1 tree, whose barrier files are not those of v2.
    third_sha = commit(repo, CATALOG_EDIT(edited), out)
    v3, third = manifest(out)["datasetVersion"], files_of(out)
    for rid, path in paths.items():
        if path == CATALOG_RS:
            assert third[rid][2] == v3 and third[rid][0] != first[rid][0]
            assert records(out)[rid]["analyzedSha"] == third_sha
        else:
            assert third[rid] == second[rid]
            assert records(out)[rid]["analyzedSha"] == second_sha
    assert manifest(out)["sha"] == third_sha

    # 3. An edit that changes nothing of barrier or catalog: no record file is written.
    fourth_sha = commit(repo, {**CATALOG_EDIT(edited), "README.md": "docs\n"}, out)
    assert files_of(out) == third
    assert manifest(out)["sha"] == fourth_sha
    jsonl = (dataset(out) / "records.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in jsonl] == [records(out)[r] for r in sorted(records(out))]


def test_a_missing_record_file_of_an_unchanged_file_is_written_again(
    repo: GitRepo, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert extract(repo.path, out, tmp_path / "cache", "main").exit_code == 0
    victim = next(rid for rid, p in paths_of(out).items() if p == CATALOG_RS)
    body = records(out)[victim]
    os.unlink(dataset(out) / "records" / f"{victim}.json")

    commit(repo, BARRIER_EDIT(dict(BASE)), out)

    assert records(out)[victim] == body
    assert files_of(out)[victim][2] == manifest(out)["datasetVersion"]
