"""The per-blob scan cache gives back exactly what was parsed, at any path."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pipeline.languages.rust.sites import find_sites
from pipeline.scan.cache import ScanCache, with_path

FIXTURES = Path(__file__).parent / "fixtures" / "rust"


def test_every_fixture_round_trips_through_the_cache(tmp_path: Path) -> None:
    scans = {p.name: find_sites(f"src/{p.name}", p.read_bytes()) for p in FIXTURES.glob("*.rs")}
    assert sum(len(s.sites) for s in scans.values()) > 20
    cache = ScanCache(tmp_path)
    cache.put_many(scans)
    cache.close()
    again = ScanCache(tmp_path).get_many(scans)
    for name, scan in scans.items():
        assert with_path(again[name], f"src/{name}") == scan


def test_a_renamed_file_is_served_from_the_cache_at_its_new_path(tmp_path: Path) -> None:
    source = b'fn f() -> anyhow::Result<()> { anyhow::bail!("gone away") }\n'
    cache = ScanCache(tmp_path)
    cache.put_many({"blob1": find_sites("src/old.rs", source)})
    hit = with_path(cache.get_many(["blob1"])["blob1"], "src/new.rs")
    assert hit == find_sites("src/new.rs", source)
    assert hit.sites[0].file_path == "src/new.rs"


def test_a_damaged_row_is_a_miss_not_a_crash(tmp_path: Path) -> None:
    cache = ScanCache(tmp_path)
    cache.put_many({"blob1": find_sites("src/a.rs", b'fn f() { panic!("boom now") }\n')})
    cache.close()
    with sqlite3.connect(cache.path) as db:
        db.execute("UPDATE scans SET scan = '{\"sites\": [[1, 2]]}' WHERE blob = 'blob1'")
    assert ScanCache(tmp_path).get_many(["blob1"]) == {}


def test_the_facts_of_fields_rebound_parameters_and_panicking_arms_round_trip(
    tmp_path: Path,
) -> None:
    source = b"""\
#[derive(Debug, thiserror::Error)]
pub enum E {
    #[error("bad header {name}: {bytes:?}")]
    BadHeader { name: String, bytes: Vec<u8> },
}
pub fn normalize(key: &str, opt: &str) -> Result<(), String> {
    let key = clean(key);
    match opt {
        "ws" => unimplemented!(),
        s => if key.is_empty() { return Err(format!("empty key for {s}")); },
    }
    match key {
        "" => return Err("no key".into()),
        _ => unimplemented!(),
    }
    Ok(())
}
"""
    scan = find_sites("src/a.rs", source)
    facts = [s.facts for s in scan.sites]
    assert any(f.fields for f in facts) and any(f.rebound for f in facts)
    assert any(c.diverging for f in facts for c in f.conditions)
    assert any(c.fails_later for f in facts for c in f.conditions)
    cache = ScanCache(tmp_path)
    cache.put_many({"blob1": scan})
    cache.close()
    assert with_path(ScanCache(tmp_path).get_many(["blob1"])["blob1"], "src/a.rs") == scan
