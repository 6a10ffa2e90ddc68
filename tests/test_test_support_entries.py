"""A library's `pub` fn meant for tests is no way a user takes: lemmy's `init_test_context`
("Initialize a context for use in tests") and vector's `VectorSink::run_events` (".., for
use in tests") were the entry points of errors users meet elsewhere (readings 161-162); so
were greptimedb's `meta_srv::mocks::mock_with_memstore` and tikv's `TestStorageBuilder`,
whose names say so (reading 230)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_reach import committed_and_extracted, extracted_reach, graph_of, node, paths_of

from pipeline.core.reach import no_entry_note
from pipeline.scan.callerpaths import caller_paths

# the site (`client`'s `expect`) and its fn's callee, below the fns that call it
SUPPORTED = (
    "fn client() -> u32 {\n"
    '    build().expect("could not build the client")\n'
    "}\n"
    "fn build() -> Option<u32> {\n"
    "    Some(1)\n"
    "}\n"
)
LIB = (
    "pub fn serve() -> u32 {\n"
    "    client()\n"
    "}\n"
    "{marked}\n"
    "pub fn {name}() -> u32 {\n"
    "    client()\n"
    "}\n" + SUPPORTED
)


@pytest.mark.parametrize(
    ("marked", "name"),
    [
        ("/// Initialize a context for use in tests", "init_context"),
        ("/// Do not use this in production code.", "init_context"),
        ("/// This function only used for test now.", "init_context"),  # risingwave's
        ("/// Meant to be called by tests only.", "init_context"),
        ("/// A context.", "context_for_tests"),
        ('#[cfg(any(test, feature = "test-utils"))]', "init_context"),
    ],
)
def test_a_pub_fn_for_tests_is_no_entry_point_of_the_library(
    tmp_path: Path, marked: str, name: str
) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": LIB.replace("{marked}", marked).replace("{name}", name),
    }

    found = paths_of(graph_of(tmp_path, files), "client")

    assert [(entry, label) for entry, label, _ in found] == [("pub-api", "public API `serve`")]


@pytest.mark.parametrize(
    "doc",
    [
        "/// Runs the health tests of a server.",
        "/// Create a source file without a real path, usually for testing.",  # typst's
        "/// Convenience function for testing and CLI tools.",  # quickwit's
    ],
)
def test_a_pub_fn_whose_doc_names_tests_otherwise_stays_one(tmp_path: Path, doc: str) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": LIB.replace("{marked}", doc).replace("{name}", "health"),
    }

    found = paths_of(graph_of(tmp_path, files), "client")

    assert sorted(label or "" for _, label, _ in found) == [
        "public API `health`",
        "public API `serve`",
    ]


def test_a_fn_for_tests_is_no_top_of_a_path_either(tmp_path: Path) -> None:
    # risingwave's `handle`: called by `SessionImpl::run_statement` ("only used for test
    # now") and by the pgwire chain, whose entry lies past the depth limit; the path read
    # "called through `SessionImpl::run_statement` -> `handle`" (reading 202)
    chain = "".join(f"fn step{n}() -> u32 {{\n    step{n + 1}()\n}}\n" for n in range(1, 10))
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": (
            "/// This function only used for test now.\n"
            "pub fn run_statement() -> u32 {\n    handle()\n}\n"
            f"{chain}fn step10() -> u32 {{\n    handle()\n}}\n"
            'fn handle() -> u32 {\n    build().expect("could not handle it")\n}\n'
            "fn build() -> Option<u32> {\n    Some(1)\n}\n"
        ),
    }

    found = paths_of(graph_of(tmp_path, files), "handle")

    assert [(entry, hops[0][0]) for entry, _, hops in found] == [(None, "step4")]


@pytest.mark.parametrize(
    "name",
    [
        "for_test",  # risingwave's `StateStoreImpl::for_test`
        "mock_with_storage",  # sccache's
        "dummy_conf",  # neon's
        "io_engine_for_bench",  # neon's
        "init_test_context",  # lemmy's, whose doc no longer says "for use in tests"
    ],
)
def test_a_pub_fn_whose_name_says_test_or_bench_support_is_no_entry_point(
    tmp_path: Path, name: str
) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": LIB.replace("{marked}", "").replace("{name}", name),
    }

    found = paths_of(graph_of(tmp_path, files), "client")

    assert [(entry, label) for entry, label, _ in found] == [("pub-api", "public API `serve`")]


@pytest.mark.parametrize(
    ("files", "top"),
    [
        # greptimedb's `meta_srv::mocks::mock_with_memstore`, by its module
        (
            {
                "src/lib.rs": f"pub mod mocks;\npub(crate) {SUPPORTED}",
                "src/mocks.rs": "pub fn with_memstore() -> u32 {\n    crate::client()\n}\n",
            },
            "with_memstore",
        ),
        # tikv's `TestStorageBuilder::build`, by its type
        (
            {
                "src/lib.rs": (
                    "pub struct TestStorageBuilder;\nimpl TestStorageBuilder {\n"
                    "    pub fn build(&self) -> u32 {\n        client()\n    }\n}\n" + SUPPORTED
                ),
            },
            "TestStorageBuilder::build",
        ),
        # ruff's `ruff_benchmark`, by its crate
        (
            {
                "crates/tool_benchmark/Cargo.toml": '[package]\nname = "tool_benchmark"\n',
                "crates/tool_benchmark/src/lib.rs": "pub fn setup() -> u32 {\n    client()\n}\n"
                + SUPPORTED,
            },
            "setup",
        ),
    ],
)
def test_test_support_by_its_module_type_or_crate_is_no_entry_and_the_path_says_so(
    tmp_path: Path, files: dict[str, str], top: str
) -> None:
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "tool"\n', **files})

    (path,) = caller_paths(graph, node(graph, "client"))

    assert (path.entry, path.hops[0].name, path.hops[0].support) == (None, top, True)
    assert no_entry_note(path).startswith(
        f"no caller of `{top}` found in the code the index reads: by its name or its "
        "module's it is test or benchmark support"
    )


def test_a_module_whose_name_only_ends_in_test_is_product_code(tmp_path: Path) -> None:
    # cargo's `ops::cargo_test` runs `cargo test`: its `pub` fns are the library's API
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": f"pub mod cargo_test;\npub(crate) {SUPPORTED}",
        "src/cargo_test.rs": "pub fn run_tests() -> u32 {\n    crate::client()\n}\n",
    }

    found = paths_of(graph_of(tmp_path, files), "client")

    assert [(entry, label) for entry, label, _ in found] == [
        ("pub-api", "public API `cargo_test::run_tests`")
    ]


def test_a_site_in_test_support_nobody_calls_says_so_as_its_path(tmp_path: Path) -> None:
    # influxdb's `iox_query::test` mock: `TestChunk::with_four_rows_of_data`'s `expect` read
    # as a user's bug to report upstream, with nothing said of who calls it (reading 327)
    files = {
        "Cargo.toml": '[package]\nname = "query"\n',
        "src/lib.rs": "pub mod test;\n",
        "src/test.rs": (
            "pub struct TestChunk;\nimpl TestChunk {\n    pub fn with_rows(&self) -> u32 {\n"
            '        "4".parse::<u32>().ok().expect("made record batch")\n    }\n}\n'
        ),
    }
    _, record = committed_and_extracted(files, "o/query", tmp_path, "made record batch")

    (path,) = extracted_reach(tmp_path, record)["paths"]
    assert [(h["name"], h.get("support")) for h in path["hops"]] == [("TestChunk::with_rows", True)]
    assert (
        "no code the index reads calls `TestChunk::with_rows`: by its name or its module's it "
        "is test or benchmark support, which tests and benchmarks (left out of the index) "
        "call, not a user's way in."
    ) in record["triggerScenarios"]
