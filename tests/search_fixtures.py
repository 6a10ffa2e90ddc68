"""A dataset of varied messages and the log text people paste, for the search parity tests."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from render_fixtures import seed_doc, write_dataset

from pipeline.languages.rust.formats import message_pattern

BASE = seed_doc("f16c5768bcd8aade")["record"]
REPOS = ("acme/db", "acme/net")
_WORDS = [
    "actor",
    "barrier",
    "backfill",
    "catalog",
    "checkpoint",
    "connection",
    "epoch",
    "fragment",
    "job",
    "meta",
    "sink",
    "source",
    "stream",
    "table",
    "snapshot",
    "worker",
    "schema",
    "replica",
    "cluster",
    "node",
    "buffer",
    "cursor",
    "channel",
    "lease",
]
_VERBS = [
    "not found",
    "failed",
    "timed out",
    "already exists",
    "is paused",
    "was dropped",
    "is invalid",
]
_HOLES = ("{}", "{:?}", "{job_id}", "{name}", "{0}", "{:#x}")
# messages many sites print: only a location can tell their records apart
SHARED = ("should exist", "invalid state", "unexpected end of stream")
_NOISE = (
    "INFO risingwave_meta::manager: heartbeat from worker 3 ok",
    "DEBUG tokio::runtime: parked",
    "WARN hyper::proto: connection closed before message completed",
    "INFO starting compaction task 17 for group 2",
)
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def _message(rng: random.Random) -> str:
    words = rng.sample(_WORDS, rng.randint(1, 3))
    parts = [rng.choice(words), rng.choice(_HOLES), rng.choice(_VERBS)]
    if rng.random() < 0.5:
        parts += [rng.choice(["while", "during", "for"]), rng.choice(words), rng.choice(_HOLES)]
    if rng.random() < 0.2:
        parts.insert(0, "cannot")
    return " ".join(parts)


def build(out: Path, n: int = 240, seed: int = 5) -> list[dict[str, Any]]:
    """Write two datasets under OUT (with manifests naming enclosing fns); return the bodies."""
    rng = random.Random(seed)
    bodies: list[dict[str, Any]] = []
    for i in range(n):
        message = SHARED[i % len(SHARED)] if i % 8 == 0 else _message(rng)
        path = f"src/{rng.choice(_WORDS)}/src/{rng.choice(_WORDS)}_{i % 13}.rs"
        slug = re.sub(r"[^a-z0-9]+", "-", message.lower()[:50]).strip("-") or "error"
        bodies.append(
            BASE
            | {
                "id": f"{0xA000 + i:016x}",
                "repo": REPOS[i % 2],
                "slug": slug,
                "errorMessage": message,
                "messagePattern": message_pattern(message),
                "filePath": path,
                "lineNumber": 20 + 37 * i % 900,
                "githubUrl": f"https://github.com/{REPOS[i % 2]}/blob/{BASE['analyzedSha']}/{path}",
            }
        )
    for repo in REPOS:
        mine = [b for b in bodies if b["repo"] == repo]
        prov = {
            b["id"]: {"analyzer": "static", "contentHash": "h", "kind": "bail",
                      "enclosingFn": f"Handler::fn_{int(b['id'], 16) % 97}"}
            for b in mine
        }  # fmt: skip
        write_dataset(out, repo, mine, records=prov)
    return bodies


def _fill(message: str, rng: random.Random, left_out: bool) -> str:
    def value(m: re.Match[str]) -> str:
        if m.group() in ("{{", "}}"):
            return m.group()[0]
        if left_out:
            return rng.choice(["", "{}", "<id>", "..."])
        return rng.choice([str(rng.randrange(1, 99999)), "public.t1", "Some(42)", '"mv_7"'])

    text = PLACEHOLDER.sub(value, message)
    return re.sub(r"  +", " ", text) if left_out else text


def pasted(bodies: list[dict[str, Any]], count: int = 50, seed: int = 9) -> list[tuple[str, str]]:
    """`count` pasted texts built from records, each with the id of the record it came from."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    for n in range(count):
        body = rng.choice(bodies)
        kind = n % 5
        message = _fill(body["errorMessage"], rng, left_out=kind == 4)
        ts = f"2026-09-14T16:{n % 60:02d}:12.{n:03d}Z"
        where = f"{body['filePath']}:{body['lineNumber']}:{rng.randint(5, 60)}"
        if kind == 1 or body["errorMessage"] in SHARED:  # a panic names its place
            core = f"thread 'tokio-runtime-worker' panicked at {where}:\n{message}"
        elif kind == 2:
            core = f"{ts} ERROR meta::rpc: {message}\nCaused by:\n    0: io error: reset by peer"
        elif kind == 3:
            core = f"{ts}  WARN {body['repo'].split('/')[1]}::handler: failed: {message}"
        else:
            core = f"{ts} ERROR {message}"
        noise = rng.sample(_NOISE, rng.randint(0, 3))
        cut = rng.randint(0, len(noise))
        out.append(("\n".join([*noise[:cut], core, *noise[cut:]]), body["id"]))
    return out
