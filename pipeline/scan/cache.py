"""The per-blob scan cache: a git blob id -> what `find_sites` found in it.

One SQLite file per extractor version (`CACHE/scans-v<EXTRACTOR_VERSION>.sqlite`),
so a change of the extractor invalidates everything at once; a repository with error
macros of its own has a file per table of them (`-m<digest>`). A blob's scan does
not depend on the path it is found at, except for `Site.file_path`, which is
stored empty and put back on load: a renamed or copied file is not parsed again.
JSON, not pickle: the cache directory is not trusted to hold code.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

from pipeline.core.sitetypes import Condition, Facts, FileScan, Site, TypeAlias, placed
from pipeline.languages import EXTRACTOR_VERSION

_DIGEST = re.compile(r"[0-9a-f]{16}")


class ScanCache:
    """Scans by blob id, persisted in SQLite; each parser process writes what it parsed."""

    def __init__(self, cache_dir: Path, variant: str | None = None) -> None:
        """`variant`: the digest of the repository's error macros (`ErrorMacros.digest`), which
        a scan also depends on: scans made with other macros are in another file."""
        cache_dir.mkdir(parents=True, exist_ok=True)
        self.directory = cache_dir
        self.path = _table_file(cache_dir, variant)
        # Parser processes write their own results: wait for each other, never fail.
        self._db = sqlite3.connect(self.path, timeout=60)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS scans (blob TEXT PRIMARY KEY, scan TEXT NOT NULL)"
        )

    def get_many(self, blobs: Iterable[str]) -> dict[str, FileScan]:
        """The cached scans among `blobs` (file paths left empty)."""
        found: dict[str, FileScan] = {}
        for blob, text in select_in(self._db, "blob, scan FROM scans WHERE blob", blobs):
            try:
                found[blob] = decode_scan(json.loads(text))
            except (KeyError, TypeError, ValueError):
                continue  # a damaged row is a miss, not a crash
        return found

    def put_many(self, scans: Mapping[str, FileScan]) -> None:
        """Store scans by blob id, in one transaction."""
        rows = [
            (blob, json.dumps(encode_scan(scan), separators=(",", ":")))
            for blob, scan in scans.items()
        ]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO scans VALUES (?, ?)", rows)

    def adopt(self, variant: object, blobs: Iterable[str]) -> int:
        """Copy the scans of `blobs` made with another table of error macros (`variant`, as
        `__init__` takes it) into this one; returns how many rows it copied. For files that
        invoke none of the macros the two tables read otherwise: their scans are the same
        under both (what lets a regeneration carry such a file over a changed table). A
        later version of one of them then parses only its changed units (`find_sites_after`
        finds its earlier scan here); without the copy it was parsed whole (risingwave,
        HEAD~100 -> HEAD~50 -> HEAD: 172 of the 221 changed files). A cache file that is not
        there, or not a cache, adopts nothing: this only saves work."""
        if variant is not None and not (isinstance(variant, str) and _DIGEST.fullmatch(variant)):
            return 0  # a digest, or nothing (the manifest that says it is not trusted)
        earlier = _table_file(self.directory, variant)
        if earlier == self.path or not earlier.is_file():
            return 0
        try:
            source = sqlite3.connect(f"{earlier.resolve().as_uri()}?mode=ro", uri=True)
            try:
                rows = list(select_in(source, "blob, scan FROM scans WHERE blob", blobs))
            finally:
                source.close()
        except sqlite3.Error:
            return 0
        valid = [(b, s) for b, s in rows if isinstance(b, str) and isinstance(s, str)]
        with self._db:
            self._db.executemany("INSERT OR IGNORE INTO scans VALUES (?, ?)", valid)
        return len(valid)

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def _table_file(cache_dir: Path, variant: str | None) -> Path:
    """The file of the scans made with the error-macro table of digest `variant`."""
    suffix = f"-m{variant}" if variant else ""
    return cache_dir / f"scans-v{EXTRACTOR_VERSION}{suffix}.sqlite"


def encode_scan(scan: FileScan) -> dict[str, Any]:
    """A JSON-able form of a scan, with no file path in it (field by field: `asdict` is slow)."""
    return {
        "sites": [_encode_site(site) for site in scan.sites],
        "aliases": [[a.name, a.error_type, a.line] for a in scan.aliases],
        "parse_errors": scan.parse_errors,
        "uses_anyhow_result": scan.uses_anyhow_result,
        "result_from": scan.result_from,
        "own_macros": list(scan.own_macros),
        "anyhow_macros": list(scan.anyhow_macros),
        "test_modules": list(scan.test_modules),
        "file_gates": list(scan.file_gates),
        "gated_modules": [[module, list(gates)] for module, gates in scan.gated_modules],
    }


def _encode_site(site: Site) -> list[Any]:
    facts = site.facts
    conditions = [
        [
            c.kind,
            c.text,
            c.line,
            c.negated,
            list(c.excluded),
            list(c.diverging),
            c.fails_later,
            list(c.excluded_gates),
        ]
        for c in facts.conditions
    ]
    encoded_facts = [getattr(facts, name) for name in _FACT_FIELDS]
    encoded_facts[_FACT_FIELDS.index("conditions")] = conditions
    encoded_facts[_FACT_FIELDS.index("gates")] = list(facts.gates)
    values = [getattr(site, name) for name in _SITE_FIELDS]
    values[_SITE_FIELDS.index("file_path")] = ""
    values[_SITE_FIELDS.index("facts")] = encoded_facts
    values[_SITE_FIELDS.index("format_args")] = list(site.format_args)
    return values


def decode_scan(data: dict[str, Any]) -> FileScan:
    """The inverse of `encode_scan`."""
    sites = []
    for raw in data["sites"]:
        values = dict(zip(_SITE_FIELDS, raw, strict=True))
        facts = dict(zip(_FACT_FIELDS, values["facts"], strict=True))
        facts["conditions"] = tuple(
            Condition(c[0], c[1], c[2], c[3], tuple(c[4]), tuple(c[5]), c[6], tuple(c[7]))
            for c in facts["conditions"]
        )
        facts["gates"] = tuple(facts["gates"])
        facts["fields"] = tuple(tuple(f) for f in facts["fields"])
        facts["rebound"] = tuple(facts["rebound"])
        facts["debug_only"] = tuple(facts["debug_only"])
        facts["state_setters"] = tuple(tuple(s) for s in facts["state_setters"])
        values["facts"] = Facts(**facts)
        values["format_args"] = tuple(values["format_args"])
        sites.append(Site(**values))
    return FileScan(
        sites=tuple(sites),
        aliases=tuple(TypeAlias(*a) for a in data["aliases"]),
        parse_errors=data["parse_errors"],
        uses_anyhow_result=data["uses_anyhow_result"],
        result_from=data.get("result_from"),
        own_macros=tuple(data["own_macros"]),
        anyhow_macros=tuple(data.get("anyhow_macros", ())),
        test_modules=tuple(data.get("test_modules", ())),
        file_gates=tuple(data.get("file_gates", ())),
        gated_modules=tuple((m, tuple(g)) for m, g in data.get("gated_modules", ())),
    )


_SITE_FIELDS = tuple(f.name for f in fields(Site))
_FACT_FIELDS = tuple(f.name for f in fields(Facts))


def with_path(scan: FileScan, path: str) -> FileScan:
    """A cached scan placed at `path` (`placed`, not `dataclasses.replace`: that is slow)."""
    sites = tuple(placed(s, 0, path, s.window, s.window_start) for s in scan.sites)
    return replace(scan, sites=sites)


def select_in(db: sqlite3.Connection, what: str, keys: Iterable[str]) -> Iterator[tuple[Any, ...]]:
    """`SELECT <what> IN (keys)` (`what` ends with the key's column), 500 keys a query
    (SQLite's variable limit), each key once; shared by the caches of this package."""
    wanted = list(dict.fromkeys(keys))
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        yield from db.execute(f"SELECT {what} IN ({marks})", chunk)
