"""A link that starts from the previous one: the graph is the one a full link makes, and
only the files a change can reach are resolved again (`linkmemo`)."""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from reach_fixtures import WORKSPACE
from regen_fixtures import cli

from pipeline.core.index import FileIndex
from pipeline.languages import INDEX_VERSION
from pipeline.languages.rust.index import index_file
from pipeline.scan.callgraph import MAX_DISPATCH, CallGraph
from pipeline.scan.entrypoints import build_graph
from pipeline.scan.linkmemo import LinkMemo, load_memo, memo_path, save_memo

Files = dict[str, str]
LIB = "crates/engine/src/lib.rs"
STORE = "crates/engine/src/store.rs"

BASE: Files = {
    "src/lib.rs": "pub mod engine;\npub mod api;\npub mod other;\npub mod prelude;\npub mod glob;\n",
    "src/engine.rs": (
        "pub struct Engine { pub store: Store }\n"
        "pub struct Store;\n"
        "pub struct Wrap(pub Store);\n"
        "impl Store {\n    pub fn put(&self, k: u32) -> Result<(), String> { Ok(()) }\n}\n"
        "impl Engine {\n"
        "    pub fn write(&self, k: u32) -> Result<(), String> { self.store.put(k) }\n"
        "}\n"
        "pub fn helper() {}\n"
        "pub struct Generic<T>(pub T);\n"
    ),
    "src/api.rs": (
        "use crate::engine::{helper, Engine};\n"
        "pub fn handle(e: &Engine) { e.write(1); helper(); e.store.put(2); }\n"
        "pub fn by_name(x: Thing) { x.flush(); }\n"
        "pub fn wrapped(w: &Wrap) { w.0.put(3); }\n"
        "pub fn generic() { Generic::<u32>::make(); }\n"
    ),
    "src/other.rs": (
        "pub struct Other;\n"
        "impl Other {\n    pub fn flush(&self) {}\n    pub fn make() {}\n}\n"
        "pub fn untouched() { crate::other::local(); }\n"
        "pub fn local() {}\n"
    ),
    "src/prelude.rs": "pub use crate::engine::helper;\n",
    "src/glob.rs": "use crate::prelude::*;\npub fn via_glob() { helper(); }\n",
}


def edit(path: str, old: str, new: str) -> Callable[[Files], Files]:
    def change(files: Files) -> Files:
        assert old in files[path]
        return {**files, path: files[path].replace(old, new)}

    return change


def add(path: str, text: str) -> Callable[[Files], Files]:
    return lambda files: {**files, path: text}


def remove(path: str) -> Callable[[Files], Files]:
    return lambda files: {p: t for p, t in files.items() if p != path}


def indexes_of(files: Files) -> dict[str, FileIndex]:
    return {path: index_file(path, text.encode()) for path, text in files.items()}


def blobs_of(files: Files) -> dict[str, str]:
    return {path: hashlib.sha1(text.encode()).hexdigest() for path, text in files.items()}


def edges(graph: CallGraph) -> dict[int, list[tuple[Any, ...]]]:
    """Every edge, callee by callee, in the graph's own order."""
    return {
        callee: [(e.caller, e.line, e.resolution, e.candidates, e.arm, e.call) for e in found]
        for callee, found in graph.callers.items()
        if found
    }


def linked(files: Files, previous: tuple[Files, LinkMemo] | None) -> tuple[CallGraph, LinkMemo]:
    """The graph of `files` linked from `previous` (its files and memo), and its memo."""
    indexes = indexes_of(files)
    before = indexes_of(previous[0]) if previous else {}
    memo = previous[1] if previous else None
    graph = build_graph(indexes, 1, (), (blobs_of(files), memo, before))
    assert graph.memo is not None
    return graph, graph.memo()


def relinked(base: Files, files: Files) -> tuple[CallGraph, LinkMemo, LinkMemo]:
    """`files` linked from the memo of `base`'s link, its edges held equal to a full link's
    of `files`: the graph, the first memo and the second."""
    _, memo = linked(base, None)
    graph, after = linked(files, (base, memo))
    assert edges(graph) == edges(build_graph(indexes_of(files), 1))
    return graph, memo, after


def resolved_again(previous: LinkMemo, memo: LinkMemo) -> set[str]:
    """The files with calls that the second link resolved rather than took over."""
    return {p for p, seen in memo.lookups.items() if seen and seen is not previous.lookups.get(p)}


CHANGES = [
    # a method by the name an unknown receiver calls: every such call is resolved again
    ("a same-named method added", edit("src/engine.rs", "pub fn helper() {}", "pub fn helper() {}\npub struct Thing;\nimpl Thing {\n    pub fn flush(&self) {}\n}\n"), {"src/api.rs"}),
    # the field's type names another struct: `e.store.put(2)` goes elsewhere
    ("a field retyped", edit("src/engine.rs", "pub store: Store", "pub store: Other"), {"src/api.rs"}),
    # a tuple struct's field: `w.0.put(3)` is `Store::put` no more
    ("a tuple field retyped", edit("src/engine.rs", "Wrap(pub Store)", "Wrap(pub Other)"), {"src/api.rs"}),
    # a fn inserted above the callee: its callers keep their edge, to the moved fn
    ("a fn inserted above a callee", edit("src/engine.rs", "pub struct Store;\n", "pub struct Store;\npub fn first() {}\n"), set()),
    ("a free fn renamed", edit("src/engine.rs", "pub fn helper() {}", "pub fn helper2() {}"), {"src/api.rs", "src/glob.rs"}),
    ("a file removed", remove("src/other.rs"), {"src/api.rs"}),
    # what a glob import brings in: the globbed module's `use`s, and the fns of the name
    ("a re-export dropped", edit("src/prelude.rs", "engine::helper", "engine::Engine"), {"src/glob.rs"}),
    ("a same-named free fn added", edit("src/other.rs", "pub fn local() {}", "pub fn local() {}\npub fn helper() {}"), {"src/api.rs", "src/glob.rs"}),
    # an alias's impl: what a path call on the type it names may run (`_methods_of_aliases`;
    # `Other::make` was known by name before: only the alias says the call is resolved again)
    ("an alias's impl added", edit("src/other.rs", "pub fn local() {}", "pub fn local() {}\npub type Made = crate::engine::Generic<u32>;\nimpl Made {\n    pub fn make() {}\n}\n"), {"src/api.rs"}),
    ("an unrelated file added", add("src/more.rs", "pub fn more() { crate::other::local(); }\n"), {"src/more.rs"}),
    ("nothing changed", lambda files: dict(files), set()),
]  # fmt: skip


@pytest.mark.parametrize(("name", "change", "others"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_link_from_the_previous_one_is_the_full_link(
    name: str, change: Callable[[Files], Files], others: set[str]
) -> None:
    _, memo = linked(BASE, None)
    files = change(BASE)
    full = build_graph(indexes_of(files), 1)
    graph, after = linked(files, (BASE, memo))
    assert edges(graph) == edges(full) != {}
    changed = {p for p in files.keys() & BASE.keys() if files[p] != BASE[p] and after.lookups[p]}
    assert resolved_again(memo, after) == changed | others


def test_a_moved_callee_keeps_its_callers_edges() -> None:
    _, memo = linked(BASE, None)
    files = edit("src/engine.rs", "pub struct Store;\n", "pub struct Store;\npub fn first() {}\n")(
        BASE
    )
    graph, _ = linked(files, (BASE, memo))
    put = [n for n, node in enumerate(graph.nodes) if node.label == "Store::put"]
    assert [graph.nodes[e.caller].label for e in graph.callers[put[0]]] == [
        "handle",
        "wrapped",
        "Engine::write",
    ]


def test_the_memo_round_trips_and_a_bad_one_is_none(tmp_path: Path) -> None:
    _, memo = linked(BASE, None)
    path = memo_path(tmp_path, "o/r", "1")
    save_memo(path, memo)
    again = load_memo(path, memo.index_version, memo.dispatch_limit)
    assert again == memo
    assert load_memo(path, "other", memo.dispatch_limit) is None
    assert load_memo(path, memo.index_version, memo.dispatch_limit + 1) is None
    written = marshal.loads(path.read_bytes())
    path.write_bytes(marshal.dumps({**written, "code": "other code"}))  # another errdoc's
    assert load_memo(path, memo.index_version, memo.dispatch_limit) is None
    path.write_bytes(b"\x00not marshal")
    assert load_memo(path, memo.index_version, memo.dispatch_limit) is None
    assert load_memo(tmp_path / "absent", memo.index_version, memo.dispatch_limit) is None


def test_rows_of_the_wrong_shape_are_resolved_again() -> None:
    _, memo = linked(BASE, None)
    damaged = LinkMemo(
        memo.index_version,
        memo.dispatch_limit,
        memo.blobs,
        {**memo.resolved, "src/api.rs": ((0, 99, "name", (("src/nowhere.rs", 7),)),)},
        memo.keys,
        memo.base,
        memo.lookups,
    )
    graph, after = linked(BASE, (BASE, damaged))
    assert edges(graph) == edges(build_graph(indexes_of(BASE), 1))
    assert resolved_again(damaged, after) == {"src/api.rs"}


def test_a_regeneration_links_from_the_extraction_s_memo(tmp_path: Path) -> None:
    """End to end: the extraction keeps its link in the cache; a regeneration over an edit
    of one file takes the other files' resolutions over and publishes the `reach.json` a
    cold extraction does."""
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(dict(WORKSPACE))
    out, cache = tmp_path / "out", tmp_path / "cache"
    common = ("--repo", "o/ws", "--jobs", "1")
    result = cli("extract", *common, "--sha", "main", "--source", repo.path, "--out", out,
                 "--cache", cache)  # fmt: skip
    assert result.exit_code == 0, result.output
    path = memo_path(cache, "o/ws", INDEX_VERSION)
    first = load_memo(path, INDEX_VERSION, MAX_DISPATCH)
    assert first is not None and set(first.blobs) >= {LIB, STORE}
    edited = WORKSPACE[STORE].replace("pub trait Store {", "// stores keys\npub trait Store {")
    sha = repo.commit({STORE: edited})
    result = cli("regenerate", *common, "--ref", sha, "--out", out, "--cache", cache)
    assert result.exit_code == 0, result.output
    second = load_memo(path, INDEX_VERSION, MAX_DISPATCH)
    assert second is not None and second.blobs[STORE] != first.blobs[STORE]
    # a comment moved lines, nothing else: the other files' calls are taken over
    assert second.generation == first.generation + 1
    assert {p for p, n in second.since.items() if n == second.generation} == {STORE}
    assert second.lookups.keys() - {STORE} == {p for p, n in second.since.items() if n == 1}
    cold = tmp_path / "cold"
    result = cli("extract", *common, "--sha", sha, "--source", repo.path, "--out", cold,
                 "--cache", tmp_path / "cold-cache")  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = [json.loads((o / "o" / "ws" / "reach.json").read_text())["records"] for o in (out, cold)]
    assert rows[0] == rows[1] != {}
