"""What a model server's error means: its own words (secrets redacted), its kind, and when to stop.

A run stops asking (the circuit breaker) when the same client error comes back
`BREAKER_K` times in a row, or that many attempts in a row time out or cannot
connect: every other request would fail the same way, and a whole repository is
tens of thousands of requests.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Literal

import openai

from pipeline.core.redact import REDACTED
from pipeline.core.redact import redact as redact_secrets

Kind = Literal["context", "param", "client", "transient"]

# Wordings of "the prompt is too long" across OpenAI, vLLM, llama.cpp, Ollama, Anthropic-style.
_CONTEXT = re.compile(
    r"context[_ ]length|context window|maximum context|too many tokens|prompt is too long|"
    r"exceeds? the (?:model'?s? )?(?:maximum|context)|input is too long|n_ctx|"
    r"requested \d+ tokens",
    re.IGNORECASE,
)
_QUOTA = re.compile(r"insufficient_quota|exceeded your current quota|billing", re.IGNORECASE)


def redact(text: str, secrets: tuple[str | None, ...] = ()) -> str:
    """text without the run's API key and whatever core/redact.py recognises as a secret."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, REDACTED)
    return redact_secrets(text)


def short(text: object, limit: int = 300) -> str:
    """text on one line, cut to limit characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def server_words(exc: openai.APIStatusError) -> str:
    """The message the server sent, whatever the shape of its error body."""
    body = exc.body
    if isinstance(body, dict):
        for key in ("message", "detail", "error", "msg"):
            value = body.get(key)
            if isinstance(value, dict):
                value = value.get("message") or json.dumps(value)
            if isinstance(value, list):  # FastAPI's 422: [{"loc": ..., "msg": ...}]
                value = "; ".join(
                    str(v.get("msg", v)) if isinstance(v, dict) else str(v) for v in value
                )
            if value:
                return str(value)
        return json.dumps(body)[:2000]
    if isinstance(body, str) and body.strip():
        return body
    try:
        text = exc.response.text
    except Exception:  # a streamed or closed response: the client's own message remains
        text = ""
    return text.strip() or str(exc.message)


def kind_of(exc: openai.APIStatusError, words: str) -> Kind:
    """How to treat an error status: shrink the prompt, drop a parameter, stop, or retry."""
    status = exc.status_code
    code = f"{exc.code or ''} {words}"
    if _QUOTA.search(code):
        return "client"  # a 429 too: no retry pays for it
    if _CONTEXT.search(code):
        return "context"
    if status in (400, 422):
        return "param"
    if status in (401, 403, 404):
        return "client"
    return "transient"


@dataclass
class Breaker:
    """Counts the same failure in a row; `trip` returns the reason to stop once it is K long."""

    limit: int
    last: str | None = None
    streak: int = 0
    reason: str | None = None

    def ok(self) -> None:
        """A request was answered: the streak is broken."""
        self.last, self.streak = None, 0

    def fail(self, signature: str, reason: str) -> str | None:
        """Record one failure; the reason to stop the run when it is the limit-th in a row."""
        if signature == self.last:
            self.streak += 1
        else:
            self.last, self.streak = signature, 1
        if self.streak >= self.limit and self.reason is None:
            self.reason = f"stopped after {self.streak} in a row: {reason}"
        return self.reason
