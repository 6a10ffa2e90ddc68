"""The `--json` reports of extract and regenerate (and each repository of regenerate-all), camelCase."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the run's modules load with the commands that use them
    from pipeline.dataset.extract import ExtractResult
    from pipeline.versions.regenerate import Regeneration


def run_json(result: ExtractResult) -> dict[str, Any]:
    """What one extraction published (or why it published nothing)."""
    return {
        "published": result.published,
        "root": str(result.root),
        "sha": result.sha,
        "datasetVersion": result.version,
        "counts": dict(result.counts),
        "modelFailures": result.failed,
        "modelFailure": result.failure,
        "messages": list(result.messages),
    }


def regeneration_json(run: Regeneration) -> dict[str, Any]:
    """What one regeneration did: the commits, the diff's counts, the model's bill."""
    return {
        "repo": run.repo,
        "oldSha": run.old_sha,
        "newSha": run.new_sha,
        "summary": asdict(run.summary) if run.summary is not None else None,
        "requests": run.requests,
        "costUsd": run.cost_usd,
        "run": run_json(run.result) if run.result is not None else None,
    }
