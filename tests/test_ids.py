"""Permanent ids (SPEC 4) through real regenerations: a site found again keeps its id."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from regen_fixtures import (
    BARRIER,
    BARRIER_RS,
    BASE,
    CATALOG_RS,
    REPO,
    Files,
    cli,
    extract,
    manifest,
    move_inject,
    records,
    regenerate,
    rust_file,
)

from pipeline.dataset.ids import fresh_id
from pipeline.scan.context import record_id

POOL_RS = "src/meta/src/pool.rs"
OFFLINE = "shard {id} is offline"
INJECT = BARRIER[0][1]


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    r = GitRepo.init(tmp_path / "src")
    files = {**BASE, POOL_RS: rust_file("pool", [("first", OFFLINE), ("second", OFFLINE)])}
    r.commit(files, message="base")
    return r


def base_files() -> Files:
    return {**BASE, POOL_RS: rust_file("pool", [("first", OFFLINE), ("second", OFFLINE)])}


def ids_by(out: Path, key: str = "lineNumber") -> dict[tuple[str, str, Any], str]:
    """Record ids by (file, message, `key`)."""
    return {(r["filePath"], r["errorMessage"], r[key]): rid for rid, r in records(out).items()}


def id_of(out: Path, path: str, message: str, occurrence: int = 0) -> str:
    """The id of the `occurrence`-th site (by line) of `message` in `path`."""
    found = sorted(
        (r["lineNumber"], rid)
        for rid, r in records(out).items()
        if r["filePath"] == path and r["errorMessage"] == message
    )
    return found[occurrence][1]


def summary(out: Path) -> dict[str, int]:
    result = cli("diff", "previous", "latest", "--out", out, "--repo", REPO, "--format", "json")
    assert result.exit_code == 0, result.output
    found: dict[str, int] = json.loads(result.output)["summary"]
    return found


def step(repo: GitRepo, out: Path, files: Files, name: str) -> None:
    repo.commit(files, message=name)
    result = regenerate(out, out.parent / "cache")
    assert result.exit_code == 0, result.output


@pytest.fixture
def out(repo: GitRepo, tmp_path: Path) -> Path:
    target = tmp_path / "out"
    result = extract(repo.path, target, tmp_path / "cache", "main")
    assert result.exit_code == 0, result.output
    return target


def test_a_same_pattern_site_inserted_above_leaves_the_old_one_its_id(
    repo: GitRepo, out: Path
) -> None:
    before = id_of(out, BARRIER_RS, INJECT)
    fns = [("inject_early", INJECT), *BARRIER]
    step(repo, out, {**base_files(), BARRIER_RS: rust_file("barrier", fns)}, "insert above")

    assert id_of(out, BARRIER_RS, INJECT, 1) == before  # the old site is now the second one
    new = id_of(out, BARRIER_RS, INJECT, 0)
    assert new != before and new == record_id(
        REPO, BARRIER_RS, records(out)[new]["messagePattern"], 1
    )
    assert summary(out) == {"added": 1, "removed": 0, "moved": 0, "changed": 0, "unchanged": 7}


def test_two_sites_of_one_message_swapped_keep_their_ids(repo: GitRepo, out: Path) -> None:
    first, second = id_of(out, POOL_RS, OFFLINE, 0), id_of(out, POOL_RS, OFFLINE, 1)
    swapped = rust_file("pool", [("second", OFFLINE), ("first", OFFLINE)])
    step(repo, out, {**base_files(), POOL_RS: swapped}, "swap")

    assert id_of(out, POOL_RS, OFFLINE, 0) == second
    assert id_of(out, POOL_RS, OFFLINE, 1) == first
    assert "first" in records(out)[first]["sourceCode"].split("\n")[18 - 2]
    # Each window now ends in other filler: one changed entry per site, under its own id.
    assert summary(out) == {"added": 0, "removed": 0, "moved": 0, "changed": 2, "unchanged": 5}


def test_a_site_moved_to_another_file_keeps_its_id(repo: GitRepo, out: Path) -> None:
    before = id_of(out, BARRIER_RS, INJECT)
    step(repo, out, move_inject(base_files()), "move")

    assert records(out)[before]["filePath"] == "src/meta/src/inject.rs"
    assert summary(out) == {"added": 0, "removed": 0, "moved": 1, "changed": 0, "unchanged": 6}


def test_a_file_renamed_with_an_edit_keeps_its_ids(repo: GitRepo, out: Path) -> None:
    ids = {r["errorMessage"]: rid for rid, r in records(out).items() if r["filePath"] == CATALOG_RS}
    files = base_files()
    text = files.pop(CATALOG_RS)
    assert isinstance(text, str)
    edited = text.replace("CATALOG_CREATE_TABLE_44: u32 = 44", "CATALOG_CREATE_TABLE_44: u32 = 7")
    assert edited != text
    step(repo, out, {**files, CATALOG_RS: None, "src/meta/src/store/catalog.rs": edited}, "rename")

    now = {r["errorMessage"]: rid for rid, r in records(out).items() if "catalog" in r["filePath"]}
    assert now == ids
    assert all(
        records(out)[rid]["filePath"] == "src/meta/src/store/catalog.rs" for rid in ids.values()
    )
    assert summary(out) == {"added": 0, "removed": 0, "moved": 2, "changed": 0, "unchanged": 5}


def test_a_deleted_site_is_retired_and_a_new_one_never_gets_its_id(
    repo: GitRepo, out: Path
) -> None:
    gone = id_of(out, BARRIER_RS, INJECT)
    step(repo, out, {**base_files(), BARRIER_RS: rust_file("barrier", BARRIER[1:])}, "delete")
    assert gone not in records(out) and gone in manifest(out)["retired"]
    assert summary(out) == {"added": 0, "removed": 1, "moved": 0, "changed": 0, "unchanged": 6}

    step(repo, out, base_files(), "add it back")  # the same message, at the same place

    back = id_of(out, BARRIER_RS, INJECT)
    assert back != gone and gone in manifest(out)["retired"]
    pattern = records(out)[back]["messagePattern"]
    assert back == record_id(REPO, BARRIER_RS, pattern, 1)  # counter 0 is the retired id
    assert summary(out) == {"added": 1, "removed": 0, "moved": 0, "changed": 0, "unchanged": 6}


def test_a_fresh_id_skips_every_id_ever_used() -> None:
    taken = {record_id(REPO, "a.rs", "p", 0), record_id(REPO, "a.rs", "p", 1)}
    assert fresh_id(REPO, "a.rs", "p", taken) == record_id(REPO, "a.rs", "p", 2)
    assert fresh_id(REPO, "a.rs", "p", set()) == record_id(REPO, "a.rs", "p", 0)
