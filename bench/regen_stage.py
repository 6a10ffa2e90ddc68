"""Regeneration benchmark: a static `regenerate` over 50 commits against a cold extraction.

Both sides run the real CLI (`python -m pipeline ...`) in a subprocess, in the
same run, at the same commit (HEAD of the source), each with a fresh OUT and
CACHE. Cold: `extract` at HEAD. Regeneration, two cases:
- first: `extract` at HEAD~50 (untimed), then `regenerate --ref HEAD` (timed);
- steady (the scheduled job): `extract` at HEAD~100 and `regenerate` to HEAD~50
  (untimed), then `regenerate --ref HEAD` (timed). Record files of unchanged source
  files are links to the live ones, the spare tree mostly holds them already.
Target: each at most 0.35x the cold run. Both regenerated datasets must hold what
the cold extraction holds (every record field but the timestamps, the file
summaries, each record's analyzer, status, content hash and kind), or the stage
fails; an explanation kept for unchanged content (SPEC 7) may read otherwise than
a fresh one (a condition above the window changed, or its caller path, which the text
dates): those are counted, the commit their reach sentences name left out.
Also printed, with no target: the steady state over one commit (`extract` at HEAD~2,
`regenerate` to HEAD~1, untimed; then `regenerate --ref HEAD`, timed): what every
version pays, whatever it changed.

Creating a file on this machine's disk costs from 0.02 ms to 0.6 ms, from one
minute to the next (ext4 mounted with `discard`; measured with a bare `os.open`
loop of 6,071 files: 0.11 s, then 3.1 s ten minutes later), which moves the cold
side and the first regeneration by seconds: after each cold run the stage times
the creation of as many files as the cold run wrote, and prints it. `--profile` also runs the steady regeneration
under cProfile and prints where it spends its time.

Then (`--git-steps`, no target): the growth of a git history holding OUT, committed
after each of 10 regenerations 5 commits apart (`bench.git_growth`).
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import git_growth
from bench.common import (
    ERRDOC,
    add_source_args,
    index_code,
    manifest,
    require_source,
    rev_parse,
    run_ok,
    standalone,
    workdir,
)
from pipeline.analyze.reach_text import undated_record

TARGET = 0.35
TIMES = ("analyzedAt", "contentChangedAt")


def run(cmd: list[str], env: dict[str, str]) -> float:
    """Wall seconds of a command that must succeed.

    The disk is synced first (untimed): a publish ends with `syncfs`, which would
    otherwise also pay for what the runs before it left to write back.
    """
    os.sync()
    start = time.perf_counter()
    run_ok(cmd, env)
    return time.perf_counter() - start


EXPLANATION = (
    "documentation", "triggerScenarios", "commonSituations", "solutions", "exampleFix",
    "handlingStrategy", "validationCode", "typeGuard", "tryCatchPattern", "preventionTips",
    "tags", "backgroundTag",
)  # fmt: skip
PROVENANCE = ("analyzer", "status", "contentHash", "kind")


# Ids are permanent (a moved site keeps the id a fresh run would not give it) and records of
# unchanged files keep the commit they were located at (SPEC 7): compared by place, without them.
HISTORY = ("id", "analyzedSha", "githubUrl")


def published(out: Path, repo: str) -> dict[str, Any]:
    """What a dataset holds that does not depend on when or from what history it was made."""
    root = out / repo
    records, places = {}, {}
    for line in (root / "records.jsonl").read_text().splitlines():
        record = json.loads(line)
        # by place and message: two sites may share a line (cargo's crate_spec.rs:50)
        place = f"{record['filePath']}:{record['lineNumber']}:{record['errorMessage']}"
        while place in records:  # the same message twice on one line: interchangeable
            place += "+"
        places[record["id"]] = place
        records[place] = {k: v for k, v in record.items() if k not in TIMES + HISTORY}
    data = manifest(out, repo)
    provenance = {places[rid]: p for rid, p in data["records"].items()}
    reach_path = root / "reach.json"
    rows = json.loads(reach_path.read_text())["records"] if reach_path.exists() else {}
    reach = {places[rid]: row for rid, row in rows.items() if rid in places}
    return {"records": records, "provenance": provenance, "files": data["files"], "reach": reach}


def compare(regenerated: dict[str, Any], cold: dict[str, Any]) -> tuple[bool, int]:
    """Whether a regeneration published what the cold run did (records, their facts, the
    files' summaries, `reach.json` rows; by place), and how many explanations it kept
    (SPEC 7: content unchanged) that a fresh run now words otherwise.
    """
    old, new = regenerated["records"], cold["records"]
    if old.keys() != new.keys() or regenerated["files"] != cold["files"]:
        return False, 0
    if regenerated["reach"] != cold["reach"]:  # caller paths: the index's part
        return False, 0
    kept = 0
    for rid, record in old.items():
        facts = [regenerated["provenance"][rid].get(k) for k in PROVENANCE]
        if facts != [cold["provenance"][rid].get(k) for k in PROVENANCE]:
            return False, kept
        if undated_record(record) == undated_record(new[rid]):
            continue
        outside = {k for k in record if record[k] != new[rid][k]} - set(EXPLANATION)
        if outside:
            return False, kept
        kept += 1
    return True, kept


def counts(out: Path, repo: str) -> dict[str, Any]:
    """The `counts` of the published manifest."""
    data: dict[str, Any] = manifest(out, repo)["counts"]
    return data


def create_cost(directory: Path, like: Path) -> float:
    """Seconds to create, in a new directory, as many files as `like` holds, of their mean size.

    What the cold run's publish pays for its record files, on this disk, now. The
    probe is left in place (the work directory goes at the end): deleting 6,000
    files right before a timed run would make the disk discard their blocks during it.
    """
    sizes = [entry.stat().st_size for entry in like.iterdir()]
    data = b"x" * (sum(sizes) // max(1, len(sizes)))
    probe = Path(tempfile.mkdtemp(prefix="create-probe-", dir=directory))
    os.sync()
    start = time.perf_counter()
    for index in range(len(sizes)):
        fd = os.open(probe / f"{index:016x}.json", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, data)
        os.close(fd)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Run the regeneration benchmark and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.regen_stage")
    add_source_args(parser)
    parser.add_argument("--back", type=int, default=50, help="commits back for the old extraction")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each side (median)")
    parser.add_argument("--profile", action="store_true", help="cProfile one more regeneration")
    parser.add_argument(
        "--git-steps", type=int, default=10, help="regenerations committed to git (0: skip)"
    )
    parser.add_argument("--git-step", type=int, default=5, help="commits between two of them")
    args = parser.parse_args(argv)
    require_source(args)
    with workdir("errdoc-regen-bench-") as work:
        return _run(args, work)


class _Runs:
    """The CLI invocations of the stage, each with its own OUT and CACHE under `work`."""

    def __init__(self, args: argparse.Namespace, work: Path) -> None:
        self.work = work
        self.errdoc = ERRDOC
        self.common = ["--repo", args.repo, "--source", args.source]
        self.env = {**os.environ, "ERRDOC_CACHE": str(work / "unused-cache")}

    def dirs(self, name: str) -> list[str]:
        return [
            "--out",
            str(self.work / f"{name}-out"),
            "--cache",
            str(self.work / f"{name}-cache"),
        ]

    def extract(self, name: str, sha: str) -> float:
        return run(
            [*self.errdoc, "extract", *self.common, "--sha", sha, *self.dirs(name)], self.env
        )

    def regenerate(self, name: str, ref: str) -> float:
        cmd = [*self.errdoc, "regenerate", *self.common, "--ref", ref, *self.dirs(name)]
        return run(cmd, self.env)


def _run(args: argparse.Namespace, work: Path) -> int:
    head = rev_parse(args.source, args.rev)
    base = rev_parse(args.source, f"{head}~{args.back}")
    older = rev_parse(args.source, f"{head}~{2 * args.back}")
    parent, grandparent = rev_parse(args.source, f"{head}~1"), rev_parse(args.source, f"{head}~2")
    runs = _Runs(args, work)
    colds, firsts, steadies, ones, creates = [], [], [], [], []
    for attempt in range(args.repeat):
        colds.append(runs.extract(f"cold-{attempt}", head))
        creates.append(create_cost(work, work / f"cold-{attempt}-out" / args.repo / "records"))
        runs.extract(f"first-{attempt}", base)
        firsts.append(runs.regenerate(f"first-{attempt}", head))
        runs.extract(f"steady-{attempt}", older)
        runs.regenerate(f"steady-{attempt}", base)
        steadies.append(runs.regenerate(f"steady-{attempt}", head))
        # One commit in the steady state: what every version pays whatever it changed.
        runs.extract(f"one-{attempt}", grandparent)
        runs.regenerate(f"one-{attempt}", parent)
        ones.append(runs.regenerate(f"one-{attempt}", head))
    cold, first, steady, one = (statistics.median(t) for t in (colds, firsts, steadies, ones))
    last = args.repeat - 1
    outs = {name: work / f"{name}-{last}-out" for name in ("cold", "first", "steady")}
    cold_dataset = published(outs["cold"], args.repo)
    same = {
        name: compare(published(outs[name], args.repo), cold_dataset)
        for name in ("first", "steady")
    }
    c, cold_counts = counts(outs["first"], args.repo), counts(outs["cold"], args.repo)
    print(f"source: {args.source}, {base[:10]} ({args.rev}~{args.back}) -> {head[:10]}")
    print(index_code())
    print(
        f"creating {cold_counts['records']} record-sized files in a new directory on this disk: "
        f"{statistics.median(creates):.2f} s (median; after each cold run: "
        f"{', '.join(f'{c:.2f}' for c in creates)} s): the cold run and the first "
        "regeneration pay it (the latter for the records of changed files), the steady state "
        "renames files of the spare tree that no record keeps"
    )
    print(
        f"cold extract at {head[:10]}: {cold:.2f} s (median of {args.repeat}), "
        f"{cold_counts['records']} records, {cold_counts['filesParsed']} files parsed"
    )
    print(
        f"regenerate {base[:10]}..{head[:10]}: {c['filesParsed']} changed files parsed, "
        f"{c['filesCarried']} carried over, {c['reused']} explanations reused, "
        f"{c['retired']} records retired"
    )
    missed = []
    for name, wall in (("first regeneration after an extract", first), ("steady state", steady)):
        ratio = wall / cold
        verdict = "meets" if ratio <= TARGET else "MISSES"
        missed += [name] if ratio > TARGET else []
        print(
            f"{name}: {wall:.2f} s (median of {args.repeat}), ratio {ratio:.2f}x "
            f"(target <= {TARGET:.2f}x: {verdict})"
        )
    print(
        f"regeneration over one commit (the fixed cost of a version): {one:.2f} s "
        f"(median of {args.repeat}; {one / cold:.2f}x the cold run; {parent[:10]}..{head[:10]})"
    )
    for name, (equal, kept) in same.items():
        print(
            f"{name} regeneration publishes what the cold extraction does: {equal} "
            f"({kept} kept explanations of unchanged content read otherwise when written today)"
        )
    if args.git_steps:
        _growth(args, runs, head)
    if args.profile:
        _profile(runs, older, base, head)
    return 0 if not missed and all(equal for equal, _ in same.values()) else 1


def _growth(args: argparse.Namespace, runs: _Runs, head: str) -> None:
    history = (args.git_steps, args.git_step)
    run = (runs.extract, runs.regenerate)
    growth = git_growth.measure(args.source, head, history, runs.work / "git-out", run)
    print(
        f"git history of OUT over {args.git_steps} regenerations {args.git_step} commits apart "
        f"(git gc, then count-objects -v): {growth.sizes[0]:,} KiB after the extraction, "
        f"+{growth.per_version():,.0f} KiB per version "
        f"(after each: {', '.join(f'{k:,}' for k in growth.sizes[1:])} KiB); "
        f"the dataset on disk: {growth.dataset_kib:,} KiB, of which versions/ {growth.versions_kib:,} KiB"
    )


def _profile(runs: _Runs, older: str, base: str, head: str) -> None:
    runs.extract("profile", older)
    runs.regenerate("profile", base)
    prof = runs.work / "regen.prof"
    cmd = [sys.executable, "-m", "bench.profiled", str(prof), "regenerate",
           *runs.common, "--ref", head, *runs.dirs("profile")]  # fmt: skip
    wall = run(cmd, runs.env)
    print(
        f"profiled steady regeneration: {wall:.2f} s; top 25 by cumulative time "
        "(the run's own process: the index child and the pools are not in it):"
    )
    stats = pstats.Stats(str(prof), stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    standalone(main)
