"""A run SIGKILLed mid-way, then re-run, pays again for at most the requests in flight."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from llm_server import TAXONOMY, FakeOpenAI, make_contexts, static_stand_in

from pipeline.analyze.llm import LlmAnalyzer, LlmSettings
from pipeline.analyze.llm_cache import CACHE_FILE

SITES, CONCURRENCY = 40, 4
WORKER = Path(__file__).with_name("llm_server.py")


def test_sigkill_then_rerun_pays_only_for_what_was_not_cached(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    with FakeOpenAI(latency=0.1) as server:
        worker = subprocess.Popen(
            [sys.executable, str(WORKER), "worker", "--base-url", server.base_url,
             "--cache-dir", str(cache_dir), "--sites", str(SITES),
             "--concurrency", str(CONCURRENCY)],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )  # fmt: skip
        assert worker.stdout is not None
        answered = [worker.stdout.readline() for _ in range(SITES // 2)]
        assert all(line.endswith(" ok\n") for line in answered)
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
        worker.stdout.close()
        time.sleep(0.3)  # let the requests in flight finish on the server side
        paid_before = len(server.requests)

        with sqlite3.connect(cache_dir / CACHE_FILE) as db:
            cached = db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
        assert SITES // 2 <= cached < SITES

        settings = LlmSettings(server.base_url, "k", "gpt-4o-mini", concurrency=CONCURRENCY)
        analyzer = LlmAnalyzer(settings, cache_dir, static_stand_in, taxonomy=TAXONOMY)
        results = list(analyzer.analyze(make_contexts(SITES)))

    assert len(results) == SITES and all(a.status == "ok" for a in results)
    rerun_requests = len(server.requests) - paid_before
    assert rerun_requests == SITES - cached
    assert analyzer.summary.cache_hits == cached
    # Every site is paid once, plus at most one concurrency window lost to the kill.
    assert len(server.requests) <= SITES + CONCURRENCY
