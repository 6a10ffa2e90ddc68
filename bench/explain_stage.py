"""Bench `explain` and the site's search: top-1 accuracy and time per query on pasted log lines.

Every message is rendered with random argument values and embedded in a log line
with a timestamp, a module path and a `Caused by:` tail, then looked up. One whole
`errdoc explain` call (a subprocess: start, load, index, search, print) is timed too.
Then the dataset is rendered and the same lines are searched by the site's own matcher in
headless Chromium (top-1 accuracy, agreement with explain, time per query), and the time
from opening a `?q=` link to the first hit shown is measured.
    .venv/bin/python -m bench.explain_stage [--out output/risingwavelabs/risingwave]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import string
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote

from bench.common import DEFAULT_REPO, ERRDOC, default_source, run_ok, standalone, workdir
from pipeline.core.model import Record
from pipeline.dataset.reader import DatasetError, load_dataset
from pipeline.publish.explain import ErrorIndex
from pipeline.publish.render import render_site
from pipeline.publish.render.search import INDEX_SCRIPT
from tests.devtools import Browser, chromium, serve

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[^{}]*\}")
_TAILS = [
    "",
    "\nCaused by:\n    0: io error: connection reset by peer\n    1: broken pipe",
    " (caused by: gRPC request to meta service failed: Unavailable)",
]


def _arg(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return str(rng.randrange(1, 10**6))
    if kind == 1:
        return "".join(rng.choices(string.ascii_lowercase + "_", k=rng.randint(3, 12)))
    if kind == 2:
        return f"Some({rng.randrange(1000)})"
    return f'"{rng.choice(["public.t1", "mv_orders", "sink-7", "0.0.0.0:5690"])}"'


def render(message: str, rng: random.Random) -> str:
    """The message as printed, each placeholder replaced by a random value."""
    return _PLACEHOLDER.sub(
        lambda m: m.group()[0] if m.group() in ("{{", "}}") else _arg(rng), message
    )


def log_line(message: str, rng: random.Random) -> str:
    """One log entry around a rendered message."""
    ts = f"2026-09-{rng.randint(10, 28)}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:07.123Z"
    module = rng.choice(["risingwave_meta::barrier::rpc", "risingwave_frontend::handler", "rw"])
    level = rng.choice(["ERROR", "WARN", "error:"])
    return f"{ts} {level} {module}: {render(message, rng)}{rng.choice(_TAILS)}"


CLI_REPEAT = 3


def _extract(source: str, work: Path) -> Path:
    """A fresh static dataset of risingwave at the source's HEAD under `work` (not timed)."""
    out = work / "out"
    run_ok(
        [*ERRDOC, "extract", "--repo", DEFAULT_REPO, "--sha", "HEAD", "--source", source,
         "--out", str(out), "--cache", str(work / "cache")]
    )  # fmt: skip
    return out / DEFAULT_REPO


def _cli_call(dataset: Path, query: str) -> float:
    """Median wall seconds of `errdoc explain --out OUT QUERY`, OUT the root `dataset` is under."""
    cmd = [*ERRDOC, "explain", "--out", str(dataset.parent.parent), query]
    times = []
    for _ in range(CLI_REPEAT):
        start = time.perf_counter()
        run_ok(cmd)  # exit 1 when nothing matches: the query is one the index answers
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Run the bench; print accuracy and median/p95 time per query."""
    parser = argparse.ArgumentParser(prog="bench.explain_stage", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("output/risingwavelabs/risingwave"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0, help="queries at most (0: every record)")
    parser.add_argument(
        "--source", default=default_source(), help="extract from here when --out has no dataset"
    )
    args = parser.parse_args(argv)
    if not (args.out / "records").is_dir() and args.source and Path(args.source).exists():
        with workdir("errdoc-explain-bench-") as work:
            args.out = _extract(args.source, work)
            return _bench(args)
    return _bench(args)


def _bench(args: argparse.Namespace) -> int:
    try:
        start = time.perf_counter()
        ds = load_dataset(args.out)
        loaded = time.perf_counter() - start
    except DatasetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    index = ErrorIndex.from_datasets([ds])
    built = time.perf_counter() - start
    rng = random.Random(args.seed)
    records = list(ds.records)
    patterns = {r.id: r.messagePattern for r in records}
    shared = Counter(r.messagePattern for r in records)
    if args.limit:
        records = rng.sample(records, min(args.limit, len(records)))
    times: list[float] = []
    asked_lines: list[tuple[str, Record, str | None]] = []  # line, its record, explain's top id
    answered: str | None = None  # a query whose top match is right: the one the CLI is timed on
    exact = same_pattern = asked = unique_asked = unique_exact = 0
    for rec in records:
        line = log_line(rec.errorMessage, rng)
        if not re.search(rec.messagePattern, line):
            continue  # the record's own pattern does not accept its message: not explain's fault
        asked += 1
        t0 = time.perf_counter()
        top = index.search(line, limit=1)
        times.append(time.perf_counter() - t0)
        asked_lines.append((line, rec, top[0].id if top else None))
        if top and top[0].id == rec.id:
            exact += 1
        if shared[rec.messagePattern] == 1:  # a pattern only this record has: one right answer
            unique_asked += 1
            unique_exact += bool(top and top[0].id == rec.id)
        # the same pattern (`{}` vs `{name}`, or one message in several places) cannot be told
        # apart from a log line: any of those records is a right answer
        if top and patterns[top[0].id] == rec.messagePattern:
            same_pattern += 1
            answered = answered or line
    if not times:
        print("error: no record could be rendered into a query", file=sys.stderr)
        return 1
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    print(f"dataset {ds.repo}@{ds.sha[:10]}: {len(ds.records)} records, {index.size} indexed")
    print(f"load {loaded:.2f} s, index {built * 1000:.0f} ms, {asked} queries")
    print(
        f"top-1 right record: {unique_exact / max(unique_asked, 1):.1%} of the {unique_asked} "
        f"records whose pattern is their own; {same_pattern / asked:.1%} of all {asked} when any "
        f"record with the same pattern counts (exact id over all: {exact / asked:.1%})"
    )
    print(
        f"per query: median {statistics.median(ms):.3f} ms, p95 {p95:.3f} ms, max {ms[-1]:.3f} ms"
    )
    if answered is None:
        print(
            "error: no query was answered right; no message to time a CLI call on", file=sys.stderr
        )
        return 1
    print(
        f"one `errdoc explain` call: {_cli_call(args.out, answered):.2f} s "
        f"(median of {CLI_REPEAT}, a subprocess: start, load, index, search, print)"
    )
    return site_bench(args.out, asked_lines, answered, statistics.mean(ms))


SITE_BATCH = 500  # lines per evaluation in the page: one DevTools message each way
FIRST_RESULT_RUNS = 3


def site_bench(
    dataset: Path, asked: list[tuple[str, Record, str | None]], answered: str, explain_ms: float
) -> int:
    """The same lines pasted into the rendered site's search, in headless Chromium."""
    binary = chromium()
    if binary is None:
        print("error: the site bench needs headless Chromium (apt-get install chromium)",
              file=sys.stderr)  # fmt: skip
        return 1
    patterns = {rec.id: rec.messagePattern for _, rec, _ in asked}
    shared = Counter(rec.messagePattern for _, rec, _ in asked)
    with workdir("errdoc-site-bench-") as work:
        start = time.perf_counter()
        render_site(dataset.parent.parent, work / "site")
        rendered = time.perf_counter() - start
        index_mb = (work / "site" / INDEX_SCRIPT).stat().st_size / 1e6
        browser = Browser(binary, work / "profile", timeout=120)  # 6,000 queries in one eval
        try:
            with serve(work / "site") as url:
                firsts = []
                for _ in range(FIRST_RESULT_RUNS):
                    browser.open(f"{url}/search.html?q={quote(answered)}")
                    deadline = time.monotonic() + 60
                    first = None
                    while first is None and time.monotonic() < deadline:
                        first = browser.eval("window.errdocFirstResult")
                        time.sleep(0.01)
                    if first is None:
                        print("error: the search page showed no result", file=sys.stderr)
                        return 1
                    firsts.append(float(first))
                site_top: list[str | None] = []
                took = 0.0
                for i in range(0, len(asked), SITE_BATCH):
                    lines = [line for line, _, _ in asked[i : i + SITE_BATCH]]
                    answer = browser.eval(
                        f"(() => {{ const t0 = performance.now(); const ids = {json.dumps(lines)}"
                        ".map(l => errdocSearchIds(l, 1)[0] || null);"
                        " return [performance.now() - t0, ids]; })()"
                    )
                    took += float(answer[0])
                    site_top += answer[1]
        finally:
            browser.close()
    n = len(asked)
    own = [(rec, top) for (_, rec, _), top in zip(asked, site_top, strict=True)
           if shared[rec.messagePattern] == 1]  # fmt: skip
    own_right = sum(top == rec.id for rec, top in own)
    same = sum(
        top is not None and patterns.get(top) == rec.messagePattern
        for (_, rec, _), top in zip(asked, site_top, strict=True)
    )
    agree = sum(top == mine for (_, _, mine), top in zip(asked, site_top, strict=True))
    print(f"site: rendered in {rendered:.1f} s; search index {index_mb:.1f} MB")
    print(
        f"site top-1 right record: {own_right / max(len(own), 1):.1%} of the {len(own)} records "
        f"whose pattern is their own; {same / n:.1%} of all {n} when any record with the same "
        f"pattern counts; same top hit as explain on {agree / n:.1%}"
    )
    per_query = took / n
    print(
        f"site per query: mean {per_query:.3f} ms in the browser vs explain's mean "
        f"{explain_ms:.3f} ms in Python ({per_query / explain_ms:.2f}x)"
    )
    print(
        "site time to first result (navigation to ?q= link -> first hit shown, loading the "
        f"index): first {firsts[0]:.0f} ms, median of {FIRST_RESULT_RUNS} "
        f"{statistics.median(firsts):.0f} ms"
    )
    return 0 if agree == n else 1


if __name__ == "__main__":
    standalone(main)
