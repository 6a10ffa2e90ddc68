import contextlib
import os
import sys

from pipeline.cli import main


def _status() -> int:
    """The command's exit status (a non-numeric `sys.exit` goes on as it came)."""
    try:
        main(prog_name="errdoc")
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            return done.code or 0
        raise
    return 0


status = _status()
# The run's objects are not freed one by one on the way out (0.2-0.3 s after a large run):
# what needed closing is closed (the commands end in `finally` blocks), the output is
# flushed here, and the kernel takes the memory back. Only for `python -m pipeline`: a
# caller of `main()` (tests, click's runner) keeps its interpreter.
try:
    with contextlib.suppress(BrokenPipeError):  # the reader went away: as `main` does, quietly
        sys.stdout.flush()
    sys.stderr.flush()
finally:
    os._exit(status)
