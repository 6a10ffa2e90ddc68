"""One writer at a time: an advisory `flock` that the kernel drops when its holder dies."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


class LockedError(Exception):
    """Another errdoc run holds the lock."""


@contextlib.contextmanager
def exclusive(path: Path, what: str) -> Iterator[None]:
    """Hold `path` locked for the duration, or raise `LockedError` at once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise LockedError(
                f"another errdoc run (pid {holder}) is writing {what}; wait for it to finish"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)
