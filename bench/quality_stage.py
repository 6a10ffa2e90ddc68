"""Issue 11, acceptance 2: the static analyzer's output checked on real repositories.

For each repository: the share of non-null code fields that parse as Rust (target
100%), the recall of literal-message sites of every kind against the ast-grep oracle
in bench/oracle.py (target 99.5% each), the records the oracle's test rules put in
test code (target 0); once: the classifier's precision on the labelled sample of
tests/data/taxonomy_sample.tsv (target 90%; the sample the rules were tuned on).

`--also owner/name=DIR` (repeatable, or `ERRDOC_BENCH_ALSO`, comma-separated) adds
repositories beside `--source`; `make bench` runs it on risingwave and cargo.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
from collections import Counter
from pathlib import Path

from bench.common import ERRDOC, add_source_args, require_source, run_ok, standalone, workdir
from bench.extract_stage import materialize
from bench.oracle import run_oracle
from pipeline.analyze.taxonomy import classify
from pipeline.languages.rust.codecheck import parses_as_code
from pipeline.languages.rust.testcode import is_test_path

ALSO_ENV = "ERRDOC_BENCH_ALSO"
DATA = Path(__file__).parent.parent / "tests" / "data"
SAMPLE = DATA / "taxonomy_sample.tsv"
HELD_OUT = DATA / "taxonomy_heldout.tsv"  # labelled after the rules were written, never tuned on
# labelled later still, from repositories no rule was written on (helix, ripgrep, nushell)
HELD_OUT_UNSEEN = DATA / "taxonomy_heldout2.tsv"
CODE_FIELDS = ("exampleFix", "validationCode", "typeGuard", "tryCatchPattern")
RECALL_TARGET, PRECISION_TARGET = 0.995, 0.90


def main(argv: list[str] | None = None) -> int:
    """Print the figures; 0 when every target is met."""
    parser = argparse.ArgumentParser(prog="python -m bench.quality_stage")
    add_source_args(parser)
    parser.add_argument("--also", action="append", default=[], metavar="OWNER/NAME=DIR")
    args = parser.parse_args(argv)
    require_source(args)
    extra = args.also or [p for p in os.environ.get(ALSO_ENV, "").split(",") if p]
    repos = [(args.repo, args.source), *(tuple(p.split("=", 1)) for p in extra)]
    results = [_repository(repo, source, args.rev) for repo, source in repos]  # every one runs
    return 0 if _precision() and all(results) else 1


def _repository(repo: str, source: str, rev: str) -> bool:
    with workdir("errdoc-quality-") as work:
        materialize(source, rev, work / "tree")
        run_ok([*ERRDOC, "extract", "--repo", repo, "--sha", rev, "--source", source,
                "--out", str(work / "out"), "--cache", str(work / "cache")])  # fmt: skip
        lines = (work / "out" / repo / "records.jsonl").read_text("utf-8").splitlines()
        records = [json.loads(line) for line in lines]
        oracle = run_oracle(work / "tree", work)
    fields = [r[f] for r in records for f in CODE_FIELDS if r[f] is not None]
    parsed = sum(parses_as_code(text) for text in fields)
    print(f"{repo}: {parsed}/{len(fields)} non-null code fields parse as Rust "
          f"({parsed / max(len(fields), 1):.2%}; target 100%)")  # fmt: skip
    found = {(r["filePath"], r["lineNumber"]) for r in records}
    wanted: Counter[str] = Counter()
    hit: Counter[str] = Counter()
    fixtures = 0
    missed: list[str] = []
    for site in oracle.sites:
        if oracle.in_test(site.path, site.line):
            continue
        if is_test_path(site.path):  # the pipeline's list of fixture and test-support directories
            fixtures += 1
            continue
        wanted[site.kind] += 1
        if (site.path, site.line) in found:
            hit[site.kind] += 1
        else:
            missed.append(f"  missed {site.kind} {site.path}:{site.line}: {site.text[:70]!r}")
    recall_ok = True
    for kind in sorted(wanted):
        share = hit[kind] / wanted[kind]
        recall_ok &= share >= RECALL_TARGET
        print(f"{repo}: recall of {kind} sites against the ast-grep oracle: {hit[kind]}/"
              f"{wanted[kind]} ({share:.2%}; target {RECALL_TARGET:.1%})")  # fmt: skip
    print(
        f"{repo}: {fixtures} oracle sites in the pipeline's test-support/fixture directories "
        "(pipeline/data/test_dirs.txt) not counted"
    )
    for line in missed[:15]:
        print(line)
    in_test = [r for r in records if oracle.in_test(r["filePath"], r["lineNumber"])]
    print(f"{repo}: {len(in_test)} records inside test code by the oracle's rules (target 0)")
    for record in in_test[:10]:
        print(f"  in test code: {record['filePath']}:{record['lineNumber']}")
    return parsed == len(fields) and recall_ok and not in_test


def _precision() -> bool:
    rows = _rows(SAMPLE)
    for held_path, what in ((HELD_OUT, "labelled after the rules were fixed"),
                            (HELD_OUT_UNSEEN, "from repositories no rule was written on")):  # fmt: skip
        held = _rows(held_path)
        held_right = sum(_right(row) for row in held)
        generic = sum(not _right(row) and _predicted(row) == "operation-failed" for row in held)
        print(
            f"classifier precision on {len(held)} held-out non-panic sites ({what}; reported, "
            f"no target): {held_right / len(held):.1%}; false specific classes "
            f"{len(held) - held_right - generic}, the generic one {generic}"
        )
    right = sum(_right(row) for row in rows)
    precision = right / len(rows)
    repos = len({row["repo"] for row in rows})
    print(
        f"classifier precision on {len(rows)} labelled sites from {repos} repositories: "
        f"{precision:.1%} (target {PRECISION_TARGET:.0%}; training sample, see module doc)"
    )
    return precision >= PRECISION_TARGET


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _predicted(row: dict[str, str]) -> str:
    conditions = [c.split(": ", 1)[1] for c in row["conditions"].split(" ;; ") if c]
    names = [n for n in row["names"].split(" ;; ") if n]
    return classify(row["message"], row["kind"], conditions, names, path=row["path"])


def _right(row: dict[str, str]) -> bool:
    return _predicted(row) == row["label"]


if __name__ == "__main__":
    standalone(main)
