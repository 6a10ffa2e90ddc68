"""What a site needs of its fn's parameters travels up the callers that pass them on.

risingwave's SQL `CREATE SINK` calls `handle_create_sink(.., false)`, which passes its
`is_iceberg_engine_internal` on twice, to a check under `if is_iceberg_engine_internal`:
that statement is no way to "since_timestamp is not allowed for this sink", while the
iceberg table's `gen_sink_plan(.., true)` is. A `match` on a parameter does the same with
the variant a caller passes (`DropMode::Restrict =>` is not reached by a caller passing
`DropMode::Cascade`). Readings 180-183, 190-191 found such paths in every repository."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_reach_memo import regenerated_and_cold
from test_ruled_out_callers import paths_by_message

from pipeline.scan.valueflow import required_values, verdict

SINKS = """\
pub enum Mode {
    Strict,
    Lenient,
    Off,
}

pub fn create_sink() -> anyhow::Result<()> {
    handle_sink(1, false)
}

pub fn create_table() -> anyhow::Result<()> {
    handle_sink(2, true)
}

fn handle_sink(id: u32, internal: bool) -> anyhow::Result<()> {
    plan_sink(id, &internal)
}

fn plan_sink(id: u32, internal: &bool) -> anyhow::Result<()> {
    if *internal {
        anyhow::bail!("since_timestamp is not allowed for sink {}", id);
    }
    Ok(())
}

pub fn check_loose() -> anyhow::Result<()> {
    validate(Mode::Lenient)
}

pub fn check_strict() -> anyhow::Result<()> {
    validate(Mode::Strict)
}

pub fn check_any(mode: Mode) -> anyhow::Result<()> {
    validate(mode)
}

fn validate(mode: Mode) -> anyhow::Result<()> {
    match mode {
        Mode::Strict => anyhow::bail!("strict mode refuses unknown keys"),
        Mode::Lenient | Mode::Off => Ok(()),
    }
}

pub fn compare_off() -> anyhow::Result<()> {
    compared(Mode::Off)
}

pub fn compare_strict() -> anyhow::Result<()> {
    compared(Mode::Strict)
}

fn compared(mode: Mode) -> anyhow::Result<()> {
    if mode != Mode::Off {
        anyhow::bail!("only an unchecked load may skip the header");
    }
    Ok(())
}

pub fn unwrapped_strict() -> anyhow::Result<()> {
    unwrapped(Some(Mode::Lenient))
}

pub fn import_csv() -> anyhow::Result<()> {
    import(Mode::Strict)
}

pub fn import_blob() -> anyhow::Result<()> {
    import(Mode::Off)
}

fn import(mode: Mode) -> anyhow::Result<()> {
    match mode {
        Mode::Strict | Mode::Lenient => Ok(()),
        _ => anyhow::bail!("this mode cannot be imported"),
    }
}

pub fn disable_declined() {
    disable(Mode::Lenient);
}

pub fn disable_from_hook(mode: Mode) {
    disable(mode);
}

pub fn disable(mode: Mode) {
    assert!(mode != Mode::Off, "Off is not a reason to disable");
}

pub fn ensure_strict() -> anyhow::Result<()> {
    ensured(Mode::Strict)
}

pub fn ensure_off() -> anyhow::Result<()> {
    ensured(Mode::Off)
}

fn ensured(mode: Mode) -> anyhow::Result<()> {
    anyhow::ensure!(mode == Mode::Strict, "only a strict mode may be ensured");
    Ok(())
}

pub fn replay_with_context() -> anyhow::Result<()> {
    replay(Some(Mode::Strict))
}

pub fn replay_plain() -> anyhow::Result<()> {
    replay(None)
}

fn replay(context: Option<Mode>) -> anyhow::Result<()> {
    if let Some(mode) = context {
        let _ = mode;
    } else {
        anyhow::bail!("replayed without a block context");
    }
    Ok(())
}

fn unwrapped(mode: Option<Mode>) -> anyhow::Result<()> {
    if let Some(mode) = mode {
        match mode {
            Mode::Strict => anyhow::bail!("an optional strict mode refuses it"),
            _ => {}
        }
    }
    Ok(())
}
"""


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[list[str]]]:
    return paths_by_message(tmp_path_factory.mktemp("sinks"), SINKS)


def test_a_flag_passed_on_is_ruled_out_by_the_literal_a_caller_further_up_passes(
    paths: dict[str, list[list[str]]],
) -> None:
    assert paths["since_timestamp is not allowed for sink"] == [
        ["create_table", "handle_sink", "plan_sink"]
    ]


def test_a_variant_passed_for_a_matched_parameter_rules_the_other_arms_out(
    paths: dict[str, list[list[str]]],
) -> None:
    found = paths["strict mode refuses unknown keys"]
    assert ["check_loose", "validate"] not in found
    # a literal of the arm's variant, and a parameter passed on by a caller nobody rules out
    assert sorted(found) == [["check_any", "validate"], ["check_strict", "validate"]]


def test_a_variant_compared_with_rules_out_the_callers_passing_the_other_one(
    paths: dict[str, list[list[str]]],
) -> None:
    assert paths["only an unchecked load may skip the header"] == [["compare_strict", "compared"]]


def test_a_catch_all_arm_is_ruled_out_by_a_variant_an_earlier_arm_takes(
    paths: dict[str, list[list[str]]],
) -> None:
    assert paths["this mode cannot be imported"] == [["import_blob", "import"]]


def test_a_check_that_fails_is_ruled_out_by_a_literal_that_passes_it(
    paths: dict[str, list[list[str]]],
) -> None:
    """pingora's `disable(reason)` asserts `reason != NoCacheReason::NeverEnabled`, and the
    proxy calls `disable(NoCacheReason::DeclinedToUpstream)`: that call never fails the
    check, yet it had been the way in (reading 322). An `assert!`'s or `ensure!`'s check
    fails only when it is false: a literal that makes it true rules the caller out."""
    assert paths["Off is not a reason to disable"] == [["disable_from_hook", "disable"]]
    assert paths["only a strict mode may be ensured"] == [["ensure_off", "ensured"]]


def test_the_else_of_an_if_let_is_ruled_out_by_a_caller_passing_some(
    paths: dict[str, list[list[str]]],
) -> None:
    """foundry's backend replays `if let Some(context) = block_context { .. } else { ..
    unreachable!(..) }`; its path went through a call passing `Some(..)` (reading 323)."""
    assert paths["replayed without a block context"] == [["replay_plain", "replay"]]


def test_a_name_an_earlier_pattern_binds_again_needs_nothing_of_the_caller(
    paths: dict[str, list[list[str]]],
) -> None:
    # `if let Some(mode) = mode` binds `mode` anew: the arm tests the inner value, and the
    # `Some(..)` a caller passes is no variant of `Mode`: no claim, the path stays
    assert paths["an optional strict mode refuses it"] == [["unwrapped_strict", "unwrapped"]]


def test_what_the_conditions_need_of_variants() -> None:
    arm = ("match_arm",)
    assert required_values(arm, ("match mode: Mode::A | Mode::B(..) =>",)) == {
        "mode": "in:Mode::A|Mode::B"
    }
    assert required_values(arm, ("match &mode: Mode::A =>",)) == {"mode": "in:Mode::A"}
    # a guarded arm, a binding, a `CONST`, a field: nothing plain to carry
    assert required_values(arm, ("match mode: Mode::A if strict =>",)) == {}
    assert required_values(arm, ("match mode: other =>",)) == {}
    assert required_values(arm, ("match mode: MAX =>",)) == {}
    assert required_values(arm, ("match self.mode: Mode::A =>",)) == {}
    assert required_values(("if",), ("mode == Mode::A",)) == {"mode": "in:Mode::A"}
    assert required_values(("else",), ("mode == Mode::A",)) == {"mode": "out:Mode::A"}
    assert required_values(("exit",), ("Mode::A != mode",)) == {"mode": "in:Mode::A"}
    # the `else` of an `if let`, and an early exit under one not taken: the pattern failed
    assert required_values(("else",), ("let Some(ctx) = ctx_opt",)) == {"ctx_opt": "None"}
    assert required_values(("exit",), ("let Mode::A(x) = mode",)) == {"mode": "out:Mode::A"}
    assert required_values(("else",), ("let Some(x) = f(y)",)) == {}  # a call: no name
    # an `assert!`/`ensure!` whose check failed: the check did not hold
    assert required_values(("check_failed",), ("mode != Mode::A",)) == {"mode": "in:Mode::A"}
    assert required_values(("check_failed",), ("details",)) == {"details": "false"}
    assert required_values(("if",), ("!matches!(mode, Mode::A | Mode::B)",)) == {
        "mode": "out:Mode::A|Mode::B"
    }
    assert required_values(("if_let",), ("let Mode::A(x) = mode",)) == {"mode": "in:Mode::A"}
    assert required_values(("let_else",), ("let Mode::A = mode did not match",)) == {
        "mode": "out:Mode::A"
    }
    # a catch-all: none of the variants the unguarded arms before it take
    catch_all = ("match mode: _ =>",)
    assert required_values(arm, catch_all, (), [("Mode::A | Mode::B", "Mode::C(..)")]) == {
        "mode": "out:Mode::A|Mode::B|Mode::C"
    }
    assert required_values(arm, ("match mode: other =>",), (), [("Mode::A",)]) == {
        "mode": "out:Mode::A"
    }
    assert required_values(arm, catch_all, (), [("Mode::A if strict", "Mode::B")]) == {
        "mode": "out:Mode::B"
    }
    assert required_values(arm, catch_all, (), [("Mode::A", "(x, y)")]) == {}
    assert required_values(arm, catch_all) == {}  # the arms before it not known
    # bound again by an earlier pattern: the later test is of the inner value
    assert required_values(
        ("if_let", "match_arm"), ("let Some(mode) = mode", "match mode: Mode::A =>")
    ) == {"mode": "Some"}


def contradicts(argument: str, value: str) -> bool:
    return verdict(argument, value) is False


def meets(argument: str, value: str) -> bool:
    return verdict(argument, value) is True


def test_which_literals_contradict_or_meet_a_need() -> None:
    assert contradicts("Mode::B", "in:Mode::A")
    assert contradicts("&Mode::A", "out:Mode::A|Mode::C")
    assert not contradicts("Mode::A(3)", "in:Mode::A")
    assert meets("Mode::A { x: 1 }", "in:Mode::A")
    assert meets("Self::B", "out:Mode::A")
    # enums that differ by name, or one written bare: not told apart, no claim
    assert not contradicts("Other::B", "in:Mode::A")
    assert not contradicts("B", "in:Mode::A")
    assert not contradicts("Some(Mode::B)", "in:Mode::A")
    assert contradicts("None", "Some") and contradicts("Some(x)", "None")
    assert contradicts("false", "true") and meets("true", "true")
    assert not contradicts("cfg.strict", "true") and not meets("cfg.strict", "true")


def test_a_carried_record_keeps_what_its_catch_all_arm_needs(tmp_path: Path) -> None:
    """The arms a catch-all comes after are not in a condition's text: a record carried over
    unparsed reads what its site needs from its provenance (`needs`), or a regeneration's
    `reach.json` lists the caller a cold extraction rules out."""
    sources = {
        "Cargo.toml": '[package]\nname = "sinks"\n',
        "src/lib.rs": "pub mod sinks;\npub mod other;\n",
        "src/sinks.rs": SINKS,
        "src/other.rs": "pub fn other() {}\n",
    }
    rows = regenerated_and_cold(
        tmp_path, "o/sinks", sources, {"src/other.rs": "// another\n" + sources["src/other.rs"]}
    )
    assert rows[0] == rows[1]
    manifest = json.loads((tmp_path / "out" / "o" / "sinks" / "manifest.json").read_text())
    assert {"mode": "out:Mode::Strict|Mode::Lenient"} in [
        p.get("needs") for p in manifest["records"].values()
    ]


JOBS = """\
pub enum Job {
    Source(u32),
    Sink(u32),
}

pub fn create_source(id: u32) -> anyhow::Result<()> {
    let job = Job::Source(id);
    run_job(job)
}

pub fn create_sink(id: u32) -> anyhow::Result<()> {
    let job = Job::Sink(id);
    run_job(job)
}

pub fn create_either(id: u32, sink: bool) -> anyhow::Result<()> {
    let job = Job::Source(id);
    if sink {
        let job = Job::Sink(id);
        return run_job(job);
    }
    run_job(job)
}

fn run_job(job: Job) -> anyhow::Result<()> {
    match job {
        Job::Sink(_) => anyhow::bail!("a sink job cannot be validated here"),
        Job::Source(_) => Ok(()),
    }
}
"""


def test_a_variant_a_caller_built_in_a_let_rules_the_other_arms_out(tmp_path: Path) -> None:
    # risingwave's `create_source` builds `StreamingJob::Source(..)` and passes it on: no way
    # to the `StreamingJob::Sink` arm's `validate_sink` (reading 202). A name bound twice in
    # the caller is not told by either binding: the path stays.
    found = paths_by_message(tmp_path, JOBS)["a sink job cannot be validated here"]

    assert sorted(found) == [["create_either", "run_job"], ["create_sink", "run_job"]]
