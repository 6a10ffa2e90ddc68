"""The static explanation of the one site a Rust source holds, as a repository file."""

from __future__ import annotations

from pipeline.analyze.static import explain
from pipeline.core.model import Explanation, Record
from pipeline.dataset.ids import assign_ids
from pipeline.languages import language_of
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan


def explained(source: str, path: str = "src/x.rs") -> Explanation:
    """The static explanation of the one site of `source`, read as the file `path`."""
    (explanation,) = explained_all(source, path).values()
    return explanation


def explained_all(source: str, path: str = "src/x.rs") -> dict[str, Explanation]:
    """The static explanation of each site of `source` (read as the file `path`), by message."""
    scan = find_sites(path, source.encode())
    contexts = build_contexts("acme/w", "ab" * 20, RepoScan(scans={path: scan}))
    return {c.site.message: explain(c) for c in contexts}


def republished(source: str, path: str) -> tuple[list[str], list[str], int]:
    """A dataset of `source`'s sites as an earlier version wrote it (each record's pattern
    its `pattern_identity`), its sites found again: (the published ids, the ids assigned,
    how many patterns the earlier version wrote otherwise)."""
    scan = find_sites(path, source.encode())
    contexts = build_contexts("o/r", "ab" * 20, RepoScan(scans={path: scan}))
    language = language_of(path)
    previous = {}
    for n, c in enumerate(contexts):
        rid = f"{n:016x}"
        previous[rid] = Record.model_construct(
            id=rid, filePath=c.site.file_path, lineNumber=c.site.line,
            messagePattern=language.pattern_identity(c.message_pattern),
            sourceCode=c.window, sourceCodeStart=c.window_start,
        )  # fmt: skip
    rewritten = sum(
        r.messagePattern != c.message_pattern
        for r, c in zip(previous.values(), contexts, strict=True)
    )
    found = assign_ids(contexts, previous, {}, set(previous), {path})
    return list(previous), [c.record_id for c in found], rewritten
