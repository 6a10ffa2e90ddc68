"""The `if` around each call of a caller path is part of the path (issue 10: "the exact path
of conditions that reaches it"): fd's records left out that `run` lists the details only
under `--list-details`, and strips the path only without `--full-path` (reading 325: 4 of
20 records). Each hop keeps the innermost `if` (or `match` arm) around its call of the next
(`Hop.guard`); the text, the page and the prompt say it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_reach import committed_and_extracted, reach_section

from pipeline.analyze.reach_text import guarded_text
from pipeline.core.index import GUARD_JOIN
from pipeline.core.reach import CallerPath, Hop
from pipeline.languages.rust.index import index_file

MAIN = """\
pub struct Opts {
    pub list_details: bool,
    pub full_path: bool,
}

pub enum Mode {
    Fast,
    Slow,
}

fn main() {
    let opts = Opts { list_details: true, full_path: false };
    run(&opts, Mode::Fast);
}

pub fn run(opts: &Opts, mode: Mode) {
    if opts.list_details {
        print_details(opts, mode);
    } else {
        plain();
    }
}

fn print_details(opts: &Opts, mode: Mode) {
    match mode {
        Mode::Fast => strip(opts),
        _ => plain(),
    }
}

fn strip(opts: &Opts) {
    if !opts.full_path {
        panic!("cannot strip the path");
    }
}

fn plain() {}
"""


def _extracted(tmp_path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    files = {"Cargo.toml": '[package]\nname = "finder"\n', "src/main.rs": MAIN}
    _, record = committed_and_extracted(files, "o/finder", tmp_path, "cannot strip the path")
    reach = json.loads((tmp_path / "out" / "o" / "finder" / "reach.json").read_text())
    return record, reach["records"][record["id"]]["paths"]


def test_each_hop_keeps_the_if_or_the_arm_around_its_call_of_the_next(tmp_path: Path) -> None:
    _, paths = _extracted(tmp_path)
    assert [(h["name"], h.get("guard")) for h in paths[0]["hops"]] == [
        ("main", None),
        ("run", "if: opts.list_details"),
        ("print_details", "match_arm: match mode: Mode::Fast =>"),
        ("strip", None),  # the site's own conditions are its record's steps
    ]


def test_the_text_and_the_page_say_the_conditions_on_the_way(tmp_path: Path) -> None:
    record, _ = _extracted(tmp_path)
    assert (
        "`main` -> `run` -> `print_details` -> `strip`. On that path `run` calls "
        "`print_details` only when `opts.list_details` holds (src/main.rs:18); `print_details` "
        "calls `strip` only in the arm `Mode::Fast` of `match mode` (src/main.rs:26)."
    ) in record["triggerScenarios"]
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert "(inside <code>if opts.list_details</code>)" in section
    assert "(in the arm <code>match mode: Mode::Fast =&gt;</code>)" in section


def test_an_if_on_a_field_never_hides_one_on_a_plain_name_a_walk_needs() -> None:
    source = (
        "fn f(flag: bool, o: &O) {\n"
        "    if o.verbose {\n        if flag {\n            inner();\n        }\n    }\n"
        "    if flag {\n        if o.verbose {\n            outer();\n        }\n    }\n"
        "    if !o.quiet {\n        alone();\n    } else {\n        other();\n    }\n"
        "}\n"
    )
    guards = {c.name: c.guard for c in index_file("src/lib.rs", source.encode()).calls}
    assert guards == {
        "inner": f"if{GUARD_JOIN}flag",
        "outer": f"if{GUARD_JOIN}flag",  # the field's `if` inside it is not kept over it
        "alone": f"if{GUARD_JOIN}!o.quiet",
        "other": f"else{GUARD_JOIN}!o.quiet",
    }


def test_the_arm_a_dispatch_entry_names_is_not_said_again_and_bindings_are_cut() -> None:
    def hop(name: str, guard: str | None = None) -> Hop:
        return Hop(name, "src/lib.rs", 1, f"fn {name}()", call_line=2, guard=guard)

    arm = "match_arm: match stmt: Statement::Create { name, if_not_exists, } =>"
    hops = (hop("handle", arm), hop("create", arm), hop("check"))
    dispatched = CallerPath(hops, "statement", "statement `Statement::Create`")
    assert guarded_text(dispatched) == (
        "On that path `create` calls `check` only in the arm `Statement::Create { .. }` of "
        "`match stmt` (src/lib.rs:2)."
    )
    assert guarded_text(CallerPath(hops, "pub-api", "public API `handle`")) == (
        "On that path `handle` calls `create` only in the arm `Statement::Create { .. }` of "
        "`match stmt` (src/lib.rs:2); `create` calls `check` only in the arm "
        "`Statement::Create { .. }` of `match stmt` (src/lib.rs:2)."
    )
