"""A method call whose receiver's type the index cannot see, where every method of that name
is one trait's (its declaration and its impls'): the call runs the trait's method, not one
of them by guess. quickwit's `self.0.root_list_fields(..)` on an `Arc<dyn SearchService>`
read "`SearchServiceImpl::root_list_fields` (or `SearchService::root_list_fields`: the call
is ambiguous)"."""

from __future__ import annotations

from pathlib import Path

from gitrepo import GitRepo

from pipeline.scan.callerpaths import caller_paths
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypoints import build_graph
from pipeline.scan.indexcache import index_entries
from pipeline.source.repository import list_files

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

pub struct Dsl(pub Inner);

pub fn to_ast(dsl: Dsl) -> u32 {
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
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({
        "Cargo.toml": '[workspace]\nmembers = ["search", "serve"]\n',
        "search/Cargo.toml": '[package]\nname = "search"\n',
        "search/src/lib.rs": SERVICE + "mod range;\n",
        "search/src/range.rs": RANGE,
        "serve/Cargo.toml": '[package]\nname = "serve"\n',
        "serve/src/lib.rs": ADAPTER,
    })  # fmt: skip
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    return build_graph(index_entries(repo.git_dir, listing.entries, tmp_path / "c", jobs=1))


def _hops(
    graph: CallGraph, label: str
) -> list[tuple[str, str | None, str | None, tuple[str, ...]]]:
    (at,) = [i for i, n in enumerate(graph.nodes) if n.label == label]
    best = caller_paths(graph, at)[0]
    return [(h.name, h.resolution, h.via, h.candidates) for h in best.hops]


def test_a_call_every_method_of_whose_name_is_one_trait_s_runs_the_trait_method(
    tmp_path: Path,
) -> None:
    graph = _graph(tmp_path)
    assert _hops(graph, "SearchServiceImpl::list_fields") == [
        ("GrpcAdapter::list_fields", None, None, ()),
        ("SearchServiceImpl::list_fields", "trait", "SearchService::list_fields", ()),
    ]


def test_where_the_file_picks_one_impl_the_call_keeps_that_pick(tmp_path: Path) -> None:
    # `dsl.0.convert()` in the file of `Inner`'s impl, `Range`'s in another: the nearest is
    # the call's (marked ambiguous), not every impl of `Convert`
    graph = _graph(tmp_path)

    def callers(label: str) -> list[tuple[str, str]]:
        (at,) = [i for i, n in enumerate(graph.nodes) if n.label == label]
        return [(graph.nodes[e.caller].label, e.resolution) for e in graph.callers.get(at, ())]

    assert callers("Inner::convert") == [("to_ast", "name")]
    assert callers("Range::convert") == []
