"""Two types of one name in two modules of one crate (pingora's `v1::body::BodyWriter` and
`subrequest::body::BodyWriter`): a value of the type the file's `use` names runs that
type's methods, not the other's (pingora's v1 client's `write_body` had its hop to the
subrequest writer's, reading 307), also through a module that re-exports it. Without a
`use` that says which, both stay candidates."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

_WRITER = """\
pub struct BodyWriter;
impl BodyWriter {
    pub fn write_body(&mut self, data: &[u8]) -> usize {
        data.len()
    }
}
"""

FILES = {
    "Cargo.toml": '[package]\nname = "core"\n',
    "src/lib.rs": "pub mod v1;\npub mod sub;\npub mod again;\npub mod glob;\n",
    "src/v1/mod.rs": "pub mod body;\npub mod client;\n",
    "src/v1/body.rs": _WRITER,
    "src/v1/client.rs": """\
use super::body::BodyWriter;
pub struct Session {
    writer: BodyWriter,
}
impl Session {
    pub fn write(&mut self, data: &[u8]) -> usize {
        self.writer.write_body(data)
    }
}
""",
    "src/sub/mod.rs": "pub mod body;\npub mod server;\n",
    "src/sub/body.rs": _WRITER,
    "src/sub/server.rs": """\
use crate::sub::body::BodyWriter;
pub fn serve(writer: &mut BodyWriter) -> usize {
    writer.write_body(b"x")
}
""",
    # a `use` through a module that re-exports the type: its file defines no writer
    "src/again/mod.rs": "pub use crate::v1::body::BodyWriter;\npub mod user;\n",
    "src/again/user.rs": """\
use super::BodyWriter;
pub fn again(writer: &mut BodyWriter) -> usize {
    writer.write_body(b"y")
}
""",
    # a glob `use`: no `use` names the type
    "src/glob.rs": """\
use crate::sub::body::*;
pub fn globbed(writer: &mut BodyWriter) -> usize {
    writer.write_body(b"z")
}
""",
}


def _writes(tmp_path: Path) -> list[tuple[str, int, str]]:
    """Each call of `write_body`: (caller, line, the file of the writer it runs), sorted."""
    graph = graph_of(tmp_path, FILES)
    return sorted(
        (graph.nodes[edge.caller].label, edge.line, graph.nodes[callee].path)
        for callee, edges in graph.callers.items()
        if graph.nodes[callee].definition.name == "write_body"
        for edge in edges
    )


def test_a_value_of_the_imported_type_runs_that_module_s_methods(tmp_path: Path) -> None:
    assert _writes(tmp_path) == [
        ("Session::write", 7, "src/v1/body.rs"),  # `use super::body::BodyWriter`
        ("again", 3, "src/v1/body.rs"),  # `use super::BodyWriter`, a re-export of v1's
        ("globbed", 3, "src/sub/body.rs"),  # no `use` names it: both
        ("globbed", 3, "src/v1/body.rs"),
        ("serve", 3, "src/sub/body.rs"),  # `use crate::sub::body::BodyWriter`
    ]


TRAIT_FILES = {
    "Cargo.toml": '[package]\nname = "doc"\n',
    "src/lib.rs": "pub mod value;\npub mod foreign;\npub mod user;\n",
    "src/value.rs": "pub trait Value {\n    fn as_value(&self) -> u8;\n}\n",
    # an impl for another crate's type of the trait's name (tantivy's `impl Value for
    # &serde_json::Value`): a `dyn Value` may be one, whatever file the `use` names
    "src/foreign.rs": """\
use crate::value::Value;
impl Value for serde_json::Value {
    fn as_value(&self) -> u8 {
        1
    }
}
""",
    "src/user.rs": """\
use crate::value::Value;
pub fn read(value: &dyn Value) -> u8 {
    value.as_value()
}
""",
}


def _callee_files(tmp_path: Path, files: dict[str, str], name: str) -> list[str]:
    """The file of each fn named `name` each call of it runs, sorted."""
    graph = graph_of(tmp_path, files)
    return sorted(
        graph.nodes[callee].path
        for callee, edges in graph.callers.items()
        for _ in edges
        if graph.nodes[callee].definition.name == name
    )


def test_a_trait_s_impls_stay_whatever_file_the_use_names(tmp_path: Path) -> None:
    assert _callee_files(tmp_path, TRAIT_FILES, "as_value") == ["src/foreign.rs", "src/value.rs"]


SHARED_FILES = {
    "Cargo.toml": '[workspace]\nmembers = ["one", "one/accounts", "two/accounts"]\n',
    "one/Cargo.toml": '[package]\nname = "one"\n',
    "one/src/main.rs": """\
use accounts::Manager;
fn main() {
    let manager = Manager::new();
    manager.create();
}
""",
    "one/accounts/Cargo.toml": '[package]\nname = "accounts"\n',
    "one/accounts/src/lib.rs": "pub struct Manager;\nimpl Manager {\n    pub fn new() -> Self {\n        Manager\n    }\n    pub fn create(&self) {}\n}\n",
    "two/accounts/Cargo.toml": '[package]\nname = "accounts"\n',
    "two/accounts/src/lib.rs": "pub struct Manager;\nimpl Manager {\n    pub fn new() -> Self {\n        Manager\n    }\n    pub fn create(&self) {}\n}\n",
}


def test_a_use_of_a_crate_name_two_crates_have_says_no_file(tmp_path: Path) -> None:
    """sqlx's examples: two crates `accounts`; `use accounts::Manager` does not say which."""
    assert _callee_files(tmp_path, SHARED_FILES, "create") == [
        "one/accounts/src/lib.rs",
        "two/accounts/src/lib.rs",
    ]
