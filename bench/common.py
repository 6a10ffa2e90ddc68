"""What the bench stages share: the source arguments, a work directory, git, the CLI."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

SOURCE_ENV = "ERRDOC_BENCH_SOURCE"  # a local clone (bare is fine) of DEFAULT_REPO
DEFAULT_REPO = "risingwavelabs/risingwave"
ERRDOC = [sys.executable, "-m", "pipeline"]


class BenchError(Exception):
    """A stage could not run to its figures (a command failed, the source is missing)."""


def index_code() -> str:
    """What runs the index in the runs measured: its modules compiled (`pipeline.core.native`,
    built from these sources) or as Python; said with every figure it moves."""
    from pipeline.core.native import usable_build

    if os.environ.get("ERRDOC_PURE") == "1":
        return "index modules: Python (ERRDOC_PURE=1)"
    if usable_build() is None:
        return "index modules: Python (no mypyc build of these sources: `make native`)"
    return "index modules: compiled with mypyc (pipeline/_native)"


def add_source_args(parser: argparse.ArgumentParser) -> None:
    """`--source` (a local bare repository), `--repo` (its name) and `--rev`."""
    parser.add_argument(
        "--source",
        default=default_source(),
        help=f"a local (bare) git repository (default: ${SOURCE_ENV})",
    )
    parser.add_argument("--repo", default=DEFAULT_REPO)
    parser.add_argument("--rev", default="HEAD")


def default_source() -> str | None:
    """The benchmark repository named by the environment, if any."""
    return os.environ.get(SOURCE_ENV) or None


def no_source_help(repo: str = DEFAULT_REPO) -> str:
    """What to do when no benchmark repository is given."""
    return (
        f"no source repository: pass --source DIR or set {SOURCE_ENV}=DIR, DIR a local clone "
        f"of {repo} (git clone --mirror https://github.com/{repo} DIR)"
    )


def require_source(args: argparse.Namespace) -> None:
    """Raise BenchError unless `args.source` is given and exists."""
    if not args.source:
        raise BenchError(no_source_help(args.repo))
    if not Path(args.source).exists():
        raise BenchError(
            f"{args.source} does not exist; pass --source <a local clone of {args.repo}>"
        )


@contextmanager
def workdir(prefix: str) -> Iterator[Path]:
    """A new temporary directory, removed with everything in it on the way out."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def ast_grep() -> str:
    """The `ast-grep` of this environment (a dev dependency), else the one on PATH."""
    return shutil.which("ast-grep", path=str(Path(sys.executable).parent)) or "ast-grep"


def describe(cmd: list[str]) -> str:
    """A command as a reader knows it: `errdoc extract ...` rather than the interpreter's path."""
    for start in range(len(cmd)):  # past a wrapper such as `/usr/bin/time`
        if cmd[start : start + len(ERRDOC)] == ERRDOC:
            cmd = ["errdoc", *cmd[start + len(ERRDOC) :]]
            break
    return " ".join(cmd[:4]) + (" ..." if len(cmd) > 4 else "")


def run_ok(
    cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a command that must succeed (output captured); BenchError with its stderr if not."""
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, check=False)
    if proc.returncode != 0:
        raise BenchError(f"{describe(cmd)} failed (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    return proc


def git(git_dir: str, *args: str) -> bytes:
    """The stdout of a git command on `git_dir` (BenchError if it fails)."""
    proc = subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True, check=False)
    if proc.returncode != 0:
        raise BenchError(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace')}")
    return proc.stdout


def rev_parse(git_dir: str, rev: str) -> str:
    """The full sha of the commit `rev` names."""
    return git(git_dir, "rev-parse", "--verify", f"{rev}^{{commit}}").decode().strip()


def manifest(out: Path, repo: str) -> dict[str, Any]:
    """The published manifest of `repo` under the dataset directory `out`."""
    data: dict[str, Any] = json.loads((out / repo / "manifest.json").read_text())
    return data


def standalone(main: Callable[[list[str]], int]) -> NoReturn:
    """Run a stage as `python -m bench.<stage>`: a BenchError is a message and exit status 1."""
    try:
        status = main(sys.argv[1:])
    except BenchError as err:
        print(f"bench: {err}", file=sys.stderr)
        status = 1
    raise SystemExit(status)
