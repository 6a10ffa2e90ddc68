"""Where and how the `llm` analyzer asks: endpoint, model, limits, from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any


class LlmConfigError(ValueError):
    """The LLM analyzer is not configured; the message says what to set."""


# Settings a user may set in the environment (the command line's options win).
_ENV_NUMBERS: tuple[tuple[str, str, type[int] | type[float]], ...] = (
    ("timeout_s", "ERRDOC_LLM_TIMEOUT", float),
    ("max_retries", "ERRDOC_LLM_RETRIES", int),
    ("deadline_s", "ERRDOC_LLM_DEADLINE", float),
    ("breaker", "ERRDOC_LLM_BREAKER", int),
    ("batch_poll_s", "ERRDOC_LLM_BATCH_POLL", float),
)


@dataclass(frozen=True)
class LlmSettings:
    """Where and how to ask: endpoint, model, limits."""

    base_url: str | None
    api_key: str | None
    model: str
    concurrency: int = 8
    rpm: int | None = None
    tpm: int | None = None
    timeout_s: float = 60.0  # one attempt, whole exchange (not per read)
    max_retries: int = 4
    deadline_s: float = 180.0  # one request with all its retries and waits
    breaker: int = 5  # the same failure this many times in a row stops the run
    batch_poll_s: float = 30.0  # --batch: seconds between two looks at the batch
    prompt_name: str = "explain"
    backoff_s: float = 1.0  # first retry waits 0.5-1x this, doubling each time
    structured: bool = True  # send response_format json_schema (strict)
    model_simple: str | None = None  # for panics, `expect` and asserts (`--model-simple`)

    @classmethod
    def from_env(
        cls, model: str | None = None, *, dry_run: bool = False, **overrides: Any
    ) -> LlmSettings:
        """Settings from OPENAI_BASE_URL, OPENAI_API_KEY, ERRDOC_MODEL (or MODEL), ERRDOC_LLM_*.

        A dry run calls nothing, so it needs no key.
        """
        env = os.environ
        # ERRDOC_MODEL first: MODEL is a generic name another tool may have set
        name = model or env.get("ERRDOC_MODEL") or env.get("MODEL")
        if not name:
            raise LlmConfigError(
                "the llm analyzer needs a model: pass --model or set ERRDOC_MODEL"
                " (e.g. ERRDOC_MODEL=gpt-4o-mini)"
            )
        settings = cls(
            base_url=env.get("OPENAI_BASE_URL") or None,
            api_key=env.get("OPENAI_API_KEY") or None,
            model=name,
        )
        for field, var, kind in _ENV_NUMBERS:
            raw = env.get(var, "").strip()
            if raw:
                try:
                    value: Any = kind(raw)
                    settings = replace(settings, **{field: value})
                except ValueError:
                    raise LlmConfigError(f"{var}={raw!r} is not a number") from None
        if settings.base_url is None and settings.api_key is None and not dry_run:
            raise LlmConfigError(
                "the llm analyzer needs OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for another "
                "server (vLLM, Ollama: any key works there)"
            )
        settings = replace(settings, **{k: v for k, v in overrides.items() if v is not None})
        if settings.timeout_s <= 0 or settings.deadline_s <= 0:
            raise LlmConfigError("the model timeout and deadline must be positive seconds")
        if settings.max_retries < 0 or settings.breaker < 1:
            raise LlmConfigError("retries must be 0 or more and the breaker at least 1")
        if settings.concurrency < 1:
            raise LlmConfigError("CONCURRENCY must be at least 1")
        for limit in ("rpm", "tpm"):
            value = getattr(settings, limit)
            if value is not None and value < 1:
                raise LlmConfigError(f"{limit} limit must be at least 1 (or unset)")
        return settings
