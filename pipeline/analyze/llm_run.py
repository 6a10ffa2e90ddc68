"""The asynchronous part of one `LlmAnalyzer.analyze` call: requests, retries, re-asks."""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

import openai
from openai.types.chat import ChatCompletionMessageParam

from pipeline.analyze import Analysis, SiteContext
from pipeline.analyze.grounding import describe
from pipeline.analyze.llm_answer import (
    AnswerError,
    known_identifiers,
    parse_answer,
    ungrounded_claims,
)
from pipeline.analyze.llm_cache import AnswerCache, CachedAnswer
from pipeline.analyze.llm_cost import EST_COMPLETION_TOKENS, RunSummary
from pipeline.analyze.llm_limits import (
    RETRY_STATUSES,
    TokenBucket,
    backoff_delay,
    parse_retry_after,
)
from pipeline.analyze.llm_prompt import FailureClassLike, Prompt, estimate_tokens
from pipeline.analyze.llm_settings import LlmSettings
from pipeline.core.model import Explanation, Usage

# What the request of the site a task explains carries besides its messages (the provider's
# prompt cache key, the model): set once per task, read where the request is made.
REQUEST_TAGS: contextvars.ContextVar[tuple[str, str]] = contextvars.ContextVar("request_tags")

# Statuses after which every other request would fail the same way: stop asking.
_FATAL_STATUSES = frozenset({401, 403, 404})


class _SiteFailure(Exception):
    """This site cannot be answered; args[0] is the reason."""


@dataclass
class _Tally:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0

    def usage(self) -> Usage:
        return Usage(prompt_tokens=self.prompt_tokens, completion_tokens=self.completion_tokens)


@dataclass
class _Outcome:
    tally: _Tally
    explanation: Explanation | None = None
    grounded: bool = True
    reason: str | None = None


def short(text: object, limit: int = 200) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class RunOwner(Protocol):
    """What a run needs of its analyzer (`LlmAnalyzer`), which sits above this module."""

    settings: LlmSettings
    summary: RunSummary
    prompt: Prompt
    taxonomy: Mapping[str, FailureClassLike]
    slugs: frozenset[str]
    schema: dict[str, Any]
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


class Run:
    """One analyze() call's asynchronous part: client, limits, tasks, results queue."""

    def __init__(self, owner: RunOwner, cache: AnswerCache) -> None:
        s = owner.settings
        self.owner, self.cache = owner, cache
        self.queue: asyncio.Queue[list[Analysis] | BaseException] = asyncio.Queue()
        self.fatal: str | None = None
        self.reached = False  # has the server answered anything in this run?
        self.pause_until = 0.0
        self.structured = s.structured
        self.semaphore = asyncio.Semaphore(s.concurrency)
        # Until the server has answered once, one site at a time: a dead endpoint then costs
        # one site's retries, not every site's.
        self.first_contact = asyncio.Lock()
        self.rpm = TokenBucket(s.rpm) if s.rpm else None
        self.tpm = TokenBucket(s.tpm) if s.tpm else None
        self.client = openai.AsyncOpenAI(
            base_url=s.base_url,
            api_key=s.api_key or "unused",  # local servers (vLLM, Ollama) take any key
            timeout=s.timeout_s,
            max_retries=0,  # retried here, to honour Retry-After and count every attempt
        )

    def drive(self, pending: list[tuple[str, list[SiteContext]]]) -> Iterator[Analysis]:
        """Run the requests on a private event loop, yielding each group's analyses."""
        loop = asyncio.new_event_loop()
        tasks = [loop.create_task(self._group(key, members)) for key, members in pending]
        try:
            for _ in pending:
                item = loop.run_until_complete(self.queue.get())
                if isinstance(item, BaseException):
                    raise item
                yield from item
        finally:
            for task in tasks:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            loop.run_until_complete(self.client.close())
            loop.close()

    async def _group(self, key: str, members: list[SiteContext]) -> None:
        owner, first = self.owner, members[0]
        try:
            try:
                outcome = await self._explain(first)
            except _SiteFailure as failure:
                outcome = failure.args[1]
                outcome.reason = failure.args[0]
            except Exception as exc:  # a bug or an odd server must not stop the run
                outcome = _Outcome(_Tally(), reason=f"internal error: {short(exc)}")
            summary = owner.summary
            summary.prompt_tokens += outcome.tally.prompt_tokens
            summary.completion_tokens += outcome.tally.completion_tokens
            summary.cached_tokens += outcome.tally.cached_tokens
            summary.spend(owner.model_for(first), outcome.tally.prompt_tokens,
                          outcome.tally.completion_tokens, outcome.tally.cached_tokens)  # fmt: skip
            results = []
            if outcome.explanation is not None:
                answer = CachedAnswer(outcome.explanation, outcome.tally.usage(), outcome.grounded)
                # Members asked once (same message, item and conditions) may differ in
                # content: each one's own key gets the answer.
                for member_key in dict.fromkeys([key, *(owner.key(c) for c in members)]):
                    self.cache.put(member_key, answer, owner.model_for(first), owner.prompt.version)
                summary.ungrounded += 0 if outcome.grounded else 1
                for i, ctx in enumerate(members):
                    usage = answer.usage if i == 0 else Usage()
                    results.append(
                        owner._analysis(ctx, answer.explanation, usage, answer.grounded, i > 0)
                    )
            else:
                for i, ctx in enumerate(members):
                    usage = outcome.tally.usage() if i == 0 else Usage()
                    summary.failures += 1
                    results.append(
                        owner._analysis(
                            ctx, owner.fallback(ctx), usage, None, False, outcome.reason
                        )
                    )
            self.queue.put_nowait(results)
        except Exception as exc:
            self.queue.put_nowait(exc)

    async def _explain(self, ctx: SiteContext) -> _Outcome:
        owner, tally = self.owner, _Tally()
        REQUEST_TAGS.set((owner.prompt.cache_key(ctx), owner.model_for(ctx)))
        messages: list[dict[str, str]] = owner.prompt.render(ctx, owner.taxonomy)
        text = await self._ask(messages, tally)
        try:
            explanation = parse_answer(text, owner.slugs)
        except AnswerError as error:
            owner.summary.reasks += 1
            messages = [*messages, *_feedback(text, f"Your answer is not valid: {error}.")]
            text = await self._ask(messages, tally)
            try:
                explanation = parse_answer(text, owner.slugs)
            except AnswerError as again:
                reason = f"invalid answer after a re-ask: {again}"
                raise _SiteFailure(reason, _Outcome(tally)) from None
        known = known_identifiers(ctx)
        missing = ungrounded_claims(
            explanation, known, owner.identifier_exists, owner.keyword_exists
        )
        if not missing:
            return _Outcome(tally, explanation)
        owner.summary.reasks += 1
        note = (
            f"{describe(missing)} Do not invent names, statements or commands: remove them,"
            " or use only those the request shows."
        )
        try:
            text = await self._ask([*messages, *_feedback(text, note)], tally)
            retry = parse_answer(text, owner.slugs)
        except (AnswerError, _SiteFailure):
            return _Outcome(tally, explanation, grounded=False)
        still = ungrounded_claims(retry, known, owner.identifier_exists, owner.keyword_exists)
        return _Outcome(tally, retry, grounded=not still)

    async def _ask(self, messages: list[dict[str, str]], tally: _Tally) -> str:
        """One answer's text, after transport retries; _SiteFailure when there is none."""
        if not self.reached:
            async with self.first_contact:
                if self.fatal:
                    raise _SiteFailure(self.fatal, _Outcome(tally))
                if not self.reached:
                    return await self._ask_with_retries(messages, tally)
        return await self._ask_with_retries(messages, tally)

    async def _ask_with_retries(self, messages: list[dict[str, str]], tally: _Tally) -> str:
        s, summary = self.owner.settings, self.owner.summary
        estimate = sum(estimate_tokens(m["content"]) for m in messages) + EST_COMPLETION_TOKENS
        for attempt in range(s.max_retries + 1):
            if self.rpm:
                await self.rpm.take(1)
            if self.tpm:
                await self.tpm.take(estimate)
            try:
                async with self.semaphore:
                    # Checked after the wait for a slot: the state may have changed meanwhile.
                    if self.fatal:
                        raise _SiteFailure(self.fatal, _Outcome(tally))
                    while (delay := self.pause_until - time.monotonic()) > 0:
                        await asyncio.sleep(delay)
                    summary.requests += 1
                    completion = await self._create(messages)
            except openai.APIStatusError as exc:
                self.reached = True  # it answered, if only with an error
                status = exc.status_code
                if status == 400 and self.structured and "response_format" in str(exc.message):
                    self.structured = False  # a server without json_schema: parse the text
                    continue
                if status in RETRY_STATUSES and attempt < s.max_retries:
                    wait = parse_retry_after(exc.response.headers) if status in (429, 503) else None
                    if wait is not None:
                        self.pause_until = max(self.pause_until, time.monotonic() + wait)
                    summary.retries += 1
                    if wait is None:
                        wait = backoff_delay(attempt, s.backoff_s)
                    await asyncio.sleep(wait)
                    continue
                reason = f"HTTP {status} from the model server: {short(exc.message)}"
                if status in _FATAL_STATUSES:
                    self.fatal = reason
                raise _SiteFailure(reason, _Outcome(tally)) from None
            except openai.APIConnectionError as exc:
                if attempt < s.max_retries:
                    summary.retries += 1
                    await asyncio.sleep(backoff_delay(attempt, s.backoff_s))
                    continue
                what = "timed out" if isinstance(exc, openai.APITimeoutError) else "failed"
                reason = f"request {what} after {attempt + 1} attempts"
                if not self.reached and not isinstance(exc, openai.APITimeoutError):
                    # Nothing has ever answered: the server is down or the URL is wrong. Stop
                    # here rather than retry every remaining site against it.
                    url = s.base_url or "https://api.openai.com/v1"
                    self.fatal = f"cannot reach the model server at {url} ({short(exc)})"
                    reason = self.fatal
                raise _SiteFailure(reason, _Outcome(tally)) from None
            except openai.OpenAIError as exc:
                raise _SiteFailure(f"bad response: {short(exc)}", _Outcome(tally)) from None
            self.reached = True
            return self._text(completion, tally, estimate)
        raise _SiteFailure("no answer after retries", _Outcome(tally))

    async def _create(self, messages: list[dict[str, str]]) -> Any:
        cache_key, model = REQUEST_TAGS.get()
        params = cast(list[ChatCompletionMessageParam], messages)
        if self.structured:
            return await self.client.chat.completions.create(
                model=model,
                messages=params,
                response_format={
                    "type": "json_schema",
                    "json_schema": {
                        "name": "explanation",
                        "strict": True,
                        "schema": self.owner.schema,
                    },
                },
                prompt_cache_key=cache_key,
            )
        return await self.client.chat.completions.create(
            model=model, messages=params, prompt_cache_key=cache_key
        )

    def _text(self, completion: Any, tally: _Tally, estimate: int) -> str:
        usage = getattr(completion, "usage", None)
        if usage is not None:
            tally.prompt_tokens += usage.prompt_tokens or 0
            tally.completion_tokens += usage.completion_tokens or 0
            details = getattr(usage, "prompt_tokens_details", None)
            tally.cached_tokens += getattr(details, "cached_tokens", None) or 0
            if self.tpm:
                spent = (usage.prompt_tokens or 0) + (usage.completion_tokens or 0)
                self.tpm.adjust(spent - estimate)
        if not completion.choices:
            raise _SiteFailure("the server returned no choices", _Outcome(tally))
        choice = completion.choices[0]
        refusal = getattr(choice.message, "refusal", None)
        if refusal:
            raise _SiteFailure(f"the model refused: {short(refusal)}", _Outcome(tally))
        if choice.finish_reason == "length":
            raise _SiteFailure("the answer was cut off (finish_reason length)", _Outcome(tally))
        if choice.finish_reason == "content_filter":
            raise _SiteFailure("the answer was withheld by a content filter", _Outcome(tally))
        return str(choice.message.content or "")


def _feedback(previous: str, problem: str) -> list[dict[str, str]]:
    return [
        {"role": "assistant", "content": previous[:20_000]},
        {"role": "user", "content": f"{problem} Answer again with the complete JSON object only."},
    ]
