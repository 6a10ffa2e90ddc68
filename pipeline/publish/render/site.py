"""Render every dataset under OUT into a static site with a JSON API, swapped in whole."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
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
    Dataset,
    DatasetChanged,
    DatasetError,
    load_all,
    page_path,
)
from pipeline.publish.render.browse import class_pages, repo_pages
from pipeline.publish.render.pages import (
    CSP,
    SHORT_SHA,
    class_of,
    inline_code,
    pygments_css,
    record_context,
    stub_context,
)
from pipeline.publish.render.related import ClassCount, class_counts, related_records
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
    ds: Dataset,
    counts: dict[str, ClassCount],
    taxonomy: dict[str, Any],
    bar: Progress,
) -> tuple[int, int, list[dict[str, str]]]:
    """Pages, API files and the index of one repository; returns its retired index entries."""
    page = env.get_template("record.html.j2")
    related = related_records(ds.records)
    api = tmp / "api" / "errors"
    for record in ds.records:
        ctx = record_context(
            record,
            prov=ds.provenance.get(record.id),
            retired=None,
            related=related[record.id],
            klass=class_of(record.backgroundTag, taxonomy),
            count=counts.get(record.backgroundTag, ClassCount(0, 0)),
            reach=ds.reach.get(record.id),
        )
        _write(tmp / page_path(record), page.render(ctx))
        bar.advance()
        _write(api / f"{record.id}.json", ds.record_bytes(record.id))
    retired_entries: list[dict[str, str]] = []
    for rid, ret in sorted(ds.retired.items()):
        body = ds.retired_records.get(rid)
        if body is not None:
            ctx = record_context(
                body,
                prov=ds.provenance.get(rid),
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
        f"{len(ds.records)} error records at {ds.sha[:SHORT_SHA]}"
        f" (dataset version {ds.dataset_version})."
    )
    pages = repo_pages(
        env,
        ds.repo,
        summary,
        ds.records,
        ds.provenance,
        lambda tag: class_of(tag, taxonomy)[0],
        retired_entries,
    )
    for rel, html in pages.items():
        _write(tmp / rel, html)
    return len(ds.records), len(retired_entries), retired_entries


def _build(tmp: Path, datasets: list[Dataset], show_progress: bool) -> RenderReport:
    env = _env()
    taxonomy = load_taxonomy()
    counts = class_counts(r for ds in datasets for r in ds.records)
    (tmp / "api" / "errors").mkdir(parents=True)
    static = tmp / "static"
    static.mkdir()
    for name in ("style.css", "search.js", "favicon.svg"):
        _write(
            static / name,
            resources.files("pipeline.publish.render").joinpath("static", name).read_bytes(),
        )
    _write(static / "pygments.css", pygments_css())
    _write(tmp / INDEX_SCRIPT, index_script(datasets))
    pages = retired_pages = 0
    total = sum(len(ds.records) for ds in datasets)
    # a terminal sees the record pages counted (most of the time); a pipe or a test sees nothing
    bar = Progress(total if show_progress else 0, "pages")
    for ds in datasets:
        n, k, _ = _render_repo(env, tmp, ds, counts, taxonomy, bar)
        pages, retired_pages = pages + n, retired_pages + k
    bar.__exit__(None, None, None)
    records = [r for ds in datasets for r in ds.records]
    repos = [
        {
            "repo": ds.repo,
            "sha": ds.sha,
            "datasetVersion": ds.dataset_version,
            "records": len(ds.records),
            "retired": len(ds.retired),
            "index": f"{ds.repo}/index.html",
        }
        for ds in datasets
    ]
    provenance = {rid: p for ds in datasets for rid, p in ds.provenance.items()}
    listings, classes = class_pages(env, records, provenance, lambda tag: class_of(tag, taxonomy))
    for rel, html in listings.items():
        _write(tmp / rel, html)
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
    index = [
        {
            "id": r.id,
            "repo": r.repo,
            "slug": r.slug,
            "message": r.errorMessage,
            "pattern": r.messagePattern,
            "page": page_path(r),
        }
        for r in records
    ]
    _write(tmp / "api" / "index.json", json.dumps(index, ensure_ascii=False, indent=1) + "\n")
    _write(tmp / "api" / "repos.json", json.dumps(repos, ensure_ascii=False, indent=1) + "\n")
    _write(tmp / MARKER, "rendered by errdoc; `errdoc render` replaces this directory whole\n")
    api_files = len(list((tmp / "api" / "errors").iterdir()))
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
    try:
        datasets = load_all(out)
    except DatasetError as exc:
        raise RenderError(str(exc)) from exc
    if not datasets:
        raise RenderError(f"no dataset under {out}/: run `errdoc extract` first or pass --out")
    site.parent.mkdir(parents=True, exist_ok=True)
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
