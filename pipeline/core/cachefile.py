"""Files of the cache directory: named per repository, written whole or not at all (never
durable on purpose), read back only when their format and the code that wrote them match."""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Sequence
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


# `marshal`'s format since Python 3.4 (the caches' rows and files): it writes no code object,
# and loading its data runs none
MARSHAL_FORMAT = 4


def write_marshalled(path: Path, form: int, data: dict[str, Any]) -> None:
    """`data` with its `format` (`form`) as `marshal` bytes at `path` (`replace_file`): what
    `read_marshalled` reads back."""
    replace_file(path, marshal.dumps({"format": form, **data}, MARSHAL_FORMAT))


def read_marshalled(path: Path, form: int) -> dict[str, Any] | None:
    """The `marshal`led dict at `path` whose `format` is `form`; None when there is none, it
    does not load, or it is of another format (`marshal` loads no code)."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return data if isinstance(data, dict) and data.get("format") == form else None


def repository_file(cache_dir: Path, kind: str, repo: str, index_version: str) -> Path:
    """`CACHE/<kind>-<repo digest>-v<index version>.marshal`: one per repository (`owner/name`)."""
    digest = hashlib.sha256(repo.encode()).hexdigest()[:16]
    return cache_dir / f"{kind}-{digest}-v{index_version}.marshal"


def source_digest(files: Sequence[Path]) -> str | None:
    """A digest of the source of the modules whose code decides what a cache file holds
    (None when one cannot be read: then no such file is trusted)."""
    digest = hashlib.sha256()
    try:
        for path in files:
            digest.update(path.read_bytes())
    except OSError:
        return None
    return digest.hexdigest()[:16]
