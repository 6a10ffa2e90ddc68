"""The optional request parameters an endpoint accepts, learnt from its rejections and remembered.

Hosted providers, vLLM, llama.cpp and Ollama each refuse a different subset of
`response_format` (json_schema), `prompt_cache_key`, `max_tokens` /
`max_completion_tokens` and `seed`, with a 400 or a 422 and any wording. A
rejection drops the parameter it names, else the least useful one still sent,
and the request is sent again. What an endpoint (base URL and model) rejected is
kept for the run and in `llm-endpoints.json` in the cache directory, so a later
run does not pay the rejections again.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pipeline.analyze.llm_errors import redact

ENDPOINTS_FILE = "llm-endpoints.json"
OPTIONAL = ("response_format", "prompt_cache_key", "max_tokens", "max_completion_tokens", "seed")
# Dropped in this order when the error names none of the parameters sent: least useful first.
_DROP_ORDER = ("prompt_cache_key", "seed", "max_completion_tokens", "max_tokens", "response_format")
# Words in an error that name a parameter (json_schema is how some servers name response_format).
_NAMES = {
    "response_format": ("response_format", "json_schema", "responseformat"),
    "prompt_cache_key": ("prompt_cache_key",),
    "max_completion_tokens": ("max_completion_tokens",),
    "max_tokens": ("max_tokens",),
    "seed": ("seed",),
}
# Completion budget when some field has no length limit: the seeds' answers are 450-650
# tokens of JSON; three times that leaves room without letting a runaway answer cost much.
DEFAULT_MAX_TOKENS = 2048
SEED = 1234


def completion_budget(schema: Mapping[str, Any]) -> int:
    """max_tokens from the answer fields' length limits (chars/4, +25%), else the default."""
    chars = 0
    for prop in schema.get("properties", {}).values():
        kinds = prop.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "array" in kinds:
            items = prop.get("items", {})
            if "maxItems" not in prop or "maxLength" not in items:
                return DEFAULT_MAX_TOKENS
            chars += prop["maxItems"] * (items["maxLength"] + 4)
        elif "string" in kinds and "enum" not in prop:
            if "maxLength" not in prop:
                return DEFAULT_MAX_TOKENS
            chars += prop["maxLength"]
        else:
            chars += 40
    return math.ceil(chars / 4 * 1.25) + 64


def endpoint_name(base_url: str | None, model: str) -> str:
    """The key an endpoint's learnt parameters are kept under (no credentials)."""
    return f"{redact(base_url or 'https://api.openai.com/v1')} {model}"


class EndpointParams:
    """The optional parameters still sent to one endpoint; shared by a run's requests."""

    def __init__(self, cache_dir: Path, endpoint: str, structured: bool = True) -> None:
        self.path = cache_dir / ENDPOINTS_FILE
        self.endpoint = endpoint
        self._lock = threading.Lock()
        self.rejected: set[str] = set(self._load().get(endpoint, ()))
        self.learnt: list[str] = []  # rejected in this run, in order
        if not structured:
            self.rejected.add("response_format")

    def _load(self) -> dict[str, list[str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # none yet, or unreadable: learn again
        if not isinstance(data, dict):
            return {}
        return {
            k: [p for p in v if p in OPTIONAL]
            for k, v in data.items()
            if isinstance(k, str) and isinstance(v, list)
        }

    def active(self) -> tuple[str, ...]:
        """The optional parameters to send now."""
        names = [p for p in OPTIONAL if p not in self.rejected]
        # max_completion_tokens is the fallback of max_tokens (OpenAI's reasoning models).
        if "max_tokens" in names and "max_completion_tokens" in names:
            names.remove("max_completion_tokens")
        return tuple(names)

    def reject(self, sent: tuple[str, ...], words: str) -> str | None:
        """Drop one parameter after a rejection of a request that sent `sent`.

        Returns the parameter dropped, "" when another request already changed what
        is sent (send again as is), or None when nothing optional is left to drop.
        """
        with self._lock:
            if sent != self.active():
                return ""
            lowered = words.lower()
            named = [p for p in sent if any(w in lowered for w in _NAMES[p])]
            choice = named[0] if named else next((p for p in _DROP_ORDER if p in sent), None)
            if choice is None:
                return None
            self.rejected.add(choice)
            self.learnt.append(choice)
            if choice == "max_tokens" and "max_completion_tokens" not in lowered:
                # Only a server that asks for max_completion_tokens gets it instead.
                self.rejected.add("max_completion_tokens")
            self._save()
            return choice

    def _save(self) -> None:
        data = self._load()
        data[self.endpoint] = sorted(self.rejected)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()  # remembered for this run only; a later run learns again
