"""Worker processes end with the run that started them, even when it is killed.

A `ProcessPoolExecutor` worker blocks reading its task pipe; when the parent is killed
with SIGKILL, the other workers still hold that pipe open, so no worker ever sees EOF:
they and their `git cat-file` children would sleep forever. Linux delivers a signal to
a process whose parent dies when asked to (`PR_SET_PDEATHSIG`); elsewhere this is a no-op.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a pool worker, ask the kernel for SIGKILL when the run exits (Linux only).

    A no-op in the run's own process (a pool of one runs its work inline): errdoc itself
    must outlive a shell or a `make` that started it.
    """
    parent = multiprocessing.parent_process()
    if parent is None or not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent.pid:  # the run died before the request: nobody left to serve
        os._exit(1)
