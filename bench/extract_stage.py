"""Extraction benchmark: errdoc against ast-grep on the same tree, in the same run.

Competitor: `ast-grep scan` (ast-grep-cli, a dev dependency) with rules for the
same site kinds, over the `.rs` files of the commit written out to a temp dir
(writing them is not timed). errdoc is timed as `errdoc sites` (read from git,
parse, find every site kind, resolve ids and classes) with a cold cache, and as a
whole `errdoc extract` (plus static explanations and the atomic publish). Then an
extract at the same commit 50 commits back followed by HEAD shows that the second
run parses only the blobs that changed. Peak RSS is the largest of any one
process of the run (GNU time's maximum resident set size).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

from bench.common import (
    ERRDOC,
    add_source_args,
    ast_grep,
    git,
    manifest,
    require_source,
    run_ok,
    standalone,
    workdir,
)

AST_GREP_RULES = r"""
id: error-macros
language: rust
severity: info
rule:
  kind: macro_invocation
  regex: "^(\\w+::)*(bail|anyhow|ensure|format_err|eyre|panic|unreachable|todo|unimplemented|assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne)!"
  has: { kind: token_tree, has: { any: [ { kind: string_literal }, { kind: raw_string_literal } ] } }
---
id: error-attributes
language: rust
severity: info
rule:
  kind: attribute_item
  regex: "^#\\[error\\("
---
id: error-methods
language: rust
severity: info
rule:
  kind: call_expression
  has:
    field: function
    kind: field_expression
    has: { field: field, regex: "^(expect|expect_err|context|with_context|wrap_err|wrap_err_with)$" }
---
id: error-constructors
language: rust
severity: info
rule:
  kind: call_expression
  has: { field: function, regex: "((Error|Status|Code)::\\w+|^Err)$" }
"""


def materialize(git_dir: str, rev: str, target: Path) -> tuple[int, int]:
    """Write the `.rs` files of `rev` under `target`: (files, bytes)."""
    listing = git(git_dir, "ls-tree", "-r", "-z", rev)
    wanted = []
    for entry in listing.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        if path.endswith(b".rs") and meta.startswith((b"100644", b"100755")):
            wanted.append((meta.split()[2].decode(), path.decode()))
    batch = subprocess.Popen(
        ["git", "--git-dir", git_dir, "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert batch.stdin is not None and batch.stdout is not None
    files = size = 0
    for sha, name in wanted:
        batch.stdin.write(sha.encode() + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        if header[1] == b"missing":
            continue
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)
        out = target / name
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        files += 1
        size += len(data)
    batch.stdin.close()
    batch.wait()
    return files, size


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, int, str]:
    """(wall seconds, peak RSS in MB of any one process, stdout) of a command."""
    start = time.perf_counter()
    proc = run_ok(["/usr/bin/time", "-f", "%M", *cmd], env)
    wall = time.perf_counter() - start
    rss_kb = int(proc.stderr.strip().splitlines()[-1])
    return wall, rss_kb // 1024, proc.stdout


def main(argv: list[str] | None = None) -> int:
    """Run the extraction benchmark and print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.extract_stage")
    add_source_args(parser)
    parser.add_argument("--back", type=int, default=50, help="commits back for the incremental run")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    require_source(args)
    with workdir("errdoc-bench-") as work:
        return _run(args, work)


def _run(args: argparse.Namespace, work: Path) -> int:
    tree = work / "tree"
    files, size = materialize(args.source, args.rev, tree)
    rules = work / "rules.yml"
    rules.write_text(AST_GREP_RULES)
    common = ["--repo", args.repo, "--source", args.source]
    env = dict(os.environ)

    grep_runs, ours, rss_ours, rss_grep = [], [], 0, 0
    sites = matches = 0
    for attempt in range(args.repeat):
        wall, rss, out = timed([ast_grep(), "scan", "-r", str(rules), "--json=stream", str(tree)])
        grep_runs.append(wall)
        rss_grep = max(rss_grep, rss)
        matches = out.count("\n")
        cache = work / f"cache-{attempt}"
        # Every site printed as a JSON line, as ast-grep prints every match: the same output work.
        wall, rss, out = timed(
            [*ERRDOC, "sites", *common, "--sha", args.rev, "--cache", str(cache)], env
        )
        ours.append(wall)
        rss_ours = max(rss_ours, rss)
        sites = out.count("\n")
    grep_wall, our_wall = statistics.median(grep_runs), statistics.median(ours)
    print(f"tree: {files} .rs files, {size / 1e6:.1f} MB at {args.rev} ({args.source})")
    print(
        f"ast-grep scan (all site kinds): {grep_wall:.2f} s median of {args.repeat}, {matches} matches, peak RSS {rss_grep} MB"
    )
    print(
        f"errdoc sites (cold cache):      {our_wall:.2f} s median of {args.repeat}, {sites} sites, peak RSS {rss_ours} MB"
    )
    ratio = our_wall / grep_wall
    print(
        f"ratio errdoc/ast-grep: {ratio:.2f}x (target <= 1.00x: {'meets' if ratio <= 1 else 'MISSES'})"
    )
    print(f"errdoc throughput: {sites / our_wall:,.0f} sites/s, {size / 1e6 / our_wall:.1f} MB/s")

    dataset = work / "out"
    cache = work / "cache-extract"
    wall, rss, _ = timed(
        [
            *ERRDOC,
            "extract",
            *common,
            "--sha",
            args.rev,
            "--out",
            str(dataset),
            "--cache",
            str(cache),
        ],
        env,
    )
    print(
        f"errdoc extract, whole run (static explanations + publish, cold): {wall:.2f} s, peak RSS {rss} MB"
    )

    base = f"{args.rev}~{args.back}"
    out2, cache2 = work / "out-incr", work / "cache-incr"
    timed(
        [*ERRDOC, "extract", *common, "--sha", base, "--out", str(out2), "--cache", str(cache2)],
        env,
    )
    wall, rss, _ = timed(
        [
            *ERRDOC,
            "extract",
            *common,
            "--sha",
            args.rev,
            "--out",
            str(out2),
            "--cache",
            str(cache2),
        ],
        env,
    )
    counts = manifest(out2, args.repo)["counts"]
    print(
        f"extract at {base} then {args.rev}: second run {wall:.2f} s, parsed {counts['filesParsed']} "
        f"changed blobs, {counts['filesFromCache']} from the cache, reused {counts.get('reused', 0)} explanations"
    )
    return 0 if ratio <= 1 else 1


if __name__ == "__main__":
    standalone(main)
