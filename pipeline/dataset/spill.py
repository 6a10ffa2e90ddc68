"""Texts by key kept on disk, not in memory: a run's record lines before they are published.

An extract of 200,000 files makes 400 MB of record lines and 70 MB of provenance; held as
strings they were most of its peak (issue 16). `Spilled` appends each text to an unnamed
temporary file (`O_TMPFILE`: nothing to clean up after a crash) and keeps only where it
is, about 150 bytes a key; reading one back is one `pread`, safe from several threads.
"""

from __future__ import annotations

import os
import tempfile
import weakref
from collections.abc import Iterator, Mapping
from pathlib import Path

BLOCK = 1 << 20


class Spilled(Mapping[str, str]):
    """A mapping of str to str whose values live in a temporary file."""

    def __init__(self, directory: Path | None = None) -> None:
        # unbuffered: a full disk fails in `put` or `seal`, never again when collected
        self._file = tempfile.TemporaryFile(dir=directory, buffering=0)  # noqa: SIM115 (outlives a block)
        # closed when the mapping is collected: an ExtractResult hands its lines to the caller
        self.close = weakref.finalize(self, self._file.close)
        self._at: dict[str, tuple[int, int]] = {}
        self._end = 0
        self._held = bytearray()  # written in blocks: one system call per BLOCK bytes

    def put(self, key: str, text: str) -> None:
        """Add or replace `key` (a replaced text stays in the file, unreachable)."""
        data = text.encode()
        self._at[key] = (self._end + len(self._held), len(data))
        self._held += data
        if len(self._held) >= BLOCK:
            self.seal()

    def seal(self) -> None:
        """Flush what `put` buffered: call before handing the mapping to other threads."""
        if self._held:
            held, self._held = self._held, bytearray()
            view, done = memoryview(held), 0
            while done < len(held):
                done += os.pwrite(self._file.fileno(), view[done:], self._end + done)
            self._end += len(held)

    def __getitem__(self, key: str) -> str:
        start, size = self._at[key]
        self.seal()
        return os.pread(self._file.fileno(), size, start).decode()

    def __contains__(self, key: object) -> bool:
        return key in self._at

    def __iter__(self) -> Iterator[str]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)


class Layered(Mapping[str, str]):
    """Several mappings seen as one, the first that has a key winning (`ChainMap`, read-only)."""

    def __init__(self, *layers: Mapping[str, str]) -> None:
        self._layers = [layer for layer in layers if layer]

    def __getitem__(self, key: str) -> str:
        for layer in self._layers:
            if key in layer:
                return layer[key]
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return any(key in layer for layer in self._layers)

    def __iter__(self) -> Iterator[str]:
        if len(self._layers) == 1:
            return iter(self._layers[0])
        return iter({key: None for layer in self._layers for key in layer})

    def __len__(self) -> int:
        if len(self._layers) == 1:
            return len(self._layers[0])
        return len({key for layer in self._layers for key in layer})
