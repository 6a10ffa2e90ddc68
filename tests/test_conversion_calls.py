"""A conversion is a call of the target type's impl (issue 10: "call resolution by name with
disambiguation ... the receiver's type where the code shows it"): `let c: PluginCommand =
proto.try_into()?` runs `PluginCommand::try_from`, which no call names. zellij's 254
`PluginCommand::try_from` sites (a plugin's malformed command) had no caller."""

from __future__ import annotations

from test_reach import node

from pipeline.languages.rust.index import index_file
from pipeline.scan.callerpaths import caller_paths
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypoints import build_graph

API = """\
pub struct Proto { pub name: Option<String> }
pub struct Command { pub name: String }
impl TryFrom<Proto> for Command {
    type Error = String;
    fn try_from(proto: Proto) -> Result<Self, String> {
        let name = proto.name.ok_or("Missing name")?;
        Ok(Command { name })
    }
}
pub struct Wire(Vec<u8>);
impl From<Command> for Wire {
    fn from(command: Command) -> Self {
        Wire(command.name.into_bytes())
    }
}
"""
HOST = """\
use crate::api::{Command, Proto, Wire};
pub fn run_plugin_command(proto: Proto) -> Result<(), String> {
    let command: Command = proto
        .try_into()
        .map_err(|e| format!("failed to convert serialized command: {e}"))?;
    let wire: Wire = command.into();
    let again: crate::api::Command = other().try_into().unwrap();
    let bytes: Vec<u8> = wire.0.into();
    let untyped = proto2.try_into()?;
    let called: Command = make(proto3.try_into()?);
    Ok(())
}
fn other() -> Proto { Proto { name: None } }
fn make(c: Command) -> Command { c }
"""
FILES = {"crates/host/src/lib.rs": "pub mod api;\npub mod host;\n",
         "crates/host/src/api.rs": API, "crates/host/src/host.rs": HOST}  # fmt: skip


def _graph() -> CallGraph:
    return build_graph({path: index_file(path, text.encode()) for path, text in FILES.items()})


def test_a_typed_let_of_a_conversion_calls_the_written_type_s_impl() -> None:
    calls = index_file("crates/host/src/host.rs", HOST.encode()).calls
    made = [(c.name, c.qualifier, c.line, c.arity) for c in calls if c.kind == "path"]
    line = {text: no for no, text in enumerate(HOST.splitlines(), 1)}
    assert made == [
        ("try_from", "Command", line["        .try_into()"], 1),  # the method's own line
        ("from", "Wire", line["    let wire: Wire = command.into();"], 1),
        ("try_from", "crate::api::Command", line[
            "    let again: crate::api::Command = other().try_into().unwrap();"], 1),
    ]  # fmt: skip
    # not `Vec<u8>` (the standard library's `from`), an untyped `let`, nor a conversion passed
    # on to a call: the written type is not what `try_into` makes there


def test_the_conversion_s_impl_is_reached_from_the_let_s_fn() -> None:
    graph = _graph()
    try_from, from_ = node(graph, "Command::try_from"), node(graph, "Wire::from")
    callers = {
        callee: sorted((graph.nodes[e.caller].label, e.line) for e in graph.callers[callee])
        for callee in (try_from, from_)
    }
    assert callers == {
        try_from: [("run_plugin_command", 4), ("run_plugin_command", 7)],
        from_: [("run_plugin_command", 6)],
    }
    (path,) = caller_paths(graph, try_from)
    assert [h.name for h in path.hops] == ["run_plugin_command", "Command::try_from"]
    assert path.entry == "pub-api"


COLORS = """\
pub struct Doc;
pub struct Proto { pub rgb: Option<u32> }
pub struct Color(u32);
impl TryFrom<(&str, &Doc)> for Color {
    type Error = String;
    fn try_from((name, doc): (&str, &Doc)) -> Result<Self, String> {
        Err(format!("no color {name}"))
    }
}
impl TryFrom<Proto> for Color {
    type Error = String;
    fn try_from(proto: Proto) -> Result<Self, String> {
        Ok(Color(proto.rgb.ok_or("malformed payload for Rgb color")?))
    }
}
pub struct Wide(f64);
pub struct Narrow(f32);
impl TryFrom<Wide> for Narrow {
    type Error = String;
    fn try_from(wide: Wide) -> Result<Self, String> { Err("out of range".into()) }
}
pub struct Decimal;
impl Decimal {
    pub fn narrow(self) -> Result<Narrow, String> {
        let n: Narrow = self.try_into()?;
        Ok(n)
    }
}
pub fn theme(name: &str, doc: &Doc) -> Result<Color, String> {
    Color::try_from((name, doc))
}
pub fn decode(proto: Proto) -> Result<Color, String> {
    let color: Color = proto.try_into()?;
    Ok(color)
}
pub fn guess(doc: &Doc) -> Result<Color, String> {
    Color::try_from(make())
}
fn make() -> Proto { Proto { rgb: None } }
pub struct Grpc { pub proto: Option<Proto> }
pub fn convert(grpc: Grpc) -> Result<Color, String> {
    let color = grpc.proto.ok_or("missing")?;
    let color = Color::try_from(color)?;
    Ok(color)
}
"""


def calls_into(graph: CallGraph, callee: int) -> list[tuple[str, int, int]]:
    """(caller, line, other candidates) of each edge into `callee`, sorted."""
    return sorted(
        (graph.nodes[e.caller].label, e.line, len(e.candidates)) for e in graph.callers[callee]
    )


def test_a_conversion_takes_the_impl_whose_source_is_the_argument_s_type() -> None:
    graph = build_graph(
        {"crates/ui/src/lib.rs": index_file("crates/ui/src/lib.rs", COLORS.encode())}
    )
    line = {text.strip(): no for no, text in enumerate(COLORS.splitlines(), 1)}
    tuple_impl, proto_impl = sorted(
        i for i, n in enumerate(graph.nodes) if n.label == "Color::try_from"
    )
    narrow = node(graph, "Narrow::try_from")

    # a tuple takes the tuple's impl, a typed name its type's; an argument of no known type
    # keeps both, marked ambiguous (an edge to each, naming the other)
    assert calls_into(graph, tuple_impl) == [
        ("convert", line["let color = Color::try_from(color)?;"], 1),
        ("guess", line["Color::try_from(make())"], 1),
        ("theme", line["Color::try_from((name, doc))"], 0),
    ]
    assert calls_into(graph, proto_impl) == [
        ("convert", line["let color = Color::try_from(color)?;"], 1),
        ("decode", line["let color: Color = proto.try_into()?;"], 0),
        ("guess", line["Color::try_from(make())"], 1),
    ]  # `convert`'s `color` is the `let` above, untyped: not the `Color` its own line binds
    # `Decimal` into `Narrow`: the impl that takes a `Decimal` is not in the index (a macro
    # writes it, say): no edge to the `Wide` one
    assert graph.callers.get(narrow, []) == []


MODES = """\
use std::str::FromStr;
pub enum Mode { Normal, Insert }
impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "normal" => Ok(Mode::Normal),
            "insert" => Ok(Mode::Insert),
            _ => Err(format!("Invalid mode '{s}'")),
        }
    }
}
pub struct Channel;
impl FromStr for Channel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> { Err(format!("no channel {s}")) }
}
pub fn parse(text: &str) -> Result<u32, String> { Err(text.into()) }
pub fn set_mode(name: &str) -> Result<(), String> {
    let mode: Mode = name.parse()?;
    let count: u32 = name.parse().unwrap();
    Ok(())
}
pub fn switch(name: &str) -> Result<(), String> {
    let _ = name.trim().parse::<Mode>()?;
    let _ = name.parse::<u64>();
    Ok(())
}
pub fn untyped(name: &str) -> Result<(), String> {
    let guess = name.parse().map_err(|e: String| e)?;
    Ok(guess)
}
"""


def test_a_parse_into_a_written_type_calls_its_from_str() -> None:
    """`let m: Mode = s.parse()?` and `s.parse::<Mode>()` run `Mode::from_str` (helix's
    `Mode`, rustup's `ParsedToolchainDesc` had no caller); an untyped `parse`, or one into a
    standard type, calls no fn of the repository's, least of all one named `parse`."""
    graph = build_graph(
        {"crates/ed/src/lib.rs": index_file("crates/ed/src/lib.rs", MODES.encode())}
    )
    line = {text.strip(): no for no, text in enumerate(MODES.splitlines(), 1)}
    from_str = node(graph, "Mode::from_str")
    assert sorted((graph.nodes[e.caller].label, e.line) for e in graph.callers[from_str]) == [
        ("set_mode", line["let mode: Mode = name.parse()?;"]),
        ("switch", line["let _ = name.trim().parse::<Mode>()?;"]),
    ]
    assert graph.callers.get(node(graph, "Channel::from_str"), []) == []
    assert graph.callers.get(node(graph, "parse"), []) == []


SSTABLES = """\
pub struct PbSstableInfo { pub id: u64 }
pub struct SstableInfo { pub id: u64 }
impl From<&PbSstableInfo> for SstableInfo {
    fn from(pb: &PbSstableInfo) -> Self { SstableInfo { id: pb.id } }
}
impl From<PbSstableInfo> for SstableInfo {
    fn from(pb: PbSstableInfo) -> Self { SstableInfo { id: pb.id } }
}
pub struct Backend { pub pb: PbSstableInfo }
impl Backend {
    pub fn to_protobuf(&self) -> PbSstableInfo { PbSstableInfo { id: self.pb.id } }
}
pub fn owned(b: &Backend) -> SstableInfo {
    let info: SstableInfo = b.to_protobuf().into();
    info
}
pub fn borrowed(pb: &PbSstableInfo) -> SstableInfo {
    SstableInfo::from(pb)
}
pub fn explicit(b: &Backend) -> SstableInfo {
    SstableInfo::from(&b.pb)
}
pub fn unknown(b: &Backend) -> SstableInfo {
    SstableInfo::from(b.pb_ref())
}
"""


def test_a_conversion_takes_the_borrowed_or_owned_impl_the_argument_is() -> None:
    """risingwave's `SstableInfo` has `From<&PbSstableInfo>` and `From<PbSstableInfo>`:
    `x.to_protobuf().into()` (a value a `to_..` method makes) runs the owned one, `from(pb)`
    with `pb: &PbSstableInfo` and `from(&b.pb)` the borrowed one (both were taken the other
    way in this stop's sample); an argument that says neither keeps both, ambiguous."""
    path = "crates/meta/src/lib.rs"
    graph = build_graph({path: index_file(path, SSTABLES.encode())})
    line = {text.strip(): no for no, text in enumerate(SSTABLES.splitlines(), 1)}
    by_ref, by_value = sorted(
        i for i, n in enumerate(graph.nodes) if n.label == "SstableInfo::from"
    )

    assert calls_into(graph, by_value) == [
        ("owned", line["let info: SstableInfo = b.to_protobuf().into();"], 0),
        ("unknown", line["SstableInfo::from(b.pb_ref())"], 1),
    ]
    assert calls_into(graph, by_ref) == [
        ("borrowed", line["SstableInfo::from(pb)"], 0),
        ("explicit", line["SstableInfo::from(&b.pb)"], 0),
        ("unknown", line["SstableInfo::from(b.pb_ref())"], 1),
    ]


OPTIONS = """\
pub enum ConfigFormat { Toml, Json }
impl std::str::FromStr for ConfigFormat {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "toml" => Ok(Self::Toml),
            f => anyhow::bail!("unknown config format `{}`", f),
        }
    }
}
pub struct GetOptions<'a> {
    pub key: Option<&'a str>,
    pub format: ConfigFormat,
    pub depth: u32,
}
"""
COMMAND = """\
pub fn exec(key: &str, f: &str, d: &str) -> anyhow::Result<()> {
    let opts = crate::ops::GetOptions {
        key: Some(key),
        format: f.parse()?,
        depth: d.parse()?,
    };
    Ok(())
}
"""


def test_a_struct_literal_s_field_given_a_parse_runs_the_field_s_type_s_from_str() -> None:
    """cargo's `cargo_config::GetOptions { format: args.get_one::<String>("format").unwrap()
    .parse()?, .. }` runs `ConfigFormat::from_str`, whose "unknown config format" read "no
    caller found" (reading 302). A field of a type the repository does not define (`u32`)
    calls nothing of it."""
    files = {"cfg/src/lib.rs": "pub mod ops;\npub mod cmd;\n", "cfg/src/ops.rs": OPTIONS,
             "cfg/src/cmd.rs": COMMAND}  # fmt: skip
    graph = build_graph({path: index_file(path, text.encode()) for path, text in files.items()})
    from_str = node(graph, "ConfigFormat::from_str")
    assert [(graph.nodes[e.caller].label, e.line, e.resolution)
            for e in graph.callers.get(from_str, [])] == [("exec", 4, "type")]  # fmt: skip
    assert [[h.name for h in p.hops] for p in caller_paths(graph, from_str)] == [
        ["exec", "ConfigFormat::from_str"]
    ]


DROPPING = """\
pub fn column_type(decl: &str) -> Option<DataType> {
    let ty: DataType = decl.parse().ok()?;
    Some(ty)
}
pub fn explained(name: &str) -> DataType {
    let ty: DataType = name.parse().unwrap_or(DataType::Null);
    let other: DataType = name.parse().unwrap_or_default();
    let kept: DataType = name.parse().unwrap();
    let flag: bool = name.parse().is_ok();
    ty
}
"""


def test_a_conversion_whose_error_the_let_drops_is_a_dropped_call() -> None:
    """sqlx's `DataType::from_str` (reading 308): `decl.parse().ok()?` and
    `.unwrap_or(DataType::Null)` run it and drop its error; it had no caller at all."""
    calls = index_file("crates/host/src/types.rs", DROPPING.encode()).calls
    assert [(c.name, c.qualifier, c.line, c.dropped) for c in calls if c.kind == "path"] == [
        ("from_str", "DataType", 2, True),  # `.ok()?`
        ("from_str", "DataType", 6, True),  # `.unwrap_or(..)`
        ("from_str", "DataType", 7, True),  # `.unwrap_or_default()`
        ("from_str", "DataType", 8, False),  # `.unwrap()`: a panic, no drop
    ]  # not `is_ok()`: a `bool`, not the written type's value
