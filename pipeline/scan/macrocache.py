"""The macros each blob defines (`Language.macro_definitions`), by blob id: a run finds its
repository's error macros (`collect.repository_macros`) reading only the blobs it has not
seen. One SQLite file per version of what a definition is read as (`MACROS_VERSION`),
beside the scan cache; `marshal`, not pickle: loading it runs no code, and a row that is
not a definitions' shape is a miss."""

from __future__ import annotations

import marshal
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pipeline.core.cachefile import MARSHAL_FORMAT
from pipeline.core.macros import Definitions
from pipeline.languages import MACROS_VERSION
from pipeline.scan.cache import select_in


class MacroCache:
    """Macro definitions by blob id (an empty mapping: the blob defines none)."""

    def __init__(self, cache_dir: Path) -> None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(cache_dir / f"macros-v{MACROS_VERSION}.sqlite", timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS macros (blob TEXT PRIMARY KEY, body BLOB NOT NULL)"
        )

    def get_many(self, blobs: Iterable[str]) -> dict[str, Definitions]:
        """The cached definitions among `blobs`."""
        found = {}
        for blob, body in select_in(self._db, "blob, body FROM macros WHERE blob", blobs):
            definitions = _decoded(body)
            if definitions is not None:
                found[blob] = definitions
        return found

    def put_many(self, found: Mapping[str, Definitions]) -> None:
        rows = [(blob, marshal.dumps(d, MARSHAL_FORMAT)) for blob, d in found.items()]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO macros VALUES (?, ?)", rows)

    def close(self) -> None:
        self._db.close()


def _decoded(body: Any) -> Definitions | None:
    try:
        data = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, tuple) and all(isinstance(r, tuple) for r in v)
        for k, v in data.items()
    ):
        return None
    return data
