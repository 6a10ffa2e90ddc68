"""When a builder builds an `#[error]` variant: the conditions in it on the way to the build
(`Build.when`, `Reach.built_when`), which a variant's record says instead of "the code that
builds it decides when" (reading 316: just's `Switch::apply`)."""

from __future__ import annotations

import json

import pytest
from test_reach import _graph_of

from pipeline.analyze.reach_text import built_when_text
from pipeline.core.reach import BuildStep, Reach, build_step, reach_from_json, reach_to_json
from pipeline.languages.rust.index import index_file
from pipeline.scan.callerpaths import site_reach

ERROR_RS = """\
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("option `{0}` takes no value")]
    FlagWithValue(String),
    #[error("option `{0}` is unknown")]
    Unknown(String),
}
impl Error {
    pub fn unknown(name: &str, known: bool) -> Self {
        if known { panic!("known") }
        Self::Unknown(name.into())
    }
}
"""
SWITCH_RS = """\
use crate::error::Error;
pub enum Kind { Flag, Text }
pub fn apply(name: &str, flag: bool, value: Option<&str>) -> Result<Kind, Error> {
    let Some(first) = name.chars().next() else {
        return Err(Error::Unknown(name.into()));
    };
    if flag || first == '-' {
        if value.is_some() {
            return Err(Error::FlagWithValue(name.into()));
        }
        return Ok(Kind::Flag);
    }
    Ok(Kind::Text)
}
"""


def test_a_build_of_an_error_type_keeps_the_conditions_on_its_way() -> None:
    builds = index_file("src/switch.rs", SWITCH_RS.encode()).builds
    # as a site's own conditions: the `if`s it is in (`Kind::Flag`, `Kind::Text`: values, no
    # error's, whose conditions are not read)
    assert [(b.enum, b.variant, b.when) for b in builds] == [
        (
            "Error",
            "Unknown",
            (("let_else", "let Some(first) = name.chars().next() did not match", True),),
        ),
        (
            "Error",
            "FlagWithValue",
            (
                ("if", "flag || first == '-'", False),
                ("if", "value.is_some()", False),
            ),
        ),
        ("Kind", "Flag", ()),
        ("Kind", "Text", ()),
    ]
    # `Self::Unknown` in the error's own impl: the type is the impl's
    (built,) = index_file("src/error.rs", ERROR_RS.encode()).builds
    assert (built.enum, built.when) == ("Self", (("ensure", "known", True),))


def test_the_reach_of_a_variant_says_when_its_builder_builds_it() -> None:
    graph = _graph_of({"src/error.rs": ERROR_RS, "src/switch.rs": SWITCH_RS})
    reach = site_reach(graph, "src/error.rs", 3)
    assert reach is not None and reach.built == "Error::FlagWithValue"
    assert reach.built_when == (
        BuildStep("if", "flag || first == '-'"),
        BuildStep("if", "value.is_some()"),
    )
    assert built_when_text(reach) == (
        "when `flag || first == '-'` is true and `value.is_some()` is true"
    )
    # the row of reach.json keeps them, and reads them back
    assert reach_from_json(json.loads(json.dumps(reach_to_json(reach)))) == reach


@pytest.mark.parametrize("step", [{"kind": "script", "text": "x"}, {"kind": "if"}, ["if", "x"]])
def test_a_build_step_of_another_shape_is_refused(step: object) -> None:
    """reach.json and the index cache are not trusted: a kind the prose has no words for,
    or a missing part, is an error the reader of the row handles, not a crash later."""
    with pytest.raises((KeyError, ValueError, TypeError)):
        build_step(step)  # type: ignore[arg-type]
    with pytest.raises((KeyError, ValueError, TypeError)):
        reach_from_json({"built_when": [step]})


def test_a_variant_built_with_no_condition_says_none() -> None:
    reach = Reach(built="Error::Closed")
    assert reach.built_when == () and "built_when" not in reach_to_json(reach)


def test_a_build_in_an_ensure_is_made_when_its_check_fails() -> None:
    """greptimedb's `ensure!(column_exists, ColumnNotFoundSnafu { .. })` (reading 318: the
    conditions said the way to the check and left out the check itself)."""
    source = """\
pub fn comment(column: bool, names: &[&str], name: &str) -> Result<(), Error> {
    if column {
        let exists = names.iter().any(|n| *n == name);
        ensure!(
            exists,
            ColumnNotFoundSnafu { name }
        );
        snafu::ensure!(name.len() < 64, error::NameTooLongSnafu { name });
        ensure!(lookup(name).context(CatalogSnafu)?, SchemaNotFoundSnafu { name });
    }
    Ok(())
}
"""
    builds = index_file("src/comment.rs", source.encode()).builds
    assert [(b.enum, b.when) for b in builds] == [
        ("ColumnNotFoundSnafu", (("if", "column", False), ("check_failed", "exists", False))),
        # the second past the first: "the earlier check `exists` passed"
        (
            "NameTooLongSnafu",
            (
                ("if", "column", False),
                ("ensure", "exists", False),
                ("check_failed", "name.len() < 64", False),
            ),
        ),
        # built in the check itself: when `lookup` fails, not when the check is false
        (
            "CatalogSnafu",
            (
                ("if", "column", False),
                ("ensure", "exists", False),
                ("ensure", "name.len() < 64", False),
            ),
        ),
        (
            "SchemaNotFoundSnafu",
            (
                ("if", "column", False),
                ("ensure", "exists", False),
                ("ensure", "name.len() < 64", False),
                ("check_failed", "lookup(name).context(CatalogSnafu)?", False),
            ),
        ),
    ]
    step = BuildStep("check_failed", "exists")
    assert built_when_text(Reach(built="Error::ColumnNotFound", built_when=(step,))) == (
        "when the check `exists` is false"
    )


RANGE_RS = """\
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("Parameter range is too large")]
    TooLarge,
}
pub fn new(start: u64, end: u64) -> Result<u64, ScanError> {
    const MAX_PARAMETERS: u64 = 100_000;
    match size_hint(start, end) {
        (_, Some(size)) if size <= MAX_PARAMETERS => Ok(size),
        _ => Err(ScanError::TooLarge),
    }
}
"""


def test_a_build_in_a_catch_all_arm_says_the_arms_it_matched_none_of() -> None:
    """hyperfine's `RangeStep::new`: "the arm `match range_step_size_hint(..): _ =>` is
    taken" said nothing of `(_, Some(size)) if size <= MAX_PARAMETERS` (reading 326)."""
    (build,) = index_file("src/range.rs", RANGE_RS.encode()).builds
    assert build.when == (
        ("match_arm", "match size_hint(start, end): _ =>", False,
         ("(_, Some(size)) if size <= MAX_PARAMETERS",)),
    )  # fmt: skip
    graph = _graph_of({"src/range.rs": RANGE_RS})
    reach = site_reach(graph, "src/range.rs", 3)
    assert reach is not None and built_when_text(reach) == (
        "when the arm `match size_hint(start, end): _ =>` is taken (`size_hint(start, end)` "
        "matched none of the arms before it: `(_, Some(size)) if size <= MAX_PARAMETERS`) "
        "(`MAX_PARAMETERS = 100_000`)"
    )
    assert reach.built_values == ("MAX_PARAMETERS = 100_000",)
    assert reach_from_json(json.loads(json.dumps(reach_to_json(reach)))) == reach


LIMITS_RS = """\
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    #[error("too many parts")]
    TooMany,
}
const MAX_PARTS: usize = 8;
pub fn other(parts: usize) -> bool {
    const MAX_PARTS: usize = 2;
    parts > MAX_PARTS
}
pub fn check(parts: usize) -> Result<(), LimitError> {
    if parts > MAX_PARTS {
        return Err(LimitError::TooMany);
    }
    Ok(())
}
"""


def test_a_build_s_condition_says_the_value_of_the_const_it_reads_there() -> None:
    """The const in scope at the build: the file's, not the one another fn's body declares
    under the same name."""
    graph = _graph_of({"src/limits.rs": LIMITS_RS})
    reach = site_reach(graph, "src/limits.rs", 3)
    assert reach is not None and reach.built_values == ("MAX_PARTS = 8",)
    assert built_when_text(reach) == "when `parts > MAX_PARTS` is true (`MAX_PARTS = 8`)"


NAMES_RS = """\
#[derive(Debug, thiserror::Error)]
pub enum NameError {
    #[error("invalid character in name")]
    InvalidChar,
}
pub fn validate(name: &str) -> Result<(), NameError> {
    for grapheme in name.chars() {
        if grapheme.len_utf8() > 1 {
            return Err(NameError::InvalidChar);
        }
        if !grapheme.is_ascii_alphanumeric() {
            return Err(NameError::InvalidChar);
        }
    }
    Ok(())
}
"""


def test_a_builder_s_other_builds_of_the_variant_say_their_conditions_too() -> None:
    """influxdb's `validate_db_name` builds `InvalidChar` for a character of more than one
    byte and again for any other character it refuses; the record said the first alone
    (reading 327). The conditions both share from the start are said once."""
    graph = _graph_of({"src/names.rs": NAMES_RS})
    reach = site_reach(graph, "src/names.rs", 3)
    assert reach is not None and reach.built_when[-1] == BuildStep("if", "grapheme.len_utf8() > 1")
    (also,) = reach.built_also
    assert also.line == 12
    assert built_when_text(reach) == (
        "when inside the loop over `name.chars()` and `grapheme.len_utf8() > 1` is true; it "
        "builds it also at line 12, after the same first condition, when `grapheme.len_utf8() > 1` "
        "is false (so the earlier check under it passed) and `!grapheme.is_ascii_alphanumeric()` "
        "is true"
    )
    assert reach_from_json(json.loads(json.dumps(reach_to_json(reach)))) == reach
