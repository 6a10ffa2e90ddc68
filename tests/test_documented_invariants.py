"""An error made with a constructor its library documents as a broken invariant is classed so,
whatever single word of its message: DataFusion's `DataFusionError::Internal` "should not
happen in normal usage". influxdb's "Invalid variable WindowDuration encoding. Expected bool"
of its own encoder's output read "Invalid argument" and "correct the value you gave"
(reading 327). A phrase of the message, or another constructor, keeps its class."""

from __future__ import annotations

from site_fixtures import explained_all

SOURCE = """\
use datafusion::error::DataFusionError;

pub fn decode(field: &ScalarValue) -> Result<bool, DataFusionError> {
    match field {
        ScalarValue::Boolean(Some(negative)) => Ok(*negative),
        _ => Err(DataFusionError::Internal(format!(
            "Invalid variable encoding. Expected bool argument, got {field:?}"
        ))),
    }
}

pub fn plan(name: &str, tables: &Tables) -> Result<Table, DataFusionError> {
    if let Some(table) = tables.get(name) {
        return Ok(table);
    }
    Err(DataFusionError::Plan(format!("Expected argument {name}, got none")))
}

pub fn lookup(name: &str, tables: &Tables) -> Result<Table, DataFusionError> {
    tables
        .get(name)
        .ok_or_else(|| DataFusionError::Internal(format!("table {name} not found")))
}
"""


def test_datafusion_s_internal_error_is_a_broken_invariant_over_the_message_s_words() -> None:
    found = explained_all(SOURCE, "src/window.rs")
    encoding = found["Invalid variable encoding. Expected bool argument, got {field:?}"]
    assert encoding.backgroundTag == "internal-invariant"
    assert "Class: Internal invariant violated." in encoding.documentation
    # the same words under another constructor are the caller's argument
    assert found["Expected argument {name}, got none"].backgroundTag == "invalid-argument"


def test_a_phrase_of_the_message_keeps_its_class() -> None:
    assert explained_all(SOURCE, "src/window.rs")["table {name} not found"].backgroundTag == (
        "not-found"
    )
