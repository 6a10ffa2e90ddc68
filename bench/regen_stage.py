"""Regeneration benchmark: a static `regenerate` over 50 commits against a cold extraction.

Both sides run the real CLI (`python -m pipeline ...`) in a subprocess, in the
same run, at the same commit (HEAD of the source). The cold side is `extract`
with a fresh OUT and CACHE. The regeneration side first extracts at HEAD~50
(fresh OUT and CACHE, not timed), then times `regenerate --ref HEAD`, which
parses only the changed blobs, reuses the explanation of every unchanged site
and publishes a new version. Target: regeneration <= 0.35x the cold run.
`--profile` also runs the regeneration (of a second, identical pair) under
cProfile and prints where it spends its time.
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_SOURCE = "/work/.mirror/risingwavelabs+risingwave/repo"
TARGET = 0.35


def run(cmd: list[str], env: dict[str, str]) -> float:
    """Wall seconds of a command that must succeed."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd[2:5])} failed:\n{proc.stderr[-2000:]}")
    return wall


def counts(out: Path, repo: str) -> dict[str, Any]:
    """The `counts` of the published manifest."""
    data: dict[str, Any] = json.loads((out / repo / "manifest.json").read_text())["counts"]
    return data


def main(argv: list[str] | None = None) -> int:
    """Run the regeneration benchmark and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.regen_stage")
    parser.add_argument("--source", default=DEFAULT_SOURCE, help="a local (bare) git repository")
    parser.add_argument("--repo", default="risingwavelabs/risingwave")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--back", type=int, default=50, help="commits back for the old extraction")
    parser.add_argument("--repeat", type=int, default=1, help="pairs of timed runs (median)")
    parser.add_argument("--profile", action="store_true", help="cProfile one more regeneration")
    args = parser.parse_args(argv)
    if not Path(args.source).exists():
        print(f"bench: {args.source} does not exist; pass --source <a local clone of {args.repo}>")
        return 2
    work = Path(tempfile.mkdtemp(prefix="errdoc-regen-bench-"))
    try:
        return _run(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _resolve(source: str, rev: str) -> str:
    out = subprocess.run(
        ["git", "--git-dir", source, "rev-parse", "--verify", f"{rev}^{{commit}}"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return out.stdout.strip()


def _run(args: argparse.Namespace, work: Path) -> int:
    head = _resolve(args.source, args.rev)
    base = _resolve(args.source, f"{head}~{args.back}")
    errdoc = [sys.executable, "-m", "pipeline"]
    common = ["--repo", args.repo, "--source", args.source]
    env = {**os.environ, "ERRDOC_CACHE": str(work / "unused-cache")}

    older = _resolve(args.source, f"{head}~{2 * args.back}")
    colds, regens, steadies = [], [], []
    for attempt in range(args.repeat):
        cold_out, cold_cache = work / f"cold-out-{attempt}", work / f"cold-cache-{attempt}"
        colds.append(
            run([*errdoc, "extract", *common, "--sha", head, "--out", str(cold_out),
                 "--cache", str(cold_cache)], env)
        )  # fmt: skip
        out, cache = work / f"regen-out-{attempt}", work / f"regen-cache-{attempt}"
        run([*errdoc, "extract", *common, "--sha", base, "--out", str(out),
             "--cache", str(cache)], env)  # fmt: skip
        regens.append(
            run([*errdoc, "regenerate", *common, "--ref", head, "--out", str(out),
                 "--cache", str(cache)], env)
        )  # fmt: skip
        # The scheduled job's steady state: the dataset has been regenerated before, so the
        # publish rewrites the kept previous tree instead of creating every file.
        out2, cache2 = work / f"steady-out-{attempt}", work / f"steady-cache-{attempt}"
        run(
            [
                *errdoc,
                "extract",
                *common,
                "--sha",
                older,
                "--out",
                str(out2),
                "--cache",
                str(cache2),
            ],
            env,
        )
        run(
            [
                *errdoc,
                "regenerate",
                *common,
                "--ref",
                base,
                "--out",
                str(out2),
                "--cache",
                str(cache2),
            ],
            env,
        )
        steadies.append(
            run([*errdoc, "regenerate", *common, "--ref", head, "--out", str(out2),
                 "--cache", str(cache2)], env)
        )  # fmt: skip
    cold, regen = statistics.median(colds), statistics.median(regens)
    steady = statistics.median(steadies)
    c = counts(out, args.repo)
    cold_counts = counts(cold_out, args.repo)
    ratio = regen / cold
    print(f"source: {args.source}, {base[:10]} ({args.rev}~{args.back}) -> {head[:10]}")
    print(
        f"cold extract at {head[:10]}: {cold:.2f} s (median of {args.repeat}), "
        f"{cold_counts['records']} records, {cold_counts['filesParsed']} files parsed"
    )
    print(
        f"regenerate {base[:10]}..{head[:10]}: {regen:.2f} s (median of {args.repeat}), "
        f"{c['records']} records; filesParsed {c['filesParsed']}, "
        f"filesFromCache {c['filesFromCache']}, reused {c['reused']}, retired {c['retired']}"
    )
    verdict = "meets" if ratio <= TARGET else "MISSES"
    print(
        f"ratio regenerate/cold (first regeneration after an extract): {ratio:.2f}x (target <= {TARGET:.2f}x: {verdict})"
    )
    steady_ratio = steady / cold
    verdict = "meets" if steady_ratio <= TARGET else "MISSES"
    print(
        f"steady state ({older[:10]} -> {base[:10]} untimed, then {base[:10]} -> {head[:10]}): "
        f"{steady:.2f} s, ratio {steady_ratio:.2f}x (target <= {TARGET:.2f}x: {verdict})"
    )
    if args.profile:
        _profile(args, work, errdoc, common, env, base, head)
    return 0 if ratio <= TARGET else 1


def _profile(
    args: argparse.Namespace,
    work: Path,
    errdoc: list[str],
    common: list[str],
    env: dict[str, str],
    base: str,
    head: str,
) -> None:
    out, cache, prof = work / "prof-out", work / "prof-cache", work / "regen.prof"
    run([*errdoc, "extract", *common, "--sha", base, "--out", str(out), "--cache", str(cache)], env)
    profiled = [sys.executable, "-m", "cProfile", "-o", str(prof), "-m", "pipeline"]
    wall = run([*profiled, "regenerate", *common, "--ref", head, "--out", str(out),
                "--cache", str(cache)], env)  # fmt: skip
    print(f"profiled regenerate: {wall:.2f} s; top 25 by cumulative time:")
    stats = pstats.Stats(str(prof), stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
