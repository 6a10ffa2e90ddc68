"""A real browser opens the rendered site: the page shows, the index search filters as one types.

Headless Chromium (Debian's `chromium`) is driven over the DevTools protocol on a pipe
(`--remote-debugging-pipe`), so neither chromedriver nor a websocket library is needed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from devtools import Browser, chromium, serve
from render_fixtures import REPO, seed_dataset

from pipeline.publish.render import render_site

pytestmark = pytest.mark.browser


def _chromium() -> str:
    found = chromium()
    if found:
        return found
    pytest.fail(
        "headless Chromium is not installed: run `apt-get install -y chromium` (.ci/run does)"
    )


@pytest.fixture
def site_url(tmp_path: Path) -> Iterator[str]:
    seed_dataset(tmp_path / "out")
    render_site(tmp_path / "out", tmp_path / "site")
    with serve(tmp_path / "site") as url:
        yield url


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    b = Browser(_chromium(), tmp_path / "profile")
    try:
        yield b
    finally:
        b.close()


def _shots_dir(tmp_path: Path) -> Path:
    where = Path(os.environ.get("ERRDOC_SCREENSHOTS", tmp_path / "shots"))
    where.mkdir(parents=True, exist_ok=True)
    return where


def test_index_search_box_finds_a_pasted_line(
    browser: Browser, site_url: str, tmp_path: Path
) -> None:
    browser.open(f"{site_url}/{REPO}/index.html", width=390, height=844)
    browser.click("#search")
    browser.send("Input.insertText", text="should not pause when having snapshot backfill job 42")
    browser.click("#search-box button")
    browser.wait_event("Page.loadEventFired")
    assert browser.eval("location.pathname") == "/search.html"
    deadline = time.monotonic() + 10
    while not browser.eval("document.querySelector('#hits li')") and time.monotonic() < deadline:
        time.sleep(0.02)
    hits = browser.eval(
        "Array.from(document.querySelectorAll('#hits li')).map(li => li.dataset.id)"
    )
    assert hits == ["f16c5768bcd8aade"]
    where = browser.eval("document.querySelector('#hits .where').textContent")
    assert "src/meta/src/barrier/rpc.rs:1074" in where
    shot = _shots_dir(tmp_path) / "search-phone.png"
    browser.screenshot(shot)
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert browser.problems() == []


def test_record_page_renders_on_a_phone(browser: Browser, site_url: str, tmp_path: Path) -> None:
    browser.open(f"{site_url}/{REPO}/index.html", width=390, height=844)
    browser.click("#crate a[href='crate/src-meta.html']")
    browser.wait_event("Page.loadEventFired")
    browser.click("#records a[href*='a71b6a9059b622d5']")
    browser.wait_event("Page.loadEventFired")
    assert browser.eval("location.pathname").startswith(f"/{REPO}/a71b6a9059b622d5-")
    assert browser.eval("document.querySelector('h1').textContent").startswith(
        "Cannot alter the job"
    )
    # the page is no wider than the phone: long code scrolls inside its own box
    assert browser.eval("document.documentElement.scrollWidth") <= 390
    assert browser.eval("getComputedStyle(document.querySelector('.thrown')).backgroundColor") != (
        "rgba(0, 0, 0, 0)"
    )
    assert browser.eval("getComputedStyle(document.querySelector('.highlight .k')).color") != (
        browser.eval("getComputedStyle(document.querySelector('.highlight .n')).color")
    )
    browser.eval("document.querySelector('.thrown').scrollIntoView({block: 'center'})")
    shot = _shots_dir(tmp_path) / "record-phone.png"
    browser.screenshot(shot)
    assert shot.stat().st_size > 10_000
    assert browser.problems() == []
