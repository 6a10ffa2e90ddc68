"""A type of the repository's that a `use` renames (tauri's `pub use rust::{Rust as
AppInterface}`) is that type wherever the new name is used: `AppInterface::new(..)` is
`Rust::new`, and a value of it runs `Rust`'s methods (tauri's `build`, `dev` and `bundle`
commands had no path to the errors of `Rust::new`). Not another crate's type renamed to a
name of its own (tikv's `use rocksdb::CompactionJobInfo as RawCompactionJobInfo` is no
`engine_traits::CompactionJobInfo`), nor a name the repository defines a type by."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import labelled_edges
from test_reach import graph_of

FILES = {
    "Cargo.toml": '[package]\nname = "cli"\n',
    "src/lib.rs": "pub mod interface;\npub mod build;\npub mod compact;\npub mod listen;\n",
    "src/interface/mod.rs": "pub mod rust;\npub use rust::{Rust as AppInterface};\n",
    "src/interface/rust.rs": """\
pub struct Rust;
impl Rust {
    pub fn new(config: u8) -> anyhow::Result<Self> {
        Ok(Rust)
    }
    pub fn build(&self) -> u8 {
        1
    }
}
""",
    "src/build.rs": """\
use crate::interface::AppInterface;
pub fn command(config: u8) -> anyhow::Result<u8> {
    let interface = AppInterface::new(config)?;
    Ok(interface.build())
}
pub fn bundle(interface: &AppInterface) -> u8 {
    interface.build()
}
""",
    # another crate's type renamed here, a value of it in another file: the rename says
    # nothing of the repository's same-named type there
    "src/compact.rs": """\
use rocksdb::CompactionJobInfo as RawCompactionJobInfo;
pub struct CompactionJobInfo;
impl CompactionJobInfo {
    pub fn status(&self) -> u8 {
        2
    }
}
""",
    "src/listen.rs": """\
pub fn on_compaction(info: &RawCompactionJobInfo) -> u8 {
    info.status()
}
""",
}


def edges(tmp_path: Path) -> list[tuple[str, int, str, str]]:
    return labelled_edges(graph_of(tmp_path, FILES))


def test_a_renamed_type_of_ours_is_that_type_and_another_crate_s_is_not(tmp_path: Path) -> None:
    assert edges(tmp_path) == [
        ("bundle", 7, "Rust::build", "type"),  # a parameter of the new name
        ("command", 3, "Rust::new", "type"),  # `AppInterface::new(..)`
        ("command", 4, "Rust::build", "type"),  # what it made
    ]
