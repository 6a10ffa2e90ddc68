"""`python -m bench.treewide`: the index bench's CPU and peak RSS count the whole process tree,
also a process the command leaves behind (errdoc's index child ends just after the run);
the wall time printed is the command's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent

# Leaves a child that works 0.8 s of CPU after the command's exit, then writes `done`.
ORPHAN = """
import os, sys, time
if os.fork() == 0:
    start = time.process_time()
    while time.process_time() - start < 0.8:
        pass
    open(sys.argv[1], "w").write("done")
    os._exit(0)
sys.exit(3)
"""


def test_the_tree_is_counted_whole_and_the_wall_time_is_the_command_s(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M %U %S", sys.executable, "-m", "bench.treewide",
         sys.executable, "-c", ORPHAN, str(marker)],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 3  # the command's status
    assert marker.read_text() == "done"  # its orphan was waited for
    lines = done.stderr.strip().splitlines()
    _, user, system = lines[-1].split()
    assert float(user) + float(system) >= 0.8  # and counted
    wall = float(next(line for line in lines if line.startswith("wall "))[5:])
    assert wall < 0.8  # the command's own: it did not wait for the orphan
