"""`regenerate`: bring a published dataset to the newest commit of a ref, paying for what changed.

Unchanged blobs come from the scan cache, unchanged sites keep their explanation
(`extract.reusable`), so the work and the model calls follow the change. The
previous commit is never needed: after a force-push that dropped it, the run is
a full extraction that still reuses both caches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pipeline.dataset.extract import ExtractResult, run_extract
from pipeline.dataset.previous import read_manifest
from pipeline.dataset.runner import analyzer_factory
from pipeline.dataset.store import dataset_dir
from pipeline.scan.collect import AnalyzerChoice, ExtractRequest, open_commit
from pipeline.versions.diff import Summary, diff_records


@dataclass(frozen=True)
class Regeneration:
    """What one regeneration did."""

    repo: str
    old_sha: str | None
    new_sha: str
    summary: Summary | None  # None when the dataset was already at the commit
    result: ExtractResult | None
    requests: int = 0
    cost_usd: float | None = None

    def line(self) -> str:
        """One line for the scheduled job's summary."""
        old = self.old_sha[:10] if self.old_sha else "(none)"
        if self.result is not None and not self.result.published:
            return f"{self.repo}: nothing published at {self.new_sha[:10]}"
        if self.summary is None:
            return f"{self.repo}: already at {self.new_sha[:10]}; nothing to do"
        s = self.summary
        cost = f", ${self.cost_usd:.4f}" if self.cost_usd is not None else ""
        return (
            f"{self.repo}: {old}..{self.new_sha[:10]} +{s.added} -{s.removed} ~{s.changed} "
            f"moved {s.moved}, unchanged {s.unchanged}; model requests {self.requests}{cost}"
        )


def remembered(request: ExtractRequest, manifest: Mapping[str, Any] | None) -> ExtractRequest:
    """Fill SOURCE/INCLUDE/EXCLUDE left unset from what the dataset was made with."""
    if manifest is None:
        return request
    source = manifest.get("source")
    return replace(  # a hand-edited manifest's wrong types are ignored, not run with
        request,
        source=request.source or (source if isinstance(source, str) else None),
        include=request.include or _strings(manifest.get("include")),
        exclude=request.exclude or _strings(manifest.get("exclude")),
    )


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def regenerate(request: ExtractRequest, choice: AnalyzerChoice) -> Regeneration:
    """Regenerate one repository's dataset at `request.rev` (a branch, tag or sha)."""
    root = dataset_dir(request.out, request.repo)
    manifest = read_manifest(root) if (root / "manifest.json").exists() else None
    request = remembered(request, manifest)
    old_sha = manifest["sha"] if manifest else None
    commit = open_commit(request)  # fetches a URL source, once for the whole run
    new_sha = commit[1]
    if new_sha == old_sha and choice.name == _analyzer_of(manifest) and not request.force:
        return Regeneration(request.repo, old_sha, new_sha, None, None)
    make, name, version = analyzer_factory(choice, request)
    if make is None:
        return Regeneration(request.repo, old_sha, new_sha, None, None)
    summaries: list[Summary] = []  # made while the version is published: its wait for the
    # index's `reach.json` (0.2 s of risingwave's 50-commit regeneration)
    result = run_extract(
        replace(request, rev=new_sha), make, name, version, commit,
        lambda made: summaries.append(_summary(made)),
    )  # fmt: skip
    summary = summaries[0] if result.published and summaries else None
    requests, cost = _model_spend(result)
    return Regeneration(request.repo, old_sha, new_sha, summary, result, requests, cost)


def _summary(result: ExtractResult) -> Summary:
    """The diff against the previous version; carried records are unchanged by construction."""
    previous = result.previous
    old = (
        [previous.records[rid] for rid in previous.records.keys() - result.carried]
        if previous
        else []
    )
    summary = diff_records(old, result.records).summary
    return replace(summary, unchanged=summary.unchanged + len(result.carried))


def _analyzer_of(manifest: Mapping[str, Any] | None) -> str | None:
    if manifest is None:
        return None
    analyzers = {p.get("analyzer") for p in manifest.get("records", {}).values()}
    return analyzers.pop() if len(analyzers) == 1 else None


def _model_spend(result: ExtractResult) -> tuple[int, float | None]:
    stats: dict[str, Any] = result.counts.get("llm", {})
    return int(stats.get("requests", 0)), stats.get("costUsd")
