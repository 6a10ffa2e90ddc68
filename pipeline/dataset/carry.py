"""Carrying unchanged files over from the previous version: no scan, no context, no analyzer.

A file whose blob is the one the previous version was made from, read by the same
extractor, holds the same sites with the same ids, lines and windows. If the
`Result` aliases its sites look up still resolve as they did (error classes are
resolved across files), each of its records is the previous one as it is, its
`analyzedSha` and `githubUrl` included, and its record file is kept (SPEC 7). A
regeneration then pays for the changed files alone.

The manifest keeps what this needs per scanned file (`files`: blob id, record count,
the aliases it declares and those its sites look up, `use anyhow::Result`, parse
errors, the `#[cfg(test)] mod x;` it declares, whether a parent declares it test
code, its `#![cfg(..)]` and the `cfg` of the `mod x;` lines it writes), so no old commit
and no cache is read. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from typing import Any

from pipeline.core.sitetypes import ModuleLines, TypeAlias
from pipeline.dataset.previous import Previous
from pipeline.languages import language_of
from pipeline.scan.collect import module_gates
from pipeline.scan.context import AliasTable, alias_lookup
from pipeline.scan.pool import RepoScan
from pipeline.source.repository import TreeEntry


@dataclass(frozen=True)
class Carried:
    """The records of the carried files at the new commit."""

    paths: frozenset[str]
    lines: dict[str, str]  # record id -> compact JSON, as `records.jsonl` holds it
    provenance: dict[str, Mapping[str, Any]]  # record id -> the previous provenance, as is

    def kinds(self) -> list[str]:
        return [str(p.get("kind")) for p in self.provenance.values()]


NOTHING = Carried(frozenset(), {}, {})
# The shape of the manifest's file summaries: a dataset written with another one carries
# nothing over (its summaries lack what the carry-over now checks).
SUMMARY_FORMAT = 4  # 4: `fileGates`, `gatedModules`


def file_summaries(entries: Iterable[TreeEntry], scanned: RepoScan) -> dict[str, dict[str, Any]]:
    """What the manifest keeps of each scanned file, for the next run's carry-over."""
    summaries: dict[str, dict[str, Any]] = {}
    for entry in entries:
        scan = scanned.scans.get(entry.path)
        if scan is None:
            continue
        summary: dict[str, Any] = {"blob": entry.blob_sha, "records": len(scan.sites)}
        if scan.aliases:
            summary["aliases"] = [[a.name, a.error_type] for a in scan.aliases]
        if scan.uses_anyhow_result:
            summary["anyhowResult"] = True
        if scan.result_from:
            summary["resultFrom"] = scan.result_from
        if scan.own_macros:
            summary["ownMacros"] = list(scan.own_macros)
        if scan.anyhow_macros:
            summary["anyhowMacros"] = list(scan.anyhow_macros)
        if scan.parse_errors:
            summary["parseErrors"] = scan.parse_errors
        lookups = sorted({name for site in scan.sites if (name := alias_lookup(site))})
        if lookups:
            summary["lookups"] = lookups
        if scan.test_modules:
            summary["testModules"] = list(scan.test_modules)
        if scan.file_gates:
            summary["fileGates"] = list(scan.file_gates)
        if scan.gated_modules:
            summary["gatedModules"] = [[m, list(gates)] for m, gates in scan.gated_modules]
        summaries[entry.path] = summary
    return summaries


def test_prefixes(files: Mapping[str, Mapping[str, Any]]) -> tuple[str, ...]:
    """Path prefixes of the test modules that the files declare (`#[cfg(test)] mod x;`).

    Taken from every file's summary, carried or scanned: a parent carried over still
    makes its unchanged test module test code (SPEC 3).
    """
    return tuple(
        prefix
        for path in sorted(files)
        if (modules := files[path].get("testModules"))
        for prefix in language_of(path).test_module_paths(path, [str(m) for m in modules])
    )


def mark_test_code(
    files: Mapping[str, Mapping[str, Any]], prefixes: tuple[str, ...]
) -> dict[str, Mapping[str, Any]]:
    """The summaries, each saying whether a parent declares its file test code (no records)."""
    marked: dict[str, Mapping[str, Any]] = {}
    for path, summary in files.items():
        test = path.startswith(prefixes)
        if bool(summary.get("testCode")) != test:
            summary = {k: v for k, v in summary.items() if k != "testCode"}
            if test:
                summary["testCode"] = True
        marked[path] = summary
    return marked


def test_code_changed(
    previous: Previous, carried: Set[str], prefixes: tuple[str, ...]
) -> frozenset[str]:
    """Carried files that a parent declares test code now and did not then, or the reverse.

    Their records appear or go although their blob is unchanged: scanned again instead.
    """
    return frozenset(
        path
        for path in carried
        if path.startswith(prefixes) != bool(previous.files[path].get("testCode"))
    )


def summary_gates(files: Mapping[str, Mapping[str, Any]]) -> dict[str, tuple[str, ...]]:
    """Each file's build gates from the `mod` lines above it (`collect.module_gates`), read
    from every file's summary, carried or scanned (a carried parent's `#[cfg(windows)] mod
    x;` still gates a changed `x.rs`). The manifest is not trusted: a value of another
    shape is no gate. A carried file whose gates changed keeps its records: SPEC 7 keeps
    an explanation while its content hash (message, pattern, window) is the same."""
    return module_gates(
        {
            path: (_strings(summary.get("fileGates")), _module_lines(summary.get("gatedModules")))
            for path, summary in files.items()
        }
    )


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _module_lines(value: Any) -> ModuleLines:
    if not isinstance(value, list):
        return ()
    rows = (row for row in value if isinstance(row, list) and len(row) == 2)
    return tuple((str(module), _strings(gates)) for module, gates in rows)


def summary_aliases(files: Mapping[str, Mapping[str, Any]]) -> AliasTable:
    """The alias table that the summaries of `files` describe."""
    return AliasTable.build(
        (
            (path, TypeAlias(name, error))
            for path, summary in files.items()
            for name, error in summary.get("aliases", ())
        ),
        (path for path, summary in files.items() if summary.get("anyhowResult")),
        {
            path: tuple(summary["ownMacros"])
            for path, summary in files.items()
            if summary.get("ownMacros")
        },
        {
            path: str(summary["resultFrom"])
            for path, summary in files.items()
            if summary.get("resultFrom")
        },
        anyhow_macros={
            path: tuple(summary["anyhowMacros"])
            for path, summary in files.items()
            if summary.get("anyhowMacros")
        },
    )


def carriable(
    previous: Previous | None,
    entries: Iterable[TreeEntry],
    settings: Mapping[str, Any],
    analyzer: str,
    version: str | None,
) -> frozenset[str]:
    """The listed files whose every previous record can be carried over unparsed.

    Same blob, same extractor and file selection, as many records as the file gave
    then (a damaged `records.jsonl` is not copied short), and each record's explanation
    one that this run would reuse (same analyzer and prompt version, status ok).
    """
    if previous is None or not previous.files:
        return frozenset()
    if any(previous.settings.get(key) != value for key, value in settings.items()):
        return frozenset()
    by_file = previous.ids_by_file
    provenance = previous.provenance.raw
    paths = set()
    for entry in entries:
        summary = previous.files.get(entry.path)
        if summary is None or summary.get("blob") != entry.blob_sha:
            continue
        ids = by_file.get(entry.path, [])
        published = 0 if summary.get("testCode") else summary.get("records")
        if len(ids) != published or not all(
            explanation_reusable(provenance.get(rid), analyzer, version) for rid in ids
        ):
            continue
        paths.add(entry.path)
    return frozenset(paths)


def explanation_reusable(
    provenance: Mapping[str, Any] | None, analyzer: str, version: str | None
) -> bool:
    """Whether a record's explanation (its provenance, as in the manifest) is one this run
    would write: the same analyzer and prompt version, and not a failure."""
    return (
        provenance is not None
        and provenance.get("analyzer") == analyzer
        and provenance.get("status") == "ok"
        and (version is None or provenance.get("promptVersion") == version)
    )


def stale_classes(previous: Previous, carried: Set[str], table: AliasTable) -> frozenset[str]:
    """Carried files in which an alias a site looks up now resolves otherwise.

    Their records' `errorClass` was resolved against the previous table; those files
    are scanned again instead (an alias added or removed elsewhere, `type Result`).
    """
    before = summary_aliases(previous.files)
    return frozenset(
        path
        for path in carried
        if any(
            before.resolve(name, path) != table.resolve(name, path)
            for name in previous.files[path].get("lookups", ())
        )
    )


def carry(previous: Previous, paths: Set[str]) -> Carried:
    """The previous records of `paths`, as they are (SPEC 7: same blob, same record).

    Their `analyzedSha` and `githubUrl` still name the commit at which they were last
    located, whose code at those lines is this commit's; their files are not rewritten.
    """
    lines: dict[str, str] = {}
    provenance: dict[str, Mapping[str, Any]] = {}
    for rid in (rid for path in paths for rid in previous.ids_by_file.get(path, ())):
        line = previous.records.raw[rid]
        if not (
            line.startswith(f'{{"id":"{rid}","repo":') and line.endswith(',"schemaVersion":2}')
        ):
            raise ValueError(
                f"record {rid} of the previous version is not one errdoc wrote; "
                "run `errdoc validate` on the dataset, or extract into a fresh OUT"
            )
        lines[rid] = line
        provenance[rid] = previous.provenance.raw[rid]
    return Carried(frozenset(paths), lines, provenance)
