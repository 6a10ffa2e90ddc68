"""`python -m bench.treewide CMD...`: run CMD and wait for every process it leaves behind, so
that `/usr/bin/time` around this counts the CPU time and peak RSS of the whole tree.

A process counts its children's usage only once it has waited for them: errdoc's index
child ends just after the run (the run does not wait for its teardown), and an orphan is
reaped by whoever adopts it. This process adopts them (`PR_SET_CHILD_SUBREAPER`) and reaps
them. It prints CMD's own wall time, to CMD's exit (not its orphans'), as `wall <seconds>`
on stderr, and exits with CMD's status.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import time

_PR_SET_CHILD_SUBREAPER = 36


def run(argv: list[str]) -> int:
    """Run `argv`, reap what it leaves, print its wall time; its exit status."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
    start = time.perf_counter()
    status = subprocess.call(argv)
    wall = time.perf_counter() - start
    while True:  # the orphans adopted meanwhile
        try:
            os.wait()
        except ChildProcessError:
            break
    print(f"wall {wall:.3f}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
