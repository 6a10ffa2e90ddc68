"""A real browser opens the rendered site: the page shows, the index search filters as one types.

Headless Chromium (Debian's `chromium`) is driven over the DevTools protocol on a pipe
(`--remote-debugging-pipe`), so neither chromedriver nor a websocket library is needed.
"""

from __future__ import annotations

import base64
import fcntl
import functools
import http.server
import json
import os
import select
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from render_fixtures import REPO, seed_dataset

from pipeline.publish.render import render_site

pytestmark = pytest.mark.browser
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-pipe",
    "--hide-scrollbars",
    "about:blank",
]


def _high(fd: int) -> int:
    """The same pipe end above fd 10, so that moving the ends to 3 and 4 cannot clash."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


class Browser:
    """The DevTools protocol over Chromium's pipe: JSON messages, each ended by a NUL byte."""

    def __init__(self, binary: str, profile: Path) -> None:
        to_child, self._write = (_high(fd) for fd in os.pipe())
        self._read, from_child = (_high(fd) for fd in os.pipe())

        def fds() -> None:  # Chromium reads commands on fd 3 and answers on fd 4
            os.dup2(to_child, 3)
            os.dup2(from_child, 4)

        # close_fds=False keeps 3 and 4; every other descriptor Python made is close-on-exec
        self.proc = subprocess.Popen(
            [binary, f"--user-data-dir={profile}", *FLAGS],
            preexec_fn=fds,
            close_fds=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_child)
        os.close(from_child)
        self._buf = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def _message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._read], [], [], left)[0]:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._read, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        msg: dict[str, Any] = json.loads(raw)
        return msg

    def send(self, method: str, timeout: float = 20, **params: Any) -> dict[str, Any]:
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self._write, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._message(deadline)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result
            self.events.append(answer)

    def wait_event(self, method: str, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for n, ev in enumerate(self.events):
                if ev.get("method") == method:
                    return self.events.pop(n)
            self.events.append(self._message(deadline))

    def open(self, url: str, width: int, height: int) -> None:
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.send("Page.enable")
        self.send("Log.enable")
        self.send("Runtime.enable")
        self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=width < 600,
        )
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def eval(self, expression: str) -> Any:
        answer = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return answer["result"].get("value")

    def type(self, text: str) -> None:
        for ch in text:
            self.send("Input.dispatchKeyEvent", type="keyDown", text=ch, key=ch, unmodifiedText=ch)
            self.send("Input.dispatchKeyEvent", type="keyUp", key=ch)

    def click(self, selector: str) -> None:
        box = self.eval(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        for kind in ("mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                type=kind,
                x=box[0],
                y=box[1],
                button="left",
                clickCount=1,
            )

    def screenshot(self, path: Path) -> None:
        data = self.send("Page.captureScreenshot", format="png", captureBeyondViewport=False)
        path.write_bytes(base64.b64decode(data["data"]))

    def problems(self) -> list[str]:
        """Console errors and exceptions so far (a CSP violation shows up here)."""
        out = []
        for ev in self.events:
            if ev.get("method") == "Log.entryAdded" and ev["params"]["entry"]["level"] == "error":
                out.append(ev["params"]["entry"]["text"])
            if ev.get("method") == "Runtime.exceptionThrown":
                out.append(str(ev["params"]["exceptionDetails"].get("text")))
        return out

    def close(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._read)
        os.close(self._write)


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail(
        "headless Chromium is not installed: run `apt-get install -y chromium` (.ci/run does)"
    )


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def site_url(tmp_path: Path) -> Iterator[str]:
    seed_dataset(tmp_path / "out")
    render_site(tmp_path / "out", tmp_path / "site")
    handler = functools.partial(_QuietHandler, directory=str(tmp_path / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


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
