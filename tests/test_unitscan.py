"""A changed file parses only its changed units, and finds exactly what a whole parse finds."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest
from test_regions import FIXTURES, big_impl

from pipeline.scancache import ScanCache
from pipeline.sites import find_sites
from pipeline.sitetypes import FileScan
from pipeline.unitscan import find_sites_cached

PATH = "src/meta/src/store.rs"


class Store:
    """An in-memory unit store that counts what it was asked for and did not have."""

    def __init__(self) -> None:
        self.units: dict[str, FileScan] = {}
        self.misses = 0

    def get_units(self, keys: Sequence[str]) -> dict[str, FileScan]:
        found = {key: self.units[key] for key in keys if key in self.units}
        self.misses += len(set(keys) - found.keys())
        return found

    def put_units(self, units: Mapping[str, FileScan]) -> None:
        self.units.update(units)


def scanned_after(before: bytes, after: bytes, store: Store | None = None) -> FileScan:
    """Scan `before` (filling the store), then `after`; `after`'s scan is checked and returned."""
    store = store or Store()
    assert find_sites_cached(PATH, before, store) == find_sites(PATH, before)
    got = find_sites_cached(PATH, after, store)
    whole = find_sites(PATH, after, whole=True)
    assert got == find_sites(PATH, after)
    if not whole.parse_errors:  # a broken file's whole parse recovers its own way
        assert got == whole
    return got


def text(source: bytes) -> str:
    return source.decode()


EDITS: list[tuple[str, Callable[[str], str]]] = [
    ("lines inserted above everything", lambda s: "// a\n// b\n\n" + s),
    ("a member edited", lambda s: s.replace("member 22 refused", "member 22 was refused")),
    ("a filler member grown", lambda s: s.replace("let x3 = 3 * 4;", "let x3 = 3 * 4;\n" * 3)),
    ("the impl renamed", lambda s: s.replace("impl<T> Store\n", "impl<T> Depot\n")),
    ("a member's guard changed", lambda s: s.replace("if self.paused {", "if !self.paused {", 1)),
    (
        "a test attribute above a blank line",
        lambda s: s.replace("impl<T> Store\n", "#[cfg(test)]\n\nimpl<T> Store\n"),
    ),
    ("a whole-file test attribute", lambda s: "#![cfg(any(test, feature = \"t\"))]\n" + s),
    ("a member removed", lambda s: s.replace("pub fn member_7(", "fn gone_7(").replace(
        'anyhow::bail!("member 7 refused while paused");', "return Ok(());"
    )),
    ("a syntax error in a new member", lambda s: s.replace("fn filler_3(&self)", "fn filler_3(&self")),
]  # fmt: skip


@pytest.mark.parametrize(("name", "edit"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_file_gives_what_a_whole_parse_gives(
    name: str, edit: Callable[[str], str]
) -> None:
    before = big_impl()
    scanned_after(before, edit(text(before)).encode())


def test_only_the_changed_member_is_parsed_and_the_rest_moves_down() -> None:
    before = big_impl()
    after = ("// one\n// two\n\n" + text(before)).replace(
        "member 22 refused", "member 22 was refused"
    )
    store = Store()
    find_sites_cached(PATH, before, store)
    store.misses = 0

    got = scanned_after(before, after.encode(), store)

    assert store.misses == 1  # member_22; member_7, 37 and 52 come from the store
    old = find_sites(PATH, before)
    assert [s.line for s in got.sites] == [s.line + 3 for s in old.sites]
    moved = [c.line for s in got.sites for c in s.facts.conditions]
    assert moved == [c.line + 3 for s in old.sites for c in s.facts.conditions]


def test_a_renamed_file_hits_every_unit() -> None:
    source = big_impl()
    store = Store()
    find_sites_cached("src/a.rs", source, store)
    store.misses = 0
    assert find_sites_cached("src/b.rs", source, store) == find_sites("src/b.rs", source)
    assert store.misses == 0


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.rs")), ids=lambda p: p.name)
def test_every_fixture_scanned_through_a_filled_store_is_unchanged(fixture: Path) -> None:
    source = fixture.read_bytes()
    store = Store()
    first = find_sites_cached(f"src/{fixture.name}", source, store)
    second = find_sites_cached(f"src/{fixture.name}", b"// moved\n" + source, store)
    assert first == find_sites(f"src/{fixture.name}", source)
    assert second == find_sites(f"src/{fixture.name}", b"// moved\n" + source)


def test_unit_scans_survive_the_sqlite_cache(tmp_path: Path) -> None:
    source = big_impl()
    cache = ScanCache(tmp_path)
    find_sites_cached(PATH, source, cache)
    cache.close()
    again = ScanCache(tmp_path)
    try:
        assert find_sites_cached(PATH, b"\n" + source, again) == find_sites(PATH, b"\n" + source)
    finally:
        again.close()
