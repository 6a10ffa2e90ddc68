"""A fuzzing harness or a `cargo xtask` program is a developer's tool over the product's
code: a way in ranked with benchmark programs, after the product's own (meilisearch's
`fuzz-indexing` binary was the way into `write_to_db` before the server, reading 311)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_reach import committed_and_extracted

from pipeline.scan.entrypoints import tooling_program

LIB = """\
pub fn write_to_db(n: u32) -> anyhow::Result<()> {
    if n == 0 {
        anyhow::bail!("nothing to write");
    }
    Ok(())
}
"""
SERVER = """\
fn main() -> anyhow::Result<()> {
    serve()
}

fn serve() -> anyhow::Result<()> {
    index()
}

fn index() -> anyhow::Result<()> {
    store::write_to_db(std::env::args().count() as u32)
}
"""
FUZZ = """\
fn main() -> anyhow::Result<()> {
    store::write_to_db(0)
}
"""


def test_the_product_s_program_comes_before_a_fuzzing_harness(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["store", "server", "fuzzers"]\n',
        "store/Cargo.toml": '[package]\nname = "store"\n',
        "store/src/lib.rs": LIB,
        "server/Cargo.toml": '[package]\nname = "server"\n[dependencies]\nstore = { path = "../store" }\n',
        "server/src/main.rs": SERVER,
        "fuzzers/Cargo.toml": '[package]\nname = "fuzzers"\n[dependencies]\nstore = { path = "../store" }\n',
        "fuzzers/src/bin/fuzz-indexing.rs": FUZZ,
    }
    _, record = committed_and_extracted(files, "o/db", tmp_path, "nothing to write")
    reach = json.loads((tmp_path / "out" / "o" / "db" / "reach.json").read_text())
    labels = [p["entry_label"] for p in reach["records"][record["id"]]["paths"]]
    assert labels[0] == "`server` (fn main)"
    assert "`fuzz-indexing` (fn main)" in labels[1:]


@pytest.mark.parametrize(
    ("path", "tool"),
    [
        ("fuzz/fuzz_targets/parse.rs", True),
        ("crates/fuzzers/src/bin/fuzz-indexing.rs", True),
        ("xtask/src/main.rs", True),
        ("src/bin/fuzzy-finder.rs", False),
        ("src/main.rs", False),
        ("crates/fuzzy/src/main.rs", False),
        ("crates/meilisearch/src/main.rs", False),
    ],
)
def test_a_tool_is_known_by_its_directory_or_its_binary_s_name(path: str, tool: bool) -> None:
    assert tooling_program(path) is tool
