"""A library's public fn that its own program's `main` calls, where the walk's depth limit
cut the path: the path starts at that `main`, one call further (just's `main` calls
`just::run`; its records read "users meet it through public API `just::run`", recheck 316)."""

from __future__ import annotations

import json
from pathlib import Path

from test_reach import committed_and_extracted

from pipeline.core.reach import PATH_DEPTH

# `run` -> step1 -> .. -> step6 -> `fail`: `PATH_DEPTH` hops, the most a path has
STEPS = PATH_DEPTH - 2
CHAIN = "".join(
    f"fn step{k}(n: u32) -> Result<u32, String> {{ step{k + 1}(n) }}\n" for k in range(1, STEPS)
)
LIB = (
    "pub fn run(n: u32) -> Result<u32, String> { step1(n) }\n"
    + CHAIN
    + f"fn step{STEPS}(n: u32) -> Result<u32, String> {{ fail(n) }}\n"
    + "fn fail(n: u32) -> Result<u32, String> {\n"
    + '    if n > 3 { return Err(format!("too many steps: {n}")); }\n'
    + "    Ok(n)\n}\n"
)
MAIN = "fn main() {\n    tool::run(4).unwrap();\n}\n"


def best_path(tmp_path: Path, files: dict[str, str]) -> tuple[str, str]:
    """The extracted record's best path: its entry's label and its hops, from `reach.json`."""
    all_files = {"Cargo.toml": '[package]\nname = "tool"\n', **files}
    _, record = committed_and_extracted(all_files, "o/tool", tmp_path, "too many steps")
    reach = json.loads((tmp_path / "out" / "o" / "tool" / "reach.json").read_text())
    best = reach["records"][record["id"]]["paths"][0]
    return best["entry_label"], " -> ".join(hop["name"] for hop in best["hops"])


def test_the_program_that_calls_a_cut_public_path_is_its_way_in(tmp_path: Path) -> None:
    label, hops = best_path(tmp_path, {"src/lib.rs": LIB, "src/main.rs": MAIN})
    steps = " -> ".join(f"step{k}" for k in range(1, STEPS + 1))
    assert (label, hops) == ("`tool` (fn main)", f"main -> run -> {steps} -> fail")
    assert hops.count(" -> ") == PATH_DEPTH  # one call past the walk's limit


def test_without_a_program_the_public_api_stays_the_way_in(tmp_path: Path) -> None:
    label, hops = best_path(tmp_path, {"src/lib.rs": LIB})
    assert label == "public API `tool::run`"
    assert hops.startswith("run -> ") and hops.count(" -> ") == PATH_DEPTH - 1
