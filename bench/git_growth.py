"""Git history growth of a dataset committed version after version (the scheduled workflow).

`extract` at HEAD~(steps*step), then `steps` regenerations `step` commits apart,
OUT committed to a git repository after each (as the workflow does), `git gc`
then `git count-objects -v` after each commit: the history's packed size grows
by what each version adds. Printed beside the dataset's own size on disk.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.common import rev_parse

# What a dataset directory holds that is no part of a version (see README, "Committing OUT").
GITIGNORE = ".*.spare/\n.*.staging-*/\n.*.trash-*/\n.lock\n"


@dataclass(frozen=True)
class Growth:
    """Packed history size after the first commit and after each later one (KiB)."""

    sizes: list[int]
    dataset_kib: int
    versions_kib: int

    def per_version(self) -> float:
        return (self.sizes[-1] - self.sizes[0]) / max(1, len(self.sizes) - 1)


def _git(out: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(out), *args], check=True, capture_output=True, text=True
    )
    return done.stdout


def _commit_and_measure(out: Path, message: str) -> int:
    _git(out, "add", "-A")
    _git(out, "commit", "-q", "--allow-empty", "-m", message)
    _git(out, "gc", "-q", "--prune=now")
    found = dict(
        line.split(": ", 1)
        for line in _git(out, "count-objects", "-v").splitlines()
        if ": " in line
    )
    return int(found["size-pack"]) + int(found["size"])


def _du(path: Path, skip: str | None = None) -> int:
    total = 0
    for item in path.rglob("*"):
        if skip and skip in item.parts:
            continue
        if item.is_file() and not item.is_symlink():
            total += item.stat().st_size
    return total // 1024


def measure(
    source: str,
    head: str,
    history: tuple[int, int],
    out: Path,
    run: tuple[Callable[[str, str], float], Callable[[str, str], float]],
) -> Growth:
    """Extract then regenerate `history` = (steps, commits per step) into `out` (the OUT of
    the run named `git`), committing after each version; `run` = (extract, regenerate)."""
    steps, step = history
    extract, regenerate = run
    start = rev_parse(source, f"{head}~{steps * step}")
    extract("git", start)
    _git(out, "init", "-q")
    _git(out, "config", "user.email", "bench@errdoc")
    _git(out, "config", "user.name", "errdoc bench")
    (out / ".gitignore").write_text(GITIGNORE)
    sizes = [_commit_and_measure(out, f"dataset at {start[:10]}")]
    for n in range(steps - 1, -1, -1):
        sha = rev_parse(source, f"{head}~{n * step}")
        regenerate("git", sha)
        sizes.append(_commit_and_measure(out, f"dataset at {sha[:10]}"))
    datasets = [p for p in out.iterdir() if p.is_dir() and p.name != ".git"]
    return Growth(
        sizes,
        sum(_du(p) for p in datasets),
        sum(_du(v) for p in datasets for v in p.glob("*/versions")),
    )
