"""A `let` in a nested block (a loop's body, an `if`'s, a closure's) binds its name up to the
block's end only, where the index sees another binding of the name (a parameter, another
`let`) to return to: vector's `build_instrumented_source(.., source: &SourceOuter, ..)` binds
`let source = Arc::new(key.clone())` inside a `for` loop, and its `source.inner.build(context)`
after the loop is the parameter's again, a `dyn SourceConfig`'s `build` (every source's, 50
of vector's records had no caller). Before, the inner `let` typed every later use."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

from pipeline.languages.rust.index import index_file

SOURCE = """\
pub struct Outer { pub inner: Config }
pub struct Config;
impl Config {
    pub fn build(&self) -> u32 { 1 }
}
pub struct Key;
impl Key {
    pub fn build(&self) -> u32 { 2 }
}
pub fn instrumented(source: &Outer, keys: Vec<u32>) -> u32 {
    for k in keys {
        let source: Key = key();
        source.build();
    }
    source.inner.build()
}
pub fn alone(flag: bool, fallback: Config) -> u32 {
    if flag {
        let c: Key = key();
    }
    let c = fallback;
    c.build()
}
pub fn kept(flag: bool) -> u32 {
    if flag {
        let d: Config = config();
    }
    let d = if flag { config() } else { config() };
    d.build()
}
pub fn nested(flag: bool) -> u32 {
    let a: Config = config();
    if flag {
        let a: Key = key();
        a.build();
    }
    a.build()
}
"""


def test_a_let_in_a_nested_block_ends_with_the_block(tmp_path: Path) -> None:
    edges = [
        e for e in calls_in(tmp_path, SOURCE) if e[0] in ("alone", "instrumented", "kept", "nested")
    ]
    assert edges == [
        # the block's `let` then `let c = fallback`, typed as `fallback` is
        ("alone", 22, "Config::build", "type"),
        ("instrumented", 13, "Key::build", "type"),
        ("instrumented", 15, "Config::build", "type"),  # the parameter's again
        # the only binding the index sees (an `if`'s value says no type): kept after its
        # block, as before (such a rebinding is most often of the same type: tikv's `config`)
        ("kept", 29, "Config::build", "type"),
        ("nested", 35, "Key::build", "type"),
        ("nested", 37, "Config::build", "type"),
    ]


def test_the_index_keeps_the_block_s_last_line() -> None:
    index = index_file("src/lib.rs", SOURCE.encode())
    assert [(local.name, local.line, local.end) for local in index.locals] == [
        ("k", 11, 14),  # the loop's name: the loop's last line, as before
        ("source", 12, 14),
        ("c", 19, 20),
        ("c", 21, 0),
        ("d", 26, 27),
        ("a", 32, 0),  # the fn's own body: no end
        ("a", 34, 36),
    ]
