"""A run's records and provenance, each serialised as soon as its analysis arrives."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Set
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.analyze import Analysis, SiteContext
from pipeline.core.model import Provenance
from pipeline.core.redact import redact
from pipeline.dataset.previous import Previous
from pipeline.dataset.records import build_record, relocated
from pipeline.dataset.spill import Spilled
from pipeline.dataset.store import compact_json, compact_record
from pipeline.scan.callerpaths import made_by
from pipeline.scan.valueflow import site_needs


@dataclass
class Made:
    """The run's records as they are published: compact JSON lines on disk, never models.

    A record model takes about 6 KB and its line 2 KB: 200,000 tiny files held as
    models took 3 GB (issue 16).
    """

    lines: Spilled  # record lines by id
    provenance: Spilled  # compact provenance by id
    reasons: Counter[str] = field(default_factory=Counter)  # why the failed ones failed
    analyzed: int = 0
    same: set[str] = field(default_factory=set)  # ids whose line is the previous version's


def assemble(
    contexts: Iterable[SiteContext],
    fresh: Set[str],
    analyses: Iterable[Analysis],
    previous: Previous | None,
    now: str,
    spill: Path,
) -> Made:
    """Each context's record and provenance, serialised as soon as its analysis arrives.

    `analyses` is consumed lazily (the static analyzer's generator explains one site at
    a time); one that arrives out of order (a model's, in completion order) waits.
    """
    made = Made(Spilled(spill), Spilled(spill))
    stream, waiting = iter(analyses), dict[str, Analysis]()
    for context in contexts:
        analysis = _analysis_of(context.record_id, fresh, stream, waiting)
        old_record = previous.records.get(context.record_id) if previous else None
        old_prov = previous.provenance.get(context.record_id) if previous else None
        unchanged = old_prov is not None and old_prov.contentHash == context.content_hash
        changed_at = old_record.contentChangedAt if unchanged and old_record else now
        if analysis is None:  # reused: the previous explanation, timestamps and provenance stand
            assert old_record is not None and old_prov is not None
            record = relocated(old_record, context)
            provenance = old_prov.model_copy(
                update={
                    "kind": context.site.kind,
                    "rebound": list(context.site.facts.rebound),
                    "madeBy": made_by(context.site),
                    "needs": site_needs(context.site),
                }
            )
        else:
            made.analyzed += 1
            record = build_record(context, analysis.explanation, now, changed_at)
            if unchanged and old_record is not None:
                # explained again (another analyzer version) to the same text: the record
                # stays as it was, its `analyzedAt` and file too (SPEC 7)
                kept = relocated(old_record, context)
                if record.model_copy(update={"analyzedAt": kept.analyzedAt}) == kept:
                    record = kept
            provenance = Provenance(
                analyzer=analysis.analyzer,
                status=analysis.status,
                reason=redact(analysis.reason) if analysis.reason else None,
                model=analysis.model,
                promptVersion=analysis.prompt_version,
                contentHash=context.content_hash,
                usage=analysis.usage,
                kind=context.site.kind,
                grounded=analysis.grounded,
                enclosingFn=context.site.facts.enclosing_fn,
                conditions=[f"{c.kind}: {c.text}" for c in context.site.facts.conditions],
                rebound=list(context.site.facts.rebound),
                madeBy=made_by(context.site),
                needs=site_needs(context.site),
            )
        line = compact_record(record)
        if previous is not None and previous.records.raw.get(record.id) == line:
            made.same.add(record.id)  # its published file stays (`Publication.kept`)
        made.lines.put(record.id, line)
        made.provenance.put(record.id, compact_json(provenance.model_dump(mode="json")))
        if provenance.status == "failed":
            made.reasons[provenance.reason or "unknown"] += 1
    for _ in stream:  # run the analyzer to its end (its counts, its progress bar)
        pass
    made.lines.seal()
    made.provenance.seal()
    return made


def _analysis_of(
    rid: str, fresh: Set[str], stream: Iterator[Analysis], waiting: dict[str, Analysis]
) -> Analysis | None:
    """The analysis of a fresh site, read from `stream` until it comes; None for the others."""
    if rid not in fresh:
        return None
    while rid not in waiting:
        analysis = next(stream, None)
        if analysis is None:
            return None
        waiting[analysis.record_id] = analysis
    return waiting.pop(rid)
