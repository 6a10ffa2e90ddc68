"""The `if` around each call of a caller path is part of the path (issue 10: "the exact path
of conditions that reaches it"): fd's records left out that `run` lists the details only
under `--list-details`, and strips the path only without `--full-path` (reading 325: 4 of
20 records). Each hop keeps the innermost `if` (or `match` arm) around its call of the next
(`Hop.guard`); the text, the page and the prompt say it. Of an arm on one enum variant, the
fns that build that variant are named too (`Hop.arm_built`): influxdb's restore batches
(reading 327) were read as taken by any batch a path's entry commits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_reach import committed_and_extracted, extracted_reach, reach_section

from pipeline.analyze.reach_text import arm_built_text, guarded_text
from pipeline.core.index import GUARD_JOIN
from pipeline.core.reach import ArmBuilt, Builder, CallerPath, Hop
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
    return record, extracted_reach(tmp_path, record)["paths"]


def test_each_hop_keeps_the_if_or_the_arm_around_its_call_of_the_next(tmp_path: Path) -> None:
    _, paths = _extracted(tmp_path)
    assert [(h["name"], h.get("guard")) for h in paths[0]["hops"]] == [
        ("main", None),
        ("run", "if: opts.list_details"),
        ("print_details", "match_arm: match mode: Mode::Fast =>"),
        ("strip", None),  # the site's own conditions are its record's steps
    ]
    # where the value the arm takes is built: `main` passes `Mode::Fast`
    assert paths[0]["hops"][2]["arm_built"] == {
        "variant": "Mode::Fast",
        "builders": [{"name": "main", "file_path": "src/main.rs", "line": 13}],
        "count": 1,
    }


def test_the_text_and_the_page_say_the_conditions_on_the_way(tmp_path: Path) -> None:
    record, _ = _extracted(tmp_path)
    assert (
        "`main` -> `run` -> `print_details` -> `strip`. On that path `run` calls "
        "`print_details` only when `opts.list_details` holds (src/main.rs:18); `print_details` "
        "calls `strip` only in the arm `Mode::Fast` of `match mode` (src/main.rs:26), and only "
        "`main` (src/main.rs:13) builds a `Mode::Fast` by name."
    ) in record["triggerScenarios"]
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert "(inside <code>if opts.list_details</code>)" in section
    assert (
        "(in the arm <code>match mode: Mode::Fast =&gt;</code>; only "
        '<a href="https://github.com/o/finder/blob/'
    ) in section
    assert '/src/main.rs#L13" rel="nofollow noopener noreferrer">main</a> builds one by name)' in (
        section
    )


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


# influxdb's catalog (reading 327): `apply_batch` takes a restore only in the arm
# `Batch::Restore(..)`, and only `Batch::restore` builds one; `commit`, the path's entry,
# applies whatever batch it is given. The paths from `commit` hold only for a restore batch.
CATALOG = """\
pub enum Batch {
    Write(u32),
    Restore(String),
}

impl Batch {
    pub fn restore(path: String) -> Self {
        Self::Restore(path)
    }
}

pub fn commit(batch: &Batch) {
    apply_batch(batch);
}

pub fn restore_from_store(path: String) {
    let batch = Batch::restore(path);
    commit(&batch);
}

pub fn write(n: u32) {
    commit(&Batch::Write(n));
}

fn apply_batch(batch: &Batch) {
    match batch {
        Batch::Write(_) => {}
        Batch::Restore(path) => apply_restore(path),
    }
}

fn apply_restore(path: &str) {
    if path.is_empty() {
        panic!("invalid checkpoint path");
    }
}
"""


def test_an_arm_on_a_variant_names_the_fns_that_build_it(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "catalog"\n', "src/lib.rs": CATALOG}
    _, record = committed_and_extracted(files, "o/catalog", tmp_path, "invalid checkpoint path")
    paths = extracted_reach(tmp_path, record)["paths"]
    built = {"name": "Batch::restore", "file_path": "src/lib.rs", "line": 8}
    # `Self::Restore` in `impl Batch` is a `Batch::Restore`
    assert [[(h["name"], h.get("arm_built")) for h in p["hops"]] for p in paths] == [
        [
            ("restore_from_store", None),
            ("commit", None),
            ("apply_batch", {"variant": "Batch::Restore", "builders": [built], "count": 1}),
            ("apply_restore", None),
        ]
    ]
    assert (
        "`apply_batch` calls `apply_restore` only in the arm `Batch::Restore(path)` of "
        "`match batch` (src/lib.rs:28), and only `Batch::restore` (src/lib.rs:8) builds a "
        "`Batch::Restore` by name."
    ) in record["triggerScenarios"]


TICKS = """\
pub enum Msg { Tick(u32), Stop }
pub fn a() -> Msg { Msg::Tick(1) }
pub fn b() -> Msg { Msg::Tick(2) }
pub fn c() -> Msg { Msg::Tick(3) }
pub fn run() { handle(Msg::Tick(4)); }
fn handle(msg: Msg) { match msg { Msg::Tick(n) => tick(n), Msg::Stop => {} } }
fn tick(n: u32) { if n == 0 { panic!("zero tick"); } }
"""


def test_builders_on_the_path_come_first_and_a_few_are_named(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "ticks"\n', "src/lib.rs": TICKS}
    _, record = committed_and_extracted(files, "o/ticks", tmp_path, "zero tick")
    assert (
        "`handle` calls `tick` only in the arm `Msg::Tick(n)` of `match msg` (src/lib.rs:6), "
        "and 4 fns build a `Msg::Tick` by name, among them: `run` (src/lib.rs:5), `a` "
        "(src/lib.rs:2), `b` (src/lib.rs:3)."
    ) in record["triggerScenarios"]


def test_the_builders_text_says_how_many_there_are() -> None:
    many = ArmBuilt(
        "Msg::Tick",
        tuple(Builder(f"f{n}", "src/a.rs", n) for n in range(1, 4)),
        count=5,
    )
    assert arm_built_text(many) == (
        ", and 5 fns build a `Msg::Tick` by name, among them: `f1` (src/a.rs:1), `f2` "
        "(src/a.rs:2), `f3` (src/a.rs:3)"
    )
    two = ArmBuilt("Msg::Tick", many.builders[:2], count=2)
    assert arm_built_text(two) == (
        ", and 2 fns build a `Msg::Tick` by name: `f1` (src/a.rs:1), `f2` (src/a.rs:2)"
    )


def test_a_hop_that_calls_the_next_at_other_lines_too_says_no_only() -> None:
    # alacritty's `migrate` calls `migrate_config` under `if !options.dry_run` (line 39) and
    # again under none (line 47): "only when" was false (reading 328)
    hops = (
        Hop("migrate", "src/migrate.rs", 30, "fn migrate()", call_line=39,
            guard="if: !options.dry_run", also_at=(47,)),
        Hop("migrate_config", "src/migrate.rs", 60, "fn migrate_config()"),
    )  # fmt: skip
    assert guarded_text(CallerPath(hops, "cli", "subcommand `migrate`")) == (
        "On that path `migrate` calls `migrate_config` when `!options.dry_run` holds "
        "(src/migrate.rs:39), and again at line 47 (which call a run takes, its values decide)."
    )


# surrealdb matches `syn::Fields::Unnamed(..)` and defines a `Fields::Unnamed` of its own;
# `Either::Left` is another crate's, which any fn may build
FOREIGN = """\
pub enum Fields { Unnamed(u32) }
pub fn own() -> Fields { Fields::Unnamed(1) }
pub fn left() -> Either<u32, u32> { Either::Left(1) }
pub fn run(value: {TYPE}) {
    match value { {ARM}(n) => check(n), _ => {} }
}
fn check<T>(n: T) { panic!("foreign arm"); }
"""


@pytest.mark.parametrize(
    ("type_", "arm"),
    [("syn::Fields", "syn::Fields::Unnamed"), ("Either<u32, u32>", "Either::Left")],
)
def test_an_arm_on_another_crate_s_enum_names_no_builders(
    tmp_path: Path, type_: str, arm: str
) -> None:
    source = FOREIGN.replace("{TYPE}", type_).replace("{ARM}", arm)
    files = {"Cargo.toml": '[package]\nname = "fields"\n', "src/lib.rs": source}
    _, record = committed_and_extracted(files, "o/fields", tmp_path, "foreign arm")
    hops = [h for p in extracted_reach(tmp_path, record)["paths"] for h in p["hops"]]
    assert [(h["guard"], h.get("arm_built")) for h in hops if h.get("guard")] == [
        (f"match_arm: match value: {arm}(n) =>", None)
    ]
