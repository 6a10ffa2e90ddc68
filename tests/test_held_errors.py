"""An error type's variant that every builder returns inside anyhow's `Result` reaches its
callers as an `anyhow::Error` (rustup's `utils::read_dir` builds `RustupError::
ReadingDirectory` in a `.with_context(..)`): its handling finds it by its text in the
error's chain, since a `match` on `Err(RustupError::ReadingDirectory { .. })` does not
compile there. A variant some fn returns as the enum itself keeps that `match`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from test_reach import graph_of, line_of_text

from pipeline.analyze.crate_only import catch_for_the_namers
from pipeline.analyze.static import explain
from pipeline.core.reach import ANYHOW_OR_ITSELF, Reach
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import site_reach
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

ERRORS = """\
#[derive(thiserror::Error, Debug)]
pub enum AppError {
    #[error("could not read {name} directory: '{}'", path.display())]
    ReadingDirectory { name: &'static str, path: std::path::PathBuf },
    #[error("toolchain '{0}' is not installed anywhere")]
    NotInstalled(String),
    #[error("unknown component requested somewhere")]
    UnknownComponent,
    #[error("the key cannot be encoded at all")]
    Unencodable,
}
"""
UTILS = """\
use anyhow::{Context, Result};
use crate::errors::AppError;
pub fn read_dir(name: &'static str, path: &std::path::Path) -> Result<std::fs::ReadDir> {
    std::fs::read_dir(path).with_context(|| AppError::ReadingDirectory {
        name,
        path: path.to_path_buf(),
    })
}
pub fn find(name: &str) -> anyhow::Result<u8> {
    Err(AppError::NotInstalled(name.to_string()).into())
}
pub fn check(name: &str) -> std::result::Result<u8, AppError> {
    Err(AppError::NotInstalled(name.to_string()))
}
pub fn component(ok: bool) -> Result<u8, anyhow::Error> {
    if !ok {
        return Err(AppError::UnknownComponent.into());
    }
    Ok(1)
}
pub fn encode_key(key: &str) -> ::anyhow::Result<Vec<u8>> {
    Ok(storekey::encode_vec(key).map_err(|_| AppError::Unencodable)?)
}
"""
FILES = {
    "Cargo.toml": '[package]\nname = "app"\n',
    "src/lib.rs": "pub mod errors;\npub mod utils;\n",
    "src/errors.rs": ERRORS,
    "src/utils.rs": UTILS,
}


def reach_of(tmp_path: Path, needle: str) -> Reach:
    graph = graph_of(tmp_path, FILES)
    reach = site_reach(graph, "src/errors.rs", line_of_text(ERRORS, needle))
    assert reach is not None
    return reach


def test_a_variant_every_builder_returns_in_anyhow_s_result_is_held_in_an_anyhow_error(
    tmp_path: Path,
) -> None:
    # `Result` imported from anyhow; `Result<u8, anyhow::Error>` written out
    assert reach_of(tmp_path, "could not read").held_in == "anyhow::Error"
    assert reach_of(tmp_path, "unknown component").held_in == "anyhow::Error"
    # `::anyhow::Result<Vec<u8>>`, a path from the root (surrealdb's `encode_key`)
    assert reach_of(tmp_path, "cannot be encoded").held_in == "anyhow::Error"
    # `check` returns the enum itself, `find` in anyhow's `Result`: a caller holds either
    assert reach_of(tmp_path, "is not installed").held_in == ANYHOW_OR_ITSELF


def matched(arm: str, message: str) -> str:
    """The `tryCatchPattern` the static analyzer writes for an arm that handles `message`."""
    return (
        f"match result {{\n    {arm} => {{\n        // handle {message}\n    }}\n"
        "    other => {\n        other?;\n    }\n}"
    )


def handling(message_start: str, reach: Reach) -> str | None:
    scan = find_sites("src/errors.rs", ERRORS.encode())
    contexts = build_contexts("acme/app", "ab" * 20, RepoScan(scans={"src/errors.rs": scan}))
    (context,) = [c for c in contexts if c.site.message.startswith(message_start)]
    return explain(replace(context, reach=reach)).tryCatchPattern


def test_its_handling_finds_it_in_the_chain_not_by_a_match_on_the_variant() -> None:
    """`Err(AppError::ReadingDirectory { .. })` does not type-check on an `anyhow::Result`;
    its text (`contains("could not read")`) is no one error's either (rustup's
    `ReadingFile` reads "could not read .. file", reading 312's recheck): the type is found
    by anyhow's `downcast_ref`, and its variant matched. Not in `e.chain()`, where an error
    attached by `.with_context(|| AppError::ReadingDirectory { .. })` is a `ContextError`
    that downcasts to no `AppError` (its second recheck, run against anyhow 1.0.104)."""
    held = Reach(built="AppError::ReadingDirectory", callers=1, held_in="anyhow::Error")
    assert handling("could not read", held) == (
        "match result {\n"
        "    Err(e) if matches!(e.downcast_ref::<AppError>(), "
        "Some(AppError::ReadingDirectory { .. })) => {\n"
        "        // handle \"could not read {name} directory: '{}'\"\n"
        "    }\n"
        "    other => {\n"
        "        other?;\n"
        "    }\n"
        "}"
    )
    typed = Reach(built="AppError::NotInstalled", callers=2)
    assert (handling("toolchain", typed) or "").startswith(
        "match result {\n    Err(AppError::NotInstalled { .. }) => {"
    )


def test_a_variant_held_both_ways_is_found_by_anyhow_with_the_enum_s_own_arm_named() -> None:
    """surrealdb's `Error::Http`, built by `bail!(Error::Http(..))` in fns of
    `anyhow::Result` and by `impl From<reqwest::Error> for Error`, read `match result {
    Err(Error::Http { .. }) => .. }`, which does not compile on an `anyhow::Result` (reading
    313). Anyhow's form is given, and the enum's own arm is named for its other callers."""
    both = Reach(built="AppError::NotInstalled", callers=2, held_in=ANYHOW_OR_ITSELF)
    assert handling("toolchain", both) == (
        "match result {\n"
        "    Err(e) if matches!(e.downcast_ref::<AppError>(), "
        "Some(AppError::NotInstalled { .. })) => {\n"
        "        // handle \"toolchain '{0}' is not installed anywhere\"\n"
        "    }\n"
        "    other => {\n"
        "        other?;\n"
        "    }\n"
        "}\n"
        "// Where a fn returns `AppError` itself (not in an anyhow::Result), match "
        "`Err(AppError::NotInstalled { .. })` instead."
    )
    # a type only its crate can name: headed so, as the enum's own pattern is (its recheck)
    assert catch_for_the_namers(handling("toolchain", both), "AppError", "crate") == (
        "// Only code in its own crate can name `AppError`; code there could handle it so.\n"
        + (handling("toolchain", both) or "")
    )


BOXED = """\
use crate::errors::AppError;
pub fn verify(ok: bool) -> Result<(), Box<AppError>> {
    if !ok {
        return Err(Box::new(AppError::UnknownComponent));
    }
    Ok(())
}
pub fn lookup(name: &str) -> Result<u8, Box<AppError>> {
    Err(Box::new(AppError::NotInstalled(name.to_string())))
}
pub fn direct(name: &str) -> Result<u8, AppError> {
    Err(AppError::NotInstalled(name.to_string()))
}
"""


def test_a_variant_every_builder_returns_boxed_is_held_in_the_box(tmp_path: Path) -> None:
    """pixi's `PlatformUnsat` variants come back only as `Result<(), Box<PlatformUnsat>>`:
    `Err(PlatformUnsat::X { .. }) =>` does not type-check there (reading 132)."""
    graph = graph_of(tmp_path, {**FILES, "src/utils.rs": BOXED})
    boxed = site_reach(graph, "src/errors.rs", line_of_text(ERRORS, "unknown component"))
    assert boxed is not None and boxed.held_in == "Box<AppError>"
    # `direct` returns the enum itself: a caller of it can match the variant
    mixed = site_reach(graph, "src/errors.rs", line_of_text(ERRORS, "is not installed"))
    assert mixed is not None and mixed.held_in is None
    assert handling("unknown component", boxed) == matched(
        "Err(e) if matches!(*e, AppError::UnknownComponent { .. })",
        '"unknown component requested somewhere"',
    )


WRAPPED = """\
use crate::errors::AppError;
#[derive(Debug)]
pub struct ConfigError {
    file: String,
    kind: AppError,
}
impl ConfigError {
    pub fn new(file: &str, kind: AppError) -> Self {
        Self { file: file.to_string(), kind }
    }
    pub fn kind(&self) -> &AppError {
        &self.kind
    }
}
#[derive(Debug)]
pub struct LoadError(AppError);
pub fn parse(file: &str, ok: bool) -> Result<u8, ConfigError> {
    if !ok {
        return Err(ConfigError::new(file, AppError::UnknownComponent));
    }
    Ok(1)
}
pub type ConfigResult<T> = std::result::Result<T, ConfigError>;
pub fn parse_again(file: &str) -> ConfigResult<u8> {
    Err(ConfigError::new(file, AppError::UnknownComponent))
}
pub fn load(name: &str) -> Result<u8, LoadError> {
    Err(LoadError(AppError::NotInstalled(name.to_string())))
}
#[derive(Debug, thiserror::Error)]
pub enum ShellError {
    #[error(transparent)]
    App(#[from] AppError),
    #[error("other")]
    Other,
}
pub fn list(path: &std::path::Path) -> Result<u8, ShellError> {
    Err(AppError::ReadingDirectory { name: "list", path: path.to_path_buf() }.into())
}
"""


def test_a_variant_every_builder_wraps_in_another_type_is_matched_through_that_type(
    tmp_path: Path,
) -> None:
    """nextest builds `ConfigParseErrorKind::UnknownTestGroups` inside
    `ConfigParseError::new(..)`, and its fns return `Result<_, ConfigParseError>`:
    `Err(ConfigParseErrorKind::UnknownTestGroups { .. }) =>` does not type-check there; its
    `kind()` gives the variant back (reading 131)."""
    graph = graph_of(tmp_path, {**FILES, "src/utils.rs": WRAPPED})
    wrapped = site_reach(graph, "src/errors.rs", line_of_text(ERRORS, "unknown component"))
    assert wrapped is not None
    # `parse_again` returns the crate's alias `ConfigResult<u8>` of the same type
    assert (wrapped.held_in, wrapped.held_by, wrapped.callers) == ("ConfigError", "kind()", 2)
    assert handling("unknown component", wrapped) == matched(
        "Err(e) if matches!(e.kind(), AppError::UnknownComponent { .. })",
        '"unknown component requested somewhere"',
    )
    # `LoadError` has no method that gives the enum back: no pattern is better than a
    # wrong one
    bare = site_reach(graph, "src/errors.rs", line_of_text(ERRORS, "is not installed"))
    assert bare is not None and (bare.held_in, bare.held_by) == ("LoadError", None)
    assert handling("toolchain", bare) is None
    # nushell's `ShellError::Job(#[from] JobError)`: the variant that holds it
    held = site_reach(graph, "src/errors.rs", line_of_text(ERRORS, "could not read"))
    assert held is not None
    assert (held.held_in, held.held_by) == ("ShellError", "ShellError::App")
    assert handling("could not read", held) == matched(
        "Err(ShellError::App(AppError::ReadingDirectory { .. }))",
        "\"could not read {name} directory: '{}'\"",
    )
