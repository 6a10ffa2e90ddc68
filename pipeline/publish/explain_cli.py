"""The `explain` command: read the pasted text, search every dataset under OUT, print."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from pipeline.core.reach import reach_to_json
from pipeline.core.redact import for_terminal
from pipeline.core.usererror import UserError
from pipeline.dataset.reader import Dataset, DatasetError, load_all
from pipeline.publish.explain import ErrorIndex, Match


def _clean(text: str) -> str:
    """Untrusted text for a terminal: no control characters, escapes or bidi overrides."""
    return for_terminal(text, one_line=True)


def format_matches(matches: list[Match], enclosing: dict[str, str | None]) -> str:
    """The human-readable answer of `explain`."""
    lines: list[str] = []
    for n, m in enumerate(matches, 1):
        r = m.record
        item = enclosing.get(r.id)
        where = f"{_clean(r.filePath)}:{r.lineNumber}" + (f" in {_clean(item)}" if item else "")
        how = "" if m.exact else " (values left out)"
        lines.append(f"{n}. {_clean(r.errorMessage)}")
        lines.append(f"   {r.repo} · {where} · score {m.score}{how}")
        lines.append(f"   page: {m.page}")
        if r.solutions:
            lines.append(f"   fix: {_clean(r.solutions[0])}")
    return "\n".join(lines)


@click.command("explain")
@click.option(
    "--out",
    default="output",
    show_default=True,
    type=click.Path(path_type=Path),
    help="Where the datasets live (OUT/<owner>/<name>/); every one is searched.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print a JSON list of matches, under the records' key names (camelCase).",
)
@click.option(
    "--limit",
    default=5,
    show_default=True,
    type=click.IntRange(min=1),
    help="Print at most this many matches, best first.",
)
@click.argument("text", nargs=-1)
def explain_command(out: Path, as_json: bool, limit: int, text: tuple[str, ...]) -> None:
    """Find the records a pasted error line or log comes from (TEXT, or stdin when absent or -).

    Locations printed with the message (`panicked at src/x.rs:10:5`, backtrace frames,
    `at path:line`) rank the record thrown there first; a message typed with its values
    left out (`table not found`, `table {} not found`) is found too. Exit 1 when nothing
    matches.
    """
    query = sys.stdin.read() if not text or text == ("-",) else " ".join(text)
    try:
        datasets = load_all(out)
    except DatasetError as exc:
        raise UserError(str(exc)) from exc
    if not datasets:
        raise UserError(f"no dataset under {out}/: run `errdoc extract` or pass --out")
    matches = ErrorIndex.from_datasets(datasets).search(query, limit=limit)
    enclosing = _enclosing(datasets, matches)
    if as_json:
        by_repo = {d.repo: d for d in datasets}
        rows = [
            _with_reach(m.as_json(enclosing.get(m.id)), by_repo.get(m.record.repo)) for m in matches
        ]
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    elif matches:
        click.echo(format_matches(matches, enclosing))
    else:
        click.echo("errdoc: no record matches this text", err=True)
    if not matches:
        sys.exit(1)


def _with_reach(match: dict[str, Any], dataset: Dataset | None) -> dict[str, Any]:
    """A JSON match with how its record is reached (`reach`), when the dataset has `reach.json`."""
    reach = dataset.reach.get(str(match["id"])) if dataset is not None else None
    return {**match, "reach": reach_to_json(reach)} if reach is not None else match


def _enclosing(datasets: list[Dataset], matches: list[Match]) -> dict[str, str | None]:
    """The enclosing item of each match, from its dataset's manifest (read only when matched)."""
    wanted = {m.record.repo for m in matches}
    out: dict[str, str | None] = {}
    for ds in datasets:
        if ds.repo in wanted:
            for m in matches:
                prov = ds.provenance.get(m.id) if m.record.repo == ds.repo else None
                if prov is not None:
                    out[m.id] = prov.enclosingFn
    return out
