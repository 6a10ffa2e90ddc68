"""A site under a `match` arm that takes one variant of a call's error says what decides it
one call deeper: where the called fn builds that variant, and when (`Reach.callee_builds`).
Reading 323: foundry's `LogoURITooLong` arm of `validate_tip20_logo_uri(..).map_err(|err|
match err { .. })` named the call and the arm, not the 256-byte limit that decides it."""

from __future__ import annotations

import json
from pathlib import Path

from test_reach import _graph_of, committed_and_extracted, reach_section

from pipeline.analyze.reach_text import callee_builds_text, failed_call_text
from pipeline.core.reach import (
    BuildStep,
    CalleeBuild,
    FailedCall,
    reach_from_json,
    reach_to_json,
)
from pipeline.scan.callerpaths import site_reach

URI_RS = """\
const MAX_URI: usize = 256;

pub enum UriError {
    TooLong,
    Empty,
}

pub fn validate(uri: &str) -> Result<(), UriError> {
    if uri.is_empty() {
        return Err(UriError::Empty);
    }
    if uri.len() > MAX_URI {
        return Err(UriError::TooLong);
    }
    Ok(())
}

pub fn set_uri(uri: &str) -> anyhow::Result<()> {
    validate(uri).map_err(|err| match err {
        UriError::TooLong => anyhow::anyhow!("URI too long"),
        UriError::Empty => anyhow::anyhow!("URI empty"),
    })?;
    Ok(())
}
"""
FIND_RS = """\
pub enum FindError {
    Unknown(String),
    Twice(String),
}

pub struct Table;

impl Table {
    pub fn find(&self, name: &str) -> Result<u32, FindError> {
        if name.starts_with('-') {
            return Err(FindError::Twice(name.into()));
        }
        if name.len() > 3 {
            return Err(FindError::Unknown(name.into()));
        }
        Err(FindError::Unknown(name.into()))
    }

    pub fn run(&self, name: &str) -> anyhow::Result<u32> {
        match self.find(name) {
            Err(FindError::Unknown(n)) => anyhow::bail!("no such command: {n}"),
            Err(FindError::Twice(n)) => anyhow::bail!("given twice: {n}"),
            Ok(id) => Ok(id),
        }
    }
}
"""
TWICE_RS = """\
pub enum FindError {
    Unknown(String),
}

pub struct Table;

impl Table {
    pub fn find(&self, name: &str) -> Result<u32, FindError> {
        if name.starts_with('-') {
            return Err(FindError::Unknown(name.into()));
        }
        if name.len() > 3 {
            return Err(FindError::Unknown(name.into()));
        }
        Ok(1)
    }

    pub fn run(&self, name: &str) -> anyhow::Result<u32> {
        match self.find(name) {
            Err(FindError::Unknown(n)) => anyhow::bail!("no such command: {n}"),
            Ok(id) => Ok(id),
        }
    }
}
"""
ALWAYS_RS = """\
pub enum AlwaysError { Always }
pub fn fail() -> Result<(), AlwaysError> {
    Err(AlwaysError::Always)
}
pub fn run() -> anyhow::Result<()> {
    match fail() {
        Err(AlwaysError::Always) => anyhow::bail!("always"),
        Ok(()) => Ok(()),
    }
}
"""


def test_the_arm_over_a_failed_call_s_error_says_when_the_called_fn_builds_it() -> None:
    graph = _graph_of({"src/lib.rs": URI_RS})
    conditions = ("validate(uri) failed (map_err)", "match err: UriError::TooLong =>")
    reach = site_reach(graph, "src/lib.rs", 20, conditions)
    assert reach is not None
    assert reach.callee_builds == (
        CalleeBuild(
            "validate",
            "UriError::TooLong",
            "src/lib.rs",
            13,
            (BuildStep("ensure", "uri.is_empty()", True), BuildStep("if", "uri.len() > MAX_URI")),
            ("MAX_URI = 256",),
        ),
    )
    assert callee_builds_text(reach.callee_builds) == (
        "`validate` builds the `UriError::TooLong` this arm takes (src/lib.rs:13) when "
        "`uri.is_empty()` is false (so the earlier check under it passed) and "
        "`uri.len() > MAX_URI` is true (`MAX_URI = 256`)."
    )
    # the row of reach.json keeps it, and reads it back
    assert reach_from_json(json.loads(json.dumps(reach_to_json(reach)))) == reach


def test_an_err_arm_of_a_match_on_a_call_says_when_the_method_builds_it() -> None:
    graph = _graph_of({"src/table.rs": FIND_RS})
    arm = "match self.find(name): Err(FindError::Twice(n)) =>"
    reach = site_reach(graph, "src/table.rs", 22, (arm,))
    assert reach is not None
    (built,) = reach.callee_builds
    assert (built.callee, built.line) == ("Table::find", 11)
    assert built.when == (BuildStep("if", "name.starts_with('-')"),)


def test_a_variant_built_at_several_places_says_each_place_and_its_conditions() -> None:
    graph = _graph_of({"src/table.rs": TWICE_RS})
    arm = "match self.find(name): Err(FindError::Unknown(n)) =>"
    reach = site_reach(graph, "src/table.rs", 20, (arm,))
    assert reach is not None
    assert [(b.line, b.when) for b in reach.callee_builds] == [
        (10, (BuildStep("if", "name.starts_with('-')"),)),
        (
            13,
            (BuildStep("ensure", "name.starts_with('-')", True), BuildStep("if", "name.len() > 3")),
        ),
    ]
    assert callee_builds_text(reach.callee_builds) == (
        "`Table::find` builds the `FindError::Unknown` this arm takes at 2 places: "
        "(src/table.rs:10) when `name.starts_with('-')` is true; (src/table.rs:13) when "
        "`name.starts_with('-')` is false (so the earlier check under it passed) and "
        "`name.len() > 3` is true."
    )


def test_nothing_is_said_where_the_call_does_not_tell_one_build() -> None:
    graph = _graph_of({"src/table.rs": FIND_RS, "src/lib.rs": URI_RS, "src/always.rs": ALWAYS_RS})
    unknown = "match self.find(name): Err(FindError::Unknown(n)) =>"
    # `Unknown` is built at two places of `find`, the second after both checks failed
    reach = site_reach(graph, "src/table.rs", 21, (unknown,))
    assert reach is not None and [b.line for b in reach.callee_builds] == [14, 16]
    cases = [
        # a fn that builds the variant with no condition before it: nothing tells when
        ("src/always.rs", 7, ("match fail(): Err(AlwaysError::Always) =>",)),
        ("src/table.rs", 21, ("match self.find(name)?: Err(FindError::Unknown(n)) =>",)),
        # an arm over a value that is no failed call's error
        ("src/lib.rs", 20, ("match err: UriError::TooLong =>",)),
        # the variant is no error the called fn builds
        ("src/lib.rs", 20, ("validate(uri) failed (map_err)", "match err: UriError::Other =>")),
        # a call the index resolves to no fn of the repository
        ("src/lib.rs", 20, ("check(uri) failed (map_err)", "match err: UriError::TooLong =>")),
    ]
    for path, line, conditions in cases:
        reach = site_reach(graph, path, line, conditions)
        assert reach is not None and reach.callee_builds == (), conditions


def test_the_record_the_reach_row_and_the_page_say_it(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "uri"\n', "src/lib.rs": URI_RS}
    _, record = committed_and_extracted(files, "o/uri", tmp_path, "URI too long")
    said = (
        "`validate` builds the `UriError::TooLong` this arm takes (src/lib.rs:13) when "
        "`uri.is_empty()` is false (so the earlier check under it passed) and "
        "`uri.len() > MAX_URI` is true (`MAX_URI = 256`)."
    )
    assert said in record["triggerScenarios"]
    rows = json.loads((tmp_path / "out" / "o" / "uri" / "reach.json").read_text())["records"]
    assert rows[record["id"]]["callee_builds"][0]["values"] == ["MAX_URI = 256"]
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert "One call deeper: <code>validate</code> builds the <code>UriError::TooLong</code>" in (
        section
    )
    # the other arm's record names the other build and its own condition
    _, other = committed_and_extracted(files, "o/uri", tmp_path / "again", "URI empty")
    assert (
        "builds the `UriError::Empty` this arm takes (src/lib.rs:10) when "
        in (other["triggerScenarios"])
    )


SETTINGS_RS = """\
pub struct Settings;

impl Settings {
    pub fn new(path: &str) -> anyhow::Result<Settings> {
        let text = std::fs::read_to_string(path)?;
        if text.is_empty() {
            anyhow::bail!("empty settings");
        }
        let value = parse(&text).map_err(|e| anyhow::anyhow!("{e}"))?;
        value.check()?;
        Ok(Settings)
    }

    pub fn find(name: &str) -> Option<Settings> {
        if name.is_empty() { None } else { Some(Settings) }
    }
}

fn parse(text: &str) -> Result<u32, String> {
    text.parse::<u32>().map_err(|e| e.to_string())
}

pub fn start(path: &str) -> anyhow::Result<()> {
    let settings = Settings::new(path).context("could not load server settings")?;
    let found = Settings::find(path).expect("settings are named");
    Ok(())
}
"""


def test_a_wrapped_call_says_the_calls_it_passes_errors_on_from() -> None:
    """atuin's `Settings::new().wrap_err("could not load server settings")` said only that the
    call returned an error (reading 324): the cause printed after the message is one of the
    errors `Settings::new` passes on with `?`, or a check of its own."""
    graph = _graph_of({"src/lib.rs": SETTINGS_RS})
    wrapped = "Settings::new(path) was None/Err (context)"
    reach = site_reach(graph, "src/lib.rs", 23, (wrapped,))
    assert reach is not None
    # `.map_err(..)?` passes on the error of the call it is on; `value.check()` resolves to
    # no fn of the repository and is named as written
    assert reach.failed_call == FailedCall(
        "Settings::new",
        "src/lib.rs",
        4,
        ("std::fs::read_to_string(..)", "parse(&text)", "value.check()"),
    )
    assert failed_call_text(reach.failed_call) == (
        "`Settings::new` (src/lib.rs:4) is the call that failed; it passes on the errors of "
        "the calls it makes with `?`: `std::fs::read_to_string(..)`, `parse(&text)`, "
        "`value.check()`. The cause printed after this message is one of theirs, or a check "
        "of its own."
    )
    assert reach_from_json(json.loads(json.dumps(reach_to_json(reach)))) == reach
    # an `Option` gives no error to print; a call whose `Ok` value is guarded is not it
    for condition, line in (
        ("Settings::find(path) was None/Err (expect)", 24),
        ("Settings::new(path)? was None/Err (expect)", 24),
        ("parse(path) was None/Err (context)", 23),  # it makes no call with `?`
    ):
        found = site_reach(graph, "src/lib.rs", line, (condition,))
        assert found is not None and found.failed_call is None, condition


def test_the_record_and_the_page_say_what_the_wrapped_call_passes_on(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "srv"\n',
        "src/lib.rs": "use anyhow::Context;\n" + SETTINGS_RS,
    }
    _, record = committed_and_extracted(files, "o/srv", tmp_path, "could not load server")
    said = "`Settings::new` (src/lib.rs:5) is the call that failed; it passes on the errors of "
    assert said in record["triggerScenarios"]
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert "One call deeper: <code>Settings::new</code> (src/lib.rs:5) is the call that" in (
        section
    )
