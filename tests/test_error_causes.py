"""An error type's record says whether its value keeps a cause. thiserror's `source()` is the
field marked `#[source]` or `#[from]`, or else the one named `source`; snafu's is the field
named `source`. tikv's `ErrorWrapper(String)` ("a general error wrapper") has none, yet its
tip said "this type keeps them in its `source()` chain" (reading 326); its message does not
print the `String` either, which its derived `Debug` does."""

from __future__ import annotations

from pathlib import Path

from test_reach import committed_and_extracted

from pipeline.languages.rust.sites import find_sites

ERRORS = """\
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("a general error wrapper")]
    ErrorWrapper(String),
    #[error("the store failed")]
    Store(#[from] std::io::Error),
    #[error("parse of {path} failed")]
    Parse { path: String, #[source] inner: std::num::ParseIntError },
    #[error("request failed: {code}")]
    Request { code: u16, r#type: String, source: std::io::Error },
    #[error("store {0} is gone")]
    Gone(u64),
    #[error("nothing to do")]
    Idle,
    #[error(transparent)]
    Other(anyhow::Error),
}

#[derive(Snafu)]
pub enum SnafuError {
    #[snafu(display("unexpected: {reason}"))]
    Unexpected { reason: String, location: Location },
    #[snafu(display("external"))]
    External { source: BoxedError },
    #[snafu(display("kept out"))]
    KeptOut { #[snafu(source(false))] source: String },
}

pub enum Manual {
    #[error("manual {0}")]
    Written(String),
}
"""


def _facts(text: str) -> dict[str, tuple[str | None, tuple[str, ...]]]:
    sites = find_sites("src/error.rs", text.encode()).sites
    return {s.facts.variant or "": (s.facts.cause, s.facts.debug_only) for s in sites}


def test_the_field_an_error_s_source_returns_is_read_from_its_attributes_and_names() -> None:
    found = _facts(ERRORS)

    assert found["ErrorWrapper"] == ("", ("0",))
    assert found["Store"] == ("0", ("0",))
    assert found["Parse"] == ("inner", ("inner",))
    # a raw identifier is printed by its name (`{type}`); this one is not printed
    assert found["Request"] == ("source", ("r#type", "source"))
    assert found["Gone"] == ("", ())
    assert found["Idle"] == ("", ())
    assert found["Unexpected"] == ("", ())  # no derived `Debug`: no field said to show
    assert found["External"] == ("source", ())
    assert found["KeptOut"] == ("", ())


def test_the_code_that_does_not_say_is_not_read_as_keeping_no_cause() -> None:
    found = _facts(ERRORS)

    assert "Other" not in found  # `transparent`: no message of its own, no site
    assert found["Written"][0] is None  # no derive that writes `source()`


MAIN = """\
mod error;

fn main() {
    run().unwrap();
}

fn run() -> Result<(), error::Error> {
    if std::env::args().count() > 3 {
        return Err(error::Error::ErrorWrapper("too many".to_string()));
    }
    Err(error::Error::Store(std::io::Error::other("x")))
}
"""


def test_a_variant_that_keeps_no_cause_is_not_told_to_be_logged_with_its_causes(
    tmp_path: Path,
) -> None:
    files = {"Cargo.toml": '[package]\nname = "kv"\n', "src/main.rs": MAIN, "src/error.rs": ERRORS}
    _, record = committed_and_extracted(files, "o/kv", tmp_path, "a general error wrapper")

    tips = [t for t in record["preventionTips"] if "cause" in t]
    assert tips == [
        "`Error::ErrorWrapper` keeps no cause (no field of it is its `source()`), and its "
        "message leaves out its field `0`: log it with `{:?}` (its derived `Debug` prints it) "
        "where it is handled, with what was being done then; together they name what to fix "
        "before the next run."
    ]


def test_a_variant_with_a_source_keeps_the_tip_to_log_its_causes(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "kv"\n', "src/main.rs": MAIN, "src/error.rs": ERRORS}
    _, record = committed_and_extracted(files, "o/kv", tmp_path, "the store failed")

    assert any("`source()` chain" in t for t in record["preventionTips"]), record["preventionTips"]


DROPPING = """\
fn main() {
    receive(std::sync::mpsc::channel::<u32>().1).unwrap();
}

fn receive(rx: std::sync::mpsc::Receiver<u32>) -> anyhow::Result<u32> {
    rx.recv().map_err(|_| anyhow::anyhow!("failed to receive the result"))
}
"""


def test_an_error_made_in_place_of_a_dropped_one_is_not_told_to_be_logged_with_its_causes(
    tmp_path: Path,
) -> None:
    files = {"Cargo.toml": '[package]\nname = "rx"\n', "src/main.rs": DROPPING}
    _, record = committed_and_extracted(files, "o/rx", tmp_path, "failed to receive")

    assert record["preventionTips"][-1] == (
        "This error keeps nothing of the one it replaces (`.map_err(|_| ..)` drops it): no "
        "cause under it says why that failed. Log, where it is handled, what was being done "
        "and with which input; that names what to fix before the next run."
    )
    assert not any("with its causes" in t for t in record["preventionTips"])


SHADER = """\
use std::fmt;

#[derive(Debug)]
pub enum ShaderError {
    Link(String),
}

impl std::error::Error for ShaderError {}

impl fmt::Display for ShaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Link(reason) => write!(f, "Failed linking shader: {reason}"),
        }
    }
}

pub fn link(ok: bool) -> Result<(), ShaderError> {
    if !ok {
        return Err(ShaderError::Link(String::from("log")));
    }
    Ok(())
}
"""


def test_a_display_impl_whose_error_impl_writes_no_source_keeps_no_cause(
    tmp_path: Path,
) -> None:
    # alacritty's `impl std::error::Error for ShaderError {}` (reading 328): its text was told
    # its causes were in its `source()` chain; the same type with a `source()` keeps the tip
    files = {"Cargo.toml": '[package]\nname = "gl"\n', "src/lib.rs": SHADER}
    _, record = committed_and_extracted(files, "o/gl", tmp_path, "Failed linking shader")

    assert [t for t in record["preventionTips"] if "cause" in t] == [
        "`ShaderError::Link` keeps no cause (its `impl Error` writes no `source()`): no error "
        "under it says more. Log, where it is handled, what was being done and with which "
        "input; that names what to fix before the next run."
    ]

    sourced = SHADER.replace(
        "impl std::error::Error for ShaderError {}",
        "impl std::error::Error for ShaderError {\n"
        "    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {\n"
        "        None\n    }\n}",
    )
    files = {"Cargo.toml": '[package]\nname = "gl"\n', "src/lib.rs": sourced}
    _, record = committed_and_extracted(files, "o/gl", tmp_path / "2", "Failed linking shader")
    assert any("`source()` chain" in t for t in record["preventionTips"]), record["preventionTips"]
