"""The tolerant reader: any answer a model gives that holds a valid explanation is read."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_server import TAXONOMY, FakeOpenAI, Reply, answer, make_contexts, static_stand_in

from pipeline.analyze.llm import LlmAnalyzer, LlmSettings
from pipeline.analyze.llm_answer import AnswerError, coerce, parse_answer

GOOD = json.dumps(answer())
SLUGS = set(TAXONOMY)


def without(*names: str, **changes: Any) -> str:
    data = {k: v for k, v in answer(**changes).items() if k not in names}
    return json.dumps(data)


ANSWERS = {
    "think-block": f"<think>\nThe user wants JSON like {{}}. Let me {{draft}} it.\n</think>\n{GOOD}",
    "think-block-with-json-draft": (
        f'<think>draft: {{"documentation": "x"}}</think>\n```json\n{GOOD}\n```'
    ),
    "lone-closing-tag": f'Okay, {{"tags": 1}} is wrong.</think>{GOOD}',
    "prose-with-braces-first": f"The answer uses {{}} and {{a: b}} below.\n\n{GOOD}",
    "earlier-fence-not-the-answer": (
        f'```rust\nfn f() {{ bail!("x") }}\n```\n```json\n{{"example": true}}\n```\n'
        f"```json\n{GOOD}\n```"
    ),
    "second-object-valid": f'{{"status": "ok"}}\n{GOOD}',
    "wrapped-in-a-key": json.dumps({"explanation": answer()}),
    "string-for-list": without(solutions="Resume the cluster first."),
    "missing-nullables": without("validationCode", "typeGuard", "tryCatchPattern"),
    "extra-keys": json.dumps({**answer(), "confidence": 0.9, "notes": "n/a"}),
    "list-for-text": without(documentation=["The meta node refuses.", "It is paused."]),
    "enum-case": without(handlingStrategy=" Validation ", backgroundTag="Invalid_State_Transition"),
}


@pytest.mark.parametrize("text", ANSWERS.values(), ids=ANSWERS.keys())
def test_parse_keeps_the_object_that_validates(text: str) -> None:
    explanation = parse_answer(text, SLUGS)
    assert explanation.backgroundTag == "invalid-state-transition"
    assert explanation.handlingStrategy == "validation"
    assert explanation.solutions and all(isinstance(s, str) for s in explanation.solutions)


def test_coerce_mends_only_what_it_must() -> None:
    data = coerce({**answer(), "tags": "meta", "extra": 1, "typeGuard": "x"})
    assert data["tags"] == ["meta"] and "extra" not in data and data["typeGuard"] == "x"
    del data["validationCode"]
    assert coerce(data)["validationCode"] is None


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (without("solutions"), "solutions: Field required"),
        (f"<think>{GOOD}</think>I cannot help.", "no JSON object found"),
        (json.dumps(answer(handlingStrategy="pray")), "handlingStrategy"),
        ("{}" + " {}" * 10, "no JSON object found"),
    ],
)
def test_nothing_valid_names_the_likeliest_problem(text: str, error: str) -> None:
    with pytest.raises(AnswerError, match=error):
        parse_answer(text, SLUGS)


def test_many_stray_braces_are_bounded() -> None:
    with pytest.raises(AnswerError):
        parse_answer("{" * 150_000, SLUGS)


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


def test_every_site_answered_without_a_reask(server: FakeOpenAI, tmp_path: Path) -> None:
    replies = [Reply(content=text) for text in ANSWERS.values()]
    replies.append(Reply(content=GOOD, reasoning='{"documentation": "not the answer"}'))
    server.script(*replies)
    settings = LlmSettings(server.base_url, "k", "gpt-4o-mini", concurrency=1)
    analyzer = LlmAnalyzer(settings, tmp_path, static_stand_in, taxonomy=TAXONOMY)
    results = list(analyzer.analyze(make_contexts(len(replies))))
    assert [a.status for a in results] == ["ok"] * len(replies)
    assert (analyzer.summary.requests, analyzer.summary.reasks) == (len(replies), 0)
    assert all("not the answer" not in a.explanation.documentation for a in results)
