"""A method called by name alone (its receiver's type unknown) is one of the repository's
methods of that name only if it takes as many arguments as the call passes: Rust has no
default or variadic arguments. nushell's `df.column(&name)`, on a polars `DataFrame`, had
been taken for `NuDataFrame::column(column, span)` (a wrong hop of stop 51's reading), and
cargo's `OpenOptions::new().write(true).create(true)` for `OnePasswordKeychain::create()`
(156 such edges on cargo, 368 on risingwave, 494 on quickwit). A call in a macro's tokens
is not counted (a closure's `|a, b|` commas), and the rule only ever removes: a name with
too many methods to guess among still has no edge."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

SOURCE = """\
pub struct Keychain;
impl Keychain {
    pub fn create(&self) -> u32 { 1 }
}
pub struct Frame;
impl Frame {
    pub fn column(&self, name: &str, span: u32) -> u32 { span }
}
pub fn open() {
    std::fs::OpenOptions::new().write(true).create(true);
}
pub fn lookup(name: &str) -> u32 {
    load().column(name)
}
pub fn made() -> u32 {
    keychain().create()
}
pub fn logged() {
    println!("{}", keychain().create(1, 2));
}
"""


def test_a_method_called_by_name_takes_as_many_arguments_as_the_call_passes(
    tmp_path: Path,
) -> None:
    edges = [e for e in calls_in(tmp_path, SOURCE) if e[2] in ("Keychain::create", "Frame::column")]
    assert edges == [
        ("logged", 19, "Keychain::create", "name"),  # in a macro's tokens: not counted
        ("made", 16, "Keychain::create", "name"),
    ]
