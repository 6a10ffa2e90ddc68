"""Reading a dataset's files as untrusted input: regular files only, never a link, bounded.

A dataset directory may have been edited by hand, copied from elsewhere or planted: a
record file can be a symbolic link to `/etc/passwd`, a FIFO that blocks every reader, a
JSON document nested 100,000 deep, or a 2 MB gzip member that inflates to gigabytes.
Every read of a dataset file goes through here, so each of those is one `UnsafeFile`
(an `OSError`, which every reader already turns into its one-line error).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import stat
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

MAX_FILE_BYTES = 256 * 1024 * 1024  # a manifest of 10^6 records is well under this
MAX_LINE_BYTES = 16 * 1024 * 1024  # one record of a version file
# Records compress about 5-10 times; a version inflating to more than this is a bomb.
MAX_INFLATE_RATIO = 50
MIN_INFLATE_BUDGET = 64 * 1024 * 1024

RECORD_ID = re.compile(r"^[0-9a-f]{16}$")


class UnsafeFile(OSError):
    """A dataset file that is not a plain, bounded regular file."""


def open_regular(path: Path) -> IO[bytes]:
    """Open `path` for reading if it is a regular file; never follows a final symlink, never blocks."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if os.path.islink(path):
            raise UnsafeFile(f"{path}: is a symbolic link; errdoc never follows one") from None
        raise exc
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
            raise UnsafeFile(f"{path}: is {kind}; remove it")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes."""
    with open_regular(path) as handle:
        # read(limit + 1) would allocate the whole limit (256 MB) for every small record file:
        # 40 us a file, 8 s over 200,000 records. Ask for its size, and read on if it grew.
        want = min(os.fstat(handle.fileno()).st_size, limit) + 1
        data = handle.read(want)
        if len(data) == want and want <= limit:
            data += handle.read(limit + 1 - want)
    if len(data) > limit:
        raise UnsafeFile(f"{path}: larger than {limit} bytes")
    return data


def load_json(data: bytes | str) -> Any:
    """`json.loads` whose every failure (depth, huge numbers, bad text) is a ValueError."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def read_json(path: Path) -> Any:
    """A JSON file of the dataset; OSError or ValueError on anything else."""
    return load_json(read_regular(path))


def gzip_lines(path: Path) -> Iterator[bytes]:
    """The non-blank lines of a gzip file, each and all of them bounded (no decompression bomb)."""
    with open_regular(path) as raw:
        budget = max(MIN_INFLATE_BUDGET, MAX_INFLATE_RATIO * os.fstat(raw.fileno()).st_size)
        with gzip.GzipFile(fileobj=raw, mode="rb") as handle:
            while line := _readline(handle, path):
                budget -= len(line)
                if budget < 0:
                    raise UnsafeFile(f"{path}: inflates far beyond its size (a gzip bomb?)")
                if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                    raise UnsafeFile(f"{path}: a line longer than {MAX_LINE_BYTES} bytes")
                if line.strip():
                    yield line


def _readline(handle: gzip.GzipFile, path: Path) -> bytes:
    try:
        return handle.readline(MAX_LINE_BYTES + 1)
    except (zlib.error, EOFError) as exc:  # neither is an OSError; every reader expects one
        raise UnsafeFile(f"{path}: damaged gzip data ({exc})") from None


def is_record_id(name: str) -> bool:
    """True for a record id (16 hex digits), the only key that becomes a file name."""
    return bool(RECORD_ID.match(name))
