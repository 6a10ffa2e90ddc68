"""The llm analyzer through the real openai client over real HTTP to a loopback server."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_server import (
    TAXONOMY,
    FakeOpenAI,
    Reply,
    answer,
    fenced,
    finish,
    good,
    hang,
    make_contexts,
    missing_field,
    refusal,
    static_stand_in,
    status,
    truncated,
    ungrounded,
)

from pipeline.analyze import Analysis
from pipeline.analyze.llm import LlmAnalyzer, LlmConfigError, LlmSettings

MakeAnalyzer = Callable[..., LlmAnalyzer]


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


@pytest.fixture
def make(server: FakeOpenAI, tmp_path: Path) -> MakeAnalyzer:
    def build(identifier_exists: Any = None, **overrides: Any) -> LlmAnalyzer:
        fields: dict[str, Any] = {"concurrency": 4, "timeout_s": 5.0, "backoff_s": 0.01}
        fields.update(overrides)
        settings = LlmSettings(server.base_url, "test-key", "gpt-4o-mini", **fields)
        return LlmAnalyzer(
            settings,
            tmp_path / "cache",
            static_stand_in,
            identifier_exists=identifier_exists,
            taxonomy=TAXONOMY,
        )

    return build


def one(analyzer: LlmAnalyzer) -> Analysis:
    [analysis] = list(analyzer.analyze(make_contexts(1)))
    return analysis


@pytest.mark.parametrize(
    ("script", "requests"),
    [
        ([good()], 1),
        ([fenced()], 1),
        ([Reply(content=f"Sure, here it is: {json.dumps(answer())}\nHope it helps.")], 1),
        ([truncated(), good()], 2),
        ([good(handlingStrategy="retry-later"), good()], 2),
        ([missing_field("solutions"), good()], 2),
        ([good(backgroundTag="not-a-slug"), good()], 2),
        ([status(500), status(503), good()], 3),
        ([status(502), status(504), good()], 3),
        ([Reply(status=200, content="```json\n" + (good().content or "") + "```")], 1),
    ],
)
def test_answer_obtained(
    make: MakeAnalyzer, server: FakeOpenAI, script: list[Reply], requests: int
) -> None:
    server.script(*script)
    analysis = one(make())
    assert (analysis.status, analysis.analyzer, analysis.grounded) == ("ok", "llm", True)
    assert analysis.explanation.backgroundTag == "invalid-state-transition"
    assert len(server.requests) == requests


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ([refusal("I can't help with that.")], "the model refused: I can't help with that."),
        ([finish("length")], "cut off (finish_reason length)"),
        ([finish("content_filter")], "content filter"),
        ([truncated(), truncated()], "invalid answer after a re-ask: invalid JSON"),
        ([missing_field(), missing_field()], "solutions: Field required"),
        ([good(handlingStrategy="pray")] * 2, "handlingStrategy"),
        ([good(backgroundTag="nope")] * 2, "'nope' is not a taxonomy slug"),
        ([status(500)] * 5, "HTTP 500"),
        ([status(400)] * 5, "HTTP 400"),  # each optional parameter dropped, then it stays
    ],
)
def test_site_failure_keeps_static_explanation(
    make: MakeAnalyzer, server: FakeOpenAI, script: list[Reply], reason: str
) -> None:
    server.script(*script)
    analysis = one(make())
    assert analysis.status == "failed"
    assert reason in (analysis.reason or "")
    assert analysis.explanation.documentation.startswith("static: ")
    assert analysis.analyzer == "llm"


def test_transient_failures_are_counted_and_not_cached(
    make: MakeAnalyzer, server: FakeOpenAI
) -> None:
    server.script(status(503))
    analyzer = make(max_retries=0)
    assert one(analyzer).status == "failed"
    assert (analyzer.summary.failures, analyzer.summary.requests) == (1, 1)
    again = make()
    assert one(again).status == "ok"  # asked again, not answered from the cache
    assert len(server.requests) == 2


def test_reask_appends_the_validation_error_and_sums_usage(
    make: MakeAnalyzer, server: FakeOpenAI
) -> None:
    second_answer = json.dumps(answer())
    server.script(
        Reply(content='{"documentation": 1}', prompt_tokens=1000),
        Reply(content=second_answer, prompt_tokens=1200),
    )
    analysis = one(make())
    first, second = server.requests
    assert second.body["messages"][:2] == first.body["messages"]
    assert second.body["messages"][2] == {"role": "assistant", "content": '{"documentation": 1}'}
    assert "documentation: Input should be a valid string" in second.body["messages"][3]["content"]
    assert analysis.usage.prompt_tokens == 1000 + 1200
    assert analysis.usage.completion_tokens == (20 // 4 + 1) + (len(second_answer) // 4 + 1)


def test_ungrounded_identifier_is_named_in_a_reask(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    server.script(ungrounded("frobnicate_epoch"), good())
    analysis = one(make())
    assert analysis.grounded is True
    assert "`frobnicate_epoch`" in server.requests[1].body["messages"][-1]["content"]


def test_still_ungrounded_answer_is_kept_and_counted(
    make: MakeAnalyzer, server: FakeOpenAI
) -> None:
    server.script(ungrounded("frobnicate_epoch"), ungrounded("frobnicate_epoch"))
    analyzer = make()
    analysis = one(analyzer)
    assert (analysis.status, analysis.grounded) == ("ok", False)
    assert "frobnicate_epoch" in analysis.explanation.documentation
    assert analyzer.summary.ungrounded == 1
    assert one(make()).grounded is False  # the cache keeps the flag
    assert len(server.requests) == 2


@pytest.mark.parametrize(
    ("identifier", "exists", "requests"),
    [
        ("create_barrier_job_0", None, 1),  # the enclosing fn: in the facts
        ("guard", None, 1),  # in the window
        ("MetaErrorInner", lambda name: name == "MetaErrorInner", 1),  # in the repository
        ("MetaErrorInner", lambda name: False, 2),
    ],
)
def test_grounding_sources(
    make: MakeAnalyzer, server: FakeOpenAI, identifier: str, exists: Any, requests: int
) -> None:
    ctx = make_contexts(1)[0]
    name = ctx.site.facts.enclosing_fn if identifier.startswith("create_") else identifier
    server.script(ungrounded(str(name)), good())
    [analysis] = list(make(identifier_exists=exists).analyze([ctx]))
    assert analysis.grounded is True
    assert len(server.requests) == requests


def test_retry_after_is_honoured(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    server.script(status(429, retry_after="1"), good())
    analyzer = make()
    analysis = one(analyzer)
    first, second = server.requests
    assert analysis.status == "ok"
    assert second.started - first.started >= 1.0
    assert analyzer.summary.retries == 1


def test_timeout_is_retried(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    server.script(hang(3.0), good())
    started = time.monotonic()
    analysis = one(make(timeout_s=0.5))
    assert analysis.status == "ok"
    assert len(server.requests) == 2
    assert time.monotonic() - started < 2.5


def test_timeouts_exhaust_retries(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    server.script(*[hang(2.0)] * 2)
    analysis = one(make(timeout_s=0.3, max_retries=1))
    assert analysis.status == "failed"
    assert analysis.reason == "request timed out after 2 attempts"


def test_rerun_makes_no_request(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    contexts = make_contexts(12)
    first = list(make().analyze(contexts))
    assert len(server.requests) == 12
    analyzer = make()
    second = list(analyzer.analyze(contexts))
    assert len(server.requests) == 12
    assert all(a.from_cache for a in second)
    assert {a.record_id: a.explanation for a in first} == {
        a.record_id: a.explanation for a in second
    }
    assert (analyzer.summary.cache_hits, analyzer.summary.requests) == (12, 0)


def test_same_content_is_asked_once(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    ctx = make_contexts(1)[0]
    twin = dataclasses.replace(ctx, record_id="f" * 16)
    results = list(make().analyze([ctx, twin]))
    assert len(server.requests) == 1
    assert sorted(a.record_id for a in results) == sorted([ctx.record_id, "f" * 16])


def test_concurrency_is_reached(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    server.latency = 0.1
    list(make(concurrency=6).analyze(make_contexts(30)))
    assert server.max_in_flight == 6


def test_rpm_limit_spaces_requests(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    started = time.monotonic()
    list(make(rpm=120).analyze(make_contexts(122)))  # 120 at once, then 2/s refill
    assert time.monotonic() - started >= 0.9


def test_request_carries_schema_and_cache_key(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    analyzer = make()
    one(analyzer)
    body = server.requests[0].body
    schema = body["response_format"]["json_schema"]
    assert (schema["name"], schema["strict"]) == ("explanation", True)
    assert schema["schema"]["additionalProperties"] is False
    assert set(schema["schema"]["required"]) == set(schema["schema"]["properties"])
    assert schema["schema"]["properties"]["backgroundTag"]["enum"] == sorted(TAXONOMY)
    assert body["prompt_cache_key"].startswith(f"errdoc-{analyzer.prompt_version}-")
    system, user = body["messages"]
    assert system["role"] == "system" and "invalid-state-transition" in system["content"]
    assert user["content"].rstrip().endswith("</source>")  # the site comes last


def test_fatal_status_stops_asking(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    server.responder = lambda body: status(401)
    analyzer = make(concurrency=1, breaker=3)
    results = list(analyzer.analyze(make_contexts(8)))
    assert [a.status for a in results] == ["failed"] * 8
    assert len(server.requests) == 3
    assert "stopped after 3 in a row: HTTP 401" in (analyzer.summary.stopped or "")


def test_every_site_answered_and_summary(server: FakeOpenAI, tmp_path: Path) -> None:
    settings = LlmSettings(server.base_url, None, "gpt-4o-mini", concurrency=2)
    analyzer = LlmAnalyzer(settings, tmp_path, static_stand_in, taxonomy=TAXONOMY)
    assert len(list(analyzer.analyze(make_contexts(3)))) == 3
    assert analyzer.summary.cost_usd is not None and analyzer.summary.cost_usd > 0
    assert "3 sites, 3 requests" in analyzer.summary.format()


def test_settings_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MODEL", raising=False)
    monkeypatch.delenv("ERRDOC_MODEL", raising=False)
    with pytest.raises(LlmConfigError, match="pass --model or set ERRDOC_MODEL"):
        LlmSettings.from_env()
    monkeypatch.setenv("MODEL", "some-other-tools-model")  # the generic name yields
    monkeypatch.setenv("ERRDOC_MODEL", "gpt-4.1-mini")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    settings = LlmSettings.from_env(concurrency=3, rpm=None)
    assert (settings.model, settings.base_url, settings.concurrency) == (
        "gpt-4.1-mini",
        "http://127.0.0.1:9/v1",
        3,
    )
    assert LlmSettings.from_env(model="m").model == "m"


def test_server_without_json_schema_gets_plain_requests(
    make: MakeAnalyzer, server: FakeOpenAI
) -> None:
    rejected = Reply(status=400, error="response_format json_schema is not supported")
    server.responder = lambda body: rejected if "response_format" in body else fenced()
    results = list(make(concurrency=1).analyze(make_contexts(3)))
    assert [a.status for a in results] == ["ok"] * 3
    assert ["response_format" in r.body for r in server.requests] == [True, False, False, False]


def test_abandoned_run_keeps_what_arrived(make: MakeAnalyzer, server: FakeOpenAI) -> None:
    contexts = make_contexts(10)
    run = make(concurrency=2).analyze(contexts)
    first = next(run)
    assert isinstance(run, Generator)
    run.close()  # the caller stops early: tasks are cancelled, nothing raises
    analyzer = make()
    again = {a.record_id: a.from_cache for a in analyzer.analyze(contexts)}
    assert again[first.record_id] is True
    assert analyzer.summary.cache_hits >= 1


def test_no_key_and_no_server_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL", "gpt-4o-mini")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(LlmConfigError, match="needs OPENAI_API_KEY"):
        LlmSettings.from_env()


def test_an_unreachable_server_stops_the_run_after_its_first_failures(tmp_path: Path) -> None:
    with FakeOpenAI() as gone:
        url = gone.base_url  # a loopback port nobody listens on once this server stops
    settings = LlmSettings(url, "k", "gpt-4o-mini", concurrency=2, max_retries=2, backoff_s=0.01)
    analyzer = LlmAnalyzer(settings, tmp_path, static_stand_in, taxonomy=TAXONOMY)
    results = list(analyzer.analyze(make_contexts(20)))
    assert [a.status for a in results] == ["failed"] * 20
    assert all("cannot reach the model server" in (a.reason or "") for a in results)
    # the breaker trips on the 5th failed attempt in a row; the other slot may have one more
    assert analyzer.summary.requests <= settings.breaker + settings.concurrency - 1
