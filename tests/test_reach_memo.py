"""The walks of the last run, taken over by a regeneration only where no change can have
moved them (`reachmemo`): what is taken over is what a walk finds again, and a change far
from a fn leaves its walk alone."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from pipeline.core.index import FileIndex
from pipeline.languages import INDEX_VERSION
from pipeline.languages.rust.index import index_file
from pipeline.scan.callerpaths import Walks, caller_paths, fn_walk
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypoints import build_graph
from pipeline.scan.reachmemo import (
    ReachMemo,
    kept,
    load_memo,
    memo_key,
    memo_path,
    node_digests,
    node_keys,
    save_memo,
    taken_over,
)

ROOT = Path(__file__).parent.parent
Files = dict[str, str]
CHAIN = "".join(f"pub fn c{i}() {{ c{i + 1}(); }}\n" for i in range(1, 11)) + "pub fn c11() {}\n"
BASE: Files = {
    "src/main.rs": "mod cli;\nmod engine;\nmod store;\nmod other;\nmod top;\nmod chain;\nmod things;\nmod user;\n"
    "fn main() { cli::run(); }\n",
    "src/cli.rs": "pub fn run() { crate::engine::start(); crate::other::helper(); }\n",
    "src/engine.rs": "pub fn start() { crate::store::put(); }\n",
    "src/store.rs": "pub fn put() { check(); }\nfn check() {}\n",
    "src/other.rs": "pub fn helper() { leaf(); }\npub fn leaf() {}\n",
    # c0 calls c1, which calls c2 ... c11: eleven hops, more than a walk goes up
    "src/top.rs": "pub fn c0() { crate::chain::c1(); }\n",
    "src/chain.rs": CHAIN,
    # `x.flush()` on a `Thing`: the crate's one `Thing`
    "src/things.rs": "pub struct Thing;\nimpl Thing {\n    pub fn flush(&self) {}\n}\n",
    "src/user.rs": "pub fn by_type(x: &Thing) { x.flush(); }\n",
}
FNS = {"main", "run", "start", "put", "check", "helper", "leaf", "Thing::flush", "by_type"} | {
    f"c{i}" for i in range(12)
}


def edit(path: str, old: str, new: str) -> Callable[[Files], Files]:
    def change(files: Files) -> Files:
        assert old in files[path]
        return {**files, path: files[path].replace(old, new)}

    return change


def graph_of(files: Files) -> tuple[CallGraph, dict[str, str]]:
    indexes: dict[str, FileIndex] = {p: index_file(p, t.encode()) for p, t in files.items()}
    blobs = {p: hashlib.sha1(t.encode()).hexdigest() for p, t in files.items()}
    return build_graph(indexes, 1), blobs


def every_walk(graph: CallGraph) -> Walks:
    """Each fn's walk, as a run that documents a site in every fn makes them."""
    return {(False, (n,), False): fn_walk(graph, n) for n in range(len(graph.nodes))}


def memo_of(files: Files) -> ReachMemo:
    graph, blobs = graph_of(files)
    keys = node_keys(graph)
    key = memo_key(graph, INDEX_VERSION)
    assert key is not None
    return kept(key, keys, node_digests(graph, blobs, keys), every_walk(graph))


def taken(files: Files, previous: ReachMemo) -> tuple[CallGraph, Walks]:
    graph, blobs = graph_of(files)
    keys = node_keys(graph)
    digests = node_digests(graph, blobs, keys)
    return graph, taken_over(previous, memo_key(graph, INDEX_VERSION), keys, digests, graph)


CHANGES = [
    ("nothing changed", lambda files: dict(files), set()),
    # the lines of other.rs move: its fns are walked again, and nothing else is
    ("a comment in a leaf file", edit("src/other.rs", "pub fn helper", "// helps\npub fn helper"), {"helper", "leaf"}),
    # `put` gets another caller: its walk and every walk below it change
    ("a new caller of put", edit("src/other.rs", "leaf(); }", "leaf(); crate::store::put(); }"), {"helper", "leaf", "put", "check"}),
    ("a fn above edited", edit("src/engine.rs", "pub fn start", "\npub fn start"), {"start", "put", "check"}),
    # c0 changed: c1 .. c8 are within eight callee hops, c9 .. c11 are not (their walks stop
    # below c1)
    ("the top of a long chain", edit("src/top.rs", "pub fn c0", "// the top\npub fn c0"), {f"c{i}" for i in range(9)}),
    # run's file changed: run and every fn below it
    # a second `Thing` with a `flush` (user.rs imports neither): the call may reach either,
    # and the first one's walk says so, although neither its file nor its caller's changed
    ("a same-named type elsewhere", edit("src/other.rs", "pub fn leaf() {}", "pub fn leaf() {}\npub struct Thing;\nimpl Thing {\n    pub fn flush(&self) {}\n}\n"), {"helper", "leaf", "Thing::flush"}),
    ("a call removed", edit("src/cli.rs", " crate::other::helper();", ""), {"run", "start", "put", "check", "helper", "leaf"}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "change", "walked"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_walk_is_taken_over_only_where_no_change_reaches_and_finds_what_a_walk_does(
    name: str, change: Callable[[Files], Files], walked: set[str]
) -> None:
    graph, found = taken(change(BASE), memo_of(BASE))
    fresh = every_walk(graph)
    for walk, paths in found.items():
        assert paths == fresh[walk]  # what is taken over is what a walk finds now
    kept_over = {graph.nodes[nodes[0]].label for _, nodes, _ in found}
    now = {graph.nodes[n].label for n in range(len(graph.nodes))}
    assert kept_over == now - walked
    assert now >= FNS


def test_the_walks_of_a_chain_end_where_the_walk_does() -> None:
    graph, _ = graph_of(BASE)
    c11 = next(n for n, node in enumerate(graph.nodes) if node.label == "c11")
    (path,) = caller_paths(graph, c11)
    # eight fns, c4 .. c11: the walk goes no higher (c0 .. c3 are out of its reach)
    assert [hop.name for hop in path.hops] == [f"c{i}" for i in range(4, 12)]


def test_a_memo_of_other_code_or_shape_takes_nothing_over(tmp_path: Path) -> None:
    memo = memo_of(BASE)
    path = memo_path(tmp_path, "o/r", INDEX_VERSION)
    save_memo(path, memo)
    again = load_memo(path)
    assert again == memo
    assert taken(BASE, again)[1] != {}
    assert taken(BASE, ReachMemo("another key", memo.digests, memo.found))[1] == {}
    damaged = {k: ("not", "paths") for k in memo.found}
    assert taken(BASE, ReachMemo(memo.key, memo.digests, damaged))[1] == {}
    path.write_bytes(b"\x00not marshal")
    assert load_memo(path) is None
    assert load_memo(tmp_path / "absent") is None


_TAKEN = re.compile(r"index: (\d+) walks taken over")  # two processes share stderr


def _run(*args: str | Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", *map(str, args)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "ERRDOC_TIMELINE": "1"},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stderr


def regenerated_and_cold(
    tmp_path: Path, name: str, sources: dict[str, str], change: dict[str, str]
) -> list[dict[str, Any]]:
    """`reach.json`'s rows of a repository of `sources` extracted, then regenerated after
    the commit of `change` (OUT `tmp_path/out`), and of a cold extraction of that commit."""
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(sources)
    out, cache = tmp_path / "out", tmp_path / "cache"
    common = ("--repo", name, "--out", out, "--cache", cache)
    _run("extract", *common, "--sha", "main", "--source", repo.path)
    sha = repo.commit(change)
    _run("regenerate", *common, "--ref", sha, "--source", repo.path)
    cold = tmp_path / "cold"
    _run("extract", "--repo", name, "--sha", sha, "--source", repo.path, "--out", cold,
         "--cache", tmp_path / "cold-cache")  # fmt: skip
    return [json.loads((o / name / "reach.json").read_text())["records"] for o in (out, cold)]


def test_a_regeneration_takes_the_extraction_s_walks_over_and_publishes_a_cold_reach(
    tmp_path: Path,
) -> None:
    """End to end: a regeneration over an edit of one file walks again only what the edit
    can move, and publishes the `reach.json` a cold extraction does."""
    sources = {**BASE, "src/store.rs": 'pub fn put() { check(); }\nfn check() { panic!("full"); }\n',
               "src/chain.rs": CHAIN.replace("pub fn c11() {}", 'pub fn c11() { panic!("deep"); }'),
               "src/other.rs": 'pub fn helper() { leaf(); }\npub fn leaf() { panic!("leaf"); }\n'}  # fmt: skip
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(sources)
    out, cache = tmp_path / "out", tmp_path / "cache"
    common = ("--repo", "o/ws", "--out", out, "--cache", cache)
    first = _run("extract", *common, "--sha", "main", "--source", repo.path)
    assert [int(n) for n in _TAKEN.findall(first)] == [0]  # nothing to take over
    # an extraction into another dataset from the same cache carries nothing: all its walks
    # are made for its sites before any could be read back, so none is
    other = _run("extract", "--repo", "o/ws", "--out", tmp_path / "other", "--cache", cache,
                 "--sha", "main", "--source", repo.path)  # fmt: skip
    assert [int(n) for n in _TAKEN.findall(other)] == [0]
    sha = repo.commit({"src/top.rs": "// the top\n" + sources["src/top.rs"]})
    again = _run("regenerate", *common, "--ref", sha, "--source", repo.path)
    found = _TAKEN.search(again)
    assert found is not None and int(found.group(1)) >= 2, again  # check's and c11's walks
    cold = tmp_path / "cold"
    _run("extract", "--repo", "o/ws", "--sha", sha, "--source", repo.path, "--out", cold,
         "--cache", tmp_path / "cold-cache")  # fmt: skip
    rows = [json.loads((o / "o" / "ws" / "reach.json").read_text())["records"] for o in (out, cold)]
    assert rows[0] == rows[1] != {}


def test_a_type_defined_elsewhere_touches_the_callers_whose_walks_it_decides() -> None:
    # `on_pg` passes its `conn: &mut Pg` to a generic fn whose `e.go()` may be MySQL's:
    # with no `Pg` in the repository that is not judged; once another file defines one,
    # `on_pg` gives a `Pg`, no `MySql`, and MySQL's walk loses it
    base: Files = {
        "src/lib.rs": "pub mod exec;\npub mod pg;\n",
        "src/exec.rs": (
            "pub trait Exec { fn go(&mut self); }\n"
            "pub fn run_with<E: Exec>(e: &mut E) { e.go(); }\n"
            "pub struct MySql;\n"
            'impl Exec for MySql { fn go(&mut self) { panic!("mysql") } }\n'
            "pub fn on_pg(conn: &mut Pg) { run_with(conn); }\n"
        ),
        "src/pg.rs": "pub fn nothing() {}\n",
    }
    changed = edit("src/pg.rs", "pub fn nothing() {}", "pub fn nothing() {}\npub struct Pg;")
    before, _ = graph_of(base)
    (go,) = [i for i, n in enumerate(before.nodes) if n.label == "MySql::go"]
    assert [p.entry_label for p in every_walk(before)[(False, (go,), False)][0]] == [
        "public API `exec::on_pg`"
    ]
    graph, found = taken(changed(base), memo_of(base))
    fresh = every_walk(graph)
    (go,) = [i for i, n in enumerate(graph.nodes) if n.label == "MySql::go"]
    assert [p.entry_label for p in fresh[(False, (go,), False)][0]] == [None]
    assert (False, (go,), False) not in found  # walked again, not taken over
    for walk, paths in found.items():
        assert paths == fresh[walk]


def test_an_own_method_s_return_type_touches_the_callers_that_let_its_value() -> None:
    # `Sink::write` lets `self.writer()`'s value and calls its provided `write_chunk`, whose
    # `self.write_one()` is that writer's: once `writer` (in another file) returns a `Kafka`
    # instead of a `Redis`, Redis's walk loses `Sink::write`, walked again (`sink.rs` is
    # the same blob: `type_facts` holds the type `writer` returns)
    base: Files = {
        "src/lib.rs": "pub mod fmt;\npub mod make;\npub mod sink;\n",
        "src/fmt.rs": (
            "pub trait Formatted {\n"
            "    fn write_one(&mut self);\n"
            "    fn write_chunk(&mut self) { self.write_one() }\n"
            "}\n"
            "pub struct Redis;\n"
            'impl Formatted for Redis { fn write_one(&mut self) { panic!("redis del") } }\n'
            "pub struct Kafka;\n"
            "impl Formatted for Kafka { fn write_one(&mut self) {} }\n"
        ),
        "src/sink.rs": (
            "use crate::fmt::{Formatted, Kafka, Redis};\n"
            "pub struct Sink;\n"
            "impl Sink {\n"
            "    pub fn write(&self) { let mut w = self.writer(); w.write_chunk(); }\n"
            "}\n"
        ),
        "src/make.rs": (
            "use crate::fmt::{Kafka, Redis};\n"
            "use crate::sink::Sink;\n"
            "impl Sink { fn writer(&self) -> Redis { Redis } }\n"
        ),
    }
    changed = edit(
        "src/make.rs", "fn writer(&self) -> Redis { Redis }", "fn writer(&self) -> Kafka { Kafka }"
    )
    before, _ = graph_of(base)
    (one,) = [i for i, n in enumerate(before.nodes) if n.label == "Redis::write_one"]
    assert "public API `sink::Sink::write`" in [
        p.entry_label for p in every_walk(before)[(False, (one,), False)][0]
    ]
    graph, found = taken(changed(base), memo_of(base))
    fresh = every_walk(graph)
    (one,) = [i for i, n in enumerate(graph.nodes) if n.label == "Redis::write_one"]
    assert "public API `sink::Sink::write`" not in [
        p.entry_label for p in fresh[(False, (one,), False)][0]
    ]
    for walk, paths in found.items():
        assert paths == fresh[walk]


def test_a_carried_record_s_reach_reads_its_rebound_parameters_and_what_makes_it(
    tmp_path: Path,
) -> None:
    """A record carried over unparsed gets its reach from its provenance: the parameters
    its fn binds again (`rebound`) and the variant that makes its error (`madeBy`) must be
    there, or the regeneration's `reach.json` names a parameter and drops an HTTP status
    that a cold extraction does not."""
    api = (
        "pub enum ApiError { NotFound(anyhow::Error), Conflict(anyhow::Error) }\n"
        "impl ApiError {\n"
        "    pub fn into_response(self) -> u16 {\n"
        "        match self {\n"
        "            ApiError::NotFound(_) => code(StatusCode::NOT_FOUND),\n"
        "            ApiError::Conflict(_) => code(StatusCode::CONFLICT),\n"
        "        }\n"
        "    }\n"
        "}\n"
        "pub fn get(key: &str) -> Result<u8, ApiError> {\n"
        "    let key = clean(key);\n"
        '    if key.is_empty() { return Err(ApiError::NotFound(anyhow::anyhow!("no key here"))); }\n'
        "    Ok(1)\n"
        "}\n"
    )
    sources = {"Cargo.toml": '[package]\nname = "ws"\n', "src/lib.rs": "pub mod api;\npub mod top;\n",
               "src/api.rs": api, "src/top.rs": "pub fn top() { crate::api::get(\"k\").ok(); }\n"}  # fmt: skip
    rows = regenerated_and_cold(
        tmp_path, "o/ws", sources, {"src/top.rs": "// the top\n" + sources["src/top.rs"]}
    )
    assert rows[0] == rows[1]
    (row,) = [r for r in rows[1].values() if r.get("http_status")]
    assert row["http_status"] == 404
    assert [(d["name"], d.get("rebound")) for d in row["dependencies"]] == [("key", True)]
