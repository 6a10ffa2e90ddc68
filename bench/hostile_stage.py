"""Bench hostile inputs (issue 16): a repository of many tiny files, and pathological patterns.

1. A synthetic repository of N tiny `.rs` files, one `bail!` each, made with `git
   fast-import`, is extracted and rendered at two sizes; each run's time and peak RSS
   (the largest process, as `getrusage(RUSAGE_CHILDREN)` reports it) is printed.
   Targets: peak under 1 GB, and time per file at the large size within 1.5x of the
   small size's (linear). Competitor: `git archive` of the same commit (reading every
   blob once, the least an extract must do), timed in the same run.
2. `explain` over patterns a hostile repository or dataset can carry, against lines
   built to make a backtracking engine explode. Target: worst query under 50 ms.
   Competitor: Python's `re` on the same pattern and line, stopped after 2 s.

    .venv/bin/python -m bench.hostile_stage [--small 20000] [--large 200000]
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import subprocess
import sys
import time
from pathlib import Path

from bench.common import ERRDOC, BenchError, standalone, workdir
from pipeline.core.model import Record
from pipeline.publish.explain import ErrorIndex

RSS_TARGET_MB = 1024
LINEAR_SLACK = 1.5
EXPLAIN_TARGET_MS = 50.0
RE_CAP_S = 2.0
REPO = "bench/tiny-files"


def make_repo(path: Path, files: int) -> None:
    """A bare repository whose one commit holds `files` tiny Rust files, written by fast-import."""
    subprocess.run(["git", "init", "--quiet", "--bare", str(path)], check=True)
    chunks: list[bytes] = [
        b"commit refs/heads/main\n"
        b"committer bench <bench@errdoc.invalid> 1700000000 +0000\n"
        b"data 5\nbench\n"
    ]
    for i in range(files):
        body = f'fn f() -> anyhow::Result<()> {{ anyhow::bail!("tiny failure {i}") }}\n'.encode()
        name = f"src/m{i // 1000}/f{i % 1000}.rs".encode()
        chunks.append(b"M 100644 inline " + name + b"\ndata %d\n" % len(body) + body)
    stream = b"".join(chunks) + b"\n"
    subprocess.run(
        ["git", "--git-dir", str(path), "fast-import", "--quiet"], input=stream, check=True
    )


def _measured(cmd: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MB of the largest process) of a command run in a fresh child."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.monotonic()\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "t = time.monotonic() - t\n"
        "if p.returncode:\n    sys.exit(p.stderr[-2000:] or 'failed')\n"
        "print(t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, *cmd], capture_output=True, text=True)
    if done.returncode:
        raise BenchError(f"{' '.join(cmd[:4])} failed: {done.stderr[-2000:]}")
    seconds, rss_kb = done.stdout.split()
    return float(seconds), int(rss_kb) / 1024


def _size_run(files: int) -> tuple[float, float, float, float, float]:
    """(extract s, extract MB, render s, render MB, git archive s) at one size."""
    with workdir("errdoc-bench-hostile-") as work:
        repo = work / "repo.git"
        make_repo(repo, files)
        archive = time.monotonic()
        subprocess.run(
            ["git", "--git-dir", str(repo), "archive", "--format=tar", "-o", "/dev/null", "main"],
            check=True,
        )
        archive = time.monotonic() - archive
        out, cache, site = work / "out", work / "cache", work / "site"
        extract = [*ERRDOC, "extract", "--repo", REPO, "--sha", "main", "--source", str(repo)]
        extract += ["--out", str(out), "--cache", str(cache)]
        ex_s, ex_mb = _measured(extract)
        rd_s, rd_mb = _measured([*ERRDOC, "render", "--out", str(out), "--site", str(site)])
        return ex_s, ex_mb, rd_s, rd_mb, archive


def _tree_part(small: int, large: int) -> bool:
    rows = {n: _size_run(n) for n in (small, large)}
    ok = True
    for n, (ex_s, ex_mb, rd_s, rd_mb, archive) in rows.items():
        print(
            f"{n:>7} files: extract {ex_s:6.1f} s, peak {ex_mb:6.0f} MB "
            f"({ex_s / archive:.0f}x git archive's {archive:.2f} s); "
            f"render {rd_s:6.1f} s, peak {rd_mb:6.0f} MB",
            flush=True,
        )
        ok &= ex_mb < RSS_TARGET_MB and rd_mb < RSS_TARGET_MB
    for i, what in ((0, "extract"), (2, "render")):
        growth = (rows[large][i] / large) / (rows[small][i] / small)
        print(
            f"{what}: time per file at {large} is {growth:.2f}x that at {small} (target < {LINEAR_SLACK})"
        )
        ok &= growth < LINEAR_SLACK
    print(f"target peak < {RSS_TARGET_MB} MB and linear time: {'met' if ok else 'MISSED'}")
    return ok


# (pattern, line): what a hostile repository's message or a hand-edited dataset can carry.
PATHOLOGICAL: list[tuple[str, str]] = [
    ("x" + " x".join(["(.+?)"] * 50) + " end", "x " * 23),
    (" ".join(["x(.+?)"] * 50) + " end", "x " * 23),
    ("boom (a+)+$", "boom " + "a" * 40 + "!"),
    ("boom (a|a)*$", "boom " + "a" * 40 + "!"),
    ("boom (a|aa)+$", "boom " + "a" * 40 + "!"),
    ("boom ((a*)*)*b", "boom " + "a" * 40),
    ("boom (.*a){20}", "boom " + "a" * 40),
    ("boom " + "(.+?) " * 30 + "done", "boom " + "y " * 200),
]


def _found(pattern: str, line: str) -> bool:
    return re.search(pattern, line) is not None


def _python_re(pattern: str, line: str, seconds: float) -> float | None:
    """Seconds Python's `re` takes on one search, or None when it exceeds `seconds`."""
    with multiprocessing.get_context("fork").Pool(1) as pool:
        started = time.monotonic()
        job = pool.apply_async(_found, (pattern, line))
        try:
            job.get(seconds)
        except multiprocessing.TimeoutError:
            pool.terminate()
            return None
        return time.monotonic() - started


def _record(n: int, pattern: str) -> Record:
    return Record.model_validate(
        {
            "id": f"{n:016x}", "repo": "bench/hostile", "slug": "x", "errorCode": None,
            "errorMessage": "x", "messagePattern": pattern, "errorType": "exception",
            "errorClass": None, "httpStatus": None, "severity": "error",
            "filePath": "src/lib.rs", "lineNumber": 1, "sourceCode": "x",
            "sourceCodeStart": 1, "sourceCodeEnd": 1,
            "githubUrl": "https://github.com/bench/hostile/blob/x/src/lib.rs#L1-L1",
            "documentation": "", "triggerScenarios": "", "commonSituations": "",
            "solutions": [], "exampleFix": "", "handlingStrategy": "fail-fast",
            "validationCode": None, "typeGuard": None, "tryCatchPattern": None,
            "preventionTips": [], "tags": [], "backgroundTag": "internal-invariant",
            "analyzedSha": "0" * 40, "analyzedAt": "2026-01-01T00:00:00.000Z",
            "contentChangedAt": "2026-01-01T00:00:00.000Z", "schemaVersion": 2,
        }
    )  # fmt: skip


def _explain_part() -> bool:
    index = ErrorIndex([_record(n, p) for n, (p, _) in enumerate(PATHOLOGICAL)])
    worst = 0.0
    for pattern, line in PATHOLOGICAL:
        started = time.perf_counter()
        index.search(line)
        ms = (time.perf_counter() - started) * 1000
        worst = max(worst, ms)
        competitor = _python_re(pattern, line, RE_CAP_S)
        theirs = f"{competitor * 1000:.1f} ms" if competitor is not None else f"> {RE_CAP_S:.0f} s"
        print(f"  {ms:7.2f} ms (Python re: {theirs})  {pattern[:48]!r}", flush=True)
    print(f"explain worst {worst:.2f} ms over {len(PATHOLOGICAL)} pathological patterns "
          f"(target < {EXPLAIN_TARGET_MS:.0f} ms): {'met' if worst < EXPLAIN_TARGET_MS else 'MISSED'}")  # fmt: skip
    return worst < EXPLAIN_TARGET_MS


def main(argv: list[str]) -> int:
    """Both parts; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(prog="bench.hostile_stage")
    parser.add_argument("--small", type=int, default=50_000)
    parser.add_argument("--large", type=int, default=200_000)
    parser.add_argument("--skip-tree", action="store_true", help="only the explain part")
    args = parser.parse_args(argv)
    ok = _explain_part()
    if not args.skip_tree:
        ok &= _tree_part(args.small, args.large)
    return 0 if ok else 1


if __name__ == "__main__":
    standalone(main)
