"""`render`: the seed records' pages carry every section of the seed page; API and indexes."""

from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from render_fixtures import (
    REPO,
    SEED_IDS,
    SEEDS,
    seed_dataset,
    seed_doc,
    write_dataset,
    write_version,
)

from pipeline.core.model import Record
from pipeline.dataset.reader import load_dataset
from pipeline.dataset.summary import Summary
from pipeline.publish.render import RenderError, render_command, render_site
from pipeline.publish.render.pages import SAME_MESSAGE_SHOWN, safe_url, same_message_links
from pipeline.publish.render.related import related_records, same_message

GOLDEN = Path(__file__).parent / "golden"
PAGE = f"{REPO}/f16c5768bcd8aade-should-not-pause-when-having-snapshot-backfill-job.html"


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.thrown: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if "thrown" in (dict(attrs).get("class") or "").split():
            self.thrown.append(dict(attrs).get("id") or "")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def page_text(html: str) -> tuple[str, list[str]]:
    """The visible text of a page (whitespace collapsed) and the ids of marked lines."""
    parser = _Text()
    parser.feed(html)
    return " ".join("".join(parser.parts).split()), parser.thrown


@pytest.fixture
def seed_site(tmp_path: Path) -> Path:
    seed_dataset(tmp_path / "out")
    render_site(tmp_path / "out", tmp_path / "site")
    return tmp_path / "site"


def test_page_and_api_match_golden_files(seed_site: Path) -> None:
    page = (seed_site / PAGE).read_text(encoding="utf-8")
    golden = GOLDEN / "f16c5768bcd8aade.html"
    if os.environ.get("ERRDOC_UPDATE_GOLDEN"):
        golden.write_text(page, encoding="utf-8")
        pytest.fail("golden file rewritten; re-run without ERRDOC_UPDATE_GOLDEN")
    assert page == golden.read_text(encoding="utf-8")
    api = (seed_site / "api/errors/f16c5768bcd8aade.json").read_bytes()
    assert api == (SEEDS / "f16c5768bcd8aade.json").read_bytes()


SEED_SECTIONS = [
    "risingwavelabs/risingwave · {severity}",
    "Error message",
    "What it means",
    "Source",
    "Thrown at {filePath}:{lineNumber}",
    "View on GitHub (pinned to 6469eb736d)",
    "Solutions",
    "Example fix",
    "When it happens",
    "Trigger:",
    "Common situations:",
    "Prevention tips",
    "Understand the failure class",
    "this error's family across 1 library (2 records).",
    "Related errors",
    "of risingwavelabs/risingwave@6469eb736d (2026-09-11). Data as JSON: /api/errors/{id}."
    " Report an issue: GitHub.",
]


@pytest.mark.parametrize("record_id", SEED_IDS)
def test_seed_pages_carry_every_section_of_the_seed_page(seed_site: Path, record_id: str) -> None:
    rec = seed_doc(record_id)["record"]
    html = next((seed_site / REPO).glob(f"{record_id}-*.html")).read_text(encoding="utf-8")
    text, thrown = page_text(html)
    for section in SEED_SECTIONS:
        assert section.format(**rec) in text
    assert " ".join(rec["errorMessage"].split()) in text
    # backticked spans are shown as <code>, so the visible text has no backticks
    assert " ".join(rec["solutions"][0].replace("`", "").split()) in text
    assert "<code>ALTER DATABASE ... RESUME</code>" in html or "`" not in rec["solutions"][0]
    assert thrown == [f"L{rec['lineNumber']}"]
    assert f'href="../../api/errors/{record_id}.json"' in html
    assert 'name="viewport"' in html
    assert "Content-Security-Policy" in html


def test_related_errors_link_the_other_seed(seed_site: Path) -> None:
    html = (seed_site / PAGE).read_text(encoding="utf-8")
    assert 'href="a71b6a9059b622d5-cannot-alter-the-job-because-its-creating-backf.html"' in html


def test_api_index_and_repos(seed_site: Path) -> None:
    index = json.loads((seed_site / "api/index.json").read_text(encoding="utf-8"))
    assert [e["id"] for e in index] == list(SEED_IDS)
    assert set(index[0]) == {"id", "repo", "slug", "message", "pattern", "page"}
    for entry in index:
        assert (seed_site / entry["page"]).is_file()
        assert (seed_site / "api/errors" / f"{entry['id']}.json").is_file()
    repos = json.loads((seed_site / "api/repos.json").read_text(encoding="utf-8"))
    assert repos[0]["repo"] == REPO and repos[0]["records"] == 2
    assert (seed_site / repos[0]["index"]).is_file()


@pytest.mark.parametrize(
    "index", ["classes/invalid-state-transition.html", f"{REPO}/crate/src-meta.html"]
)
def test_listings_show_every_record_without_javascript(seed_site: Path, index: str) -> None:
    html = (seed_site / index).read_text(encoding="utf-8")
    text, _ = page_text(html)
    for rid in SEED_IDS:
        rec = seed_doc(rid)["record"]
        assert " ".join(rec["errorMessage"].split()) in text
        assert f"{rec['filePath']}:{rec['lineNumber']}" in text
    # the search box is a plain form: it leads to the search page with ?q= even without a script
    assert 'search.html" method="get" role="search">' in html and 'name="q"' in html


def _rec(rid: str, **fields: object) -> dict[str, object]:
    return seed_doc("f16c5768bcd8aade")["record"] | {"id": rid} | fields


@pytest.mark.parametrize(
    ("analyzer", "status", "label"),
    [
        ("llm", "ok", "AI-assisted analysis of"),
        ("static", "ok", "Static analysis of"),
        ("llm", "failed", "Static analysis of"),
    ],
)
def test_footer_names_the_analyzer_from_the_manifest(
    tmp_path: Path, analyzer: str, status: str, label: str
) -> None:
    prov = {"analyzer": analyzer, "status": status, "contentHash": "sha256:x", "kind": "bail"}
    write_dataset(
        tmp_path / "out", "acme/db", [_rec("1" * 16, repo="acme/db")], records={"1" * 16: prov}
    )
    render_site(tmp_path / "out", tmp_path / "site")
    page = next((tmp_path / "site/acme/db").glob("1111*.html")).read_text(encoding="utf-8")
    assert label in page_text(page)[0]


def test_retired_records_keep_their_page(tmp_path: Path) -> None:
    old = _rec("2" * 16, repo="acme/db", errorMessage="gone away {}")
    root = write_dataset(
        tmp_path / "out",
        "acme/db",
        [_rec("1" * 16, repo="acme/db")],
        retired={
            "2" * 16: {
                "since": "abcdef0123" + "0" * 30,
                "lastVersion": "v1",
                "errorMessage": "gone away {}",
                "filePath": "src/a.rs",
            },
            "3" * 16: {
                "since": "fedcba9876" + "0" * 30,
                "lastVersion": "v0",
                "errorMessage": "older still",
                "filePath": "src/b.rs",
            },
        },
    )
    write_version(root, "v1", [old])
    report = render_site(tmp_path / "out", tmp_path / "site")
    assert (report.pages, report.retired_pages) == (1, 2)
    full = (tmp_path / "site" / "acme/db" / f"{'2' * 16}-{old['slug']}.html").read_text()
    assert "No longer emitted since abcdef0123" in page_text(full)[0]
    assert "What it means" in page_text(full)[0]
    stub = (tmp_path / "site/acme/db" / f"{'3' * 16}-retired.html").read_text()
    assert "No longer emitted since fedcba9876" in page_text(stub)[0]
    index = page_text((tmp_path / "site/acme/db/index.html").read_text())[0]
    assert "No longer emitted gone away {}" in index


def test_rerender_replaces_the_site_whole(tmp_path: Path, seed_site: Path) -> None:
    (seed_site / "stale.html").write_text("old")
    render_site(tmp_path / "out", seed_site)
    assert not (seed_site / "stale.html").exists()
    assert (seed_site / PAGE).is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_refuses_to_replace_a_directory_it_did_not_make(tmp_path: Path) -> None:
    seed_dataset(tmp_path / "out")
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "notes.txt").write_text("mine")
    with pytest.raises(RenderError, match="not made by errdoc"):
        render_site(tmp_path / "out", tmp_path / "home")
    assert (tmp_path / "home" / "notes.txt").read_text() == "mine"


def test_nothing_to_render_creates_no_directory_on_the_way_to_the_site(tmp_path: Path) -> None:
    # Each missing directory above --site was left behind before (a make test left
    # `$(touch /tmp/...` trees in the project root), only the innermost removed.
    (tmp_path / "keep").mkdir()
    with pytest.raises(RenderError, match="no dataset under"):
        render_site(tmp_path / "none", tmp_path / "keep" / "a" / "b" / "c" / "site")
    assert [p.name for p in tmp_path.rglob("*")] == ["keep"]


def test_cli_renders_and_reports_errors_in_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    empty = runner.invoke(
        render_command, ["--out", str(tmp_path / "none"), "--site", str(tmp_path / "s")]
    )
    assert empty.exit_code == 1
    assert empty.output.strip().count("\n") == 0 and "errdoc extract" in empty.output
    seed_dataset(tmp_path / "out")
    ok = runner.invoke(
        render_command, ["--out", str(tmp_path / "out"), "--site", str(tmp_path / "s")]
    )
    assert ok.exit_code == 0, ok.output
    assert "rendered 2 pages" in ok.output


def test_invalid_record_file_is_named(tmp_path: Path) -> None:
    root = seed_dataset(tmp_path / "out")
    (root / "records" / "a71b6a9059b622d5.json").write_text('{"record": {"id": 1}}')
    with pytest.raises(RenderError, match=r"a71b6a9059b622d5\.json: not a valid record"):
        render_site(tmp_path / "out", tmp_path / "site")


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://github.com/o/n/blob/abc/src/a.rs#L1-L9", True),
        ("http://example.org/x", True),
        ("javascript:alert(1)", False),
        ("JaVaScRiPt:alert(1)", False),
        (" javascript:alert(1)", False),
        ("data:text/html,<script>alert(1)</script>", False),
        ('https://x.org/"onmouseover=alert(1)', False),
        ("//evil.example/x", False),
        ("https:///nohost", False),
    ],
)
def test_only_http_links(url: str, safe: bool) -> None:
    assert (safe_url(url) == url) is safe


def test_related_ranks_shared_tags_then_file_then_words() -> None:
    base = seed_doc("f16c5768bcd8aade")["record"]

    def rec(rid: str, **kw: object) -> Record:
        return Record.model_validate(base | {"id": rid} | kw)

    me = rec("0" * 16, tags=["barrier", "pause"], filePath="a.rs", errorMessage="barrier paused {}")
    two_tags = rec("1" * 16, tags=["barrier", "pause"], filePath="b.rs", errorMessage="x")
    same_file = rec("2" * 16, tags=["other"], filePath="a.rs", errorMessage="y")
    words = rec("3" * 16, tags=["other"], filePath="c.rs", errorMessage="barrier paused again")
    unrelated = rec("4" * 16, tags=["zzz"], filePath="d.rs", errorMessage="nothing")
    ranked = related_records([unrelated, words, same_file, two_tags, me])[me.id]
    assert [r.id for r in ranked] == [two_tags.id, same_file.id, words.id]


def test_seed_records_alone_make_a_dataset(tmp_path: Path) -> None:
    ds = load_dataset(seed_dataset(tmp_path))
    assert ds.repo == REPO and ds.sha.startswith("6469eb736d")
    assert ds.dataset_version == "2026-09-14T16:17:12.679Z"
    assert [r.id for r in ds.records] == list(SEED_IDS) and not ds.retired


def test_a_message_written_at_several_places_lists_the_others_on_each_page(
    tmp_path: Path,
) -> None:
    same = "failed to define a metric"
    bodies = [
        _rec("1" * 16, repo="acme/db", errorMessage=same, filePath="src/b.rs", lineNumber=9),
        _rec("2" * 16, repo="acme/db", errorMessage=same, filePath="src/a.rs", lineNumber=40),
        _rec("3" * 16, repo="acme/db", errorMessage=same, filePath="src/a.rs", lineNumber=7),
        _rec("4" * 16, repo="acme/db", errorMessage="failed to define a metric twice"),
    ]
    write_dataset(tmp_path / "out", "acme/db", bodies)
    render_site(tmp_path / "out", tmp_path / "site")

    def page(rid: str) -> str:
        return next((tmp_path / "site/acme/db").glob(f"{rid}*.html")).read_text(encoding="utf-8")

    text = page_text(page("1" * 16))[0]
    assert "written at 2 other places of this repository" in text
    assert "src/a.rs:7 src/a.rs:40" in text  # file order, itself left out
    assert f'href="{"3" * 16}-' in page("1" * 16)
    assert f'href="{"1" * 16}-' not in page("1" * 16)
    assert "other place" not in page_text(page("4" * 16))[0]  # a message of its own


def test_same_message_links_name_the_first_places_and_count_the_rest() -> None:
    base = seed_doc("f16c5768bcd8aade")["record"]
    records = [
        Record.model_validate(base | {"id": f"{n:016x}", "lineNumber": n + 1, "filePath": "a.rs"})
        for n in range(SAME_MESSAGE_SHOWN + 4)
    ]
    summaries = [
        Summary(
            r.id, r.repo, r.slug, r.errorMessage, r.messagePattern, r.filePath, r.lineNumber,
            r.severity, r.backgroundTag, tuple(r.tags), "bail", "f" if r.lineNumber == 2 else None,
            "static", "ok",
        )
        for r in records
    ]  # fmt: skip
    group = same_message(summaries)[records[0].id]
    links, more = same_message_links(records[0], group)
    assert (len(links), more) == (SAME_MESSAGE_SHOWN, 3)
    assert links[0].title == "a.rs:2 in f" and links[1].title == "a.rs:3"
    assert [r.id for r in group] == [r.id for r in records]  # itself in it, left out of links
