"""Where and how the `llm` analyzer asks: endpoint, model, limits, from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any


class LlmConfigError(ValueError):
    """The LLM analyzer is not configured; the message says what to set."""


@dataclass(frozen=True)
class LlmSettings:
    """Where and how to ask: endpoint, model, limits."""

    base_url: str | None
    api_key: str | None
    model: str
    concurrency: int = 8
    rpm: int | None = None
    tpm: int | None = None
    timeout_s: float = 120.0
    max_retries: int = 4
    prompt_name: str = "explain"
    backoff_s: float = 1.0  # first retry waits 0.5-1x this, doubling each time
    structured: bool = True  # send response_format json_schema (strict)
    model_simple: str | None = None  # for panics, `expect` and asserts (`--model-simple`)

    @classmethod
    def from_env(cls, model: str | None = None, **overrides: Any) -> LlmSettings:
        """Settings from OPENAI_BASE_URL, OPENAI_API_KEY and MODEL (or ERRDOC_MODEL)."""
        env = os.environ
        name = model or env.get("MODEL") or env.get("ERRDOC_MODEL")
        if not name:
            raise LlmConfigError(
                "ANALYZER=llm needs a model: set MODEL (or ERRDOC_MODEL), e.g. MODEL=gpt-4o-mini"
            )
        settings = cls(
            base_url=env.get("OPENAI_BASE_URL") or None,
            api_key=env.get("OPENAI_API_KEY") or None,
            model=name,
        )
        if settings.base_url is None and settings.api_key is None:
            raise LlmConfigError(
                "ANALYZER=llm needs OPENAI_API_KEY for OpenAI, or OPENAI_BASE_URL for another "
                "server (vLLM, Ollama: any key works there)"
            )
        settings = replace(settings, **{k: v for k, v in overrides.items() if v is not None})
        if settings.concurrency < 1:
            raise LlmConfigError("CONCURRENCY must be at least 1")
        for limit in ("rpm", "tpm"):
            value = getattr(settings, limit)
            if value is not None and value < 1:
                raise LlmConfigError(f"{limit} limit must be at least 1 (or unset)")
        return settings
