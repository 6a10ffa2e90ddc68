"""`ERRDOC_TIMELINE=1` marks the phases of a run on stderr, the run's and its index
child's on one clock (`pipeline/core/timeline.py`); unset, a run prints none."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from gitrepo import GitRepo

ROOT = Path(__file__).parent.parent
_MARK = re.compile(r"^timeline: (\d+\.\d+) pid=(\d+) cpu=\d+\.\d\d faults=\d+ kids=\d+\.\d\d (.+)$")


def _extract(tmp_path: Path, **env: str) -> str:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(
        {
            "src/main.rs": "mod a;\nfn main() -> anyhow::Result<()> {\n    a::run(3)\n}\n",
            "src/a.rs": 'pub fn run(x: u32) -> anyhow::Result<()> {\n    anyhow::ensure!(x < 2, "too many: {x}");\n    Ok(())\n}\n',
        }
    )
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "extract", "--repo", "acme/svc", "--sha", sha,
         "--source", str(repo.path), "--out", str(tmp_path / "out"),
         "--cache", str(tmp_path / "cache")],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **env}, capture_output=True,
        check=True, text=True,
    )  # fmt: skip
    return done.stderr


def test_a_timeline_marks_the_run_and_its_index_child_in_order(tmp_path: Path) -> None:
    printed = _extract(tmp_path, ERRDOC_TIMELINE="1")
    marks = [m.groups() for m in map(_MARK.match, printed.splitlines()) if m]
    phases = [phase for _, _, phase in marks]
    run = [phase for _, pid, phase in marks if pid == marks[0][1]]
    child = {pid for _, pid, phase in marks if phase.startswith("index: ")}
    assert run[0] == "start" and run[-1] == "published", printed
    assert "scanned" in run, printed  # (a CI run once missed it: what was printed, then)
    assert (
        run.index("scanned")
        < run.index("sending the sites to the index")
        < run.index("reach received")
    )
    assert len(child) == 1 and child != {marks[0][1]}  # the index child, a process of its own
    for phase in (
        "index: indexed",
        "index: linked",
        "index: sites received",
        "index: reach.json made",
    ):
        assert phase in phases
    # one clock: the child finds the reaches after it got the sites, before the run has them
    at = {phase: float(when) for when, _, phase in marks}
    assert (
        at["sending the sites to the index"]
        <= at["index: sites received"]
        <= at["index: reaches found"]
    )
    assert at["index: reaches found"] <= at["reach received"]


def test_without_it_a_run_prints_no_mark(tmp_path: Path) -> None:
    assert "timeline:" not in _extract(tmp_path, ERRDOC_TIMELINE="0")
