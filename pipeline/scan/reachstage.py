"""The index stage of a run: index every file (cached per blob) and build the call graph;
`callerpaths` gives each site its `Reach` from it. `ERRDOC_NO_INDEX=1` turns it off (records
are the same either way; only the dataset's `reach.json` and the explanations that use a
path differ)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.languages import INDEX_VERSION
from pipeline.scan.callerpaths import SiteSpec
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypatterns import EntryPattern
from pipeline.scan.entrypoints import build_graph
from pipeline.scan.indexcache import index_entries
from pipeline.source.repository import TreeEntry

REACH_FORMAT = 1


def index_enabled() -> bool:
    """False when `ERRDOC_NO_INDEX` is set to anything but `0` or empty."""
    return os.environ.get("ERRDOC_NO_INDEX", "") in ("", "0")


def reach_head(sha: str) -> dict[str, Any]:
    """What `reach.json` says of itself before its records."""
    return {"format": REACH_FORMAT, "index": INDEX_VERSION, "sha": sha}


def index_graph(
    git_dir: Path,
    entries: Sequence[TreeEntry],
    cache_dir: Path,
    jobs: int | None = None,
    advance: Callable[[int], None] | None = None,
    patterns: Sequence[EntryPattern] = (),
) -> CallGraph | None:
    """Index the commit's files and build its call graph; None when the index is turned off.

    `advance(n)` is told of each n files indexed (default: a progress bar of its own)."""
    if not index_enabled():
        return None
    indexes = index_entries(git_dir, entries, cache_dir, jobs, advance)
    return build_graph(indexes, jobs, patterns)


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
