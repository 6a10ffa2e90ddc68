"""A `for` loop's names have the type of an element of the value iterated: qdrant's
`for (_, segment) in segments.iter() { segment.write().live_reload(..) }` went by name among
three `live_reload`s (one of the last stops' sampled hops, read). The value iterated is typed
as a receiver is (a parameter, a field, a method's written return), then its element: a
sequence's (`Vec`, `&[T]`, `HashSet`, `Option`, an `impl Iterator<Item = T>`), a map's key
and value for a pair (`for (k, v) in &map`, `.keys()`, `.values()`), the element of an
`.enumerate()`'s pair. A loop whose value does not type leaves its names unknown (the call
goes by name), never an outer binding's type."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

SOURCE = """\
use std::collections::HashMap;
pub struct Segment;
pub struct Proxy;
pub struct Holder { segments: HashMap<u32, Segment>, proxies: Vec<Proxy> }
impl Segment { pub fn reload(&self) {} }
impl Proxy { pub fn reload(&self) {} }
impl Holder {
    pub fn proxies(&self) -> impl Iterator<Item = &Proxy> { self.proxies.iter() }
    pub fn by_map(&self) {
        for (_, segment) in self.segments.iter() { segment.reload(); }
    }
    pub fn by_values(&self) {
        for segment in self.segments.values() { segment.reload(); }
    }
    pub fn by_field(&self) {
        for proxy in &self.proxies { proxy.reload(); }
    }
    pub fn by_method(&self) {
        for (at, proxy) in self.proxies().enumerate() { proxy.reload(); }
    }
}
pub fn by_param(segments: &[Segment], proxy: Segment) {
    for segment in segments { segment.reload(); }
    for proxy in unknown() { proxy.reload(); }
}
pub fn after(segment: &Proxy, segments: Vec<Segment>) {
    for segment in segments.iter() {
        segment.reload();
    }
    segment.reload();
}
pub fn own(holder: &Holder) {
    for holder in holder.proxies() {
        holder.reload();
    }
}
"""


def test_a_loop_s_name_has_the_type_of_an_element_of_what_it_iterates(tmp_path: Path) -> None:
    edges = calls_in(tmp_path, SOURCE)
    assert [e for e in edges if e[0] not in ("Holder::proxies", "after", "own")] == [
        ("Holder::by_field", 16, "Proxy::reload", "type"),
        ("Holder::by_map", 10, "Segment::reload", "type"),  # a map's pair: its value
        ("Holder::by_method", 19, "Holder::proxies", "self"),
        ("Holder::by_method", 19, "Proxy::reload", "type"),  # `impl Iterator<Item = &Proxy>`
        ("Holder::by_values", 13, "Segment::reload", "type"),
        ("by_param", 23, "Segment::reload", "type"),  # `&[Segment]`
        # an iterated value of no type the index tells: the loop's `proxy` is not the
        # parameter (a `Segment`); the call goes by name, as an untyped receiver's does
        ("by_param", 24, "Proxy::reload", "name"),
    ]


def test_a_loop_s_name_is_bound_in_the_loop_and_iterates_its_earlier_value(
    tmp_path: Path,
) -> None:
    edges = calls_in(tmp_path, SOURCE)
    assert [e for e in edges if e[0] in ("after", "own")] == [
        ("after", 28, "Segment::reload", "type"),
        ("after", 30, "Proxy::reload", "type"),  # the parameter again, after the loop
        # `for holder in holder.proxies()`: the value iterated is the parameter's
        ("own", 33, "Holder::proxies", "type"),
        ("own", 34, "Proxy::reload", "type"),
    ]


def test_an_element_is_read_off_the_type_the_code_writes() -> None:
    from pipeline.scan.elements import element_of

    assert element_of("Vec<Arc<Segment>>") == "Segment"
    assert element_of("&'a [Unit]") == "Unit"
    assert element_of("[Shard; 4]") == "Shard"
    assert element_of("SmallVec<[Actor; 8]>") == "Actor"
    assert element_of("MetaResult<Vec<Fragment>>") == "Fragment"  # as `?`ed
    assert element_of("impl Iterator<Item = &'a Package> + '_") == "Package"
    assert element_of("impl DoubleEndedIterator<Item = Dep> + Send + 'a") == "Dep"
    assert element_of("impl Stream<Item = StreamResult<OwnedRow>> + '_") == "OwnedRow"  # `?`ed
    assert element_of("Box<dyn Iterator<Item = (u32, Table)>>", "1") == "Table"
    # a map: its pair, a key or a value, never the pair as one
    assert element_of("HashMap<ShardId, Arc<Shard>>", "1") == "Shard"
    assert element_of("BTreeMap<TableId, Table>", "0") == "TableId"
    assert element_of("HashMap<ShardId, Shard>") is None
    assert element_of("IndexMap<String, Target>", want="1") == "Target"
    assert element_of("Vec<(String, Target)>", "1") == "Target"
    assert element_of("Vec<Target>", "1") is None  # no pair to take from
    assert element_of("Vec<Target>", want="1") is None  # no map's values
    assert element_of("Target") is None and element_of("u32") is None
    # a type left to the compiler (qdrant's `let shards: Vec<_> = ..collect()`) says nothing
    assert element_of("Vec<_>") is None and element_of("Vec<(_, Shard)>", "0") is None
    assert element_of("Vec<(_, Shard)>", "1") == "Shard"


def test_adapters_that_keep_the_elements_are_looked_through() -> None:
    from pipeline.scan.elements import iterated

    assert iterated(("self", "shards", "iter()", "rev()"), "") == (("self", "shards"), "", "")
    assert iterated(("xs", "iter()", "enumerate()"), "1") == (("xs",), "", "")
    assert iterated(("xs", "iter()", "enumerate()"), "0") is None  # the index
    assert iterated(("self", "map", "values()"), "") == (("self", "map"), "", "1")
    assert iterated(("self", "map", "keys()"), "") == (("self", "map"), "", "0")
    # another method is the value's own: typed by what it returns
    assert iterated(("ws", "members()"), "") == (("ws", "members()"), "", "")
    assert iterated(("xs", "iter()", "map(f)"), "") == (("xs", "iter()", "map(f)"), "", "")
