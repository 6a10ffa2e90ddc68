"""Headless Chromium driven over the DevTools pipe, and a static server: one client for the
browser tests and the site's search bench (`bench.explain_stage` imports it, as bench
imports `tests.llm_server`).

`--remote-debugging-pipe` needs neither chromedriver nor a websocket library.
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
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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

    def __init__(self, binary: str, profile: Path, timeout: float = 20) -> None:
        self.timeout = timeout  # seconds a command or an event may take by default
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

    def send(self, method: str, timeout: float | None = None, **params: Any) -> dict[str, Any]:
        self._next += 1
        msg: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self._write, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            answer = self._message(deadline)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result
            self.events.append(answer)

    def wait_event(self, method: str, timeout: float | None = None) -> dict[str, Any]:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            for n, ev in enumerate(self.events):
                if ev.get("method") == method:
                    return self.events.pop(n)
            self.events.append(self._message(deadline))

    def open(self, url: str, width: int = 1280, height: int = 800) -> None:
        """A new tab at `url` in a window of that size, once its load event fired."""
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
        if "exceptionDetails" in answer:
            raise RuntimeError(str(answer["exceptionDetails"].get("text")))
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


def chromium() -> str | None:
    """The Chromium binary, if one is installed."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve(root: Path) -> Iterator[str]:
    """A loopback HTTP server over `root`; yields its base URL."""
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
