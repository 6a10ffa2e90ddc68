"""LLM-stage benchmark: the analyzer against the loopback server with 200 ms latency.

Prints achieved requests/s against the ideal CONCURRENCY / latency (target at
least 90%) and the median and p95 prompt tokens per site (target median at most
1,500 with the default prompt, outside the shared prefix that a provider's prompt
cache serves). Tokens are estimated as characters / 4, messages plus the
response_format schema; bench.prompt_stage counts with a real tokenizer.

Then the wall time of a 350-site run against a server that accepts every
request and never answers, with the default timeout, retries and breaker (or
--hang-timeout): the circuit breaker must end it after about two timeouts.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from pipeline.analyze.llm import LlmAnalyzer, LlmSettings
from pipeline.analyze.llm_prompt import FailureClassLike, estimate_tokens
from tests.llm_server import TAXONOMY, FakeOpenAI, hang, make_contexts, static_stand_in


def _taxonomy() -> tuple[Mapping[str, FailureClassLike], str]:
    try:
        from pipeline.analyze.taxonomy import load_taxonomy  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return TAXONOMY, "stand-in (pipeline.analyze.taxonomy not found)"
    taxonomy: Mapping[str, FailureClassLike] = load_taxonomy()
    return taxonomy, "pipeline.analyze.taxonomy"


def _percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 0 when both targets are met, 1 otherwise."""
    parser = argparse.ArgumentParser(prog="python -m bench.llm_stage")
    parser.add_argument("--sites", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--hang-sites", type=int, default=350)
    parser.add_argument(
        "--hang-timeout", type=float, default=None, help="seconds [default: the settings']"
    )
    args = parser.parse_args(argv)
    latency = args.latency_ms / 1000.0
    taxonomy, taxonomy_source = _taxonomy()
    contexts = make_contexts(args.sites, seed=7)
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI(latency=latency) as server:
        settings = LlmSettings(server.base_url, "bench", "gpt-4o-mini", args.concurrency)
        analyzer = LlmAnalyzer(settings, Path(tmp), static_stand_in, taxonomy=taxonomy)
        started = time.monotonic()
        results = list(analyzer.analyze(contexts))
        elapsed = time.monotonic() - started
        max_in_flight = server.max_in_flight
        requests = len(server.requests)
    failed = sum(1 for a in results if a.status != "ok")
    achieved = requests / elapsed
    ideal = args.concurrency / latency
    # The shared prefix is billed at the cached price after the first request (issue 13):
    # the target is on what each site adds to it.
    prefix = estimate_tokens(analyzer.prompt.parts(contexts[0], taxonomy)[0]) + 4
    tokens = [analyzer.prompt_tokens(ctx) - prefix for ctx in contexts]
    median, p95 = int(statistics.median(tokens)), _percentile(tokens, 0.95)
    print(f"llm stage: {len(contexts)} sites, {requests} requests, {failed} failed, {elapsed:.2f}s")
    print(f"  taxonomy: {taxonomy_source}, {len(taxonomy)} classes")
    print(
        f"  throughput: {achieved:.1f} req/s of ideal {ideal:.1f}"
        f" ({100 * achieved / ideal:.1f}%, target >= 90%); max in flight {max_in_flight}"
    )
    print(
        f"  prompt tokens per site outside the shared prefix of {prefix} (chars/4, incl."
        f" schema): median {median}, p95 {p95} (target median <= 1500)"
    )
    print(f"  {analyzer.summary.format()}".replace("\n", "\n  "))
    hung_ok = _never_answers(args.hang_sites, args.concurrency, args.hang_timeout)
    return 0 if achieved >= 0.9 * ideal and median <= 1500 and failed == 0 and hung_ok else 1


def _never_answers(sites: int, concurrency: int, timeout: float | None) -> bool:
    """Time a run against a server that never answers; True when it ends within the bound."""
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI() as server:
        server.responder = lambda body: hang(3600.0)
        settings = LlmSettings(server.base_url, "bench", "gpt-4o-mini", concurrency)
        if timeout is not None:
            settings = dataclasses.replace(settings, timeout_s=timeout)
        analyzer = LlmAnalyzer(settings, Path(tmp), static_stand_in, taxonomy=TAXONOMY)
        started = time.monotonic()
        results = list(analyzer.analyze(make_contexts(sites, seed=11)))
        elapsed = time.monotonic() - started
        requests = len(server.requests)
    t, k = settings.timeout_s, settings.breaker
    bound = (math.ceil(k / concurrency) + 1) * t + 5.0
    # Before the breaker: one site at a time until a first answer, 1 + max_retries attempts
    # each of a per-read timeout (120 s then): never ending for a server that never answers.
    before = sites * (1 + settings.max_retries) * 120.0
    failed = sum(1 for a in results if a.status != "ok")
    print(
        f"  server that never answers: {sites} sites, {requests} requests, {failed} failed,"
        f" wall {elapsed:.1f}s (bound {bound:.0f}s = (ceil(K {k}/concurrency {concurrency})"
        f" + 1) x timeout {t:g}s + 5s; before the breaker: {before / 86400:.1f} days, computed)"
    )
    print(f"  stopped: {analyzer.summary.stopped}")
    return elapsed <= bound and failed == sites


if __name__ == "__main__":
    sys.exit(main())
