"""What one site's asking came to, and how it reaches the cache and the caller.

Shared by the interactive run (llm_run) and the Batch API run (llm_batch): the
request options sent, how a completion's text is read, and `deliver`, which
stores an answer (or a deterministic failure) and turns it into analyses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from pipeline.analyze import Analysis, SiteContext
from pipeline.analyze.llm_cache import AnswerCache, CachedAnswer
from pipeline.analyze.llm_cost import RunSummary
from pipeline.analyze.llm_errors import short
from pipeline.analyze.llm_params import SEED, EndpointParams
from pipeline.analyze.llm_prompt import FailureClassLike, Prompt
from pipeline.analyze.llm_settings import LlmSettings
from pipeline.core.model import Explanation, Usage


class SiteFailure(Exception):
    """This site cannot be answered; args[0] is the reason, args[1] the outcome so far."""


@dataclass
class Tally:
    """Tokens paid for one site over all its attempts."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0  # of prompt_tokens, served from the provider's prompt cache

    def usage(self) -> Usage:
        """As the record's usage."""
        return Usage(prompt_tokens=self.prompt_tokens, completion_tokens=self.completion_tokens)


@dataclass
class Outcome:
    """An answer, or the reason there is none."""

    tally: Tally
    explanation: Explanation | None = None
    grounded: bool = True
    reason: str | None = None
    permanent: bool = False  # the same prompt would fail the same way: remember it


class RunOwner(Protocol):
    """What a run needs of its analyzer (`LlmAnalyzer`), which sits above this module."""

    settings: LlmSettings
    summary: RunSummary
    prompt: Prompt
    taxonomy: Mapping[str, FailureClassLike]
    slugs: frozenset[str]
    schema: dict[str, Any]
    params: EndpointParams
    max_tokens: int
    fallback: Callable[[SiteContext], Explanation]

    def identifier_exists(self, ident: str) -> bool: ...

    def keyword_exists(self, word: str) -> bool: ...

    def model_for(self, ctx: SiteContext) -> str: ...

    def key(self, ctx: SiteContext) -> str: ...

    def _analysis(
        self,
        ctx: SiteContext,
        explanation: Explanation,
        usage: Usage,
        grounded: bool | None,
        from_cache: bool,
        reason: str | None = None,
    ) -> Analysis: ...


def request_options(
    sent: tuple[str, ...], schema: dict[str, Any], cache_key: str, max_tokens: int
) -> dict[str, Any]:
    """The optional request parameters named in `sent`, with their values.

    `cache_key` is the prompt's `cache_key` of the site (one per file: the sites of a file
    share the prefix and the file block, so a provider routes them to one cache).
    """
    extra: dict[str, Any] = {}
    if "response_format" in sent:
        extra["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "explanation", "strict": True, "schema": schema},
        }
    if "prompt_cache_key" in sent:
        extra["prompt_cache_key"] = cache_key
    for name in ("max_tokens", "max_completion_tokens"):
        if name in sent:
            extra[name] = max_tokens
    if "seed" in sent:
        extra["seed"] = SEED  # the same answer for the same prompt, where servers honour it
    return extra


def completion_text(completion: Any, tally: Tally) -> str:
    """The answer text of a chat completion, its usage added to tally; SiteFailure if none."""
    usage = getattr(completion, "usage", None)
    if usage is not None:
        tally.prompt_tokens += usage.prompt_tokens or 0
        tally.completion_tokens += usage.completion_tokens or 0
        details = getattr(usage, "prompt_tokens_details", None)
        tally.cached_tokens += getattr(details, "cached_tokens", None) or 0
    if not completion.choices:
        raise SiteFailure("the server returned no choices", Outcome(tally))
    choice = completion.choices[0]
    refusal = getattr(choice.message, "refusal", None)
    if refusal:
        raise SiteFailure(f"the model refused: {short(refusal)}", Outcome(tally, permanent=True))
    if choice.finish_reason == "length":
        raise SiteFailure(
            "the answer was cut off (finish_reason length)", Outcome(tally, permanent=True)
        )
    if choice.finish_reason == "content_filter":
        raise SiteFailure(
            "the answer was withheld by a content filter", Outcome(tally, permanent=True)
        )
    # Only the content: a reasoning model's reasoning fields are not the answer.
    return str(choice.message.content or "")


def deliver(
    owner: RunOwner, cache: AnswerCache, key: str, members: list[SiteContext], outcome: Outcome
) -> list[Analysis]:
    """Store the outcome of one cache key and return the analyses of its sites."""
    summary = owner.summary
    summary.prompt_tokens += outcome.tally.prompt_tokens
    summary.completion_tokens += outcome.tally.completion_tokens
    summary.cached_tokens += outcome.tally.cached_tokens
    model, version = owner.model_for(members[0]), owner.prompt.version
    tally = outcome.tally
    summary.spend(model, tally.prompt_tokens, tally.completion_tokens, tally.cached_tokens)
    results = []
    if outcome.explanation is not None:
        answer = CachedAnswer(outcome.explanation, outcome.tally.usage(), outcome.grounded)
        # Members asked once (same message, item and conditions) may differ in content:
        # each one's own key gets the answer.
        for member_key in dict.fromkeys([key, *(owner.key(c) for c in members)]):
            cache.put(member_key, answer, model, version)
        summary.ungrounded += 0 if outcome.grounded else 1
        for i, ctx in enumerate(members):
            usage = answer.usage if i == 0 else Usage()
            results.append(owner._analysis(ctx, answer.explanation, usage, answer.grounded, i > 0))
        return results
    if outcome.permanent and outcome.reason:
        cache.put_failure(key, outcome.reason, model, version)
    for i, ctx in enumerate(members):
        usage = outcome.tally.usage() if i == 0 else Usage()
        summary.failures += 1
        results.append(
            owner._analysis(ctx, owner.fallback(ctx), usage, None, False, outcome.reason)
        )
    return results
