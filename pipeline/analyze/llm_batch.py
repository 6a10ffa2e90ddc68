"""The Batch API path of the `llm` analyzer (`--batch`): half the price, answers within 24 h.

The sites still to answer are written as one JSONL file of chat-completion
requests (custom_id = the answer cache key), uploaded (`/v1/files`), and run as
one batch (`/v1/batches`); the run polls until the batch ends, then reads its
output and error files into the same answer cache as the interactive path. The
job (its keys, file id and batch id) is stored in the cache as soon as the file
is uploaded, and the batch carries the job's id in its metadata: a run killed
at any point resumes the same batch (found by id, or by metadata when the kill
came between creating it and storing its id), so nothing is paid twice.
A batch gets no re-ask: an answer that does not validate, or a request the
batch could not run, fails its site for this run and is asked again next run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Iterator
from typing import Any, Final

import openai
from openai.types.chat import ChatCompletion
from pydantic import ValidationError

from pipeline.analyze import Analysis, SiteContext
from pipeline.analyze.llm_answer import (
    AnswerError,
    known_identifiers,
    parse_answer,
    ungrounded_identifiers,
)
from pipeline.analyze.llm_cache import AnswerCache, BatchJob
from pipeline.analyze.llm_errors import redact, server_words, short
from pipeline.analyze.llm_outcome import (
    Outcome,
    RunOwner,
    SiteFailure,
    Tally,
    completion_text,
    deliver,
    request_options,
)

ENDPOINT: Final = "/v1/chat/completions"
# Statuses after which a batch gives nothing more.
TERMINAL = frozenset({"completed", "failed", "expired", "cancelled"})
# Requests per batch: the Batch API takes 50,000 and 200 MB; prompts of a few KB stay far below.
MAX_LINES = 20_000


class BatchError(ValueError):
    """The Batch API refused a job; the message is the server's, secrets redacted."""


class BatchRun:
    """One analyze() call through the Batch API."""

    def __init__(self, owner: RunOwner, cache: AnswerCache) -> None:
        s = owner.settings
        self.owner, self.cache = owner, cache
        self.secrets = (s.api_key,)
        self.client = openai.OpenAI(
            base_url=s.base_url,
            api_key=s.api_key or "unused",
            timeout=s.timeout_s,
            max_retries=s.max_retries,  # a handful of calls: the client's own retries serve
        )

    def drive(self, pending: list[tuple[str, list[SiteContext]]]) -> Iterator[Analysis]:
        """Resume the stored jobs that answer some pending key, submit the rest, yield all."""
        groups = dict(pending)
        try:
            jobs = [job for job in self.cache.open_batches() if groups.keys() & set(job.keys)]
            covered = {key for job in jobs for key in job.keys}
            rest = [key for key in groups if key not in covered]
            for start in range(0, len(rest), MAX_LINES):
                jobs.append(self._upload(rest[start : start + MAX_LINES], groups))
            for job in jobs:
                yield from self._finish(job, groups)
        except openai.APIStatusError as exc:
            words = f"HTTP {exc.status_code}: {server_words(exc)}"
            raise BatchError(self._words("the Batch API refused the job", words)) from None
        except openai.APIConnectionError as exc:
            raise BatchError(self._words("cannot reach the Batch API", str(exc))) from None
        finally:
            self.client.close()

    def _words(self, what: str, words: str) -> str:
        where = self.owner.settings.base_url or "https://api.openai.com/v1"
        return redact(f"{what} at {where}: {short(words)}", self.secrets)

    def _upload(self, keys: list[str], groups: dict[str, list[SiteContext]]) -> BatchJob:
        owner = self.owner
        sent = owner.params.active()
        lines = []
        for key in keys:
            ctx = groups[key][0]
            cache_key = owner.prompt.cache_key(ctx)
            body = {
                "model": owner.model_for(ctx),
                "messages": owner.prompt.render(ctx, owner.taxonomy),
                **request_options(sent, owner.schema, cache_key, owner.max_tokens),
            }
            line = {"custom_id": key, "method": "POST", "url": ENDPOINT, "body": body}
            lines.append(json.dumps(line, separators=(",", ":"), ensure_ascii=False))
        data = ("\n".join(lines) + "\n").encode()
        ident = "sha256:" + hashlib.sha256(data).hexdigest()
        uploaded = self.client.files.create(file=("errdoc-batch.jsonl", data), purpose="batch")
        job = BatchJob(ident, tuple(keys), uploaded.id, None)
        self.cache.save_batch(job)
        return job

    def _batch(self, job: BatchJob) -> Any:
        """The job's batch: by id, else the one carrying its metadata, else a new one."""
        if job.batch_id:
            return self.client.batches.retrieve(job.batch_id)
        tag = job.ident[7:71]
        for batch in self.client.batches.list(limit=100).data:
            if (batch.metadata or {}).get("errdoc") == tag:
                break
        else:
            assert job.file_id is not None  # stored only once uploaded
            batch = self.client.batches.create(
                input_file_id=job.file_id,
                endpoint=ENDPOINT,
                completion_window="24h",
                metadata={"errdoc": tag},
            )
            self.owner.summary.requests += len(job.keys)  # paid when the batch is created
        self.cache.save_batch(dataclasses.replace(job, batch_id=batch.id))
        return batch

    def _finish(self, job: BatchJob, groups: dict[str, list[SiteContext]]) -> Iterator[Analysis]:
        batch = self._batch(job)
        while batch.status not in TERMINAL:
            time.sleep(self.owner.settings.batch_poll_s)
            batch = self.client.batches.retrieve(batch.id)
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            for raw in self.client.files.content(file_id).text.splitlines():
                record = _record(raw)
                key = str(record.get("custom_id", ""))
                if key in groups:
                    members = groups.pop(key)
                    outcome = self._outcome(record, members[0], batch.id)
                    yield from deliver(self.owner, self.cache, key, members, outcome)
        reason = f"no answer from batch {batch.id} ({batch.status}{_errors(batch)})"
        for key in job.keys:
            if key in groups:  # transient: the next run asks again
                yield from deliver(self.owner, self.cache, key, groups.pop(key), _failed(reason))
        self.cache.drop_batch(job.ident)

    def _outcome(self, record: dict[str, Any], ctx: SiteContext, batch_id: str) -> Outcome:
        owner, tally = self.owner, Tally()
        response = record.get("response") or {}
        body = response.get("body") if isinstance(response, dict) else None
        code = response.get("status_code") if isinstance(response, dict) else None
        if record.get("error") or code != 200 or not isinstance(body, dict):
            words = redact(_error_words(record.get("error"), body), self.secrets)
            if code in (400, 422):  # learnt for the next run, as the interactive path does
                owner.params.reject(owner.params.active(), words)
            return _failed(f"HTTP {code} in batch {batch_id}: {short(words)}")
        try:
            completion = ChatCompletion.model_validate(body)
            explanation = parse_answer(completion_text(completion, tally), owner.slugs)
        except SiteFailure as failure:
            outcome: Outcome = failure.args[1]
            outcome.reason = failure.args[0]
            return outcome
        except AnswerError as error:
            return Outcome(tally, reason=f"invalid answer in batch {batch_id} (no re-ask): {error}")
        except ValidationError as error:
            return Outcome(tally, reason=f"bad response in batch {batch_id}: {short(error)}")
        missing = ungrounded_identifiers(
            explanation, known_identifiers(ctx), owner.identifier_exists
        )
        return Outcome(tally, explanation, grounded=not missing)


def _record(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _failed(reason: str) -> Outcome:
    return Outcome(Tally(), reason=reason)


def _error_words(error: object, body: object) -> str:
    for source in (error, body.get("error") if isinstance(body, dict) else None, body):
        if isinstance(source, dict) and source.get("message"):
            return str(source["message"])
        if isinstance(source, str) and source:
            return source
    return "no response"


def _errors(batch: Any) -> str:
    data = getattr(getattr(batch, "errors", None), "data", None) or []
    messages = [str(getattr(e, "message", "") or "") for e in data]
    return (": " + "; ".join(m for m in messages if m)) if any(messages) else ""
