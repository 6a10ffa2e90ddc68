"""A trait's method called by its path, `Trait::f(x, ..)`, runs the impl for `x`'s type
(issue 10: "the receiver's type where the code shows it"). minijinja's `Deserializer::
deserialize_any(SeqDeserializer::new(..), visitor)` runs serde's impl for serde's
`SeqDeserializer`, and had been read as minijinja's `impl Deserializer for Value` (paths 112).
Where the code does not show the type, every impl of the name stays a candidate."""

from __future__ import annotations

from test_reach import called_by

from pipeline.languages.rust.index import index_file
from pipeline.scan.entrypoints import build_graph

VALUE = """\
use serde::de::value::SeqDeserializer;
use serde::Deserializer;
pub struct Value(Vec<u8>);
pub struct Other;
impl Value {
    pub fn new() -> Value { Value(Vec::new()) }
}
impl<'de> Deserializer<'de> for Value {
    fn deserialize_any<V>(self, visitor: V) -> Result<V::Value, Error> {
        Err(Error::custom("not a value"))
    }
}
impl<'de> Deserializer<'de> for Other {
    fn deserialize_any<V>(self, visitor: V) -> Result<V::Value, Error> {
        Err(Error::custom("not another"))
    }
}
// what makes `Deserializer` name these types here: each impl's associated type of the name
impl IntoDeserializer<'_, Error> for Value {
    type Deserializer = Value;
    fn into_deserializer(self) -> Value { self }
}
impl IntoDeserializer<'_, Error> for Other {
    type Deserializer = Other;
    fn into_deserializer(self) -> Other { self }
}
pub fn foreign(items: Vec<u8>, visitor: V) {
    Deserializer::deserialize_any(SeqDeserializer::new(items.into_iter()), visitor);
}
pub fn ours(visitor: V) {
    Deserializer::deserialize_any(Value::new(), visitor);
}
pub fn literal(visitor: V) {
    Deserializer::deserialize_any(Other {}, visitor);
}
pub fn unknown(v: V, visitor: V) {
    Deserializer::deserialize_any(v, visitor);
}
"""
FILES = {"src/lib.rs": VALUE}


def _calls(label: str) -> list[tuple[str, str]]:
    graph = build_graph({path: index_file(path, text.encode()) for path, text in FILES.items()})
    return sorted((callee, how) for _, callee, how in called_by(graph, label) if "::" in callee)


def test_a_trait_path_call_on_a_foreign_type_runs_none_of_the_repository_s_impls() -> None:
    assert _calls("foreign") == []


def test_a_trait_path_call_runs_the_impl_for_the_type_the_argument_shows() -> None:
    assert _calls("ours") == [("Value::deserialize_any", "type"), ("Value::new", "type")]
    assert _calls("literal") == [("Other::deserialize_any", "type")]


def test_a_trait_path_call_on_an_untyped_value_keeps_every_impl() -> None:
    assert _calls("unknown") == [
        ("Other::deserialize_any", "type"),
        ("Value::deserialize_any", "type"),
    ]
