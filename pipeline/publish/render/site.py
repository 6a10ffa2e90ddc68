"""Render every dataset under OUT into a static site with a JSON API, swapped in whole."""

from __future__ import annotations

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
from pipeline.core.model import Record, RecordFile
from pipeline.dataset.reader import Dataset, DatasetError, load_all, page_path
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


def _browsing_order(records: Iterable[Record]) -> list[Record]:
    """Indexes list records by file and line, the way a reader of the code meets them."""
    return sorted(records, key=lambda r: (r.repo, r.filePath, r.lineNumber, r.id))


def _entry(record: Record, prefix: str) -> dict[str, str]:
    return {
        "href": prefix + page_path(record),
        "message": record.errorMessage,
        "repo": record.repo,
        "where": f"{record.filePath}:{record.lineNumber}",
        "severity": record.severity,
    }


def _render_repo(
    env: Environment,
    tmp: Path,
    ds: Dataset,
    counts: dict[str, ClassCount],
    taxonomy: dict[str, Any],
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
        shutil.copyfile(ds.record_file(record.id), api / f"{record.id}.json")
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
    own = ds.repo + "/"
    index = env.get_template("index.html.j2").render(
        root="../../",
        csp=CSP,
        heading=ds.repo,
        repo=ds.repo,
        summary=f"{len(ds.records)} error records at {ds.sha[:SHORT_SHA]}"
        f" (dataset version {ds.dataset_version}).",
        repos=[],
        show_repo=False,
        entries=[
            _entry(r, "") | {"href": page_path(r).removeprefix(own)}
            for r in _browsing_order(ds.records)
        ],
        retired=[e | {"href": e["href"].removeprefix(own)} for e in retired_entries],
    )
    _write(tmp / ds.repo / "index.html", index)
    return len(ds.records), len(retired_entries), retired_entries


def _build(tmp: Path, datasets: list[Dataset]) -> RenderReport:
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
    pages = retired_pages = 0
    all_retired: list[dict[str, str]] = []
    for ds in datasets:
        n, k, entries = _render_repo(env, tmp, ds, counts, taxonomy)
        pages, retired_pages = pages + n, retired_pages + k
        all_retired += entries
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
    _write(
        tmp / "index.html",
        env.get_template("index.html.j2").render(
            root="",
            csp=CSP,
            heading="Error records",
            repo="",
            summary=f"{len(records)} error records in {len(datasets)} repositories.",
            repos=[{**r, "href": r["index"], "sha": str(r["sha"])[:SHORT_SHA]} for r in repos],
            show_repo=True,
            entries=[_entry(r, "") for r in _browsing_order(records)],
            retired=all_retired,
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


def render_site(out: Path, site: Path) -> RenderReport:
    """Render every dataset under OUT into SITE (pages, indexes, JSON API), atomically."""
    if site.exists() and not (site / MARKER).exists() and any(site.iterdir()):
        raise RenderError(f"{site} exists and was not made by errdoc; pass an empty or new --site")
    try:
        datasets = load_all(out)
    except DatasetError as exc:
        raise RenderError(str(exc)) from exc
    if not datasets:
        raise RenderError(f"no dataset under {out}/: run `errdoc extract` first or pass --out")
    site.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{site.name}.new-", dir=site.parent))
    try:
        report = _build(tmp, datasets)
        tmp.chmod(0o755)  # mkdtemp makes it 0700; a site is for reading
        _swap(tmp, site)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return RenderReport(
        report.repositories, report.pages, report.retired_pages, report.api_files, site
    )
