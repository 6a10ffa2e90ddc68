"""A full disk and a concurrent publish: one-line errors, no staging tree left, the old data
whole (issue 16: 10, 14). The disk fills for real: RLIMIT_FSIZE makes the kernel refuse a
write past the limit (EFBIG), as ENOSPC would, in a child process."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gitrepo import GitRepo

ROOT = Path(__file__).resolve().parent.parent
REPO = "o/n"


def _lib(n: int) -> str:
    return "".join(
        f'fn f{i}() -> anyhow::Result<()> {{\n    anyhow::bail!("failure number {i} of many");\n}}\n'
        for i in range(n)
    )


def _cli(*args: str | Path, limit: int | None = None) -> subprocess.CompletedProcess[str]:
    def _limited() -> None:
        if limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a refused write, not a killed process
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "pipeline", *map(str, args)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_limited,
    )


def _hidden(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name.startswith("."))


def test_a_publish_that_fills_the_disk_leaves_no_staging_tree(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    small = repo.commit({"src/lib.rs": _lib(3)})
    large = repo.commit({"src/lib.rs": _lib(400)})  # records.jsonl far past the limit
    out, cache = tmp_path / "out", tmp_path / "cache"
    args = ("extract", "--repo", REPO, "--source", repo.path, "--cache", cache, "--sha")
    warm = _cli(*args, large, "--out", tmp_path / "warm")  # the scan cache needs no write later
    assert warm.returncode == 0, warm.stderr
    first = _cli(*args, small, "--out", out)
    assert first.returncode == 0, first.stderr
    before = sorted((out / REPO / "records").iterdir())
    record_size = max(p.stat().st_size for p in before)
    full = _cli(*args, large, "--out", out, limit=record_size * 20)
    assert full.returncode != 0, full.stderr
    lines = [ln for ln in full.stderr.splitlines() if ln.strip()]
    assert lines[-1].startswith("errdoc: error:") and "Traceback" not in full.stderr, full.stderr
    assert _hidden(out / "o") == [], _hidden(out / "o")  # no staging, trash or spare left
    assert sorted((out / REPO / "records").iterdir()) == before  # the old version stands
    versions = sorted(p.name for p in (out / REPO / "versions").iterdir())
    assert len(versions) == 1, versions  # no orphan version file either


def test_a_render_that_fills_the_disk_is_one_line_and_leaves_nothing(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({"src/lib.rs": _lib(200)})
    out, site = tmp_path / "out", tmp_path / "web" / "site"
    done = _cli("extract", "--repo", REPO, "--sha", "main", "--source", repo.path, "--out", out)
    assert done.returncode == 0, done.stderr
    full = _cli("render", "--out", out, "--site", site, limit=4096)
    assert full.returncode == 1, full.stderr
    assert full.stderr.startswith("errdoc: error:") or full.stderr.startswith("Error:"), full.stderr
    assert "Traceback" not in full.stderr and len(full.stderr.strip().splitlines()) == 1
    # the half-written site is gone, and so is the parent directory render made for it
    assert not (tmp_path / "web").exists()


@pytest.mark.timeout(240)
def test_render_while_an_extract_publishes_never_tracebacks(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    shas = [repo.commit({"src/lib.rs": _lib(n)}) for n in (30, 60)]
    out, cache = tmp_path / "out", tmp_path / "cache"
    base = ("extract", "--repo", REPO, "--source", repo.path, "--out", out, "--cache", cache)
    assert _cli(*base, "--sha", shas[0]).returncode == 0
    code = (
        "import sys\nfrom pipeline.cli import main\n"
        f"for n in range(40):\n"
        f"    try:\n        main({[*map(str, base)]!r} + ['--sha', {shas!r}[n % 2]])\n"
        "    except SystemExit as e:\n        assert not e.code, e.code\n"
    )
    writer = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    outcomes: list[int] = []
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and writer.poll() is None:
            done = _cli("render", "--out", out, "--site", tmp_path / "site")
            assert "Traceback" not in done.stderr, done.stderr
            assert done.returncode == 0, done.stderr
            outcomes.append(done.returncode)
    finally:
        writer.kill()
        writer.wait()
    assert outcomes, "no render ran while the writer published"
    index = json.loads((tmp_path / "site" / "api" / "index.json").read_text())
    assert len(index) in (30, 60)
