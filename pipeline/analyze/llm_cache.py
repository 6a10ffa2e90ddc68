"""The LLM answer cache: one SQLite row per answered site content, committed as it arrives.

Key: sha256 of the site's content hash, the model, the prompt version and the
answer-schema version, so a change to any of them asks again. Valid answers
are stored (grounded or not), and so are deterministic failures (a refusal, a
content filter, an answer cut at max_tokens, an answer still invalid after a
re-ask) with their reason: asking again would pay for the same failure, so a
re-run does not, unless told to (`--retry-failed`). Transient failures (HTTP
errors, timeouts) are never stored, so a re-run retries them. A Batch API job
is stored (its keys, input file and batch id) from the moment its file is
uploaded until its results are in `answers`, so a killed run resumes the same
batch instead of paying for a second one. Each row is committed the moment its answer arrives (WAL mode), so a run
killed with SIGKILL loses at most the requests that were in flight. The file
name carries the cache format version; a bump starts a new file.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.model import Explanation, Usage

CACHE_FILE = "llm-v1.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    explanation TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    grounded INTEGER NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS failures (
    key TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS batches (
    ident TEXT PRIMARY KEY,
    keys TEXT NOT NULL,
    file_id TEXT,
    batch_id TEXT,
    created_at REAL NOT NULL
);
"""


def cache_key(content_hash: str, model: str, prompt_version: str, schema_version: str) -> str:
    """The cache key of one site's answer."""
    parts = "\0".join((content_hash, model, prompt_version, schema_version))
    return "sha256:" + hashlib.sha256(parts.encode()).hexdigest()


@dataclass(frozen=True)
class BatchJob:
    """A Batch API job in progress: the cache keys it answers, its input file and batch."""

    ident: str
    keys: tuple[str, ...]
    file_id: str | None = None
    batch_id: str | None = None


@dataclass(frozen=True)
class CachedAnswer:
    """A stored answer with the usage it cost when it was obtained."""

    explanation: Explanation
    usage: Usage
    grounded: bool


class AnswerCache:
    """SQLite store of answers; use from one thread (the event loop's)."""

    def __init__(self, cache_dir: Path) -> None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        self.path = cache_dir / CACHE_FILE
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=10000")
        self._db.executescript(_SCHEMA)

    def get(self, key: str) -> CachedAnswer | None:
        """The stored answer for key, or None (also for a row that no longer validates)."""
        row = self._db.execute(
            "SELECT explanation, prompt_tokens, completion_tokens, grounded"
            " FROM answers WHERE key = ?",
            (key,),
        ).fetchone()
        if row is None:
            return None
        try:
            explanation = Explanation.model_validate_json(row[0])
        except ValueError:
            return None  # written by an older model class: ask again
        usage = Usage(prompt_tokens=row[1], completion_tokens=row[2])
        return CachedAnswer(explanation, usage, bool(row[3]))

    def put(
        self,
        key: str,
        answer: CachedAnswer,
        model: str,
        prompt_version: str,
    ) -> None:
        """Store one answer and commit it at once (forgetting an earlier failure)."""
        self._db.execute("DELETE FROM failures WHERE key = ?", (key,))
        self._db.execute(
            "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                answer.explanation.model_dump_json(),
                answer.usage.prompt_tokens,
                answer.usage.completion_tokens,
                int(answer.grounded),
                model,
                prompt_version,
                time.time(),
            ),
        )

    def failure(self, key: str) -> str | None:
        """The reason a deterministic failure was stored for key, or None."""
        row = self._db.execute("SELECT reason FROM failures WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put_failure(self, key: str, reason: str, model: str, prompt_version: str) -> None:
        """Store a deterministic failure and commit it at once."""
        self._db.execute(
            "INSERT OR REPLACE INTO failures VALUES (?, ?, ?, ?, ?)",
            (key, reason, model, prompt_version, time.time()),
        )

    def open_batches(self) -> list[BatchJob]:
        """Batch jobs whose results are not all in the cache yet, oldest first."""
        rows = self._db.execute(
            "SELECT ident, keys, file_id, batch_id FROM batches ORDER BY created_at"
        ).fetchall()
        return [BatchJob(r[0], tuple(json.loads(r[1])), r[2], r[3]) for r in rows]

    def save_batch(self, job: BatchJob) -> None:
        """Record (or update) a batch job and commit it at once."""
        self._db.execute(
            "INSERT INTO batches VALUES (?, ?, ?, ?, ?) ON CONFLICT(ident) DO UPDATE SET"
            " file_id = excluded.file_id, batch_id = excluded.batch_id",
            (job.ident, json.dumps(job.keys), job.file_id, job.batch_id, time.time()),
        )

    def drop_batch(self, ident: str) -> None:
        """Forget a batch job whose results are all stored (or that can give none)."""
        self._db.execute("DELETE FROM batches WHERE ident = ?", (ident,))

    def close(self) -> None:
        """Close the database."""
        self._db.close()
