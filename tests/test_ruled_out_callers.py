"""A caller whose literal argument rules the site out is no way in. vaultwarden's `/groups`
route calls `to_json_details(.., false)`, and its record listed that route for an error
under `if details` (reading 123); tokio's `try_acquire(1)`, hyper's constant arguments:
every reading since stop 56 found such paths. Only what the code shows for certain: a flag
tested alone (`if details`, `if !details`, an `else`), an option tested (`opt.is_some()`,
`if let Some(v) = opt`), and a caller passing the literal `true`, `false` or `None` for
that parameter; and only while another caller is left (no claim that nothing reaches it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from test_reach import graph_of

from pipeline.core.reach import Reach, no_entry_note
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import reaches_of, spec_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan
from pipeline.scan.valueflow import required_values

GROUPS = """\
pub fn list_groups() -> anyhow::Result<()> {
    to_json(1, false)
}

pub fn group_details() -> anyhow::Result<()> {
    to_json(2, true)
}

pub fn named(name: Option<&str>) -> anyhow::Result<()> {
    rename(None)?;
    rename(name)
}

pub fn only_flat() -> anyhow::Result<()> {
    flat(false)
}

pub fn walk_tree() -> anyhow::Result<()> {
    convert(false)
}

fn to_json(id: u32, details: bool) -> anyhow::Result<()> {
    if details {
        anyhow::bail!("cannot load the details of group {}", id);
    }
    Ok(())
}

fn rename(name: Option<&str>) -> anyhow::Result<()> {
    if let Some(name) = name {
        anyhow::bail!("cannot rename to {}", name);
    }
    Ok(())
}

fn convert(nested: bool) -> anyhow::Result<()> {
    if nested {
        anyhow::bail!("cannot convert a nested plan");
    }
    convert(true)
}

fn flat(nested: bool) -> anyhow::Result<()> {
    if nested {
        anyhow::bail!("nested groups are off");
    }
    Ok(())
}
"""


def reaches_by_message(tmp_path: Path, source: str) -> dict[str, Reach]:
    """The reach of each site of a one-file crate of `source`, by the site's message."""
    files = {"Cargo.toml": '[package]\nname = "vault"\n', "src/lib.rs": source}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", source.encode())
    contexts = build_contexts("acme/vault", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    reaches = reaches_of([spec_of(c) for c in contexts], graph)
    return {c.site.message: reaches[c.record_id] for c in contexts}


def paths_by_message(tmp_path: Path, source: str) -> dict[str, list[list[str]]]:
    """The names of each path's hops, by the site's message (its text before a `{`), of a
    one-file crate of `source`."""
    return {
        message.split(" {")[0]: [[h.name for h in p.hops] for p in reach.paths]
        for message, reach in reaches_by_message(tmp_path, source).items()
    }


def test_a_caller_passing_a_literal_that_rules_the_site_out_is_no_way_in(tmp_path: Path) -> None:
    paths = paths_by_message(tmp_path, GROUPS)

    assert paths["cannot load the details of group"] == [["group_details", "to_json"]]
    assert paths["cannot rename to"] == [["named", "rename"]]  # one call passes `None`
    # every caller rules it out: said as before, no claim that nothing reaches it
    assert paths["nested groups are off"] == [["only_flat", "flat"]]
    # the fn's own call passing `true` is the way in (risingwave's `convert_plan_node`
    # passing `Some(..)` to itself): `walk_tree` -> `convert(false)` -> `convert(true)`
    assert paths["cannot convert a nested plan"] == [["walk_tree", "convert", "convert"]]


def test_what_the_conditions_need_by_their_kind() -> None:
    assert required_values(("if",), ("details",)) == {"details": "true"}
    assert required_values(("else",), ("details",)) == {"details": "false"}
    assert required_values(("if",), ("!details",)) == {"details": "false"}
    assert required_values(("exit",), ("opt.is_none()",)) == {"opt": "Some"}
    assert required_values(("if_let",), ("let Some(v) = opt",)) == {"opt": "Some"}
    # a premise whose kind does not say whether it held, or a test of more than a name
    assert required_values(("ensure", "if"), ("details", "x > 1")) == {}


PLANS = """\
pub fn plan(stages: Option<u32>) -> anyhow::Result<()> {
    convert(None)?;
    convert(Some(1))?;
    convert(stages)
}

pub fn walk() -> anyhow::Result<()> {
    check(1)?;
    check(2)
}

fn convert(stages: Option<u32>) -> anyhow::Result<()> {
    if let Some(n) = stages {
        anyhow::bail!("cannot convert stage {}", n);
    }
    Ok(())
}

fn check(n: u32) -> anyhow::Result<()> {
    anyhow::bail!("check failed for {}", n)
}
"""


def test_a_hop_that_calls_the_next_several_times_names_the_other_calls(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "vault"\n', "src/lib.rs": PLANS}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", PLANS.encode())
    contexts = build_contexts("acme/vault", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    reaches = reaches_of([spec_of(c) for c in contexts], graph)
    top = {c.site.message.split(" {")[0]: reaches[c.record_id].paths[0].hops[0] for c in contexts}
    # `walk` calls `check` at lines 8 and 9: the path names the first, and the other
    assert (top["check failed for"].call_line, top["check failed for"].also_at) == (8, (9,))
    # `convert(None)` at line 2 rules the site out: only the calls at 3 and 4 lead there
    assert (top["cannot convert stage"].call_line, top["cannot convert stage"].also_at) == (3, (4,))


SERVER = """\
pub struct Server;

impl Server {
    pub fn run(self) -> anyhow::Result<()> {
        Server::start(self, None)
    }

    pub fn serve(self, fds: Option<u32>) -> anyhow::Result<()> {
        Server::start(
            self,
            #[cfg(unix)]
            fds,
        )
    }

    fn start(self, #[cfg(unix)] fds: Option<u32>) -> anyhow::Result<()> {
        if let Some(n) = fds {
            anyhow::bail!("cannot reuse listener {}", n);
        }
        Ok(())
    }
}
"""


def test_a_method_called_by_its_path_passes_its_receiver_first(tmp_path: Path) -> None:
    # pingora's `S::start_service(self, #[cfg(unix)] fds, ..)` read "`S::start_service`
    # passes `self`" for `fds` (reading 201): the receiver is no parameter's argument, nor
    # is an argument's attribute
    files = {"Cargo.toml": '[package]\nname = "vault"\n', "src/lib.rs": SERVER}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", SERVER.encode())
    [context] = build_contexts("acme/vault", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    reach = reaches_of([spec_of(context)], graph)[context.record_id]
    # `run` passes `None` where the site needs `Some`: no way in
    assert [[h.name for h in p.hops] for p in reach.paths] == [["Server::serve", "Server::start"]]
    [fds] = [d for d in reach.dependencies if d.name == "fds"]
    assert [(h.caller, h.argument, h.line) for h in fds.passed] == [("Server::serve", "fds", 9)]


def test_a_hop_names_no_other_call_that_a_name_alone_matched(tmp_path: Path) -> None:
    # pingora's `Self::Subrequest(s) => s.write_proxy_tasks()` is the subrequest session's
    # method, which the name matched to the v1 session's too: it was listed as another call
    # of the v1 one (recheck 201). The graph of PLANS, with `walk`'s second call of `check`
    # made such a match.
    files = {"Cargo.toml": '[package]\nname = "vault"\n', "src/lib.rs": PLANS}
    graph = graph_of(tmp_path, files)
    [check] = [n for n, node in enumerate(graph.nodes) if node.label == "check"]
    graph.callers[check] = [
        replace(e, resolution="name") if e.line == 9 else e for e in graph.callers[check]
    ]
    scan = find_sites("src/lib.rs", PLANS.encode())
    contexts = build_contexts("acme/vault", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    reaches = reaches_of([spec_of(c) for c in contexts], graph)
    [walk] = [
        reaches[c.record_id].paths[0].hops[0]
        for c in contexts
        if c.site.message.startswith("check failed")
    ]
    assert (walk.name, walk.call_line, walk.also_at) == ("walk", 8, ())


WORKERS = """\
pub enum State {
    Running(u32),
    Reconnecting(u32),
}

pub fn next_response(state: &mut State) -> anyhow::Result<u32> {
    poll_next_event(state, false)
}

pub fn next_event(state: &mut State) -> anyhow::Result<u32> {
    poll_next_event(state, true)
}

fn poll_next_event(state: &mut State, poll_reconnect: bool) -> anyhow::Result<u32> {
    loop {
        match state {
            State::Running(n) => return Ok(*n),
            State::Reconnecting(_) if !poll_reconnect => continue,
            State::Reconnecting(handle) => {
                anyhow::bail!("worker {} is still reconnecting", handle);
            }
        }
    }
}
"""


def test_an_arm_after_a_guarded_arm_of_the_same_values_needs_the_guard_false(
    tmp_path: Path,
) -> None:
    # risingwave's `Reconnecting(_) if !poll_reconnect => continue` before the site's
    # `Reconnecting(join_handle) =>`: `next_response` passes `false`, no way in (reading 202)
    paths = paths_by_message(tmp_path, WORKERS)

    assert paths["worker"] == [["next_event", "poll_next_event"]]
    arm = "match state: State::Reconnecting(handle) =>"
    guarded = ["State::Running(n)", "State::Reconnecting(_) if !poll_reconnect"]
    assert required_values(("match_arm",), (arm,), (), (guarded,)) == {
        "state": "in:State::Reconnecting",
        "poll_reconnect": "true",
    }
    # a guard of an arm that takes other values, or part of these, or tests what it binds
    for other in ("State::Running(_) if !poll_reconnect", "State::Reconnecting(3) if !flag",
                  "State::Reconnecting(flag) if flag"):  # fmt: skip
        assert required_values(("match_arm",), (arm,), (), ((other,),)) == {
            "state": "in:State::Reconnecting"
        }
    # a guarded catch-all before it takes every value
    assert required_values(("match_arm",), (arm,), (), (("_ if verbose",),))["verbose"] == "false"


def test_a_caller_passing_none_where_a_tuple_arm_needs_some_is_no_way_in(tmp_path: Path) -> None:
    # qdrant's `convert_shard_selector_for_read`: `match (shard_id, shard_key)`'s
    # `(Some(_), Some(_))` arm, which `search_batch` (passing `None`) never takes (240)
    source = (
        "pub fn select(shard_id: Option<u32>, shard_key: Option<String>) -> anyhow::Result<u32> {\n"
        "    match (shard_id, shard_key) {\n"
        '        (Some(_), Some(_)) => anyhow::bail!("shard id and shard key are exclusive"),\n'
        "        (Some(id), None) => Ok(id),\n"
        "        _ => Ok(0),\n"
        "    }\n"
        "}\n"
        "pub fn search_batch(key: Option<String>) -> anyhow::Result<u32> {\n"
        "    select(None, key)\n"
        "}\n"
        "pub fn scroll(id: Option<u32>, key: Option<String>) -> anyhow::Result<u32> {\n"
        "    select(id, key)\n"
        "}\n"
    )
    assert required_values(
        ["match_arm"], ["match (shard_id, shard_key): (Some(_), Some(_)) =>"], (), [()]
    ) == {"shard_id": "in:Some", "shard_key": "in:Some"}
    paths = paths_by_message(tmp_path, source)
    assert paths["shard id and shard key are exclusive"] == [["scroll", "select"]]


TICKERS = """\
pub fn flush() {
    flush_statistics(1, "kv");
    flush_statistics(2, "raft");
}

pub fn flush_named(name: &str) {
    flush_statistics(3, name);
}

pub fn only_raft() {
    by_level(0);
}

pub fn third_level() {
    by_level(3);
}

fn flush_statistics(value: u64, name: &str) {
    flush_ticker(value, name);
}

fn flush_ticker(value: u64, name: &str) {
    let n = match name {
        "kv" => 1,
        "raft" => 2,
        unexpected => panic!("unexpected name {}", unexpected),
    };
}

pub fn metrics() {
    stats(1, "kv");
    stats(2, "raft");
}

fn stats(value: u64, name: &str) {
    ticker(value, name);
}

fn ticker(value: u64, name: &str) {
    match name {
        "kv" | "raft" => {}
        other => panic!("unknown ticker {}", other),
    }
}

fn by_level(level: u32) {
    if level == 0 {
        panic!("level zero has no files");
    }
}
"""


def test_a_caller_passing_a_literal_the_arms_before_take_is_no_way_to_the_catch_all(
    tmp_path: Path,
) -> None:
    """tikv's `flush_engine_ticker_metrics(.., name)` panics in `unexpected =>` after the
    arms `"kv"` and `"raft"`; the metrics flusher passes exactly those (the path read in
    stop 72's check of 30 paths: edge by edge right, but the values it carries rule the
    site out). String and integer literals are needs as variants are: a caller passing
    another value, or its own parameter, is the way in."""
    paths = paths_by_message(tmp_path, TICKERS)
    assert paths["unexpected name"] == [["flush_named", "flush_statistics", "flush_ticker"]]
    assert paths["level zero has no files"] == [["only_raft", "by_level"]]
    # every caller a hop up rules it out: the path stops at `stats`, whose top says why,
    # not "no caller of `flush_engine_statistics` found"
    (ticker,) = reaches_by_message(tmp_path, TICKERS)["unknown ticker {}"].paths
    assert [h.name for h in ticker.hops] == ["stats", "ticker"]
    assert ticker.entry is None
    assert ticker.hops[0].ruled_out == '`metrics` (src/lib.rs:31) passes `"kv"`'
    assert no_entry_note(ticker) == (
        "every caller of `stats` the index found passes a value that rules the site out "
        '(`metrics` (src/lib.rs:31) passes `"kv"`), so none of them reaches it'
    )
    assert required_values(("match_arm",), ("match name: other =>",), (), (('"kv"', "1"),)) == {
        "name": 'out:"kv"|1'
    }
    assert required_values(("if",), ('name != "a|b"',)) == {}  # no literal a need can name


PLANNER = """\
pub fn run_finalize() {
    send_merge_ops(true);
}

pub fn on_new_splits() {
    send_merge_ops(false);
}

pub fn any_time(finalize: bool) {
    send_merge_ops(finalize);
}

fn send_merge_ops(is_finalize: bool) {
    compute_merge_ops(is_finalize);
}

fn compute_merge_ops(is_finalize: bool) {
    if is_finalize {
        finalize_operations();
    } else {
        operations();
    }
}

fn finalize_operations() {}

fn operations() {
    panic!("The merge policy is supposed to keep the number of splits.");
}
"""


def test_a_call_in_a_branch_of_an_if_on_a_parameter_needs_that_branch_s_value(
    tmp_path: Path,
) -> None:
    """quickwit's `MergePlanner::compute_merge_ops(is_finalize)` calls `operations()` only in
    the `else` of `if is_finalize`, and the finalize message's handler calls
    `send_merge_ops(true)`: no way to the assert in `operations` (recheck 251, a new M the
    message-typed dispatch had brought). The `if` around a call on the way up is a need of
    the caller's parameter, as a site's own conditions are."""
    paths = paths_by_message(tmp_path, PLANNER)
    assert sorted(paths["The merge policy is supposed to keep the number of splits."]) == [
        ["any_time", "send_merge_ops", "compute_merge_ops", "operations"],
        ["on_new_splits", "send_merge_ops", "compute_merge_ops", "operations"],
    ]


DISPATCHED = """\
pub fn flush_kv_only() {
    flush("kv");
}

pub fn flush_named(name: &str) {
    flush(name);
}

fn flush(name: &str) {
    match name {
        "kv" => flush_kv(),
        "raft" => flush_raft(),
        other => {}
    }
}

fn flush_raft() {
    panic!("raft engine metrics are off");
}

fn flush_kv() {}
"""


def test_a_call_in_an_arm_of_a_match_on_a_parameter_needs_that_arm_s_value(
    tmp_path: Path,
) -> None:
    """An arm of a `match` on a parameter is a need of the walk up through its calls as an
    `if` is: `flush("kv")` never runs the `"raft" =>` arm's call."""
    paths = paths_by_message(tmp_path, DISPATCHED)
    assert paths["raft engine metrics are off"] == [["flush_named", "flush", "flush_raft"]]


def test_each_part_of_a_condition_joined_by_and_must_hold() -> None:
    # tikv's `if !is_in_flashback && is_flashback_request && !skip_not_prepared`
    assert required_values(("if",), ("!in_flashback && is_flashback && !skip",)) == {
        "in_flashback": "false",
        "is_flashback": "true",
        "skip": "false",
    }
    # an `||` leaves no part needed; an early exit not taken needs neither part alone
    assert required_values(("if",), ("a || !b",)) == {}
    assert required_values(("exit",), ("a && b",)) == {}
    assert required_values(("if",), ("check(a && b) && c",)) == {"c": "true"}


FLASHBACK = """\
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("region {0} not prepared the flashback")]
    FlashbackNotPrepared(u64),
}

pub fn read(region: u64) -> Result<(), Error> {
    check_flashback_state(true, region, true)
}

pub fn apply(region: u64) -> Result<(), Error> {
    check_flashback_state(true, region, false)
}

fn check_flashback_state(
    is_flashback_request: bool,
    region: u64,
    skip_not_prepared: bool,
) -> Result<(), Error> {
    if is_flashback_request && !skip_not_prepared {
        return Err(Error::FlashbackNotPrepared(region));
    }
    Ok(())
}
"""


def test_a_caller_passing_a_literal_that_rules_the_build_out_is_no_way_in(
    tmp_path: Path,
) -> None:
    # tikv's `validate_request` passes `skip_not_prepared = true` to the one fn that builds
    # the variant: its record named that read path (reading 326, F)
    paths = paths_by_message(tmp_path, FLASHBACK)

    assert paths["region"] == [["apply", "check_flashback_state"]]
