"""One matcher for the site and the CLI: pasted text finds in the browser what `explain` finds."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from devtools import Browser, serve
from render_fixtures import write_dataset
from search_fixtures import BASE, build, pasted
from test_browser import _chromium, _shots_dir

from pipeline.languages.rust.formats import message_pattern
from pipeline.publish.explain_cli import explain_command
from pipeline.publish.render import render_site

pytestmark = pytest.mark.browser
HITS = "Array.from(document.querySelectorAll('#hits li')).map(li => li.dataset.id)"
SCORES = (
    "Array.from(document.querySelectorAll('#hits li .where')).map(d => +/score (\\d+)/"
    ".exec(d.textContent)[1])"
)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[Path, str, list[dict[str, Any]]]]:
    out = tmp_path / "out"
    bodies = build(out)
    render_site(out, tmp_path / "site")
    with serve(tmp_path / "site") as url:
        yield out, url, bodies


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    b = Browser(_chromium(), tmp_path / "profile")
    try:
        yield b
    finally:
        b.close()


def _explain(out: Path, text: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(
        explain_command, ["--out", str(out), "--json", "--limit", "20", text]
    )
    assert result.exit_code in (0, 1), result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout) if result.exit_code == 0 else []
    return rows


def _answer(browser: Browser, wait_for: str) -> list[str]:
    """The hits once the page has answered the text now in the box."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if browser.eval("new URLSearchParams(location.search).get('q')") == wait_for:
            hits: list[str] = browser.eval(HITS)
            return hits
        time.sleep(0.02)
    raise AssertionError("the search page did not answer")


def test_pasted_logs_find_in_the_browser_what_explain_finds(
    browser: Browser, world: tuple[Path, str, list[dict[str, Any]]], tmp_path: Path
) -> None:
    out, url, bodies = world
    patterns = {b["id"]: b["messagePattern"] for b in bodies}
    cases = pasted(bodies, 50)
    browser.open(f"{url}/search.html", width=1000, height=900)
    right = 0
    for text, source in cases:
        expected = _explain(out, text)
        browser.eval(
            "document.getElementById('q').value = ''; document.getElementById('q').focus()"
        )
        browser.send("Input.insertText", text=text)  # what a paste does: one input event
        got = _answer(browser, text)
        assert got == [m["id"] for m in expected], text
        assert browser.eval(SCORES) == [m["score"] for m in expected], text
        # and the answer is the record the text came from (or one printing the same pattern)
        assert expected and patterns[expected[0]["id"]] == patterns[source], text
        right += expected[0]["id"] == source
    assert right >= 45  # same-pattern records without a location are a tie broken by path
    first = browser.eval("document.querySelector('#hits li .where').textContent")
    assert " in Handler::fn_" in first  # the file and the enclosing item tell records apart
    browser.screenshot(_shots_dir(tmp_path) / "search-results.png")
    assert browser.problems() == []


def test_a_q_link_gives_the_same_answer(
    browser: Browser, world: tuple[Path, str, list[dict[str, Any]]], tmp_path: Path
) -> None:
    out, url, bodies = world
    for text, _ in pasted(bodies, 50, seed=11)[:25]:
        browser.open(f"{url}/search.html?q={quote(text)}", width=800, height=900)
        assert _answer(browser, text) == [m["id"] for m in _explain(out, text)], text
    assert browser.eval("document.getElementById('q').value") == text
    browser.click("#hits li a")
    browser.wait_event("Page.loadEventFired")
    assert browser.eval("document.querySelector('#message code').textContent")
    shot = _shots_dir(tmp_path) / "record-from-search.png"
    browser.screenshot(shot)
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert browser.problems() == []


def _one_site(tmp_path: Path, messages: list[str], first_id: int) -> tuple[Path, list[str]]:
    """A dataset of `messages` (ids from `first_id`) under tmp_path/out, rendered into
    tmp_path/site; returns OUT and the records' ids in order."""
    bodies = [
        BASE
        | {
            "id": f"{first_id + i:016x}", "slug": f"m-{i}", "errorMessage": m,
            "messagePattern": message_pattern(m), "filePath": f"src/m{i}.rs", "lineNumber": 9,
        }
        for i, m in enumerate(messages)
    ]  # fmt: skip
    out = tmp_path / "out"
    write_dataset(out, BASE["repo"], bodies, records={b["id"]: {"kind": "bail"} for b in bodies})
    render_site(out, tmp_path / "site")
    return out, [b["id"] for b in bodies]


def _same_in_browser(browser: Browser, site: Path, out: Path, cases: dict[str, str]) -> None:
    """Each text pasted into the site's search answers what `explain` answers, ids and scores
    alike, its first hit the record `cases` names."""
    with serve(site) as url:
        browser.open(f"{url}/search.html", width=1000, height=900)
        for text, source in cases.items():
            expected = _explain(out, text)
            assert expected and expected[0]["id"] == source, text
            browser.eval(
                "document.getElementById('q').value = ''; document.getElementById('q').focus()"
            )
            browser.send("Input.insertText", text=text)
            assert _answer(browser, text) == [m["id"] for m in expected], text
            assert browser.eval(SCORES) == [m["score"] for m in expected], text


def test_a_first_line_or_an_empty_value_finds_in_the_browser_what_explain_finds(
    browser: Browser, tmp_path: Path
) -> None:
    """A message pasted by its first line (cargo's "no such command: `x`" then its help) and
    one whose last value printed nothing (rustup's "is not installed{}") are found, by both."""
    out, ids = _one_site(
        tmp_path,
        [
            "no such command: `{}`\n\nhelp: view all installed commands with `cargo --list`",
            "toolchain '{}' is not installed{}",
            "no such file: `{}`",
        ],
        0xB000,
    )
    cases = {
        "error: no such command: `frobnicate`": ids[0],
        "error: no such command: `x`\n\nhelp: view all installed commands with `cargo --list`": (
            ids[0]
        ),
        "error: toolchain 'nightly-x86_64' is not installed": ids[1],
    }
    _same_in_browser(browser, tmp_path / "site", out, cases)
    # the whole message outranks its first line alone
    full = _explain(out, next(t for t in cases if "help:" in t))[0]["score"]
    assert full > _explain(out, "error: no such command: `x`")[0]["score"]


def test_a_site_filling_a_templates_value_is_first_in_the_browser_as_in_explain(
    browser: Browser, tmp_path: Path
) -> None:
    """nushell's `#[error("Parse mismatch: expected {0}.")]` and the site that built it with
    "valid variable name": the site is first, one above the template, in both."""
    out, ids = _one_site(
        tmp_path,
        ["Parse mismatch: expected {0}.", "valid variable name", "job {} failed: {}",
         "snapshot {} too old"],
        0xC000,
    )  # fmt: skip
    cases = {
        "Error: Parse mismatch: expected valid variable name.": ids[1],
        "Parse mismatch: expected valid variable names or more.": ids[0],
        "ERROR job 7 failed: snapshot 12 too old": ids[3],
    }
    _same_in_browser(browser, tmp_path / "site", out, cases)
    first = _explain(out, next(iter(cases)))
    assert first[0]["score"] == first[1]["score"] + 1
    assert browser.problems() == []
