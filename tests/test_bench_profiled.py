"""`python -m bench.profiled`: a profile of errdoc's CLI that `python -m cProfile -m pipeline`
cannot give (the CLI ends with `os._exit`, before cProfile writes its file)."""

from __future__ import annotations

import os
import pstats
import subprocess
import sys
from pathlib import Path

from gitrepo import GitRepo

ROOT = Path(__file__).parent.parent


def _run(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ERRDOC_CACHE": str(cache)}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_a_profiled_run_writes_its_profile_and_keeps_the_command_s_status(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({"src/lib.rs": 'pub fn f() { panic!("boom"); }\n'})
    common = ["extract", "--repo", "o/n", "--sha", sha, "--source", str(repo.path)]
    out = ["--out", str(tmp_path / "out")]
    plain = _run("-m", "cProfile", "-o", str(tmp_path / "plain.prof"), "-m", "pipeline",
                 *common, *out, cache=tmp_path / "c1")  # fmt: skip
    assert plain.returncode == 0 and not (tmp_path / "plain.prof").exists()  # why it exists

    done = _run("-m", "bench.profiled", str(tmp_path / "run.prof"), *common, "--force", *out,
                cache=tmp_path / "c2")  # fmt: skip
    assert done.returncode == 0, done.stderr
    functions = {name for _, _, name in pstats.Stats(str(tmp_path / "run.prof")).stats}  # type: ignore[attr-defined]
    assert "run_extract" in functions

    refused = _run("-m", "bench.profiled", str(tmp_path / "bad.prof"), "extract", "--repo", "x",
                   cache=tmp_path / "c3")  # fmt: skip
    assert refused.returncode == 2 and (tmp_path / "bad.prof").exists()
