"""A variant's builders that give it back as another type: a `match` on `Err(E::V { .. })`
does not type-check where a caller holds that type, so the record matches the error by its
text, which that type's `Display` prints. vector's `HealthcheckError::UnknownBucket { .. }
.into()` in a fn that returns `crate::Result<()>` (a `Box<dyn Error>`), risingwave's
`HummockError::decode_error(..) -> HummockError` wrapping a `HummockErrorInner` (reading
231: 8 FALSE typed matches in 21 records). Where a `Result` alias the index does not follow
may hold the enum itself (`use risingwave_expr::Result`, whose default error is
`ExprError`), the typed match stays."""

from __future__ import annotations

from pathlib import Path

from test_reach import committed_and_extracted

ERRORS = """\
#[derive(Debug, thiserror::Error)]
pub enum HealthError {
    #[error("unknown bucket {0}")]
    UnknownBucket(String),
    #[error("bucket {0} is read-only")]
    ReadOnly(String),
    #[error("bucket {0} is full")]
    Full(String),
    #[error("bucket {0} is missing")]
    Missing(String),
}

#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct Wrapper(Box<HealthError>);

impl Wrapper {
    pub fn read_only(bucket: &str) -> Self {
        Wrapper(Box::new(HealthError::ReadOnly(bucket.to_string())))
    }
}
"""

CHECKS = """\
use crate::error::{HealthError, Wrapper};

pub fn healthcheck(bucket: &str) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    if bucket.is_empty() {
        return Err(HealthError::UnknownBucket(bucket.to_string()).into());
    }
    Ok(())
}

pub fn write(bucket: &str) -> Result<(), Wrapper> {
    Err(Wrapper::read_only(bucket))
}

pub fn fill(bucket: &str) -> Result<(), HealthError> {
    Err(HealthError::Full(bucket.to_string()))
}

pub fn probe(bucket: &str) {
    let error = HealthError::Missing(bucket.to_string());
    log::error!("{error}");
}
"""

FILES = {
    "Cargo.toml": '[package]\nname = "sink"\n',
    "src/lib.rs": "pub mod checks;\npub mod error;\n",
    "src/error.rs": ERRORS,
    "src/checks.rs": CHECKS,
}


def test_a_variant_given_back_boxed_as_a_trait_object_is_matched_by_its_text(
    tmp_path: Path,
) -> None:
    _, record = committed_and_extracted(FILES, "o/sink", tmp_path, "unknown bucket")
    assert 'Err(e) if e.to_string().contains("unknown bucket") =>' in record["tryCatchPattern"]
    assert "HealthError::UnknownBucket" not in record["tryCatchPattern"]


def test_a_variant_wrapped_by_a_constructor_of_another_type_is_matched_by_its_text(
    tmp_path: Path,
) -> None:
    _, record = committed_and_extracted(FILES, "o/sink", tmp_path, "bucket {0} is read-only")
    assert 'e.to_string().contains("is read-only")' in record["tryCatchPattern"]


def test_a_variant_returned_as_its_enum_keeps_its_typed_match(tmp_path: Path) -> None:
    _, record = committed_and_extracted(FILES, "o/sink", tmp_path, "bucket {0} is full")
    assert "Err(HealthError::Full { .. }) =>" in record["tryCatchPattern"]


def test_an_alias_the_index_does_not_follow_keeps_the_typed_match(tmp_path: Path) -> None:
    """`pub type Result<T, E = HealthError>` in one crate, `use core::Result` in another:
    the builder's `Result<()>` may well be the enum's."""
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["core", "app"]\n',
        "core/Cargo.toml": '[package]\nname = "core"\n',
        "core/src/lib.rs": "pub mod error;\npub type Result<T, E = error::HealthError> ="
        " std::result::Result<T, E>;\n",
        "core/src/error.rs": ERRORS,
        "app/Cargo.toml": '[package]\nname = "app"\n\n[dependencies]\ncore = { path = "../core" }\n',
        "app/src/lib.rs": "use core::Result;\nuse core::error::HealthError;\n"
        "pub fn fill(bucket: &str) -> Result<()> {\n"
        "    Err(HealthError::Full(bucket.to_string()))\n}\n",
    }
    _, record = committed_and_extracted(files, "o/app", tmp_path, "bucket {0} is full")
    assert "Err(HealthError::Full { .. }) =>" in record["tryCatchPattern"]


def test_a_variant_no_builder_returns_has_no_match_to_offer(tmp_path: Path) -> None:
    """vector's `Lua::hook_init` logs `RuntimeErrorHooksInit` and returns `()`: no caller
    holds it, in any type (reading 231's recheck: "another error type" was FALSE there)."""
    _, record = committed_and_extracted(FILES, "o/sink", tmp_path, "bucket {0} is missing")
    assert record["tryCatchPattern"] is None
    # nor "when code returns it", nor "handle this error where it is returned" (the recheck)
    assert record["commonSituations"].startswith(
        "When code builds a `HealthError::Missing` (no fn that builds it returns it: it is"
        " logged, dropped or handed on there)"
    )
    assert not any("where it is returned" in s for s in record["solutions"])
    assert any("no fn that builds it returns it" in s for s in record["solutions"])


def test_of_two_types_of_one_name_in_a_crate_the_conversion_is_the_one_beside_the_site() -> None:
    """greptimedb's cli crate has `import_v2::error::Error` and `export_v2::error::Error`,
    each with its `status_code`: an import error read "reaches the client through
    Error::status_code (src/cli/src/data/export_v2/error.rs:212)" (reading 230: FALSE). The
    type a file means is its own, or the one its `use` names."""
    from test_reach import _graph_of

    from pipeline.scan.callerpaths import user_conversion

    def module(name: str) -> str:
        return (
            "#[derive(Debug)]\npub enum Error {\n    Missing,\n}\n"
            "impl Error {\n    pub fn status_code(&self) -> StatusCode {\n"
            f"        StatusCode::{name}\n    }}\n}}\n"
        )

    graph = _graph_of(
        {
            "src/cli/src/export_v2/error.rs": module("Internal"),
            "src/cli/src/import_v2/error.rs": module("InvalidArguments"),
            "src/cli/src/import_v2/command.rs": "use super::error::Error;\npub fn run() {}\n",
            "src/cli/src/main.rs": "pub fn main() {}\n",
        }
    )

    assert user_conversion(graph, "Error", "src/cli/src/import_v2/command.rs")[0] == (
        "Error::status_code (src/cli/src/import_v2/error.rs:6)"
    )
    assert user_conversion(graph, "Error", "src/cli/src/export_v2/error.rs")[0] == (
        "Error::status_code (src/cli/src/export_v2/error.rs:6)"
    )
    # a file that says nothing of either: no guess
    assert user_conversion(graph, "Error", "src/cli/src/main.rs") == (None, None)
