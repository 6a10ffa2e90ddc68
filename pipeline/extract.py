"""One run: source -> scan -> contexts -> explanations -> a published dataset version."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.analyze import Analysis, Analyzer, SiteContext
from pipeline.analyze.static import STATIC_VERSION, StaticAnalyzer
from pipeline.collect import (  # build_contexts, counts_of: re-exported for callers of a run
    ExtractRequest as ExtractRequest,
)
from pipeline.collect import build_contexts as build_contexts
from pipeline.collect import counts_of as counts_of
from pipeline.collect import scan_commit as scan_commit
from pipeline.lock import exclusive
from pipeline.model import Provenance, Record, Retired
from pipeline.records import build_record, relocated
from pipeline.store import Previous, Publication, dataset_dir, load_previous, new_version, publish


@dataclass
class ExtractResult:
    """What a run did."""

    root: Path
    sha: str
    version: str | None
    counts: dict[str, Any]
    failed: int = 0
    published: bool = True
    messages: list[str] = field(default_factory=list)
    previous: Previous | None = None
    records: list[Record] = field(default_factory=list)
    failure: str | None = None  # the most common reason the model failed


AnalyzerFactory = Callable[[Sequence[SiteContext]], Analyzer]


def reusable(
    context: SiteContext, previous: Previous | None, analyzer: str, version: str | None
) -> bool:
    """A site whose content is unchanged keeps its explanation: no analyzer call."""
    if previous is None:
        return False
    old = previous.provenance.get(context.record_id)
    return (
        old is not None
        and context.record_id in previous.records
        and old.contentHash == context.content_hash
        and old.analyzer == analyzer
        and old.status == "ok"
        and (version is None or old.promptVersion == version)
    )


def run_extract(
    request: ExtractRequest,
    make_analyzer: AnalyzerFactory | None = None,
    analyzer_name: str = "static",
    analyzer_version: str | None = STATIC_VERSION,
) -> ExtractResult:
    """Extract, explain and publish one repository at one commit."""
    root = dataset_dir(request.out, request.repo)
    sha, scanned, listed = scan_commit(request)
    contexts = build_contexts(request.repo, sha, scanned)
    counts = counts_of(scanned, contexts, listed)
    if listed == 0:
        message = f"no .rs files at {sha[:10]}" + (
            " match INCLUDE/EXCLUDE" if request.include or request.exclude else ""
        )
        return ExtractResult(
            root, sha, None, counts, published=False, messages=[f"{message}; nothing to extract"]
        )
    with exclusive(root / ".lock", str(root)):
        return _explain_and_publish(
            request, root, sha, contexts, counts, make_analyzer, analyzer_name, analyzer_version
        )


def _explain_and_publish(
    request: ExtractRequest,
    root: Path,
    sha: str,
    contexts: list[SiteContext],
    counts: dict[str, Any],
    make_analyzer: AnalyzerFactory | None,
    analyzer_name: str,
    analyzer_version: str | None,
) -> ExtractResult:
    previous = load_previous(root)
    version = new_version()
    fresh = [c for c in contexts if not reusable(c, previous, analyzer_name, analyzer_version)]
    analyzer = make_analyzer(fresh) if make_analyzer is not None else StaticAnalyzer()
    analyses = {a.record_id: a for a in analyzer.analyze(fresh)}
    stats = getattr(analyzer, "stats", None)
    if callable(stats):
        counts["llm"] = stats()
    records, provenance = _assemble(contexts, analyses, previous, version)
    retired = _retire(previous, {r.id for r in records}, sha)
    reasons = Counter(p.reason or "unknown" for p in provenance.values() if p.status == "failed")
    failed = sum(reasons.values())
    counts.update(failed=failed, retired=len(retired), reused=len(contexts) - len(fresh))
    extra = {
        "source": request.source,
        "include": list(request.include),
        "exclude": list(request.exclude),
    }
    publication = Publication(
        request.repo, sha, version, records, provenance, counts, retired, extra
    )
    publish(root, publication, previous)
    return ExtractResult(
        root,
        sha,
        version,
        counts,
        failed=failed,
        previous=previous,
        records=records,
        failure=reasons.most_common(1)[0][0] if reasons else None,
    )


def _assemble(
    contexts: Iterable[SiteContext],
    analyses: dict[str, Analysis],
    previous: Previous | None,
    now: str,
) -> tuple[list[Record], dict[str, Provenance]]:
    records: list[Record] = []
    provenance: dict[str, Provenance] = {}
    for context in contexts:
        analysis = analyses.get(context.record_id)
        old_record = previous.records.get(context.record_id) if previous else None
        old_prov = previous.provenance.get(context.record_id) if previous else None
        unchanged = old_prov is not None and old_prov.contentHash == context.content_hash
        changed_at = old_record.contentChangedAt if unchanged and old_record else now
        if analysis is None:  # reused: the previous explanation, timestamps and provenance stand
            assert old_record is not None and old_prov is not None
            records.append(relocated(old_record, context))
            provenance[context.record_id] = old_prov.model_copy(update={"kind": context.site.kind})
            continue
        records.append(build_record(context, analysis.explanation, now, changed_at))
        provenance[context.record_id] = Provenance(
            analyzer=analysis.analyzer,
            status=analysis.status,
            reason=analysis.reason,
            model=analysis.model,
            promptVersion=analysis.prompt_version,
            contentHash=context.content_hash,
            usage=analysis.usage,
            kind=context.site.kind,
            grounded=analysis.grounded,
            enclosingFn=context.site.facts.enclosing_fn,
            conditions=[f"{c.kind}: {c.text}" for c in context.site.facts.conditions],
        )
    return records, provenance


def _retire(previous: Previous | None, current: set[str], sha: str) -> dict[str, Retired]:
    if previous is None:
        return {}
    retired = {rid: r for rid, r in previous.retired.items() if rid not in current}
    for rid, record in previous.records.items():
        if rid not in current:
            retired[rid] = Retired(
                since=sha,
                lastVersion=previous.version,
                errorMessage=record.errorMessage,
                filePath=record.filePath,
            )
    return retired


def warn(message: str) -> None:
    """A warning line on stderr."""
    print(f"warning: {message}", file=sys.stderr)
