"""The asynchronous part of one `LlmAnalyzer.analyze` call: requests, retries, re-asks."""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

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
from pipeline.analyze.llm_cache import AnswerCache
from pipeline.analyze.llm_cost import EST_COMPLETION_TOKENS
from pipeline.analyze.llm_errors import Breaker, kind_of, redact, server_words, short
from pipeline.analyze.llm_limits import (
    RETRY_STATUSES,
    TokenBucket,
    backoff_delay,
    parse_retry_after,
)
from pipeline.analyze.llm_outcome import (
    Outcome,
    RunOwner,
    SiteFailure,
    Tally,
    completion_text,
    deliver,
    request_options,
)
from pipeline.analyze.llm_prompt import estimate_tokens

# Lines kept on each side of the site when a prompt is too long for the model's context.
_SHRUNK_LINES = 8

# What the request of the site a task explains carries besides its messages (the provider's
# prompt cache key, the model): set once per task, read where the request is made.
REQUEST_TAGS: contextvars.ContextVar[tuple[str, str]] = contextvars.ContextVar("request_tags")


class _TooLong(Exception):
    """The prompt does not fit the model's context; args[0] is the server's reason."""


class Run:
    """One analyze() call's asynchronous part: client, limits, tasks, results queue."""

    def __init__(self, owner: RunOwner, cache: AnswerCache) -> None:
        s = owner.settings
        self.owner, self.cache = owner, cache
        self.queue: asyncio.Queue[list[Analysis] | BaseException] = asyncio.Queue()
        self.breaker = Breaker(s.breaker)
        self.pause_until = 0.0
        self.semaphore = asyncio.Semaphore(s.concurrency)
        self.rpm = TokenBucket(s.rpm) if s.rpm else None
        self.tpm = TokenBucket(s.tpm) if s.tpm else None
        self.secrets = (s.api_key,)
        self.client = openai.AsyncOpenAI(
            base_url=s.base_url,
            api_key=s.api_key or "unused",  # local servers (vLLM, Ollama) take any key
            timeout=s.timeout_s,
            max_retries=0,  # retried here, to honour Retry-After and count every attempt
        )

    @property
    def fatal(self) -> str | None:
        """Why the run stopped asking, once the circuit breaker has tripped."""
        return self.breaker.reason

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
            self.owner.summary.stopped = self.fatal
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
            except SiteFailure as failure:
                outcome = failure.args[1]
                outcome.reason = failure.args[0]
            except _TooLong as too_long:  # a re-ask grew past the context
                outcome = Outcome(Tally(), reason=too_long.args[0])
            except Exception as exc:  # a bug or an odd server must not stop the run
                outcome = Outcome(Tally(), reason=f"internal error: {short(exc)}")
            results = deliver(owner, self.cache, key, members, outcome)
            self.queue.put_nowait(results)
        except Exception as exc:
            self.queue.put_nowait(exc)

    async def _explain(self, ctx: SiteContext) -> Outcome:
        owner, tally = self.owner, Tally()
        REQUEST_TAGS.set((owner.prompt.cache_key(ctx), owner.model_for(ctx)))
        messages: list[dict[str, str]] = owner.prompt.render(ctx, owner.taxonomy)
        try:
            text, messages = await self._ask(
                messages, tally, lambda: owner.prompt.render(shrink(ctx), owner.taxonomy)
            )
        except _TooLong as again:
            reason = f"the prompt is too long even shrunk: {again.args[0]}"
            self.breaker.fail("context", reason)
            raise SiteFailure(self.fatal or reason, Outcome(tally)) from None
        try:
            explanation = parse_answer(text, owner.slugs)
        except AnswerError as error:
            owner.summary.reasks += 1
            messages = [*messages, *_feedback(text, f"Your answer is not valid: {error}.")]
            text, _ = await self._ask(messages, tally)
            try:
                explanation = parse_answer(text, owner.slugs)
            except AnswerError as again:
                reason = f"invalid answer after a re-ask: {again}"
                raise SiteFailure(reason, Outcome(tally, permanent=True)) from None
        known = known_identifiers(ctx)
        missing = ungrounded_claims(
            explanation, known, owner.identifier_exists, owner.keyword_exists
        )
        if not missing:
            return Outcome(tally, explanation)
        owner.summary.reasks += 1
        note = (
            f"{describe(missing)} Do not invent names, statements or commands: remove them,"
            " or use only those the request shows."
        )
        try:
            text, _ = await self._ask([*messages, *_feedback(text, note)], tally)
            retry = parse_answer(text, owner.slugs)
        except (AnswerError, SiteFailure, _TooLong):
            return Outcome(tally, explanation, grounded=False)
        still = ungrounded_claims(retry, known, owner.identifier_exists, owner.keyword_exists)
        return Outcome(tally, retry, grounded=not still)

    def _stop_if_fatal(self, tally: Tally) -> None:
        if self.fatal:
            raise SiteFailure(self.fatal, Outcome(tally))

    async def _ask(
        self,
        messages: list[dict[str, str]],
        tally: Tally,
        smaller: Callable[[], list[dict[str, str]]] | None = None,
    ) -> tuple[str, list[dict[str, str]]]:
        """(answer text, messages it answers), after retries; SiteFailure when there is none.

        A context-length error sends `smaller()` once, in the same slot: a site's shrunk ask
        then comes before other sites' first asks, so a server that takes no size stops the
        run after K sites, not after every site has been refused once.
        """
        s, summary = self.owner.settings, self.owner.summary
        estimate = sum(estimate_tokens(m["content"]) for m in messages) + EST_COMPLETION_TOKENS
        deadline = time.monotonic() + s.deadline_s
        attempt = 0
        while True:
            self._stop_if_fatal(tally)
            if self.rpm:
                await self.rpm.take(1)
            if self.tpm:
                await self.tpm.take(estimate)
            try:
                async with self.semaphore:
                    # Checked after the wait for a slot: the state may have changed meanwhile.
                    self._stop_if_fatal(tally)
                    sent = self.owner.params.active()
                    while (delay := self.pause_until - time.monotonic()) > 0:
                        await asyncio.sleep(delay)
                    try:
                        completion = await self._send(messages, sent, deadline)
                    except openai.APIStatusError as exc:
                        if smaller is None or not self._too_long(exc):
                            raise
                        summary.shrunk += 1
                        messages, smaller = smaller(), None
                        completion = await self._send(messages, sent, deadline)
            except openai.APIStatusError as exc:
                status = exc.status_code
                words = redact(server_words(exc), self.secrets)
                reason = f"HTTP {status} from the model server: {short(words)}"
                kind = kind_of(exc, words)
                if kind == "context":
                    raise _TooLong(reason) from None
                if kind == "param":
                    dropped = self.owner.params.reject(sent, words)
                    if dropped is not None:
                        continue  # the same request without the parameter it rejected
                    kind = "client"
                if kind == "client":
                    self.breaker.fail(f"{status} {exc.code} {short(words, 80)}", reason)
                    raise SiteFailure(self.fatal or reason, Outcome(tally)) from None
                retry = status in RETRY_STATUSES and attempt < s.max_retries
                if not retry:
                    self.breaker.fail(f"{status}", reason)
                    raise SiteFailure(self.fatal or reason, Outcome(tally)) from None
                wait = parse_retry_after(exc.response.headers) if status in (429, 503) else None
                if wait is not None:
                    self.pause_until = max(self.pause_until, time.monotonic() + wait)
                await self._backoff(attempt, wait)
                attempt += 1
                continue
            except (openai.APIConnectionError, TimeoutError) as exc:
                timed_out = isinstance(exc, openai.APITimeoutError | TimeoutError)
                if timed_out:
                    reason = f"no answer within {s.timeout_s:g} s from {self._where()}"
                else:
                    reason = f"cannot reach the model server at {self._where()} ({short(exc)})"
                self.breaker.fail("timeout" if timed_out else "connect", reason)
                self._stop_if_fatal(tally)
                if attempt < s.max_retries and time.monotonic() < deadline:
                    await self._backoff(attempt, None)
                    attempt += 1
                    continue
                if timed_out:
                    reason = f"request timed out after {attempt + 1} attempts"
                else:
                    reason = f"{reason} after {attempt + 1} attempts"
                raise SiteFailure(reason, Outcome(tally)) from None
            except openai.OpenAIError as exc:
                raise SiteFailure(f"bad response: {short(exc)}", Outcome(tally)) from None
            self.breaker.ok()
            return self._text(completion, tally, estimate), messages

    async def _send(
        self, messages: list[dict[str, str]], sent: tuple[str, ...], deadline: float
    ) -> Any:
        budget = min(self.owner.settings.timeout_s, deadline - time.monotonic())
        if budget <= 0:
            raise TimeoutError
        self.owner.summary.requests += 1
        # The whole exchange within the budget: a server that drips a byte now and then never
        # trips the client's per-read timeout.
        return await asyncio.wait_for(self._create(messages, sent), budget)

    def _too_long(self, exc: openai.APIStatusError) -> bool:
        return kind_of(exc, server_words(exc)) == "context"

    async def _backoff(self, attempt: int, wait: float | None) -> None:
        self.owner.summary.retries += 1
        delay = wait if wait is not None else backoff_delay(attempt, self.owner.settings.backoff_s)
        await asyncio.sleep(delay)

    def _where(self) -> str:
        return redact(self.owner.settings.base_url or "https://api.openai.com/v1", self.secrets)

    async def _create(self, messages: list[dict[str, str]], sent: tuple[str, ...]) -> Any:
        owner = self.owner
        cache_key, model = REQUEST_TAGS.get()
        extra = request_options(sent, owner.schema, cache_key, owner.max_tokens)
        return await self.client.chat.completions.create(
            model=model,
            messages=cast(list[ChatCompletionMessageParam], messages),
            # As extra_body, sent as is: the client's typed transform walks the whole JSON
            # schema on every request (1.6 ms of the event loop each, 10% of the throughput
            # at CONCURRENCY 8 and 200 ms).
            extra_body=extra,
        )

    def _text(self, completion: Any, tally: Tally, estimate: int) -> str:
        spent = tally.prompt_tokens + tally.completion_tokens
        text = completion_text(completion, tally)
        if self.tpm:
            self.tpm.adjust(tally.prompt_tokens + tally.completion_tokens - spent - estimate)
        return text


def shrink(ctx: SiteContext) -> SiteContext:
    """ctx with a narrower window around the site and without the extra context (docs, reach)."""
    lines = ctx.window.split("\n")
    at = min(max(ctx.site.line - ctx.window_start, 0), len(lines) - 1)
    first = max(at - _SHRUNK_LINES, 0)
    facts = dataclasses.replace(ctx.site.facts, fn_doc=None, type_doc=None, enum_doc=None)
    return dataclasses.replace(
        ctx,
        window="\n".join(lines[first : at + _SHRUNK_LINES + 1]),
        window_start=ctx.window_start + first,
        site=dataclasses.replace(ctx.site, facts=facts),
        reach=None,
    )


def _feedback(previous: str, problem: str) -> list[dict[str, str]]:
    return [
        {"role": "assistant", "content": previous[:20_000]},
        {"role": "user", "content": f"{problem} Answer again with the complete JSON object only."},
    ]
