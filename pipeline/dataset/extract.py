"""One run: source -> scan -> contexts -> explanations -> a published dataset version."""

from __future__ import annotations

import contextlib
import shutil
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipeline.analyze import Analyzer, SiteContext
from pipeline.analyze.static import STATIC_VERSION, StaticAnalyzer, explain_apart
from pipeline.core.macros import changed_macros
from pipeline.core.model import Explanation, Record, Retired
from pipeline.core.redact import clean_error
from pipeline.core.timeline import mark
from pipeline.dataset import atomicdir
from pipeline.dataset.assemble import assemble
from pipeline.dataset.carry import (
    NOTHING,
    SUMMARY_FORMAT,
    Carried,
    carriable,
    carry,
    explanation_reusable,
    file_summaries,
    mark_test_code,
    stale_classes,
    summary_aliases,
    summary_gates,
    test_code_changed,
    test_prefixes,
)
from pipeline.dataset.ids import assign_ids
from pipeline.dataset.lock import exclusive
from pipeline.dataset.previous import MACRO_SETTINGS, Previous, line_field, load_previous
from pipeline.dataset.reachjob import Reached, ReachJob, Unlisted, carried_specs
from pipeline.dataset.records import check_code
from pipeline.dataset.store import (
    REACH_FILE,
    Publication,
    dataset_dir,
    new_version,
    prestage,
    prestage_records,
    publish,
    unstage,
)
from pipeline.languages import EXTRACTOR_VERSION, RepositoryModules
from pipeline.scan.cache import ScanCache
from pipeline.scan.callerpaths import spec_of
from pipeline.scan.collect import (
    ExtractRequest,
    build_contexts,
    compiled_only,
    counts_of,
    index_listing,
    invoking_files,
    listed_count,
    locate,
    open_commit,
    read_modules,
    scan_entries,
)
from pipeline.scan.context import AliasTable
from pipeline.scan.entrypatterns import patterns_json
from pipeline.scan.forked import beside
from pipeline.scan.pool import RepoScan, merged
from pipeline.source.repository import Listing


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
    lines: Mapping[str, str] = field(default_factory=dict)  # record lines but the carried ones
    failure: str | None = None  # the most common reason the model failed
    carried: frozenset[str] = frozenset()  # ids of the records carried over unparsed

    @property
    def records(self) -> list[Record]:
        """The records but the carried ones, parsed from their lines (held as text: issue 16)."""
        return [Record.model_validate_json(line) for line in self.lines.values()]


# Up to this many sites, static explanations are made while the index finishes (held in
# memory: ~5 KB a site); above, after it, one at a time as before.
PREPARE_LIMIT = 20_000
# The sites to explain, and the run's repository and commit (the model's answers are checked
# against the tree it read).
AnalyzerFactory = Callable[[Sequence[SiteContext], Path, str], Analyzer]


def reusable(
    context: SiteContext, previous: Previous | None, analyzer: str, version: str | None
) -> bool:
    """A site whose content (message, pattern, window) is unchanged keeps its explanation,
    unless what its statement does changed (its `errorType`: the same `polars_bail!(..)`
    returning an error, then panicking, once the macro's definition changed).

    SPEC 7: no analyzer call, `analyzedAt` and `contentChangedAt` kept. The static
    explanation states nothing that an edit outside the window changes but the
    conditions above it, which SPEC 7 leaves as they were explained.
    """
    if previous is None:
        return False
    old = previous.provenance.raw.get(context.record_id)
    line = previous.records.raw.get(context.record_id)
    return (
        old is not None
        and line is not None
        and old.get("contentHash") == context.content_hash
        and explanation_reusable(old, analyzer, version)
        and _error_type(line) == context.error_type
    )


def _error_type(line: Any) -> Any:
    """A previous record's `errorType`, from its line (or its JSON object)."""
    return line.get("errorType") if isinstance(line, Mapping) else line_field(line, "errorType")


def run_extract(
    request: ExtractRequest,
    make_analyzer: AnalyzerFactory | None = None,
    analyzer_name: str = "static",
    analyzer_version: str | None = STATIC_VERSION,
    commit: tuple[Path, str] | None = None,
    while_publishing: Callable[[ExtractResult], None] | None = None,
) -> ExtractResult:
    """Extract, explain and publish one repository at one commit (`commit`: the source
    already opened and resolved by the caller; `while_publishing`: called in a thread
    with what the run will return, once it is known, while the version is published:
    mostly a wait for the index's `reach.json`)."""
    root = dataset_dir(request.out, request.repo)
    mark("start")
    git_dir, sha = commit or open_commit(request)
    # The index runs beside the rest of the run (`reachjob`): started as soon as the commit
    # is known, while this process is small (a fork copies what the child then touches) and
    # before any reader is opened; it lists its files itself.
    job = ReachJob.start(
        git_dir, Unlisted(sha, tuple(request.exclude)), request.cache_dir, request.jobs,
        request.entries, request.repo,
    )  # fmt: skip
    try:
        return _listed_and_run(
            request, root, (git_dir, sha), job, make_analyzer, analyzer_name,
            analyzer_version, while_publishing,
        )  # fmt: skip
    finally:
        if job is not None:
            job.close()


def _listed_and_run(
    request: ExtractRequest,
    root: Path,
    commit: tuple[Path, str],
    job: ReachJob | None,
    make_analyzer: AnalyzerFactory | None,
    analyzer_name: str,
    analyzer_version: str | None,
    while_publishing: Callable[[ExtractResult], None] | None,
) -> ExtractResult:
    """List the commit's files and run, the index already started in `job`."""
    git_dir, sha, listing = locate(request, commit)
    if not listing.entries:
        scanned = RepoScan(scans={}, skipped=Counter(s.reason for s in listing.skipped))
        message = f"no .rs files at {sha[:10]}" + (
            " match INCLUDE/EXCLUDE" if request.include or request.exclude else ""
        )
        return ExtractResult(
            root,
            sha,
            None,
            counts_of(scanned, [], listed_count(listing)),
            published=False,
            messages=[f"{message}; nothing to extract"],
        )
    whole = index_listing(request, git_dir, sha, listing)
    modules = read_modules(git_dir, whole)
    # a file no build compiles (a fixture directory of source its tests read) has no sites
    listing = compiled_only(git_dir, sha, listing, modules, whole)
    return _run_locked(
        request, root, (git_dir, sha, listing), job, make_analyzer, analyzer_name,
        analyzer_version, while_publishing, modules,
    )  # fmt: skip


def _run_locked(
    request: ExtractRequest,
    root: Path,
    commit: tuple[Path, str, Listing],
    job: ReachJob | None,
    make_analyzer: AnalyzerFactory | None,
    analyzer_name: str,
    analyzer_version: str | None,
    while_publishing: Callable[[ExtractResult], None] | None = None,
    modules: RepositoryModules | None = None,
) -> ExtractResult:
    """The run under the dataset's lock, its index running in `job`; `modules`: what the
    build manifests call the files."""
    git_dir, sha, listing = commit
    with exclusive(root / ".lock", str(root)):
        previous = load_previous(root)
        settings = _settings(request, listing)
        if not request.force and _current(previous, sha, settings, analyzer_name, analyzer_version):
            assert previous is not None
            return ExtractResult(
                root,
                sha,
                None,
                {},
                published=False,
                messages=[
                    f"the dataset is already at {sha[:10]} (version {previous.version}); "
                    "nothing published (--force publishes anyway)"
                ],
            )
        scanned, carried, files, aliases, tests, gates = _scan_or_carry(
            request, commit, previous, settings, (analyzer_name, analyzer_version)
        )
        mark("scanned")
        contexts = build_contexts(request.repo, sha, scanned, aliases, tests, modules, gates)
        mark("contexts")
        if previous is not None:
            contexts = _permanent_ids(contexts, previous, carried, listing)
        # After the ids are settled: reach.json is keyed by the ids that are published.
        reached, prepared = None, None
        # The next version's directory, claimed while the index runs (`_beside_the_index`);
        # whatever fails from here on drops it, its space given back.
        staged = prestage(root) if job is not None else None
        try:
            if job is not None and staged is not None:
                analyzer = (analyzer_name, analyzer_version)
                contexts, reached, prepared = _beside_the_index(
                    job, request, (root, staged), (contexts, carried, previous), analyzer, sha
                )
            counts = counts_of(scanned, contexts, listed_count(listing))
            _count_carried(counts, carried, previous)
            kept = {k: v for k, v in settings.items() if v is not None}  # no `entries`: no key
            extra = {**kept, "source": request.source, "files": dict(sorted(files.items()))}
            run = _Run(
                request, root, git_dir, sha, contexts, counts, carried, extra, reached, prepared,
                staged, while_publishing,
            )  # fmt: skip
            return _explain_and_publish(
                run, previous, make_analyzer, analyzer_name, analyzer_version
            )
        except BaseException:
            if staged is not None:
                unstage(staged)
            raise


def _beside_the_index(
    job: ReachJob,
    request: ExtractRequest,
    dirs: tuple[Path, Path],
    found: tuple[list[SiteContext], Carried, Previous | None],
    analyzer: tuple[str, str | None],
    sha: str,
) -> tuple[list[SiteContext], Reached, dict[str, Explanation] | None]:
    """Send the sites to the index child and, while it finds their paths, make the record
    files (the records are known, not yet their text) and explain the sites statically,
    their code fields checked (the reach adds a sentence, no code). `dirs`: the dataset's
    directory and the next version's, `prestage`d, where the child writes `reach.json`.
    Returns the sites with their reach, the reach and the explanations made.

    The record files are made in a fork, beside the explaining (with `--jobs 1`, before
    it): making a file is the kernel's time, which this process would otherwise spend
    first and then explain (risingwave's 6,400 files, 2-6 s by the minute; with the reach
    rows in one part, alternated cold runs went 13.53 -> 12.18 s, medians of 5). The fork may be lost: `publish` makes whatever
    it did not (`store.prestage_records`)."""
    (root, staged), (contexts, carried, previous) = dirs, found
    specs = [spec_of(c) for c in contexts]
    mark("sending the sites to the index")
    job.send(specs, carried_specs(carried.lines, carried.provenance), sha, staged / REACH_FILE)
    ids = [*(c.record_id for c in contexts), *carried.lines]
    prepared = None
    # nothing else touches the staged tree while the fork makes its files
    with beside(lambda: prestage_records(root, staged, ids, carried.lines), request.jobs == 1):
        if analyzer[0] == "static" and len(contexts) <= PREPARE_LIMIT and request.jobs != 1:
            prepared = {}
            for c in contexts:
                if not reusable(c, previous, *analyzer):
                    prepared[c.record_id] = explanation = explain_apart(c)
                    check_code(explanation, c.site.file_path)
    # the child ends once it has sent `reached.document()`, which publishing takes
    mark("explained, waiting for the index")
    reached = job.wait()
    mark("reach received")
    contexts = [replace(c, reach=reached.reaches.get(c.record_id)) for c in contexts]
    return contexts, reached, prepared


def _scan_or_carry(
    request: ExtractRequest,
    commit: tuple[Path, str, Listing],
    previous: Previous | None,
    settings: Mapping[str, Any],
    analyzer: tuple[str, str | None],
) -> tuple[
    RepoScan,
    Carried,
    dict[str, Mapping[str, Any]],
    AliasTable,
    tuple[str, ...],
    dict[str, tuple[str, ...]],
]:
    """Scan the files that changed since the previous version; carry the others over.

    Returns the scans, the carried records, the summary of every file of the commit
    (scanned or carried: what the manifest keeps), the alias table, the test-module
    prefixes and the files' gates from the `mod` lines above them that they give.
    """
    git_dir, sha, listing = commit
    others = {k: v for k, v in settings.items() if k not in MACRO_SETTINGS}
    keep = carriable(previous, listing.entries, others, *analyzer)
    if (
        previous is not None
        and keep
        and previous.settings.get("errorMacros") != settings["errorMacros"]
    ):
        # The error-macro table changed: a file that invokes none of the macros that changed
        # reads as it did, and is carried; one that does is scanned again.
        changed = changed_macros(
            previous.settings.get("errorMacroTable"), previous.settings.get("errorMacros"),
            listing.macros,
        )  # fmt: skip
        keep = frozenset() if changed is None else keep - invoking_files(git_dir, sha, changed)
        _adopt_scans(request, listing, previous.settings.get("errorMacros"), keep)
    blobs_before = (
        {path: str(f.get("blob")) for path, f in previous.files.items()} if previous else {}
    )
    scanned = scan_entries(request, git_dir, listing, skip=keep, previous=blobs_before)
    files: dict[str, Mapping[str, Any]] = {**file_summaries(listing.entries, scanned)}
    if previous is not None:
        files.update({path: previous.files[path] for path in keep})  # same blob: same summary
    # A stale file scanned again has the same blob, so the same summary, aliases and tests.
    tests = test_prefixes(files)
    files = mark_test_code(files, tests)
    gates = summary_gates(files)
    aliases = summary_aliases(files)
    if previous is None or not keep:
        return scanned, NOTHING, files, aliases, tests, gates
    # An alias they look up resolves otherwise now, or a parent's `#[cfg(test)] mod` changed
    # whether they are test code: scanned after all.
    stale = stale_classes(previous, keep, aliases) | test_code_changed(previous, keep, tests)
    if stale:
        keep = keep - stale
        entries = tuple(e for e in listing.entries if e.path in stale)
        again = replace(listing, entries=entries, skipped=(), manifests=())
        scanned = merged(scanned, scan_entries(request, git_dir, again))
    return scanned, carry(previous, keep), files, aliases, tests, gates


def _adopt_scans(
    request: ExtractRequest, listing: Listing, variant: object, carried: Set[str]
) -> None:
    """The carried files' scans, made with the previous table of error macros (`variant`,
    as the untrusted manifest says it), kept as scans made with this one too
    (`ScanCache.adopt`): they read the same under both."""
    blobs = [e.blob_sha for e in listing.entries if e.path in carried]
    if blobs:
        cache = ScanCache(request.cache_dir, listing.macros.digest())
        try:
            cache.adopt(variant, blobs)
        finally:
            cache.close()


def _permanent_ids(
    contexts: Sequence[SiteContext], previous: Previous, carried: Carried, listing: Listing
) -> list[SiteContext]:
    """The scanned sites with the ids of the previous records they are (SPEC 4)."""
    open_ids = previous.records.keys() - carried.lines.keys()
    provenance = previous.provenance.raw
    return assign_ids(
        contexts,
        {rid: previous.records[rid] for rid in open_ids},
        {rid: (provenance.get(rid) or {}).get("enclosingFn") for rid in open_ids},
        previous.records.keys() | previous.retired.keys(),
        {entry.path for entry in listing.entries},
    )


def _current(
    previous: Previous | None,
    sha: str,
    settings: Mapping[str, Any],
    analyzer: str,
    version: str | None,
) -> bool:
    """The previous version is what this run would publish: same commit, file selection,
    extractor, and every explanation one this run would keep (SPEC 7: publish nothing)."""
    return (
        previous is not None
        and previous.sha == sha
        and all(previous.settings.get(key) == value for key, value in settings.items())
        and all(
            explanation_reusable(p, analyzer, version) for p in previous.provenance.raw.values()
        )
    )


def _settings(request: ExtractRequest, listing: Listing) -> dict[str, Any]:
    return {
        "extractor": EXTRACTOR_VERSION,
        # the repository's own error macros: scans with others are other scans (None: none,
        # as a manifest from before them says)
        "errorMacros": listing.macros.digest(),
        "errorMacroTable": listing.macros.table(),
        "summaryFormat": SUMMARY_FORMAT,
        "include": list(request.include),
        "exclude": list(request.exclude),
        # the repository's own entry points: other paths, so another version (None: none,
        # as a manifest from before them says)
        "entries": patterns_json(request.entries),
        # files no build compiles are left out (`collect.compiled_only`): a dataset listed
        # before that rule (None) is listed again, its fixtures' records retired
        "compiledOnly": 1,
    }


def _count_carried(counts: dict[str, Any], carried: Carried, previous: Previous | None) -> None:
    """Counts of the whole commit: the carried files and their records included."""
    if not carried.paths or previous is None:
        counts["filesCarried"] = 0
        return
    counts["records"] += len(carried.lines)
    counts["filesScanned"] += len(carried.paths)
    counts["filesCarried"] = len(carried.paths)
    counts["filesWithSyntaxErrors"] += sum(
        1 for path in carried.paths if previous.files[path].get("parseErrors")
    )
    kinds = Counter(counts["sitesByKind"])
    kinds.update(carried.kinds())
    counts["sitesByKind"] = dict(sorted(kinds.items()))


@dataclass(frozen=True)
class _Run:
    """What a run found before explaining: its sites and the records carried over."""

    request: ExtractRequest
    root: Path
    git_dir: Path
    sha: str
    contexts: list[SiteContext]
    counts: dict[str, Any]
    carried: Carried
    extra: dict[str, Any]
    reach: Reached | None = None
    prepared: Mapping[str, Explanation] | None = None  # static, made before the reach came
    staged: Path | None = None  # the next version's directory, `prestage`d meanwhile
    while_publishing: Callable[[ExtractResult], None] | None = None  # `run_extract`'s


def _explain_and_publish(
    run: _Run,
    previous: Previous | None,
    make_analyzer: AnalyzerFactory | None,
    analyzer_name: str,
    analyzer_version: str | None,
) -> ExtractResult:
    version = new_version()
    contexts, counts, carried = run.contexts, run.counts, run.carried
    fresh = [c for c in contexts if not reusable(c, previous, analyzer_name, analyzer_version)]
    analyzer = (
        make_analyzer(fresh, run.git_dir, run.sha)
        if make_analyzer is not None
        else StaticAnalyzer()
    )
    if isinstance(analyzer, StaticAnalyzer) and run.prepared:
        analyzer.prepared = run.prepared  # explained while the index finished
    fresh_ids = {c.record_id for c in fresh}
    try:
        made = assemble(contexts, fresh_ids, analyzer.analyze(fresh), previous, version, run.root)
    except OSError:  # the spill filled the disk: give the spare tree's space back, as publish does
        shutil.rmtree(atomicdir.spare_of(run.root), ignore_errors=True)
        raise
    mark("assembled")
    stats = getattr(analyzer, "stats", None)
    if callable(stats):
        counts["llm"] = stats()
    retired = _retire(previous, made.lines.keys() | carried.lines.keys(), run.sha)
    failed = sum(made.reasons.values())
    reused = len(contexts) - made.analyzed + len(carried.lines)
    counts.update(failed=failed, retired=len(retired), reused=reused)
    publication = Publication(
        run.request.repo,
        run.sha,
        version,
        (),
        {},
        counts,
        retired,
        run.extra,
        carried_lines=carried.lines,
        carried_provenance=carried.provenance,
        reach=run.reach.document if run.reach is not None else None,
        lines=made.lines,
        provenance_lines=made.provenance,
        same=frozenset(made.same),
    )
    result = ExtractResult(
        run.root,
        run.sha,
        version,
        counts,
        failed=failed,
        previous=previous,
        lines=made.lines,
        failure=made.reasons.most_common(1)[0][0] if made.reasons else None,
        carried=frozenset(carried.lines),
    )
    with _beside(run.while_publishing, result):
        publish(run.root, publication, previous, run.request.keep_versions, run.staged)
    made.provenance.close()
    mark("published")
    return result


@contextlib.contextmanager
def _beside(task: Callable[[ExtractResult], None] | None, result: ExtractResult) -> Iterator[None]:
    """Run `task(result)` in a thread while the block runs; its error, if any, is raised
    after the block's (a publish that failed is what the user hears of first)."""
    if task is None:
        yield
        return
    failed: list[BaseException] = []

    def run() -> None:
        try:
            task(result)
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=run, name="errdoc-while-publishing", daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join()
    if failed:
        raise failed[0]


def _retire(previous: Previous | None, current: Set[str], sha: str) -> dict[str, Retired]:
    if previous is None:
        return {}
    retired = {rid: r for rid, r in previous.retired.items() if rid not in current}
    for rid in previous.records.keys() - current:
        record = previous.records[rid]
        retired[rid] = Retired(
            since=sha,
            lastVersion=previous.version,
            errorMessage=record.errorMessage,
            filePath=record.filePath,
        )
    return retired


def warn(message: str) -> None:
    """A warning line on stderr."""
    print(f"warning: {clean_error(message)}", file=sys.stderr)
