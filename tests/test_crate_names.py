"""Crates and modules by the names Cargo gives them (`Cargo.toml`), not by directory: what a
reader of an explanation knows from the code (`use grep_index::index`, running `rg`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo
from regen_fixtures import cli

from pipeline.languages.rust.cargo_targets import Target, crate_map, package_targets

# ripgrep's shape: the root package's binary lives in `crates/core/`, its libraries in
# `crates/*/src/` under package names that are not their directories'.
RIPGREP = {
    "Cargo.toml": (
        '[package]\nname = "ripgrep"\n\n[[bin]]\nbench = false\npath = "crates/core/main.rs"\n'
        'name = "rg"\n\n[[test]]\nname = "integration"\npath = "tests/tests.rs"\n\n'
        '[dependencies]\ngrep-index = { path = "crates/index" }\n\n'
        '[workspace]\nmembers = ["crates/index"]\n'
    ),
    "crates/core/main.rs": (
        "mod flags;\n"
        "fn main() {\n"
        "    if let Err(err) = run().and_then(|()| flags::main()) {\n"
        '        eprintln!("{err}");\n'
        "    }\n"
        "}\n"
        "fn run() -> anyhow::Result<()> {\n"
        '    flags::defs::parse("x")?;\n'
        '    grep_index::index::open(std::path::Path::new("db"))\n'
        "}\n"
    ),
    "crates/core/flags/mod.rs": (
        "pub mod defs;\n"
        "// a fn named `main` in a module: called by the program's, not where it starts\n"
        "pub fn main() -> anyhow::Result<()> {\n"
        '    defs::parse("y")\n'
        "}\n"
    ),
    "crates/core/flags/defs.rs": (
        "pub fn parse(v: &str) -> anyhow::Result<()> {\n"
        "    if v.is_empty() {\n"
        '        anyhow::bail!("no value given for the flag");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    ),
    "crates/index/Cargo.toml": '[package]\nname = "grep-index"\nversion = "0.0.1"\n',
    "crates/index/src/lib.rs": "pub mod index;\n",
    "crates/index/src/index.rs": (
        "pub fn open(path: &std::path::Path) -> anyhow::Result<()> {\n"
        "    if !path.exists() {\n"
        '        anyhow::bail!("no index at {}", path.display());\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
        "pub fn remove(path: &std::path::Path) -> anyhow::Result<()> {\n"
        '    anyhow::bail!("cannot remove the index at {}", path.display())\n'
        "}\n"
    ),
    "tests/tests.rs": "mod util;\n",
    "tests/util.rs": "pub fn f() {}\n",
}
RS = [p for p in RIPGREP if p.endswith(".rs")]


def _map() -> object:
    manifests = {p: t.encode() for p, t in RIPGREP.items() if p.endswith("Cargo.toml")}
    return crate_map(manifests, RS)


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("crates/core/flags/defs.rs", "rg::flags::defs"),  # the [[bin]]'s path, its name
        ("crates/core/flags/mod.rs", "rg::flags"),  # `mod.rs` is its directory's module
        ("crates/core/main.rs", "rg"),
        ("crates/index/src/index.rs", "grep_index::index"),  # a package name with a dash
        ("crates/index/src/lib.rs", "grep_index"),
        ("tests/util.rs", "util"),  # Cargo makes every `tests/*.rs` a test target
    ],
)
def test_a_file_s_module_is_named_by_its_crate_and_its_path_below_the_target_root(
    path: str, module: str
) -> None:
    assert _map().module_path(path) == module  # type: ignore[attr-defined]


def test_conventional_targets_and_what_no_manifest_or_a_bad_one_says() -> None:
    files = ["a/src/lib.rs", "a/src/main.rs", "a/src/bin/tool.rs", "a/src/bin/x/main.rs",
             "a/src/bin/x/helper.rs", "a/examples/demo.rs", "a/build.rs", "a/src/util.rs",
             "b/src/lib.rs", "a/tests/common/mod.rs", "a/tests/t1.rs", "a/tests/t2.rs"]  # fmt: skip
    manifest = b'[package]\nname = "my-app"\n'
    assert package_targets("a/Cargo.toml", manifest, files) == [
        Target("lib", "my-app", "a/src/lib.rs"),
        Target("bin", "my-app", "a/src/main.rs"),
        Target("bin", "tool", "a/src/bin/tool.rs"),
        Target("bin", "x", "a/src/bin/x/main.rs"),
        Target("example", "demo", "a/examples/demo.rs"),
        Target("test", "t1", "a/tests/t1.rs"),
        Target("test", "t2", "a/tests/t2.rs"),
        Target("build", "build-script-build", "a/build.rs"),
    ]
    names = crate_map({"a/Cargo.toml": manifest, "b/Cargo.toml": b"[package\nname="}, files)
    assert names.module_path("a/src/util.rs") == "my_app::util"  # the library, not the binary
    assert names.module_path("a/src/bin/x/helper.rs") == "x::helper"
    assert names.binary_of("a/src/bin/tool.rs") == "tool"
    assert names.binary_of("a/examples/demo.rs") == "demo"
    assert names.binary_of("a/src/util.rs") is None
    assert names.module_path("a/tests/common/mod.rs") is None  # which test's? not guessed
    assert names.target_kind("a/tests/common/mod.rs") == "test"  # a test's, whichever
    assert names.package_of("a/tests/common/mod.rs") == "my-app+dev"
    assert names.module_path("b/src/lib.rs") is None  # a manifest that does not parse
    workspace_only = crate_map({"Cargo.toml": b"[workspace]\nmembers = []\n"}, ["src/lib.rs"])
    assert workspace_only.module_path("src/lib.rs") is None


def test_explanations_and_entry_points_use_the_names_cargo_gives(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(RIPGREP)
    out = tmp_path / "out"
    done = cli("extract", "--repo", "o/rg", "--sha", sha, "--source", repo.path, "--out", out,
               "--cache", tmp_path / "cache", "--jobs", "1")  # fmt: skip
    assert done.exit_code == 0, done.output
    root = out / "o" / "rg"
    records = {
        json.loads(line)["errorMessage"]: json.loads(line)
        for line in (root / "records.jsonl").read_text().splitlines()
    }
    situations = records["no index at {}"]["commonSituations"]
    assert situations.startswith('While the code in `grep_index::index` is doing "open"')
    assert "users meet it through `rg` (fn main)" in situations
    defs = records["no value given for the flag"]["commonSituations"]
    assert defs.startswith('While the code in `rg::flags::defs` is doing "parse"')
    assert "(fn main)" in defs and defs.count("(fn main)") == 1  # not `rg::flags::main`
    assert records["no index at {}"]["tags"][:2] == ["grep-index", "index"]  # not "crates"
    rows = json.loads((root / "reach.json").read_text())["records"].values()
    labels = {p.get("entry_label") for row in rows for p in row.get("paths", ())}
    assert labels == {"`rg` (fn main)", "public API `grep_index::index::remove`"}


@pytest.mark.parametrize(
    "manifest",
    [
        b'[package]\nname = "x"\na = '
        + b"[" * 50_000
        + b"]" * 50_000
        + b"\n",  # nests past the stack
        b'[package]\nname = "x\\n<script>alert(1)</script>"\n',  # no name Cargo accepts
        b"[package]\nname = 7\n",
        b"\xff\xfe not utf-8",
        b"[package\n",
    ],
)
def test_a_hostile_manifest_names_nothing_and_breaks_nothing(manifest: bytes) -> None:
    names = crate_map({"Cargo.toml": manifest}, ["src/lib.rs", "src/main.rs"])
    assert names.module_path("src/lib.rs") is None and names.targets == ()


def test_a_name_cargo_would_not_accept_is_never_shown() -> None:
    """A declared target named oddly is named by its file, as Cargo names the ones it finds;
    a file whose name is no target name (`y z.rs`) is none."""
    manifest = b'[package]\nname = "ok"\n[[bin]]\nname = "a b\\u0000"\npath = "src/bin/x.rs"\n'
    targets = package_targets("Cargo.toml", manifest, ["src/bin/x.rs", "src/bin/y z.rs"])
    assert targets == [Target("bin", "x", "src/bin/x.rs")]


LIBRARY = {
    "Cargo.toml": '[package]\nname = "netlib"\n\n[[example]]\nname = "fetch"\npath = "examples/fetch.rs"\n',
    "src/lib.rs": "pub mod client;\n",
    "src/client.rs": (
        "pub struct Client;\n"
        "impl Client {\n"
        "    pub fn post_body(&self, body: &str) -> anyhow::Result<()> {\n"
        "        if body.is_empty() {\n"
        '            anyhow::bail!("nothing to send");\n'
        "        }\n"
        "        Ok(())\n"
        "    }\n"
        "}\n"
    ),
    "examples/fetch.rs": (
        'fn main() {\n    let client = netlib::client::Client;\n    client.post_body("x").unwrap();\n}\n'
    ),
}


def _extracted(tmp_path: Path, files: dict[str, str], name: str) -> Path:
    """`files` committed to a new repository and extracted as `o/<name>`: its dataset."""
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(files)
    out = tmp_path / "out"
    done = cli("extract", "--repo", f"o/{name}", "--sha", sha, "--source", repo.path, "--out",
               out, "--cache", tmp_path / "cache", "--jobs", "1")  # fmt: skip
    assert done.exit_code == 0, done.output
    return out / "o" / name


def test_a_library_s_api_comes_before_the_example_that_calls_it(tmp_path: Path) -> None:
    """hyper's `SendRequest::send_request` is called by its examples alone: users meet it
    through the public API; an example is a demonstration, named as one, ranked after."""
    out = _extracted(tmp_path, LIBRARY, "netlib")
    rows = json.loads((out / "reach.json").read_text())["records"]
    (row,) = rows.values()
    assert [(p["entry"], p["entry_label"]) for p in row["paths"]] == [
        ("pub-api", "public API `netlib::client::Client::post_body`"),
        ("example", "example `fetch` (fn main)"),
    ]


# firecracker's shape: two examples of one directory share a module file (`mod utils;` in
# each root); the package has a library and a build script whose directory holds them all.
SHARED_EXAMPLE_MODULE = {
    "Cargo.toml": (
        '[package]\nname = "vmm"\nbuild = "build.rs"\n\n'
        '[[example]]\nname = "one"\npath = "examples/uffd/one.rs"\n\n'
        '[[example]]\nname = "two"\npath = "examples/uffd/two.rs"\n'
    ),
    "build.rs": "fn main() {}\n",
    "src/lib.rs": "pub fn boot() {}\n",
    "examples/uffd/utils.rs": (
        "pub fn connect(path: &str) -> anyhow::Result<()> {\n"
        "    if path.is_empty() {\n"
        '        anyhow::bail!("no socket path");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    ),
    "examples/uffd/one.rs": 'mod utils;\nfn main() {\n    utils::connect("a").unwrap();\n}\n',
    "examples/uffd/two.rs": 'mod utils;\nfn main() {\n    utils::connect("b").unwrap();\n}\n',
}


def test_a_module_examples_share_is_example_code_not_a_public_api(tmp_path: Path) -> None:
    out = _extracted(tmp_path, SHARED_EXAMPLE_MODULE, "vmm")
    rows = json.loads((out / "reach.json").read_text())["records"]
    (row,) = rows.values()
    assert [(p["entry"], p["entry_label"]) for p in row["paths"]] == [
        ("example", "example `one` (fn main) or `two` (fn main)")
    ]


# risingwave's shape: a workspace package of benchmark programs (`risingwave_bench`, its
# `[[bin]] sink-bench`) that drives the library, beside the product's own program.
BENCHMARKED = {
    "Cargo.toml": '[workspace]\nmembers = ["sinks", "bench", "server"]\n',
    "sinks/Cargo.toml": '[package]\nname = "sinks"\n',
    "sinks/src/lib.rs": (
        "pub fn write_batch(rows: usize) -> anyhow::Result<()> {\n"
        "    if rows == 0 {\n"
        '        anyhow::bail!("empty batch");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    ),
    "bench/Cargo.toml": (
        '[package]\nname = "risingwave_bench"\n\n[[bin]]\nname = "sink-bench"\n'
        'path = "sink_bench/main.rs"\n\n[dependencies]\nsinks = { path = "../sinks" }\n'
    ),
    "bench/sink_bench/main.rs": "fn main() {\n    sinks::write_batch(0).unwrap();\n}\n",
    "server/Cargo.toml": '[package]\nname = "server"\n\n[dependencies]\nsinks = { path = "../sinks" }\n',
    # (a batch size it reads, not a literal: a `1` would rule the `rows == 0` site out)
    "server/src/main.rs": (
        "fn main() {\n    serve();\n}\nfn serve() {\n"
        "    sinks::write_batch(std::env::args().count()).unwrap();\n}\n"
    ),
}


def test_a_benchmark_program_is_ranked_after_the_product_s_program(tmp_path: Path) -> None:
    """A program that a package of benchmarks builds is how its developers measure the
    library, not how users meet its errors: named as a benchmark, ranked with examples,
    after the product's program even where that path is longer."""
    out = _extracted(tmp_path, BENCHMARKED, "rw")
    rows = json.loads((out / "reach.json").read_text())["records"]
    (row,) = rows.values()
    assert [(p["entry"], p["entry_label"], [h["name"] for h in p["hops"]])
            for p in row["paths"]] == [
        ("main", "`server` (fn main)", ["main", "serve", "write_batch"]),
        ("bench", "benchmark `sink-bench` (fn main)", ["main", "write_batch"]),
    ]  # fmt: skip


# sqlx's and axum's shape: each example a workspace package of its own under `examples/`
# (`sqlx-example-postgres-listen`, `example-jwt`), not a `[[example]]` target
EXAMPLE_PACKAGES = {
    "Cargo.toml": '[workspace]\nmembers = ["sinks", "examples/listen", "tools/demo", "server"]\n',
    **{k: v for k, v in BENCHMARKED.items() if k.startswith(("sinks/", "server/"))},
    "examples/listen/Cargo.toml": (
        '[package]\nname = "sinks-listen"\n\n[dependencies]\nsinks = { path = "../../sinks" }\n'
    ),
    "examples/listen/src/main.rs": "fn main() {\n    sinks::write_batch(0).unwrap();\n}\n",
    "tools/demo/Cargo.toml": (
        '[package]\nname = "example-demo"\n\n[dependencies]\nsinks = { path = "../../sinks" }\n'
    ),
    "tools/demo/src/main.rs": (
        "fn main() {\n    sinks::write_batch(std::env::args().count()).unwrap();\n}\n"
    ),
}


def test_an_example_package_is_ranked_after_the_product_s_program(tmp_path: Path) -> None:
    """59 example programs of axum had been "where users meet" its routing errors (reading
    108): a package under `examples/`, or one whose name says example, is one."""
    out = _extracted(tmp_path, EXAMPLE_PACKAGES, "ex")
    rows = json.loads((out / "reach.json").read_text())["records"]
    (row,) = rows.values()
    assert [(p["entry"], p["entry_label"]) for p in row["paths"]] == [
        ("main", "`server` (fn main)"),
        ("example", "example `sinks-listen` (fn main) or `example-demo` (fn main)"),
    ]


def test_manifests_are_listed_in_the_tree_s_one_pass_whatever_include_says(
    tmp_path: Path,
) -> None:
    """`--include` chooses the sites, not the names: the manifests come with the `.rs`
    listing (no second `ls-tree`), outside the include too."""
    from pipeline.source.repository import list_files

    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(RIPGREP)
    listing = list_files(
        repo.path / ".git", sha, include=("crates/index/**",), manifests=("Cargo.toml",)
    )
    assert {e.path for e in listing.entries} == {
        "crates/index/src/lib.rs",
        "crates/index/src/index.rs",
    }
    assert sorted(e.path for e in listing.manifests) == ["Cargo.toml", "crates/index/Cargo.toml"]
    out = tmp_path / "out"
    done = cli("extract", "--repo", "o/rg", "--sha", sha, "--source", repo.path, "--out", out,
               "--cache", tmp_path / "cache", "--jobs", "1", "--include", "crates/index/**")  # fmt: skip
    assert done.exit_code == 0, done.output
    lines = (out / "o" / "rg" / "records.jsonl").read_text().splitlines()
    assert all("`grep_index::index`" in json.loads(line)["commonSituations"] for line in lines)
    assert lines


BUILD_SCRIPT = {
    "Cargo.toml": (
        '[package]\nname = "tool"\n\n[dependencies]\ncodegen = { path = "codegen" }\n\n'
        '[build-dependencies]\ncodegen = { path = "codegen" }\n\n'
        '[workspace]\nmembers = ["codegen", "plain"]\n'
    ),
    "build.rs": 'fn main() {\n    codegen::emit("schema.json");\n}\n',
    "src/main.rs": 'fn main() {\n    codegen::emit("input.json");\n}\n',
    "codegen/Cargo.toml": '[package]\nname = "codegen"\n',
    "codegen/src/lib.rs": (
        "pub fn emit(schema: &str) {\n"
        "    if !std::path::Path::new(schema).exists() {\n"
        '        panic!("the schema {schema} is missing");\n'
        "    }\n"
        "}\n"
    ),
    # `build = false`: a file called build.rs that Cargo never runs
    "plain/Cargo.toml": '[package]\nname = "plain"\nbuild = false\n',
    "plain/build.rs": 'fn main() {\n    panic!("never run by cargo");\n}\n',
    "plain/src/lib.rs": "",
}


def test_a_build_script_is_an_entry_point_cargo_runs_while_building(tmp_path: Path) -> None:
    """A package's `build.rs` runs when Cargo builds it: its panics (and its
    build-dependencies') stop `cargo build`. One `build = false` turns off is no program,
    nor any code of the repository's.
    The program's `main` calls the same fn on the same line: one chain of names, one path
    naming both ways in (as cargo's `build`, `check` and `rustc` share their `exec` ->
    `compile`), whose argument is the program's, the path's own top hop's."""
    out = _extracted(tmp_path, BUILD_SCRIPT, "tool")
    rows = json.loads((out / "reach.json").read_text())["records"]
    records = {
        json.loads(line)["filePath"]: json.loads(line)
        for line in (out / "records.jsonl").read_text().splitlines()
    }
    emitted = rows[records["codegen/src/lib.rs"]["id"]]
    assert [(p["entry"], p["entry_label"], [h["name"] for h in p["hops"]])
            for p in emitted["paths"]] == [
        ("main", "`tool` (fn main) or the build script of `tool` (fn main)", ["main", "emit"]),
    ]  # fmt: skip
    assert emitted["paths"][0]["hops"][0]["file_path"] == "src/main.rs"
    emits = records["codegen/src/lib.rs"]
    # each `main` passes its own argument: the handoff is the first path's (same line, two files)
    assert (
        "reached from `tool` (fn main) or the build script of `tool` (fn main): `main` -> `emit`"
        in emits["triggerScenarios"]
    )
    assert '`main` passes `"input.json"` (src/main.rs:2)' in emits["triggerScenarios"]
    assert (
        "users meet it through `tool` (fn main) or the build script of `tool` (fn main)"
        in (emits["commonSituations"])
    )
    # `build = false`: no build compiles `plain/build.rs` (`collect.compiled_only`), which
    # gave a record of its own before, with no caller
    assert "plain/build.rs" not in records
    written = json.loads((out / "manifest.json").read_text())
    assert written["counts"]["skippedByReason"] == {"not-compiled": 1}
