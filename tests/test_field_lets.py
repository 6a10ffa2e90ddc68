"""A `let` that takes a field's value has the field's type: risingwave's handlers start
`let session = &handler_args.session;` and call `session.check_function_name_duplicated(..)`,
which went by name to `Catalog`'s method of that name (first of two candidates) instead of
`SessionImpl`'s. `&x.a`, `x.a.b`, `self.a.clone()` are typed as the link types a receiver
chain; a chain that reads its own name (`let inner = inner.next;`) types nothing."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

from pipeline.scan.callgraph import CallGraph

SOURCE = """\
use std::sync::Arc;
pub struct SessionImpl;
pub struct Catalog;
impl SessionImpl {
    pub fn check_name(&self, name: &str) -> bool { name.is_empty() }
}
impl Catalog {
    pub fn check_name(&self, name: &str) -> bool { name.is_empty() }
}
pub struct HandlerArgs {
    pub session: Arc<SessionImpl>,
}
pub struct Binder {
    catalog: Catalog,
}
pub fn handle(handler_args: HandlerArgs) -> bool {
    let session = &handler_args.session;
    session.check_name("a")
}
impl Binder {
    pub fn bind(&self) -> bool {
        let catalog = self.catalog.clone();
        catalog.check_name("b")
    }
}
pub fn walk(inner: HandlerArgs) -> bool {
    let inner = inner.session;
    inner.check_name("c")
}
"""


def calls_in(tmp_path: Path, source: str) -> list[tuple[str, int, str, str]]:
    """The edges of a crate whose `src/lib.rs` is `source`: (caller, line, callee, how)."""
    return labelled_edges(
        graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "fe"\n', "src/lib.rs": source})
    )


def labelled_edges(graph: CallGraph) -> list[tuple[str, int, str, str]]:
    """A graph's edges as (caller, line, callee, how), by labels, sorted."""
    label = {i: n.label for i, n in enumerate(graph.nodes)}
    return sorted(
        (label[e.caller], e.line, label[callee], e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
    )


def test_a_let_of_a_field_has_the_field_s_type(tmp_path: Path) -> None:
    assert calls_in(tmp_path, SOURCE) == [
        ("Binder::bind", 23, "Catalog::check_name", "type"),
        ("handle", 18, "SessionImpl::check_name", "type"),
        # `inner` rebound over the parameter reads itself: untyped, a guess by name between
        # the two, marked so (as before)
        ("walk", 28, "Catalog::check_name", "name"),
        ("walk", 28, "SessionImpl::check_name", "name"),
    ]


COPIES = """\
pub struct SessionImpl;
pub struct Catalog;
impl SessionImpl {
    pub fn check_name(&self, name: &str) -> bool { name.is_empty() }
    pub fn spawn(&self) -> bool {
        let me = self.clone();
        me.check_name("a")
    }
}
impl Catalog {
    pub fn check_name(&self, name: &str) -> bool { name.is_empty() }
}
pub fn handle(session: SessionImpl) -> bool {
    let s = &session;
    let session = session;
    s.check_name("b") && session.check_name("c")
}
"""


def test_a_let_that_copies_a_named_value_has_its_type(tmp_path: Path) -> None:
    """`let me = self.clone()` (risingwave's `let ctrl = self.clone()` before a spawn), `let
    s = &session`; `let session = session` keeps the parameter's type."""
    assert calls_in(tmp_path, COPIES) == [
        ("SessionImpl::spawn", 7, "SessionImpl::check_name", "type"),
        ("handle", 16, "SessionImpl::check_name", "type"),
    ]
