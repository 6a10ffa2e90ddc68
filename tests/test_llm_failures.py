"""Deterministic failures are remembered; grounding reads the tree once."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from llm_server import (
    TAXONOMY,
    FakeOpenAI,
    Reply,
    finish,
    good,
    make_contexts,
    missing_field,
    refusal,
    static_stand_in,
    status,
    ungrounded,
)
from regen_fixtures import BASE, extract, llm_env

from pipeline.analyze.llm import LlmAnalyzer, LlmSettings
from pipeline.dataset.runner import TreeWords

MakeAnalyzer = Callable[..., LlmAnalyzer]


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


@pytest.fixture
def make(server: FakeOpenAI, tmp_path: Path) -> MakeAnalyzer:
    def build(retry_failed: bool = False, **overrides: Any) -> LlmAnalyzer:
        exists = overrides.pop("identifier_exists", None)
        fields: dict[str, Any] = {"concurrency": 1, "backoff_s": 0.01, "max_retries": 1}
        fields.update(overrides)
        settings = LlmSettings(server.base_url, "k", "gpt-4o-mini", **fields)
        return LlmAnalyzer(
            settings,
            tmp_path / "cache",
            static_stand_in,
            taxonomy=TAXONOMY,
            retry_failed=retry_failed,
            identifier_exists=exists,
        )

    return build


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ([refusal("I won't.")], "the model refused: I won't."),
        ([finish("content_filter")], "content filter"),
        ([finish("length")], "cut off"),
        ([missing_field(), missing_field()], "invalid answer after a re-ask"),
    ],
)
def test_a_rerun_after_deterministic_failures_makes_no_request(
    make: MakeAnalyzer, server: FakeOpenAI, script: list[Reply], reason: str
) -> None:
    server.script(*script)
    contexts = make_contexts(3)
    [first] = list(make().analyze(contexts[:1]))
    assert first.status == "failed"
    assert [a.status for a in make().analyze(contexts[1:])] == ["ok", "ok"]
    asked = len(server.requests)
    analyzer = make()
    again = {a.record_id: a for a in analyzer.analyze(contexts)}
    assert len(server.requests) == asked  # nothing asked, nothing paid
    failed = [a for a in again.values() if a.status == "failed"]
    assert len(failed) == 1 and reason in (failed[0].reason or "")
    assert failed[0].explanation.documentation.startswith("static: ")
    assert (analyzer.summary.known_failures, analyzer.summary.failures) == (1, 1)
    assert "1 to send" not in make().plan(contexts).format()  # the dry run agrees

    retried = make(retry_failed=True)
    assert [a.status for a in retried.analyze(contexts)] == ["ok"] * 3
    assert len(server.requests) == asked + 1  # only the failed site, asked again
    assert make().summary.known_failures == 0
    assert all(a.from_cache for a in make().analyze(contexts))  # the failure is forgotten


@pytest.mark.parametrize("script", [[status(500)] * 2, [status(429)] * 2])
def test_transient_failures_are_asked_again(
    make: MakeAnalyzer, server: FakeOpenAI, script: list[Reply]
) -> None:
    server.script(*script)
    [first] = list(make().analyze(make_contexts(1)))
    assert first.status == "failed"
    [again] = list(make().analyze(make_contexts(1)))
    assert again.status == "ok"
    assert len(server.requests) == len(script) + 1


def test_retry_failed_from_the_command_line(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(BASE)
    out, cache = tmp_path / "out", tmp_path / "cache"
    with FakeOpenAI() as server, llm_env(server.base_url):
        server.responder = lambda body: refusal("no")
        assert extract(repo.path, out, cache, "main", "--analyzer", "llm").exit_code == 3
        asked = len(server.requests)
        assert asked == 5  # refusals are not the same error K times: every site is asked
        result = extract(repo.path, out, cache, "main", "--analyzer", "llm")
        assert result.exit_code == 3 and len(server.requests) == asked
        assert "the model refused: no" in result.stderr
        server.responder = None
        result = extract(repo.path, out, cache, "main", "--analyzer", "llm", "--retry-failed")
        assert result.exit_code == 0, result.stderr
        assert len(server.requests) == asked + 5


def test_grounding_reads_the_tree_once(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    files: dict[str, str | bytes | None] = {
        f"src/m{i}.rs": f"pub fn helper_{i}() {{ frob_{i}(); }}\n" for i in range(300)
    }
    sha = repo.commit({**files, "README.md": "not_rust_word\n"})
    words = TreeWords(repo.path / ".git", sha)
    started = time.monotonic()
    assert words("helper_7") and words("frob_299")
    assert not words("not_rust_word") and not words("helper_300") and not words("help")
    for i in range(2000):  # what 2,000 `git grep`s took minutes for
        words(f"unknown_{i}")
    assert time.monotonic() - started < 2.0


def test_an_identifier_elsewhere_in_the_tree_grounds_the_answer(
    make: MakeAnalyzer, server: FakeOpenAI, tmp_path: Path
) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({"src/other.rs": "pub struct BarrierScheduler;\n"})
    server.script(ungrounded("BarrierScheduler"), ungrounded("NoSuchThing"), good())
    analyzer = make(identifier_exists=TreeWords(repo.path / ".git", sha))
    results = list(analyzer.analyze(make_contexts(2)))
    assert [a.grounded for a in results] == [True, True]
    assert len(server.requests) == 3  # only NoSuchThing was asked about
