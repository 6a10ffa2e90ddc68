"""A receiver made by a fn of a type the repository never defines (`Registry::default()`,
`Command::new("git").arg("log")`) is another crate's value: a method call on it goes to no
same-named method of a type of the repository's (rustup's `Registry::default().with(layer)`,
tracing_subscriber's, went by name to `SettingsFile::with` and `StateFile::with`, putting
its settings-file errors on a path from `main` through the logger). It goes to a method the
repository gives that type (lemmy's `impl Into<DbUrl> for Url`, vector's `ServiceBuilderExt`
for tower's `ServiceBuilder`), and where the repository gives any other crate's type a
method of the name (tauri's `CommandExt` for `Command`, tikv's `ResultExt` for `Result`:
the value may be one), the call keeps the name rules. A type of the repository's, one a `use
.. as` renames, a holder or a std type (`Vec::from(..).pop()`), and a chain through a std
method (`.unwrap()`, `.into()`) may be the repository's value: those keep the name rules
too. An adapter's name on another crate's value is the adapter (`ReceiverStream::new(rx)
.boxed()` is futures' `StreamExt::boxed`, not a blanket impl's `boxed`). A `let` of such a
value's method holds another crate's value, whatever same-named methods of ours return."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

SOURCE = """\
use tracing_subscriber::Registry;
use std::process::Command;
pub use crate::files::SettingsFile as Settings;
pub struct StateFile;
impl StateFile {
    pub fn with(&self, layer: u32) -> u32 { layer }
}
pub mod files {
    pub struct SettingsFile;
    impl SettingsFile {
        pub fn with(&self, layer: u32) -> u32 { layer }
        pub fn open() -> Self { SettingsFile }
    }
}
pub fn subscriber() -> u32 {
    Registry::default().with(1);
    Registry::default().with(1).with(2);
    Settings::open().with(3)
}
pub trait CommandExt {
    fn output_ok(&mut self) -> u32;
}
impl CommandExt for Command {
    fn output_ok(&mut self) -> u32 { 0 }
}
pub struct ChunkState;
impl ChunkState {
    pub fn output(&self) -> u32 { 1 }
}
pub fn version() -> u32 {
    Command::new("rustc").arg("-V").output();
    Command::new("rustc").arg("-V").output_ok()
}
pub struct DbUrl;
impl Into<DbUrl> for url::Url {
    fn into(self) -> DbUrl { DbUrl }
}
pub struct Reader;
impl Reader {
    pub fn into(self) -> u32 { 2 }
    pub fn finish(&self) -> u32 { 3 }
}
pub fn store(s: &str) -> anyhow::Result<DbUrl> {
    csv::ReaderBuilder::new().finish();
    Ok(url::Url::parse(s)?.into())
}
pub trait Expression {}
pub trait Boxed {
    fn boxed(self) -> u32;
}
impl<E: Expression> Boxed for E {
    fn boxed(self) -> u32 { 4 }
}
pub fn stream(rx: u32) -> u32 {
    ReceiverStream::new(rx).boxed()
}
pub struct Components;
pub struct ComponentBuilder;
impl Components {
    pub fn add(&self, name: &str) -> ComponentBuilder { ComponentBuilder }
}
impl ComponentBuilder {
    pub fn finish(self) -> u32 { 5 }
}
pub fn check_updates(components: &Components) -> u32 {
    let bars = indicatif::MultiProgress::new();
    let pb = bars.add(indicatif::ProgressBar::new(1));
    pb.finish();
    let builder = components.add("rustc");
    builder.finish()
}
"""


def edges_of(tmp_path: Path, caller: str) -> list[tuple[str, int, str, str]]:
    return [e for e in calls_in(tmp_path, SOURCE) if e[0] == caller]


def test_a_call_on_another_crate_s_value_reaches_no_same_named_method_of_ours(
    tmp_path: Path,
) -> None:
    assert edges_of(tmp_path, "subscriber") == [
        # lines 16 and 17 have none; `Settings` is the repository's `SettingsFile`, renamed
        # by a `use` (`test_renamed_types`): its `open`, and its value's `with`
        ("subscriber", 18, "SettingsFile::open", "type"),
        ("subscriber", 18, "SettingsFile::with", "type"),
    ]


def test_a_method_we_give_another_crate_s_type_is_its_or_may_be(tmp_path: Path) -> None:
    assert edges_of(tmp_path, "version") == [
        # `.output()`: std's, not `ChunkState::output`; `.output_ok()`: `impl CommandExt for
        # Command` may be it, so the name rules keep it (the trait's declaration, its impl)
        ("version", 32, "Command::output_ok", "trait"),
        ("version", 32, "CommandExt::output_ok", "trait"),
    ]
    assert edges_of(tmp_path, "store") == [
        # `ReaderBuilder::new().finish()`: csv's, not `Reader::finish`; `Url::parse(s)?.into()`
        # is the `impl Into<DbUrl> for url::Url`'s, by its type
        ("store", 45, "Url::into", "type"),
    ]


def test_an_adapter_on_another_crate_s_value_is_the_adapter(tmp_path: Path) -> None:
    assert edges_of(tmp_path, "stream") == []


def test_a_let_of_another_crate_s_value_s_method_is_no_type_of_ours(tmp_path: Path) -> None:
    """rustup's `let pb = multi_progress_bars.add(ProgressBar::new(1))` on an indicatif
    `MultiProgress`: what the repository's methods named `add` return (`Components::add`'s
    `ComponentBuilder`) is no guess for it, so `pb.finish()` is the bar's, not
    `ComponentBuilder::finish`. The repository's own value keeps its type."""
    assert edges_of(tmp_path, "check_updates") == [
        ("check_updates", 69, "Components::add", "type"),
        ("check_updates", 70, "ComponentBuilder::finish", "type"),
    ]
