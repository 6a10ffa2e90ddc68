"""A method call whose receiver's type the index cannot see, where the only methods of that
name are a trait's declaration and its one impl's: the call runs the trait's method, not one
of the two by guess (with two impls or more it stays a guess, never fanned out). quickwit's `self.0.root_list_fields(..)` on an `Arc<dyn SearchService>`
read "`SearchServiceImpl::root_list_fields` (or `SearchService::root_list_fields`: the call
is ambiguous)"."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of, node

from pipeline.scan.callerpaths import caller_paths
from pipeline.scan.callgraph import CallGraph

SERVICE = """\
pub trait SearchService {
    fn list_fields(&self, index: &str) -> Result<(), String>;
}

pub struct SearchServiceImpl;

impl SearchService for SearchServiceImpl {
    fn list_fields(&self, index: &str) -> Result<(), String> {
        if index.is_empty() {
            panic!("no index to list the fields of");
        }
        Ok(())
    }
}

pub trait Convert {
    fn convert(self) -> u32;
}

pub struct Inner;
pub struct Range;

impl Convert for Inner {
    fn convert(self) -> u32 { 1 }
}

pub fn to_ast(dsl: (Inner, u32)) -> u32 {
    dsl.0.convert()
}
"""

RANGE = """\
use crate::{Convert, Range};

impl Convert for Range {
    fn convert(self) -> u32 { panic!("a range converts to nothing") }
}
"""

ADAPTER = """\
use std::sync::Arc;
use search::SearchService;

pub struct GrpcAdapter(Arc<dyn SearchService>);

impl GrpcAdapter {
    pub fn list_fields(&self, index: &str) {
        self.0.list_fields(index).unwrap();
    }
}
"""


def _graph(tmp_path: Path) -> CallGraph:
    return graph_of(tmp_path, {
        "Cargo.toml": '[workspace]\nmembers = ["search", "serve"]\n',
        "search/Cargo.toml": '[package]\nname = "search"\n',
        "search/src/lib.rs": SERVICE + "mod range;\n",
        "search/src/range.rs": RANGE,
        "serve/Cargo.toml": '[package]\nname = "serve"\n',
        "serve/src/lib.rs": ADAPTER,
    })  # fmt: skip


def _hops(
    graph: CallGraph, label: str
) -> list[tuple[str, str | None, str | None, tuple[str, ...]]]:
    best = caller_paths(graph, node(graph, label))[0]
    return [(h.name, h.resolution, h.via, h.candidates) for h in best.hops]


def test_a_call_whose_only_methods_are_a_trait_s_and_its_one_impl_s_is_the_trait_s_call(
    tmp_path: Path,
) -> None:
    graph = _graph(tmp_path)
    assert _hops(graph, "SearchServiceImpl::list_fields") == [
        ("GrpcAdapter::list_fields", None, None, ()),
        ("SearchServiceImpl::list_fields", "trait", "SearchService::list_fields", ()),
    ]


def test_where_the_file_picks_one_impl_the_call_keeps_that_pick(tmp_path: Path) -> None:
    # `dsl.0.convert()` on a tuple (no struct's field: untyped) in the file of `Inner`'s
    # impl, `Range`'s in another: the nearest is the call's (marked ambiguous), not every
    # impl of `Convert`
    graph = _graph(tmp_path)

    def callers(label: str) -> list[tuple[str, str]]:
        edges = graph.callers.get(node(graph, label), ())
        return [(graph.nodes[e.caller].label, e.resolution) for e in edges]

    assert callers("Inner::convert") == [("to_ast", "name")]
    assert callers("Range::convert") == []
