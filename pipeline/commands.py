"""The `extract`, `validate` and `schema` commands: option parsing and reporting only."""

from __future__ import annotations

import dataclasses
import functools
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pipeline.core.errors import StoreError
from pipeline.core.redact import clean_error, escape_json_text, for_terminal
from pipeline.core.usererror import UserError, default_cache
from pipeline.dataset.lock import LockedError
from pipeline.scan.collect import (
    AnalyzerChoice,
    ExtractRequest,
    build_contexts,
    counts_of,
    scan_commit,
)
from pipeline.scan.entrypatterns import EntryPattern
from pipeline.scan.forked import WorkerDied
from pipeline.source.repository import SourceError, validate_repo_name

if TYPE_CHECKING:  # the run's modules (pydantic, the analyzers) load with the commands using them
    from pipeline.dataset.extract import ExtractResult

F = TypeVar("F", bound=Callable[..., Any])


def user_errors(func: F) -> F:
    """Turn the pipeline's expected failures into one-line errors, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (SourceError, StoreError, LockedError, WorkerDied, ValueError) as err:
            raise UserError(str(err).splitlines()[0] if str(err) else type(err).__name__) from None
        except BrokenPipeError:  # the reader went away (`| head`): the CLI ends quietly
            raise
        except sqlite3.Error as err:  # the scan or index cache on a full or read-only disk
            raise UserError(f"cannot use the cache: {err}; check CACHE") from None
        except OSError as err:  # an OUT or CACHE that is a file, read-only, full...
            where = f" {err.filename}" if err.filename else ""
            raise UserError(
                f"cannot use{where}: {err.strerror or err}; check OUT and CACHE"
            ) from None

    return wrapper  # type: ignore[return-value]


def _globs(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(g.strip() for value in values for g in value.split(",") if g.strip())


def run_options(func: F) -> F:
    """Options shared by `extract` and `regenerate`."""
    options = [
        click.option("--repo", required=True, help="Dataset identity, owner/name (e.g. risingwavelabs/risingwave)."),
        click.option("--source", help="Local clone, bare repo or git URL to read instead of GitHub."),
        click.option("--out", type=click.Path(path_type=Path), default=Path("output"), show_default=True,
                     help="Where datasets live: OUT/<owner>/<name>/."),
        click.option("--cache", "cache_dir", type=click.Path(path_type=Path), default=None,
                     help="Cache directory [default: $ERRDOC_CACHE or ~/.cache/errdoc]."),
        click.option("--include", multiple=True, help="Comma-separated globs over repository paths to keep (src/meta/**)."),
        click.option("--exclude", multiple=True, help="Comma-separated globs over repository paths to drop."),
        click.option("--repos", "repos_file", type=click.Path(path_type=Path), default=None,
                     help="A repos.toml whose [[repo]] table for --repo adds the repository's own entry points (its `entries`)."),
        click.option("--jobs", type=click.IntRange(1, 64), default=None, help="Processes parsing and indexing at once [default: all cores; 1: one thing at a time]."),
        click.option("--analyzer", type=click.Choice(["static", "llm"]), default="static", show_default=True,
                     help="static: offline, from the syntax tree; llm: an OpenAI-compatible model."),
        click.option("--model", help="Model for --analyzer llm [default: $ERRDOC_MODEL, else $MODEL]."),
        click.option("--model-simple", help="A cheaper model for panics, expect and asserts [default: --model]."),
        click.option("--concurrency", type=click.IntRange(1, 256), default=8, show_default=True,
                     help="Model requests in flight."),
        click.option("--rpm", type=click.IntRange(1), default=None, help="Model requests per minute, at most."),
        click.option("--tpm", type=click.IntRange(1), default=None, help="Model tokens per minute, at most."),
        click.option("--timeout", type=click.FloatRange(min=0.1), default=None,
                     help="Seconds for one model request, whole answer [default: $ERRDOC_LLM_TIMEOUT or 60]."),
        click.option("--retries", type=click.IntRange(0, 20), default=None,
                     help="Retries of a failed model request [default: $ERRDOC_LLM_RETRIES or 4]."),
        click.option("--retry-failed", is_flag=True,
                     help="Ask again for sites whose answer was refused, filtered or invalid before."),
        click.option("--batch", is_flag=True,
                     help="Ask through the OpenAI Batch API: half the price, answers within 24 h; a killed run resumes its batch."),
        click.option("--dry-run", is_flag=True, help="With --analyzer llm: estimate requests, tokens and cost; call nothing."),
        click.option("--allow-failures", is_flag=True, help="Exit 0 even if the model failed for some sites."),
        click.option("--keep-versions", type=click.IntRange(1), default=None,
                     help="Keep the newest N versions under versions/ [default: all]."),
        click.option("--force", is_flag=True, help="Publish a new version even if the dataset is already at this commit."),
        click.option("--json", "as_json", is_flag=True,
                     help="Print one JSON object on stdout: what was published, counts, failures."),
    ]  # fmt: skip
    for option in reversed(options):
        func = option(func)
    return func


def request_from(
    repo: str, rev: str, options: dict[str, Any]
) -> tuple[ExtractRequest, AnalyzerChoice]:
    """The run request and analyzer choice from parsed options."""
    validate_repo_name(repo)
    entries: tuple[EntryPattern, ...] = ()
    if options.get("repos_file"):
        from pipeline.versions.schedule import patterns_for  # only when asked: startup time

        entries = patterns_for(options["repos_file"], repo)
    request = ExtractRequest(
        repo=repo,
        rev=rev,
        out=options["out"],
        cache_dir=options["cache_dir"] or default_cache(),
        source=options["source"],
        include=_globs(options["include"]),
        exclude=_globs(options["exclude"]),
        jobs=options["jobs"],
        keep_versions=options["keep_versions"],
        force=options["force"],
        entries=entries,
    )
    choice = AnalyzerChoice(
        name=options["analyzer"],
        model=options["model"],
        model_simple=options.get("model_simple"),
        concurrency=options["concurrency"],
        rpm=options["rpm"],
        tpm=options["tpm"],
        dry_run=options["dry_run"],
        timeout=options["timeout"],
        retries=options["retries"],
        retry_failed=options["retry_failed"],
        batch=options["batch"],
    )
    return request, choice


def report(result: ExtractResult, allow_failures: bool, as_json: bool = False) -> None:
    """Print what a run did; exit non-zero when the model failed for some site."""
    if as_json:
        from pipeline.versions.report_json import run_json

        click.echo(json.dumps(run_json(result), ensure_ascii=False))
        if result.failed and not allow_failures:
            sys.exit(3)
        return
    for message in result.messages:
        click.echo(f"errdoc: {clean_error(message)}", err=True)
    if not result.published:
        return
    counts = result.counts
    click.echo(
        f"errdoc: {counts['records']} records from {counts['filesScanned']} files "
        f"({counts['filesParsed']} parsed, {counts['filesFromCache']} from cache, "
        f"{counts.get('filesCarried', 0)} unchanged since the last version, "
        f"{counts['filesSkipped']} skipped) at {result.sha[:10]} -> {result.root} "
        f"(version {result.version})",
        err=True,
    )
    stopped = counts.get("llm", {}).get("stopped")
    if stopped:  # the endpoint refuses every request: --allow-failures does not cover that
        click.echo(f"errdoc: stopped asking the model: {stopped}", err=True)
        sys.exit(3)
    if result.failed:
        click.echo(
            f"errdoc: the model failed for {result.failed} sites ({clean_error(result.failure or '')}); "
            "their static explanation stands in",
            err=True,
        )
        if not allow_failures:
            sys.exit(3)


@click.command("extract")
@click.option(
    "--sha",
    required=True,
    help="Commit, short sha, tag or branch; resolved once to the full commit.",
)
@run_options
@user_errors
def extract_command(
    repo: str, sha: str, allow_failures: bool, as_json: bool, **options: Any
) -> None:
    """Extract the error records of REPO at SHA and publish a dataset version under OUT.

    \b
    Examples:
      errdoc extract --repo risingwavelabs/risingwave --sha 6469eb736d --source ~/src/risingwave
      errdoc extract --repo o/n --sha main --include 'src/meta/**' --analyzer llm --model gpt-4o-mini
    """
    request, choice = request_from(repo, sha, options)
    from pipeline.dataset.extract import run_extract
    from pipeline.dataset.runner import analyzer_factory

    make, name, version = analyzer_factory(choice, request)
    if make is None:  # dry run: already reported
        return
    result = run_extract(request, make, name, version)
    report(result, allow_failures, as_json)


@click.command("regenerate")
@click.option(
    "--ref",
    default="HEAD",
    show_default=True,
    help="Branch, tag or sha to bring the dataset to [default: the source's default branch].",
)
@run_options
@user_errors
def regenerate_command(
    repo: str, ref: str, allow_failures: bool, as_json: bool, **options: Any
) -> None:
    """Bring the dataset of REPO to the newest commit of REF, paying only for what changed.

    SOURCE, INCLUDE and EXCLUDE default to what the dataset was last made with.
    """
    from pipeline.versions.regenerate import regenerate

    request, choice = request_from(repo, ref, options)
    outcome = regenerate(dataclasses.replace(request, rev_option="REF (--ref)"), choice)
    if as_json:
        from pipeline.versions.report_json import regeneration_json

        click.echo(json.dumps(regeneration_json(outcome), ensure_ascii=False))
    else:
        if outcome.result is not None:
            report(outcome.result, allow_failures=True)
        click.echo(clean_error(outcome.line()), err=True)
    if outcome.result is not None and outcome.result.failed and not allow_failures:
        sys.exit(3)


@click.command("validate")
@click.argument(
    "out", type=click.Path(path_type=Path, exists=True, file_okay=False), default="output"
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object: records checked, problems."
)
@user_errors
def validate_command(out: Path, as_json: bool) -> None:
    """Check every record under OUT against the exported JSON Schema (exit 1 on any problem)."""
    from pipeline.dataset.validate import validate_out

    checked, problems = validate_out(out)
    if as_json:
        doc = {"ok": not problems, "checked": checked, "problems": problems}
        click.echo(json.dumps(doc, ensure_ascii=False))
        if problems:
            sys.exit(1)
        return
    for problem in problems[:50]:
        click.echo(for_terminal(problem, one_line=True), err=True)
    if len(problems) > 50:
        click.echo(f"... and {len(problems) - 50} more", err=True)
    if problems:
        raise UserError(f"{len(problems)} problems in {checked} records under {out}")
    click.echo(f"ok: {checked} records valid under {out}")


@click.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of a record file (records/<id>.json)."""
    from pipeline.dataset.validate import record_schema

    click.echo(json.dumps(record_schema(), indent=2))


@click.command("sites")
@click.option("--repo", required=True, help="Dataset identity, owner/name.")
@click.option("--sha", required=True, help="Commit, short sha, tag or branch.")
@click.option("--source", help="Local clone, bare repo or git URL to read instead of GitHub.")
@click.option(
    "--cache",
    "cache_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Cache directory [default: $ERRDOC_CACHE or ~/.cache/errdoc].",
)
@click.option(
    "--include", multiple=True, help="Comma-separated globs over repository paths to keep."
)
@click.option(
    "--exclude", multiple=True, help="Comma-separated globs over repository paths to drop."
)
@click.option("--jobs", type=click.IntRange(1, 64), default=None,
              help="Parser processes [default: all cores].")  # fmt: skip
@click.option("--count", is_flag=True, help="Print only the number of sites per kind.")
@user_errors
def sites_command(
    repo: str,
    sha: str,
    source: str | None,
    cache_dir: Path | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    jobs: int | None,
    count: bool,
) -> None:
    """List the error sites of REPO at SHA as JSON lines, without explaining or publishing."""
    request = ExtractRequest(
        repo=repo,
        rev=sha,
        out=Path("."),
        cache_dir=cache_dir or default_cache(),
        source=source,
        include=_globs(include),
        exclude=_globs(exclude),
        jobs=jobs,
    )
    commit, scanned, listed = scan_commit(request)
    contexts = build_contexts(repo, commit, scanned)
    if count:
        click.echo(json.dumps({"sha": commit, **counts_of(scanned, contexts, listed)}))
        return
    for context in contexts:
        site = context.site
        line = {
            "id": context.record_id,
            "file": site.file_path,
            "line": site.line,
            "kind": site.kind,
            "message": site.message,
            "pattern": context.message_pattern,
            "errorClass": context.error_class,
        }
        click.echo(escape_json_text(json.dumps(line, ensure_ascii=False)))
