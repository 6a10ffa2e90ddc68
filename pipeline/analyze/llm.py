"""The `llm` analyzer: an OpenAI-compatible chat-completions endpoint, concurrent, cached.

`LlmAnalyzer.analyze` is a synchronous generator over an asyncio event loop that
it steps itself (no thread): cache hits come out first without a request, then
one answer per distinct cache key as each arrives, already committed to the
cache. One site never raises: a site that cannot be answered comes back
`status="failed"` with the reason and the fallback (static) explanation.
Per site: ask; on an invalid answer re-ask once with the error; on backticked
identifiers found nowhere, re-ask once naming them and keep the answer with
`grounded=False` if they stay. Transport retries (429/5xx/timeouts) are
separate and honour `Retry-After`; usage is summed over every attempt. The
same failure K times in a row stops the run (llm_errors.Breaker); parameters
the endpoint rejects are dropped (llm_params); sites that failed for good
before are not asked again. With `batch=True` the sites go through the Batch
API instead (llm_batch), into the same cache.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal

from pipeline.analyze import Analysis, SiteContext
from pipeline.analyze.llm_batch import BatchRun
from pipeline.analyze.llm_cache import AnswerCache, cache_key
from pipeline.analyze.llm_cost import (
    BATCH_DISCOUNT,
    EST_COMPLETION_TOKENS,
    DryRunReport,
    RunSummary,
    load_prices,
    price_for,
)
from pipeline.analyze.llm_params import EndpointParams, completion_budget, endpoint_name
from pipeline.analyze.llm_prompt import (
    FailureClassLike,
    estimate_tokens,
    load_prompt,
    schema_version,
    strict_schema,
)
from pipeline.analyze.llm_run import Run
from pipeline.analyze.llm_settings import LlmConfigError as LlmConfigError
from pipeline.analyze.llm_settings import LlmSettings as LlmSettings
from pipeline.analyze.taxonomy import load_taxonomy
from pipeline.core.model import Explanation, Usage

# Sites `--model-simple` explains: a broken invariant needs less reasoning than a rejection.
SIMPLE_KINDS = frozenset({"panic", "unreachable", "assert", "expect", "todo", "unimplemented"})


def ask_key(ctx: SiteContext, model: str) -> tuple[str, ...]:
    """What makes two sites one question: same file, kind, message, enclosing item and
    conditions (a message repeated in the branches of one function is asked once)."""
    site, facts = ctx.site, ctx.site.facts
    if not facts.enclosing_fn and not facts.enclosing_type:
        return (ctx.content_hash,)
    conditions = "\n".join(f"{c.negated}:{c.kind}:{c.text}" for c in facts.conditions)
    item = f"{facts.enclosing_impl}::{facts.enclosing_fn}::{facts.enclosing_type}::{facts.variant}"
    return (model, site.file_path, site.kind, site.message, item, conditions)


class LlmAnalyzer:
    """Explains sites with a chat-completions model; implements `Analyzer`."""

    name: Literal["static", "llm"] = "llm"

    def __init__(
        self,
        settings: LlmSettings,
        cache_dir: Path,
        fallback: Callable[[SiteContext], Explanation],
        identifier_exists: Callable[[str], bool] | None = None,
        *,
        keyword_exists: Callable[[str], bool] | None = None,
        taxonomy: Mapping[str, FailureClassLike] | None = None,
        retry_failed: bool = False,
        batch: bool = False,
    ) -> None:
        self.settings = settings
        self.retry_failed = retry_failed
        self.batch = batch
        self.cache_dir = cache_dir
        self.fallback = fallback
        self.taxonomy = taxonomy if taxonomy is not None else load_taxonomy()
        self.slugs = frozenset(self.taxonomy)
        self.prompt = load_prompt(settings.prompt_name)
        self.schema = strict_schema(sorted(self.slugs))
        self.schema_version = schema_version(self.schema)
        self.max_tokens = completion_budget(self.schema)
        self.params = EndpointParams(
            cache_dir, endpoint_name(settings.base_url, settings.model), settings.structured
        )
        # The prefix renders the taxonomy's titles and definitions: editing one re-asks.
        prefix = self.prompt.prefix(self.taxonomy)
        self._prefix_digest = hashlib.sha256(prefix.encode()).hexdigest()[:12]
        self.prices = load_prices()
        self.summary = RunSummary(model=settings.model)
        self._exists_memo: dict[str, bool] = {}
        self._identifier_exists = identifier_exists
        self._keyword_exists = keyword_exists
        self._schema_tokens = (
            estimate_tokens(json.dumps(self.schema, separators=(",", ":")))
            if settings.structured
            else 0
        )

    @property
    def prompt_version(self) -> str:
        """The version of the prompt files, as recorded in the manifest."""
        return self.prompt.version

    def model_for(self, ctx: SiteContext) -> str:
        """The model that explains ctx: `model_simple` for panics, `expect` and asserts."""
        simple = self.settings.model_simple
        return simple if simple and ctx.site.kind in SIMPLE_KINDS else self.settings.model

    def key(self, ctx: SiteContext) -> str:
        """The cache key of a site's answer (its content, caller paths, model and prompt)."""
        content = ctx.content_hash
        if ctx.reach is not None:  # the caller paths are part of what the model was shown
            content += "\0" + hashlib.sha256(repr(ctx.reach).encode()).hexdigest()
        version = f"{self.prompt.version}+{self._prefix_digest}"
        return cache_key(content, self.model_for(ctx), version, self.schema_version)

    def _groups(self, contexts: Sequence[SiteContext]) -> dict[str, list[SiteContext]]:
        """Sites asked as one, by the key of the first: same content, or same message,
        enclosing item and conditions; a file's sites together, in line order, so that
        the provider's cache holds the file's prefix while they are sent."""
        ordered = sorted(contexts, key=lambda c: (c.site.file_path, c.site.line, c.record_id))
        by_ask: dict[tuple[str, ...], str] = {}
        groups: dict[str, list[SiteContext]] = {}
        for ctx in ordered:
            key = self.key(ctx)
            lead = by_ask.setdefault(ask_key(ctx, self.model_for(ctx)), key)
            groups.setdefault(lead, []).append(ctx)
        return groups

    def prompt_tokens(self, ctx: SiteContext) -> int:
        """Estimated prompt tokens of one request for ctx (messages + schema, chars/4)."""
        messages = self.prompt.render(ctx, self.taxonomy)
        return sum(estimate_tokens(m["content"]) + 4 for m in messages) + self._schema_tokens

    def plan(self, contexts: Sequence[SiteContext]) -> DryRunReport:
        """What `analyze` would send and cost, without any request."""
        groups = self._groups(contexts)
        cache = AnswerCache(self.cache_dir)
        try:
            to_send = [
                members[0]
                for key, members in groups.items()
                if cache.get(key) is None and self._known_failure(cache, key) is None
            ]
        finally:
            cache.close()
        prompt_tokens = sum(self.prompt_tokens(ctx) for ctx in to_send)
        completion_tokens = EST_COMPLETION_TOKENS * len(to_send)
        price = price_for(self.settings.model, self.prices)
        discount = BATCH_DISCOUNT if self.batch else 1.0
        # Providers cache a prefix of at least 1,024 tokens once it has been sent.
        prefix = estimate_tokens(self.prompt.parts(to_send[0], self.taxonomy)[0]) if to_send else 0
        cached = prefix * (len(to_send) - 1) if prefix >= 1024 and to_send else 0
        return DryRunReport(
            model=self.settings.model,
            sites=len(contexts),
            distinct=len(groups),
            cache_hits=len(groups) - len(to_send),
            to_send=len(to_send),
            est_prompt_tokens=prompt_tokens,
            est_completion_tokens=completion_tokens,
            est_cost_usd=price.cost(prompt_tokens, completion_tokens) * discount if price else None,
            batch=self.batch,
            est_cached_tokens=cached,
            est_cached_cost_usd=(
                price.cost(prompt_tokens, completion_tokens, cached) * discount if price else None
            ),
        )

    def analyze(self, contexts: Sequence[SiteContext]) -> Iterator[Analysis]:
        """Yield one `Analysis` per context: cache hits first, then answers as they arrive."""
        started = time.monotonic()
        self.summary = summary = RunSummary(model=self.settings.model, sites=len(contexts))
        cache = AnswerCache(self.cache_dir)
        try:
            pending: list[tuple[str, list[SiteContext]]] = []
            for key, members in self._groups(contexts).items():
                hit = cache.get(key)
                failed = None if hit else self._known_failure(cache, key)
                if failed is not None:
                    for ctx in members:  # failed for good before: not paid for again
                        summary.failures += 1
                        summary.known_failures += 1
                        yield self._analysis(ctx, self.fallback(ctx), Usage(), None, True, failed)
                    continue
                if hit is None:
                    pending.append((key, members))
                    continue
                for ctx in members:
                    summary.cache_hits += 1
                    yield self._analysis(ctx, hit.explanation, hit.usage, hit.grounded, True)
            if pending:
                run = BatchRun(self, cache) if self.batch else Run(self, cache)
                yield from run.drive(pending)
        finally:
            cache.close()
            summary.seconds = time.monotonic() - started
            cost = summary.cost(self.prices)
            summary.cost_usd = cost * (BATCH_DISCOUNT if self.batch else 1.0) if cost else cost

    def _known_failure(self, cache: AnswerCache, key: str) -> str | None:
        return None if self.retry_failed else cache.failure(key)

    def _analysis(
        self,
        ctx: SiteContext,
        explanation: Explanation,
        usage: Usage,
        grounded: bool | None,
        from_cache: bool,
        reason: str | None = None,
    ) -> Analysis:
        return Analysis(
            record_id=ctx.record_id,
            content_hash=ctx.content_hash,
            explanation=explanation,
            analyzer="llm",
            status="failed" if reason else "ok",
            reason=reason,
            model=self.model_for(ctx),
            prompt_version=self.prompt.version,
            usage=usage,
            grounded=grounded,
            from_cache=from_cache,
        )

    def keyword_exists(self, word: str) -> bool:
        """Whether the repository's code (not its strings) has an SQL keyword; without that
        check, whether it has the word at all."""
        if self._keyword_exists is None:
            return self.identifier_exists(word)
        key = "\0sql:" + word
        if key not in self._exists_memo:
            self._exists_memo[key] = bool(self._keyword_exists(word))
        return self._exists_memo[key]

    def identifier_exists(self, ident: str) -> bool:
        """Whether the repository has ident (memoized call of the injected check)."""
        if self._identifier_exists is None:
            return False
        if ident not in self._exists_memo:
            self._exists_memo[ident] = bool(self._identifier_exists(ident))
        return self._exists_memo[ident]
