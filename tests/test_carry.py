"""Unchanged files are carried over from the previous version, and the result is the same.

The rule under test: a regeneration publishes exactly what a fresh extraction at the
same commit publishes (but for the timestamps a fresh one cannot know), whatever
was carried over, scanned again or parsed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from regen_fixtures import (
    BARRIER_RS,
    BASE,
    CASES,
    CATALOG_RS,
    ERROR_RS,
    Files,
    cli,
    dataset,
    extract,
    manifest,
    records,
    regenerate,
)

from pipeline.core.model import Explanation
from pipeline.core.sitetypes import Facts, Site
from pipeline.scan.context import alias_lookup

ERROR_PATH = "src/meta/src/error.rs"
TIMES = ("analyzedAt", "contentChangedAt")
EXPLANATION = tuple(Explanation.model_fields)


def other_error(files: Files) -> Files:
    """`MetaResult` now names another error type: every error class that uses it moves."""
    return {**files, ERROR_PATH: ERROR_RS.replace("MetaError>", "MetaErrorV2>")}


def unrelated_alias(files: Files) -> Files:
    """A new alias of another name elsewhere: no error class moves."""
    other = "pub type SinkResult<T> = std::result::Result<T, SinkError>;\n"
    return {**files, "src/sink/src/error.rs": other}


def shadowing_alias(files: Files) -> Files:
    """A second `MetaResult` in another crate: the meta crate's own one still wins."""
    other = "pub type MetaResult<T> = std::result::Result<T, OtherError>;\n"
    return {**files, "src/other/src/error.rs": other}


CHANGES: list[tuple[str, Callable[[Files], Files]]] = [
    *((name, change) for name, change, _, _ in CASES),
    ("alias target changed", other_error),
    ("unrelated alias added", unrelated_alias),
    ("alias of the same name in another crate", shadowing_alias),
]


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    r = GitRepo.init(tmp_path / "src")
    r.commit(BASE, message="base")
    return r


def without_times(found: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {rid: {k: v for k, v in r.items() if k not in TIMES} for rid, r in found.items()}


def place(record: dict[str, Any]) -> str:
    return f"{record['filePath']}:{record['lineNumber']}"


def by_place(found: dict[str, dict[str, Any]], kept: set[str]) -> dict[str, dict[str, Any]]:
    """Records by file and line, without ids and timestamps (`kept`: nor their explanation)."""
    return {
        place(r): {
            k: v
            for k, v in r.items()
            if k != "id" and (k not in EXPLANATION or place(r) not in kept)
        }
        for r in without_times(found).values()
    }


def comparable(data: dict[str, Any], found: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The manifest but for what differs between any two runs (version, history, reuse, ids)."""
    counts = {
        k: v
        for k, v in data["counts"].items()
        if k not in ("filesParsed", "filesFromCache", "filesCarried", "reused", "retired")
    }
    provenance = {place(found[rid]): p for rid, p in data["records"].items()}
    return {"records": provenance, "files": data["files"], "counts": counts}


@pytest.mark.parametrize(("name", "change"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_regeneration_publishes_what_a_fresh_extraction_does(
    repo: GitRepo, tmp_path: Path, name: str, change: Callable[[Files], Files]
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0
    before, manifest_before = records(out), manifest(out)
    sha = repo.commit(change(dict(BASE)), message=name)
    assert regenerate(out, cache).exit_code == 0
    fresh = tmp_path / "fresh"
    assert extract(repo.path, fresh, tmp_path / "fresh-cache", sha).exit_code == 0

    # Ids are permanent: a moved site keeps the id a fresh extraction would not give it, so
    # the two are compared by place. A site moved to another file with its window keeps its
    # explanation (SPEC 7: same content hash), which a fresh run words with the new path.
    moved = {
        rid
        for rid, r in records(out).items()
        if rid in before and before[rid]["filePath"] != r["filePath"]
    }
    assert bool(moved) == (name in ("moved site", "renamed file"))
    hashes = {rid: p["contentHash"] for rid, p in manifest(out)["records"].items()}
    old_hashes = {rid: p["contentHash"] for rid, p in manifest_before["records"].items()}
    same = {rid for rid in moved if hashes[rid] == old_hashes[rid]}
    assert same == (moved if name == "renamed file" else set())
    for rid in same:
        explained = {k: records(out)[rid][k] for k in EXPLANATION}
        assert explained == {k: before[rid][k] for k in EXPLANATION}
    kept = {place(r) for rid, r in records(out).items() if rid in same}
    # SPEC 7: a record of an unchanged file is not located again (its commit and link stay).
    regenerated = records(out)
    old_sha = manifest_before["sha"]
    blobs_before = {path: f["blob"] for path, f in manifest_before["files"].items()}
    blobs = {path: f["blob"] for path, f in manifest(out)["files"].items()}
    left = 0
    for r in regenerated.values():
        if r["analyzedSha"] == old_sha:
            assert blobs_before.get(r["filePath"]) == blobs[r["filePath"]]
            r["analyzedSha"], r["githubUrl"] = sha, r["githubUrl"].replace(old_sha, sha)
            left += 1
        else:
            assert r["analyzedSha"] == sha
        for k in ("triggerScenarios", "commonSituations"):  # a kept text dates its path
            r[k] = r[k].replace(f"At commit {old_sha[:10]}", f"At commit {sha[:10]}")
    assert (left == 0) == (name == "alias target changed")
    assert by_place(regenerated, kept) == by_place(records(fresh), kept)
    assert comparable(manifest(out), regenerated) == comparable(manifest(fresh), records(fresh))
    jsonl = (dataset(out) / "records.jsonl").read_text()
    assert [json.loads(line) for line in jsonl.splitlines()] == [
        records(out)[rid] for rid in sorted(records(out))
    ]
    assert cli("validate", out).exit_code == 0


def test_only_changed_files_are_parsed_the_rest_is_carried(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    before = records(out)
    sha = repo.commit({**BASE, BARRIER_RS: "// one line more\n" + str(BASE[BARRIER_RS])})

    result = regenerate(out, cache)

    assert result.exit_code == 0
    assert (
        "(1 parsed, 0 from cache, 2 unchanged since the last version, 0 skipped)" in result.output
    )
    counts = manifest(out)["counts"]
    assert (counts["filesParsed"], counts["filesFromCache"], counts["filesCarried"]) == (1, 0, 2)
    assert counts["reused"] == len(before)
    for rid, record in records(out).items():
        old = before[rid]
        assert (record["analyzedAt"], record["contentChangedAt"]) == (
            old["analyzedAt"],
            old["contentChangedAt"],
        )
        if record["filePath"] == CATALOG_RS:  # carried: the record as it was (SPEC 7)
            assert record == old
        else:  # located again at the new commit
            assert record["analyzedSha"] == sha and f"/blob/{sha}/" in record["githubUrl"]


def test_an_alias_changed_elsewhere_sends_the_files_that_use_it_back_to_the_scan(
    repo: GitRepo, tmp_path: Path
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    before = records(out)
    assert {r["errorClass"] for r in before.values()} == {"MetaError"}
    repo.commit(other_error(dict(BASE)))

    assert regenerate(out, cache).exit_code == 0

    counts = manifest(out)["counts"]
    assert (counts["filesParsed"], counts["filesFromCache"], counts["filesCarried"]) == (1, 2, 0)
    assert {r["errorClass"] for r in records(out).values()} == {"MetaErrorV2"}
    # The content is the same (SPEC 7): the explanation and its timestamps stay.
    for rid, record in records(out).items():
        assert record["documentation"] == before[rid]["documentation"]
        assert record["contentChangedAt"] == before[rid]["contentChangedAt"]


def test_an_unrelated_alias_leaves_the_other_files_carried(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    repo.commit(unrelated_alias(dict(BASE)))

    assert regenerate(out, cache).exit_code == 0

    counts = manifest(out)["counts"]
    assert (counts["filesParsed"], counts["filesCarried"]) == (1, 3)


def test_a_new_file_selection_is_scanned_in_full(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    repo.commit({**BASE, BARRIER_RS: "// one line more\n" + str(BASE[BARRIER_RS])})

    assert regenerate(out, cache, "main", "--exclude", CATALOG_RS).exit_code == 0

    counts = manifest(out)["counts"]
    assert (counts["filesParsed"], counts["filesFromCache"], counts["filesCarried"]) == (1, 1, 0)
    assert CATALOG_RS not in {r["filePath"] for r in records(out).values()}


@pytest.mark.parametrize("damage", ["no file summaries", "another extractor"])
def test_a_previous_version_that_cannot_vouch_for_its_files_is_not_carried(
    repo: GitRepo, tmp_path: Path, damage: str
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    path = dataset(out) / "manifest.json"
    data = json.loads(path.read_text())
    if damage == "no file summaries":  # a dataset published before errdoc kept them
        del data["files"]
    else:  # published by an errdoc whose extractor finds other sites
        data["extractor"] = "0"
    path.write_text(json.dumps(data))
    before = without_times(records(out))
    repo.commit({**BASE, BARRIER_RS: "// one line more\n" + str(BASE[BARRIER_RS])})

    assert regenerate(out, cache).exit_code == 0

    counts = manifest(out)["counts"]
    assert (counts["filesParsed"], counts["filesFromCache"], counts["filesCarried"]) == (1, 2, 0)
    assert set(without_times(records(out))) == set(before)


def test_a_damaged_previous_record_is_refused_not_copied(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    jsonl = dataset(out) / "records.jsonl"
    lines = jsonl.read_text().splitlines()
    first = json.loads(lines[0])
    first["injected"] = "<script>"
    jsonl.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    repo.commit({**BASE, BARRIER_RS: "// one line more\n" + str(BASE[BARRIER_RS])})

    result = regenerate(out, cache)

    assert result.exit_code != 0
    assert "errdoc validate" in result.output
    assert json.loads(jsonl.read_text().splitlines()[0]) == first  # nothing replaced


def site(kind: str, return_type: str | None) -> Site:
    facts = Facts(return_type=return_type)
    return Site(kind, "a.rs", 1, 0, "m", True, "m", "bail", facts=facts)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "return_type", "looked_up"),
    [
        ("bail", "MetaResult<()>", "MetaResult"),
        ("bail", "crate::error::Result<T>", "Result"),
        ("bail", "Result<T, MyError>", None),  # the error type is written out
        ("bail", "anyhow::Result<()>", None),
        ("context", "eyre::Result<()>", None),
        ("panic", "MetaResult<()>", None),  # panics have no error class
        ("error_attr", None, None),
        ("bail", None, None),
        ("bail", "Option<u32>", None),
    ],
)
def test_alias_lookup_names_the_alias_an_error_class_depends_on(
    kind: str, return_type: str | None, looked_up: str | None
) -> None:
    assert alias_lookup(site(kind, return_type)) == looked_up


def loop_file(collection: str) -> str:
    """A `bail!` under a loop whose header is further up than the window reaches."""
    filler = [f"        let step_{k} = {k};" for k in range(25)]
    return (
        "\n".join(
            [
                "use crate::error::MetaResult;",
                "pub fn drain(items: Vec<u32>, others: Vec<u32>) -> MetaResult<()> {",
                f"    for item in {collection} {{",
                *filler,
                "        if item > 3 {",
                '            bail!("item {item} is too big to drain");',
                "        }",
                "    }",
                "    Ok(())",
                "}",
                *filler,
            ]
        )
        + "\n"
    )


def test_a_condition_changed_above_the_window_keeps_the_explanation(
    repo: GitRepo, tmp_path: Path
) -> None:
    """SPEC 7: the content is message, pattern and window; what lies above it is not."""
    out, cache = tmp_path / "out", tmp_path / "cache"
    path = "src/meta/src/drain.rs"
    repo.commit({**BASE, path: loop_file("items")})
    extract(repo.path, out, cache, "main")
    (rid,) = [r for r, rec in records(out).items() if rec["filePath"] == path]
    before, provenance = records(out)[rid], manifest(out)["records"][rid]
    assert "loop: items" in provenance["conditions"]

    sha = repo.commit({**BASE, path: loop_file("others")})
    assert regenerate(out, cache).exit_code == 0

    after, provenance_after = records(out)[rid], manifest(out)["records"][rid]
    assert provenance_after == provenance  # as explained, with what it was explained from
    assert {k: v for k, v in after.items() if k not in ("analyzedSha", "githubUrl")} == {
        k: v for k, v in before.items() if k not in ("analyzedSha", "githubUrl")
    }
    assert after["analyzedSha"] == sha


def test_a_record_missing_from_the_previous_version_is_found_again(
    repo: GitRepo, tmp_path: Path
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    jsonl = dataset(out) / "records.jsonl"
    lines = jsonl.read_text().splitlines()
    lost = next(line for line in lines if CATALOG_RS in line)
    jsonl.write_text("\n".join(line for line in lines if line != lost) + "\n")
    repo.commit({**BASE, BARRIER_RS: "// one line more\n" + str(BASE[BARRIER_RS])})

    assert regenerate(out, cache).exit_code == 0

    assert json.loads(lost)["id"] in records(out)  # catalog.rs was scanned, not carried short
    assert manifest(out)["counts"]["filesCarried"] == 1
