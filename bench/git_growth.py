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
    done = subprocess.run(["git", "-C", str(out), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} in {out}: {done.stderr.strip()}")
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


def _du(path: Path) -> int:
    """KiB of the files under `path` (their sizes, each once)."""
    total = 0
    for item in path.rglob("*"):
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
    _git(out, "config", "gc.auto", "0")  # no background gc racing the measured one
    (out / ".gitignore").write_text(GITIGNORE)
    sizes = [_commit_and_measure(out, f"dataset at {start[:10]}")]
    for n in range(steps - 1, -1, -1):
        sha = rev_parse(source, f"{head}~{n * step}")
        regenerate("git", sha)
        sizes.append(_commit_and_measure(out, f"dataset at {sha[:10]}"))
    datasets = [  # OUT/<owner>/<name>, not the spare tree nor git's own files
        name
        for owner in out.iterdir()
        if owner.is_dir() and not owner.name.startswith(".")
        for name in owner.iterdir()
        if name.is_dir() and not name.name.startswith(".")
    ]
    return Growth(
        sizes,
        sum(_du(p) for p in datasets),
        sum(_du(p / "versions") for p in datasets),
    )
