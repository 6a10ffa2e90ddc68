"""One writer at a time: an advisory `flock` that the kernel drops when its holder dies.

A forked child (a parser process of the scan) shares the parent's lock, and would
keep it after the parent is killed; so every child closes the locks it inherits.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path


class LockedError(Exception):
    """Another errdoc run holds the lock."""


_held: set[int] = set()  # descriptors of the locks this process holds


def _drop_inherited() -> None:
    for fd in _held:
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


os.register_at_fork(after_in_child=_drop_inherited)


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
        _held.add(fd)
        yield
    finally:
        _held.discard(fd)
        os.close(fd)
