"""A repository's iterator runs when something takes its items: bat's printer writes `for
chunk in EscapeSequenceIterator::new(region)`, and the panics in `EscapeSequenceIterator::
next` had no caller. A `for` loop over a value the code types runs its `Iterator::next`
(else its `IntoIterator::into_iter`); a standard adapter or consumer called on it
(`.count()`, `.collect()`, `StreamExt`'s `.next()`) runs its `next`, a stream's `poll_next`.
The edge is resolved `iterator`; a value of a type not the repository's (a `Vec`), or one
the code does not type, runs nothing of ours."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in
from test_link_memo import relinked, resolved_again

from pipeline.analyze.reach_text import path_text
from pipeline.core.reach import CallerPath, Hop
from pipeline.scan.signatures import returned_type

SOURCE = """\
pub struct Escapes<'a> { text: &'a str }
impl<'a> Escapes<'a> { pub fn new(text: &'a str) -> Escapes<'a> { Escapes { text } } }
impl<'a> Iterator for Escapes<'a> {
    type Item = u8;
    fn next(&mut self) -> Option<u8> { None }
}
pub struct Rows;
impl IntoIterator for Rows {
    type Item = u8;
    type IntoIter = std::vec::IntoIter<u8>;
    fn into_iter(self) -> Self::IntoIter { Vec::new().into_iter() }
}
pub struct Events;
impl Stream for Events {
    type Item = u8;
    fn poll_next(self: Pin<&mut Self>, cx: &mut Context) -> Poll<Option<u8>> { Poll::Pending }
}
pub fn print(region: &str, rows: Rows, events: Events, v: Vec<u8>) {
    let escapes = Escapes::new(region);
    for chunk in escapes {}
    for row in rows {}
    let n = Escapes::new(region).count();
    events.next();
    for x in v {}
    for y in unknown() {}
}
"""


def test_a_loop_or_an_adapter_over_a_repository_iterator_runs_its_next(tmp_path: Path) -> None:
    found = [e for e in calls_in(tmp_path, SOURCE) if e[0] == "print" and e[2] != "Escapes::new"]
    assert found == [
        ("print", 20, "Escapes::next", "iterator"),
        ("print", 21, "Rows::into_iter", "iterator"),
        ("print", 22, "Escapes::next", "iterator"),
        ("print", 23, "Events::poll_next", "iterator"),
    ]


def test_the_hop_says_it_is_an_iterator_s() -> None:
    hop = Hop("Escapes::next", "src/lib.rs", 5, "fn next(&mut self)", resolution="iterator")
    assert path_text(CallerPath((hop,))) == (
        "`Escapes::next` (an iterator, whose items the previous hop takes)"
    )


BASE = {
    "src/lib.rs": "pub mod items;\npub mod print;\n",
    "src/items.rs": "pub struct Items;\nimpl Items {\n    pub fn new() -> Items { Items }\n}\n",
    "src/print.rs": (
        "use crate::items::Items;\npub fn print() {\n    for item in Items::new() {}\n}\n"
    ),
}


def test_an_iterator_impl_added_elsewhere_is_linked_as_a_full_link_would() -> None:
    files = {
        **BASE,
        "src/iter.rs": (
            "use crate::items::Items;\n"
            "impl Iterator for Items {\n    type Item = u8;\n"
            "    fn next(&mut self) -> Option<u8> { None }\n}\n"
        ),
    }
    graph, memo, after = relinked(BASE, files)
    stepped = [
        graph.nodes[callee].label
        for callee, found in graph.callers.items()
        for e in found
        if e.resolution == "iterator"
    ]
    assert stepped == ["Items::next"]
    assert "src/print.rs" in resolved_again(memo, after)


STD_FIRST = """\
pub struct TrackerIter;
impl Iterator for TrackerIter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> { None }
}
pub trait Tracked { fn iter(&self) -> TrackerIter; }
impl Tracked for HashMap<u8, u8> { fn iter(&self) -> TrackerIter { TrackerIter } }
pub struct Named { map: HashMap<u8, u8> }
impl Named {
    pub fn each(&self) {
        for x in self.map.iter() {}
    }
}
"""


def test_a_std_type_s_own_method_gives_no_repository_iterator(tmp_path: Path) -> None:
    """qdrant implements a trait of its own for `HashMap` whose `iter` returns its blob
    tracker's `Iter`; `self.map.iter()` is `HashMap`'s own `iter` (Rust takes it first), whose
    value is std's: a loop over it runs no `Iter::next` of the repository."""
    assert [e for e in calls_in(tmp_path, STD_FIRST) if e[0] == "Named::each"] == []
    renamed = STD_FIRST.replace("TrackerIter", "Iter").replace("self.map.iter()", "self.it()")
    renamed = renamed.replace("pub fn each", "fn it(&self) -> Iter { Iter }\n    pub fn each")
    assert [e for e in calls_in(tmp_path, renamed) if e[0] == "Named::each"] == [
        ("Named::each", 12, "Named::it", "self")
    ]


def test_a_std_type_a_fn_returns_is_no_repository_type_of_its_name() -> None:
    """qdrant's `TinyMap::iter` returns `std::slice::Iter<'_, (K, V)>`: not the blob
    tracker's `Iter`, whose `next` a loop over it had been taken to run."""
    assert returned_type("pub fn iter(&self) -> std::slice::Iter<'_, (K, V)> {") == ""
    assert returned_type("fn parts(self) -> Result<core::iter::Once<u8>> {") == ""
    assert returned_type("fn iter(&self) -> Iter<'_> {") == "Iter"
    assert returned_type("fn tracker(&self) -> crate::tracker::Iter {") == "Iter"


STD_VALUE = """\
pub struct ExtractIf;
impl Iterator for ExtractIf {
    type Item = u8;
    fn next(&mut self) -> Option<u8> { None }
}
pub struct Tree;
impl Tree { pub fn extract_if(&mut self) -> ExtractIf { ExtractIf } }
pub type States = HashMap<u8, u8>;
pub fn drop_splits(states: &mut States, tree: &mut Tree) {
    let dropped = states.extract_if(|_, _| true);
    for x in dropped {}
    let mine = tree.extract_if();
    for y in mine {}
}
"""


def test_a_std_type_s_method_value_is_not_typed_by_a_repository_method_s_name(
    tmp_path: Path,
) -> None:
    """risingwave's `states: &mut BackfillStates` is a `HashMap`: `states.extract_if(..)` is
    std's, not `EstimatedBTreeMap::extract_if`'s `ExtractIf` (stop 52's reading of iterator
    edges: the one wrong of 30). The repository's own `tree.extract_if()` still is."""
    found = [e for e in calls_in(tmp_path, STD_VALUE) if e[3] == "iterator"]
    assert found == [("drop_splits", 13, "ExtractIf::next", "iterator")]
