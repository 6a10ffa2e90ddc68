"""The Batch API of the loopback server: /v1/files and /v1/batches, as OpenAI serves them.

A batch stays `in_progress` while `release` is clear; the first look at it once
`release` is set runs every line through the server's usual reply logic (each
line is one paid request in `FakeOpenAI.requests`) and completes it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

# One batch line's body in, (status, response body) out.
LineAnswer = Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]


class BatchDesk:
    """Files and batches of one loopback server."""

    def __init__(self, answer: LineAnswer) -> None:
        self.answer = answer
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.release = threading.Event()
        self.release.set()
        self.uploads = 0
        self.created = 0
        self.polls = 0
        self.enabled = True  # False: a server without the Batch API (404, as vLLM answers)
        self.lock = threading.RLock()  # a batch run inside retrieve stores files

    def _file(self, data: bytes, purpose: str, name: str) -> dict[str, Any]:
        with self.lock:
            file_id = f"file-{len(self.files) + 1}"
            self.files[file_id] = data
        return {
            "id": file_id,
            "object": "file",
            "bytes": len(data),
            "created_at": int(time.time()),
            "filename": name,
            "purpose": purpose,
            "status": "processed",
        }

    def upload(self, content_type: str, raw: bytes) -> tuple[int, dict[str, Any]]:
        """POST /v1/files (multipart: purpose, file)."""
        if not self.enabled:
            return 404, {"detail": "Not Found"}
        head = f"Content-Type: {content_type}\r\n\r\n".encode()
        message = BytesParser(policy=HTTP).parsebytes(head + raw)
        fields: dict[str, tuple[bytes, str]] = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            filename = part.get_filename() or ""
            payload = part.get_payload(decode=True)
            fields[str(name)] = (payload if isinstance(payload, bytes) else b"", filename)
        if "file" not in fields or fields.get("purpose", (b"",))[0] != b"batch":
            return 400, {"error": {"message": "file and purpose=batch are required"}}
        self.uploads += 1
        data, filename = fields["file"]
        return 200, self._file(data, "batch", filename)

    def create(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """POST /v1/batches."""
        if body.get("input_file_id") not in self.files:
            return 404, {"error": {"message": f"No such File object: {body.get('input_file_id')}"}}
        with self.lock:
            self.created += 1
            batch_id = f"batch_{self.created}"
            lines = self.files[body["input_file_id"]].decode().splitlines()
            self.batches[batch_id] = {
                "id": batch_id,
                "object": "batch",
                "endpoint": body.get("endpoint"),
                "errors": None,
                "input_file_id": body["input_file_id"],
                "completion_window": body.get("completion_window", "24h"),
                "status": "in_progress",
                "output_file_id": None,
                "error_file_id": None,
                "created_at": int(time.time()),
                "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
                "metadata": body.get("metadata"),
            }
        return 200, self.batches[batch_id]

    def retrieve(self, batch_id: str) -> tuple[int, dict[str, Any]]:
        """GET /v1/batches/{id}: runs the batch once released."""
        with self.lock:
            self.polls += 1
            batch = self.batches.get(batch_id)
            if batch is None:
                return 404, {"error": {"message": f"No such Batch object: {batch_id}"}}
            if batch["status"] == "in_progress" and self.release.is_set():
                self._run(batch)
        return 200, batch

    def _run(self, batch: dict[str, Any]) -> None:
        out: list[str] = []
        errors: list[str] = []
        for raw in self.files[batch["input_file_id"]].decode().splitlines():
            line = json.loads(raw)
            status, body = self.answer(line["body"])
            result = {
                "id": f"batch_req_{len(out) + len(errors)}",
                "custom_id": line["custom_id"],
                "response": {"status_code": status, "request_id": "req", "body": body},
                "error": None,
            }
            (out if status == 200 else errors).append(json.dumps(result))
        counts = batch["request_counts"]
        counts.update(completed=len(out), failed=len(errors))
        for lines, field in ((out, "output_file_id"), (errors, "error_file_id")):
            if lines:
                data = ("\n".join(lines) + "\n").encode()
                batch[field] = self._file(data, "batch_output", f"{field}.jsonl")["id"]
        batch["status"] = "completed"

    def list(self) -> tuple[int, dict[str, Any]]:
        """GET /v1/batches: newest first, one page."""
        data = sorted(self.batches.values(), key=lambda b: b["id"], reverse=True)
        return 200, {"object": "list", "data": data, "has_more": False}

    def content(self, file_id: str) -> bytes | None:
        """GET /v1/files/{id}/content."""
        return self.files.get(file_id)
