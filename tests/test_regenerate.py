"""`errdoc regenerate` on real git repositories, with the LLM analyzer against a loopback server."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from llm_server import FakeOpenAI
from regen_fixtures import (
    BARRIER_RS,
    BASE,
    BASE_SITES,
    CASES,
    REPO,
    Files,
    cli,
    dataset,
    delete_catalog,
    edit,
    extract,
    filler,
    line_shift,
    llm_env,
    manifest,
    new_file,
    plain_answer,
    records,
    regenerate,
    rust_file,
    subprocess_env,
)

from pipeline.analyze.static import STATIC_VERSION
from pipeline.dataset.lock import exclusive
from pipeline.dataset.previous import read_version
from pipeline.dataset.store import compact_json


def diff_summary(out: Path) -> dict[str, int]:
    """`errdoc diff previous latest --format json` summary, through the real CLI."""
    result = cli("diff", "previous", "latest", "--out", out, "--repo", REPO, "--format", "json")
    assert result.exit_code == 0, result.output
    summary: dict[str, int] = json.loads(result.output)["summary"]
    return summary


def assert_counts_add_up(summary: dict[str, int], old_size: int, new_size: int) -> None:
    kept = summary["moved"] + summary["changed"] + summary["unchanged"]
    assert summary["added"] + kept == new_size
    assert summary["removed"] + kept == old_size


def new_contents(old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    """Content hashes of the new version that the old one never explained."""
    seen = {p["contentHash"] for p in old["records"].values()}
    return {p["contentHash"] for p in new["records"].values()} - seen


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    r = GitRepo.init(tmp_path / "src")
    r.commit(BASE, message="base")
    return r


@pytest.mark.parametrize(
    ("name", "change", "expected", "requests"), CASES, ids=[c[0] for c in CASES]
)
def test_regenerate_pays_for_what_changed(
    repo: GitRepo,
    tmp_path: Path,
    name: str,
    change: Callable[[Files], Files],
    expected: tuple[int, int, int, int, int],
    requests: int,
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    with FakeOpenAI() as server, llm_env(server.base_url):
        server.responder = plain_answer
        assert extract(repo.path, out, cache, "main", "--analyzer", "llm").exit_code == 0
        assert len(server.requests) == BASE_SITES
        before = manifest(out)
        new_sha = repo.commit(change(dict(BASE)), message=name)
        result = regenerate(out, cache, "main", "--analyzer", "llm")
        asked = len(server.requests) - BASE_SITES

    assert result.exit_code == 0, result.output
    after = manifest(out)
    assert after["sha"] == new_sha
    assert [v["sha"] for v in after["versions"]] == [before["sha"], new_sha]
    summary = diff_summary(out)
    added, removed, moved, changed, unchanged = expected
    assert summary == {"added": added, "removed": removed, "moved": moved, "changed": changed,
                       "unchanged": unchanged}  # fmt: skip
    assert_counts_add_up(summary, len(before["records"]), len(after["records"]))
    assert f"+{added} -{removed} ~{changed} moved {moved}" in result.output
    assert asked == requests == len(new_contents(before, after))
    assert f"model requests {requests}" in result.output
    assert set(records(out)) == set(after["records"])
    assert cli("validate", out).exit_code == 0


def test_line_shift_keeps_explanation_and_timestamps(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    with FakeOpenAI() as server, llm_env(server.base_url):
        server.responder = plain_answer
        extract(repo.path, out, cache, "main", "--analyzer", "llm")
        old = records(out)
        server.requests.clear()
        new_sha = repo.commit(line_shift(dict(BASE)))
        assert regenerate(out, cache, "main", "--analyzer", "llm").exit_code == 0
        assert server.requests == []

    new = records(out)
    assert set(new) == set(old)
    for rid, record in new.items():
        before = old[rid]
        shift = 3 if record["filePath"] == BARRIER_RS else 0
        assert record["lineNumber"] == before["lineNumber"] + shift
        assert record["sourceCodeStart"] == before["sourceCodeStart"] + shift
        assert (record["analyzedAt"], record["contentChangedAt"]) == (
            before["analyzedAt"],
            before["contentChangedAt"],
        )
        assert record["documentation"] == before["documentation"]
        # SPEC 7: only the changed file's records are located again at the new commit.
        located = new_sha if record["filePath"] == BARRIER_RS else before["analyzedSha"]
        assert record["analyzedSha"] == located and located in record["githubUrl"]
    assert manifest(out)["counts"]["reused"] == BASE_SITES


def test_edited_window_is_explained_again(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    old = records(out)
    change = edit(BARRIER_RS, "BARRIER_INJECT_44: u32 = 44", "BARRIER_INJECT_44: u32 = 7")
    repo.commit(change(dict(BASE)))
    time.sleep(0.002)  # datasetVersion has millisecond resolution
    assert regenerate(out, cache).exit_code == 0

    new = records(out)
    edited = [rid for rid in new if "BARRIER_INJECT_44: u32 = 7" in new[rid]["sourceCode"]]
    assert len(edited) == 1 and edited[0] in old
    (rid,) = edited
    assert new[rid]["contentChangedAt"] > old[rid]["contentChangedAt"]
    assert new[rid]["analyzedAt"] > old[rid]["analyzedAt"]
    others = [r for r in new if r != rid]
    assert all(new[r]["contentChangedAt"] == old[r]["contentChangedAt"] for r in others)


def test_removed_site_is_retired_since_the_new_commit(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    gone = {rid for rid, r in records(out).items() if "resume" in r["errorMessage"]}
    assert len(gone) == 1
    old_version = manifest(out)["datasetVersion"]
    change = edit(BARRIER_RS, 'bail!("cannot resume barrier {id} twice");', "return Ok(());")
    new_sha = repo.commit(change(dict(BASE)))
    assert regenerate(out, cache).exit_code == 0

    (rid,) = gone
    retired = manifest(out)["retired"]
    assert retired[rid]["since"] == new_sha
    assert retired[rid]["lastVersion"] == old_version
    assert retired[rid]["errorMessage"] == "cannot resume barrier {id} twice"
    assert rid not in records(out) and rid not in manifest(out)["records"]
    assert rid in {r.id for r in read_version(dataset(out), old_version)}


def test_force_push_falls_back_to_a_full_extraction_from_the_cache(
    repo: GitRepo, tmp_path: Path
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    base = repo.head()
    dropped = repo.commit(new_file(dict(BASE)), message="to be force-pushed away")
    assert extract(repo.path, out, cache, "main").exit_code == 0
    repo.git("reset", "-q", "--hard", base)
    rewritten = repo.commit(line_shift(dict(BASE)), message="rewritten history")
    repo.git("reflog", "expire", "--expire=now", "--all")
    repo.git("gc", "-q", "--prune=now")
    with pytest.raises(subprocess.CalledProcessError):
        repo.git("cat-file", "-e", dropped)

    result = regenerate(out, cache)

    assert result.exit_code == 0, result.output
    after = manifest(out)
    assert after["sha"] == rewritten
    # catalog.rs and error.rs: same blobs, carried over without the dropped commit
    assert after["counts"]["filesCarried"] == 2
    assert after["counts"]["reused"] == BASE_SITES
    assert {r["since"] for r in after["retired"].values()} == {rewritten}
    assert len(after["retired"]) == 2  # the sink.rs sites of the dropped commit


def test_regenerate_refuses_while_the_dataset_is_locked(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    before = (dataset(out) / "manifest.json").read_bytes()
    repo.commit(new_file(dict(BASE)))
    with exclusive(dataset(out) / ".lock", "test"):
        result = regenerate(out, cache)
    assert result.exit_code == 1
    assert result.output.strip().splitlines()[-1].startswith("errdoc: error: another errdoc run")
    assert "Traceback" not in result.output
    assert (dataset(out) / "manifest.json").read_bytes() == before
    assert regenerate(out, cache).exit_code == 0  # and once released, it goes through


def test_regenerate_at_the_same_commit_does_nothing(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    result = regenerate(out, cache)
    assert result.exit_code == 0
    assert "nothing to do" in result.output
    assert len(manifest(out)["versions"]) == 1


def many_sites(tag: str, n: int) -> str:
    """One file of `n` sites with distinct messages."""
    return rust_file(tag, [(f"check_{k}", f"{tag} check {k} failed for {{id}}") for k in range(n)])


KILL_SITES, KILL_CONCURRENCY = 30, 3


def test_killed_regeneration_leaves_the_previous_version_and_resumes(
    repo: GitRepo, tmp_path: Path
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    with FakeOpenAI(latency=0.1) as server, llm_env(server.base_url):
        server.responder = plain_answer
        assert extract(repo.path, out, cache, "main", "--analyzer", "llm").exit_code == 0
        before = manifest(out)
        before_records = (dataset(out) / "records.jsonl").read_bytes()
        repo.commit({**BASE, "src/meta/src/many.rs": many_sites("many", KILL_SITES)})
        paid_before = len(server.requests)
        command = [sys.executable, "-m", "pipeline", "regenerate", "--repo", REPO, "--ref", "main",
                   "--out", str(out), "--cache", str(cache), "--jobs", "1", "--analyzer", "llm",
                   "--concurrency", str(KILL_CONCURRENCY)]  # fmt: skip
        worker = subprocess.Popen(
            command,
            env=subprocess_env(server.base_url),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while len(server.requests) - paid_before < KILL_SITES // 2:
            assert time.monotonic() < deadline and worker.poll() is None
            time.sleep(0.01)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
        time.sleep(0.3)  # let the requests in flight finish on the server side

        assert manifest(out) == before
        assert (dataset(out) / "records.jsonl").read_bytes() == before_records
        assert set(records(out)) == set(before["records"])

        paid_by_killed = len(server.requests) - paid_before
        result = regenerate(out, cache, "main", "--analyzer", "llm",
                            "--concurrency", str(KILL_CONCURRENCY))  # fmt: skip
        paid = len(server.requests) - paid_before

    assert result.exit_code == 0, result.output
    after = manifest(out)
    assert len(after["records"]) == BASE_SITES + KILL_SITES
    assert all(p["status"] == "ok" for p in after["records"].values())
    assert len(new_contents(before, after)) == KILL_SITES
    assert paid <= KILL_SITES + KILL_CONCURRENCY
    # What the killed run was answered came from the cache; only the rest was asked again.
    hits = after["counts"]["llm"]["cacheHits"]
    assert KILL_SITES // 2 - KILL_CONCURRENCY <= hits <= paid_by_killed
    assert paid - paid_by_killed == KILL_SITES - hits
    assert not [p for p in dataset(out).parent.rglob("*") if "staging" in p.name]
    assert cli("validate", out).exit_code == 0


def test_regenerate_across_many_commits_asks_once_per_new_content(
    repo: GitRepo, tmp_path: Path
) -> None:
    """Acceptance 2 in small: extract at an old commit, regenerate several commits later."""
    out, cache = tmp_path / "out", tmp_path / "cache"
    with FakeOpenAI() as server, llm_env(server.base_url):
        server.responder = plain_answer
        assert extract(repo.path, out, cache, "main", "--analyzer", "llm").exit_code == 0
        before = manifest(out)
        files = dict(BASE)
        for _, change, _, _ in CASES:
            if change is not delete_catalog:  # renaming it comes later in the table
                files = change(files)
                repo.commit(files)
        files["src/meta/src/many.rs"] = many_sites("many", 6) + "\n".join(filler("dup")) + "\n"
        repo.commit(files)
        server.requests.clear()
        result = regenerate(out, cache, "main", "--analyzer", "llm")

    assert result.exit_code == 0, result.output
    after = manifest(out)
    asked = [seen.prompt() for seen in server.requests]
    assert len(asked) == len(new_contents(before, after)) > 0
    assert len(set(asked)) == len(asked)  # no content asked twice
    summary = diff_summary(out)
    assert_counts_add_up(summary, len(before["records"]), len(after["records"]))
    assert summary["added"] > 0 and summary["removed"] > 0 and summary["moved"] > 0


def test_the_summary_is_made_while_the_version_is_published_and_its_error_comes_after() -> None:
    """`run_extract`'s `while_publishing` task (the regeneration's summary) runs in a thread
    during the publish; a publish that fails is the error the user hears of first."""
    from pipeline.dataset.extract import ExtractResult, _beside

    result = ExtractResult(Path("out"), "0" * 40, "v1", {})
    started, release = threading.Event(), threading.Event()

    def task(made: ExtractResult) -> None:
        assert made is result
        started.set()
        release.wait(5)
        raise ValueError("summary failed")

    with pytest.raises(ValueError, match="summary failed"), _beside(task, result):
        assert started.wait(5)  # it runs while the block does
        release.set()
    started.clear()
    release.clear()
    with pytest.raises(KeyError, match="publish failed"), _beside(task, result):
        assert started.wait(5)
        release.set()
        raise KeyError("publish failed")


def test_a_dataset_an_older_analyzer_explained_is_explained_again_and_keeps_what_is_the_same(
    repo: GitRepo, tmp_path: Path
) -> None:
    """A dataset whose explanations another version of the static analyzer wrote (an older
    errdoc; an edit of a class rule that nobody labelled) is explained again at the same
    commit (an extraction: a regeneration at the commit it is at does nothing): a record
    whose text comes out the same keeps its file and timestamps, one whose text is the old
    code's is rewritten."""
    out, cache = tmp_path / "out", tmp_path / "cache"
    extract(repo.path, out, cache, "main")
    root = dataset(out)
    old = records(out)
    stale = sorted(old)[0]
    files = {p.name: p.read_bytes() for p in (root / "records").iterdir()}
    # what an older analyzer wrote: another version in the provenance, one record's text
    data = manifest(out)
    for provenance in data["records"].values():
        provenance["promptVersion"] = "static-1"
    (root / "manifest.json").write_text(json.dumps(data))
    lines = [json.loads(line) for line in (root / "records.jsonl").read_text().splitlines()]
    for line in lines:
        if line["id"] == stale:
            line["documentation"] = "What static-1 said."
    (root / "records.jsonl").write_text("".join(compact_json(line) + "\n" for line in lines))

    result = extract(repo.path, out, cache, "main")
    assert result.exit_code == 0, result.output
    assert "nothing published" not in result.output
    new = records(out)
    assert new[stale]["documentation"] == old[stale]["documentation"]
    assert new[stale]["analyzedAt"] > old[stale]["analyzedAt"]
    for rid in set(old) - {stale}:
        assert new[rid] == old[rid]
        assert (root / "records" / f"{rid}.json").read_bytes() == files[f"{rid}.json"]
    versions = {p["promptVersion"] for p in manifest(out)["records"].values()}
    assert versions == {STATIC_VERSION}
    # and the next run finds the dataset current
    assert "nothing published" in extract(repo.path, out, cache, "main").output
