"""Phase marks on stderr, to read where a run's time goes (`ERRDOC_TIMELINE=1`).

Each mark is one line: the wall clock, the process, its CPU seconds and minor page faults
so far, the CPU seconds of its children that ended (its pools' workers, its forks), and the
phase, e.g. `timeline: 1764702000.123 pid=4200 cpu=0.44 faults=7854 kids=2.31 scanned`.
The run and its index child both mark (`index: ..`), so that the two sides of a run line
up on one clock: which waited for which, and what the other core did meanwhile.
Off (the default), a mark costs one environment lookup.
"""

from __future__ import annotations

import os
import resource
import sys
import time

ENV = "ERRDOC_TIMELINE"


def mark(phase: str) -> None:
    """Print a mark for `phase` on stderr when `ERRDOC_TIMELINE` is set (to anything but 0)."""
    if os.environ.get(ENV, "") in ("", "0"):
        return
    spent = os.times()
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    line = (
        f"timeline: {time.time():.3f} pid={os.getpid()} cpu={spent.user + spent.system:.2f} "
        f"faults={faults} kids={spent.children_user + spent.children_system:.2f} {phase}\n"
    )
    # One write of the whole line, past Python's buffer: the run and its index child share
    # the stream, and a line must not be split or held in a buffer a fork copied.
    sys.stderr.flush()
    try:
        os.write(sys.stderr.fileno(), line.encode())
    except (OSError, ValueError):  # no file descriptor (a test's captured stream)
        print(line, end="", file=sys.stderr, flush=True)
