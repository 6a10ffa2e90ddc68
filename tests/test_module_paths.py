"""A path call names its module: `xtask::test::run` is a `run` of module `test` (or one its
`use` brings in, or one below it), never another module's `run` of the crate. Meilisearch's
xtask `main` went to `bench::run` for `test::run`, whose `test/` directory the index leaves
out (reading 311); greptimedb's `datatypes::arrow::compute::cast`, arrow's, went to
`datatypes::types::cast::cast`."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of, node

FILES = {
    "Cargo.toml": '[workspace]\nmembers = ["crates/xtask"]\n',
    "crates/xtask/Cargo.toml": '[package]\nname = "xtask"\n',
    "crates/xtask/src/lib.rs": (
        "pub mod bench;\npub mod test;\npub mod types;\npub mod arrow {\n"
        "    pub use other_arrow::*;\n}\n"
    ),
    "crates/xtask/src/bench/mod.rs": "pub fn run() -> u32 {\n    1\n}\n",
    "crates/xtask/src/test/mod.rs": "pub fn run() -> u32 {\n    2\n}\n",
    "crates/xtask/src/types/mod.rs": "pub mod cast;\n",
    "crates/xtask/src/types/cast.rs": "pub fn cast(x: u32) -> u32 {\n    x\n}\n",
    "crates/xtask/src/main.rs": (
        "fn main() {\n"
        "    xtask::bench::run();\n"
        "    xtask::test::run();\n"
        "    xtask::arrow::compute::cast(1);\n"
        "}\n"
    ),
}


def test_a_path_call_goes_to_its_own_module_s_fn_only(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    lines = sorted(e.line for e in graph.callers[node(graph, "run")])
    assert lines == [2]  # `bench::run`, called on line 2; `test::run` (line 3) is no call of it


def test_a_path_through_another_crate_s_module_is_no_fn_of_this_one(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    assert graph.callers.get(node(graph, "cast"), []) == []
