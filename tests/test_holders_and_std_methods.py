"""What a receiver's written type says of the methods it runs: a holder is seen through also
when written with its path (`parking_lot::Mutex<Option<TocDispatcher>>`: qdrant's
`dispatcher.consensus_state()` had gone by name to another `Dispatcher`'s) or an
`AtomicRefCell` (qdrant's id trackers and payload indexes); and a std type's own method runs
before a trait's of the name the repository implements for that type (risingwave's
`impl WithPropertiesExt for BTreeMap<..>`'s `get` had every typed map's `.get(..)`: 663
edges), while a method std's types lack stays the repository's."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in, labelled_edges
from test_reach import graph_of

from pipeline.scan.names import inner_type

SOURCE = """\
use std::collections::HashMap;
use std::sync::Arc;
pub struct TocDispatcher;
impl TocDispatcher { pub fn consensus_state(&self) -> u32 { 1 } }
pub struct Tracker;
impl Tracker { pub fn fix(&self) -> u32 { 2 } }
pub struct Toc {
    dispatcher: parking_lot::Mutex<Option<TocDispatcher>>,
    tracker: Arc<atomic_refcell::AtomicRefCell<Tracker>>,
}
impl Toc {
    pub fn state(&self) -> u32 {
        let dispatcher = self.dispatcher.lock().clone().unwrap();
        dispatcher.consensus_state() + self.tracker.borrow_mut().fix()
    }
}
pub trait PropertiesExt {
    fn get(&self, key: &str) -> Option<&String>;
    fn connector(&self) -> Option<&String>;
}
impl PropertiesExt for HashMap<String, String> {
    fn get(&self, key: &str) -> Option<&String> { None }
    fn connector(&self) -> Option<&String> { None }
}
pub fn props(map: &HashMap<String, String>) -> bool {
    map.get("a").is_some() && map.connector().is_some()
}
"""


def test_a_holder_written_with_its_path_is_seen_through() -> None:
    assert inner_type("parking_lot::Mutex<Option<TocDispatcher>>") == "TocDispatcher"
    assert inner_type("Arc<atomic_refcell::AtomicRefCell<Tracker>>") == "Tracker"
    assert inner_type("std::pin::Pin<Box<dyn Stream + Send>>") == "Stream"
    assert inner_type("OnceLock<Config>") == "OnceLock"  # cargo defines its own: not a holder


def test_a_deref_s_target_is_what_a_method_runs_on() -> None:
    """tikv's `fn handle_normal(&mut self, normal: &mut impl DerefMut<Target = ApplyFsm<EK>>)`
    calls `normal.resume_pending(..)`, `ApplyFsm`'s: 40 records under it had no caller."""
    assert inner_type("&mut impl DerefMut<Target = ApplyFsm<EK>>") == "ApplyFsm"
    assert inner_type("impl std::ops::Deref<Target=Arc<Store>>") == "Store"
    assert inner_type("Box<dyn Deref<Target = Engine>>") == "Engine"
    assert inner_type("impl Deref") == "Deref"  # no target written: nothing to see through


def test_calls_through_holders_and_a_std_type_s_own_methods(tmp_path: Path) -> None:
    edges = [e for e in calls_in(tmp_path, SOURCE) if e[0] in ("Toc::state", "props")]
    assert edges == [
        ("Toc::state", 14, "TocDispatcher::consensus_state", "type"),
        ("Toc::state", 14, "Tracker::fix", "type"),
        # `map.get(..)` is `HashMap::get`, std's: no edge; `connector` is the trait's
        ("props", 26, "HashMap::connector", "type"),
    ]


BYTES = """\
pub struct ByteStream;
impl ByteStream {
    pub fn into_bytes(self) -> Vec<u8> { vec![] }
}
pub fn collect(stream: ByteStream) -> Vec<u8> {
    stream.into_bytes()
}
pub fn complete(raw: Vec<u8>) -> Vec<u8> {
    match String::from_utf8(raw) {
        Ok(text) => text.into_bytes(),
        Err(err) => err.into_bytes(),
    }
}
"""


def test_a_std_string_s_conversion_on_an_unknown_value_is_no_call_of_the_repository_s(
    tmp_path: Path,
) -> None:
    """nushell's `Complete::run` turns a `FromUtf8Error` back into bytes (`err.into_bytes()`):
    matched by name, it had run the repository's `ByteStream::into_bytes`, and the record of a
    child process's panic named `complete` as a way in (reading 282). A typed value's call
    is still its type's."""
    assert calls_in(tmp_path, BYTES) == [("collect", 6, "ByteStream::into_bytes", "type")]


STREAMER = """\
pub struct Writer;
impl Writer {
    pub fn extend_from_slice(&mut self, items: &[u8]) {}
}
pub struct TermStreamer<'a, A = AlwaysMatch>
where A: Automaton
{
    fst_map: &'a TermDictionary,
    current_key: Vec<u8>,
}
impl<A> TermStreamer<'_, A>
where A: Automaton
{
    pub fn advance(&mut self, term: &[u8]) {
        self.current_key.extend_from_slice(term);
    }
}
"""
SSTABLE = "pub type TermStreamer<'a, A = AlwaysMatch> = Streamer<'a, TermSSTable, A>;\n"


def test_a_field_of_a_struct_an_alias_shares_the_name_of_is_the_struct_s(tmp_path: Path) -> None:
    """tantivy builds its term dictionary from fst (`struct TermStreamer`) or sstable (`type
    TermStreamer = Streamer<..>`): `self.current_key` is the struct's `Vec<u8>`, and its
    `extend_from_slice` std's; read through the alias it had no type, and the call went by
    name to the stacker's writer, a slice-copy panic's way in (reading 301)."""
    files = {"Cargo.toml": '[package]\nname = "tv"\n', "src/lib.rs": STREAMER + SSTABLE,
             "src/streamer.rs": "pub struct Streamer { x: u32 }\n"}  # fmt: skip
    assert labelled_edges(graph_of(tmp_path, files)) == []


# just's `Switch::apply` (reading 316): `switch` comes out of a loop over a `Vec` the code
# does not type, and `apply` is a verb no std type has; `Value::apply` takes other arguments
VERBS = """\
pub enum Switch { Long(String) }
impl Switch {
    pub fn apply(self, recipe: &str, value: Option<&str>) -> Result<(), String> { Ok(()) }
}
pub struct Value;
impl Value {
    pub fn apply(&self, other: &Value) -> Value { Value }
}
pub struct Builder;
impl Builder {
    pub fn build(&mut self) -> u32 {
        let builder = self.inner().enable_all();
        builder.build()
    }
    fn inner(&self) -> Other { Other }
}
pub fn parse(names: &[&str]) -> Result<(), String> {
    let switches = names.iter().map(|n| make(n)).collect::<Vec<_>>();
    for (index, switch) in switches.into_iter().enumerate() {
        switch.apply("r", None)?;
    }
    let map = std::collections::HashMap::<u32, u32>::new();
    map.clear();
    Ok(())
}
"""


def test_a_verb_no_std_type_has_goes_to_the_type_its_receiver_is_named_after(
    tmp_path: Path,
) -> None:
    edges = [e for e in calls_in(tmp_path, VERBS) if e[2].endswith(("apply", "build"))]
    # `switch.apply(..)` is `Switch`'s; inside `Builder::build`, `builder.build()` is the
    # other crate's builder a chain made, not a call of itself
    assert edges == [("parse", 20, "Switch::apply", "name")]


def test_a_verb_s_receiver_named_after_another_crate_s_type_is_no_call_of_it(
    tmp_path: Path,
) -> None:
    """greptimedb's every `builder.build()` had become `common_runtime::Builder::build`."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[workspace]\nmembers = ["runtime", "table"]\n',
        "runtime/Cargo.toml": '[package]\nname = "runtime"\n',
        "runtime/src/lib.rs": "pub struct Builder;\nimpl Builder {\n"
        "    pub fn build(&self) -> u32 { 1 }\n}\n",
        "table/Cargo.toml": '[package]\nname = "table"\n',
        "table/src/lib.rs": "pub fn meta(names: &[u32]) -> u32 {\n"
        "    for builder in names.iter().map(|n| make(n)) {\n"
        "        return builder.build();\n    }\n    0\n}\n",
    })  # fmt: skip
    assert [e for e in labelled_edges(graph) if e[2].endswith("build")] == []


# just's `Subcommand::execute`: `justfile.run(..)` in its `--command` arm, on a `justfile` the
# link does not type; `Justfile::run` has a typed caller (the plain run's), whose way in the
# records give (recheck 316: the shorter way through the namesake call is one no run takes)
NAMESAKE = """\
pub struct Justfile;
impl Justfile {
    pub fn run(&self, n: u32) -> u32 { n }
}
pub fn plain(justfile: &Justfile) -> u32 {
    justfile.run(1)
}
pub fn command(compilation: &Compilation) -> u32 {
    let justfile = compilation.justfile();
    justfile.run(2)
}
"""


def test_a_namesake_call_is_kept_only_for_a_fn_nothing_else_calls(tmp_path: Path) -> None:
    edges = [e for e in calls_in(tmp_path, NAMESAKE) if e[2] == "Justfile::run"]
    assert edges == [("plain", 6, "Justfile::run", "type")]
    alone = NAMESAKE.replace("    justfile.run(1)\n", "    1\n")
    edges = [e for e in calls_in(tmp_path / "alone", alone) if e[2] == "Justfile::run"]
    assert edges == [("command", 10, "Justfile::run", "name")]
