"""The pure parts of the llm analyzer: parsing, grounding, Retry-After, schema, prompts, prices."""

from __future__ import annotations

import asyncio
import json
import time
from email.utils import formatdate
from pathlib import Path

import pytest
from jinja2 import UndefinedError
from llm_server import TAXONOMY, answer, make_contexts, static_stand_in

from pipeline.analyze.fields import FIELD_ORDER
from pipeline.analyze.llm import LlmAnalyzer, LlmSettings
from pipeline.analyze.llm_answer import (
    AnswerError,
    extract_json,
    known_identifiers,
    parse_answer,
    ungrounded_identifiers,
)
from pipeline.analyze.llm_cost import EST_COMPLETION_TOKENS, load_prices, price_for
from pipeline.analyze.llm_limits import TokenBucket, backoff_delay, parse_retry_after
from pipeline.analyze.llm_prompt import SITE_MARKER, load_prompt, marked_window, strict_schema
from pipeline.core.model import Explanation

GOOD = json.dumps(answer())


@pytest.mark.parametrize(
    "text",
    [
        GOOD,
        f"```json\n{GOOD}\n```",
        f"```\n{GOOD}\n```",
        f"Here you go:\n\n```json\n{GOOD}\n```\nAnything else?",
        f"Sure. {GOOD} Hope it helps {{not json}}",
        f"  \n{GOOD}\n",
    ],
)
def test_json_is_found_around_fences_and_prose(text: str) -> None:
    assert extract_json(text) == answer()


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (GOOD[:100], "invalid JSON"),
        ("I cannot answer that.", "no JSON object found"),
        ("[1, 2]", "no JSON object found"),
        ("x" * 300_000, "characters long"),
    ],
)
def test_unparseable_text_says_why(text: str, error: str) -> None:
    with pytest.raises(AnswerError, match=error):
        extract_json(text)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (answer(handlingStrategy="retry-later"), "handlingStrategy: Input should be"),
        ({k: v for k, v in answer().items() if k != "tags"}, "tags: Field required"),
        (answer(solutions=3), "solutions: Input should be a valid list"),
        (answer(backgroundTag="made-up"), "'made-up' is not a taxonomy slug"),
    ],
)
def test_schema_violations_are_named(data: dict[str, object], error: str) -> None:
    with pytest.raises(AnswerError, match=error):
        parse_answer(json.dumps(data), set(TAXONOMY))


@pytest.mark.parametrize(
    ("documentation", "missing"),
    [
        ("Raised when `self.source_state.is_dropped()` holds.", []),  # the condition
        ("`guard` is held by the manager.", []),  # in the window
        ("The `MetaResult` alias.", []),  # in the facts
        ("Calls `frobnicate_epoch()` first.", ["frobnicate_epoch"]),
        ("See `FooBarManager::reset`.", ["FooBarManager", "reset"]),
        ("Run `ALTER SYSTEM RESUME` first.", ["ALTER", "SYSTEM", "RESUME"]),  # SQL keywords
        ("Use `Option` and `Some(x)`.", []),  # Rust vocabulary
        ("```rust\nlet x = invented_call();\n```", []),  # code blocks are not backticked names
    ],
)
def test_grounding_checks_backticked_names(documentation: str, missing: list[str]) -> None:
    ctx = make_contexts(1)[0]
    explanation = Explanation.model_validate(answer(documentation=documentation))
    found = ungrounded_identifiers(explanation, known_identifiers(ctx))
    assert found == missing


def test_repository_lookup_grounds_names() -> None:
    ctx = make_contexts(1)[0]
    explanation = Explanation.model_validate(answer(documentation="See `FooBarManager`."))
    known = known_identifiers(ctx)
    assert ungrounded_identifiers(explanation, known, lambda name: True) == []
    assert ungrounded_identifiers(explanation, known, lambda name: False) == ["FooBarManager"]


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"Retry-After": "2"}, 2.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "1500", "Retry-After": "9"}, 1.5),
        ({"Retry-After": formatdate(1_000_030.0, usegmt=True)}, 30.0),
        ({"Retry-After": formatdate(999_000.0, usegmt=True)}, 0.0),  # in the past
        ({"Retry-After": "99999"}, 300.0),  # capped
        ({"Retry-After": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after(headers: dict[str, str], seconds: float | None) -> None:
    assert parse_retry_after(headers, now=1_000_000.0) == seconds


def test_strict_schema_requires_every_property() -> None:
    schema = strict_schema(["a-slug", "b-slug"])
    assert schema["additionalProperties"] is False
    assert schema["required"] == list(FIELD_ORDER) == list(schema["properties"])
    assert set(FIELD_ORDER) == set(Explanation.model_fields)
    assert schema["properties"]["backgroundTag"]["enum"] == ["a-slug", "b-slug"]
    assert schema["properties"]["validationCode"]["anyOf"] == [
        {"type": "string"},
        {"type": "null"},
    ]
    assert "default" not in json.dumps(schema)


def test_prompt_version_follows_file_bytes(tmp_path: Path) -> None:
    for part in ("system", "user"):
        (tmp_path / f"p.{part}.md").write_text(f"{part}: {{{{ message }}}}\n")
    first = load_prompt("p", tmp_path).version
    assert load_prompt("p", tmp_path).version == first
    (tmp_path / "p.user.md").write_text("user: {{ message }}!\n")
    assert load_prompt("p", tmp_path).version != first


def test_prompt_rendering_is_strict(tmp_path: Path) -> None:
    (tmp_path / "p.system.md").write_text("fixed\n")
    (tmp_path / "p.user.md").write_text("{{ no_such_variable }}\n")
    with pytest.raises(UndefinedError):
        load_prompt("p", tmp_path).render(make_contexts(1)[0], TAXONOMY)


def test_missing_prompt_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"prompt 'nope' not found: .*nope.system.md"):
        load_prompt("nope", tmp_path)


def test_default_prompt_gives_the_site_facts_last() -> None:
    ctx = make_contexts(1)[0]
    system, user = load_prompt().render(ctx, TAXONOMY)
    for slug in TAXONOMY:
        assert slug in system["content"]
    facts = ctx.site.facts
    for expected in (
        ctx.site.message,
        ctx.site.file_path,
        str(facts.enclosing_fn),
        str(facts.fn_doc),
        "MetaResult<()>",
        facts.conditions[0].text,
        "MetaError",
        marked_window(ctx)[0],
    ):
        assert expected in user["content"]
    assert f'\n        bail!("{ctx.site.message}"); {SITE_MARKER}\n' in user["content"]
    assert ctx.site.message not in system["content"]
    # The message once (the window has it too), the pattern not at all: tokens for facts.
    assert user["content"].count(ctx.site.message) == 2
    assert ctx.message_pattern not in user["content"]


def test_prices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prices = load_prices()
    assert price_for("gpt-4o-mini", prices) is not None
    assert price_for("openai/gpt-4o-mini", prices) == prices["gpt-4o-mini"]
    assert price_for("llama3.1:8b", prices) is None
    table = tmp_path / "prices.toml"
    table.write_text('[models."local"]\ninput = 1.0\noutput = 2.0\n')
    monkeypatch.setenv("ERRDOC_PRICES", str(table))
    assert load_prices()["local"].cost(1_000_000, 500_000) == 2.0
    table.write_text('[models."local"]\ninput = "x"\n')
    with pytest.raises(ValueError, match="needs numeric input and output"):
        load_prices()


@pytest.mark.parametrize(("model", "costed"), [("gpt-4o-mini", True), ("my-local-model", False)])
def test_dry_run_asks_nothing(tmp_path: Path, model: str, costed: bool) -> None:
    settings = LlmSettings("http://127.0.0.1:9/v1", None, model)  # nothing listens there
    analyzer = LlmAnalyzer(settings, tmp_path, static_stand_in, taxonomy=TAXONOMY)
    contexts = make_contexts(10)
    report = analyzer.plan([*contexts, contexts[0]])
    assert (report.sites, report.distinct, report.to_send, report.cache_hits) == (11, 10, 10, 0)
    assert report.est_completion_tokens == 10 * EST_COMPLETION_TOKENS
    assert report.est_prompt_tokens == sum(analyzer.prompt_tokens(c) for c in contexts)
    assert (report.est_cost_usd is not None) == costed
    assert ("unknown" in report.format()) != costed


def test_token_bucket_waits_for_refill() -> None:
    async def scenario() -> float:
        bucket = TokenBucket(600)  # 10 per second
        await bucket.take(600)
        started = time.monotonic()
        await bucket.take(5)
        return time.monotonic() - started

    assert 0.4 <= asyncio.run(scenario()) < 1.0


@pytest.mark.parametrize("attempt", [0, 1, 2, 3])
def test_backoff_is_jittered_and_exponential(attempt: int) -> None:
    delays = {backoff_delay(attempt, 1.0) for _ in range(20)}
    assert len(delays) > 1
    assert all(2**attempt / 2 <= d <= 2**attempt for d in delays)
