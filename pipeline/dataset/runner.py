"""Choosing and building the analyzer of a run (static, or llm with its settings)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pipeline.analyze import Analysis, SiteContext
from pipeline.analyze.static import STATIC_VERSION, StaticAnalyzer, explain
from pipeline.core.progress import Progress
from pipeline.dataset.extract import AnalyzerFactory
from pipeline.scan.collect import (
    AnalyzerChoice,
    ExtractRequest,
    build_contexts,
    locate,
    scan_entries,
)
from pipeline.source.identifiers import tree_identifiers
from pipeline.source.repository import word_in_code

if TYPE_CHECKING:  # the openai client is imported only when a run asks for the model
    from pipeline.analyze.llm import LlmAnalyzer, LlmSettings


def llm_settings(choice: AnalyzerChoice) -> LlmSettings:
    """Settings from the environment, overridden by the command line."""
    from pipeline.analyze.llm import LlmSettings

    return LlmSettings.from_env(
        choice.model,
        dry_run=choice.dry_run,
        concurrency=choice.concurrency,
        rpm=choice.rpm,
        tpm=choice.tpm,
        timeout_s=choice.timeout,
        max_retries=choice.retries,
        model_simple=choice.model_simple,
    )


def analyzer_factory(
    choice: AnalyzerChoice, request: ExtractRequest
) -> tuple[AnalyzerFactory | None, str, str | None]:
    """(factory, analyzer name, version for reuse); factory None when a dry run was reported."""
    if choice.name == "static":
        if choice.dry_run:
            print(
                "errdoc: --dry-run only estimates model calls; the static analyzer makes none",
                file=sys.stderr,
            )
            return None, "static", STATIC_VERSION
        return (lambda contexts, git_dir, sha: StaticAnalyzer()), "static", STATIC_VERSION
    settings = llm_settings(choice)
    if choice.dry_run:
        git_dir, sha, listing = locate(request)
        contexts = build_contexts(request.repo, sha, scan_entries(request, git_dir, listing))
        print(_llm(settings, request, git_dir, sha, choice).plan(contexts).format())
        return None, "llm", None
    return (
        (lambda contexts, git_dir, sha: _LlmRun(_llm(settings, request, git_dir, sha, choice))),
        "llm",
        None,
    )


class TreeWords:
    """Whether a word is an identifier of the tree: one pass over its Rust files on first use."""

    def __init__(self, git_dir: Path, commit: str) -> None:
        self.git_dir, self.commit = git_dir, commit
        self._words: frozenset[str] | None = None

    def __call__(self, word: str) -> bool:
        if self._words is None:
            self._words = tree_identifiers(self.git_dir, self.commit)
        return word in self._words


def _llm(
    settings: LlmSettings,
    request: ExtractRequest,
    git_dir: Path,
    commit: str,
    choice: AnalyzerChoice | None = None,
) -> LlmAnalyzer:
    from pipeline.analyze.llm import LlmAnalyzer

    return LlmAnalyzer(
        settings,
        request.cache_dir,
        fallback=explain,
        identifier_exists=TreeWords(git_dir, commit),
        keyword_exists=functools.cache(functools.partial(word_in_code, git_dir, commit)),
        retry_failed=choice.retry_failed if choice else False,
        batch=choice.batch if choice else False,
    )


class _LlmRun:
    """The LLM analyzer with a progress bar, and its summary on stderr at the end."""

    name: Literal["static", "llm"] = "llm"

    def __init__(self, analyzer: LlmAnalyzer) -> None:
        self.analyzer = analyzer

    def analyze(self, contexts: Sequence[SiteContext]) -> Iterator[Analysis]:
        """The wrapped analyzer's answers, with progress."""
        with Progress(len(contexts), "explain") as bar:
            for analysis in self.analyzer.analyze(contexts):
                bar.advance()
                yield analysis
        print(self.analyzer.summary.format(), file=sys.stderr)

    def stats(self) -> dict[str, Any]:
        """The run's model spend, for the manifest's counts."""
        summary = self.analyzer.summary
        stats: dict[str, Any] = {
            "model": summary.model,
            "requests": summary.requests,
            "cacheHits": summary.cache_hits,
            "promptTokens": summary.prompt_tokens,
            "completionTokens": summary.completion_tokens,
            "cachedTokens": summary.cached_tokens,
            "costUsd": summary.cost_usd,
            "failures": summary.failures,
            "ungrounded": summary.ungrounded,
        }
        if summary.stopped:
            stats["stopped"] = summary.stopped
        return stats
