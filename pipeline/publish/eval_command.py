"""The `errdoc eval` command: offline figures of a dataset, and the judge mode."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import click

from pipeline.core.model import Record
from pipeline.dataset.reader import DatasetError, load_dataset
from pipeline.dataset.validate import dataset_dirs
from pipeline.publish.evaluate import candidate_words, evaluate, items_of

DEFAULT_REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference"


def _git_dir(source: Path) -> Path:
    return source / ".git" if (source / ".git").exists() else source


@click.command("eval")
@click.argument("dataset", type=click.Path(path_type=Path))
@click.option(
    "--source",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    help="The repository (clone or bare mirror): names are looked up at the dataset's commit.",
)
@click.option("--at", help="Look names up at this commit of --source [default: the dataset's].")
@click.option(
    "--judge",
    "with_judge",
    is_flag=True,
    help="Also compare with the reference set using a model ($OPENAI_BASE_URL, $MODEL).",
)
@click.option(
    "--reference",
    type=click.Path(path_type=Path, exists=True),
    help="Reference set (.jsonl or a directory of them) [default: the packaged one].",
)
@click.option("--model", help="Judge model [default: $MODEL or $ERRDOC_MODEL].")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def eval_command(
    dataset: Path, source: Path | None, at: str | None, with_judge: bool, reference: Path | None,
    model: str | None, as_json: bool,
) -> None:  # fmt: skip
    """Quality figures of DATASET's explanations (an OUT directory or one dataset in it).

    \b
    Offline: code fields that parse, names grounded in the window or the repository,
    records naming their function and caller-path hops, distinct documentation,
    placeholders kept, field length limits. With --judge: win rate against a
    reference set written by reading the code, with a 95% interval.
    """
    dirs = dataset_dirs(dataset) if dataset.is_dir() else []
    if not dirs:
        raise click.ClickException(f"{dataset}: no dataset there (a directory with records/)")
    report: dict[str, Any] = {}
    records: list[Record] = []
    for repo_dir in dirs:
        try:
            loaded = load_dataset(repo_dir)
        except DatasetError as exc:
            raise click.ClickException(str(exc)) from exc
        records.extend(loaded.records)
        exists = keyword = None
        items = items_of(loaded.records, loaded.manifest, loaded.reach)
        if source is not None:
            from pipeline.source.repository import (
                SourceError,
                resolve_commit,
                word_in_code,
                words_in_tree,
            )

            git_dir = _git_dir(source)
            try:  # names looked up at a commit the source lacks would all count as invented
                sha = resolve_commit(git_dir, at or loaded.sha)
            except SourceError as exc:
                raise click.ClickException(f"{loaded.repo}: {exc}") from exc
            found = words_in_tree(git_dir, sha, candidate_words(items))
            exists = found.__contains__
            keyword = _memo(functools.partial(word_in_code, git_dir, sha))
        figures = evaluate(items, exists, keyword)
        report[loaded.repo] = figures.as_dict()
        if not as_json:
            where = "window and repository" if source else "window only: pass --source"
            click.echo(f"{loaded.repo} ({where})\n{figures.format()}")
    if with_judge:
        report["judge"] = _judge(reference or DEFAULT_REFERENCE, records, model, as_json)
    if as_json:
        click.echo(json.dumps(report, indent=2))


def _memo(check: Any) -> Any:
    seen: dict[str, bool] = {}

    def cached(word: str) -> bool:
        if word not in seen:
            seen[word] = bool(check(word))
        return seen[word]

    return cached


def _judge(
    reference: Path, records: list[Record], model: str | None, as_json: bool
) -> dict[str, Any]:
    from pipeline.analyze.llm_settings import LlmConfigError, LlmSettings
    from pipeline.publish.judge import judge, load_references

    try:
        settings = LlmSettings.from_env(model)
        references = load_references(reference)
    except (LlmConfigError, ValueError, OSError) as exc:
        raise click.ClickException(str(exc)) from exc
    result = judge(references, records, settings)
    if not as_json:
        click.echo(result.format())
    rate = result.win_rate()
    return {
        "pairs": len(result.pairs),
        "unmatched": len(result.unmatched),
        "failed": len(result.failed),
        "winRate": None if rate is None else [round(v, 4) for v in rate],
        "outcomes": [
            {
                "file": p.record.filePath,
                "line": p.record.lineNumber,
                **p.outcome,
                "reason": p.reason,
            }
            for p in result.pairs
        ],
    }
