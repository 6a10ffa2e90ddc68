"""A loopback OpenAI-compatible chat-completions server with scripted behaviours (tests, bench).

`FakeOpenAI` serves POST /v1/chat/completions (and /chat/completions) on
127.0.0.1 from a background thread. Each request takes the next scripted
`Reply` (`server.script(...)`), else `server.responder(body)`, else a good
answer. Every request is recorded with its body and timing, and the server
tracks how many requests were in flight at once.

Also here: realistic generated `SiteContext`s, a taxonomy and a fallback
stand-in, and `python tests/llm_server.py worker ...`, which runs the analyzer
in a subprocess that a test can SIGKILL.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from pipeline.analyze import SiteContext
from pipeline.core.model import Condition, Explanation, Facts, Site
from pipeline.languages.rust.formats import message_pattern

try:  # as tests.llm_server (the benchmarks), else from tests/ on the path (pytest, the worker)
    from tests.llm_batches import BatchDesk
except ImportError:
    from llm_batches import BatchDesk  # type: ignore[no-redef,import-not-found,unused-ignore]

SLUG = "invalid-state-transition"


@dataclass(frozen=True)
class FailureClass:
    """Stand-in for `pipeline.analyze.taxonomy.FailureClass` until that module lands."""

    slug: str
    title: str
    description: str = ""
    keywords: tuple[str, ...] = ()


TAXONOMY = {
    c.slug: c
    for c in (
        FailureClass(SLUG, "Operation not allowed in the current state"),
        FailureClass("invalid-argument", "A caller passed an invalid value"),
        FailureClass("not-found", "A referenced object does not exist"),
        FailureClass("resource-exhausted", "A limit or quota was reached"),
        FailureClass("internal-invariant", "An internal invariant was violated"),
    )
}


def answer(**overrides: Any) -> dict[str, Any]:
    """A valid explanation as the model would send it."""
    data: dict[str, Any] = {
        "documentation": "The meta node rejects the operation because the barrier is paused.",
        "triggerScenarios": "The state is paused when `bail!` runs.",
        "commonSituations": "An operator paused the cluster and then created a job.",
        "solutions": ["Resume the cluster first.", "Retry after resuming."],
        "exampleFix": "// before\nself.create_job(job_id).await?;\n// after\nresume first, then create",
        "handlingStrategy": "validation",
        "validationCode": None,
        "typeGuard": None,
        "tryCatchPattern": None,
        "preventionTips": ["Check the paused state first."],
        "tags": ["meta", "barrier"],
        "backgroundTag": SLUG,
    }
    data.update(overrides)
    return data


@dataclass(frozen=True)
class Reply:
    """One scripted behaviour of the server."""

    status: int = 200
    content: str | None = None  # None with status 200: a good answer
    finish_reason: str = "stop"
    refusal: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # added to the server's latency
    prompt_tokens: int | None = None  # None: chars/4 of the messages
    error: str | None = None  # the error message of a non-200 reply
    body: str | None = None  # a raw body sent as is (a non-OpenAI-shaped error)
    drip: float = 0.0  # > 0: headers at once, then the body one byte every `drip` seconds
    reasoning: str | None = None  # a reasoning model's `reasoning_content` beside the answer
    cached_tokens: int = 0  # usage.prompt_tokens_details.cached_tokens


def good(**overrides: Any) -> Reply:
    """A valid answer, optionally with some fields replaced."""
    return Reply(content=json.dumps(answer(**overrides)))


def fenced() -> Reply:
    """A valid answer in a ```json fence, with prose before it."""
    return Reply(content="Here is the explanation:\n```json\n" + json.dumps(answer()) + "\n```\n")


def truncated() -> Reply:
    """JSON cut in the middle, yet finish_reason stop."""
    text = json.dumps(answer())
    return Reply(content=text[: len(text) // 2])


def missing_field(name: str = "solutions") -> Reply:
    """A valid answer without one required field."""
    data = answer()
    del data[name]
    return Reply(content=json.dumps(data))


def refusal(text: str = "I can't help with that.") -> Reply:
    """A refusal: no content, `message.refusal` set."""
    return Reply(refusal=text)


def finish(reason: str) -> Reply:
    """A partial answer with that finish_reason (`length`, `content_filter`)."""
    return Reply(content=json.dumps(answer())[:40], finish_reason=reason)


def ungrounded(name: str = "frobnicate_barrier_epoch") -> Reply:
    """An answer that backticks an identifier found nowhere in the source."""
    return good(documentation=f"`{name}` rejects the operation while the barrier is paused.")


def status(code: int, retry_after: str | None = None) -> Reply:
    """An HTTP error, optionally with a Retry-After header."""
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    return Reply(status=code, headers=headers)


def hang(seconds: float) -> Reply:
    """A reply that comes after the client has given up."""
    return Reply(delay=seconds)


def drip(every: float) -> Reply:
    """A good answer sent one byte every `every` seconds: each read is quick, the whole is not."""
    return Reply(drip=every)


def rejects(code: int, wording: str) -> Reply:
    """A client error with the server's own words, in the OpenAI error shape."""
    return Reply(status=code, error=wording)


def raw_error(code: int, body: str) -> Reply:
    """A client error whose body is not OpenAI-shaped (FastAPI, a proxy, plain text)."""
    return Reply(status=code, body=body)


@dataclass
class Seen:
    """One request the server received."""

    path: str
    body: dict[str, Any]
    started: float
    finished: float | None = None

    def prompt(self) -> str:
        """All message contents joined."""
        return "\n".join(str(m.get("content") or "") for m in self.body.get("messages", []))


class _QuietServer(ThreadingHTTPServer):
    """A client killed mid-request (the resume tests do that) is expected, not an error."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class FakeOpenAI:
    """The loopback server; use as a context manager."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency
        self.replies: deque[Reply] = deque()
        self.responder: Callable[[dict[str, Any]], Reply] | None = None
        self.requests: list[Seen] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()
        self.batches = BatchDesk(self._batch_line)
        self._httpd = _QuietServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False  # a hanging reply must not block shutdown
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        """The OpenAI base URL of this server."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def script(self, *replies: Reply) -> None:
        """Queue replies for the next requests, in order."""
        with self.lock:
            self.replies.extend(replies)

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self._httpd.shutdown()
        self._httpd.server_close()

    def _batch_line(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """One batch line answered as a request would be (and counted as one)."""
        seen = Seen("/v1/batches", body, time.monotonic(), time.monotonic())
        with self.lock:
            self.requests.append(seen)
        reply = self.next_reply(body)
        if reply.status != 200:
            message = reply.error or f"scripted status {reply.status}"
            return reply.status, {"error": {"message": message, "type": "invalid_request"}}
        return 200, _completion(body, reply)

    def next_reply(self, body: dict[str, Any]) -> Reply:
        """The scripted reply for this request."""
        with self.lock:
            if self.replies:
                return self.replies.popleft()
        return self.responder(body) if self.responder else good()


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    messages = body.get("messages", [])
    prompt_chars = sum(len(str(m.get("content") or "")) for m in messages)
    content = reply.content if reply.content is not None or reply.refusal else None
    if content is None and reply.refusal is None:
        content = json.dumps(answer())
    return {
        "id": "chatcmpl-" + hashlib.sha256(str(time.time()).encode()).hexdigest()[:12],
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake"),
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": content,
                    "refusal": reply.refusal,
                    **({"reasoning_content": reply.reasoning} if reply.reasoning else {}),
                },
                "finish_reason": reply.finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": reply.prompt_tokens or prompt_chars // 4,
            "completion_tokens": len(content or reply.refusal or "") // 4 + 1,
            "total_tokens": 0,
            "prompt_tokens_details": {"cached_tokens": reply.cached_tokens},
        },
    }


def _handler(server: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in separate writes: without this, Nagle's algorithm and
        # the client's delayed ACK add ~40 ms to every reply.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.split("?")[0].removeprefix("/v1")
            desk = server.batches
            if path == "/batches":
                self._send(*desk.list())
            elif path.startswith("/batches/"):
                self._send(*desk.retrieve(path.removeprefix("/batches/")))
            elif path.startswith("/files/") and path.endswith("/content"):
                data = desk.content(path.split("/")[2])
                if data is None:
                    self._send(404, {"error": {"message": "No such File object"}})
                else:
                    self._send_raw(200, data, "application/octet-stream")
            else:
                self._send(404, {"error": {"message": "not found", "type": "invalid_request"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            path = self.path.split("?")[0].removeprefix("/v1")
            if path == "/files":
                self._send(*server.batches.upload(self.headers.get("Content-Type", ""), raw))
                return
            if path == "/batches":
                self._send(*server.batches.create(json.loads(raw or b"{}")))
                return
            if self.path not in ("/v1/chat/completions", "/chat/completions"):
                self._send(404, {"error": {"message": "not found", "type": "invalid_request"}})
                return
            body = json.loads(raw or b"{}")
            seen = Seen(self.path, body, time.monotonic())
            with server.lock:
                server.requests.append(seen)
                server.in_flight += 1
                server.max_in_flight = max(server.max_in_flight, server.in_flight)
            try:
                reply = server.next_reply(body)
                time.sleep(server.latency + reply.delay)
                if reply.body is not None:
                    kind = "application/json" if reply.body.startswith("{") else "text/plain"
                    self._send_raw(reply.status, reply.body.encode(), kind, reply.headers)
                elif reply.drip > 0:
                    self._drip(_completion(body, reply), reply.drip)
                elif reply.status != 200:
                    message = reply.error or f"scripted status {reply.status}"
                    error = {"message": message, "type": "server_error"}
                    self._send(reply.status, {"error": error}, reply.headers)
                else:
                    self._send(200, _completion(body, reply), reply.headers)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client timed out and hung up
            finally:
                seen.finished = time.monotonic()
                with server.lock:
                    server.in_flight -= 1

        def _drip(self, payload: object, every: float) -> None:
            data = json.dumps(payload).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            for i in range(len(data)):
                self.wfile.write(data[i : i + 1])
                self.wfile.flush()
                time.sleep(every)

        def _send(self, code: int, payload: object, headers: dict[str, str] | None = None) -> None:
            self._send_raw(code, json.dumps(payload).encode(), "application/json", headers)

        def _send_raw(
            self, code: int, data: bytes, kind: str, headers: dict[str, str] | None = None
        ) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

    return Handler


_NOUNS = [
    "barrier",
    "epoch",
    "fragment",
    "actor",
    "job",
    "table",
    "source",
    "sink",
    "worker",
    "snapshot",
    "backfill",
]
_VERBS = [
    "create",
    "drop",
    "alter",
    "pause",
    "resume",
    "schedule",
    "recover",
    "collect",
    "inject",
    "flush",
]


def make_context(i: int, seed: int = 0) -> SiteContext:
    """A realistic generated site: a `bail!` in a meta-node fn, 37-line window."""
    rnd = random.Random(seed * 100_003 + i)
    noun, other, verb = rnd.choice(_NOUNS), rnd.choice(_NOUNS), rnd.choice(_VERBS)
    fn = f"{verb}_{noun}_{other}_{i}"
    cond = f"self.{noun}_state.is_{rnd.choice(['paused', 'dropped', 'creating'])}()"
    message = (
        f"cannot {verb} {noun} {{{noun}_id}} while {other} is {rnd.choice(['paused', 'busy'])}"
    )
    body = [
        f"    /// {verb.capitalize()}s the {noun} of a {other} and records it in the catalog.",
        f"    pub async fn {fn}(&self, {noun}_id: {noun.capitalize()}Id) -> MetaResult<()> {{",
        f"        let guard = self.{other}_manager.lock().await;",
        f'        let {noun} = guard.get_{noun}({noun}_id).context("{noun} not found")?;',
        f"        if {cond} {{",
        f'            bail!("{message}");',
        "        }",
    ]
    filler = [
        f"        let {rnd.choice(_NOUNS)}_{k} = self.{rnd.choice(_NOUNS)}_info.get(&{noun}_id);"
        for k in range(15)
    ]
    lines = (
        filler[:12]
        + body
        + filler[12:]
        + ["    }", ""]
        + [f"    // {rnd.choice(_VERBS)} {rnd.choice(_NOUNS)} helper {k}" for k in range(13)]
    )
    window = "\n".join(lines[:37])
    start = 100 + i * 50
    line = start + 12 + 5
    site = Site(
        kind="bail",
        file_path=f"src/meta/src/{noun}/{other}_{i % 17}.rs",
        line=line,
        column=12,
        message=message,
        is_format=True,
        pattern=message_pattern(message),
        macro="bail",
        format_args=(f"{noun}_id",),
        facts=Facts(
            enclosing_fn=fn,
            enclosing_impl=f"{other.capitalize()}Manager",
            fn_doc=f"{verb.capitalize()}s the {noun} of a {other} and records it in the catalog.",
            return_type="MetaResult<()>",
            conditions=(Condition("if", cond, line - 1),),
        ),
    )
    content_hash = "sha256:" + hashlib.sha256(f"{seed}/{i}/{message}/{window}".encode()).hexdigest()
    return SiteContext(
        record_id=content_hash[7:23],
        repo="risingwavelabs/risingwave",
        sha="6469eb736d691e8e9b8a419a57edd6429ca77417",
        site=site,
        error_class="MetaError",
        error_type="exception",
        severity="error",
        message_pattern=message.replace(f"{{{noun}_id}}", "(.+?)"),
        window=window,
        window_start=start,
        content_hash=content_hash,
    )


def make_contexts(n: int, seed: int = 0) -> list[SiteContext]:
    """n distinct generated sites."""
    return [make_context(i, seed) for i in range(n)]


def static_stand_in(ctx: SiteContext) -> Explanation:
    """The fallback explanation (stand-in for the static analyzer)."""
    return Explanation.model_validate(
        answer(documentation=f"static: {ctx.site.message}", tags=["static"])
    )


def _worker(argv: list[str]) -> int:
    """Run the analyzer over generated sites, printing each record id as it is answered."""
    from pipeline.analyze.llm import LlmAnalyzer, LlmSettings

    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--sites", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--batch", action="store_true")
    args = parser.parse_args(argv)
    settings = LlmSettings(
        args.base_url, "test-key", "gpt-4o-mini", concurrency=args.concurrency, batch_poll_s=0.05
    )
    analyzer = LlmAnalyzer(
        settings, args.cache_dir, static_stand_in, taxonomy=TAXONOMY, batch=args.batch
    )
    for analysis in analyzer.analyze(make_contexts(args.sites)):
        print(analysis.record_id, analysis.status, flush=True)
    return 0


def iter_lines(stream: Any) -> Iterator[str]:
    """Lines of a text stream until EOF."""
    yield from iter(stream.readline, "")


if __name__ == "__main__":
    if sys.argv[1:2] == ["worker"]:
        sys.exit(_worker(sys.argv[2:]))
    sys.exit("usage: llm_server.py worker --base-url URL --cache-dir DIR [--sites N]")
