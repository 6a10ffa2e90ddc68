"""The analyzer contract: a site with its context in, an explanation with provenance out.

Both analyzers (`static`, offline; `llm`, any OpenAI-compatible endpoint) take
`SiteContext`s and yield one `Analysis` per context, in any order, as soon as
each is ready, so that the caller can persist progress while a run goes on.
An analyzer never raises for one site: a site it cannot explain comes back with
`status="failed"` and the static explanation standing in.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pipeline.core.model import Explanation, Usage
from pipeline.scan.context import SiteContext as SiteContext  # re-exported: the analyzers' input


@dataclass(frozen=True, slots=True)
class Analysis:
    """An analyzer's answer for one site."""

    record_id: str
    content_hash: str
    explanation: Explanation
    analyzer: Literal["static", "llm"]
    status: Literal["ok", "failed"] = "ok"
    reason: str | None = None
    model: str | None = None
    prompt_version: str | None = None
    usage: Usage = field(default_factory=Usage)
    grounded: bool | None = None
    from_cache: bool = False


class Analyzer(Protocol):
    """Explains sites. Implementations: `StaticAnalyzer`, `LlmAnalyzer`."""

    @property
    def name(self) -> Literal["static", "llm"]:
        """Which analyzer this is, as the manifest records it."""
        ...

    def analyze(self, contexts: Sequence[SiteContext]) -> Iterator[Analysis]:
        """Yield one `Analysis` per context, in completion order."""
        ...
