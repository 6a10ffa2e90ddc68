"""A path call on a generic type runs the impls its aliases write (issue 10: "call resolution
by name with disambiguation ... an ambiguous call keeps at most a few candidates, marked
ambiguous"). alacritty's `Binding::<T>::deserialize(value)` runs `impl Deserialize for
KeyBinding` or `MouseBinding`'s (`type KeyBinding = Binding<BindingKey>`): the index had
found no caller of either, and their records said the error comes back from the format's
call, when `deserialize_bindings` logs it and skips the binding (reading 324)."""

from __future__ import annotations

from test_reach import node

from pipeline.languages.rust.index import index_file
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypoints import build_graph

BINDINGS = """\
pub struct Binding<T> { pub trigger: T }
pub struct BindingKey;
pub struct MouseEvent;
pub type KeyBinding = Binding<BindingKey>;
pub type MouseBinding = Binding<MouseEvent>;
impl<'a> Deserialize<'a> for KeyBinding {
    fn deserialize<D: Deserializer<'a>>(d: D) -> Result<Self, D::Error> {
        Err(D::Error::custom("expected key binding, got mouse binding"))
    }
}
impl<'a> Deserialize<'a> for MouseBinding {
    fn deserialize<D: Deserializer<'a>>(d: D) -> Result<Self, D::Error> {
        Err(D::Error::custom("expected mouse binding, got key binding"))
    }
}
"""
CONFIG = """\
use crate::bindings::{Binding, KeyBinding};
pub fn deserialize_bindings<T>(values: Vec<toml::Value>) -> Vec<Binding<T>> {
    let mut out = Vec::new();
    for value in values {
        match Binding::<T>::deserialize(value) {
            Ok(binding) => out.push(binding),
            Err(err) => error!("Config error: {err}; ignoring binding"),
        }
    }
    out
}
pub fn keys(value: toml::Value) { KeyBinding::deserialize(value).ok(); }
pub fn batches() -> Batches { BTreeMap::new() }
pub fn counters() { Counter::new(); }
pub fn elsewhere() { Far::make(); }
"""
# an alias of a std type, and a `new` of a struct of the alias's name
BATCHES = """\
pub type Batch = BTreeMap<u32, u32>;
pub struct Batch2;
impl Batch { pub fn new() -> Self { todo!() } }
"""
# an alias that is also a struct's name: its methods may be that struct's
COUNTERS = """\
pub struct Counter<T>(T);
pub type Count = Counter<u32>;
pub struct Count;
impl Count { pub fn new() -> Self { Count } }
"""
# an impl of an alias's name written in another file than the alias
FAR = """\
pub struct Far<T>(T);
pub type Near = Far<u8>;
"""
FAR_IMPL = "impl Near { pub fn make() {} }\n"
FILES = {
    "src/lib.rs": "mod bindings;\nmod config;\nmod batches;\nmod counters;\nmod far;\nmod far_impl;\n",
    "src/bindings.rs": BINDINGS,
    "src/config.rs": CONFIG,
    "src/batches.rs": BATCHES,
    "src/counters.rs": COUNTERS,
    "src/far.rs": FAR,
    "src/far_impl.rs": FAR_IMPL,
}


def _graph() -> CallGraph:
    return build_graph({path: index_file(path, text.encode()) for path, text in FILES.items()})


def _callers(graph: CallGraph, label: str) -> list[tuple[str, int, str, list[str]]]:
    return sorted(
        (
            graph.nodes[e.caller].label,
            e.line,
            e.resolution,
            sorted(graph.nodes[c].label for c in e.candidates),
        )
        for e in graph.callers.get(node(graph, label), [])
    )


def test_a_generic_type_s_path_call_may_run_each_alias_s_impl_marked_ambiguous() -> None:
    graph = _graph()
    assert _callers(graph, "KeyBinding::deserialize") == [
        ("deserialize_bindings", 5, "type", ["MouseBinding::deserialize"]),
        ("keys", 12, "type", []),  # the alias named: its own impl, no other
    ]
    assert _callers(graph, "MouseBinding::deserialize") == [
        ("deserialize_bindings", 5, "type", ["KeyBinding::deserialize"]),
    ]


def test_no_alias_s_impl_answers_for_a_std_type_a_struct_s_name_or_another_file() -> None:
    graph = _graph()
    # `BTreeMap::new()` is std's, whatever `type Batch = BTreeMap<..>` has
    assert _callers(graph, "Batch::new") == []
    # `Counter::new()`: `Count` names a struct too, whose `new` this is
    assert _callers(graph, "Count::new") == []
    # `impl Near` in another file than `type Near = Far<u8>`: not read as the alias's
    assert _callers(graph, "Near::make") == []
