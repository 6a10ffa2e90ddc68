"""Collecting the sites of a repository at a commit: the work before any explanation.

`scan_commit` opens the source, resolves the commit and scans its `.rs` files
(cached by blob id); `build_contexts` resolves ids, patterns and error classes
across the whole repository. No pydantic, no analyzer: `errdoc sites` is this.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from git.exc import GitCommandError

from pipeline.core.macros import NO_MACROS, Definitions, ErrorMacros
from pipeline.core.sitetypes import ModuleLines, Site
from pipeline.languages import (
    MANIFEST_NAMES,
    SUFFIXES,
    RepositoryModules,
    language_of,
    repository_modules,
)
from pipeline.scan.cache import ScanCache
from pipeline.scan.context import AliasTable, SiteContext, ordinals, site_context
from pipeline.scan.entrypatterns import EntryPattern
from pipeline.scan.macrocache import MacroCache
from pipeline.scan.pool import RepoScan, scan_listing
from pipeline.source.gitcmd import git_reason, run_git
from pipeline.source.repository import (
    BlobReader,
    Listing,
    Skipped,
    SourceError,
    TreeEntry,
    list_files,
    open_source,
    resolve_commit,
)


@dataclass(frozen=True)
class ExtractRequest:
    """What the user asked for."""

    repo: str
    rev: str
    out: Path
    cache_dir: Path
    source: str | None = None
    include: Sequence[str] = ()
    exclude: Sequence[str] = ()
    jobs: int | None = None
    keep_versions: int | None = None  # versions kept rebuildable; None keeps all
    force: bool = False  # publish even when the dataset is already at this commit
    rev_option: str = "SHA (--sha)"  # what the user set to choose `rev`, for error messages
    entries: tuple[EntryPattern, ...] = ()  # the repository's own entry points (repos.toml)


@dataclass(frozen=True)
class AnalyzerChoice:
    """The analyzer options of a run."""

    name: str = "static"
    model: str | None = None
    model_simple: str | None = None  # for panics, `expect` and asserts
    concurrency: int = 8
    rpm: int | None = None
    tpm: int | None = None
    dry_run: bool = False
    timeout: float | None = None  # seconds per model request (None: settings/env default)
    retries: int | None = None
    retry_failed: bool = False  # ask again for sites whose answer failed for good before
    batch: bool = False  # through the Batch API: half the price, answers within 24 h


def scan_commit(request: ExtractRequest) -> tuple[str, RepoScan, int]:
    """Open the source, resolve the commit and scan its Rust files: (sha, scan, files listed)."""
    git_dir, sha, listing = locate(request)
    return sha, scan_entries(request, git_dir, listing), listed_count(listing)


def open_commit(request: ExtractRequest) -> tuple[Path, str]:
    """Open the source (fetching a URL) and resolve the commit: once per run."""
    git_dir = open_source(request.repo, request.source, request.cache_dir)
    return git_dir, resolve_commit(git_dir, request.rev, request.rev_option)


def locate(
    request: ExtractRequest, commit: tuple[Path, str] | None = None
) -> tuple[Path, str, Listing]:
    """List the Rust files of the commit (opened and resolved here unless given)."""
    git_dir, sha = commit or open_commit(request)
    listing = list_files(
        git_dir,
        sha,
        suffixes=SUFFIXES,
        include=request.include,
        exclude=request.exclude,
        manifests=MANIFEST_NAMES,
    )
    if request.include and not listing.entries and not listing.skipped:
        # a scheduled job with a stale or mistyped --include would publish an empty dataset
        raise SourceError(
            f"--include {','.join(request.include)} matches no source file at {sha[:10]}"
        )
    whole = not request.include and not request.exclude
    macros = repository_macros(git_dir, sha, listing, request.cache_dir, whole)
    return git_dir, sha, replace(listing, macros=macros)


def repository_macros(
    git_dir: Path, sha: str, listing: Listing, cache_dir: Path, whole: bool = True
) -> ErrorMacros:
    """The error macros the commit's source files define (`macros`), wherever they are:
    `--include` chooses the sites to document, not the code that defines what a site is.

    Each blob's definitions are cached: a run reads the blobs it has not seen (a
    regeneration, its changed files). Many unseen (a first run: risingwave's 2,700) are
    found by `git grep` instead, which reads them in C; so are the files outside a
    listing that is not the `whole` commit's."""
    language = language_of(SUFFIXES[0])
    cache = MacroCache(cache_dir)
    try:
        known = cache.get_many(e.blob_sha for e in listing.entries)
        unseen = [e for e in listing.entries if e.blob_sha not in known]
        learned: dict[str, Definitions] = {}
        outside: list[str] = []
        if len(unseen) > _READ_LIMIT or not whole:
            defining, outside = _grepped(git_dir, sha, listing)
            # a blob the search passed over defines none
            learned = {e.blob_sha: {} for e in unseen if e.path not in defining}
            unseen = [e for e in unseen if e.path in defining]
        blobs = [e.blob_sha for e in unseen] + outside
        with BlobReader(git_dir) as reader:
            bodies = reader.read_many(blobs) if blobs else []
        for blob, body in zip(blobs, bodies, strict=True):
            if body is not None:
                learned[blob] = language.macro_definitions(body)
        if learned:
            cache.put_many(learned)
    finally:
        cache.close()
    known.update(learned)
    found = [known.get(e.blob_sha) for e in listing.entries] + [learned.get(b) for b in outside]
    definitions = [d for d in found if d]
    return language.error_macros(definitions) if definitions else NO_MACROS


_READ_LIMIT = 1000  # unseen blobs read here; more are searched by `git grep` (a first run)


def _grepped(git_dir: Path, sha: str, listing: Listing) -> tuple[set[str], list[str]]:
    """The paths of the commit whose files hold `macro_rules!`, and the blobs of those that
    are not in `listing`."""
    paths = _grep_files(git_dir, sha, "-F", "macro_rules!")
    others = paths - {e.path for e in listing.entries}
    blobs = []
    if others:  # outside the include: their blobs from the tree
        out = run_git(git_dir, "--literal-pathspecs", "ls-tree", "-z", sha, "--", *sorted(others))
        for row in out.split(b"\0"):
            fields = row.partition(b"\t")[0].split()
            if len(fields) == 3 and fields[0].startswith(b"100") and fields[1] == b"blob":
                blobs.append(fields[2].decode())
    return paths, blobs


_GLOBS = tuple(f"*{suffix}" for suffix in SUFFIXES)
_MACRO_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def invoking_files(git_dir: Path, sha: str, names: Iterable[str]) -> set[str]:
    """The source files of the commit that invoke any of the macros `names` (`name!`, as
    written: a file whose text does not hold it invokes none), found by `git grep`."""
    wanted = sorted(n for n in names if _MACRO_NAME.fullmatch(n))
    if not wanted:
        return set()
    return _grep_files(git_dir, sha, "-E", f"(^|[^A-Za-z0-9_])({'|'.join(wanted)})[[:space:]]*!")


def _grep_files(git_dir: Path, sha: str, how: str, pattern: str) -> set[str]:
    """The paths of the commit's source files whose text matches `pattern` (`git grep`,
    `how` being `-F` or `-E`)."""
    try:
        found = run_git(git_dir, "grep", "-l", "-z", how, "-e", pattern, sha, "--", *_GLOBS)
    except GitCommandError as err:
        if err.status == 1:  # nothing matched
            return set()
        raise SourceError(f"cannot search the files of {sha[:10]}: {git_reason(err)}") from None
    prefix = f"{sha}:".encode()
    return {
        p[len(prefix) :].decode("utf-8", "replace")
        for p in found.split(b"\0")
        if p.startswith(prefix)
    }


def index_listing(request: ExtractRequest, git_dir: Path, sha: str, listing: Listing) -> Listing:
    """The files the repository index reads: every source file but the excluded ones.

    `--include` chooses the sites to document, not the code to understand: the callers of
    a `src/meta/**` site live in the frontend and the CLI, outside the include.
    """
    if not request.include:
        return listing
    return replace(
        list_files(git_dir, sha, suffixes=SUFFIXES, exclude=request.exclude),
        manifests=listing.manifests,
    )


def index_files(
    git_dir: Path, sha: str, exclude: Sequence[str] = ()
) -> tuple[tuple[TreeEntry, ...], RepositoryModules]:
    """What the repository index reads (`index_listing`'s files: every source file but the
    excluded ones and those no build compiles) and what the build manifests call them
    (`read_modules`), found from the commit alone: the index child lists them itself, not
    waiting for the run's listing."""
    listing = list_files(git_dir, sha, suffixes=SUFFIXES, exclude=exclude, manifests=MANIFEST_NAMES)
    modules = read_modules(git_dir, listing)
    return compiled_only(git_dir, sha, listing, modules).entries, modules


NOT_COMPILED = "not-compiled"  # `Skipped.reason` of a file no build compiles


def compiled_only(
    git_dir: Path,
    sha: str,
    listing: Listing,
    modules: RepositoryModules,
    whole: Listing | None = None,
) -> Listing:
    """`listing` without the files no module declaration can make part of a build
    (`RepositoryModules.unreached`: judged among the `whole` commit's files, the listing's
    by default), each skipped as `NOT_COMPILED`; but those a file above declares in an
    inline module (`mod thrift { pub mod agent; }`: `mod thrift` in its text), and those
    whose file name a `#[path = ".."]` or an `include!("..")` of the commit writes (both
    read only when there are such files). Test code is left as it is (its scans are empty)."""
    whole = whole or listing
    judged = [e.path for e in whole.entries if not language_of(e.path).is_test_path(e.path)]
    unreached = modules.unreached(judged)
    listed = {e.path for e in listing.entries}
    unreached = {p: inline for p, inline in unreached.items() if p in listed}
    if not unreached:
        return listing
    declared = _declared_inline(git_dir, whole, unreached)
    left = [p for p in unreached if p not in declared]
    named = _referenced_file_names(git_dir, sha, _packages_of(left, whole)) if left else set()
    dropped = {p for p in left if p.rsplit("/", 1)[-1] not in named}
    if not dropped:
        return listing
    return replace(
        listing,
        entries=tuple(e for e in listing.entries if e.path not in dropped),
        skipped=(*listing.skipped, *(Skipped(p, NOT_COMPILED) for p in sorted(dropped))),
    )


def _declared_inline(
    git_dir: Path, whole: Listing, unreached: Mapping[str, tuple[tuple[str, str], ...]]
) -> set[str]:
    """The files of `unreached` that a file above declares in an inline module: its text
    says `mod <name>` of the module on the way (`pub mod commands { pub mod create; }`)."""
    blobs = {e.path: e.blob_sha for e in whole.entries}
    wanted = sorted({d for inline in unreached.values() for d, _ in inline if d in blobs})
    if not wanted:
        return set()
    with BlobReader(git_dir) as reader:
        texts = dict(zip(wanted, reader.read_many([blobs[d] for d in wanted]), strict=True))
    return {
        path
        for path, inline in unreached.items()
        if any(
            (text := texts.get(d)) is not None
            and re.search(rb"\bmod\s+(?:r#)?" + re.escape(name.encode()) + rb"\b", text)
            for d, name in inline
        )
    }


_QUOTED = re.compile(r'"([^"]+)"')


def _packages_of(paths: Iterable[str], whole: Listing) -> list[str]:
    """The directories of the manifests nearest above `paths` ("" for the top one)."""
    directories = {m.path.rpartition("/")[0] for m in whole.manifests}
    found = set()
    for path in paths:
        directory = path.rpartition("/")[0]
        while directory and directory not in directories:
            directory = directory.rpartition("/")[0]
        found.add(directory)
    return sorted(found)


def _referenced_file_names(git_dir: Path, sha: str, directories: Sequence[str] = ("",)) -> set[str]:
    """The file names (`x.rs` of `#[path = "../y/x.rs"]`) that the source files of the
    commit under `directories` (a package's: where such a line is) pull in by name
    (`Language.file_references`)."""
    pattern = "|".join(f"({language_of(s).file_references})" for s in SUFFIXES)
    where = [f"{d}/{glob}" if d else glob for d in directories for glob in _GLOBS]
    try:
        found = run_git(git_dir, "grep", "-h", "-o", "-E", "-e", pattern, sha, "--", *where)
    except GitCommandError as err:
        if err.status == 1:  # nothing matched
            return set()
        raise SourceError(f"cannot search the files of {sha[:10]}: {git_reason(err)}") from None
    text = found.decode("utf-8", "replace")
    return {m.rsplit("/", 1)[-1] for m in _QUOTED.findall(text)}


def read_modules(git_dir: Path, listing: Listing) -> RepositoryModules:
    """What the commit's build manifests (`Cargo.toml`, wherever they are, whatever
    `--include` says: `locate` lists them) call the listed files: crates and modules by the
    names a reader knows."""
    manifests = listing.manifests
    with BlobReader(git_dir) as reader:
        bodies = reader.read_many([e.blob_sha for e in manifests])
    found = {e.path: body for e, body in zip(manifests, bodies, strict=True) if body is not None}
    return repository_modules(found, [e.path for e in listing.entries])


def listed_count(listing: Listing) -> int:
    return len(listing.entries) + len(listing.skipped)


def scan_entries(
    request: ExtractRequest,
    git_dir: Path,
    listing: Listing,
    skip: Set[str] = frozenset(),
    previous: Mapping[str, str] | None = None,
) -> RepoScan:
    """Scan the listed files but those in `skip` (cached by blob id; `scan_listing`)."""
    if skip:
        listing = replace(listing, entries=tuple(e for e in listing.entries if e.path not in skip))
    cache = ScanCache(request.cache_dir, listing.macros.digest())
    try:
        return scan_listing(git_dir, listing, cache, request.jobs, previous)
    finally:
        cache.close()


def alias_table(scanned: RepoScan) -> AliasTable:
    """The `Result` aliases declared by the scanned files."""
    return AliasTable.build(
        ((path, alias) for path, scan in scanned.scans.items() for alias in scan.aliases),
        (path for path, scan in scanned.scans.items() if scan.uses_anyhow_result),
        {path: scan.own_macros for path, scan in scanned.scans.items() if scan.own_macros},
        {path: scan.result_from for path, scan in scanned.scans.items() if scan.result_from},
        anyhow_macros={p: s.anyhow_macros for p, s in scanned.scans.items() if s.anyhow_macros},
    )


def module_gates(
    files: Mapping[str, tuple[tuple[str, ...], ModuleLines]],
) -> dict[str, tuple[str, ...]]:
    """Each file's build gates from the `mod` lines above it (`Language.module_gates`), from
    each file's (`FileScan.file_gates`, `FileScan.gated_modules`); files with none left out."""
    by_language: dict[str, dict[str, tuple[tuple[str, ...], ModuleLines]]] = {}
    for path, lines in files.items():
        by_language.setdefault(language_of(path).name, {})[path] = lines
    found: dict[str, tuple[str, ...]] = {}
    for group in by_language.values():
        found.update(language_of(next(iter(group))).module_gates(group))
    return found


def scanned_gates(scanned: RepoScan) -> dict[str, tuple[str, ...]]:
    """`module_gates` of the scanned files."""
    return module_gates({p: (s.file_gates, s.gated_modules) for p, s in scanned.scans.items()})


def build_contexts(
    repo: str,
    sha: str,
    scanned: RepoScan,
    aliases: AliasTable | None = None,
    tests: tuple[str, ...] | None = None,
    modules: RepositoryModules | None = None,
    gates: Mapping[str, tuple[str, ...]] | None = None,
) -> list[SiteContext]:
    """A context per site, ids and error classes resolved across the repository.

    `aliases`, `tests` (test-module path prefixes) and `gates` (each file's from the `mod`
    lines above it, `module_gates`) default to those of the scanned files; a run that
    carries files over unscanned passes those of the whole repository. `modules`: what
    the build manifests call each file (`read_modules`).
    """
    aliases = alias_table(scanned) if aliases is None else aliases
    gates = scanned_gates(scanned) if gates is None else gates
    if tests is None:
        tests = tuple(
            prefix
            for path, scan in scanned.scans.items()
            if scan.test_modules
            for prefix in language_of(path).test_module_paths(path, scan.test_modules)
        )
    contexts: list[SiteContext] = []
    for path in sorted(scanned.scans):
        if path.startswith(tests):
            continue  # declared `#[cfg(test)] mod x;` by its parent: test code
        sites = scanned.scans[path].sites
        if path in gates:  # `#[cfg(windows)] mod x;` above: so is every site of `x.rs`
            sites = tuple(gated(site, gates[path]) for site in sites)
        module = modules.module_path(path) if modules is not None else None
        target = modules.target_kind(path) if modules is not None else None
        aborts = modules.aborting_profiles(path) if modules is not None else ()
        for site, ordinal in zip(sites, ordinals([s.pattern for s in sites]), strict=True):
            on = _features_on(modules, path, site) if modules is not None else ()
            contexts.append(
                site_context(repo, sha, site, ordinal, aliases, module, target, aborts, on)
            )
    return contexts


_FEATURE_GATE = re.compile(r'feature\s*=\s*"([^"]+)"')


def _features_on(modules: RepositoryModules, path: str, site: Site) -> tuple[tuple[str, str], ...]:
    """Each feature a gate of the site needs alone (`feature = "x"`), with why a build that
    asks for none has it on (`RepositoryModules.feature_on`); () where no manifest tells."""
    out = []
    for gate in site.facts.gates:
        needed = _FEATURE_GATE.fullmatch(gate)
        if needed is None:
            continue
        why = modules.feature_on(path, needed[1])
        if why is None:
            return ()
        out.append((needed[1], why))
    return tuple(out)


def gated(site: Site, gates: Sequence[str]) -> Site:
    """The site with `gates` (its file's, from the `mod` lines above it) before its own."""
    joined = tuple(dict.fromkeys((*gates, *site.facts.gates)))
    return replace(site, facts=replace(site.facts, gates=joined))


def counts_of(scanned: RepoScan, contexts: Sequence[SiteContext], listed: int) -> dict[str, Any]:
    kinds = Counter(c.site.kind for c in contexts)
    return {
        "records": len(contexts),
        "filesListed": listed,
        "filesScanned": len(scanned.scans),
        "filesParsed": scanned.parsed,
        "filesFromCache": scanned.cached,
        "filesSkipped": sum(scanned.skipped.values()),
        "skippedByReason": dict(sorted(scanned.skipped.items())),
        # in the items that were parsed: an error in an item with no site is never seen
        "filesWithSyntaxErrors": sum(1 for s in scanned.scans.values() if s.parse_errors),
        "sitesByKind": dict(sorted(kinds.items())),
    }
