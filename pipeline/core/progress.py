"""A progress bar on stderr, shown only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO


class Progress:
    """`with Progress(total, "files") as bar: bar.advance(n)`; silent when not a TTY."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total = max(total, 0)
        self.label = label
        self.done = 0
        self._stream = stream if stream is not None else sys.stderr
        self._enabled = self._stream.isatty() and self.total > 0
        self._last = 0.0
        self._start = time.monotonic()

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._enabled:
            self._draw(force=True)
            self._stream.write("\n")
            self._stream.flush()

    def advance(self, count: int = 1) -> None:
        """Count `count` more units done."""
        self.done += count
        if self._enabled:
            self._draw()

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        filled = width * self.done // self.total if self.total else width
        rate = self.done / max(now - self._start, 1e-6)
        bar = "#" * filled + "-" * (width - filled)
        line = f"\r{self.label:>10} [{bar}] {self.done}/{self.total} ({rate:,.0f}/s)"
        self._stream.write(line)
        self._stream.flush()
