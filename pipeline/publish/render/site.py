"""Render every dataset under OUT into a static site with a JSON API, swapped in whole."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

from pipeline.analyze.taxonomy import load_taxonomy
from pipeline.core.model import RecordFile
from pipeline.core.progress import Progress
from pipeline.dataset.reader import (
    READ_ATTEMPTS,
    DatasetChanged,
    DatasetError,
    page_path,
    reach_entries,
    reach_entry,
)
from pipeline.dataset.summary import Outline, outline_all
from pipeline.publish.render.browse import class_pages, repo_pages
from pipeline.publish.render.pages import (
    CSP,
    SHORT_SHA,
    analysis_label,
    class_of,
    inline_code,
    pygments_css,
    record_context,
    stub_context,
)
from pipeline.publish.render.related import (
    ClassCount,
    class_counts,
    related_records,
    same_message,
)
from pipeline.publish.render.search import INDEX_SCRIPT, index_script

MARKER = ".errdoc-site"  # only a directory holding this is ever replaced


class RenderError(Exception):
    """The site cannot be rendered; the message says what to do."""


@dataclass(frozen=True)
class RenderReport:
    """What `render_site` wrote."""

    repositories: int
    pages: int
    retired_pages: int
    api_files: int
    site: Path


def _env() -> Environment:
    env = Environment(
        loader=PackageLoader("pipeline.publish.render", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["code"] = inline_code
    return env


def _write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


def _render_repo(
    env: Environment,
    tmp: Path,
    ds: Outline,
    counts: dict[str, ClassCount],
    taxonomy: dict[str, Any],
    bar: Progress,
) -> tuple[int, int]:
    """Pages, API files and the index of one repository: the records are read one at a time."""
    page = env.get_template("record.html.j2")
    related = related_records(ds.summaries)
    same = same_message(ds.summaries)
    by_id = {s.id: s for s in ds.summaries}
    reach = reach_entries(ds.root)
    api = tmp / "api" / "errors"
    for record, data in ds.records():
        own = by_id[record.id]
        ctx = record_context(
            record,
            analysis=analysis_label(own.analyzer, own.status),
            retired=None,
            related=related.pop(record.id),
            klass=class_of(record.backgroundTag, taxonomy),
            count=counts.get(record.backgroundTag, ClassCount(0, 0)),
            reach=reach_entry(reach[record.id]) if record.id in reach else None,
            same=same.get(record.id, ()),
        )
        _write(tmp / page_path(record), page.render(ctx))
        bar.advance()
        _write(api / f"{record.id}.json", data)
    del related, same, by_id, reach
    retired_entries: list[dict[str, str]] = []
    bodies = ds.retired_records()
    for rid, ret in sorted(ds.retired.items()):
        body = bodies.get(rid)
        if body is not None:
            prov = ds.retired_provenance.get(rid)
            ctx = record_context(
                body,
                analysis=analysis_label(*((prov.analyzer, prov.status) if prov else (None, None))),
                retired=ret,
                related=[],
                klass=class_of(body.backgroundTag, taxonomy),
                count=counts.get(body.backgroundTag, ClassCount(0, 0)),
            )
            _write(tmp / page_path(body), page.render(ctx))
            doc = RecordFile(record=body, datasetVersion=ret.lastVersion)
            _write(api / f"{rid}.json", doc.model_dump_json())
            href = page_path(body)
        else:
            href = f"{ds.repo}/{rid}-retired.html"
            _write(tmp / href, env.get_template("stub.html.j2").render(stub_context(ds.repo, ret)))
        retired_entries.append(
            {
                "href": href,
                "message": ret.errorMessage,
                "repo": ds.repo,
                "since": ret.since[:SHORT_SHA],
            }
        )
    summary = (
        f"{len(ds.summaries)} error records at {ds.sha[:SHORT_SHA]}"
        f" (dataset version {ds.dataset_version})."
    )
    repo_pages(
        env,
        ds.repo,
        summary,
        ds.summaries,
        lambda tag: class_of(tag, taxonomy)[0],
        retired_entries,
        lambda rel, html: _write(tmp / rel, html),
    )
    return len(ds.summaries), len(retired_entries)


def _write_list(path: Path, items: Iterable[dict[str, Any]]) -> None:
    """`json.dumps(list(items), ensure_ascii=False, indent=1)` and a newline, one item at a time.

    The same bytes without holding every item, or the whole text, at once.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        first = True
        for item in items:
            text = json.dumps(item, ensure_ascii=False, indent=1)
            # no string of the dump holds a raw newline: JSON escapes it, so every "\n" is layout
            out.write(("[\n " if first else ",\n ") + text.replace("\n", "\n "))
            first = False
        out.write("[]\n" if first else "\n]\n")


def _build(tmp: Path, datasets: list[Outline], show_progress: bool) -> RenderReport:
    env = _env()
    taxonomy = load_taxonomy()
    records = [r for ds in datasets for r in ds.summaries]
    counts = class_counts(records)
    (tmp / "api" / "errors").mkdir(parents=True)
    static = tmp / "static"
    static.mkdir()
    for name in ("style.css", "search.js", "favicon.svg"):
        _write(
            static / name,
            resources.files("pipeline.publish.render").joinpath("static", name).read_bytes(),
        )
    _write(static / "pygments.css", pygments_css())
    _write(tmp / INDEX_SCRIPT, index_script(records))
    pages = retired_pages = 0
    # a terminal sees the record pages counted (most of the time); a pipe or a test sees nothing
    bar = Progress(len(records) if show_progress else 0, "pages")
    for ds in datasets:
        n, k = _render_repo(env, tmp, ds, counts, taxonomy, bar)
        pages, retired_pages = pages + n, retired_pages + k
    bar.__exit__(None, None, None)
    repos = [
        {
            "repo": ds.repo,
            "sha": ds.sha,
            "datasetVersion": ds.dataset_version,
            "records": len(ds.summaries),
            "retired": len(ds.retired),
            "index": f"{ds.repo}/index.html",
        }
        for ds in datasets
    ]
    classes = class_pages(
        env, records, lambda tag: class_of(tag, taxonomy), lambda rel, html: _write(tmp / rel, html)
    )
    _write(
        tmp / "index.html",
        env.get_template("index.html.j2").render(
            root="",
            csp=CSP,
            heading="Error records",
            repo="",
            summary=f"{len(records)} error records in {len(datasets)} "
            f"{'repository' if len(datasets) == 1 else 'repositories'}.",
            repos=[{**r, "href": r["index"], "sha": str(r["sha"])[:SHORT_SHA]} for r in repos],
            facets=[{"id": "classes", "name": "Failure classes", "groups": classes}],
            retired=[],
            retired_more="",
            retired_total=0,
        ),
    )
    _write(
        tmp / "search.html",
        env.get_template("search.html.j2").render(
            root="",
            csp=CSP,
            summary=f"{len(records)} error records in {len(datasets)} "
            f"{'repository' if len(datasets) == 1 else 'repositories'}.",
        ),
    )
    index = (
        {
            "id": r.id,
            "repo": r.repo,
            "slug": r.slug,
            "message": r.errorMessage,
            "pattern": r.messagePattern,
            "page": page_path(r),
        }
        for r in records
    )
    _write_list(tmp / "api" / "index.json", index)
    _write(tmp / "api" / "repos.json", json.dumps(repos, ensure_ascii=False, indent=1) + "\n")
    _write(tmp / MARKER, "rendered by errdoc; `errdoc render` replaces this directory whole\n")
    api_files = sum(1 for _ in os.scandir(tmp / "api" / "errors"))
    return RenderReport(len(datasets), pages, retired_pages, api_files, Path())


def _swap(tmp: Path, site: Path) -> None:
    """Put the new site in place; the old one is removed only once the new one stands."""
    if not site.exists():
        os.replace(tmp, site)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{site.name}.old-", dir=site.parent))
    os.replace(site, old / "site")
    os.replace(tmp, site)
    shutil.rmtree(old, ignore_errors=True)


def render_site(out: Path, site: Path, show_progress: bool = False) -> RenderReport:
    """Render every dataset under OUT into SITE (pages, indexes, JSON API), atomically."""
    if site.exists() and not (site / MARKER).exists() and any(site.iterdir()):
        raise RenderError(f"{site} exists and was not made by errdoc; pass an empty or new --site")
    for _ in range(READ_ATTEMPTS):
        try:
            report = _render_once(out, site, show_progress)
        except DatasetChanged:  # an extract swapped a dataset in mid-render: read it again
            continue
        return RenderReport(
            report.repositories, report.pages, report.retired_pages, report.api_files, site
        )
    raise RenderError(
        f"{out} kept changing while being rendered (an extract publishing?); run again"
    )


def _render_once(out: Path, site: Path, show_progress: bool) -> RenderReport:
    made = _missing_ancestors(site)
    site.parent.mkdir(parents=True, exist_ok=True)
    try:  # the records spill beside the site: the disk that takes the site takes them
        datasets = outline_all(out, site.parent)
    except DatasetError as exc:
        _remove_empty(made)
        raise RenderError(str(exc)) from exc
    except OSError as exc:  # a full disk, a file size limit
        _remove_empty(made)
        raise RenderError(
            f"cannot write the site under {site.parent}: {exc.strerror or exc}"
        ) from exc
    if not datasets:  # nothing to render leaves nothing behind, not even a parent
        _remove_empty(made)
        raise RenderError(f"no dataset under {out}/: run `errdoc extract` first or pass --out")
    try:
        return _render_outlined(datasets, site, show_progress)
    except BaseException:  # the half-written site is gone: so are the parents made for it
        _remove_empty(made)  # the spills are unnamed files: no entry keeps a parent
        raise
    finally:
        for ds in datasets:
            ds.spill.close()


def _missing_ancestors(site: Path) -> list[Path]:
    """The directories above SITE that `mkdir(parents=True)` is about to create, innermost first."""
    missing = []
    parent = site.parent
    while not parent.exists() and parent != parent.parent:
        missing.append(parent)
        parent = parent.parent
    return missing


def _remove_empty(directories: list[Path]) -> None:
    for directory in directories:
        with contextlib.suppress(OSError):  # never anything that has files in it
            directory.rmdir()


def _render_outlined(datasets: list[Outline], site: Path, show_progress: bool) -> RenderReport:
    tmp = Path(tempfile.mkdtemp(prefix=f".{site.name}.new-", dir=site.parent))
    try:
        report = _build(tmp, datasets, show_progress)
        tmp.chmod(0o755)  # mkdtemp makes it 0700; a site is for reading
        _swap(tmp, site)
    except DatasetChanged:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    except DatasetError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise RenderError(str(exc)) from exc
    except OSError as exc:  # a full disk: the old site stands, the half-written one goes
        shutil.rmtree(tmp, ignore_errors=True)
        raise RenderError(
            f"cannot write the site under {site.parent}: {exc.strerror or exc}"
        ) from exc
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return report
