"""Index benchmark: what the repository index finds, and what it costs an extraction.

Competitor: the same cold `errdoc extract` with the index turned off (`ERRDOC_NO_INDEX=1`),
in the same run, the two alternated `--runs` times (default 3) and the median pair's ratio
taken (target: the index adds at most 30% wall time, peak RSS under 1 GB).
Figures from the published `reach.json`: the share of records whose enclosing fn has at
least one caller, the share with a path to an entry point, the median length of the best
such path. The index build alone (cold, then warm from the per-blob cache) is timed in a
process of its own for its peak RSS. `--sample N` prints N seeded random paths with their
source lines, for reading against the code. `--also o/n=DIR` adds a repository (repeatable;
`ERRDOC_BENCH_ALSO` holds the same, separated by spaces).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import (
    ERRDOC,
    add_source_args,
    git,
    index_code,
    require_source,
    run_ok,
    standalone,
    workdir,
)

TARGET_RATIO = 1.30
RSS_LIMIT_MB = 1024


def main(argv: list[str] | None = None) -> int:
    """Run the index benchmark on each repository; 1 if a target is missed."""
    parser = argparse.ArgumentParser(prog="python -m bench.index_stage")
    add_source_args(parser)
    parser.add_argument("--also", action="append", default=[], metavar="OWNER/NAME=DIR")
    parser.add_argument("--sample", type=int, default=0, help="print N random paths")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3, help="alternated cold pairs (median)")
    parser.add_argument("--build-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    require_source(args)
    if args.build_only:
        return _build_only(Path(args.source), args.rev)
    targets = [(args.repo, args.source)]
    for pair in [*args.also, *os.environ.get("ERRDOC_BENCH_ALSO", "").split()]:
        repo, _, source = pair.partition("=")
        targets.append((repo, source))
    print(index_code(), flush=True)
    status = 0
    for repo, source in targets:
        with workdir("errdoc-bench-index-") as work:
            status |= _run(repo, source, args.rev, work, args.sample, args.seed, args.runs)
    return status


def _run(
    repo: str, source: str, rev: str, work: Path, sample: int, seed: int, runs: int = 3
) -> int:
    print(f"-- {repo} --", flush=True)
    common = ["extract", "--repo", repo, "--sha", rev, "--source", source]
    walls: dict[str, list[float]] = {"without": [], "with": []}
    cpu: dict[str, list[float]] = {"without": [], "with": []}
    rss: dict[str, int] = {"without": 0, "with": 0}
    ratios = []
    # Alternated pairs, each side cold (fresh OUT and CACHE): this machine's speed moves by
    # the minute, so a pair is the two sides in the same minute; the median pair's ratio.
    for run in range(runs):
        for name, extra_env in (("without", {"ERRDOC_NO_INDEX": "1"}), ("with", {})):
            out, cache = work / f"out-{name}-{run}", work / f"cache-{name}-{run}"
            env = {**os.environ, **extra_env}
            cmd = [*ERRDOC, *common, "--out", str(out), "--cache", str(cache)]
            wall, peak, _, spent = timed(cmd, env)
            walls[name].append(wall)
            cpu[name].append(spent)
            rss[name] = max(rss[name], peak)
        ratios.append(walls["with"][-1] / walls["without"][-1])
    ratio = statistics.median(ratios)
    med_wall = {name: statistics.median(times) for name, times in walls.items()}
    med_cpu = {name: statistics.median(times) for name, times in cpu.items()}
    print(
        f"cold extract without index: {med_wall['without']:.2f} s wall, {med_cpu['without']:.2f} s "
        f"CPU, peak RSS {rss['without']} MB (median of {runs})\n"
        f"cold extract with index:    {med_wall['with']:.2f} s wall, {med_cpu['with']:.2f} s CPU, "
        f"peak RSS {rss['with']} MB (wall {ratio:.2f}x: the median of {runs} alternated pairs "
        f"{', '.join(f'{r:.2f}x' for r in ratios)}; CPU {med_cpu['with'] / med_cpu['without']:.2f}x;"
        f" target <= {TARGET_RATIO:.2f}x wall, RSS < {RSS_LIMIT_MB} MB)"
    )
    root = work / "out-with-0" / repo
    reach = json.loads((root / "reach.json").read_text())["records"]
    records = [json.loads(line) for line in (root / "records.jsonl").read_text().splitlines()]
    _figures(records, reach)
    _, peak, printed, _ = timed([sys.executable, "-m", "bench.index_stage", "--build-only",
                             "--source", source, "--rev", rev])  # fmt: skip
    build = json.loads(printed)
    print(
        f"index build alone: cold {build['cold']:.2f} s (index {build['index_cold']:.2f} s + "
        f"graph {build['graph']:.2f} s), warm {build['warm']:.2f} s; {build['nodes']} fns, "
        f"{build['edges']} edges; peak RSS {peak} MB"
    )
    if sample:
        _sample(records, reach, source, rev, sample, seed)
    return 0 if ratio <= TARGET_RATIO and max(rss["with"], peak) < RSS_LIMIT_MB else 1


def _figures(records: list[dict[str, Any]], reach: dict[str, Any]) -> None:
    total = len(records) or 1
    callers = sum(1 for r in records if reach.get(r["id"], {}).get("callers", 0) > 0)
    entered = [
        reach[r["id"]]["paths"][0]
        for r in records
        if reach.get(r["id"], {}).get("paths") and reach[r["id"]]["paths"][0].get("entry")
    ]
    lengths = [len(p["hops"]) for p in entered]
    kinds: dict[str, int] = {}
    for path in entered:
        kinds[path["entry"]] = kinds.get(path["entry"], 0) + 1
    median = statistics.median(lengths) if lengths else 0
    print(
        f"records: {len(records)}; with >= 1 caller: {callers / total:.1%}; "
        f"reaching an entry point: {len(entered) / total:.1%}; median path {median} hops; "
        f"best entry by kind: {dict(sorted(kinds.items()))}"
    )


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, int, str, float]:
    """(wall s, peak RSS MB of any one process, stdout, CPU s of the whole process tree).

    CPU time is printed beside wall time: on a shared machine the wall-time ratio moves
    with the other load, the CPU-time ratio much less. The tree is counted whole, also a
    process that outlives the command (`bench.treewide`: the index child's teardown); the
    wall time is the command's, to its exit.
    """
    treewide = [sys.executable, "-m", "bench.treewide"]
    proc = run_ok(["/usr/bin/time", "-f", "%M %U %S", *treewide, *cmd], env)
    lines = proc.stderr.strip().splitlines()
    rss_kb, user, system = lines[-1].split()
    wall = float(next(line for line in reversed(lines) if line.startswith("wall "))[5:])
    return wall, int(rss_kb) // 1024, proc.stdout, float(user) + float(system)


def _build_only(source: Path, rev: str) -> int:
    """Index the commit twice (cold, then warm from the cache) and build the graph."""
    from pipeline.scan.entrypoints import build_graph
    from pipeline.scan.indexcache import index_entries
    from pipeline.source.repository import list_files, resolve_commit

    sha = resolve_commit(source, rev)
    listing = list_files(source, sha, suffixes=(".rs",))
    with workdir("errdoc-bench-build-") as cache:
        start = time.perf_counter()
        indexes = index_entries(source, listing.entries, cache)
        index_cold = time.perf_counter() - start
        graph = build_graph(indexes, None)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        build_graph(index_entries(source, listing.entries, cache), None)
        warm = time.perf_counter() - start
    edges = sum(len(v) for v in graph.callers.values())
    figures = {"cold": cold, "index_cold": index_cold, "graph": cold - index_cold,
               "warm": warm, "nodes": len(graph.nodes), "edges": edges}  # fmt: skip
    print(json.dumps(figures))
    return 0


def _sample(
    records: list[dict[str, Any]], reach: dict[str, Any], source: str, rev: str, n: int, seed: int
) -> None:
    """N random best paths, each hop with the line that calls the next, to read by hand."""
    with_paths = [r for r in records if reach.get(r["id"], {}).get("paths")]
    for record in random.Random(seed).sample(with_paths, min(n, len(with_paths))):
        path = reach[record["id"]]["paths"][0]
        print(f"# {record['filePath']}:{record['lineNumber']} {record['errorMessage'][:70]!r}")
        print(f"  entry: {path.get('entry')} {path.get('entry_label') or ''}")
        for hop in path["hops"]:
            call = hop.get("call_line")
            line = _line(source, rev, hop["file_path"], call) if call else ""
            print(f"  {hop['name']} ({hop['file_path']}:{hop['line']}) {hop.get('resolution') or ''}"
                  f"{' ambiguous' if hop.get('candidates') else ''}")  # fmt: skip
            if line:
                print(f"      {call}: {line.strip()[:110]}")


def _line(source: str, rev: str, path: str, line: int) -> str:
    lines = git(source, "show", f"{rev}:{path}").decode("utf-8", "replace").splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else ""


if __name__ == "__main__":
    standalone(main)
