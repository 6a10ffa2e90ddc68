"""`python -m bench.profiled FILE ARGS...`: errdoc's CLI (`errdoc ARGS...`) under cProfile,
the profile written to FILE; exits with the command's status.

`python -m cProfile -m pipeline ...` writes nothing: `pipeline/__main__.py` ends the
process with `os._exit` (no teardown of a large run's objects), before cProfile's own
ending writes its file. Only this process is profiled, not the index child nor the pools.
"""

from __future__ import annotations

import cProfile
import sys

from pipeline.cli import main


def run(argv: list[str]) -> int:
    """Run `errdoc argv[1:]` profiled into `argv[0]`."""
    if not argv:
        print("usage: python -m bench.profiled FILE ERRDOC-ARGS...", file=sys.stderr)
        return 2
    target, args = argv[0], argv[1:]
    profile = cProfile.Profile()
    status = 0
    profile.enable()
    try:
        main(prog_name="errdoc", args=args)
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else int(done.code is not None)
    finally:
        profile.disable()
        profile.dump_stats(target)
    return status


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
