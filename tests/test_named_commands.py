"""Commands users type by name are entry points by code shape (issue 10: "entry points
recognised by code shape, for any repository"): an impl that names itself with a string
literal and has a `run` (nushell's `impl Command for MathStddev { fn name(&self) -> &str {
"math stddev" } fn run(..) }`), found by the engine at run time and called by nothing in the
repository but through `dyn Command`."""

from __future__ import annotations

from test_reach import node

from pipeline.analyze.reach_text import trigger_sentence
from pipeline.core.reach import Reach
from pipeline.languages.rust.index import index_file
from pipeline.scan.callerpaths import caller_paths
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypoints import build_graph

ENGINE = """\
pub trait Command {
    fn name(&self) -> &str;
    fn run(&self, input: &str) -> Result<u8, String>;
}
pub trait Node {
    fn name(&self) -> &str;
    fn spawn(&self) -> Result<(), String>;
}
pub fn eval(decl: &dyn Command, input: &str) -> Result<u8, String> {
    decl.run(input)
}
"""
STRINGS = """\
use crate::engine::{Command, Node};
pub struct StrLength;
impl Command for StrLength {
    fn name(&self) -> &str {
        "str length"
    }
    fn run(&self, input: &str) -> Result<u8, String> {
        measure(input)
    }
}
fn measure(input: &str) -> Result<u8, String> {
    if input.len() > 255 {
        return Err(format!("input too long: {}", input.len()));
    }
    Ok(input.len() as u8)
}
pub struct Quoted;
impl Command for Quoted {
    fn name(&self) -> &str { "say \\"hi\\"" }
    fn run(&self, input: &str) -> Result<u8, String> { measure(input) }
}
pub struct Computed;
impl Command for Computed {
    fn name(&self) -> &str { NAMES[0] }
    fn run(&self, input: &str) -> Result<u8, String> { measure(input) }
}
const NAMES: [&str; 1] = ["computed"];
pub struct Sorter;
impl Node for Sorter {
    fn name(&self) -> &str { "sort" }
    fn spawn(&self) -> Result<(), String> { Err("no input".into()) }
}
"""
FILES = {
    "crates/cmd/src/lib.rs": "pub mod strings;\npub mod engine;\n",
    "crates/cmd/src/engine.rs": ENGINE,
    "crates/cmd/src/strings.rs": STRINGS,
}


def _graph() -> CallGraph:
    return build_graph({path: index_file(path, text.encode()) for path, text in FILES.items()})


def test_a_fn_whose_body_is_one_string_literal_keeps_it_in_the_index() -> None:
    index = index_file("crates/cmd/src/strings.rs", STRINGS.encode())
    values = {(d.owner, d.name): d.value for d in index.definitions if d.kind == "fn"}
    assert values[("StrLength", "name")] == '"str length"'
    assert values[("Quoted", "name")] == '"say \\"hi\\""'
    assert values[("Computed", "name")] is None  # a const's element: no literal
    assert values[("StrLength", "run")] is None  # a call
    assert values[(None, "measure")] is None


def test_an_impl_named_by_a_literal_with_a_run_is_a_command_users_type() -> None:
    graph = _graph()
    assert graph.entries[node(graph, "StrLength::run")] == ("cli", "command `str length`")
    # escapes make no plain name; a computed name is no literal; no `run`: no command
    for label in ("Quoted::run", "Computed::run", "Sorter::spawn", "Sorter::name"):
        assert graph.entries.get(node(graph, label), ("none",))[0] != "cli", label

    paths = caller_paths(graph, node(graph, "measure"))
    found = [(p.entry, p.entry_label, [h.name for h in p.hops]) for p in paths]
    # the command first; the library's `eval` reaches every impl's `run` through `dyn Command`
    assert found[0] == ("cli", "command `str length`", ["StrLength::run", "measure"])
    assert ("pub-api", "public API `cmd::engine::eval`") in [(e, lab) for e, lab, _ in found]


def test_the_static_text_names_the_command() -> None:
    graph = _graph()
    paths = caller_paths(graph, node(graph, "StrLength::run"))
    sentence = trigger_sentence(Reach(paths=paths, callers=1), "0123456789abcdef")
    assert sentence is not None
    assert "`StrLength::run` is itself an entry point: command `str length`." in sentence


TYPED = """\
pub struct TypableCommand {
    pub name: &'static str,
    pub doc: &'static str,
    pub fun: fn(&mut Context, &[&str]) -> anyhow::Result<()>,
}
pub const TYPABLE_COMMAND_LIST: &[TypableCommand] = &[
    TypableCommand {
        name: "move",
        doc: "Move the current buffer and its file.",
        fun: move_buffer,
    },
    TypableCommand {
        name: "reload",
        doc: "Discard changes and reload from the source file.",
        fun: reload::run,
    },
];
fn move_buffer(cx: &mut Context, args: &[&str]) -> anyhow::Result<()> {
    if args.len() != 1 {
        anyhow::bail!("Bad arguments. Usage: `:move path`");
    }
    Ok(())
}
fn default_profile(count: usize) -> Profile {
    Profile { name: "default", count, make: count }
}
fn count() -> usize { 1 }
fn make() {}
mod reload {
    pub fn run(cx: &mut Context, args: &[&str]) -> anyhow::Result<()> { Ok(()) }
}
"""


def test_a_table_s_registration_is_a_command_users_type_by_its_name() -> None:
    index = index_file("helix-term/src/commands/typed.rs", TYPED.encode())
    # the table's two rows; not `Profile { name: "default", count, make: count }` in a fn
    assert [(r.method, r.path, r.handler, r.owner) for r in index.routes] == [
        ("CMD", "move", "move_buffer", "TypableCommand"),
        ("CMD", "reload", "reload::run", "TypableCommand"),
    ]
    graph = build_graph({"helix-term/src/commands/typed.rs": index})
    assert graph.entries[node(graph, "move_buffer")] == (
        "cli",
        "command `move` (`TypableCommand`)",
    )
    assert graph.entries[node(graph, "run")] == ("cli", "command `reload` (`TypableCommand`)")
    for label in ("count", "make", "default_profile"):
        assert node(graph, label) not in graph.entries, label
    paths = caller_paths(graph, node(graph, "move_buffer"))
    assert [(p.entry, [h.name for h in p.hops]) for p in paths] == [("cli", ["move_buffer"])]


def test_a_changed_file_keeps_its_table_s_registrations_when_indexed_by_unit() -> None:
    from pipeline.languages.rust.index import index_file_after

    path = "helix-term/src/commands/typed.rs"
    changed = TYPED.replace("Bad arguments.", "Wrong arguments.").replace('"reload"', '"rl"')
    old = index_file(path, TYPED.encode())
    assert index_file_after(path, changed.encode(), TYPED.encode(), old) == index_file(
        path, changed.encode()
    )
    assert [r.path for r in index_file(path, changed.encode()).routes] == ["move", "rl"]
