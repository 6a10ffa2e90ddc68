"""`errdoc extract --analyzer llm` against endpoints that hang or refuse: bounded, exit 3, reason."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from gitrepo import GitRepo
from llm_server import FakeOpenAI, hang, rejects
from regen_fixtures import BASE, BASE_SITES, extract, llm_env, manifest, records


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(BASE)
    return repo


def test_hung_server_ends_the_run_with_exit_3_and_static_records(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    with FakeOpenAI() as server, llm_env(server.base_url):
        server.responder = lambda body: hang(30.0)
        monkeypatch.setenv("ERRDOC_LLM_BREAKER", "3")
        started = time.monotonic()
        result = extract(repo.path, out, cache, "main", "--analyzer", "llm", "--timeout", "0.5")
        elapsed = time.monotonic() - started
    # bound: 5 sites in flight at once (concurrency 8), all time out after 0.5 s, then the
    # parse and publish of a five-site repository
    assert elapsed < 4.0
    assert result.exit_code == 3
    assert "stopped asking the model: stopped after 3 in a row: no answer within 0.5 s" in (
        result.stderr
    )
    assert len(records(out)) == BASE_SITES  # published, the static explanation standing in
    assert manifest(out)["counts"]["llm"]["stopped"].startswith("stopped after 3 in a row")


def test_bad_key_stops_even_with_allow_failures(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    with FakeOpenAI() as server, llm_env(server.base_url):
        server.responder = lambda body: rejects(401, "Incorrect API key provided: test-key")
        result = extract(
            repo.path, out, cache, "main", "--analyzer", "llm", "--allow-failures",
            "--concurrency", "1", "--retries", "0",
        )  # fmt: skip
        assert len(server.requests) == 5
    assert result.exit_code == 3
    assert "HTTP 401 from the model server: Incorrect API key provided: [redacted]" in result.stderr
    assert "test-key" not in result.stderr


def test_dry_run_needs_no_key(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MODEL", "gpt-4o-mini")
    result = extract(repo.path, tmp_path / "out", tmp_path / "cache", "main",
                     "--analyzer", "llm", "--dry-run")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert f"{BASE_SITES} sites" in result.stdout
