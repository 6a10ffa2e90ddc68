"""Prompt v2 on a real repository (issue 13, acceptance 2) against the v1 prompt.

On risingwave `src/meta/**`: the median prompt tokens of v2 split into the shared
prefix, the per-file block and the per-site block, counted with o200k_base (the
`bpe-openai` package ships its vocabulary: no download), against v1 (the prompt
before this issue, kept in bench/prompt_v1/) on the same sites; then an `errdoc
extract --analyzer llm` against the loopback server (requests per distinct site,
prompt_cache_key grouping) and `errdoc eval`'s offline figures for the static and
the model dataset.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
from pathlib import Path
from typing import Any

import bpe_openai
from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from bench.common import ERRDOC, add_source_args, manifest, require_source, standalone, workdir
from pipeline.analyze import SiteContext
from pipeline.analyze.llm_prompt import load_prompt, site_variables, strict_schema
from pipeline.analyze.taxonomy import load_taxonomy
from pipeline.core.model import Explanation
from pipeline.scan.callerpaths import attach
from pipeline.scan.collect import (
    ExtractRequest,
    build_contexts,
    index_listing,
    locate,
    read_modules,
    scan_entries,
)
from pipeline.scan.reachstage import index_graph
from tests.llm_server import FakeOpenAI, Reply, answer

V1 = Path(__file__).parent / "prompt_v1"
_ENV = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False)


def _v1_window(ctx: SiteContext) -> str:
    """v1's window: a right-aligned line-number gutter, the site marked `>`, dedented."""
    lines = ctx.window.split("\n")
    width = len(str(ctx.window_start + len(lines) - 1))
    indent = min((len(t) - len(t.lstrip(" ")) for t in lines if t.strip()), default=0)
    return "\n".join(
        f"{'>' if n == ctx.site.line else ' '}{n:>{width}} | {t[indent:]}"
        for n, t in enumerate(lines, ctx.window_start)
    )


def _v1_messages(ctx: SiteContext, slugs: list[str]) -> tuple[str, str]:
    fields = []
    for name, info in Explanation.model_fields.items():
        annotation = str(info.annotation)
        kind = (
            "array of strings"
            if "list" in annotation
            else "string or null"
            if "None" in annotation
            else "string"
        )
        fields.append({"name": name, "type": kind, "description": info.description or ""})
    system = _ENV.from_string((V1 / "explain.system.md").read_text()).render(
        fields=fields, taxonomy=[{"slug": s} for s in slugs]
    )
    variables = site_variables(ctx) | {"window": _v1_window(ctx)}
    user = _ENV.from_string((V1 / "explain.user.md").read_text()).render(**variables)
    return system.strip() + "\n", user.strip() + "\n"


def _median(values: list[int]) -> int:
    return int(statistics.median(values)) if values else 0


def _tokens(args: argparse.Namespace, work: Path) -> tuple[list[SiteContext], dict[str, Any]]:
    request = ExtractRequest(
        repo=args.repo, rev=args.rev, out=work / "unused", cache_dir=work / "scan-cache",
        source=args.source, include=(args.include,),
    )  # fmt: skip
    git_dir, sha, listing = locate(request)
    # The caller paths the prompt shows, from the index of the whole tree (as extract does).
    whole = index_listing(request, git_dir, sha, listing)
    modules = read_modules(git_dir, whole)
    scanned = scan_entries(request, git_dir, listing)
    contexts = build_contexts(args.repo, sha, scanned, None, None, modules)
    graph = index_graph(git_dir, whole.entries, request.cache_dir)
    contexts = attach(contexts, graph) if graph is not None else list(contexts)
    encoding = bpe_openai.get_encoding("o200k_base")
    taxonomy, prompt = load_taxonomy(), load_prompt()
    schema = len(
        encoding.encode(json.dumps(strict_schema(sorted(taxonomy)), separators=(",", ":")))
    )
    prefixes, files, sites, v1 = set(), [], [], []
    prefix_tokens = 0
    for ctx in contexts:
        prefix, file_block, site_block = prompt.parts(ctx, taxonomy)
        if prefix not in prefixes:
            prefixes.add(prefix)
            prefix_tokens = len(encoding.encode(prefix))
        files.append(len(encoding.encode(file_block)))
        sites.append(len(encoding.encode(site_block)))
        v1.append(sum(len(encoding.encode(m)) for m in _v1_messages(ctx, sorted(taxonomy))))
    totals = [prefix_tokens + f + s + schema for f, s in zip(files, sites, strict=True)]
    v1_totals = [t + schema for t in v1]
    return contexts, {
        "sites": len(contexts),
        "distinctPrefixes": len(prefixes),
        "prefix": prefix_tokens,
        "schema": schema,
        "fileMedian": _median(files),
        "siteMedian": _median(sites),
        "v2Median": _median(totals),
        "v2UncachedMedian": _median([f + s for f, s in zip(files, sites, strict=True)]),
        "v1Median": _median(v1_totals),
    }


def _plain_answer(body: dict[str, Any]) -> Reply:
    return Reply(content=json.dumps(answer(triggerScenarios="The guarded condition holds.")))


def _run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    common = ["--repo", args.repo, "--sha", args.rev, "--source", args.source,
              "--include", args.include]  # fmt: skip
    static = work / "static"
    subprocess.run([*ERRDOC, "extract", *common, "--out", str(static), "--cache",
                    str(work / "c1")], check=True, capture_output=True)  # fmt: skip
    with FakeOpenAI() as server:
        server.responder = _plain_answer
        env = dict(os.environ, OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="k", MODEL="bench")
        model = work / "model"
        subprocess.run(
            [*ERRDOC, "extract", *common, "--out", str(model), "--cache", str(work / "c2"),
             "--analyzer", "llm", "--concurrency", str(args.concurrency)],
            check=True, capture_output=True, env=env,
        )  # fmt: skip
        keys = [r.body.get("prompt_cache_key") for r in server.requests]
    records = manifest(model, args.repo)["records"]
    contents = {p["contentHash"] for p in records.values()}
    switches = sum(1 for a, b in itertools.pairwise(keys) if a != b)
    figures = {}
    for name, out in (("static", static), ("model", model)):
        result = subprocess.run(
            [*ERRDOC, "eval", str(out), "--source", args.source, "--json"],
            check=True,
            capture_output=True,
            text=True,
        )
        figures[name] = json.loads(result.stdout)[args.repo]
    return {
        "records": len(records),
        "distinctContents": len(contents),
        "requests": len(keys),
        "cacheKeys": len(set(keys)),
        "keySwitches": switches,
        "eval": figures,
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures; 0 when v2 keeps one prefix and asks at most once per site."""
    parser = argparse.ArgumentParser(prog="python -m bench.prompt_stage")
    add_source_args(parser)
    parser.add_argument("--include", default="src/meta/**")
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args(argv)
    require_source(args)
    with workdir("errdoc-bench-prompt-") as work:
        _, t = _tokens(args, work)
        run = _run(args, work)
    print(f"prompt v2 on {args.repo} {args.include}: {t['sites']} sites (o200k_base tokens)")
    print(f"  shared prefix {t['prefix']} (identical across sites: {t['distinctPrefixes'] == 1}),"
          f" per-file median {t['fileMedian']}, per-site median {t['siteMedian']},"
          f" schema {t['schema']}")  # fmt: skip
    print(f"  median request {t['v2Median']} tokens, {t['v2UncachedMedian']} outside the shared"
          f" prefix; v1 (competitor, same sites) median {t['v1Median']}")  # fmt: skip
    print(f"  ratio v2/v1: {t['v2Median'] / t['v1Median']:.2f} whole request,"
          f" {t['v2UncachedMedian'] / t['v1Median']:.2f} uncached part")  # fmt: skip
    per_site = run["requests"] / max(run["distinctContents"], 1)
    print(f"  loopback run: {run['records']} records, {run['distinctContents']} distinct contents,"
          f" {run['requests']} requests ({per_site:.3f} per distinct site);"
          f" {run['cacheKeys']} prompt_cache_keys, {run['keySwitches']} key switches in"
          " arrival order")  # fmt: skip
    for name, figures in run["eval"].items():
        shown = ", ".join(f"{k} {v}" for k, v in figures.items())
        print(f"  eval {name}: {shown}")
    ok = t["distinctPrefixes"] == 1 and run["requests"] <= run["distinctContents"]
    return 0 if ok else 1


if __name__ == "__main__":
    standalone(main)
