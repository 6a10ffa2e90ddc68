"""The static explanation of the one site a Rust source holds, as a repository file."""

from __future__ import annotations

from pipeline.analyze.static import explain
from pipeline.core.model import Explanation
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
