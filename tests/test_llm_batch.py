"""--batch: the OpenAI Batch API through the real client against the loopback /v1/files and
/v1/batches; a killed run resumes its batch and nothing is paid twice."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo
from llm_server import (
    TAXONOMY,
    FakeOpenAI,
    finish,
    good,
    make_contexts,
    refusal,
    static_stand_in,
    status,
)
from regen_fixtures import BASE, BASE_SITES, cli, extract, llm_env, manifest

from pipeline.analyze.llm import LlmAnalyzer, LlmSettings
from pipeline.analyze.llm_batch import BatchError
from pipeline.analyze.llm_cache import CACHE_FILE
from pipeline.analyze.llm_cost import load_prices, price_for

WORKER = Path(__file__).with_name("llm_server.py")
SITES = 12


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


def batch_analyzer(server: FakeOpenAI, cache_dir: Path, **extra: object) -> LlmAnalyzer:
    settings = LlmSettings(server.base_url, "k", "gpt-4o-mini", batch_poll_s=0.02)
    return LlmAnalyzer(settings, cache_dir, static_stand_in, taxonomy=TAXONOMY, batch=True, **extra)  # type: ignore[arg-type]


def test_a_batch_run_answers_every_site_at_half_the_price(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    analyzer = batch_analyzer(server, tmp_path)
    results = list(analyzer.analyze(make_contexts(SITES)))
    assert [a.status for a in results] == ["ok"] * SITES
    desk = server.batches
    assert (desk.uploads, desk.created, len(server.requests)) == (1, 1, SITES)
    assert all(r.path == "/v1/batches" for r in server.requests)  # no interactive request
    body = server.requests[0].body
    assert body["response_format"]["json_schema"]["strict"] is True
    summary = analyzer.summary
    price = price_for("gpt-4o-mini", load_prices())
    assert price is not None and summary.cost_usd is not None
    full = price.cost(summary.prompt_tokens, summary.completion_tokens)
    assert summary.cost_usd == pytest.approx(full / 2)
    assert summary.requests == SITES

    again = batch_analyzer(server, tmp_path)
    assert all(a.from_cache for a in again.analyze(make_contexts(SITES)))
    assert (desk.created, len(server.requests)) == (1, SITES)
    with sqlite3.connect(tmp_path / CACHE_FILE) as db:
        assert db.execute("SELECT COUNT(*) FROM batches").fetchone()[0] == 0


@pytest.mark.parametrize("lose_batch_id", [False, True], ids=["by-id", "by-metadata"])
def test_a_killed_batch_run_resumes_the_same_batch(tmp_path: Path, lose_batch_id: bool) -> None:
    cache_dir = tmp_path / "cache"
    with FakeOpenAI() as server:
        desk = server.batches
        desk.release.clear()  # the batch stays in progress while the worker polls it
        worker = subprocess.Popen(
            [sys.executable, str(WORKER), "worker", "--base-url", server.base_url,
             "--cache-dir", str(cache_dir), "--sites", str(SITES), "--batch"],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while desk.polls < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert desk.created == 1 and desk.polls >= 3
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
        assert worker.stdout is not None
        assert worker.stdout.read() == ""  # killed before any answer
        worker.stdout.close()
        if lose_batch_id:  # as if killed between creating the batch and storing its id
            with sqlite3.connect(cache_dir / CACHE_FILE) as db:
                db.execute("UPDATE batches SET batch_id = NULL")
        desk.release.set()

        analyzer = batch_analyzer(server, cache_dir)
        results = list(analyzer.analyze(make_contexts(SITES)))
        assert [a.status for a in results] == ["ok"] * SITES
        assert (desk.uploads, desk.created) == (1, 1)  # the same batch, not a second one
        assert len(server.requests) == SITES  # every site paid once
        assert analyzer.summary.requests == 0  # nothing submitted by the resumed run


def test_batch_line_failures_deterministic_kept_transient_asked_again(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    server.script(good(), refusal("no"), status(500), finish("content_filter"))
    results = list(batch_analyzer(server, tmp_path).analyze(make_contexts(4)))
    reasons = sorted(a.reason or "ok" for a in results)
    assert reasons[0].startswith("HTTP 500 in batch batch_1")
    assert reasons[1:] == ["ok", "the answer was withheld by a content filter",
                           "the model refused: no"]  # fmt: skip
    rerun = batch_analyzer(server, tmp_path)
    again = list(rerun.analyze(make_contexts(4)))
    assert sorted(a.status for a in again) == ["failed", "failed", "ok", "ok"]
    assert server.batches.created == 2 and len(server.requests) == 5  # only the 500 re-sent
    assert rerun.summary.known_failures == 2


def test_a_server_without_the_batch_api_is_a_one_line_error(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    server.batches.enabled = False
    with pytest.raises(
        BatchError, match=r"the Batch API refused the job at http://.*: HTTP 404: Not Found"
    ):
        list(batch_analyzer(server, tmp_path).analyze(make_contexts(2)))


def test_extract_with_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(BASE)
    out, cache = tmp_path / "out", tmp_path / "cache"
    monkeypatch.setenv("ERRDOC_LLM_BATCH_POLL", "0.02")
    with FakeOpenAI() as server, llm_env(server.base_url):
        dry = extract(repo.path, out, cache, "main", "--analyzer", "llm", "--batch", "--dry-run")
        assert f"{BASE_SITES} to send" in dry.stdout
        assert "(Batch API, half price)" in dry.stdout
        result = extract(repo.path, out, cache, "main", "--analyzer", "llm", "--batch")
        assert result.exit_code == 0, result.stderr
        assert server.batches.created == 1 and len(server.requests) == BASE_SITES
    assert manifest(out)["counts"]["llm"]["requests"] == BASE_SITES


def test_scheduled_runs_go_through_the_batch_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(BASE)
    repos = tmp_path / "repos.toml"
    repos.write_text(f'[[repo]]\nname = "acme/one"\nsource = "{repo.path}"\nanalyzer = "llm"\n')
    monkeypatch.setenv("ERRDOC_LLM_BATCH_POLL", "0.02")
    with FakeOpenAI() as server, llm_env(server.base_url):
        result = cli("regenerate-all", "--repos", repos, "--out", tmp_path / "out",
                     "--cache", tmp_path / "cache", "--jobs", "1", "--batch")  # fmt: skip
        assert result.exit_code == 0, result.output
        assert server.batches.created == 1
        assert all(r.path == "/v1/batches" for r in server.requests)
        assert len(server.requests) == BASE_SITES
