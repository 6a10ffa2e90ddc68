"""Writing a file of the cache directory: whole or not at all, never durable on purpose."""

from __future__ import annotations

import marshal
import os
from pathlib import Path
from typing import Any


def replace_file(path: Path, body: bytes) -> None:
    """Write `body` to `path` through a temporary file renamed over it: a reader sees the
    old file or the new one. Not synced: a cache file lost in a crash costs its work again."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as out:
            out.write(body)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def read_marshalled(path: Path, form: int) -> dict[str, Any] | None:
    """The `marshal`led dict at `path` whose `format` is `form`; None when there is none, it
    does not load, or it is of another format (`marshal` loads no code)."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return data if isinstance(data, dict) and data.get("format") == form else None
