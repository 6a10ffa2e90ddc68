"""`errdoc diff OLD NEW`: resolve each side to a record collection, diff, print."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from pydantic import ValidationError

from pipeline.core.model import Record
from pipeline.dataset import history
from pipeline.dataset.reader import DatasetError, load_records, read_manifest, safe_repo
from pipeline.dataset.safefile import gzip_lines, load_json, open_regular
from pipeline.dataset.store import StoreError, dataset_dirs
from pipeline.versions.diff import DatasetDiff, Side, diff_records
from pipeline.versions.diff_format import format_json, format_text
from pipeline.versions.diff_markdown import format_markdown
from pipeline.versions.diff_view import MAX_CHARS, View

_SUFFIXES = (history.DELTA, ".jsonl.gz", ".jsonl")
RENDERERS: dict[str, Callable[[DatasetDiff, Side, Side, View], str]] = {
    "text": format_text,
    "json": format_json,
    "markdown": format_markdown,
}
FORMATS = tuple(RENDERERS)
_KEYWORDS = {"latest": -1, "previous": -2}


class DiffInputError(click.ClickException):
    """A side that cannot be read or found; exits 2 like `diff` in trouble."""

    exit_code = 2


def _record(obj: Any, where: str) -> Record:
    # A version line is a bare record; a line copied from records/<id>.json wraps it.
    if isinstance(obj, dict) and set(obj) == {"record", "datasetVersion"}:
        obj = obj["record"]
    try:
        return Record.model_validate(obj)
    except ValidationError as e:
        first = e.errors()[0]
        loc = ".".join(str(x) for x in first["loc"]) or "record"
        raise DiffInputError(
            f"{where}: not a schemaVersion 2 record ({loc}: {first['msg']}); "
            "regenerate that dataset or pass another version"
        ) from None


def _jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    # Bounded and regular files only (dataset/safefile.py): a gzip bomb or a FIFO is one line.
    lines = gzip_lines(path) if path.name.endswith(".gz") else _plain_lines(path)
    try:
        for number, line in enumerate(lines, 1):
            yield number, load_json(line)
    except (OSError, ValueError) as e:
        raise DiffInputError(f"cannot read {path}: {e}") from None


def _plain_lines(path: Path) -> Iterator[bytes]:
    with open_regular(path) as handle:
        yield from (line for line in handle if line.strip())


def _manifest(repo_dir: Path) -> dict[str, Any]:
    try:
        return read_manifest(repo_dir)
    except DatasetError as e:
        raise DiffInputError(str(e)) from None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def read_dataset_dir(path: Path, label: str) -> Side:
    """A side from `OUT/<owner>/<name>`: `records.jsonl` when it agrees with `records/`."""
    if not (path / "records").is_dir():
        found = repositories(path)
        hint = f"; it holds {', '.join(found)}: pass {path}/<owner>/<name>" if found else ""
        raise DiffInputError(f"{path} is not a dataset directory (no records/){hint}")
    manifest = _manifest(path)
    version = _str(manifest.get("datasetVersion"))
    try:
        records, _ = load_records(path, version)
    except DatasetError as e:
        raise DiffInputError(str(e)) from None
    return Side(label, tuple(records), _str(manifest.get("sha")), version)


def _version_name(path: Path) -> str:
    return next(path.name[: -len(s)] for s in _SUFFIXES if path.name.endswith(s))


def read_version_file(path: Path, label: str) -> Side:
    """A side from a file of `versions/` (a delta is rebuilt), or any `.jsonl(.gz)` of records."""
    version = _version_name(path)
    if path.name.endswith(history.DELTA) or history.file_of(path.parent.parent, version) == path:
        try:
            lines = history.rebuild(path.parent.parent, version)
            objs = {rid: load_json(lines[rid]) for rid in sorted(lines)}
        except (StoreError, ValueError) as e:
            raise DiffInputError(f"cannot read {path}: {e}") from None
        records = [_record(obj, f"{path}:{rid}") for rid, obj in objs.items()]
    else:
        records = [_record(o, f"{path}:{n}") for n, o in _jsonl(path)]
    entries = _manifest(path.parent.parent).get("versions")
    shas = [
        e.get("sha")
        for e in (entries if isinstance(entries, list) else [])
        if isinstance(e, dict) and e.get("datasetVersion") == version
    ]
    sha = _str(shas[0]) if shas else None
    if sha is None and len({r.analyzedSha for r in records}) == 1:
        sha = records[0].analyzedSha
    return Side(label, tuple(records), sha, version)


def repositories(out: Path) -> list[str]:
    """The `owner/name` datasets found under OUT."""
    return [f"{path.parent.name}/{path.name}" for path in dataset_dirs(out)]


def versions(repo_dir: Path) -> dict[str, Path]:
    """Published versions of one dataset, oldest first (ISO-8601 UTC sorts as text)."""
    folder = repo_dir / "versions"
    found: dict[str, Path] = {}
    if folder.is_dir():
        for path in folder.iterdir():
            if path.is_file() and path.name.endswith(_SUFFIXES):
                found.setdefault(_version_name(path), path)
    return dict(sorted(found.items()))


def _repo_dir(out: Path, repo: str | None) -> tuple[str, Path]:
    found = repositories(out)
    if repo is None:
        if len(found) == 1:
            repo = found[0]
        elif not found:
            raise DiffInputError(
                f"no dataset under {out}; pass --out, a dataset directory or a version file"
            )
        else:
            raise DiffInputError(
                f"{out} holds several repositories ({', '.join(found)}); pass --repo owner/name"
            )
    if not safe_repo(repo):
        raise DiffInputError(f"--repo must be owner/name, not {repo!r}")
    if repo not in found:
        listed = ", ".join(found) or "none"
        raise DiffInputError(f"no dataset for {repo} under {out} (found: {listed})")
    return repo, out / repo


def _when(text: str) -> datetime | None:
    try:
        t = datetime.fromisoformat(text)
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def nearest(spec: str, available: list[str], k: int = 3) -> list[str]:
    """The `k` available versions closest in time to `spec` (or in spelling), oldest first."""
    t = _when(spec)
    if t is None:
        close = difflib.get_close_matches(spec, available, n=k, cutoff=0.0)
        return sorted(close)
    timed = [(abs((w - t).total_seconds()), v) for v in available if (w := _when(v))]
    return sorted(v for _, v in sorted(timed)[:k])


def _lookup_version(spec: str, out: Path, repo: str | None) -> Side:
    name, repo_dir = _repo_dir(out, repo)
    available = versions(repo_dir)
    names = list(available)
    if spec in _KEYWORDS:
        if len(names) < -_KEYWORDS[spec]:
            have = ", ".join(names) or "none"
            raise DiffInputError(f"{name} has no '{spec}' version (published: {have})")
        chosen = names[_KEYWORDS[spec]]
    elif spec in available:
        chosen = spec
    else:
        prefixed = [v for v in names if v.startswith(spec)]
        if len(prefixed) != 1:
            shown = prefixed[:5] if prefixed else nearest(spec, names)
            what = "ambiguous version prefix" if prefixed else "unknown version"
            raise DiffInputError(
                f"{what} {spec!r} of {name}; nearest: {', '.join(shown) or 'none published'}"
            )
        chosen = prefixed[0]
    return read_version_file(available[chosen], chosen)


def resolve_side(spec: str, out: Path, repo: str | None) -> Side:
    """OLD/NEW to records: a dataset dir, a version file, a datasetVersion, latest, previous."""
    path = Path(spec)
    if spec not in _KEYWORDS and path.exists():
        if path.is_dir():
            return read_dataset_dir(path, spec)
        if path.name.endswith(_SUFFIXES):
            return read_version_file(path, spec)
        raise DiffInputError(
            f"{spec} is neither a dataset directory nor a .jsonl(.gz) version file"
        )
    if "/" in spec or spec.endswith((*_SUFFIXES, ".json")):
        raise DiffInputError(f"no such file or directory: {spec}")
    return _lookup_version(spec, out, repo)


@click.command("diff")
@click.argument("old")
@click.argument("new")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("output"),
    show_default=True,
    help="Where datasets live (for versions given by name).",
)
@click.option(
    "--repo", help="owner/name whose versions to look up (needed when OUT holds several)."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="text for a terminal, json for programs (summary + lists), markdown for a PR or issue.",
)
@click.option("--exit-code", is_flag=True, help="Exit 1 when anything differs, 0 otherwise.")
@click.option(
    "--context",
    is_flag=True,
    help="List the records whose source lines around the site alone changed.",
)
@click.option(
    "--summary", "summary_only", is_flag=True, help="Only what was compared and the counts."
)
@click.option(
    "--max-chars",
    type=click.IntRange(1000),
    default=MAX_CHARS,
    show_default=True,
    help="Markdown: cut entries beyond this size (the summary stays; the cut is said).",
)
@click.pass_context
def diff_command(
    ctx: click.Context,
    old: str,
    new: str,
    out: Path,
    repo: str | None,
    fmt: str,
    exit_code: bool,
    context: bool,
    summary_only: bool,
    max_chars: int,
) -> None:
    """Compare two dataset versions: added, removed, moved, changed, unchanged records.

    OLD and NEW are each a dataset directory (OUT/owner/name), a version file
    (.jsonl.gz or .jsonl), a datasetVersion of the dataset under OUT (a unique
    prefix will do), or `latest` / `previous`.
    """
    old_side = resolve_side(old, out, repo)
    new_side = resolve_side(new, out, repo)
    try:
        diff = diff_records(old_side.records, new_side.records)
    except ValueError as e:
        raise DiffInputError(f"{e}; the dataset is corrupt, regenerate it") from None
    view = View(context=context, summary_only=summary_only, max_chars=max_chars)
    click.echo(RENDERERS[fmt](diff, old_side, new_side, view), nl=False)
    if exit_code and diff.has_differences:
        ctx.exit(1)
