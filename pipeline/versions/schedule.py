"""The scheduled job: regenerate every repository that `repos.toml` lists.

The contract kept here:
- `repos.toml` is validated whole before anything runs; a mistake is one line that
  names the `[[repo]]` table and the key.
- One run at a time: `OUT/.regenerate-all.lock` is held for the whole job, so a
  second run fails at once and touches nothing.
- Repositories run in file order; one that fails (bad source, bad ref, the model
  failing for some of its sites, anything else) is reported and the job goes on.
- The summary has one line per repository; the exit status is non-zero when any failed.
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from pipeline.core.errors import StoreError
from pipeline.dataset.lock import LockedError, exclusive
from pipeline.scan.collect import AnalyzerChoice, ExtractRequest
from pipeline.scan.entrypatterns import EntryPattern, PatternError, parse_patterns
from pipeline.source.repository import SourceError, validate_repo_name
from pipeline.versions.regenerate import Regeneration, regenerate

LOCK_NAME = ".regenerate-all.lock"
ANALYZERS = ("static", "llm")
_KEYS = ("name", "ref", "source", "include", "exclude", "analyzer", "model", "entries")


class ConfigError(ValueError):
    """repos.toml cannot be used; the message names the table and key."""


@dataclass(frozen=True)
class RepoEntry:
    """One `[[repo]]` table of repos.toml."""

    name: str
    ref: str = "HEAD"  # the source's default branch
    source: str | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    analyzer: str | None = None  # None: the job's --analyzer
    model: str | None = None
    entries: tuple[EntryPattern, ...] = ()  # the repository's own entry points


@dataclass(frozen=True)
class JobOptions:
    """What applies to every repository of one job."""

    out: Path
    cache_dir: Path
    analyzer: str = "static"
    concurrency: int = 8
    jobs: int | None = None
    keep_versions: int | None = None
    batch: bool = False  # model requests through the Batch API (half the price)


@dataclass(frozen=True)
class Outcome:
    """How one repository went: its regeneration, or why it failed."""

    name: str
    regeneration: Regeneration | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        """True when the repository regenerated without any failure."""
        return self.error is None

    def line(self) -> str:
        """One summary line."""
        if self.error is not None:
            return f"{self.name}: FAILED: {self.error}"
        assert self.regeneration is not None
        return self.regeneration.line()


def load_repos(path: Path) -> list[RepoEntry]:
    """Read and validate repos.toml."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(
            f"{path}: not found; create it with `cp repos.example.toml {path}` and edit its "
            "[[repo]] tables (or pass --repos / REPOS=)"
        ) from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot be read ({err})") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML ({err})") from None
    return parse_repos(data, str(path))


def parse_repos(data: dict[str, Any], origin: str) -> list[RepoEntry]:
    """Validate parsed TOML: a non-empty list of `[[repo]]` tables with known keys."""
    unknown = sorted(set(data) - {"repo"})
    if unknown:
        raise ConfigError(f"{origin}: unknown top-level key {unknown[0]!r}; list [[repo]] tables")
    tables = data.get("repo")
    if not isinstance(tables, list) or not tables:
        raise ConfigError(f'{origin}: no [[repo]] tables; add one with name = "owner/name"')
    entries = [_entry(table, f"{origin}: [[repo]] #{n}") for n, table in enumerate(tables, 1)]
    seen: set[str] = set()
    for n, entry in enumerate(entries, 1):
        if entry.name in seen:
            raise ConfigError(f"{origin}: [[repo]] #{n}: name {entry.name!r} is listed twice")
        seen.add(entry.name)
    return entries


def _entry(table: object, where: str) -> RepoEntry:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: not a table; write [[repo]] followed by key = value lines")
    name = table.get("name")
    if not isinstance(name, str):
        raise ConfigError(f"{where}: key 'name' is required, a string \"owner/name\"")
    where = f"{where} ({name})"
    for key in table:
        if key not in _KEYS:
            raise ConfigError(f"{where}: unknown key {key!r}; expected one of {', '.join(_KEYS)}")
    try:
        validate_repo_name(name)
    except SourceError:
        raise ConfigError(f"{where}: key 'name' must be owner/name, not {name!r}") from None
    analyzer = _string(table, "analyzer", where)
    if analyzer is not None and analyzer not in ANALYZERS:
        raise ConfigError(f"{where}: key 'analyzer' must be one of {', '.join(ANALYZERS)}")
    return RepoEntry(
        name=name,
        ref=_string(table, "ref", where) or "HEAD",
        source=_string(table, "source", where),
        include=_globs(table, "include", where),
        exclude=_globs(table, "exclude", where),
        analyzer=analyzer,
        model=_string(table, "model", where),
        entries=_patterns(table, where),
    )


def _patterns(table: dict[str, Any], where: str) -> tuple[EntryPattern, ...]:
    if "entries" not in table:
        return ()
    try:
        return parse_patterns(table["entries"], where)
    except PatternError as err:
        raise ConfigError(str(err)) from None


def patterns_for(path: Path, repo: str) -> tuple[EntryPattern, ...]:
    """The `entries` of `repo`'s `[[repo]]` table in the repos file at `path` (`--repos` of
    `extract` and `regenerate`)."""
    for entry in load_repos(path):
        if entry.name == repo:
            return entry.entries
    raise ConfigError(f'{path}: no [[repo]] table has name = "{repo}"; add one or drop --repos')


def _string(table: dict[str, Any], key: str, where: str) -> str | None:
    value = table.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: key {key!r} must be a non-empty string")
    return value.strip()


def _globs(table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(g, str) and g.strip() for g in value):
        raise ConfigError(f"{where}: key {key!r} must be a list of glob strings")
    return tuple(g.strip() for g in value)


def regenerate_one(entry: RepoEntry, options: JobOptions) -> Outcome:
    """Regenerate one repository; every failure becomes the outcome's one-line reason."""
    request = ExtractRequest(
        repo=entry.name,
        rev=entry.ref,
        out=options.out,
        cache_dir=options.cache_dir,
        source=entry.source,
        include=entry.include,
        exclude=entry.exclude,
        jobs=options.jobs,
        keep_versions=options.keep_versions,
        rev_option=f"{entry.name}'s ref",
        entries=entry.entries,
    )
    choice = AnalyzerChoice(
        name=entry.analyzer or options.analyzer,
        model=entry.model,
        concurrency=options.concurrency,
        batch=options.batch,
    )
    try:
        outcome = regenerate(request, choice)
    except Exception as err:  # one repository must never stop the job
        return Outcome(entry.name, error=_reason(err))
    result = outcome.result
    if result is not None and not result.published:
        reason = result.messages[0] if result.messages else "nothing was published"
        return Outcome(entry.name, outcome, error=reason)
    if result is not None and result.failed:
        error = (
            f"the model failed for {result.failed} sites (static explanation stands in); "
            + outcome.line().split(": ", 1)[-1]
        )
        return Outcome(entry.name, outcome, error=error)
    return Outcome(entry.name, outcome)


def _reason(err: Exception) -> str:
    text = str(err).strip().splitlines()[0] if str(err).strip() else ""
    if isinstance(err, (SourceError, StoreError, LockedError, ValueError, OSError)) and text:
        return text
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def regenerate_all(
    entries: Sequence[RepoEntry],
    options: JobOptions,
    progress: Callable[[str], None] = lambda line: None,
) -> list[Outcome]:
    """Regenerate each entry in turn under the job lock (raises `LockedError` if held)."""
    outcomes: list[Outcome] = []
    with exclusive(options.out / LOCK_NAME, f"{options.out} (regenerate-all)"):
        for n, entry in enumerate(entries, 1):
            progress(f"[{n}/{len(entries)}] {entry.name} @ {entry.ref}")
            outcomes.append(regenerate_one(entry, options))
    return outcomes


def summary(outcomes: Sequence[Outcome]) -> list[str]:
    """The job's closing lines: one per repository, then the totals."""
    lines = [outcome.line() for outcome in outcomes]
    failed = sum(1 for o in outcomes if not o.ok)
    runs = [o.regeneration for o in outcomes if o.regeneration is not None]
    requests = sum(r.requests for r in runs)
    costs = [r.cost_usd for r in runs if r.cost_usd is not None]
    cost = f", ${sum(costs):.4f}" if costs else ""
    lines.append(
        f"regenerate-all: {len(outcomes) - failed} of {len(outcomes)} repositories regenerated, "
        f"{failed} failed; model requests {requests}{cost}"
    )
    return lines


@click.command("regenerate-all")
@click.option(
    "--repos",
    "repos_path",
    type=click.Path(path_type=Path),
    default=Path("repos.toml"),
    show_default=True,
    help="The list of repositories ([[repo]] tables).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("output"),
    show_default=True,
    help="Where datasets live: OUT/<owner>/<name>/.",
)
@click.option(
    "--cache",
    "cache_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Cache directory [default: $ERRDOC_CACHE or ~/.cache/errdoc].",
)
@click.option(
    "--analyzer",
    type=click.Choice(ANALYZERS),
    default="static",
    show_default=True,
    help="For tables that set no analyzer.",
)
@click.option(
    "--concurrency",
    type=click.IntRange(1, 256),
    default=8,
    show_default=True,
    help="Model requests in flight.",
)
@click.option(
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Parser processes [default: all cores].",
)
@click.option(
    "--batch",
    is_flag=True,
    help="Model requests through the OpenAI Batch API: half the price, answers within 24 h.",
)
@click.option(
    "--allow-failures",
    is_flag=True,
    help="Count a repository whose model failed for some sites as regenerated.",
)
@click.option(
    "--keep-versions",
    type=click.IntRange(1),
    default=None,
    help="Keep the newest N versions of each dataset [default: all].",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object: every repository's outcome."
)
def regenerate_all_command(
    repos_path: Path,
    out: Path,
    cache_dir: Path | None,
    analyzer: str,
    concurrency: int,
    jobs: int | None,
    batch: bool,
    allow_failures: bool,
    keep_versions: int | None,
    as_json: bool,
) -> None:  # fmt: skip
    """Regenerate every repository listed in REPOS; exit non-zero if any failed.

    \b
    Example (cron, nightly at 03:17):
      17 3 * * * cd /srv/errdoc && make regenerate-all REPOS=repos.toml >>regen.log 2>&1
    """
    from pipeline.core.usererror import UserError, default_cache

    try:
        entries = load_repos(repos_path)
    except ConfigError as err:
        raise UserError(str(err)) from None
    options = JobOptions(
        out, cache_dir or default_cache(), analyzer, concurrency, jobs, keep_versions, batch
    )
    try:
        outcomes = regenerate_all(
            entries, options, lambda line: click.echo(f"errdoc: {line}", err=True)
        )
    except LockedError as err:
        raise UserError(str(err)) from None
    if allow_failures:
        outcomes = [_forgive(o) for o in outcomes]
    if as_json:
        ok = all(o.ok for o in outcomes)
        click.echo(json.dumps({"ok": ok, "repositories": [outcome_json(o) for o in outcomes]}))
    else:
        for line in summary(outcomes):
            click.echo(line)
    if not all(o.ok for o in outcomes):
        sys.exit(1)


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """One repository of the scheduled job, for --json."""
    from pipeline.versions.report_json import regeneration_json

    run = outcome.regeneration
    return {
        "name": outcome.name,
        "ok": outcome.ok,
        "error": outcome.error,
        "regeneration": regeneration_json(run) if run is not None else None,
    }


def _forgive(outcome: Outcome) -> Outcome:
    """With --allow-failures, a published run whose model failed for some sites counts as done."""
    run = outcome.regeneration
    if run is not None and run.result is not None and run.result.published and run.result.failed:
        return Outcome(outcome.name, run)
    return outcome
