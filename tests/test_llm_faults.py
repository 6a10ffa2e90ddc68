"""The llm analyzer against endpoints that hang, drip, refuse parameters or every request.

Everything goes through the real openai client over real HTTP to tests/llm_server.py.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_server import (
    TAXONOMY,
    FakeOpenAI,
    Reply,
    drip,
    fenced,
    hang,
    make_contexts,
    raw_error,
    rejects,
    static_stand_in,
)

from pipeline.analyze.llm import LlmAnalyzer, LlmConfigError, LlmSettings
from pipeline.analyze.llm_errors import redact
from pipeline.analyze.llm_params import ENDPOINTS_FILE

MakeAnalyzer = Callable[..., LlmAnalyzer]
KEY = "sk-test-0123456789abcdef"


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


@pytest.fixture
def make(server: FakeOpenAI, tmp_path: Path) -> MakeAnalyzer:
    def build(**overrides: Any) -> LlmAnalyzer:
        fields: dict[str, Any] = {"concurrency": 4, "timeout_s": 5.0, "backoff_s": 0.01}
        fields.update(overrides)
        settings = LlmSettings(server.base_url, KEY, "gpt-4o-mini", **fields)
        return LlmAnalyzer(settings, tmp_path / "cache", static_stand_in, taxonomy=TAXONOMY)

    return build


# --- never hang -----------------------------------------------------------------------------
# Bound: the breaker (K=5) trips once K attempts in a row have timed out. With concurrency c
# that takes ceil(K / c) rounds of `timeout`, and requests already in flight end within one
# more: (ceil(5 / 4) + 1) * 0.5 s = 1.5 s here, asserted with 1 s to spare on a shared machine.


@pytest.mark.parametrize("reply", [hang(30.0), drip(0.05)], ids=["hung", "slow-drip"])
def test_hung_or_dripping_server_stops_the_run_within_the_bound(
    make: MakeAnalyzer, server: FakeOpenAI, reply: Reply
) -> None:
    server.responder = lambda body: reply
    analyzer = make(timeout_s=0.5)
    started = time.monotonic()
    results = list(analyzer.analyze(make_contexts(40)))
    elapsed = time.monotonic() - started
    assert elapsed < 2.5
    assert [a.status for a in results] == ["failed"] * 40
    assert all(a.explanation.documentation.startswith("static: ") for a in results)
    stopped = analyzer.summary.stopped or ""
    assert stopped.startswith("stopped after 5 in a row: no answer within 0.5 s from http://")
    assert len(server.requests) <= 8  # two rounds of 4, not 40 sites x 5 attempts


def test_one_slow_answer_is_retried_and_the_run_goes_on(
    make: MakeAnalyzer, server: FakeOpenAI
) -> None:
    server.script(drip(0.05))
    analyzer = make(timeout_s=0.5, concurrency=1)
    results = list(analyzer.analyze(make_contexts(3)))
    assert [a.status for a in results] == ["ok"] * 3
    assert analyzer.summary.stopped is None
    assert analyzer.summary.retries == 1


def test_deadline_bounds_one_site_with_all_its_retries(
    make: MakeAnalyzer, server: FakeOpenAI
) -> None:
    server.responder = lambda body: hang(30.0)
    analyzer = make(timeout_s=0.4, deadline_s=1.0, max_retries=10, breaker=100)
    started = time.monotonic()
    [analysis] = list(analyzer.analyze(make_contexts(1)))
    assert time.monotonic() - started < 1.8
    assert analysis.status == "failed"
    # 0.4 + 0.4 + what is left of the 1 s: the third attempt only when the machine is quick
    assert analysis.reason in (
        "request timed out after 2 attempts",
        "request timed out after 3 attempts",
    )


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (rejects(401, f"Incorrect API key provided: {KEY}."), "HTTP 401 from the model server"),
        (rejects(403, "Project does not have access to model"), "does not have access"),
        (rejects(404, "The model `gpt-9` does not exist"), "does not exist"),
        (
            Reply(status=429, error="You exceeded your current quota, check billing."),
            "exceeded your current quota",
        ),
        (raw_error(401, "Unauthorized: token expired"), "Unauthorized: token expired"),
        (raw_error(403, '{"detail": "Forbidden for this key"}'), "Forbidden for this key"),
    ],
)
def test_the_same_client_error_k_times_stops_the_run_with_its_words(
    make: MakeAnalyzer, server: FakeOpenAI, reply: Reply, words: str
) -> None:
    server.responder = lambda body: reply
    analyzer = make(concurrency=1, breaker=3)
    results = list(analyzer.analyze(make_contexts(30)))
    assert [a.status for a in results] == ["failed"] * 30
    assert len(server.requests) == 3  # no retry of a client error, then the breaker
    stopped = analyzer.summary.stopped or ""
    assert stopped.startswith("stopped after 3 in a row: HTTP ")
    assert words in stopped
    assert KEY not in stopped and KEY not in "".join(a.reason or "" for a in results)


def test_422_with_a_non_openai_body_names_the_server_words_once_params_are_gone(
    make: MakeAnalyzer, server: FakeOpenAI
) -> None:
    body = json.dumps({"detail": [{"loc": ["body", "messages"], "msg": "bad message list"}]})
    server.responder = lambda _: raw_error(422, body)
    analyzer = make(concurrency=1, breaker=2)
    results = list(analyzer.analyze(make_contexts(5)))
    assert [a.status for a in results] == ["failed"] * 5
    # the four optional parameters dropped one by one, then the same error twice
    assert len(server.requests) == 4 + 2
    assert "HTTP 422 from the model server: bad message list" in (analyzer.summary.stopped or "")
    assert "Error code" not in (analyzer.summary.stopped or "")


def test_redact_hides_the_key_and_url_credentials() -> None:
    text = f"at https://bob:hunter2@proxy.example/v1 with {KEY} and Bearer abcdef123456"
    clean = redact(text, (KEY,))
    assert "hunter2" not in clean and "bob" not in clean and KEY not in clean
    assert "abcdef123456" not in clean
    assert "https://[redacted]@proxy.example/v1" in clean


def test_unreachable_url_with_credentials_is_reported_redacted(tmp_path: Path) -> None:
    with FakeOpenAI() as gone:
        port = gone.base_url.split(":")[2].split("/")[0]
    url = f"http://alice:s3cret@127.0.0.1:{port}/v1"
    settings = LlmSettings(url, KEY, "gpt-4o-mini", concurrency=1, backoff_s=0.01)
    analyzer = LlmAnalyzer(settings, tmp_path, static_stand_in, taxonomy=TAXONOMY)
    results = list(analyzer.analyze(make_contexts(4)))
    reasons = " ".join(a.reason or "" for a in results) + (analyzer.summary.stopped or "")
    assert "cannot reach the model server at http://[redacted]@127.0.0.1" in reasons
    assert "s3cret" not in reasons and "alice" not in reasons


def test_timeout_and_retries_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL", "m")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("ERRDOC_LLM_TIMEOUT", "7.5")
    monkeypatch.setenv("ERRDOC_LLM_RETRIES", "1")
    monkeypatch.setenv("ERRDOC_LLM_DEADLINE", "20")
    settings = LlmSettings.from_env()
    assert (settings.timeout_s, settings.max_retries, settings.deadline_s) == (7.5, 1, 20.0)
    assert LlmSettings.from_env(timeout_s=2.0, max_retries=None).timeout_s == 2.0
    monkeypatch.setenv("ERRDOC_LLM_RETRIES", "many")
    with pytest.raises(LlmConfigError, match="ERRDOC_LLM_RETRIES='many' is not a number"):
        LlmSettings.from_env()


def test_dry_run_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODEL", "gpt-4o-mini")
    assert LlmSettings.from_env(dry_run=True).api_key is None
    with pytest.raises(LlmConfigError):
        LlmSettings.from_env()


# --- optional parameters --------------------------------------------------------------------

WORDINGS = [
    "Unrecognized request argument supplied: {param}",
    "[{{'type': 'extra_forbidden', 'loc': ('body', '{param}'), 'msg': 'Extra inputs are not"
    " permitted'}}]",
    "Invalid request: this endpoint does not accept one of the fields sent",  # names nothing
]
PARAMS = ["response_format", "prompt_cache_key", "max_tokens", "seed"]


@pytest.mark.parametrize("wording", WORDINGS, ids=["openai", "pydantic", "unnamed"])
@pytest.mark.parametrize("code", [400, 422])
@pytest.mark.parametrize("param", PARAMS)
def test_a_rejected_parameter_is_dropped_and_remembered(
    make: MakeAnalyzer, server: FakeOpenAI, tmp_path: Path, param: str, code: int, wording: str
) -> None:
    def respond(body: dict[str, Any]) -> Reply:
        return rejects(code, wording.format(param=param)) if param in body else fenced()

    server.responder = respond
    results = list(make(concurrency=3).analyze(make_contexts(6)))
    assert [a.status for a in results] == ["ok"] * 6
    rejected = [r for r in server.requests if param in r.body]
    if "{param}" in wording:  # named: at most the requests in flight, nothing else dropped
        assert len(rejected) <= 3
        assert set(PARAMS) - {param} <= set(server.requests[-1].body)
    else:  # unnamed: dropped one by one, least useful first, until it is gone
        assert len(rejected) <= 3 * len(PARAMS)
    remembered = json.loads((tmp_path / "cache" / ENDPOINTS_FILE).read_text())
    assert param in next(iter(remembered.values()))
    before = len(server.requests)
    later = make(concurrency=3)
    assert [a.status for a in later.analyze(make_contexts(3, seed=1))] == ["ok"] * 3
    assert len(server.requests) == before + 3  # a later run does not pay the rejection again
    assert all(param not in r.body for r in server.requests[before:])


def test_max_tokens_becomes_max_completion_tokens_when_the_server_asks(
    make: MakeAnalyzer, server: FakeOpenAI
) -> None:
    wording = (
        "Unsupported parameter: 'max_tokens' is not supported with this model."
        " Use 'max_completion_tokens' instead."
    )
    server.responder = lambda body: rejects(400, wording) if "max_tokens" in body else fenced()
    analyzer = make(concurrency=1)
    assert [a.status for a in analyzer.analyze(make_contexts(3))] == ["ok"] * 3
    last = server.requests[-1].body
    assert last["max_completion_tokens"] == analyzer.max_tokens > 0
    assert {"response_format", "seed", "prompt_cache_key"} <= set(last)


# --- context length -------------------------------------------------------------------------

CONTEXT_WORDINGS = [
    "This model's maximum context length is 4096 tokens. However, your messages resulted in"
    " 5000 tokens.",
    "the request exceeds the available context size (n_ctx 4096), try increasing it",
    "Input is too long for requested model.",
]


@pytest.mark.parametrize("wording", CONTEXT_WORDINGS)
def test_context_length_error_shrinks_the_prompt_once(
    make: MakeAnalyzer, server: FakeOpenAI, wording: str
) -> None:
    full = len(json.dumps(make_contexts(1)[0].window))

    def respond(body: dict[str, Any]) -> Reply:
        user = body["messages"][-1]["content"]
        return rejects(400, wording) if len(user) > full else fenced()

    server.responder = respond
    analyzer = make(concurrency=1)
    [analysis] = list(analyzer.analyze(make_contexts(1)))
    assert analysis.status == "ok"
    first, second = server.requests
    assert len(second.prompt()) < len(first.prompt())
    assert set(PARAMS) <= set(second.body)  # no parameter was dropped for it
    assert analyzer.summary.shrunk == 1


def test_context_length_at_every_size_stops_after_k_sites(
    make: MakeAnalyzer, server: FakeOpenAI
) -> None:
    server.responder = lambda body: rejects(400, CONTEXT_WORDINGS[0])
    analyzer = make(concurrency=1, breaker=3)
    results = list(analyzer.analyze(make_contexts(20)))
    assert [a.status for a in results] == ["failed"] * 20
    assert len(server.requests) == 3 * 2  # each of 3 sites asked, shrunk, asked again
    assert "maximum context length is 4096" in (analyzer.summary.stopped or "")
