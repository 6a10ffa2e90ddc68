"""A file no build compiles is no code of the program (issue 10's caller paths, SPEC 4's
"every place where the code produces an error a user can see"): difftastic's
`sample_files/slider_1.rs` is another project's code its tests diff, and 42 of its 83
records were such fixtures, "in `build_script_build::sample_files::slider_2`", told to
"report upstream" (reading 325). A `.rs` file that no `mod` line can declare where Cargo
looks (no root, no `mod.rs`/`lib.rs`/`main.rs` of its directory, no file of its
directory's module, no inline `mod x { .. }` above it) and that no `#[path]` or
`include!` names is skipped as `not-compiled`: no records, no index."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gitrepo import GitRepo
from regen_fixtures import cli

from pipeline.languages.rust.cargo_targets import crate_map
from pipeline.scan.collect import index_files

MANIFEST = '[package]\nname = "difft"\nversion = "0.1.0"\n'
FILES = {
    "Cargo.toml": MANIFEST,
    "build.rs": "fn main() {}\n",
    "src/main.rs": (
        "mod options;\nmod thrift {\n    pub mod agent;\n}\n"
        '#[path = "../vendored/shim.rs"]\nmod shim;\n'
        "fn main() {\n    options::parse();\n    thrift::agent::send();\n    shim::run();\n}\n"
    ),
    "src/options.rs": 'pub fn parse() {\n    panic!("bad option");\n}\n',
    "src/thrift/agent.rs": 'pub fn send() {\n    panic!("agent gone");\n}\n',
    "vendored/shim.rs": 'pub fn run() {\n    panic!("shim failed");\n}\n',
    # the fixtures: diffed by the tests, which name them in strings only
    "sample_files/slider_1.rs": 'fn f() {\n    panic!("type checked upstream");\n}\n',
    "sample_files/dir_2/only_in_2.rs": 'fn g() {\n    panic!("only in two");\n}\n',
    "tests/cli.rs": '#[test]\nfn diff() {\n    run("sample_files/slider_1.rs");\n}\n',
}


def test_the_paths_alone_say_which_files_no_mod_line_can_declare() -> None:
    rust = [p for p in FILES if p.endswith(".rs")]
    unreached = crate_map({"Cargo.toml": MANIFEST.encode()}, rust).unreached(rust)
    # what may still declare each one: a file above, in an inline module of that name
    assert unreached == {
        "src/thrift/agent.rs": (("src/main.rs", "thrift"), ("build.rs", "src")),
        "vendored/shim.rs": (("build.rs", "vendored"),),
        "sample_files/slider_1.rs": (("build.rs", "sample_files"),),
        "sample_files/dir_2/only_in_2.rs": (("build.rs", "sample_files"),),
    }
    # a file no manifest holds is not judged
    assert crate_map({}, rust).unreached(rust) == {}


def _extracted(tmp_path: Path) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(FILES)
    out = tmp_path / "out"
    result = cli("extract", "--repo", "o/difft", "--sha", sha, "--source", str(repo.path),
                 "--out", str(out), "--cache", str(tmp_path / "c"))  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = (out / "o" / "difft" / "records.jsonl").read_text().splitlines()
    paths = {r["errorMessage"]: r["filePath"] for r in map(json.loads, lines)}
    reach = json.loads((out / "o" / "difft" / "reach.json").read_text())
    return json.loads((out / "o" / "difft" / "manifest.json").read_text()), paths, reach


def test_a_fixture_no_build_compiles_has_no_records_and_is_said_skipped(tmp_path: Path) -> None:
    written, paths, _ = _extracted(tmp_path)
    assert paths == {
        "bad option": "src/options.rs",
        "agent gone": "src/thrift/agent.rs",  # `mod thrift { pub mod agent; }` in main.rs
        "shim failed": "vendored/shim.rs",  # `#[path = "../vendored/shim.rs"]`
    }
    assert written["counts"]["skippedByReason"] == {"not-compiled": 2}


def test_the_index_reads_no_fixture(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(FILES)
    entries, _ = index_files(repo.git_dir, sha)
    assert sorted(e.path for e in entries) == [
        "build.rs", "src/main.rs", "src/options.rs", "src/thrift/agent.rs", "tests/cli.rs",
        "vendored/shim.rs",
    ]  # fmt: skip
