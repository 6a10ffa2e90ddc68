"""Pages to browse: by crate, class, severity and kind; classes across repositories; size limit."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from render_fixtures import seed_doc, write_dataset

from pipeline.publish.render import render_site
from pipeline.publish.render.browse import PAGE_ENTRIES, crate_of

BASE = seed_doc("f16c5768bcd8aade")["record"]
LIMIT = 300 * 1024


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href and not href.startswith("http"):
            self.hrefs.append(href)


def _body(n: int, repo: str, **fields: Any) -> dict[str, Any]:
    message = f"invalid state {n} " + "while the barrier is paused and " * 6 + "{}"
    return (
        BASE
        | {
            "id": f"{n:016x}",
            "repo": repo,
            "errorMessage": message,
            "filePath": f"src/meta/src/barrier/f{n % 40}.rs",
            "lineNumber": 10 + n,
            "backgroundTag": "invalid-state-transition",
        }
        | fields
    )


@pytest.fixture(scope="module")
def big_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("browse")
    a = [_body(n, "acme/db") for n in range(700)]
    a += [_body(1000 + n, "acme/db", errorMessage="invalid state", filePath=f"crates/x/src/s{n}.rs",
                tags=["fsm"])
          for n in range(6)]  # fmt: skip
    b = [_body(2000 + n, "acme/net", filePath="lib/net.rs", severity="warning") for n in range(3)]
    prov = {r["id"]: {"analyzer": "static", "contentHash": "h", "kind": "bail",
                      "enclosingFn": "Barrier::inject"} for r in a}  # fmt: skip
    write_dataset(tmp / "out", "acme/db", a, records=prov)
    write_dataset(tmp / "out", "acme/net", b)
    render_site(tmp / "out", tmp / "site")
    return tmp / "site"


def test_no_page_is_over_the_limit(big_site: Path) -> None:
    pages = list(big_site.rglob("*.html"))
    assert len(pages) > 709
    sizes = {p: p.stat().st_size for p in pages}
    assert max(sizes.values()) <= LIMIT, max(sizes, key=sizes.__getitem__)
    assert (big_site / "index.html").stat().st_size < 20_000  # the home page lists no records


def test_every_record_is_reached_by_browsing_from_the_home_page(big_site: Path) -> None:
    seen: set[Path] = set()
    todo = [big_site / "index.html"]
    while todo:
        page = todo.pop()
        if page in seen or page.suffix != ".html" or not page.is_file():
            continue
        seen.add(page)
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        if re.match(r"[0-9a-f]{16}-", page.name):
            continue  # a record page: follow listings only
        todo += [(page.parent / h.split("#")[0]).resolve() for h in parser.hrefs]
    records = {p.name[:16] for p in seen if re.match(r"[0-9a-f]{16}-", p.name)}
    assert len(records) == 709


def test_listings_split_into_pages_with_links(big_site: Path) -> None:
    crate = big_site / "acme/db/crate/src-meta.html"
    text = crate.read_text(encoding="utf-8")
    assert text.count("<li>") == PAGE_ENTRIES
    assert 'href="src-meta-2.html" rel="next"' in text and "Page 1 of 3" in text
    last = (big_site / "acme/db/crate/src-meta-3.html").read_text(encoding="utf-8")
    assert last.count("<li>") == 700 - 2 * PAGE_ENTRIES and 'rel="prev"' in last
    assert "in Barrier::inject" in text  # the enclosing item tells records apart
    index = (big_site / "acme/db/index.html").read_text(encoding="utf-8")
    for facet in ("By crate or top directory", "By failure class", "By severity", "By kind"):
        assert facet in index
    assert 'href="crate/crates-x.html">crates/x</a>' in index
    assert 'href="kind/bail.html">bail</a>' in index
    assert 'href="severity/error.html">error</a>' in index


def test_failure_classes_count_every_repository(big_site: Path) -> None:
    home = (big_site / "index.html").read_text(encoding="utf-8")
    assert "709 records · across 2 libraries" in home
    klass = (big_site / "classes/invalid-state-transition.html").read_text(encoding="utf-8")
    assert "709 error records across 2 libraries." in klass
    last = (big_site / "classes/invalid-state-transition-3.html").read_text(encoding="utf-8")
    assert "acme/net · lib/net.rs" in last
    page = next((big_site / "acme/net").glob(f"{2000:016x}-*.html")).read_text(encoding="utf-8")
    assert "this error's family across 2 libraries</a> (709 records)" in page
    assert 'href="../../classes/invalid-state-transition.html"' in page


def test_related_errors_with_one_message_are_told_apart(big_site: Path) -> None:
    page = next((big_site / "acme/db").glob(f"{1000:016x}-*.html")).read_text(encoding="utf-8")
    related = page.split('id="related"')[1].split("</section>")[0]
    titles = re.findall(r'<a href="[^"]+">([^<]+)</a>', related)
    assert len(titles) == 5 and len(set(titles)) == 5
    assert all(t.startswith("invalid state — crates/x/src/s") for t in titles), titles


def test_example_fix_is_highlighted(big_site: Path) -> None:
    page = next((big_site / "acme/db").glob(f"{1:016x}-*.html")).read_text(encoding="utf-8")
    fix = page.split('id="example-fix"')[1].split("</section>")[0]
    assert '<pre class="highlight"><code><span class="' in fix


@pytest.mark.parametrize(
    ("path", "crate"),
    [
        ("src/meta/src/barrier/rpc.rs", "src/meta"),
        ("crates/cargo-util/src/paths.rs", "crates/cargo-util"),
        ("src/cargo/core/compiler/mod.rs", "src"),
        ("build.rs", "(top level)"),
    ],
)
def test_crate_of(path: str, crate: str) -> None:
    assert crate_of(path) == crate
