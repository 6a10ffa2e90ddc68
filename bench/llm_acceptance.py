"""The llm analyzer on a real repository against the loopback server (issues 3 and 4).

Runs `errdoc extract --analyzer llm` (a subprocess, the real openai client over
HTTP) on risingwave `INCLUDE=src/meta/**` and checks: every record carries the
model's answer, at most one request per distinct site content (sites with the same
message, enclosing item and conditions are asked once: issue 13), a second run makes no request, and
a run SIGKILLed mid-way and started again ends with every record answered having
paid twice for at most one concurrency window.

Then (issue 4, acceptance 2) the whole repository: extract at HEAD~50 with the
model, regenerate to HEAD: the model is asked exactly once per site content the old
version did not have, and the diff's counts add up on both sides.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from bench.common import ERRDOC, add_source_args, manifest, require_source, standalone, workdir
from tests.llm_server import FakeOpenAI, Reply, answer


def _plain_answer(body: dict[str, Any]) -> Reply:
    # No backticked identifiers: every answer is grounded, so one request per site.
    text = answer(triggerScenarios="The guarded condition holds when the call is made.")
    return Reply(content=json.dumps(text))


def _extract(
    args: argparse.Namespace, out: Path, cache: Path, server: FakeOpenAI
) -> subprocess.Popen[bytes]:
    cmd = [
        *ERRDOC, "extract", "--repo", args.repo, "--sha", args.rev,
        "--source", args.source, "--include", args.include, "--out", str(out), "--cache", str(cache),
        "--analyzer", "llm", "--concurrency", str(args.concurrency),
    ]  # fmt: skip
    return subprocess.Popen(
        cmd, env=_env(server), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def _env(server: FakeOpenAI) -> dict[str, str]:
    return dict(
        os.environ, OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="loopback", MODEL="bench-model"
    )


def _regeneration(args: argparse.Namespace, work: Path, server: FakeOpenAI) -> list[str]:
    """Issue 4, acceptance 2, on the whole repository; the failures found."""
    out, cache = work / "out-regen", work / "cache-regen"
    common = ["--repo", args.repo, "--out", str(out), "--cache", str(cache), "--analyzer", "llm",
              "--concurrency", str(args.concurrency)]  # fmt: skip
    base = f"{args.rev}~{args.back}"
    cmd = ERRDOC
    extract = [*cmd, "extract", *common, "--sha", base, "--source", args.source]
    older = subprocess.run(extract, env=_env(server), capture_output=True)
    if older.returncode != 0:
        return [f"the extraction at the older commit failed: {older.stderr.decode()[-500:]}"]
    old = manifest(out, args.repo)
    before = len(server.requests)
    regen = subprocess.run(
        [*cmd, "regenerate", *common, "--ref", args.rev], env=_env(server), capture_output=True
    )
    if regen.returncode != 0:
        return [f"regenerate failed: {regen.stderr.decode()[-500:]}"]
    asked = len(server.requests) - before
    new = manifest(out, args.repo)
    seen = {p["contentHash"] for p in old["records"].values()}
    new_contents = {p["contentHash"] for p in new["records"].values()} - seen
    diff = subprocess.run(
        [*cmd, "diff", "previous", "latest", "--out", str(out), "--repo", args.repo,
         "--format", "json"],
        capture_output=True, text=True,
    )  # fmt: skip
    if diff.returncode != 0:
        return [f"diff failed: {diff.stderr[-500:]}"]
    summary = json.loads(diff.stdout)["summary"]
    kept = summary["moved"] + summary["changed"] + summary["unchanged"]
    print(
        f"regenerate {base}..{args.rev} (whole repository): {len(old['records'])} -> "
        f"{len(new['records'])} records, {asked} model requests, {len(new_contents)} new site "
        f"contents; diff {summary}"
    )
    failures = []
    if asked > len(new_contents):
        failures.append("regeneration requests > new site contents")
    if summary["added"] + kept != len(new["records"]) or summary["removed"] + kept != len(
        old["records"]
    ):
        failures.append("the diff's counts do not add up")
    return failures


def main(argv: list[str] | None = None) -> int:
    """Run the checks; 0 when all hold."""
    parser = argparse.ArgumentParser(prog="python -m bench.llm_acceptance")
    add_source_args(parser)
    parser.add_argument("--include", default="src/meta/**")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--back", type=int, default=50, help="commits back for the regeneration")
    args = parser.parse_args(argv)
    require_source(args)
    with workdir("errdoc-llm-acceptance-") as work:
        return _checks(args, work)


def _checks(args: argparse.Namespace, work: Path) -> int:
    failures = []
    with FakeOpenAI(latency=args.latency) as server:
        server.responder = _plain_answer
        out, cache = work / "out", work / "cache"
        proc = _extract(args, out, cache, server)
        _, err = proc.communicate()
        if proc.returncode != 0:
            print(err.decode()[-2000:])
            return 1
        records = manifest(out, args.repo)["records"]
        contents = {p["contentHash"] for p in records.values()}
        first = len(server.requests)
        llm_ok = sum(1 for p in records.values() if p["analyzer"] == "llm" and p["status"] == "ok")
        print(
            f"run 1: {len(records)} records, {len(contents)} distinct contents, {first} requests, {llm_ok} answered by the model"
        )
        if llm_ok != len(records):
            failures.append("not every record carries the model's answer")
        if first > len(contents):
            failures.append("requests > distinct site contents")
        proc = _extract(args, out, cache, server)
        _, err = proc.communicate()
        second = len(server.requests) - first
        print(f"run 2: {second} requests, exit status {proc.returncode}")
        if proc.returncode != 0:  # a run that fails at once makes no request either
            print(err.decode()[-2000:])
            failures.append("the second run failed")
        if second:
            failures.append("the second run made requests")

        out, cache = work / "out-kill", work / "cache-kill"
        before = len(server.requests)
        proc = _extract(args, out, cache, server)
        while len(server.requests) - before < len(contents) // 2 and proc.poll() is None:
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed_at = len(server.requests) - before
        proc = _extract(args, out, cache, server)
        _, err = proc.communicate()
        if proc.returncode != 0:
            print(err.decode()[-2000:])
            failures.append("the run after the SIGKILL failed")
            return _report(failures)
        total = len(server.requests) - before
        answered = sum(
            1 for p in manifest(out, args.repo)["records"].values() if p["status"] == "ok"
        )
        paid_twice = total - first  # what one uninterrupted run asked
        print(
            f"kill: SIGKILL after {killed_at} requests; after the re-run {answered}/{len(records)} answered, "
            f"{total} requests in all, {paid_twice} paid twice (allowed: {args.concurrency})"
        )
        if answered != len(records) or paid_twice > args.concurrency:
            failures.append("the killed run did not resume within one concurrency window")
        failures += _regeneration(args, work, server)
    return _report(failures)


def _report(failures: list[str]) -> int:
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    standalone(main)
