"""The index stage of a run: index every file (cached per blob), build the call graph, and
give each site its `Reach`. `ERRDOC_NO_INDEX=1` turns it off (records are the same either way;
only the dataset's `reach.json` and the explanations that use a path differ)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipeline.core.reach import CallerPath, Reach, reach_to_json
from pipeline.languages import INDEX_VERSION
from pipeline.scan.callerpaths import (
    SiteSpec,
    reaches_of,
    spec_of,
)
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.context import SiteContext
from pipeline.scan.entrypoints import build_graph
from pipeline.scan.indexcache import index_entries
from pipeline.source.repository import TreeEntry

REACH_FORMAT = 1


def index_enabled() -> bool:
    """False when `ERRDOC_NO_INDEX` is set to anything but `0` or empty."""
    return os.environ.get("ERRDOC_NO_INDEX", "") in ("", "0")


@dataclass
class ReachStage:
    """The graph of one commit and the reach of every record, by record id."""

    graph: CallGraph
    reaches: dict[str, Reach] = field(default_factory=dict)
    _memo: dict[int, tuple[tuple[CallerPath, ...], int]] = field(default_factory=dict)

    def contexts(self, contexts: Sequence[SiteContext]) -> list[SiteContext]:
        """The contexts with their reach filled in (and remembered for `reach.json`)."""
        self.sites(spec_of(c) for c in contexts)
        return [replace(c, reach=self.reaches.get(c.record_id)) for c in contexts]

    def sites(self, specs: Iterable[SiteSpec]) -> None:
        """The reach of sites scanned at this commit, remembered by record id."""
        self.reaches.update(reaches_of(specs, self.graph, self._memo))

    def carried(
        self, lines: Mapping[str, str], provenance: Mapping[str, Mapping[str, Any]]
    ) -> None:
        """The reach of records carried over unparsed, from their record and provenance."""
        self.sites(carried_specs(lines, provenance))

    def document(self, sha: str) -> dict[str, Any]:
        """The body of `reach.json`."""
        shared: dict[int, Any] = {}
        return {
            "format": REACH_FORMAT,
            "index": INDEX_VERSION,
            "sha": sha,
            "records": {
                rid: reach_to_json(self.reaches[rid], shared) for rid in sorted(self.reaches)
            },
        }


def build_stage(
    git_dir: Path,
    entries: Sequence[TreeEntry],
    cache_dir: Path,
    jobs: int | None = None,
    advance: Callable[[int], None] | None = None,
) -> ReachStage | None:
    """Index the commit's files and build its call graph; None when the index is turned off.

    `advance(n)` is told of each n files indexed (default: a progress bar of its own)."""
    if not index_enabled():
        return None
    indexes = index_entries(git_dir, entries, cache_dir, jobs, advance)
    return ReachStage(build_graph(indexes, jobs))


def carried_specs(
    lines: Mapping[str, str], provenance: Mapping[str, Mapping[str, Any]]
) -> list[SiteSpec]:
    """What the reach of records carried over unparsed depends on, from their record line
    and provenance (the conditions' texts without their `kind: ` prefix)."""
    specs = []
    for rid, line in lines.items():
        record = json.loads(line)
        conditions = tuple(
            str(c).split(": ", 1)[-1] for c in provenance.get(rid, {}).get("conditions", ())
        )
        klass, path = record.get("errorClass"), str(record.get("filePath"))
        specs.append(SiteSpec(rid, klass, path, int(record.get("lineNumber", 0)), conditions))
    return specs
