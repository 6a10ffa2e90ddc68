"""Requests grouped by file with a per-file cache key, cached tokens, asking once, --model-simple."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_server import TAXONOMY, FakeOpenAI, Reply, answer, make_context, static_stand_in

from pipeline.analyze import SiteContext
from pipeline.analyze.llm import LlmAnalyzer, LlmSettings
from pipeline.analyze.llm_cost import Price, load_prices
from pipeline.core.model import Condition


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


def analyzer(server: FakeOpenAI, cache: Path, **overrides: Any) -> LlmAnalyzer:
    fields: dict[str, Any] = {"concurrency": 1, "timeout_s": 5.0, "backoff_s": 0.01}
    fields.update(overrides)
    settings = LlmSettings(server.base_url, "k", "gpt-4o-mini", **fields)
    return LlmAnalyzer(settings, cache, static_stand_in, taxonomy=TAXONOMY)


def moved(ctx: SiteContext, path: str, **site: Any) -> SiteContext:
    return dataclasses.replace(ctx, site=dataclasses.replace(ctx.site, file_path=path, **site))


def test_a_files_sites_go_together_under_one_cache_key(server: FakeOpenAI, tmp_path: Path) -> None:
    files = ["src/b.rs", "src/a.rs", "src/c.rs"]
    contexts = [moved(make_context(i), files[i % 3]) for i in range(9)]  # interleaved
    list(analyzer(server, tmp_path).analyze(contexts))
    sent = [(r.body["prompt_cache_key"], r.body["messages"][1]["content"]) for r in server.requests]
    order = [next(f for f in files if f"File: {f}" in user) for _, user in sent]
    assert order == sorted(order)  # one file after another, not interleaved
    keys = {f: {k for k, user in sent if f"File: {f}" in user} for f in files}
    assert all(len(k) == 1 for k in keys.values()) and len(set.union(*keys.values())) == 3


def test_cached_tokens_are_summed_printed_and_priced(server: FakeOpenAI, tmp_path: Path) -> None:
    server.script(*(Reply(prompt_tokens=5000, cached_tokens=4096) for _ in range(3)))
    run = analyzer(server, tmp_path)
    list(run.analyze([make_context(i) for i in range(3)]))
    summary = run.summary
    assert (summary.prompt_tokens, summary.cached_tokens) == (15000, 3 * 4096)
    assert "15,000 prompt (12,288 cached)" in summary.format()
    price = load_prices()["gpt-4o-mini"]
    expected = (2712 * price.input + 12288 * (price.cached_input or 0)) / 1e6
    assert summary.cost_usd == pytest.approx(expected + summary.completion_tokens * 0.6 / 1e6)
    assert summary.cost_usd < Price(price.input, price.output).cost(
        15000, summary.completion_tokens
    )


def test_same_message_item_and_conditions_are_asked_once(
    server: FakeOpenAI, tmp_path: Path
) -> None:
    first = make_context(0)
    # The same bail! in another branch of the same fn: other window, other line, same question.
    twin = dataclasses.replace(
        first,
        record_id="f" * 16,
        window=first.window.replace("let guard", "let other_guard"),
        content_hash="sha256:" + "1" * 64,
        site=dataclasses.replace(first.site, line=first.site.line + 3),
    )
    # Same message and fn but another condition: its own question.
    other = dataclasses.replace(
        twin,
        record_id="e" * 16,
        content_hash="sha256:" + "2" * 64,
        site=dataclasses.replace(
            twin.site,
            facts=dataclasses.replace(twin.site.facts, conditions=(Condition("if", "x", 1),)),
        ),
    )
    results = list(analyzer(server, tmp_path / "c").analyze([first, twin, other]))
    assert len(server.requests) == 2 and len(results) == 3
    assert {a.record_id for a in results} == {first.record_id, twin.record_id, other.record_id}
    assert all(a.status == "ok" for a in results)
    again = list(analyzer(server, tmp_path / "c").analyze([twin]))  # its own key was cached
    assert len(server.requests) == 2 and again[0].from_cache


def test_model_simple_explains_panics(server: FakeOpenAI, tmp_path: Path) -> None:
    panic = moved(make_context(1), "src/x.rs", kind="panic")
    run = analyzer(server, tmp_path, model_simple="gpt-4.1-nano")
    results = {a.record_id: a for a in run.analyze([make_context(0), panic])}
    models = sorted(r.body["model"] for r in server.requests)
    assert models == ["gpt-4.1-nano", "gpt-4o-mini"]
    assert results[panic.record_id].model == "gpt-4.1-nano"
    prices = load_prices()
    spent = run.summary.by_model
    assert set(spent) == {"gpt-4.1-nano", "gpt-4o-mini"}
    expected = sum(prices[m].cost(p, c, k) for m, (p, c, k) in spent.items())
    assert run.summary.cost_usd == pytest.approx(expected)


def test_schema_lists_fields_in_reasoning_order(server: FakeOpenAI, tmp_path: Path) -> None:
    server.script(Reply(content=None))
    list(analyzer(server, tmp_path).analyze([make_context(0)]))
    properties = list(
        server.requests[0].body["response_format"]["json_schema"]["schema"]["properties"]
    )
    assert properties[:2] == ["triggerScenarios", "documentation"]
    assert set(properties) == set(answer())


def test_dry_run_prices_the_shared_prefix_as_cached(tmp_path: Path) -> None:
    settings = LlmSettings("http://127.0.0.1:9/v1", None, "gpt-4o-mini")  # nothing listens
    run = LlmAnalyzer(settings, tmp_path, static_stand_in)  # the packaged taxonomy
    contexts = [make_context(i) for i in range(5)]
    report = run.plan(contexts)
    prefix = (len(run.prompt.parts(contexts[0], run.taxonomy)[0]) + 3) // 4
    assert prefix >= 1024 and report.est_cached_tokens == 4 * prefix
    assert report.est_cached_cost_usd is not None and report.est_cost_usd is not None
    assert report.est_cached_cost_usd < report.est_cost_usd
    assert "if the provider caches the shared prefix" in report.format()


def test_cache_key_follows_the_taxonomy_rendered_into_the_prefix(tmp_path: Path) -> None:
    from llm_server import FailureClass

    settings = LlmSettings("http://127.0.0.1:9/v1", None, "gpt-4o-mini")
    edited = dict(TAXONOMY)
    slug = next(iter(edited))
    edited[slug] = FailureClass(slug, "Another title")
    ctx = make_context(0)
    keys = {
        LlmAnalyzer(settings, tmp_path, static_stand_in, taxonomy=t).key(ctx)
        for t in (TAXONOMY, TAXONOMY, edited)
    }
    assert len(keys) == 2
