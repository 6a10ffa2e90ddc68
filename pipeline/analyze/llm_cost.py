"""Prices, the dry-run estimate and the run summary of the LLM analyzer."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_PRICES = Path(__file__).resolve().parents[1] / "data" / "prices.toml"
# Completion tokens assumed per answer in a dry run: the seed records' explanations
# are 450-650 tokens of JSON; 600 errs on the expensive side.
EST_COMPLETION_TOKENS = 600
# The Batch API's price, as a fraction of the interactive one (OpenAI: half).
BATCH_DISCOUNT = 0.5


@dataclass(frozen=True)
class Price:
    """USD per 1M input, cached input and output tokens."""

    input: float
    output: float
    cached_input: float | None = None  # None: cached input costs what input costs

    def cost(self, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> float:
        """USD for that many tokens, `cached_tokens` of the prompt's read from the cache."""
        cached = min(max(cached_tokens, 0), prompt_tokens)
        cached_rate = self.input if self.cached_input is None else self.cached_input
        return (
            (prompt_tokens - cached) * self.input
            + cached * cached_rate
            + completion_tokens * self.output
        ) / 1_000_000


def load_prices(path: Path | None = None) -> dict[str, Price]:
    """The price table from path, else $ERRDOC_PRICES, else the packaged one."""
    from_env = os.environ.get("ERRDOC_PRICES")
    source = path or (Path(from_env) if from_env else DEFAULT_PRICES)
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"cannot read the price table {source}: {exc}") from exc
    prices: dict[str, Price] = {}
    for name, row in data.get("models", {}).items():
        try:
            cached = row.get("cached_input")
            prices[name] = Price(
                float(row["input"]),
                float(row["output"]),
                None if cached is None else float(cached),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(
                f"{source}: model {name!r} needs numeric input and output"
                " (and cached_input, when given)"
            ) from exc
    return prices


def price_for(model: str, prices: dict[str, Price]) -> Price | None:
    """The price of a model, also when named with a provider prefix (`openai/gpt-4o`)."""
    return prices.get(model) or prices.get(model.rsplit("/", 1)[-1])


def _usd(cost: float | None) -> str:
    return "unknown (model not in the price table)" if cost is None else f"${cost:.4f}"


@dataclass(frozen=True)
class DryRunReport:
    """What a run would send and cost, computed without any request."""

    model: str
    sites: int
    distinct: int  # distinct cache keys among the sites
    cache_hits: int  # distinct keys already answered
    to_send: int  # distinct keys that would be asked
    est_prompt_tokens: int
    est_completion_tokens: int
    est_cost_usd: float | None
    batch: bool = False  # priced at the Batch API's discount
    est_cached_tokens: int = 0  # of the prompt tokens, the shared prefix after the first request
    est_cached_cost_usd: float | None = None  # the cost when the provider caches that prefix

    def format(self) -> str:
        """A few lines for the CLI."""
        cached = ""
        if self.est_cached_cost_usd is not None and self.est_cached_tokens:
            cached = (
                f" ({_usd(self.est_cached_cost_usd)} if the provider caches the shared prefix:"
                f" {self.est_cached_tokens:,} tokens at the cached-input price)"
            )
        return (
            f"dry run, model {self.model}: {self.sites} sites, {self.distinct} distinct,"
            f" {self.cache_hits} answered by the cache, {self.to_send} to send\n"
            f"estimated tokens: {self.est_prompt_tokens:,} prompt (chars/4)"
            f" + {self.est_completion_tokens:,} completion ({EST_COMPLETION_TOKENS}/answer)\n"
            f"estimated cost: {_usd(self.est_cost_usd)}{cached}"
            + (" (Batch API, half price)" if self.batch else "")
        )


@dataclass
class RunSummary:
    """Counts of one analyze() run; tokens are those paid in this run."""

    model: str = ""
    sites: int = 0
    requests: int = 0
    cache_hits: int = 0
    reasks: int = 0
    retries: int = 0
    shrunk: int = 0  # prompts shrunk after a context-length error
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0  # of prompt_tokens, read from the provider's prompt cache
    cost_usd: float | None = None
    failures: int = 0
    known_failures: int = 0  # failed for good in an earlier run; not asked (--retry-failed)
    ungrounded: int = 0
    seconds: float = 0.0
    stopped: str | None = None  # why the circuit breaker stopped the run, if it did
    # model -> [prompt, completion, cached] tokens: `--model-simple` answers cost their price
    by_model: dict[str, list[int]] = field(default_factory=dict)

    def spend(self, model: str, prompt: int, completion: int, cached: int) -> None:
        """Add one site's tokens to its model's spend."""
        row = self.by_model.setdefault(model, [0, 0, 0])
        row[0], row[1], row[2] = row[0] + prompt, row[1] + completion, row[2] + cached

    def cost(self, prices: dict[str, Price]) -> float | None:
        """USD of the tokens spent, each model at its price; None if one is not priced."""
        total = 0.0
        for model, (prompt, completion, cached) in self.by_model.items():
            price = price_for(model, prices)
            if price is None:
                return None
            total += price.cost(prompt, completion, cached)
        return total

    def format(self) -> str:
        """A few lines for the CLI."""
        stopped = f"\nstopped asking the model: {self.stopped}" if self.stopped else ""
        return (
            f"llm {self.model}: {self.sites} sites, {self.requests} requests"
            f" ({self.retries} retries, {self.reasks} re-asks, {self.shrunk} shrunk),"
            f" {self.cache_hits} cache hits,"
            f" {self.failures} failed ({self.known_failures} earlier), {self.ungrounded} ungrounded, {self.seconds:.1f}s\n"
            f"tokens: {self.prompt_tokens:,} prompt ({self.cached_tokens:,} cached)"
            f" + {self.completion_tokens:,} completion;"
            f" cost {_usd(self.cost_usd)}{stopped}"
        )
