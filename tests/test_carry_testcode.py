"""A file a parent declares `#[cfg(test)] mod x;` stays test code when that parent is carried."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gitrepo import GitRepo
from regen_fixtures import (
    BARRIER_RS,
    BASE,
    Files,
    dataset,
    edit,
    extract,
    manifest,
    records,
    regenerate,
    rust_file,
)

from pipeline.analyze.reach_text import undated_record

LIB_RS = "src/meta/src/lib.rs"
CHECKS_RS = "src/meta/src/checks.rs"
TEST_MOD = "pub mod barrier;\n#[cfg(test)]\nmod checks;\n"
PLAIN_MOD = "pub mod barrier;\nmod checks;\n"
CHECKS = rust_file("checks", [("verify", "check {id} failed in a test helper")])
WITH_TESTS: Files = {**BASE, LIB_RS: TEST_MOD, CHECKS_RS: CHECKS}
SHIFT_BARRIER = edit(BARRIER_RS, "BARRIER_INJECT_44: u32 = 44", "BARRIER_INJECT_44: u32 = 7")


def by_place(out: Path) -> dict[tuple[str, int], dict[str, Any]]:
    """Records by file and line, without what depends on the history (ids, times, shas)."""
    history = {"id", "analyzedSha", "githubUrl", "analyzedAt", "contentChangedAt"}
    return {
        (r["filePath"], r["lineNumber"]): {k: v for k, v in r.items() if k not in history}
        for r in map(undated_record, records(out).values())
    }


def check_paths(out: Path) -> list[str]:
    return [r["filePath"] for r in records(out).values() if r["filePath"] == CHECKS_RS]


def test_a_test_module_stays_test_code_while_its_parent_is_carried(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(WITH_TESTS)
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0
    assert check_paths(out) == []
    summary = manifest(out)["files"]
    assert summary[LIB_RS]["testModules"] == ["checks"]
    assert summary[CHECKS_RS]["testCode"] is True and summary[CHECKS_RS]["records"] == 1

    # barrier.rs changes; lib.rs and checks.rs are carried, checks.rs still test code.
    sha = repo.commit(SHIFT_BARRIER(dict(WITH_TESTS)))
    assert regenerate(out, cache).exit_code == 0
    counts = manifest(out)["counts"]
    assert (counts["filesParsed"], counts["filesCarried"]) == (1, 4)
    assert check_paths(out) == []
    cold = tmp_path / "cold"
    assert extract(repo.path, cold, tmp_path / "cold-cache", sha).exit_code == 0
    assert by_place(out) == by_place(cold)


def test_a_parent_that_stops_declaring_a_test_module_brings_its_records(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(WITH_TESTS)
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0

    # Only lib.rs changes: checks.rs's blob is the same, but it is product code now.
    repo.commit({**WITH_TESTS, LIB_RS: PLAIN_MOD})
    assert regenerate(out, cache).exit_code == 0
    assert check_paths(out) == [CHECKS_RS]
    assert "testCode" not in manifest(out)["files"][CHECKS_RS]
    [rid] = [rid for rid, r in records(out).items() if r["filePath"] == CHECKS_RS]

    # And back: the record is retired, not left behind by a carry-over.
    repo.commit(WITH_TESTS)
    assert regenerate(out, cache).exit_code == 0
    assert check_paths(out) == []
    assert rid in manifest(out)["retired"]
    assert not (dataset(out) / "records" / f"{rid}.json").exists()


def test_a_dataset_with_summaries_of_another_format_is_scanned_in_full(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(WITH_TESTS)
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0
    path = dataset(out) / "manifest.json"
    data = json.loads(path.read_text())
    del data["summaryFormat"]  # published before summaries said which files are test code
    for summary in data["files"].values():
        summary.pop("testModules", None)
        summary.pop("testCode", None)
    path.write_text(json.dumps(data))
    repo.commit(SHIFT_BARRIER(dict(WITH_TESTS)))

    assert regenerate(out, cache).exit_code == 0

    assert manifest(out)["counts"]["filesCarried"] == 0
    assert check_paths(out) == []
