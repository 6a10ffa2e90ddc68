"""The repository index and caller paths, on a multi-crate workspace made as a real git repo."""

from __future__ import annotations

import json
import marshal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from reach_fixtures import WORKSPACE, line_of
from regen_fixtures import cli

from pipeline.analyze.reach_text import path_text, situation_sentence, trigger_sentence
from pipeline.analyze.static import explain
from pipeline.core.index import FileIndex, Subcommand
from pipeline.core.model import Record
from pipeline.core.reach import Beyond, CallerPath, Handoff, Hop, Reach, reach_from_json
from pipeline.dataset.reader import page_path
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import (
    caller_paths,
    dependencies,
    reaches_of,
    site_reach,
    spec_of,
    user_conversion,
)
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.collect import build_contexts
from pipeline.scan.entrypoints import build_graph
from pipeline.scan.indexcache import IndexCache, decoded, encoded, index_entries
from pipeline.scan.pool import RepoScan
from pipeline.source.repository import list_files

STORE = "crates/engine/src/store.rs"
LIB = "crates/engine/src/lib.rs"
SQL = "crates/sql/src/lib.rs"
CLI = "crates/cli/src/main.rs"
ADMIN = "crates/admin/src/main.rs"
CLIENT = "crates/client/src/lib.rs"
SERVER = "crates/server/src/lib.rs"
HTTP = "crates/server/src/http.rs"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, str, CallGraph]:
    root = tmp_path_factory.mktemp("reach")
    repo = GitRepo.init(root / "src")
    sha = repo.commit(dict(WORKSPACE))
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    graph = build_graph(index_entries(repo.git_dir, listing.entries, root / "cache", jobs=1))
    return repo, sha, graph


def node(graph: CallGraph, label: str) -> int:
    (found,) = [i for i, n in enumerate(graph.nodes) if n.label == label]
    return found


def called_by(graph: CallGraph, label: str) -> list[tuple[int, str, str]]:
    """What the fn `label` calls: (line, callee label, resolution), sorted."""
    caller = node(graph, label)
    return sorted(
        (e.line, graph.nodes[callee].label, e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
        if e.caller == caller
    )


Hops = list[tuple[str, int | None, str | None, tuple[str, ...]]]


def paths_of(graph: CallGraph, label: str) -> list[tuple[str | None, str | None, Hops]]:
    return [
        (
            p.entry,
            p.entry_label,
            [(h.name, h.call_line, h.resolution, h.candidates) for h in p.hops],
        )
        for p in caller_paths(graph, node(graph, label))
    ]


def test_a_method_through_self_reaches_a_statement_an_rpc_from_the_cli_and_the_rpc(
    workspace: tuple[GitRepo, str, CallGraph],
) -> None:
    _, _, graph = workspace
    write_self = line_of(STORE, "self.check(key)")
    insert = line_of(SQL, "Statement::Insert { key } =>")
    assert paths_of(graph, "Engine::check") == [
        # `Upsert` calls the same chain: one path names both statements
        ("statement", "statement `Statement::Insert` or `Statement::Upsert`", [
            ("handle", insert, None, ()),
            ("handle_insert", line_of(SQL, "engine.write(key)"), "local", ()),
            ("Engine::write", write_self, "type", ()),
            ("Engine::check", None, "self", ()),
        ]),
        ("cli", "subcommand `put` (`Opts::Put`)", [
            ("main", line_of(CLI, "Opts::Put { key } =>"), None, ()),
            ("put", line_of(CLI, "client.put_key(key)"), "local", ()),
            ("KvClient::put_key", line_of(CLIENT, "self.inner.put_key"), "type", ()),
            ("KvServiceImpl::put_key", line_of(SERVER, "self.engine.write"), "rpc", ()),
            ("Engine::write", write_self, "type", ()),
            ("Engine::check", None, "self", ()),
        ]),
        ("rpc", "RPC `KvService::put_key`", [
            ("KvServiceImpl::put_key", line_of(SERVER, "self.engine.write"), None, ()),
            ("Engine::write", write_self, "type", ()),
            ("Engine::check", None, "self", ()),
        ]),
    ]  # fmt: skip


def graph_of(tmp_path: Path, files: dict[str, str]) -> CallGraph:
    """The call graph of a repository of `files`, committed."""
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(files)
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    return build_graph(index_entries(repo.git_dir, listing.entries, tmp_path / "cache", jobs=1))


def test_fns_named_alike_on_one_path_are_told_apart_by_their_modules(tmp_path: Path) -> None:
    """`run` -> `run` reads as a fn calling itself: each is named with as much of its
    module path as tells them apart, and no more; a name met once stays as it is."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/main.rs": "mod commands;\nmod engine;\nfn main() {\n    commands::run(1).unwrap();\n}\n",
        "src/commands.rs": "pub fn run(x: u32) -> anyhow::Result<()> {\n    crate::engine::run(x)\n}\n",
        "src/engine.rs": (
            "pub fn run(x: u32) -> anyhow::Result<()> {\n"
            '    anyhow::ensure!(x > 1, "engine stopped");\n'
            "    Ok(())\n}\n"
        ),
    })  # fmt: skip
    (engine,) = [i for i, n in enumerate(graph.nodes) if n.path == "src/engine.rs"]

    (path,) = caller_paths(graph, engine)

    assert path.entry == "main"
    assert [h.name for h in path.hops] == ["main", "commands::run", "engine::run"]
    assert path_text(path) == "`main` -> `commands::run` -> `engine::run`"


def test_same_named_handlers_of_two_subcommands_are_two_paths_each_from_its_own(
    tmp_path: Path,
) -> None:
    """mdBook: `build` and `serve` each call their module's `execute`, and both reach the
    same error through `Book::build`: two chains, each path named by the subcommand that
    takes it, not one path through `build` named "`build` or `serve`" (reading 116)."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "book"\n',
        "src/main.rs": (
            "mod cmd;\nmod book;\nfn main() {\n"
            '    let command = Command::new("book")\n'
            '        .subcommand(Command::new("build"))\n'
            '        .subcommand(Command::new("serve"));\n'
            "    match command.get_matches().subcommand() {\n"
            '        Some(("build", m)) => cmd::build::execute(),\n'
            '        Some(("serve", m)) => cmd::serve::execute(),\n'
            "        _ => Ok(()),\n    }.unwrap();\n}\n"
        ),
        "src/cmd/mod.rs": "pub mod build;\npub mod serve;\n",
        "src/cmd/build.rs": "pub fn execute() -> anyhow::Result<()> {\n    crate::book::build()\n}\n",
        "src/cmd/serve.rs": "pub fn execute() -> anyhow::Result<()> {\n    crate::book::build()\n}\n",
        "src/book.rs": 'pub fn build() -> anyhow::Result<()> {\n    anyhow::bail!("no book")\n}\n',
    })  # fmt: skip
    (build,) = [i for i, n in enumerate(graph.nodes) if n.path == "src/book.rs"]

    paths = caller_paths(graph, build)

    assert sorted((p.hops[1].file_path, p.hops[0].call_line) for p in paths) == [
        ("src/cmd/build.rs", 8),
        ("src/cmd/serve.rs", 9),
    ]
    assert sorted(p.entry_label or "" for p in paths) == [
        "subcommand `build`",
        "subcommand `serve`",
    ]


def test_a_types_inherent_method_and_its_trait_method_of_one_name_are_told_apart_by_the_trait(
    tmp_path: Path,
) -> None:
    graph = graph_of(tmp_path, {
        "src/main.rs": (
            "pub trait Source {\n    fn load(&self, x: u32) -> anyhow::Result<u32>;\n}\n"
            "pub struct Http;\n"
            "impl Http {\n"
            "    pub fn load(&self, x: u32, tries: u8) -> anyhow::Result<u32> {\n"
            '        anyhow::ensure!(x > tries as u32, "http load refused");\n'
            "        Ok(x)\n    }\n}\n"
            "impl Source for Http {\n"
            "    fn load(&self, x: u32) -> anyhow::Result<u32> {\n"
            "        Http::load(self, x, 3)\n    }\n}\n"
            "fn main() {\n    let source = Http;\n    Source::load(&source, 1).unwrap();\n}\n"
        ),
    })  # fmt: skip
    (inherent,) = [
        i for i, n in enumerate(graph.nodes) if n.label == "Http::load" and not n.definition.trait
    ]

    names = [[h.name for h in p.hops] for p in caller_paths(graph, inherent)]

    assert ["<Http as Source>::load", "Http::load"] in [n[-2:] for n in names]


def test_a_method_call_on_self_takes_the_types_inherent_method_before_its_traits(
    tmp_path: Path,
) -> None:
    """cargo's `impl RegistryData for HttpRegistry { fn config(&mut self) { ..self.config()?
    .. } }` calls the inherent `HttpRegistry::config`, which Rust takes first; it read as an
    ambiguous call, the trait's own fn its other candidate (reading 149)."""
    graph = graph_of(tmp_path, {
        "src/main.rs": (
            "pub trait RegistryData {\n    fn config(&mut self) -> anyhow::Result<u32>;\n}\n"
            "pub struct HttpRegistry;\n"
            "impl HttpRegistry {\n"
            "    fn config(&mut self) -> anyhow::Result<Option<u32>> {\n"
            '        anyhow::bail!("config.json not found")\n    }\n}\n'
            "impl RegistryData for HttpRegistry {\n"
            "    fn config(&mut self) -> anyhow::Result<u32> {\n"
            "        Ok(self.config()?.unwrap_or(0))\n    }\n}\n"
            "fn main() {\n    let mut r = HttpRegistry;\n    RegistryData::config(&mut r).unwrap();\n}\n"
        ),
    })  # fmt: skip
    (inherent,) = [
        i for i, n in enumerate(graph.nodes)
        if n.label == "HttpRegistry::config" and not n.definition.trait
    ]  # fmt: skip

    callers = [
        (graph.nodes[e.caller].definition.trait, e.resolution, len(e.candidates))
        for e in graph.callers[inherent]
    ]

    assert callers == [("RegistryData", "self", 0)]  # the trait impl's fn, one candidate


def test_a_private_inherent_method_is_not_what_another_module_calls(tmp_path: Path) -> None:
    """neon's `GCSBucket::head_object` is private to its module: `lib.rs`'s call on a
    `&GCSBucket` is the `RemoteStorage` impl's, which calls the private one (paths 151)."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "a"\n',
        "src/lib.rs": (
            "mod gcs;\npub use gcs::{Gcs, Storage};\n"
            "pub fn check(gcs: &Gcs, key: &str) -> anyhow::Result<u8> {\n"
            "    gcs.head_object(key)\n}\n"
        ),
        "src/gcs.rs": (
            "pub trait Storage {\n    fn head_object(&self, key: &str) -> anyhow::Result<u8>;\n}\n"
            "pub struct Gcs;\n"
            "impl Gcs {\n"
            "    fn head_object(&self, key: String) -> anyhow::Result<u8> {\n"
            '        anyhow::bail!("no object {key}")\n    }\n}\n'
            "impl Storage for Gcs {\n"
            "    fn head_object(&self, key: &str) -> anyhow::Result<u8> {\n"
            "        self.head_object(key.to_string())\n    }\n}\n"
        ),
    })  # fmt: skip
    (check,) = [i for i, n in enumerate(graph.nodes) if n.label == "check"]

    called = {
        (graph.nodes[callee].definition.trait, len(e.candidates))
        for callee, edges in graph.callers.items()
        for e in edges
        if e.caller == check
    }

    assert called == {("Storage", 0)}  # the impl, not the private inherent fn


def test_a_traits_fn_called_on_self_from_an_inherent_fn_runs_the_types_impl(
    tmp_path: Path,
) -> None:
    """risingwave's inherent `IcebergCreateTableArrowConvert::to_arrow_field` calls
    `ToArrow::to_arrow_field(self, ..)`: the type's impl of it, not `ToArrow`'s default
    body; once the inherent fn was taken first, its `CREATE TABLE` path hung on this."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "a"\n',
        "src/lib.rs": (
            "pub trait ToArrow {\n"
            "    fn to_arrow_field(&self, n: u8) -> anyhow::Result<u8> { Ok(n) }\n}\n"
            "#[derive(Default)]\npub struct Conv;\n"
            "impl Conv {\n"
            "    pub fn to_arrow_field(&self, n: u8) -> anyhow::Result<u8> {\n"
            "        ToArrow::to_arrow_field(self, n)\n    }\n}\n"
            "impl ToArrow for Conv {\n"
            "    fn to_arrow_field(&self, n: u8) -> anyhow::Result<u8> {\n"
            '        anyhow::bail!("no arrow type for {n}")\n    }\n}\n'
            "pub fn create() {\n    Conv::default().to_arrow_field(1).unwrap();\n}\n"
        ),
    })  # fmt: skip
    (overriding,) = [
        i for i, n in enumerate(graph.nodes)
        if n.definition.owner == "Conv" and n.definition.trait == "ToArrow"
    ]  # fmt: skip

    paths = [[(h.name, h.resolution) for h in p.hops] for p in caller_paths(graph, overriding)]

    assert [("Conv::to_arrow_field", None), ("<Conv as ToArrow>::to_arrow_field", "type")] in (
        paths
    )  # the inherent fn, public, and the impl it runs


def test_a_typed_field_picks_the_one_impl_of_a_trait(
    workspace: tuple[GitRepo, str, CallGraph],
) -> None:
    _, _, graph = workspace
    callers = graph.callers.get(node(graph, "Memory::put"), [])
    assert [(graph.nodes[e.caller].label, e.resolution) for e in callers] == [
        ("Engine::write", "type")
    ]
    assert graph.callers.get(node(graph, "Disk::put"), []) == []
    assert graph.callers.get(node(graph, "Store::put"), []) == []


def test_same_named_methods_a_typed_parameter_and_an_ambiguous_receiver(
    workspace: tuple[GitRepo, str, CallGraph],
) -> None:
    _, _, graph = workspace
    conn = [
        (
            graph.nodes[e.caller].label,
            e.resolution,
            tuple(graph.nodes[c].label for c in e.candidates),
        )
        for e in graph.callers[node(graph, "Conn::shutdown")]
    ]
    assert conn == [("stop", "type", ()), ("stop_any", "name", ("Engine::shutdown",))]
    engine = [
        (
            graph.nodes[e.caller].label,
            e.resolution,
            tuple(graph.nodes[c].label for c in e.candidates),
        )
        for e in graph.callers[node(graph, "Engine::shutdown")]
    ]
    assert engine == [("stop_any", "name", ("Conn::shutdown",))]
    assert paths_of(graph, "Conn::shutdown") == [
        ("pub-api", "public API `engine::store::stop`", [
            ("stop", line_of(STORE, "conn.shutdown()"), None, ()),
            ("Conn::shutdown", None, "type", ()),
        ]),
        ("pub-api", "public API `engine::store::stop_any`", [
            ("stop_any", line_of(STORE, "x.item.shutdown()"), None, ()),
            ("Conn::shutdown", None, "name", ("Engine::shutdown",)),
        ]),
    ]  # fmt: skip


def test_recursion_ends_and_paths_reach_an_http_route_and_a_builder_subcommand(
    workspace: tuple[GitRepo, str, CallGraph],
) -> None:
    _, _, graph = workspace
    walk = node(graph, "walk")
    assert any(e.caller == walk for e in graph.callers[walk])  # it calls itself
    assert paths_of(graph, "walk") == [
        ("http", "HTTP POST /keys", [
            ("create_key", line_of(HTTP, "engine::walk(0)"), None, ()),
            ("walk", None, "import", ()),
        ]),
        ("cli", "subcommand `halt`", [
            ("main", line_of(ADMIN, 'Some(("halt", _)) =>'), None, ()),
            ("halt", line_of(ADMIN, "engine::walk(1)"), "local", ()),
            ("walk", None, "import", ()),
        ]),
    ]  # fmt: skip


def test_a_use_import_from_a_derived_subcommand_and_a_library_pub_api(
    workspace: tuple[GitRepo, str, CallGraph],
) -> None:
    _, _, graph = workspace
    assert paths_of(graph, "check_len") == [
        ("cli", "subcommand `check` (`Opts::Check`)", [
            ("main", line_of(CLI, "Opts::Check { name } =>"), None, ()),
            ("validate", line_of(LIB, "check_len(name)"), "import", ()),
            ("check_len", None, "local", ()),
        ]),
    ]  # fmt: skip
    assert paths_of(graph, "handle") == [
        ("pub-api", "public API `sql::handle`", [("handle", None, None, ())])
    ]
    # `handle` is called by nobody but is public; `handle_drop` is private and called by it
    assert paths_of(graph, "handle_drop") == [
        ("statement", "statement `Statement::Drop`", [
            ("handle", line_of(SQL, "Kind::Table =>"), None, ()),
            ("handle_drop", None, "local", ()),
        ]),
    ]  # fmt: skip


def test_bare_names_resolve_only_where_rust_puts_them_in_scope(
    workspace: tuple[GitRepo, str, CallGraph],
) -> None:
    _, _, graph = workspace
    labels = lambda target: [  # noqa: E731
        (graph.nodes[e.caller].label, e.resolution)
        for e in graph.callers.get(node(graph, target), [])
    ]
    assert labels("normalize") == [("handle_drop", "import")]  # `use crate::util::*`
    assert labels("validate") == [("main", "import")]  # not `apply`'s pattern-bound `validate`
    assert labels("write") == [("Engine::flush", "local")]  # a fn nested in a method is free
    assert labels("walk") == [("halt", "import"), ("walk", "local"), ("create_key", "import")]


def test_a_field_chain_is_typed_and_a_dispatch_passes_only_its_own_variant(
    workspace: tuple[GitRepo, str, CallGraph],
) -> None:
    _, _, graph = workspace
    (edge,) = graph.callers[node(graph, "Engine::run_job")]
    assert (graph.nodes[edge.caller].label, edge.resolution) == (
        "AdminServiceImpl::flush_all",
        "type",
    )
    assert paths_of(graph, "Engine::flush")[0] == (
        "rpc", "RPC `AdminService::flush_all`", [
            ("AdminServiceImpl::flush_all", line_of(SERVER, "run_job(Job::Flush)"), None, ()),
            ("Engine::run_job", line_of(STORE, "self.flush();"), "type", ()),
            ("Engine::flush", None, "self", ()),
        ],
    )  # fmt: skip
    # `flush_all` passes `Job::Flush`: it never reaches the `Job::Put` arm
    assert paths_of(graph, "Engine::put_raw") == [
        (None, None, [
            ("Engine::run_job", line_of(STORE, "Job::Put(key) =>"), None, ()),
            ("Engine::put_raw", None, "self", ()),
        ]),
    ]  # fmt: skip


def test_user_facing_conversions(workspace: tuple[GitRepo, str, CallGraph]) -> None:
    _, _, graph = workspace
    assert user_conversion(graph, "ApiError", HTTP) == (
        f"impl IntoResponse for ApiError ({HTTP}:{line_of(HTTP, 'impl IntoResponse')})",
        404,
    )
    assert user_conversion(graph, "ServerError", SERVER) == (
        f"impl From<ServerError> for Status ({SERVER}:{line_of(SERVER, 'impl From<')})",
        None,
    )
    # the server crate has its own `Error` with a conversion; `anyhow::Error` is not it
    assert user_conversion(graph, "Error", SERVER)[0] == (
        f"impl From<Error> for Status ({SERVER}:{line_of(SERVER, 'impl From<Error>')})"
    )
    assert user_conversion(graph, "anyhow::Error", SERVER) == (None, None)


def test_index_of_a_file_definitions_docs_macros_and_uses() -> None:
    from pipeline.languages.rust.index import index_file

    source = b"""use a::{b::C, d as e, f::*};

/// Doc line.
pub async fn run(x: u32, y: &str) -> Result<(), E> {
    println!("{}", compute(x));
    Ok(())
}

#[cfg(test)]
mod tests {
    fn hidden() { run(1, "a"); }
}
"""
    index = index_file("src/lib.rs", source)
    (fn,) = index.definitions
    assert (fn.name, fn.doc, fn.public, fn.params) == (
        "run",
        "Doc line.",
        True,
        (("x", "u32"), ("y", "&str")),
    )
    assert fn.signature == "pub async fn run(x: u32, y: &str) -> Result<(), E>"
    assert [(c.name, c.kind, c.in_macro, c.arity, c.caller) for c in index.calls] == [
        ("compute", "plain", True, 1, 0),
        ("Ok", "plain", False, 1, 0),
    ]
    assert [(u.alias, u.path) for u in index.uses] == [
        ("C", "a::b::C"),
        ("e", "a::d"),
        ("*", "a::f"),
    ]
    assert index_file("tests/it.rs", source) == FileIndex(clean=False)


def test_a_use_list_s_self_imports_the_module_itself() -> None:
    """vector's `use tokio::{runtime::{self, Handle}}` imported `self` as `tokio::runtime::
    self`: `runtime::Builder` was read as no import at all (reading 211)."""
    from pipeline.languages.rust.index import index_file

    source = b"use tokio::{runtime::{self, Handle}, sync::{self as channels}};\nfn f() {}\n"

    assert [(u.alias, u.path) for u in index_file("src/lib.rs", source).uses] == [
        ("runtime", "tokio::runtime"),
        ("Handle", "tokio::runtime::Handle"),
        ("channels", "tokio::sync"),
    ]


def test_a_call_with_a_turbofish_in_a_macro_s_tokens_is_a_call() -> None:
    """tikv's `run_tikv` calls `run_impl::<RocksEngine, API>(..)` inside
    `dispatch_api_version!(.., { .. })`: the arguments follow the turbofish, not the name
    (the server's 44 records under `run_impl` had no way in from `main`). `>>` closes two."""
    from pipeline.languages.rust.index import index_file

    source = b"""pub fn run_tikv(c: u32) {
    dispatch!(c, {
        if c > 1 { run_impl::<Rocks, Vec<Api<u8>>>(c, 2) } else { run_impl::<Raft, Api>(c) }
    });
    check!(s.parse::<u32>(), server::start::<Api>(c), q::<T> + 1);
}
"""
    index = index_file("src/lib.rs", source)
    assert [(c.name, c.kind, c.qualifier, c.line, c.arity) for c in index.calls] == [
        ("run_impl", "plain", "", 3, 2),
        ("run_impl", "plain", "", 3, 1),
        ("parse", "method", "s", 5, 0),
        ("start", "path", "server", 5, 1),
    ]


def test_a_fn_path_as_a_method_s_receiver_is_a_call_of_the_fn() -> None:
    """risingwave's `Parser::parse_sql` runs `Parser::parse_statements.parse(parser)`: winnow's
    `Parser` trait, implemented for fns, calls it (46 records under `parse_statements` had
    no caller). A path to a fn as a receiver is a call on the caller's behalf, of unknown
    arity, as one passed as an argument is; a const's or a variant's is not."""
    from pipeline.languages.rust.index import index_file

    source = b"""pub fn parse_sql(parser: P) -> u32 {
    Parser::parse_statements.parse(parser).map(Self::finish);
    Kind::MAX.min(3) + self::helpers::parse_name.context("name").parse_next(parser)
}
"""
    index = index_file("src/lib.rs", source)
    assert [(c.name, c.kind, c.qualifier, c.line, c.arity) for c in index.calls] == [
        ("parse_statements", "path", "Parser", 2, -1),
        ("parse", "method", "Parser::parse_statements", 2, 1),
        ("map", "method", "Parser::parse_statements.parse(parser)", 2, 1),
        ("finish", "path", "Self", 2, -1),
        ("min", "method", "Kind::MAX", 3, 1),
        ("parse_name", "path", "self::helpers", 3, -1),
        ("context", "method", "self::helpers::parse_name", 3, 1),
        ("parse_next", "method", 'self::helpers::parse_name.context("name")', 3, 1),
    ]


def test_an_items_doc_attributes_and_test_mark_are_read_from_the_lines_above_it() -> None:
    from pipeline.languages.rust.index import index_file

    source = b"""
impl Server {
    // A plain comment above the doc ends the doc, not the attributes.
    /// Serves one request.
    #[get("/run")]
    ///
    /// Then its details.
    #[inline]
    pub(crate) fn serve(&self) {}

    #[cfg(test)]
    /// Only tests build this one.
    fn probe(&self) {}

    /** A block doc. */
    #[tokio::main]
    fn main() {}
}

#[cfg(test)]
impl Server {
    fn also_hidden(&self) {}
}
"""
    index = index_file("src/server.rs", source)
    assert [(d.name, d.doc, d.attrs, d.public, d.owner) for d in index.definitions] == [
        ("serve", "Serves one request.\n\nThen its details.", ('get("/run")',), False, "Server"),
        ("main", "A block doc.", ("tokio::main",), False, "Server"),
    ]
    assert [route.path for route in index.routes] == ["/run"]


def test_an_index_comes_back_from_the_cache_exactly_tuples_and_all() -> None:
    source = b"""
pub fn handle(stmt: Statement, (a, b): (u8, u8)) -> Result<()> {
    #[allow(unused)]
    match stmt { Statement::Drop(d) => drop_it(d, a), _ => run(b, "x") }
}
"""
    from pipeline.languages.rust.index import index_file

    index = index_file("src/h.rs", source)
    assert index.definitions[0].params and index.arms and index.calls[0].args
    back = decoded(encoded(index))
    assert back == index
    assert type(back.definitions[0].params[0]) is tuple and type(back.arms[0].calls) is tuple
    hash(back.definitions[0])  # hashable: every field a tuple, none a list


@pytest.mark.parametrize(
    "body",
    [
        b"not marshal at all",
        marshal.dumps([1, 2]),
        marshal.dumps({"clean": True}),
        marshal.dumps({"clean": True, "test_modules": (), "definitions": [("f",)]}),
        marshal.dumps({"clean": True, "test_modules": (), "definitions": (("f",),)}),
        marshal.dumps(compile("1", "x", "eval")),
    ],
)
def test_a_damaged_cache_row_is_a_miss_and_parsed_again(tmp_path: Path, body: bytes) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({"src/a.rs": "fn a() { b(); }\nfn b() {}\n"})
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    first = index_entries(repo.git_dir, listing.entries, tmp_path / "cache", jobs=1)
    cache = IndexCache(tmp_path / "cache")
    with cache._db:
        cache._db.execute("UPDATE indexes SET body = ?", (body,))
    assert cache.get_many([repo.blob_sha("src/a.rs")]) == {}
    cache.close()
    again = index_entries(repo.git_dir, listing.entries, tmp_path / "cache", jobs=1)
    assert again == first and len(first["src/a.rs"].calls) == 1


def test_the_index_cache_reparses_only_changed_blobs(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({"src/a.rs": "fn a() { b(); }\n", "src/b.rs": "fn b() {}\n"})
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    first = index_entries(repo.git_dir, listing.entries, tmp_path / "cache", jobs=1)
    assert decoded(encoded(first["src/a.rs"])) == first["src/a.rs"]
    # a marked entry for the unchanged blob: if it were parsed again, the mark would be gone
    marked = FileIndex(subcommands=(Subcommand("marked", 1),))
    cache = IndexCache(tmp_path / "cache")
    cache.put_many({repo.blob_sha("src/b.rs"): marked})
    cache.close()
    sha = repo.commit({"src/a.rs": "fn a() { b(); b(); }\n"})
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    second = index_entries(repo.git_dir, listing.entries, tmp_path / "cache", jobs=1)
    assert second["src/b.rs"] == marked
    assert [c.line for c in second["src/a.rs"].calls] == [1, 1] != []


def test_extract_stores_reach_by_record_id_and_records_do_not_change_shape(
    workspace: tuple[GitRepo, str, CallGraph], tmp_path: Path
) -> None:
    repo, sha, _ = workspace
    common = ["--repo", "o/ws", "--sha", sha, "--source", str(repo.path), "--jobs", "1"]
    result = cli(
        "extract", *common, "--out", str(tmp_path / "with"), "--cache", str(tmp_path / "c")
    )
    assert result.exit_code == 0, result.output
    root = tmp_path / "with" / "o" / "ws"
    reach = json.loads((root / "reach.json").read_text())
    records = [json.loads(line) for line in (root / "records.jsonl").read_text().splitlines()]
    (record,) = [r for r in records if r["errorMessage"].startswith("engine is read-only")]
    entry = reach_from_json(reach["records"][record["id"]])
    assert [h.name for h in entry.paths[0].hops] == [
        "handle",
        "handle_insert",
        "Engine::write",
        "Engine::check",
    ]
    (field,) = entry.dependencies
    assert (field.name, field.kind, field.doc, field.line) == (
        "self.read_only",
        "field",
        "Refuse every write.",
        line_of(STORE, "pub read_only"),
    )
    (long,) = [r for r in records if r["errorMessage"].startswith("name too long")]
    deps = {d.name: d for d in reach_from_json(reach["records"][long["id"]]).dependencies}
    assert deps["MAX_LEN"].doc == "The longest name a key may have."
    assert deps["name"].text == "name: &str"
    assert deps["name"].passed == (
        Handoff("validate", "name", LIB, line_of(LIB, "check_len(name)")),
        Handoff("main", "&name", CLI, line_of(CLI, "Opts::Check")),
    )
    without = tmp_path / "without"
    result = cli("extract", *common, "--out", str(without), "--cache", str(tmp_path / "c2"),
                 env={"ERRDOC_NO_INDEX": "1"})  # fmt: skip
    assert result.exit_code == 0, result.output
    assert not (without / "o" / "ws" / "reach.json").exists()
    plain = [
        json.loads(line)
        for line in (without / "o" / "ws" / "records.jsonl").read_text().splitlines()
    ]
    assert [sorted(r) for r in plain] == [sorted(r) for r in records]
    assert len(records[0]) == 32
    (missing,) = [r for r in records if r["errorMessage"] == "key {0} is missing"]
    assert missing["httpStatus"] == 404  # `impl IntoResponse for ApiError` names NOT_FOUND
    assert [r["httpStatus"] for r in plain if r["id"] == missing["id"]] == [None]


def extracted_record(
    repo: GitRepo, sha: str, name: str, tmp_path: Path, message: str
) -> dict[str, Any]:
    """`errdoc extract` of `repo` at `sha` into `tmp_path/out`; the record whose message
    starts with `message`."""
    result = cli("extract", "--repo", name, "--sha", sha, "--source", str(repo.path),
                 "--jobs", "1", "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "c"))  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "out" / name / "records.jsonl").read_text().splitlines()
    (record,) = [r for r in map(json.loads, lines) if r["errorMessage"].startswith(message)]
    return dict(record)


def committed_and_extracted(
    files: dict[str, str], name: str, tmp_path: Path, message: str
) -> tuple[str, dict[str, Any]]:
    """`files` committed to a new repository, extracted as `name` (`extracted_record`): the
    commit's sha and the record whose message starts with `message`."""
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(files)
    return sha, extracted_record(repo, sha, name, tmp_path, message)


def extracted_reach(tmp_path: Path, record: dict[str, Any]) -> dict[str, Any]:
    """`record`'s row of the `reach.json` that `committed_and_extracted` wrote."""
    reach = json.loads((tmp_path / "out" / record["repo"] / "reach.json").read_text())
    return dict(reach["records"][record["id"]])


def reach_section(out: Path, site: Path, record: dict[str, Any]) -> str:
    """The "How you get here" section of `record`'s page, after `errdoc render`."""
    result = cli("render", "--out", str(out), "--site", str(site))
    assert result.exit_code == 0, result.output
    page = (site / page_path(Record.model_validate(record))).read_text()
    return page.split('<section id="reach">', 1)[1].split("</section>", 1)[0]


def test_the_path_is_used_in_the_static_text_the_page_and_explain_json(
    workspace: tuple[GitRepo, str, CallGraph], tmp_path: Path
) -> None:
    repo, sha, _ = workspace
    out, site = tmp_path / "out", tmp_path / "site"
    record = extracted_record(repo, sha, "o/ws", tmp_path, "engine is read-only")
    assert record["triggerScenarios"].endswith(
        f" At commit {sha[:10]} it is reached from statement `Statement::Insert` or"
        " `Statement::Upsert`: `handle` ->"
        " `handle_insert` -> "
        "`Engine::write` -> `Engine::check`. The conditions depend on `self.read_only` "
        "(field `pub read_only: bool`: Refuse every write.)."
    )
    assert record["commonSituations"].endswith(
        f" At commit {sha[:10]}, users meet it through statement `Statement::Insert` or"
        " `Statement::Upsert`,"
        " subcommand `put` (`Opts::Put`), "
        "RPC `KvService::put_key`."
    )
    section = reach_section(out, site, record)
    pinned = f"https://github.com/o/ws/blob/{sha}/"
    assert "From statement <code>Statement::Insert</code>" in section
    assert f'<a href="{pinned}{SQL}#L{line_of(SQL, "pub fn handle")}"' in section
    assert f'RPC <a href="{pinned}{SERVER}#L{line_of(SERVER, "async fn put_key")}"' in section
    assert f'<a href="{pinned}{STORE}#L{line_of(STORE, "self.check(key)")}"' in section
    result = cli("explain", "--out", str(out), "--json", "engine is read-only, cannot write k1")
    assert result.exit_code == 0, result.output
    (match,) = json.loads(result.output)
    assert match["id"] == record["id"]
    hops = [h["name"] for h in match["reach"]["paths"][0]["hops"]]
    assert hops == ["handle", "handle_insert", "Engine::write", "Engine::check"]


GUARDED = {
    "Cargo.toml": '[package]\nname = "gate"\n',
    "src/lib.rs": "pub mod api;\nmod guard;\n",
    "src/guard.rs": (
        "pub(crate) fn check(flag: bool) -> anyhow::Result<()> {\n"
        "    if flag {\n"
        '        anyhow::bail!("the gate refused the request");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
    ),
}


def api(name: str) -> str:
    """`src/api.rs`: one public fn, `name`, that calls the guarded `check`."""
    return f"use crate::guard::check;\n\npub fn {name}(flag: bool) -> anyhow::Result<()> {{\n    check(flag)\n}}\n"


def test_a_kept_explanation_dates_its_path_and_the_page_shows_the_current_one(
    tmp_path: Path,
) -> None:
    """SPEC 7 keeps the record of an unchanged file as it was; its caller changed elsewhere.
    The static text says at which commit its path held, `reach.json` and the page give the
    path at the dataset's commit: the two never contradict each other."""
    repo = GitRepo.init(tmp_path / "src")
    first = repo.commit({**GUARDED, "src/api.rs": api("open_gate")})
    before = extracted_record(repo, first, "o/gate", tmp_path, "the gate refused")
    assert (
        f" At commit {first[:10]} it is reached from public API `gate::api::open_gate`: `open_gate`"
        " -> `check`. The conditions depend on `flag`"
    ) in before["triggerScenarios"]
    second = repo.commit({"src/api.rs": api("enter")})
    result = cli("regenerate", "--repo", "o/gate", "--ref", second, "--out", str(tmp_path / "out"),
                 "--cache", str(tmp_path / "c"), "--jobs", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    root = tmp_path / "out" / "o" / "gate"
    kept = json.loads((root / "records" / f"{before['id']}.json").read_text())["record"]
    assert kept == before  # not rewritten: its file is unchanged (SPEC 7)
    reach = reach_from_json(json.loads((root / "reach.json").read_text())["records"][kept["id"]])
    assert [h.name for h in reach.paths[0].hops] == ["enter", "check"]
    section = reach_section(tmp_path / "out", tmp_path / "site", kept)
    assert "<code>gate::api::enter</code>" in section and "open_gate" not in section


def test_a_parameter_s_callers_are_prose_after_its_code(tmp_path: Path) -> None:
    """A parameter's declaration is code; what each caller up the path passes for it is a
    sentence naming code (xh read "(parameter `args: Cli; `main` passes `args` (..)`)", the
    backticks crossed). The page links each caller at its call."""
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({**GUARDED, "src/api.rs": api("open_gate")})
    record = extracted_record(repo, sha, "o/gate", tmp_path, "the gate refused")
    assert record["triggerScenarios"].endswith(
        "The conditions depend on `flag` (parameter `flag: bool`; `open_gate` passes `flag`"
        " (src/api.rs:4))."
    )
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    call = f"https://github.com/o/gate/blob/{sha}/src/api.rs#L4"
    assert (
        f'(parameter): <code>flag: bool</code>; <a href="{call}" rel="nofollow noopener'
        ' noreferrer">open_gate</a> passes <code>flag</code>'
    ) in section


def test_a_caller_further_up_is_said_to_pass_the_value_to_the_next_caller(
    tmp_path: Path,
) -> None:
    """Each caller up the path passes the value to the one below it: tikv's `on_casual_msg`
    read as passing `index` to `verify_and_store_hash`, which it never calls (reading 241)."""
    files = {
        "Cargo.toml": '[package]\nname = "raft"\n',
        "src/lib.rs": (
            "pub fn on_msg(index: u64) -> anyhow::Result<()> {\n    on_hash(index)\n}\n"
            "fn on_hash(idx: u64) -> anyhow::Result<()> {\n    verify(idx)\n}\n"
            "fn verify(expected: u64) -> anyhow::Result<()> {\n"
            '    if expected > 9 {\n        anyhow::bail!("hash index too far ahead");\n    }\n'
            "    Ok(())\n}\n"
        ),
    }
    _, record = committed_and_extracted(files, "o/raft", tmp_path, "hash index too far")
    assert record["triggerScenarios"].endswith(
        "The conditions depend on `expected` (parameter `expected: u64`; `on_hash` passes `idx`"
        " (src/lib.rs:5); `on_msg` passes `index` to `on_hash` (src/lib.rs:2))."
    )
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert "passes <code>index</code> to <code>on_hash</code>" in section


def test_an_index_is_a_function_of_the_bytes_in_document_order() -> None:
    from pipeline.languages.rust.index import index_file

    sources = {path: text.encode() for path, text in WORKSPACE.items() if path.endswith(".rs")}
    first = {path: index_file(path, source) for path, source in sources.items()}
    again = {path: index_file(path, source) for path, source in reversed(sources.items())}
    assert first == again
    for index in first.values():
        lines = [d.line for d in index.definitions if d.kind == "fn"]
        assert lines == sorted(lines)
        assert [c.line for c in index.calls] == sorted(c.line for c in index.calls)
    uses = first[SQL].uses
    assert [(u.alias, u.path) for u in uses] == [
        ("Engine", "engine::Engine"), ("*", "crate::util"),
    ]  # fmt: skip


def test_an_include_limits_the_sites_not_the_callers_the_index_reads(
    workspace: tuple[GitRepo, str, CallGraph], tmp_path: Path
) -> None:
    repo, sha, _ = workspace
    result = cli(
        "extract", "--repo", "o/ws", "--sha", sha, "--source", str(repo.path), "--jobs", "1",
        "--include", "crates/engine/**", "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "c"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    root = tmp_path / "out" / "o" / "ws"
    records = [json.loads(line) for line in (root / "records.jsonl").read_text().splitlines()]
    assert {r["filePath"].split("/src/")[0] for r in records} == {"crates/engine"}
    (record,) = [r for r in records if r["errorMessage"].startswith("engine is read-only")]
    reach = reach_from_json(json.loads((root / "reach.json").read_text())["records"][record["id"]])
    # `handle` and `handle_insert` live in crates/sql, outside the include.
    assert [h.name for h in reach.paths[0].hops][:2] == ["handle", "handle_insert"]


def test_a_chain_deeper_than_the_search_still_shows_its_callers() -> None:
    from pipeline.languages.rust.index import index_file
    from pipeline.scan.callerpaths import MAX_DEPTH

    # f0 -> f1 -> ... -> f11 -> site: no entry point within MAX_DEPTH calls
    fns = [f"fn f{i}() {{ f{i + 1}(); }}" for i in range(11)] + ['fn f11() { panic!("deep"); }']
    graph = build_graph({"src/deep.rs": index_file("src/deep.rs", "\n".join(fns).encode())})
    (path,) = caller_paths(graph, node(graph, "f11"))
    assert path.entry is None
    assert [h.name for h in path.hops] == [f"f{i}" for i in range(12 - MAX_DEPTH, 12)]


def test_a_cut_path_says_where_the_way_in_is_further_up(tmp_path: Path) -> None:
    """A path the depth limit cut ends at the 8th call, and says which entry point reaches
    its top how many calls further up (delta's `main`, one call above `run_app`, had been
    "no entry point found within 8 calls", readings 109-110); reach.json keeps it as
    `beyond`. A chain whose top no walk of 8 more calls ties to an entry point says the
    search stops there."""
    chain = [f"fn f{i}() {{\n    f{i + 1}();\n}}\n" for i in range(10)]
    files = {
        "Cargo.toml": '[package]\nname = "deep"\n',
        "src/main.rs": "fn main() {\n    f0();\n}\n"
        + "".join(chain)
        + (
            'fn f10() {\n    panic!("too deep");\n}\n'
            "fn g0() {\n    g1();\n}\n"
            + "".join(f"fn g{i}() {{\n    g{i + 1}();\n}}\n" for i in range(1, 17))
            + 'fn g17() {\n    panic!("far too deep");\n}\n'
        ),
    }
    _, record = committed_and_extracted(files, "o/deep", tmp_path, "too deep")
    rows = json.loads((tmp_path / "out" / "o" / "deep" / "reach.json").read_text())["records"]
    (path,) = reach_from_json(rows[record["id"]]).paths
    assert [h.name for h in path.hops] == [f"f{i}" for i in range(3, 11)]
    assert path.beyond == Beyond("main", "`deep` (fn main)", 4)  # main -> f0 -> f1 -> f2 -> f3
    assert (
        "(no entry point within 8 calls; 4 calls further up, `f3` is reached from `deep` (fn main))"
    ) in record["triggerScenarios"]
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert "4 calls further up, <code>f3</code> is reached from" in section
    (far,) = [
        json.loads(line)
        for line in (tmp_path / "out" / "o" / "deep" / "records.jsonl").read_text().splitlines()
        if json.loads(line)["errorMessage"] == "far too deep"
    ]
    (path,) = reach_from_json(rows[far["id"]]).paths
    assert path.beyond is None  # g0 is 10 calls above g10: past a second walk's 8
    assert "(no entry point within 8 calls, where the search stops)" in far["triggerScenarios"]


@pytest.mark.parametrize(
    ("signature", "rpc"),
    [
        ("async fn put(&self, r: Request<P>) -> Result<Response<Q>, Status>", True),
        ("async fn put(&self, r: Request<P>) -> Result<Response<Q>, tonic::Status>", True),
        ("async fn flush(&self, r: Request<F>) -> TonicResponse<G>", True),  # risingwave's alias
        # cargo's HTTP client trait has the shape but not tonic's error
        (
            "fn request(&self, req: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, Self::Error>",
            False,
        ),
    ],
)
def test_a_service_method_is_known_by_tonic_status(signature: str, rpc: bool) -> None:
    from pipeline.core.index import Definition
    from pipeline.scan.signatures import is_rpc

    d = Definition(
        "fn", "x", 1, 2, signature=signature, params=(("r", "Request<P>"),), has_self=True
    )
    assert is_rpc(d) is rpc


def test_a_receiver_of_another_crate_s_type_that_is_no_client_makes_no_rpc_hop(
    tmp_path: Path,
) -> None:
    # qdrant's `self.client.get(&path)` on a `Box<dyn object_store::ObjectStore>` went to the
    # gRPC `PointsService::get` by the name `client` (reading 240); a tonic client's call
    # of the same name still is that RPC
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "store"\n',
        "src/lib.rs": (
            "pub struct PointsService;\n"
            "#[tonic::async_trait]\nimpl Points for PointsService {\n"
            "    async fn get(&self, r: Request<Get>) -> Result<Response<Got>, Status> {\n"
            '        Err(Status::not_found("no such point in this collection"))\n    }\n}\n'
            "pub struct Cloud {\n    client: Box<dyn object_store::ObjectStore>,\n}\n"
            "impl Cloud {\n    pub async fn stream(&self, path: &str) {\n"
            "        self.client.get(path).await;\n    }\n}\n"
            "pub struct Remote {\n    client: PointsClient<Channel>,\n}\n"
            "impl Remote {\n    pub async fn fetch(&self, r: Get) {\n"
            "        self.client.get(r).await;\n    }\n}\n"
            # an HTTP client the parameter's type names (qdrant's snapshot download)
            "pub async fn download(client: &reqwest::Client, url: &str) {\n"
            "    client.get(url).send().await;\n}\n"
            # no request sent: qdrant's `self.inner.get()` on an `UnsafeCell`
            "pub fn inner_mut(cells: Vec<u8>) -> u8 {\n"
            "    let inner = cells.into_iter().next();\n    unsafe { *inner.get() }\n}\n"
            # quickwit's generated adapters: the client is a type parameter
            "pub struct Adapter<T> {\n    inner: T,\n}\n"
            "impl<T> Adapter<PointsGrpcClient<T>>\nwhere\n    T: tonic::client::GrpcService<Body>,\n{\n"
            "    pub async fn read(&self, r: Get) {\n"
            "        self.inner.clone().get(r).await;\n    }\n}\n"
        ),
    })  # fmt: skip
    callers = graph.callers.get(node(graph, "PointsService::get"), [])
    assert sorted((graph.nodes[e.caller].label, e.resolution) for e in callers) == [
        ("Adapter::read", "rpc"),
        ("Remote::fetch", "rpc"),
    ]


def test_merged_entry_labels_read_as_one_list() -> None:
    from pipeline.scan.callerpaths import merged_label

    assert merged_label(["statement `A`", "statement `B`", "statement `C`"]) == (
        "statement `A`, `B` or `C`"
    )
    assert merged_label(["statement `A`", "subcommand `b`"]) == "statement `A` or subcommand `b`"


def test_a_call_in_a_method_chain_is_on_the_line_of_its_method() -> None:
    from pipeline.languages.rust.index import index_file

    source = b"fn f(s: S) {\n    let x = s\n        .a()\n        .go(1);\n    g(x);\n}\n"
    calls = index_file("src/lib.rs", source).calls
    assert [(c.name, c.line) for c in calls] == [("a", 3), ("go", 4), ("g", 5)]


def _graph_of(files: dict[str, str]) -> CallGraph:
    from pipeline.languages.rust.index import index_file

    return build_graph({path: index_file(path, text.encode()) for path, text in files.items()})


def _labelled_callers(graph: CallGraph, path: str, name: str) -> list[tuple[str, str]]:
    """The callers of the fn `name` of `path`, by label, with how each call was resolved."""
    (target,) = [
        i for i, n in enumerate(graph.nodes) if n.path == path and n.definition.name == name
    ]
    return [(graph.nodes[e.caller].label, e.resolution) for e in graph.callers.get(target, [])]


def test_a_glob_import_reaches_what_the_globbed_module_imports() -> None:
    graph = _graph_of(
        {
            "crates/exec/src/barrier.rs": "pub fn expect_first() {}\n",
            "crates/exec/src/other.rs": "pub fn expect_first() {}\n",
            "crates/exec/src/prelude.rs": "pub use crate::barrier::expect_first;\n",
            "crates/exec/src/join.rs": "use crate::prelude::*;\npub fn run() { expect_first(); }\n",
            "crates/exec/src/utils.rs": "pub fn rename() {}\n",
            "crates/exec/src/catalog/mod.rs": "use crate::utils::rename;\nmod alter;\n",
            "crates/exec/src/catalog/alter.rs": "use super::*;\npub fn alter() { rename(); }\n",
        }
    )

    def callers(path: str, name: str) -> list[tuple[str, str]]:
        return _labelled_callers(graph, path, name)

    # `prelude` re-exports `barrier`'s fn: `other`'s same-named fn is not in scope
    assert callers("crates/exec/src/barrier.rs", "expect_first") == [("run", "import")]
    assert callers("crates/exec/src/other.rs", "expect_first") == []
    # `use super::*` brings in what the parent module imports
    assert callers("crates/exec/src/utils.rs", "rename") == [("alter", "import")]


def test_a_chain_of_glob_imports_reaches_the_fn_at_its_end() -> None:
    """foundry's symbolic executor: `executor/opcodes.rs` says `use super::*`,
    `executor/mod.rs` `use super::{runtime::*, *}`, `runtime.rs` `pub(crate) use evm::*`, and
    `runtime/evm.rs` defines `ensure_jumpdest`, which `opcodes.rs` calls by its bare name:
    "no caller found" (reading 323). A namesake in a module no glob reaches stays out, and
    so does one past the depth bound (five globs)."""
    chain = {
        "src/lib.rs": "mod runtime;\nmod executor;\nmod other;\n",
        "src/runtime.rs": "mod evm;\npub(crate) use evm::*;\n",
        "src/runtime/evm.rs": "pub(crate) fn ensure_jumpdest(d: usize) {}\n",
        "src/other.rs": "pub(crate) fn ensure_jumpdest(d: usize) {}\n",
        "src/executor.rs": "use super::{runtime::*, *};\nmod opcodes;\n",
        "src/executor/opcodes.rs": "use super::*;\npub fn step(d: usize) { ensure_jumpdest(d); }\n",
    }
    graph = _graph_of(chain)
    assert _labelled_callers(graph, "src/runtime/evm.rs", "ensure_jumpdest") == [("step", "import")]
    assert _labelled_callers(graph, "src/other.rs", "ensure_jumpdest") == []
    deep = {
        "src/lib.rs": "mod a;\nmod b;\nmod c;\nmod d;\nmod e;\nmod f;\nmod g;\n",
        "src/a.rs": "use crate::b::*;\npub fn start() { far(); }\n",
        "src/b.rs": "pub use crate::c::*;\n",
        "src/c.rs": "pub use crate::d::*;\n",
        "src/d.rs": "pub use crate::e::*;\n",
        "src/e.rs": "pub use crate::f::*;\n",
        "src/f.rs": "pub use crate::g::*;\n",
        "src/g.rs": "pub fn far() {}\n",
    }
    assert _labelled_callers(_graph_of(deep), "src/g.rs", "far") == []
    near = {**deep, "src/d.rs": "pub use crate::g::*;\n"}
    assert _labelled_callers(_graph_of(near), "src/g.rs", "far") == [("start", "import")]


def test_a_renamed_import_of_another_crate_s_fn_is_not_the_caller_s_own_namesake() -> None:
    """zellij's `src/commands.rs`: `use zellij_server::{start_server as start_server_impl};`
    in its own `pub fn start_server`, which calls `start_server_impl(..)`. By module suffix
    alone the server crate's root fn tied with the caller itself, which then called itself:
    331 records of zellij reached "public API `zellij_server::start_server`", not `zellij`."""
    graph = _graph_of(
        {
            "src/main.rs": "mod commands;\nfn main() { commands::start_server(1); }\n",
            "src/commands.rs": (
                "use zellij_server::{start_server as start_server_impl};\n"
                "pub fn start_server(n: u8) { start_server_impl(n); }\n"
            ),
            "zellij-server/src/lib.rs": (
                "pub fn start_server(n: u8) { start_server_impl(n, true); }\n"
                "pub fn start_server_impl(n: u8, hook: bool) {}\n"
            ),
        }
    )

    def callers(path: str, name: str) -> list[tuple[str, str, str]]:
        (target,) = [
            i for i, n in enumerate(graph.nodes) if n.path == path and n.definition.name == name
        ]
        return [
            (graph.nodes[e.caller].path, graph.nodes[e.caller].label, e.resolution)
            for e in graph.callers.get(target, [])
        ]

    assert callers("zellij-server/src/lib.rs", "start_server") == [
        ("src/commands.rs", "start_server", "import")
    ]
    assert callers("src/commands.rs", "start_server") == [("src/main.rs", "main", "local")]
    (target,) = [
        i
        for i, n in enumerate(graph.nodes)
        if n.path == "zellij-server/src/lib.rs" and n.definition.name == "start_server_impl"
    ]
    assert [p.entry for p in caller_paths(graph, target)] == ["main"]


def test_a_fn_imported_from_another_crate_is_not_a_namesake_of_the_repository() -> None:
    """surrealdb's `ntw/import.rs`: `use axum::routing::post;` then `.route("/import",
    post(handler))`. The repository's own `fnc::util::http::post` is not what that bare name
    calls: the `use` names a module (`routing`) of a crate that is not the repository's, so
    the call leaves the repository (reading 313 showed the server's router "calling" the
    SurrealQL `http::post` function). A `use` of the repository's own crate by its name, or
    of one through a module of the same name, still resolves."""
    graph = _graph_of(
        {
            "server/src/import.rs": (
                "use axum::routing::post;\nuse std::mem::take;\n"
                "pub fn router() { route(post(handler)); take(1); }\n"
                "fn route(x: u8) {}\nfn handler() {}\n"
            ),
            "server/src/export.rs": (
                "use engine::fnc::http::post;\nuse rw_engine::fnc::put;\n"
                "pub fn export() { post(1); put(2); }\n"
            ),
            "engine/src/fnc/http.rs": "pub fn post(x: u8) {}\npub fn put(x: u8) {}\n",
            "engine/src/fnc/mem.rs": "pub fn take(x: u8) {}\n",
        }
    )

    def callers(path: str, name: str) -> list[tuple[str, str]]:
        return _labelled_callers(graph, path, name)

    assert callers("engine/src/fnc/http.rs", "post") == [("export", "import")]
    # `rw_engine` is no directory's name; `fnc` is a module of `put`'s (`pub use http::*`)
    assert callers("engine/src/fnc/http.rs", "put") == [("export", "import")]
    assert callers("engine/src/fnc/mem.rs", "take") == []
    assert callers("server/src/import.rs", "route") == [("router", "local")]


def test_the_index_leaves_test_items_unparsed_and_their_imports_out() -> None:
    from pipeline.languages.rust.index import index_file

    product = (
        "use crate::engine::*;\n\npub fn run() {\n    start(1);\n}\n\n"
        "pub struct Config {\n    pub name: String,\n}\n"
    )
    tests = (
        "#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::fake::start;\n\n"
        "    #[test]\n    fn t() {\n        static LIMIT: u32 = 1;\n        run();\n    }\n}\n"
    )
    blank = "\n" * tests.count("\n")
    alone = index_file("src/lib.rs", (product + "\n" + blank).encode())
    index = index_file("src/lib.rs", (product + "\n" + tests).encode())
    assert index == alone
    assert [u.path for u in index.uses] == ["crate::engine"]
    # A cut that would not parse (an item at column 0 inside the test module) parses whole.
    broken = tests.replace("    #[test]\n    fn t()", "\n#[test]\nfn t()")
    assert index_file("src/lib.rs", (product + "\n" + broken).encode()).definitions == (
        alone.definitions
    )


def test_an_associated_type_is_no_alias_and_a_projection_names_the_impls_types() -> None:
    graph = _graph_of(
        {
            "crates/core/src/target.rs": (
                "pub struct Target;\nimpl Target {\n    pub fn with_path(p: u8) -> Target { Target }\n}\n"
                "pub struct Inner;\nimpl Inner {\n    pub fn with_path(p: u8) -> Inner { Inner }\n}\n"
                "pub struct Wrapper;\nimpl std::ops::Deref for Wrapper {\n"
                "    type Target = Inner;\n    fn deref(&self) -> &Inner { &Inner }\n}\n"
                "pub fn build() { Target::with_path(1); }\n"
            ),
            "crates/core/src/store.rs": (
                "pub trait Store { type Writer; }\n"
                "pub struct Hummock;\nimpl Store for Hummock { type Writer = HummockWriter; }\n"
                "pub struct HummockWriter;\nimpl HummockWriter {\n    pub fn init(&self) {}\n}\n"
                "pub struct Exec<S: Store> { writer: S::Writer }\n"
                "impl<S: Store> Exec<S> {\n    pub fn run(&self) { self.writer.init(); }\n}\n"
            ),
        }
    )

    def callers(owner: str, name: str) -> list[tuple[str, str]]:
        (target,) = [
            i
            for i, n in enumerate(graph.nodes)
            if n.definition.owner == owner and n.definition.name == name
        ]
        return [(graph.nodes[e.caller].label, e.resolution) for e in graph.callers.get(target, [])]

    # `type Target = Inner;` of a Deref impl does not make every `Target` an `Inner`
    assert callers("Target", "with_path") == [("build", "type")]
    assert callers("Inner", "with_path") == []
    # `S::Writer`: the one impl's `Writer`
    assert callers("HummockWriter", "init") == [("Exec::run", "type")]


def test_a_command_bound_by_let_passes_only_its_own_variant() -> None:
    graph = _graph_of(
        {
            "crates/meta/src/lib.rs": "pub mod ddl;\n",
            "crates/meta/src/ddl.rs": (
                "pub enum DdlCommand { Create { name: u8 }, Replace { name: u8 }, Drop(u8) }\n"
                "pub struct Ctl;\nimpl Ctl {\n"
                "    pub fn run_command(&self, command: DdlCommand) {\n"
                "        match command {\n"
                "            DdlCommand::Create { name } => self.create(name),\n"
                "            DdlCommand::Replace { name } => self.replace(name),\n"
                "            DdlCommand::Drop(id) => self.drop(id),\n"
                "        }\n    }\n"
                "    fn create(&self, name: u8) {}\n    fn replace(&self, name: u8) {}\n"
                "    fn drop(&self, id: u8) {}\n}\n"
                "pub fn replace_plan(ctl: &Ctl, sink: bool) {\n"
                "    let command = match sink {\n"
                "        true => DdlCommand::Create { name: 4 },\n"
                "        false => {\n            DdlCommand::Replace { name: 5 }\n        }\n"
                "    };\n"
                "    ctl.run_command(command);\n}\n"
                "pub fn drop_sub(ctl: &Ctl) {\n"
                "    let command = DdlCommand::Drop(3);\n"
                "    ctl.run_command(command);\n}\n"
                "pub fn create_sink(ctl: &Ctl) {\n"
                "    let command = DdlCommand::Create { name: 1 };\n"
                "    ctl.run_command(command);\n}\n"
                "pub fn replace_table(ctl: &Ctl) {\n"
                "    ctl.run_command(DdlCommand::Replace { name: 2 });\n}\n"
            ),
        }
    )

    def tops(label: str) -> set[str]:
        (target,) = [i for i, n in enumerate(graph.nodes) if n.label == label]
        return {p.hops[0].name for p in caller_paths(graph, target)}

    # `create_sink` and `drop_sub` send their variant through a `let`: not ways to `replace`;
    # `replace_plan` builds one of two in a `match`: a way to each of those two
    assert tops("Ctl::replace") == {"replace_table", "replace_plan"}
    assert tops("Ctl::create") == {"create_sink", "replace_plan"}
    assert tops("Ctl::drop") == {"drop_sub"}


def test_a_module_declared_test_code_is_no_way_in() -> None:
    graph = _graph_of(
        {
            "crates/store/src/lib.rs": (
                '#[cfg(any(test, feature = "test"))]\npub mod test_utils;\npub mod builder;\n'
            ),
            "crates/store/src/builder.rs": "pub fn finish() {}\npub fn build() { finish(); }\n",
            "crates/store/src/test_utils.rs": (
                "use crate::builder::finish;\npub fn gen_test_data() { finish(); }\n"
            ),
        }
    )
    (finish,) = [i for i, n in enumerate(graph.nodes) if n.label == "finish"]
    assert [graph.nodes[e.caller].label for e in graph.callers[finish]] == ["build"]
    assert not any(n.path.endswith("test_utils.rs") for n in graph.nodes)


def test_anyhow_context_on_an_unknown_receiver_is_not_a_repository_method() -> None:
    graph = _graph_of(
        {
            "crates/batch/src/builder.rs": (
                "pub struct ExecutorBuilder;\nimpl ExecutorBuilder {\n"
                "    pub fn context(&self) -> u8 { 0 }\n}\n"
                "pub fn load(path: &str) -> anyhow::Result<u8> {\n"
                '    let text = std::fs::read_to_string(path).context("reading the plan")?;\n'
                "    Ok(1)\n}\n"
                "pub fn build(b: &ExecutorBuilder) -> u8 { b.context() }\n"
            ),
        }
    )
    (target,) = [i for i, n in enumerate(graph.nodes) if n.label == "ExecutorBuilder::context"]
    # the typed receiver still resolves; `.context("..")` on a `Result` is anyhow's
    assert [(graph.nodes[e.caller].label, e.resolution) for e in graph.callers[target]] == [
        ("build", "type")
    ]


ERRORS = (
    "#[derive(thiserror::Error, Debug)]\n"
    "pub enum StoreError {\n"
    '    #[error("key {0} is missing")]\n'
    "    Missing(String),\n"
    '    #[error("store is full: {used} of {cap}")]\n'
    "    Full { used: u32, cap: u32 },\n"
    '    #[error("store is closed")]\n'
    "    Closed,\n"
    '    #[error("never built")]\n'
    "    Unused,\n"
    '    #[error("built in generated code only")]\n'
    "    Generated,\n"
    "}\n"
    "impl StoreError {\n"
    "    pub fn missing(key: &str) -> Self {\n"
    "        Self::Missing(key.to_string())\n"
    "    }\n"
    "}\n"
)
STORE_FNS = (
    "use crate::error::StoreError;\n"
    "pub fn get(key: &str) -> Result<u8, StoreError> {\n"
    "    Err(StoreError::missing(key))\n"
    "}\n"
    "pub fn put(used: u32) -> Result<(), StoreError> {\n"
    "    if used > 9 {\n"
    "        return Err(StoreError::Full { used, cap: 9 });\n"
    "    }\n"
    "    Ok(())\n"
    "}\n"
    "pub fn close(open: Option<u8>) -> Result<u8, StoreError> {\n"
    "    open.ok_or(StoreError::Closed)\n"
    "}\n"
)
CHECKS = (
    "use crate::error::StoreError;\n"
    "pub fn is_missing(e: &StoreError) -> bool {\n"
    "    matches!(e, StoreError::Missing(_))\n"
    "}\n"
    "pub fn check(e: Option<&StoreError>) {\n"
    "    assert!(matches!(e, Some(StoreError::Missing(..))));\n"
    "}\n"
)
# the errors printed (`let _ =` would drop them: no way a user reads their text)
BIN = (
    'fn main() {\n    if let Err(e) = kv::store::get("a") { eprintln!("{e}"); }\n'
    '    if let Err(e) = kv::store::put(10) { eprintln!("{e}"); }\n}\n'
)
MACRO = (
    "pub fn expand() -> proc_macro2::TokenStream {\n"
    "    quote::quote! { return Err(StoreError::Generated(1)); }\n"
    "}\n"
)


def _built(graph: CallGraph, path: str, text: str) -> tuple[str | None, int, list[Hops]]:
    from pipeline.scan.callerpaths import site_reach

    reach = site_reach(graph, path, line_of_text(ERRORS, text))
    if reach is None:
        return None, 0, []
    hops = [
        [(h.name, h.call_line, h.resolution, h.candidates) for h in p.hops] for p in reach.paths
    ]
    return reach.built, reach.callers, hops


def line_of_text(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_an_error_variant_is_reached_where_it_is_built() -> None:
    err = "crates/kv/src/error.rs"
    graph = _graph_of(
        {
            "crates/kv/src/lib.rs": "pub mod error;\npub mod store;\n",
            err: ERRORS,
            "crates/kv/src/store.rs": STORE_FNS,
            "crates/kv/src/main.rs": BIN,
            "crates/kv/src/expand.rs": MACRO,
            "crates/kv/src/check.rs": CHECKS,
        }
    )
    # a tuple variant through `Self::` in its own impl, then the callers of that fn; a
    # `matches!` on the variant (`CHECKS`) tests it, builds none
    assert _built(graph, err, '"key {0} is missing"') == (
        "StoreError::Missing",
        1,
        [
            [
                ("main", 2, None, ()),
                ("get", 3, "import", ()),
                ("StoreError::missing", 16, "type", ()),
            ]
        ],
    )
    # a struct-like variant in a `return Err(..)`: the fn that builds it and its caller
    assert _built(graph, err, '"store is full') == (
        "StoreError::Full",
        1,
        [[("main", 3, None, ()), ("put", 7, "import", ())]],
    )
    # a unit variant as a value (`ok_or(E::V)`); `close` is a pub fn of the library
    built, builders, hops = _built(graph, err, '"store is closed"')
    assert (built, builders, hops) == ("StoreError::Closed", 1, [[("close", 12, None, ())]])
    # nothing builds it, or only the tokens a proc macro writes: no path is made up
    assert _built(graph, err, '"never built"') == (None, 0, [])
    assert _built(graph, err, '"built in generated code only"') == (None, 0, [])


def test_a_unit_variant_written_in_a_macro_s_tokens_is_built_there() -> None:
    """surrealdb's 94 `bail!(Error::ScriptingNotAllowed)`-like builds of unit variants had
    no builder: a path before `)` or `,` in a macro's tokens is no call, and their records
    found no way in. A pattern in the tokens builds nothing: `matches!(e, E::V)`, `Some(E::V)
    =>`, `if let Some(E::V) = ..`."""
    errors = (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum Error {\n"
        '    #[error("Scripting functions are not allowed")]\n'
        "    ScriptingNotAllowed,\n"
        '    #[error("There is no global bucket")]\n'
        "    NoGlobalBucket,\n"
        '    #[error("only tested, never built")]\n'
        "    Tested,\n"
        "}\n"
    )
    code = (
        "use anyhow::{bail, ensure, Result};\n"
        "use crate::err::Error;\n"
        "pub fn run(allowed: bool) -> Result<()> {\n"
        "    if !allowed {\n"
        "        bail!(Error::ScriptingNotAllowed);\n"
        "    }\n"
        "    ensure!(allowed, crate::err::Error::NoGlobalBucket);\n"
        "    Ok(())\n"
        "}\n"
        "pub fn check(e: Option<Error>) -> bool {\n"
        "    assert!(matches!(e, Some(Error::Tested)));\n"
        "    select! { Some(Error::Tested) => log(1), }\n"
        "    trace!({ if let Some(Error::Tested) = e { 1 } else { 2 } });\n"
        "    true\n"
        "}\n"
    )
    graph = _graph_of(
        {"src/lib.rs": "pub mod err;\npub mod run;\n", "src/err.rs": errors, "src/run.rs": code}
    )
    builds = graph.indexes["src/run.rs"].builds
    assert [(b.enum, b.variant, b.line) for b in builds] == [
        ("Error", "ScriptingNotAllowed", 5),
        ("Error", "NoGlobalBucket", 7),
    ]
    reach = site_reach(graph, "src/err.rs", 3)
    assert reach is not None
    assert (reach.built, reach.callers) == ("Error::ScriptingNotAllowed", 1)
    assert [[h.name for h in p.hops] for p in reach.paths] == [["run"]]


def test_a_variant_with_fields_built_in_a_macro_s_tokens_is_built_there() -> None:
    """surrealdb's `bail!(Error::InsertStatementIn { value: v.to_sql() })` had no builder:
    a name before a `{ .. }` in a macro's tokens is no call, and the index read only calls
    there. Its record then matched `Err(Error::InsertStatementIn { .. })` on the
    `anyhow::Result` its one builder returns (reading 313). A pattern in a macro's tokens
    (`matches!(e, E::V { .. })`, a `match` arm a macro's body holds) builds nothing."""
    errors = (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum Error {\n"
        "    #[error(\"Cannot execute INSERT statement where property 'in' is: {value}\")]\n"
        "    InsertStatementIn { value: String },\n"
        '    #[error("only tested, never built: {value}")]\n'
        "    Tested { value: String },\n"
        "}\n"
    )
    insert = (
        "use anyhow::{bail, Result};\n"
        "use crate::err::Error;\n"
        "pub fn iterable(v: Value) -> Result<()> {\n"
        "    if !v.is_record() {\n"
        "        bail!(Error::InsertStatementIn {\n"
        "            value: v.to_sql(),\n"
        "        })\n"
        "    }\n"
        "    Ok(())\n"
        "}\n"
        "pub fn check(e: &Error) -> bool {\n"
        "    assert!(matches!(e, Error::Tested { .. }));\n"
        "    select! { Error::Tested { value } => log(value), }\n"
        "    true\n"
        "}\n"
    )
    graph = _graph_of(
        {
            "src/lib.rs": "pub mod err;\npub mod insert;\n",
            "src/err.rs": errors,
            "src/insert.rs": insert,
        }
    )
    builds = graph.indexes["src/insert.rs"].builds
    assert [(b.enum, b.variant, b.line) for b in builds] == [("Error", "InsertStatementIn", 5)]
    reach = site_reach(graph, "src/err.rs", 3)
    assert reach is not None
    assert (reach.built, reach.callers, reach.held_in) == (
        "Error::InsertStatementIn",
        1,
        "anyhow::Error",
    )
    assert [[h.name for h in p.hops] for p in reach.paths] == [["iterable"]]


def test_a_variant_two_crates_define_is_taken_from_the_sites_crate() -> None:
    twin = '#[derive(Debug)]\npub enum StoreError {\n    #[error("other")]\n    Closed,\n}\n'
    err = "crates/kv/src/error.rs"
    graph = _graph_of(
        {
            err: ERRORS,
            "crates/kv/src/store.rs": STORE_FNS,
            "crates/other/src/error.rs": twin,
            "crates/other/src/lib.rs": "pub fn shut() -> StoreError { StoreError::Closed }\n",
        }
    )
    built, builders, hops = _built(graph, err, '"store is closed"')
    assert (built, builders, [h[-1][0] for h in hops]) == ("StoreError::Closed", 1, ["close"])


def test_a_unit_variant_is_built_as_a_receiver_an_arm_s_value_or_a_field_s() -> None:
    """cargo's `PartialVersion::from_str` returns `Err(ErrorKind::Prerelease.into())`: the
    variant is built there, as in an arm's `=> E::V` and a field's `kind: E::V`; a pattern
    that names it (`if let E::V = k`, an arm's) tests a value, builds none."""
    errors = (
        "pub enum ErrorKind {\n"
        '    #[error("unexpected prerelease field")]\n'
        "    Prerelease,\n"
        '    #[error("unexpected build field")]\n'
        "    Build,\n"
        '    #[error("unexpected field")]\n'
        "    Field,\n"
        '    #[error("only ever tested")]\n'
        "    Tested,\n"
        "}\n"
    )
    parse = (
        "use crate::error::ErrorKind;\n"
        "pub fn parse(v: &str) -> Result<(), Error> {\n"
        "    if v.contains('-') {\n"
        "        return Err(ErrorKind::Prerelease.into());\n"
        "    }\n"
        "    let kind = match v.len() { 0 => ErrorKind::Build, _ => other() };\n"
        "    Err(Error { kind: ErrorKind::Field, at: 1 })\n"
        "}\n"
        "pub fn check(k: ErrorKind) -> bool {\n"
        "    if let ErrorKind::Tested = k { return true; }\n"
        "    matches!(k, ErrorKind::Tested)\n"
        "}\n"
    )
    err = "crates/semver/src/error.rs"
    graph = _graph_of({err: errors, "crates/semver/src/version.rs": parse,
                       "crates/semver/src/lib.rs": "pub mod error;\npub mod version;\n"})  # fmt: skip
    from pipeline.scan.callerpaths import site_reach

    def built(needle: str) -> tuple[str | None, list[tuple[str, int | None]]]:
        reach = site_reach(graph, err, line_of_text(errors, needle))
        if reach is None:
            return None, []
        return reach.built, [(p.hops[-1].name, p.hops[-1].call_line) for p in reach.paths]

    assert built("prerelease") == ("ErrorKind::Prerelease", [("parse", 4)])
    assert built("build field") == ("ErrorKind::Build", [("parse", 6)])
    assert built('"unexpected field"') == ("ErrorKind::Field", [("parse", 7)])
    assert built("only ever tested") == (None, [])


def test_a_variant_a_glob_import_brings_in_is_built_by_its_bare_name() -> None:
    """just's `use {super::*, CompileErrorKind::*};` then `.error(CircularRecipeDependency {
    recipe, circle })`, `self.error(UnterminatedBacktick)`: the variant built bare, as an
    argument or a call of its name; a pattern or a comparison builds nothing, nor a bare name
    in a file without the glob."""
    kinds = (
        "pub enum CompileErrorKind {\n"
        '    #[error("recipe `{recipe}` has circular dependency")]\n'
        "    CircularRecipeDependency { recipe: String },\n"
        '    #[error("unterminated backtick")]\n'
        "    UnterminatedBacktick,\n"
        '    #[error("unknown setting `{0}`")]\n'
        "    UnknownSetting(String),\n"
        '    #[error("never built")]\n'
        "    Tested,\n"
        "}\n"
    )
    lexer = (
        "use {super::*, CompileErrorKind::*};\n"
        "pub fn resolve(r: String) -> Result<(), Error> {\n"
        "    Err(Error::new(CircularRecipeDependency { recipe: r }))\n"
        "}\n"
        "pub fn lex(t: &Token) -> Result<(), Error> {\n"
        "    if t.open() { return Err(t.error(UnterminatedBacktick)); }\n"
        "    if t.kind == Tested { return Ok(()); }\n"
        "    Err(Error::new(UnknownSetting(t.text())))\n"
        "}\n"
    )
    other = "pub fn guess(t: &Token) -> Error { t.error(UnterminatedBacktick) }\n"
    err = "crates/just/src/kinds.rs"
    graph = _graph_of({err: kinds, "crates/just/src/lexer.rs": lexer,
                       "crates/just/src/other.rs": other})  # fmt: skip
    from pipeline.scan.callerpaths import site_reach

    def built(needle: str) -> tuple[str | None, list[tuple[str, int | None]]]:
        reach = site_reach(graph, err, line_of_text(kinds, needle))
        if reach is None:
            return None, []
        return reach.built, [(p.hops[-1].name, p.hops[-1].call_line) for p in reach.paths]

    assert built("circular dependency") == (
        "CompileErrorKind::CircularRecipeDependency",
        [("resolve", 3)],
    )
    assert built("unterminated backtick") == (
        "CompileErrorKind::UnterminatedBacktick",
        [("lex", 6)],
    )
    assert built("unknown setting") == ("CompileErrorKind::UnknownSetting", [("lex", 8)])
    assert built("never built") == (None, [])


def test_a_variant_built_under_a_name_its_enum_is_imported_as_is_built_there() -> None:
    """tikv's raftkv: `use crate::storage::kv::ErrorInner as KvErrorInner;` then
    `KvErrorInner::KeyIsLocked(..)`: the variant had no builder (reading 326)."""
    kinds = 'pub enum ErrorInner {\n    #[error("key is locked {0:?}")]\n    KeyIsLocked(u64),\n}\n'
    raftkv = (
        "use crate::kinds::ErrorInner as KvErrorInner;\n"
        "pub fn read(lock: u64) -> Result<(), KvErrorInner> {\n"
        "    Err(KvErrorInner::KeyIsLocked(lock))\n"
        "}\n"
    )
    err = "crates/kv/src/kinds.rs"
    graph = _graph_of({err: kinds, "crates/kv/src/raftkv.rs": raftkv})
    from pipeline.scan.callerpaths import site_reach

    reach = site_reach(graph, err, line_of_text(kinds, "key is locked"))
    assert reach is not None
    assert reach.built == "ErrorInner::KeyIsLocked"
    assert [(p.hops[-1].name, p.hops[-1].call_line) for p in reach.paths] == [("read", 3)]


def test_a_variant_two_modules_of_one_crate_define_is_the_one_the_builder_names() -> None:
    """alacritty's `config::Error::Io` ("Error reading config file") and
    `macos::proc::Error::Io` ("Error getting current working directory"): a build is of the
    enum its file defines or imports; one whose file says neither is counted for none."""
    proc_ = (
        "pub enum Error {\n"
        '    #[error("Error getting current working directory: {0}")]\n'
        "    Io(std::io::Error),\n"
        "}\n"
        "pub fn cwd() -> Result<(), Error> { Err(Error::Io(last())) }\n"
    )
    config = (
        "pub enum Error {\n"
        '    #[error("Error reading config file: {0}")]\n'
        "    Io(std::io::Error),\n"
        "}\n"
        "pub fn load() -> Result<(), Error> { Err(Error::Io(last())) }\n"
    )
    files = {
        "term/src/lib.rs": "pub mod config;\npub mod macos;\npub mod ui;\n",
        "term/src/macos/mod.rs": "pub mod proc;\npub mod pty;\n",
        "term/src/macos/proc.rs": proc_,
        "term/src/config/mod.rs": config,
        # `use super::proc::Error` from macos::pty: proc's
        "term/src/macos/pty.rs": (
            "use super::proc::Error;\n"
            "pub fn spawn() -> Result<(), Error> { Err(Error::Io(last())) }\n"
        ),
        # a glob of the config module: config's
        "term/src/ui.rs": (
            "use crate::config::*;\npub fn draw() -> Result<(), Error> { Err(Error::Io(x())) }\n"
        ),
        # says nothing of which `Error`: neither's
        "term/src/other.rs": "pub fn guess() -> Result<(), Error> { Err(Error::Io(x())) }\n",
    }
    graph = _graph_of(files)
    from pipeline.scan.callerpaths import site_reach

    def builders(path: str) -> tuple[int, list[str]]:
        reach = site_reach(graph, path, 2)
        assert reach is not None and reach.built == "Error::Io"
        return reach.callers, sorted(p.hops[-1].name for p in reach.paths)

    assert builders("term/src/macos/proc.rs") == (2, ["cwd", "spawn"])
    assert builders("term/src/config/mod.rs") == (2, ["draw", "load"])


def test_a_built_variant_is_named_in_the_static_text_and_the_page(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "kv"\n',
        "src/lib.rs": "pub mod error;\npub mod store;\n",
        "src/error.rs": ERRORS,
        "src/store.rs": STORE_FNS,
        "src/main.rs": BIN,
    }
    sha, record = committed_and_extracted(files, "o/kv", tmp_path, "store is full")
    out, site = tmp_path / "out", tmp_path / "site"
    assert record["triggerScenarios"].endswith(
        f" At commit {sha[:10]}, `StoreError::Full` is built in one function, `put` at"
        " src/store.rs:7, when `used > 9` is true, reached from"
        " `kv` (fn main): `main` -> `put`."
    )
    # the fn that builds it, and when, instead of "find the operation that returned it in
    # your logs"
    assert record["solutions"][-1] == (
        f"The code that returns this error decides when: at commit {sha[:10]}, `put` builds"
        " `StoreError::Full` (src/store.rs:7) when `used > 9` is true: those, and the"
        " conditions on the way to it, say which input or state returns it; meet them, or"
        " handle this error where it is returned."
    )
    section = reach_section(out, site, record)
    assert "The message belongs to <code>StoreError::Full</code>" in section
    assert "The first path's last function builds it when <code>used &gt; 9</code> is true." in (
        section
    )
    assert (
        f'builds <code>StoreError::Full</code> at <a href="https://github.com/o/kv/blob/{sha}/'
        'src/store.rs#L7" rel="nofollow noopener noreferrer">line 7</a>'
    ) in section
    result = cli("explain", "--out", str(out), "--json", "store is full: 12 of 9")
    assert result.exit_code == 0, result.output
    (match,) = json.loads(result.output)
    assert match["reach"]["built"] == "StoreError::Full" and match["reach"]["callers"] == 1


def http_entries(graph: CallGraph) -> dict[str, str]:
    """The labels of the graph's HTTP entry points, by their fns' labels."""
    return {
        graph.nodes[n].label: label for n, (kind, label) in graph.entries.items() if kind == "http"
    }


def test_actix_web_routes_are_entry_points() -> None:
    graph = _graph_of(
        {
            "crates/web/src/lib.rs": (
                "pub fn configure(cfg: &mut web::ServiceConfig) {\n"
                '    cfg.service(web::resource("/keys").route(web::post().to(SeqHandler(create))));\n'
                '    cfg.service(web::resource("").route(web::get().to(list)));\n'
                '    cfg.route("/health", web::get().to(health));\n'
                "}\n"
                "async fn create() -> u8 { store() }\n"
                "async fn list() -> u8 { store() }\n"
                "async fn health() -> u8 { 0 }\n"
                "fn store() -> u8 { 1 }\n"
            ),
        }
    )
    assert http_entries(graph) == {
        "create": "HTTP POST /keys",
        "list": "HTTP GET (a scoped route)",
        "health": "HTTP GET /health",
    }


def test_routes_an_attribute_lists_are_entry_points_under_the_paths_that_mount_them() -> None:
    # meilisearch: `#[routes::routes(routes("" => get(h), "/x" => sub(m::XApi)))]` on structs
    graph = _graph_of(
        {
            "crates/web/src/routes/mod.rs": (
                "#[routes::routes(\n"
                '    tag = "Root",\n'
                '    routes("/health" => get(get_health), "/batches"=>sub(batches::BatchesApi)),\n'
                ")]\n"
                "pub struct RootApi;\n"
                "async fn get_health() -> u8 { store() }\n"
                "fn store() -> u8 { 1 }\n"
            ),
            "crates/web/src/routes/batches.rs": (
                "#[routes::routes(\n"
                '    routes("" => [get(get_batches), post(search)], "/{batch_id}" => delete(cancel::cancel)),\n'
                '    tags((name = "Batches", description = "The /batches routes => get(x).")),\n'
                ")]\n"
                "pub struct BatchesApi;\n"
                "async fn get_batches() -> u8 { 0 }\n"
                "async fn search() -> u8 { 0 }\n"
                "pub fn configure(cfg: &mut web::ServiceConfig) {\n"  # in a scope: no path here
                '    cfg.service(web::resource("").route(web::get().to(get_batches)));\n'
                "}\n"
            ),
            # each route file has its `search`; `cancel` is named by its module
            "crates/web/src/routes/cancel.rs": (
                "pub async fn cancel() -> u8 { 0 }\npub async fn search() -> u8 { 0 }\n"
            ),
            "crates/web/src/routes/abort.rs": "pub async fn cancel() -> u8 { 0 }\n",
            # the same struct name in another crate is mounted by nothing there
            "crates/other/src/lib.rs": (
                '#[routes::routes(routes("/{id}" => post(get_batches)))]\n'
                "pub struct BatchesApi;\n"
                "fn get_batches() -> u8 { 0 }\n"
            ),
        }
    )
    assert sorted(
        (graph.nodes[n].path, graph.nodes[n].label, label)
        for n, (kind, label) in graph.entries.items()
        if kind == "http"
    ) == [
        ("crates/other/src/lib.rs", "get_batches", "HTTP POST /{id}"),
        ("crates/web/src/routes/batches.rs", "get_batches", "HTTP GET /batches"),
        ("crates/web/src/routes/batches.rs", "search", "HTTP POST /batches"),
        ("crates/web/src/routes/cancel.rs", "cancel", "HTTP DELETE /batches/{batch_id}"),
        ("crates/web/src/routes/mod.rs", "get_health", "HTTP GET /health"),
    ]
    # the listing attribute is read for its routes, not kept on the struct
    (root,) = [
        d for d in graph.indexes["crates/web/src/routes/mod.rs"].definitions if d.name == "RootApi"
    ]
    assert root.attrs == ()


def test_a_dispatch_arm_that_recurses_into_the_chain_is_no_way_in() -> None:
    graph = _graph_of(
        {
            "crates/check/src/lib.rs": (
                "pub fn check_module(body: &[Stmt]) { validate(body); }\n"
                "fn validate(body: &[Stmt]) {\n"
                "    for stmt in body {\n"
                "        lookup(stmt);\n"
                "        match stmt {\n"
                "            Stmt::If(inner) => validate(&inner.body),\n"
                "            _ => {}\n"
                "        }\n"
                "    }\n"
                "}\n"
                'fn lookup(stmt: &Stmt) { find(stmt).expect("defined"); }\n'
            ),
        }
    )
    paths = paths_of(graph, "lookup")
    # the `Stmt::If` arm only calls `validate` again: the way in is the public fn
    assert [(entry, [h[0] for h in hops]) for entry, _, hops in paths] == [
        ("pub-api", ["check_module", "validate", "lookup"]),
    ]


def test_a_subcommand_arm_whose_fn_calls_the_same_fn_without_it_is_the_second_way_in() -> None:
    # bat's `run`: `bat cache` (no arguments) and plain `bat FILE` both load the config
    source = (
        "fn main() { run(); }\n"
        "fn run() {\n"
        '    let matches = Command::new("bat").subcommand(Command::new("cache")).get_matches();\n'
        "    match matches.subcommand() {\n"
        '        Some(("cache", m)) => { config(); }\n'
        "        _ => { config(); }\n"
        "    }\n"
        "}\n"
        'fn config() { parse_style().expect("style"); }\n'
        "fn parse_style() -> Option<u8> { None }\n"
    )
    graph = _graph_of({"src/main.rs": source})
    assert [(entry, label, [(h[0], h[1]) for h in hops]) for entry, label, hops in
            paths_of(graph, "config")] == [
        ("main", "`main` (fn main)", [
            ("main", 1), ("run", line_of_text(source, "_ => { config(); }")), ("config", None),
        ]),
        ("cli", "subcommand `cache`", [
            ("run", line_of_text(source, "Some((\"cache\"")), ("config", None),
        ]),
    ]  # fmt: skip
    # with no call outside its arms, the subcommand is the way in
    only_armed = source.replace("_ => { config(); }", "_ => {}")
    graph = _graph_of({"src/main.rs": only_armed})
    assert [label for _, label, _ in paths_of(graph, "config")] == ["subcommand `cache`"]


def test_a_subcommand_clap_names_in_an_attribute_is_called_by_that_name() -> None:
    """zoxide's `#[clap(name = "z.lua")] ZLua` is `import z.lua` on the command line; the
    label said `z-lua`, which clap rejects (reading 118)."""
    source = (
        "#[derive(Subcommand)]\nenum Import {\n"
        '    #[clap(name = "z.lua")]\n    ZLua,\n'
        '    #[command(about = "x", name = "zsh-z")]\n    ZshZ,\n'
        "    Autojump,\n}\n"
        "fn main() {\n    match Import::parse() {\n"
        "        Import::ZLua => zlua(),\n"
        "        Import::ZshZ => zshz(),\n"
        "        Import::Autojump => autojump(),\n"
        "    }\n}\n"
        'fn zlua() { parse().expect("lua"); }\n'
        'fn zshz() { parse().expect("zsh"); }\n'
        'fn autojump() { parse().expect("autojump"); }\n'
    )
    graph = _graph_of({"src/main.rs": source})
    labels = [
        label for name in ("zlua", "zshz", "autojump") for _, label, _ in paths_of(graph, name)
    ]
    assert labels == [
        "subcommand `z.lua` (`Import::ZLua`)",
        "subcommand `zsh-z` (`Import::ZshZ`)",
        "subcommand `autojump` (`Import::Autojump`)",
    ]


def test_a_value_an_impls_own_fn_returns_through_self_has_that_fns_type() -> None:
    """zoxide's `let mut fzf = Self::get_fzf()?; fzf.write(..)` and `Self::get_fzf()?.wait()`:
    `Self::get_fzf` returns a `Result<FzfChild>`, so the calls are `FzfChild`'s; the records
    said no caller was found (reading 118)."""
    source = (
        "pub struct FzfChild;\nimpl FzfChild {\n"
        '    pub fn write(&mut self) -> Result<()> { bail!("could not write to fzf") }\n'
        '    pub fn wait(&mut self) -> Result<()> { bail!("fzf exited") }\n}\n'
        "pub struct Query;\nimpl Query {\n"
        "    fn get_fzf() -> Result<FzfChild> { Ok(FzfChild) }\n"
        "    pub fn run(&self) -> Result<()> {\n"
        "        let mut fzf = Self::get_fzf()?;\n"
        "        fzf.write()?;\n"
        "        Self::get_fzf()?.wait()\n    }\n}\n"
    )
    graph = _graph_of({"src/lib.rs": source})
    assert called_by(graph, "Query::run") == [
        (line_of_text(source, "let mut fzf"), "Query::get_fzf", "self"),
        (line_of_text(source, "fzf.write()?"), "FzfChild::write", "type"),
        (line_of_text(source, "Self::get_fzf()?.wait()"), "FzfChild::wait", "type"),
        (line_of_text(source, "Self::get_fzf()?.wait()"), "Query::get_fzf", "self"),
    ]


def test_a_const_a_condition_names_is_its_own_files_before_another_types() -> None:
    """tokio's park.rs compares its state with `EMPTY`: its own `const EMPTY: usize = 0`, not
    `io::Ready::EMPTY` of another file (reading 119)."""
    graph = _graph_of(
        {
            "tokio/src/io/ready.rs": (
                "pub struct Ready(usize);\nimpl Ready {\n    pub const EMPTY: Ready = Ready(0);\n}\n"
            ),
            "tokio/src/runtime/park.rs": (
                "const EMPTY: usize = 0;\n"
                "fn unpark(old: usize) {\n"
                '    assert_eq!(old, EMPTY, "park state changed unexpectedly");\n}\n'
            ),
        }
    )
    (found,) = dependencies(graph, ["old == EMPTY"], node(graph, "unpark"), ())[1:]
    assert (found.name, found.kind, found.text, found.line) == (
        "EMPTY",
        "const",
        "const EMPTY: usize = 0;",
        1,
    )


def test_a_static_a_fn_body_declares_is_its_own_not_another_fns() -> None:
    """lemmy's util.rs declares `static CACHE` in two fns: `get_latest_activity_id`'s
    condition reads its own, not `get_actor_cached`'s (reading 128, FALSE)."""
    graph = _graph_of(
        {
            "src/util.rs": (
                "fn get_actor_cached() -> usize {\n"
                "    static CACHE: LazyLock<Cache<Url, Actor>> = LazyLock::new(actors);\n"
                "    CACHE.len()\n}\n"
                "fn get_latest_activity_id() -> Result<usize> {\n"
                "    static CACHE: LazyLock<Cache<(), Option<u64>>> = LazyLock::new(ids);\n"
                '    let id = CACHE.get().context("err getting id")?;\n'
                "    Ok(id)\n}\n"
            ),
        }
    )
    latest = node(graph, "get_latest_activity_id")
    (found,) = dependencies(graph, ["CACHE.get() was None/Err (context)"], latest, ())
    assert (found.name, found.kind, found.line) == ("CACHE", "static", 6)
    # a fn that declares none reads neither (each is out of its scope)
    graph = _graph_of(
        {
            "src/util.rs": (
                "fn get_actor_cached() -> usize {\n"
                "    static CACHE: LazyLock<Cache<Url, Actor>> = LazyLock::new(actors);\n"
                "    CACHE.len()\n}\n"
                "fn other() -> Result<usize> {\n"
                '    let id = CACHE.get().context("err")?;\n'
                "    Ok(id)\n}\n"
            ),
        }
    )
    assert (
        dependencies(graph, ["CACHE.get() was None/Err (context)"], node(graph, "other"), ()) == ()
    )
    # a fn nested in the body that declares it reads it (vector's `impl Visitor` in a fn)
    graph = _graph_of(
        {
            "src/types.rs": (
                "fn deserialize() -> Result<usize> {\n"
                '    static PERCENT_REGEX: LazyLock<Regex> = LazyLock::new(|| re("x"));\n'
                "    fn visit_str(value: &str) -> Result<usize> {\n"
                '        let caps = PERCENT_REGEX.captures(value).context("no percent")?;\n'
                "        Ok(caps.len())\n    }\n"
                '    visit_str("1%")\n}\n'
            ),
        }
    )
    conditions = ["PERCENT_REGEX.captures(value) was None/Err (context)"]
    found = dependencies(graph, conditions, node(graph, "visit_str"), ())[-1]
    assert (found.name, found.kind, found.line) == ("PERCENT_REGEX", "static", 2)


def test_a_fn_most_commands_reach_says_how_many_entry_points_lead_there() -> None:
    # cargo's manifest parsing: every subcommand loads the workspace
    names = ["build", "check", "clean", "doc", "fetch"]
    source = (
        "#[derive(Subcommand)]\nenum Cmd { " + ", ".join(n.title() for n in names) + " }\n"
        "fn main() {\n    match Cmd::parse() {\n"
        + "".join(f"        Cmd::{n.title()} => {n}_exec(),\n" for n in names)
        + "    }\n}\n"
        + "".join(f"fn {n}_exec() {{ load(); }}\n" for n in names)
        + 'fn load() { parse().expect("manifest"); }\n'
    )
    graph = _graph_of({"src/main.rs": source})
    reach = site_reach(graph, "src/main.rs", line_of_text(source, "fn load"))
    assert reach is not None and reach.entries == 5 and len(reach.paths) == 3
    trigger = trigger_sentence(reach, "a" * 40)
    assert trigger is not None and trigger.startswith(
        "At commit aaaaaaaaaa it is reached from 5 entry points found within 8 calls, among"
        " them subcommand `build` (`Cmd::Build`): `main` -> `build_exec` -> `load`."
    )
    situation = situation_sentence(reach, "a" * 40)
    assert situation == (
        "At commit aaaaaaaaaa, users meet it through 5 entry points, among them subcommand"
        " `build` (`Cmd::Build`), subcommand `check` (`Cmd::Check`), subcommand `clean`"
        " (`Cmd::Clean`)."
    )
    # three ways in, all named: no count
    fewer = source.replace("        Cmd::Doc => doc_exec(),\n", "").replace(
        "        Cmd::Fetch => fetch_exec(),\n", ""
    )
    graph = _graph_of({"src/main.rs": fewer})
    reach = site_reach(graph, "src/main.rs", line_of_text(fewer, "fn load"))
    assert reach is not None and reach.entries is None
    assert "entry points" not in (situation_sentence(reach, "a" * 40) or "")


def test_a_path_whose_top_no_call_reaches_says_which_trait_runs_it() -> None:
    # alacritty's winit callbacks, a conversion `?` runs, a `Drop`: no caller in the code
    source = (
        "pub struct Processor;\n"
        "impl ApplicationHandler for Processor {\n"
        "    fn new_events(&mut self) { self.create_window(); }\n"
        "}\n"
        "impl Processor {\n"
        '    fn create_window(&mut self) { open().expect("failed to create window"); }\n'
        "}\n"
        "pub struct Column;\n"
        "impl TryFrom<u8> for Column {\n"
        "    type Error = String;\n"
        "    fn try_from(v: u8) -> Result<Self, String> { check(v) }\n"
        "}\n"
        'fn check(v: u8) -> Result<Column, String> { Err("no column".into()) }\n'
        "pub struct Guard;\n"
        "impl Drop for Guard {\n"
        "    fn drop(&mut self) { release(); }\n"
        "}\n"
        'fn release() { free().expect("release the lock"); }\n'
        "pub trait Rule { fn apply(&self); }\n"
        "pub struct Merge;\n"
        "impl Rule for Merge { fn apply(&self) { merge(); } }\n"
        'fn merge() { join().expect("merge the plans"); }\n'
    )
    graph = _graph_of({"src/main.rs": source})

    def why(needle: str) -> str:
        reach = site_reach(graph, "src/main.rs", line_of_text(source, needle))
        assert reach is not None
        text = trigger_sentence(reach, "a" * 40) or ""
        return text.split(" (", 1)[1]

    assert why("failed to create window") == (
        "no caller of `Processor::new_events` found: it implements"
        " `ApplicationHandler::new_events` of a trait another crate declares, whose code"
        " calls it)."
    )
    assert why("no column") == (
        "no caller of `Column::try_from` found: it implements `TryFrom::try_from`, which runs"
        " where a value is converted into `Column` (`.try_into()` or `Column::try_from(..)`),"
        " and the index resolves no such conversion (not one whose target type only inference"
        " tells))."
    )
    assert why("release the lock") == (
        "no caller of `Guard::drop` found: it runs when a `Guard` value is dropped)."
    )
    assert why("merge the plans") == (
        "no caller of `Merge::apply` found: it implements `Rule::apply`, and no call through"
        " `Rule` that the index resolves reaches it)."
    )


def test_an_ambiguous_hop_tells_apart_candidates_of_the_same_name() -> None:
    lib = "crates/conv/src/lib.rs"
    graph = _graph_of(
        {
            lib: (
                "pub struct Wide;\n"
                "impl From<u8> for Wide {\n    fn from(v: u8) -> Self { check(v); Wide }\n}\n"
                "impl From<u16> for Wide {\n    fn from(v: u16) -> Self { check(1); Wide }\n}\n"
                "impl From<u32> for Wide {\n    fn from(v: u32) -> Self { Wide }\n}\n"
                'fn check(v: u8) { assert!(v < 9, "too wide"); }\n'
                "pub fn widen(x: Input) -> Wide { Wide::from(x) }\n"
            ),
        }
    )
    hops = [h for p in caller_paths(graph, node(graph, "check")) for h in p.hops]
    ambiguous = [h for h in hops if h.candidates]
    assert ambiguous, hops
    for hop in ambiguous:  # the hop is `Wide::from`: each other `Wide::from` says where it is
        assert hop.name == "Wide::from"
        assert all(c.startswith("Wide::from (crates/conv/src/lib.rs:") for c in hop.candidates)
        assert len(set(hop.candidates)) == len(hop.candidates)


def test_a_conversion_from_one_of_many_foreign_types_of_one_name_is_told_by_its_path() -> None:
    """gitui's `GixError` converts from 16 foreign types all named `Error`; `GixError::from(
    error)` with `error: gix::worktree::open_index::Error` is the impl of that path, not 16
    candidates dropped as too many (reading 115)."""
    lib = "crates/git/src/error.rs"
    source = "pub struct GixError;\npub struct Error;\n"
    for module in ("status", "index", "walk", "diff", "tree", "refs"):
        source += (
            f"impl From<gix::{module}::Error> for GixError {{\n"
            f"    fn from(e: gix::{module}::Error) -> Self {{ GixError }}\n}}\n"
        )
    source += (
        "impl From<gix::index::Error> for Error {\n"
        "    fn from(error: gix::index::Error) -> Self {\n"
        "        let _ = GixError::from(error);\n        Error\n    }\n}\n"
    )
    graph = _graph_of({lib: source})
    caller = node(graph, "Error::from")
    callees = [
        (graph.nodes[callee].definition.line, edge.resolution)
        for callee, edges in graph.callers.items()
        for edge in edges
        if edge.caller == caller
    ]
    assert callees == [(line_of_text(source, "fn from(e: gix::index::Error)"), "type")]


def callees_at(graph: CallGraph, caller: str, line: int) -> list[tuple[str, str]]:
    """(label, resolution) of each callee the fn labelled `caller` calls at `line`, sorted."""
    return sorted(
        (graph.nodes[callee].label, e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
        if e.line == line and graph.nodes[e.caller].label == caller
    )


def test_a_receiver_of_unknown_type_picks_the_methods_of_the_type_it_is_named_after() -> None:
    graph = _graph_of(
        {
            "crates/store/src/host.rs": (
                "pub struct CoprocessorHost;\nimpl CoprocessorHost {\n"
                "    pub fn on_message(&self, m: u8) -> bool { m > 1 }\n}\n"
                "pub struct PeerDelegate;\nimpl PeerDelegate {\n"
                "    pub fn on_message(&self, m: u8) -> bool { m > 2 }\n}\n"
                "pub trait RowWriter {\n    fn store_row(&self, m: u8);\n}\n"
                "pub struct RowWriterImpl;\n"
                "impl RowWriter for RowWriterImpl {\n    fn store_row(&self, m: u8) {}\n}\n"
                "pub struct Disk;\nimpl Disk {\n    pub fn store_row(&self, m: u8) {}\n}\n"
            ),
            "crates/store/src/poll.rs": (
                "pub fn poll(ctx: Context, m: u8) {\n"  # `Context`'s fields are not in the index
                "    ctx.coprocessor_host.on_message(m);\n"
                "    ctx.row_writer.store_row(m);\n"
                "    ctx.sink.store_row(m);\n"
                "}\n"
            ),
        }
    )

    def callees(line: int) -> list[str]:
        return [label for label, _ in callees_at(graph, "poll", line)]

    assert callees(2) == ["CoprocessorHost::on_message"]
    # named after a trait: the trait's method and its impls, not another type's
    assert callees(3) == ["RowWriter::store_row", "RowWriterImpl::store_row"]
    assert callees(4) == ["Disk::store_row", "RowWriter::store_row", "RowWriterImpl::store_row"]


def test_a_value_from_outside_the_repository_has_no_inherent_method_of_it() -> None:
    graph = _graph_of(
        {
            "crates/sched/src/lib.rs": (
                "pub struct Scheduler;\nimpl Scheduler {\n    pub fn tick(&self) {}\n"
                "    pub fn poll_once(&self) {}\n}\n"
                "pub struct Wrapper(u8);\nimpl Wrapper {\n    pub fn unwrap_it(&self) {}\n}\n"
                "pub trait HeaderExt {\n    fn task_key(&self) -> u8;\n}\n"
                "impl HeaderExt for http::Request {\n    fn task_key(&self) -> u8 { 1 }\n}\n"
                "pub fn make_scheduler() -> Scheduler { Scheduler }\n"
                "pub fn events(d: u64) {\n"
                "    let interval = tokio::time::interval(d);\n"  # outside: not `Scheduler::tick`
                "    interval.tick();\n"
                "    let req = http::request(d);\n"  # outside, but the repository's trait
                "    req.task_key();\n"
                "    let sched = make_scheduler();\n"  # a fn of the repository: what it returns
                "    sched.poll_once();\n"
                "    let make_scheduler = make_scheduler();\n"  # named after its fn: still a call
                "    let w = Wrapper(1);\n"  # a tuple struct built: its type
                "    w.unwrap_it();\n"
                "}\n"
            ),
        }
    )

    def callees(line: int) -> list[tuple[str, str]]:
        return callees_at(graph, "events", line)

    assert callees(19) == []
    # the only `task_key`s are `HeaderExt`'s and its one impl's: the trait's method
    assert callees(21) == [("HeaderExt::task_key", "trait"), ("Request::task_key", "trait")]
    assert callees(23) == [("Scheduler::poll_once", "type")]
    assert callees(24) == [("make_scheduler", "local")]
    assert callees(26) == [("Wrapper::unwrap_it", "type")]


def test_another_crate_s_fn_by_its_path_is_outside_whatever_the_repository_names_so() -> None:
    """risingwave defines fns named `interval`, and its election client's `let mut ticker =
    tokio::time::interval(..)` made `ticker.tick()` its source manager's `tick` (reading
    320). The written path says whose fn it is: another crate's, not std's (`std::mem::take`
    gives back what it is given), nor a fn that decodes into a type the caller names
    (`serde_json::from_str`), nor a path through the repository's own modules."""
    graph = _graph_of(
        {
            "crates/sched/src/lib.rs": (
                "pub mod time;\n"
                "pub struct Scheduler;\nimpl Scheduler {\n    pub fn tick(&self) {}\n}\n"
                "pub fn events(d: u64, s: &str) {\n"
                "    let ticker = tokio::time::interval(d);\n"
                "    ticker.tick();\n"
                "    let parsed = serde_json::from_str(s).unwrap();\n"
                "    parsed.tick();\n"
                "    let own = crate::time::interval(d);\n"
                "    own.tick();\n"
                "    let taken = std::mem::take(&mut d);\n"
                "    taken.tick();\n"
                "}\n"
            ),
            "crates/sched/src/time.rs": "pub fn interval(d: u64) {}\n",
            "crates/other/src/lib.rs": "pub fn from_str(s: &str) {}\npub fn take(d: &mut u64) {}\n",
        }
    )

    def callees(line: int) -> list[str]:
        return [label for label, _ in callees_at(graph, "events", line)]

    assert callees(8) == []
    assert callees(10) == ["Scheduler::tick"]
    assert callees(12) == ["Scheduler::tick"]
    assert callees(14) == ["Scheduler::tick"]


def test_a_grpcio_service_method_is_an_rpc_entry() -> None:
    graph = _graph_of(
        {
            "crates/server/src/service.rs": (
                "pub struct Service;\n"
                "impl Tikv for Service {\n"
                "    fn kv_gc(&mut self, ctx: RpcContext<'_>, req: GcRequest, sink: UnarySink<R>) {\n"
                "        collect(req);\n    }\n"
                "    fn batch(&mut self, _: RpcContext<'_>, s: RequestStream<B>, k: DuplexSink<C>) {}\n"
                "    fn helper(&mut self, ctx: RpcContext<'_>) {}\n"  # no sink: no service method
                "}\n"
                "fn collect(req: GcRequest) {}\n"
            ),
        }
    )
    rpc = {
        graph.nodes[n].label: label for n, (kind, label) in graph.entries.items() if kind == "rpc"
    }
    assert rpc == {"Service::kv_gc": "RPC `Tikv::kv_gc`", "Service::batch": "RPC `Tikv::batch`"}
    assert [
        (p.entry_label, [h.name for h in p.hops])
        for p in caller_paths(graph, node(graph, "collect"))
    ] == [("RPC `Tikv::kv_gc`", ["Service::kv_gc", "collect"])]


def test_a_call_sees_the_nearest_binding_above_it() -> None:
    graph = _graph_of(
        {
            "crates/dev/src/main.rs": (
                "pub struct TcpCheck;\nimpl TcpCheck {\n    pub fn run_check(&self) {}\n}\n"
                "pub struct PubsubCheck;\nimpl PubsubCheck {\n    pub fn run_check(&self) {}\n}\n"
                "fn main() {\n"
                "    let task = TcpCheck {};\n"
                "    task.run_check();\n"
                "    let task = PubsubCheck {};\n"
                "    task.run_check();\n"
                "}\n"
            ),
        }
    )
    main_id = node(graph, "main")
    seen = sorted(
        (e.line, graph.nodes[callee].label, e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
        if e.caller == main_id
    )
    # each call the binding above it, not the fn's last `let` for both
    assert seen == [(11, "TcpCheck::run_check", "type"), (13, "PubsubCheck::run_check", "type")]


SINKS = """\
pub trait Sink {
    fn validate(&self) -> Result<(), String>;
    fn check(&self) -> Result<(), String> {
        self.validate()
    }
    fn make() -> Self;
}
pub struct Kafka;
impl Sink for Kafka {
    fn validate(&self) -> Result<(), String> {
        Err("kafka needs a topic".into())
    }
    fn make() -> Self {
        Kafka
    }
}
pub struct Redis;
impl Sink for Redis {
    fn validate(&self) -> Result<(), String> {
        Err("redis needs a key".into())
    }
    fn make() -> Self {
        Redis
    }
}
pub struct Console;
impl Console {
    pub fn flush(&self) {}
}
impl Sink for Console {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
    fn make() -> Self {
        Console
    }
}
pub struct Holder {
    inner: Box<dyn Sink>,
}
pub fn by_dyn(s: &dyn Sink) { s.validate(); }
pub fn by_impl(s: impl Sink) { s.validate(); }
pub fn by_generic<S: Sink>(s: &S) { s.validate(); }
pub fn by_where<S>(s: Arc<S>) where S: Sink + Send { s.validate(); }
pub fn by_field(h: &Holder) { h.inner.validate(); }
pub fn by_path<S: Sink>() -> S { S::make() }
pub fn concrete(c: &Console) { c.validate(); c.check(); }
pub fn guessed(thing: Thing) { thing.validate(); }
pub fn by_name() { Sink::validate(&Redis); }
"""


def test_a_call_of_a_trait_s_method_on_a_trait_typed_value_reaches_every_impl() -> None:
    graph = _graph_of({"crates/sink/src/lib.rs": SINKS})

    def callers(label: str) -> list[tuple[str, str, int]]:
        return [
            (graph.nodes[e.caller].label, e.resolution, e.line)
            for e in graph.callers.get(node(graph, label), [])
        ]

    line = lambda text: line_of_text(SINKS, text)  # noqa: E731
    trait_typed = [
        ("Sink::check", "trait", line("self.validate()")),  # `self` in the trait's own fn
        ("by_dyn", "trait", line("fn by_dyn")),
        ("by_impl", "trait", line("fn by_impl")),
        ("by_generic", "trait", line("fn by_generic")),
        ("by_where", "trait", line("fn by_where")),
        ("by_field", "trait", line("fn by_field")),  # a `Box<dyn Sink>` field
    ]
    # each impl: once from every call on a value typed by the trait, on the call's line
    assert callers("Kafka::validate") == trait_typed
    assert callers("Redis::validate") == trait_typed
    # the declaration itself: those calls, resolved `trait`; not the by-name guess
    assert callers("Sink::validate") == [*trait_typed, ("by_name", "type", line("fn by_name"))]
    # a concrete type's call is its own impl's; its default method is the trait's, not fanned out
    assert callers("Console::validate") == [("concrete", "type", line("fn concrete")), *trait_typed]
    assert callers("Sink::check") == [("concrete", "type", line("fn concrete"))]
    # `S::make()` with `S: Sink`
    assert ("by_path", "trait", line("fn by_path")) in callers("Redis::make")
    # `thing.validate()` on an unknown type stays a guess among the impls, never fanned out;
    # `Sink::validate(&Redis)` names the trait's fn, its argument the impl: not fanned out
    assert all(caller not in ("guessed", "by_name") for caller, _, _ in callers("Kafka::validate"))

    path = caller_paths(graph, node(graph, "Kafka::validate"))[0]
    assert [(h.name, h.resolution, h.via) for h in path.hops] == [
        ("by_dyn", None, None),
        ("Kafka::validate", "trait", "Sink::validate"),
    ]
    assert path_text(path) == (
        "`by_dyn` -> `Kafka::validate` (called as `Sink::validate`, one of 3 impls)"
    )


def test_trait_dispatch_keeps_to_the_declaring_crate_and_to_traits_the_repository_declares() -> (
    None
):
    graph = _graph_of(
        {
            "crates/a/src/lib.rs": (
                "pub trait Store {\n    fn put(&self);\n}\n"
                "pub struct Mem;\nimpl Store for Mem {\n    fn put(&self) {}\n}\n"
                "pub fn save(s: &dyn Store) { s.put(); }\n"
                # a struct named like a trait of another crate: its own method, a `type` call
                "pub struct Writer;\nimpl Writer {\n    pub fn put(&self) {}\n}\n"
                "pub fn write(w: &Writer) { w.put(); }\n"
            ),
            "crates/b/src/lib.rs": (
                "pub trait Store {\n    fn put(&self);\n}\n"
                "pub struct Disk;\nimpl Store for Disk {\n    fn put(&self) {}\n}\n"
                "pub trait Writer {\n    fn put(&self);\n}\n"
            ),
        }
    )

    def callers_of(label: str, crate: str) -> list[tuple[str, str]]:
        (found,) = [
            i for i, n in enumerate(graph.nodes) if n.label == label and n.path.startswith(crate)
        ]
        return [(graph.nodes[e.caller].label, e.resolution) for e in graph.callers.get(found, [])]

    assert callers_of("Mem::put", "crates/a") == [("save", "trait")]
    assert callers_of("Disk::put", "crates/b") == []  # another crate's `Store`
    # a struct named like another crate's trait: its own method, resolved by its type
    assert callers_of("Writer::put", "crates/a") == [("write", "type")]
    assert callers_of("Writer::put", "crates/b") == []


def test_generic_bounds_are_read_from_the_signature() -> None:
    from pipeline.scan.signatures import generic_bounds

    assert generic_bounds("fn f<S: Sink>(s: &S)") == {"S": "Sink"}
    assert generic_bounds(
        "fn f<'a, S: 'a + ?Sized + store::Sink<K>, T>(x: T) where T: Store + Send"
    ) == {
        "S": "Sink",
        "T": "Store",
    }
    assert generic_bounds("fn f(x: HashMap<String, Vec<u8>>) -> Result<u8, E>") == {}
    assert generic_bounds("fn f<T>(t: T) where T: AsRef<str>, U: Clone") == {
        "T": "AsRef",
        "U": "Clone",
    }


def test_a_dispatched_hop_is_named_in_the_static_text_and_the_page(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "sink"\n', "src/lib.rs": SINKS}
    sha, record = committed_and_extracted(files, "o/sink", tmp_path, "kafka needs a topic")
    out, site = tmp_path / "out", tmp_path / "site"
    # by_dyn, by_impl, by_generic, by_where and by_field: more than 3 paths (not `concrete`,
    # whose `c.check()` runs `Sink::check` with `Self` a `Console`)
    # the path holds only where the `dyn Sink` is a `Kafka`, which the index does not follow
    # (tikv's v2 `StoreSystem` read as running v1's `RaftPoller`, reading 181)
    assert record["triggerScenarios"].endswith(
        f"At commit {sha[:10]} it can be reached from 5 entry points found within 8 calls,"
        " among them public API `sink::by_dyn`, when `Sink::validate` there runs `Kafka`'s"
        " (one of 3 impls): `by_dyn` -> `Kafka::validate`"
        " (called as `Sink::validate`, one of 3 impls)."
    )
    assert record["commonSituations"].endswith(
        "(each through a trait's method, which may run another of its impls)."
    )
    section = reach_section(out, site, record)
    assert "(called as <code>Sink::validate</code>, one of 3 impls)" in section
    assert (
        "<p>5 entry points lead here within 8 calls; the paths below are the best 3.</p>" in section
    )


def test_a_let_holding_a_call_s_value_has_the_type_the_repository_s_fns_return() -> None:
    source = (
        "pub trait Command {\n    fn run(&self) -> Result<(), String>;\n}\n"
        "pub struct Ls;\nimpl Command for Ls {\n"
        '    fn run(&self) -> Result<(), String> { Err("ls failed".into()) }\n}\n'
        "pub struct State;\nimpl State {\n"
        "    pub fn get_decl(&self, id: usize) -> &dyn Command { &Ls }\n"
        "    pub fn engine(&self) -> anyhow::Result<Option<Arc<Engine>>> { todo!() }\n}\n"
        "pub struct Engine;\nimpl Engine {\n    pub fn launch(&self) {}\n    pub fn stop(&self) {}\n}\n"
        "pub struct Other;\nimpl Other {\n    pub fn stop(&self) {}\n"
        "    pub fn engine(&self) -> Other { Other }\n}\n"
        "pub fn eval(state: &State) {\n"
        "    let decl = state.get_decl(1);\n"  # `&dyn Command`: every command's `run`
        "    decl.run();\n"
        "    let e = state.engine()?;\n"  # two `engine` fns: `state` names `State`'s
        "    e.launch();\n"
        "    let o = thing.engine()?;\n"  # a receiver named after neither: no type
        "    o.launch();\n"
        "    let s = make_engine()?;\n"  # `-> Result<Engine, String>`, `?` taken as applied
        "    s.stop();\n"
        "}\n"
        "pub fn make_engine() -> Result<Engine, String> { Ok(Engine) }\n"
        "pub trait Iter {\n    fn try_next(&mut self) -> Option<u8>;\n}\n"
        "pub struct Vecs;\nimpl Iter for Vecs {\n    fn try_next(&mut self) -> Option<u8> { None }\n}\n"
        "pub struct Flow;\nimpl Flow {\n    pub fn fused(self) -> Flow { self }\n}\n"
        "pub fn drain(it: impl Iter) {\n"
        "    let mut it = it.fused();\n"  # an adapter's value: still the `impl Iter`
        "    it.try_next();\n"
        "}\n"
    )
    graph = _graph_of({"crates/nu/src/lib.rs": source})
    eval_id = node(graph, "eval")
    seen = sorted(
        (e.line, graph.nodes[callee].label, e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
        if e.caller == eval_id
    )
    line = lambda text: line_of_text(source, text)  # noqa: E731
    assert (line("decl.run()"), "Ls::run", "trait") in seen
    assert (line("decl.run()"), "Command::run", "trait") in seen
    assert (line("e.launch()"), "Engine::launch", "type") in seen
    assert (line("o.launch()"), "Engine::launch", "name") in seen  # a guess, as before
    assert [(label, how) for at, label, how in seen if at == line("s.stop()")] == [
        ("Engine::stop", "type")
    ]
    drained = [
        (graph.nodes[callee].label, e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
        if e.caller == node(graph, "drain")
    ]
    assert sorted(drained) == [
        ("Flow::fused", "name"),  # the adapter's call itself: a guess, as before
        ("Iter::try_next", "trait"),
        ("Vecs::try_next", "trait"),
    ]


def test_a_let_keeps_its_type_through_error_side_methods_a_turbofish_and_a_closure() -> None:
    """just's `run`: `let config = Config::from_arguments(a).map_err(Error::from);` then
    `config.and_then(|config| config.subcommand.execute(..))`: `Subcommand::execute` had no
    caller, so 95% of just's records reached no entry point (now 72%)."""
    source = (
        "pub struct Config { pub subcommand: Subcommand }\n"
        "impl Config {\n    pub fn from_arguments(a: u8) -> Result<Config, String> { todo!() }\n}\n"
        "pub enum Subcommand { Run }\n"
        "impl Subcommand {\n    pub fn execute(&self) -> Result<(), String> { Ok(()) }\n}\n"
        "pub struct Sink;\nimpl Sink {\n    pub fn validate(&self) {}\n}\n"
        "pub struct Other;\nimpl Other {\n    pub fn new() -> Other { Other }\n"
        "    pub fn execute(&self) {}\n    pub fn validate(&self) {}\n}\n"
        "pub fn run(a: u8) -> Result<(), String> {\n"
        "    let config = Config::from_arguments(a).map_err(|e| e.to_string());\n"
        "    let sink = serde_json::from_value::<Sink>(v).map_err(|e| e.to_string())?;\n"
        "    sink.validate();\n"
        "    let done = config.and_then(|config| config.subcommand.execute());\n"
        "    let config = Other::new();\n"  # bound again below the closure: the nearest wins
        "    config.execute();\n"
        "    done\n"
        "}\n"
    )
    graph = _graph_of({"crates/just/src/lib.rs": source})
    run_id = node(graph, "run")
    seen = sorted(
        (graph.nodes[callee].label, e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
        if e.caller == run_id
    )
    assert seen == [
        ("Config::from_arguments", "type"),
        ("Other::execute", "type"),
        ("Other::new", "type"),
        ("Sink::validate", "type"),
        ("Subcommand::execute", "type"),
    ]  # each `execute` of its own receiver's type
    from pipeline.languages.rust.index import index_file

    locals_ = index_file("crates/just/src/lib.rs", source.encode()).locals
    # `T::f(..)`'s value: what `f` returns, which the link reads (`Config`, `Other`)
    assert [(local.line, local.type) for local in locals_ if local.name == "config"] == [
        (line_of_text(source, "let config = Config"), "<call>Config::from_arguments"),
        (line_of_text(source, "|config|"), "<call>Config::from_arguments"),  # in its line's place
        (line_of_text(source, "let config = Other"), "<call>Other::new"),
    ]
    sized = (
        "fn f() {\n    let n = std::mem::size_of::<Sink>();\n    let c = s.parse::<Config>()?;\n}\n"
    )
    typed = {local.name: local.type for local in index_file("src/a.rs", sized.encode()).locals}
    assert typed == {"n": "<call>std::mem::size_of", "c": "Config"}  # a size is no `Sink`


def test_a_receiver_made_by_method_calls_has_the_type_those_methods_return() -> None:
    source = (
        "pub struct Schema;\nimpl Schema {\n    pub fn len(&self) -> usize { 0 }\n"
        "    pub fn size(&self) -> usize { 0 }\n}\n"
        "pub struct Rows;\nimpl Rows {\n    pub fn len(&self) -> usize { 0 }\n"
        "    pub fn size(&self) -> usize { 0 }\n}\n"
        "pub trait Plan {\n    fn schema(&self) -> &Schema;\n}\n"
        "pub struct Scan;\nimpl Plan for Scan {\n    fn schema(&self) -> &Schema { &Schema }\n}\n"
        "pub struct Project { input: Scan }\nimpl Project {\n"
        "    pub fn input(&self) -> &dyn Plan { &self.input }\n"
        "    pub fn new(input: Scan) -> Self { Project { input } }\n"
        "    pub fn rows(&self) -> Option<Rows> { None }\n"
        "    pub fn width(&self) -> usize {\n"
        "        self.input().schema().len()\n"  # `&dyn Plan` -> its `schema` -> `Schema::len`
        "            + self.rows().unwrap().len()\n"  # `unwrap` keeps the value's type
        "            + Project::new(Scan).input().schema().len()\n"  # `Self`: a `Project`
        "            + make().len()\n"  # a free fn's value
        "            + self.input.schema().len()\n"  # a field, then a call
        "            + self.rows().map(|r| r.len()).size()\n"  # a std adapter: a guess
        "            + other.get(a.b(c)).size()\n"  # an untyped head: a guess
        "    }\n}\n"
        "pub fn make() -> Rows { Rows }\n"
    )
    seen = called_by(_graph_of({"crates/plan/src/lib.rs": source}), "Project::width")
    at = lambda text: line_of_text(source, text)  # noqa: E731

    def calls_of(text: str, name: str) -> list[tuple[str, str]]:
        return [(label, how) for line, label, how in seen if line == at(text) and name in label]

    assert calls_of("self.input().schema().len()", "len") == [("Schema::len", "type")]
    assert calls_of("self.input().schema().len()", "schema") == [
        ("Plan::schema", "trait"),
        ("Scan::schema", "trait"),
    ]
    assert calls_of("self.rows().unwrap().len()", "len") == [("Rows::len", "type")]
    assert calls_of("Project::new(Scan).input()", "len") == [("Schema::len", "type")]
    assert calls_of("make().len()", "len") == [("Rows::len", "type")]
    assert calls_of("self.input.schema().len()", "len") == [("Schema::len", "type")]
    assert calls_of("self.rows().map(", "size") == [
        ("Rows::size", "name"),
        ("Schema::size", "name"),
    ]
    assert calls_of("other.get(a.b(c)).size()", "size") == [
        ("Rows::size", "name"),
        ("Schema::size", "name"),
    ]


def test_a_receiver_chain_splits_at_its_top_level_dots() -> None:
    from pipeline.scan.callgraph import _segments

    assert _segments("self.a.get(x.y)?") == ("self", "a", "get(x.y)")
    assert _segments("Catalog::new(a, b).tables()") == ("Catalog::new(a, b)", "tables()")
    assert _segments("x.map(|r| r.len())") == ("x", "map(|r| r.len())")
    assert _segments("self.inner.poll(cx).await") == ("self", "inner", "poll(cx)", "await")
    assert _segments("a.b[0].c") == ()  # an index: no method of the chain says its type
    assert _segments("(a + b).c") == ("(a + b)", "c")
    assert _segments("self.a.get(x …") == ()  # cut short by the index
    assert _segments("a.b)") == () and _segments("") == ()


def test_a_trait_typed_value_has_its_supertraits_methods_and_dispatches_them() -> None:
    source = (
        "pub trait ToStream {\n    fn to_stream(&self) -> u8;\n}\n"
        "pub trait PlanNode: ToStream + Send + std::fmt::Debug {\n    fn id(&self) -> u8;\n}\n"
        "pub struct Scan;\nimpl ToStream for Scan {\n    fn to_stream(&self) -> u8 { 1 }\n}\n"
        "pub struct Join;\nimpl ToStream for Join {\n    fn to_stream(&self) -> u8 { 2 }\n}\n"
        "pub struct Other;\nimpl Other {\n    pub fn to_stream(&self) -> u8 { 3 }\n}\n"
        "pub fn plan(node: &dyn PlanNode) -> u8 {\n    node.to_stream()\n}\n"
    )
    called = called_by(_graph_of({"crates/plan/src/lib.rs": source}), "plan")
    assert [(label, how) for _, label, how in called] == [
        ("Join::to_stream", "trait"),
        ("Scan::to_stream", "trait"),
        ("ToStream::to_stream", "trait"),
    ]


def test_a_wrapper_has_its_deref_target_s_methods_and_a_plan_ref_dispatches() -> None:
    source = (
        "pub trait ToStream {\n    fn to_stream(&self) -> u8;\n}\n"
        "pub trait LogicalNode: ToStream {}\n"  # declares no method of its own
        "pub trait Convention {\n    type Dyn: ?Sized;\n}\n"
        "pub struct Logical;\nimpl Convention for Logical {\n    type Dyn = dyn LogicalNode;\n}\n"
        "pub struct PlanRef<C: Convention>(Rc<C::Dyn>);\n"
        "impl<C: Convention> Deref for PlanRef<C> {\n    type Target = C::Dyn;\n"
        "    fn deref(&self) -> &Self::Target { &self.0 }\n}\n"
        "pub struct Filter { input: PlanRef<Logical> }\n"
        "impl Filter {\n    pub fn input(&self) -> PlanRef<Logical> { self.input.clone() }\n}\n"
        "impl ToStream for Filter {\n    fn to_stream(&self) -> u8 { self.input().to_stream() }\n}\n"
        "pub struct Scan;\nimpl ToStream for Scan {\n    fn to_stream(&self) -> u8 { 0 }\n}\n"
        "pub struct Data;\nimpl Data {\n    pub fn cardinality(&self) -> usize { 0 }\n}\n"
        "pub struct Chunk { data: Data }\n"
        "impl Deref for Chunk {\n    type Target = Data;\n    fn deref(&self) -> &Data { &self.data }\n}\n"
        "pub struct Other;\nimpl Other {\n    pub fn cardinality(&self) -> usize { 1 }\n}\n"
        "pub struct Guarded<T>(T);\n"
        "impl<T> Deref for Guarded<T> {\n    type Target = T;\n    fn deref(&self) -> &T { &self.0 }\n}\n"
        "pub fn count(c: &Chunk, g: &Guarded<Other>) -> usize {\n"
        "    c.cardinality()\n"  # `Chunk` derefs to `Data`
        "        + g.cardinality()\n"  # `Guarded<T>` derefs to whatever T is: a guess
        "}\n"
    )
    graph = _graph_of({"crates/plan/src/lib.rs": source})
    at = lambda text: line_of_text(source, text)  # noqa: E731
    plan = at("self.input().to_stream()")
    assert [
        (label, how) for line, label, how in called_by(graph, "Filter::to_stream") if line == plan
    ] == [
        ("Filter::input", "self"),
        ("Scan::to_stream", "trait"),  # any logical node's (not its own: no edge to itself)
        ("ToStream::to_stream", "trait"),
    ]
    assert called_by(graph, "count") == [
        (at("c.cardinality()"), "Data::cardinality", "type"),
        (at("g.cardinality()"), "Data::cardinality", "name"),
        (at("g.cardinality()"), "Other::cardinality", "name"),
    ]


def test_an_enum_of_one_trait_s_implementors_dispatches_its_method() -> None:
    source = (
        "pub trait Extractor {\n    fn extract(&self) -> u8;\n}\n"
        "pub struct Schema;\nimpl Extractor for Schema {\n    fn extract(&self) -> u8 { 1 }\n}\n"
        "pub struct Dummy;\nimpl Extractor for Dummy {\n    fn extract(&self) -> u8 { 0 }\n}\n"
        "pub struct Plain;\nimpl Plain {\n    pub fn extract(&self) -> u8 { 2 }\n}\n"
        "pub enum ExtractorImpl {\n    Schema(Schema),\n    Dummy(Box<Dummy>),\n}\n"
        "pub enum Mixed {\n    Schema(Schema),\n    Plain(Plain),\n}\n"
        "pub struct Agent { inner: ExtractorImpl, mixed: Mixed }\n"
        "impl Agent {\n"
        "    pub fn run(&self) -> u8 {\n"
        "        self.inner.extract()\n"  # an impl a macro writes matches the variants
        "            + self.mixed.extract()\n"  # an inherent method among them: no such call
        "    }\n}\n"
    )
    called = called_by(_graph_of({"crates/store/src/lib.rs": source}), "Agent::run")
    at = line_of_text(source, "self.inner.extract()")
    assert [(label, how) for line, label, how in called if line == at] == [
        ("Dummy::extract", "trait"),
        ("Extractor::extract", "trait"),
        ("Schema::extract", "trait"),
    ]
    mixed = line_of_text(source, "self.mixed.extract()")
    assert all(how == "name" for line, _, how in called if line == mixed)


def test_a_fn_passed_by_path_is_called_on_the_caller_s_behalf() -> None:
    source = (
        "pub struct Parser;\nimpl Parser {\n"
        '    pub fn parse_ident(&mut self) -> Result<u8, String> { Err("expected an identifier".into()) }\n'
        "    pub fn parse_list(&mut self) -> Vec<u8> {\n"
        "        self.comma_separated(Parser::parse_ident)\n"
        "    }\n"
        "    pub fn parse_rows(&mut self, v: Vec<u8>) -> Vec<u8> {\n"
        "        v.into_iter().map(Self::from_raw).map(Into::into).map(E::V).collect()\n"
        "    }\n"
        "    fn from_raw(x: u8) -> u8 { x }\n"
        "    fn comma_separated<F>(&mut self, f: F) -> Vec<u8> { vec![] }\n}\n"
        "pub enum E {\n    V(u8),\n}\n"
    )
    from pipeline.languages.rust.index import index_file

    calls = index_file("src/parser.rs", source.encode()).calls
    passed = [(c.name, c.qualifier, c.arity) for c in calls if c.arity == -1]
    assert passed == [("parse_ident", "Parser", -1), ("from_raw", "Self", -1), ("into", "Into", -1)]
    graph = _graph_of({"crates/sql/src/parser.rs": source})
    called = sorted(
        (graph.nodes[e.caller].label, graph.nodes[callee].label, e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
        if graph.nodes[callee].label in ("Parser::parse_ident", "Parser::from_raw")
    )
    assert called == [
        ("Parser::parse_list", "Parser::parse_ident", "type"),
        ("Parser::parse_rows", "Parser::from_raw", "self"),
    ]


def test_same_named_types_of_two_crates_are_told_apart_by_the_file_s_use() -> None:
    files = {
        "src/batch/src/lib.rs": "pub struct Executor;\nimpl Executor {\n    pub fn schema(&self) -> u8 { 1 }\n}\n",
        "src/stream/src/lib.rs": "pub struct Executor;\nimpl Executor {\n    pub fn schema(&self) -> u8 { 2 }\n}\n",
        "src/delete/src/lib.rs": (
            "use risingwave_batch::Executor;\n"
            "pub fn delete(child: &Executor) -> u8 {\n    child.schema()\n}\n"
        ),
        "src/insert/src/lib.rs": "pub fn insert(child: &Executor) -> u8 {\n    child.schema()\n}\n",
        # `crate::executor` re-exports batch's: one level followed
        "src/executors/src/executor.rs": "pub use risingwave_batch::*;\npub use limit::*;\nmod limit;\n",
        "src/executors/src/executor/limit.rs": (
            "use crate::executor::Executor;\n"
            "pub fn limit(child: &Executor) -> u8 {\n    child.schema()\n}\n"
        ),
    }
    graph = _graph_of(files)

    def callees(label: str) -> list[tuple[str, str]]:
        return [
            (graph.nodes[callee].path, how)
            for callee, edges in graph.callers.items()
            for e in edges
            if e.caller == node(graph, label)
            for how in [e.resolution]
        ]

    assert callees("delete") == [("src/batch/src/lib.rs", "type")]
    assert callees("limit") == [("src/batch/src/lib.rs", "type")]
    assert sorted(callees("insert")) == [  # no `use`: both, marked ambiguous
        ("src/batch/src/lib.rs", "type"),
        ("src/stream/src/lib.rs", "type"),
    ]


def test_a_type_a_macro_writes_named_after_a_trait_dispatches_that_trait_s_method() -> None:
    source = (
        "pub trait Sink {\n    fn validate(&self) -> Result<(), String>;\n}\n"
        "pub struct KafkaSink;\nimpl Sink for KafkaSink {\n"
        '    fn validate(&self) -> Result<(), String> { Err("no brokers".into()) }\n}\n'
        "pub struct RedisSink;\nimpl Sink for RedisSink {\n"
        "    fn validate(&self) -> Result<(), String> { Ok(()) }\n}\n"
        "pub struct Config;\nimpl Config {\n    pub fn validate(&self) -> bool { true }\n}\n"
        "macro_rules! def_sink_impl { () => { pub enum SinkImpl { Kafka(KafkaSink) } } }\n"
        "pub fn build_sink() -> SinkImpl { todo!() }\n"
        "pub fn build_other() -> Unknown { todo!() }\n"
        "pub fn validate_sink() -> Result<(), String> {\n"
        "    let sink = build_sink();\n"
        "    dispatch_sink!(sink, sink, sink.validate())\n"  # `SinkImpl`: written by a macro
        "}\n"
        "pub fn other() {\n"
        "    let o = build_other();\n"
        "    o.validate();\n"  # `Unknown` is named after no trait: left to the name rules
        "}\n"
    )
    graph = _graph_of({"crates/connector/src/lib.rs": source})
    assert [(label, how) for _, label, how in called_by(graph, "validate_sink")] == [
        ("build_sink", "local"),
        ("KafkaSink::validate", "trait"),
        ("RedisSink::validate", "trait"),
        ("Sink::validate", "trait"),
    ]
    assert all(how != "trait" for _, _, how in called_by(graph, "other"))


def test_a_trait_s_supertraits_are_read_from_its_declaration() -> None:
    from pipeline.scan.signatures import supertraits

    assert supertraits("pub trait PlanNode: ToStream + Send where Self: Sized") == (
        "ToStream",
        "Send",
    )
    assert supertraits("pub trait E<C: Marker>: super::ToStream<C> + 'static") == ("ToStream",)
    assert supertraits("pub trait A<F: Fn(u8) -> u8>: B<F> + ?Sized") == ("B",)
    assert supertraits("pub trait Plain") == () == supertraits("pub trait T<A: X>")


def test_what_a_fn_returns_is_read_from_its_signature() -> None:
    from pipeline.scan.signatures import returned_type

    assert returned_type("pub fn get_decl(&self, id: DeclId) -> &dyn Command") == "Command"
    assert (
        returned_type("async fn f<F: Fn(u8) -> u8>(x: F) -> MetaResult<Option<Arc<Foo>>>") == "Foo"
    )
    assert returned_type("fn h(f: impl Fn() -> Bar) -> anyhow::Result<Baz>") == "Baz"
    assert returned_type("fn w<T>(t: T) -> Result<Engine, E> where T: Clone") == "Engine"
    assert returned_type("fn new() -> Self") == "Self"
    assert returned_type("fn g(&self)") == returned_type("fn u() -> ()") == ""


def test_a_method_taking_a_typed_self_is_a_method() -> None:
    graph = _graph_of(
        {
            "crates/batch/src/lib.rs": (
                "pub trait Executor {\n    fn execute(self: Box<Self>) -> u8;\n}\n"
                "pub type BoxedExecutor = Box<dyn Executor>;\n"
                "pub struct Scan;\nimpl Executor for Scan {\n"
                '    fn execute(self: Box<Self>) -> u8 { panic!("scan failed") }\n}\n'
                "pub struct Join {\n    outer: BoxedExecutor,\n}\n"
                "impl Join {\n    pub fn run(self) -> u8 { self.outer.execute() }\n"
                "    pub async fn go(self: Arc<Self>, n: u8) {}\n}\n"
            ),
            # another crate's struct of the same name with a plain `execute(&self)`
            "crates/stream/src/lib.rs": (
                "pub struct Executor;\nimpl Executor {\n    pub fn execute(&self) -> u8 { 1 }\n}\n"
            ),
        }
    )
    go = graph.nodes[node(graph, "Join::go")].definition
    assert go.has_self and go.params == (("n", "u8"),)
    scan = [
        (graph.nodes[e.caller].label, e.resolution)
        for e in graph.callers[node(graph, "Scan::execute")]
    ]
    assert scan == [("Join::run", "trait")]


def test_a_trait_method_called_too_broadly_reaches_its_declaration_alone() -> None:
    from pipeline.languages.rust.index import index_file
    from pipeline.scan.callgraph import link

    indexes = {"crates/sink/src/lib.rs": index_file("crates/sink/src/lib.rs", SINKS.encode())}

    def dispatched(limit: int, method: str) -> int:
        graph = link(indexes, 1, dispatch_limit=limit)
        return sum(
            1
            for callee, edges in graph.callers.items()
            for e in edges
            if e.resolution == "trait"
            and graph.nodes[callee].definition.owner != "Sink"
            and graph.nodes[callee].definition.name == method
        )

    # 6 calls of `validate` on a `Sink` times 3 impls: 18 edges; `S::make()`: 3
    assert (dispatched(18, "validate"), dispatched(18, "make")) == (18, 3)
    assert (dispatched(17, "validate"), dispatched(17, "make")) == (0, 3)


def test_a_hostile_signature_is_read_in_bounded_time() -> None:
    import time

    from pipeline.scan.signatures import LONGEST, generic_bounds, returned_type

    hostile = [
        "fn f() -> " + "Result<" * 3000 + "Foo" + ">" * 3000,  # quadratic to unwrap
        "fn f(" + "g: impl Fn() -> u8, " * 3000 + ") -> Foo",  # every `->` counted over
        "fn f<" + "A: " + "a::" * 30000 + "B>()",
    ]
    start = time.perf_counter()
    for signature in hostile:
        assert len(signature) > LONGEST
        assert returned_type(signature) == "" and generic_bounds(signature) == {}
    assert time.perf_counter() - start < 0.5
    # nested within bounds still unwraps; past 8 wraps says nothing
    assert returned_type("fn f() -> " + "Result<" * 7 + "Foo" + ">" * 7) == "Foo"
    assert returned_type("fn f() -> " + "Option<" * 9 + "Foo" + ">" * 9) == ""


def test_an_example_s_main_is_named_as_cargo_runs_it_and_is_of_its_crate() -> None:
    """nushell's `crates/nu-table/examples/table_demo.rs` read "`crates` (fn main)": the
    crate of a file beside `src/` was the path's first directory."""
    from pipeline.scan.callerpaths import caller_paths
    from pipeline.scan.context import _crate

    graph = _graph_of(
        {
            "crates/kv/src/lib.rs": "pub mod store;\n",
            "crates/kv/src/store.rs": STORE_FNS,
            "crates/kv/examples/demo.rs": BIN,
            "crates/kv/build.rs": "fn main() {}\n",
        }
    )
    put = next(n for n, node in enumerate(graph.nodes) if node.label == "put")
    (path,) = caller_paths(graph, put)
    # `examples/demo.rs` is what Cargo runs as `--example demo`, manifest or not
    assert (path.entry, path.entry_label) == ("example", "example `demo` (fn main)")
    assert [_crate(p) for p in ("crates/kv/examples/demo.rs", "crates/kv/build.rs")] == [
        "crates/kv",
        "crates/kv",
    ]
    assert [_crate(p) for p in ("tools/build.rs", "examples/a.rs", "tools/gen.rs")] == [
        "tools",
        "",
        "tools",
    ]
    # Under the root package's `src/`, a `build.rs` is a module (mdBook's `src/cmd/build.rs`,
    # which made `cmd` a crate: `cmd::init::execute` resolved to it), or the build script of a
    # crate kept under `src/` (risingwave's `src/meta/build.rs`), which no call names.
    assert [_crate(p) for p in ("src/cmd/build.rs", "src/meta/build.rs")] == ["", ""]


def test_each_subcommand_module_s_fn_is_called_from_its_own_arm_a_build_module_too() -> None:
    """mdBook's `main` calls `cmd::init::execute`, `cmd::build::execute`, ..: the module file
    `src/cmd/build.rs` was read as a build script, its directory as a crate named `cmd`, and
    every `cmd::x::execute` call resolved to it (init's fns had no caller at all)."""
    execute = "pub fn execute(args: &str) -> anyhow::Result<()> {{ {body}; Ok(()) }}\n"
    graph = _graph_of(
        {
            "src/main.rs": (
                "mod cmd;\nfn main() {\n    let res = match std::env::args().nth(1).as_deref() {\n"
                '        Some("init") => cmd::init::execute("x"),\n'
                '        Some("build") => cmd::build::execute("x"),\n'
                "        _ => Ok(()),\n    };\n}\n"
            ),
            "src/cmd/mod.rs": "pub mod build;\npub mod init;\n",
            "src/cmd/build.rs": execute.format(body="render()") + "fn render() {}\n",
            "src/cmd/init.rs": execute.format(body="scaffold()") + "fn scaffold() {}\n",
        }
    )
    edges = sorted(
        (graph.nodes[e.caller].label, e.line, graph.nodes[callee].path, e.resolution)
        for callee, edges in graph.callers.items()
        for e in edges
        if graph.nodes[callee].definition.name == "execute"
    )
    assert edges == [
        ("main", 4, "src/cmd/init.rs", "local"),
        ("main", 5, "src/cmd/build.rs", "local"),
    ]


def test_a_program_s_call_into_its_own_library_by_the_library_s_name_is_resolved() -> None:
    """just's `main` calls `just::run(..)`: the link names crates by directory, and the root
    package's has no name, so `run` read as a public API nobody calls. The manifest says the
    library is `just`: the call is resolved, and the way in is `just`'s main."""
    from pipeline.languages import repository_modules
    from pipeline.languages.rust.index import index_file
    from pipeline.scan.callerpaths import caller_paths

    files = {
        "src/main.rs": "fn main() {\n    if let Err(code) = just::run(std::env::args_os()) {\n"
        "        std::process::exit(code)\n    }\n}\n",
        "src/lib.rs": "pub use run::run;\nmod run;\nmod justfile;\n",
        "src/run.rs": "pub fn run(args: Args) -> Result<(), i32> {\n"
        "    crate::justfile::load().map_err(|_| 1)\n}\n",
        "src/justfile.rs": 'pub fn load() -> Result<(), String> {\n    Err("no justfile".into())\n}\n',
    }
    manifest = b'[package]\nname = "just"\n'
    modules = repository_modules({"Cargo.toml": manifest}, list(files))
    indexes = {path: index_file(path, text.encode()) for path, text in files.items()}
    graph = build_graph(indexes, 1, modules=modules)
    load = next(n for n, node in enumerate(graph.nodes) if node.label == "load")
    (path,) = caller_paths(graph, load)
    assert [hop.name for hop in path.hops] == ["main", "run", "load"]
    assert (path.entry, path.entry_label) == ("main", "`just` (fn main)")
    run = next(n for n, node in enumerate(graph.nodes) if node.label == "run")
    assert [(graph.nodes[e.caller].label, e.line, e.resolution) for e in graph.callers[run]] == [
        ("main", 2, "import")
    ]
    # with no manifest, no name to go by: `run` is the library's public API again
    plain = build_graph(indexes, 1)
    (path,) = caller_paths(plain, next(n for n, nd in enumerate(plain.nodes) if nd.label == "load"))
    assert path.entry_label == "public API `run`"  # named from the root that re-exports it


def test_a_path_with_no_entry_point_is_headed_by_its_furthest_caller(tmp_path: Path) -> None:
    """Not "From no entry point found within 8 calls": the page and the static text name
    where the path stops, and say that nothing the index resolves calls it (a fn
    registered in a table); "within N calls" is said only where the walk's depth ran out."""
    files = {
        "Cargo.toml": '[package]\nname = "tbl"\n',
        "src/lib.rs": (
            "mod cmds;\nstatic COMMANDS: &[fn(&str) -> anyhow::Result<()>] = &[cmds::close];\n"
        ),
        "src/cmds.rs": (
            "pub(crate) fn close(name: &str) -> anyhow::Result<()> {\n"
            "    close_impl(name)\n"
            "}\n"
            "fn close_impl(name: &str) -> anyhow::Result<()> {\n"
            "    if name.is_empty() {\n"
            '        anyhow::bail!("no buffer to close");\n'
            "    }\n"
            "    Ok(())\n"
            "}\n"
        ),
    }
    _, record = committed_and_extracted(files, "o/tbl", tmp_path, "no buffer to close")
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert (
        "<h3>From <code>close</code> (no caller found: it may be registered in a table, called "
        "through a pointer or a macro, from test code (which the index leaves out), or from "
        "outside the repository)</h3>"
    ) in section
    assert "within 8 calls" not in section
    assert (
        "(no caller of `close` found: it may be registered in a table"
        in (record["triggerScenarios"])
    )


def test_a_test_module_at_its_path_attribute_calls_nothing(tmp_path: Path) -> None:
    """zellij's `#[path = "./unit/x_tests.rs"] #[cfg(test)] mod x_tests;`: the fns of that
    file are test code, no caller of the product fns they test (a path began there)."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": (
            "pub fn run(x: u32) -> anyhow::Result<()> {\n"
            '    anyhow::ensure!(x > 1, "engine stopped");\n'
            "    Ok(())\n}\n"
            '#[path = "./unit/run_tests.rs"]\n#[cfg(test)]\nmod run_tests;\n'
        ),
        "src/unit/run_tests.rs": "pub fn create_engine() {\n    crate::run(0).unwrap();\n}\n",
    })  # fmt: skip
    (run,) = [i for i, n in enumerate(graph.nodes) if n.definition.name == "run"]

    assert [n.path for n in graph.nodes] == ["src/lib.rs"]
    assert graph.callers.get(run, []) == []


def test_a_fn_that_is_itself_the_entry_point_is_said_to_be_one_not_reached_from_itself() -> None:
    sha = "079a789e8c" + "0" * 30
    alone = Hop("Document::set_language", "src/document.rs", 12, "pub fn set_language(&mut self)")
    label = "public API `view::Document::set_language`"
    one = Reach(paths=(CallerPath((alone,), "pub-api", label),), callers=0)
    assert trigger_sentence(one, sha) == (
        "At commit 079a789e8c `Document::set_language` is itself an entry point: public API"
        " `view::Document::set_language`."
    )
    caller = Hop("open", "src/open.rs", 3, "pub fn open()", call_line=5)
    two = Reach(paths=(CallerPath((caller, alone), "pub-api", "public API `view::open`"),))
    assert trigger_sentence(two, sha) == (
        "At commit 079a789e8c it is reached from public API `view::open`: `open` ->"
        " `Document::set_language`."
    )
    built = Reach(paths=(CallerPath((alone,), "pub-api", label),), callers=1, built="E::V")
    assert trigger_sentence(built, sha) == (
        "At commit 079a789e8c, `E::V` is built in one function, `Document::set_language`,"
        " itself an entry point: public API `view::Document::set_language`."
    )


def test_a_field_is_read_off_the_struct_its_method_s_file_declares(tmp_path: Path) -> None:
    """vector's `vdev` declares a `Cli` per command: `self.release` in `run.rs`'s `impl Cli`
    is `run.rs`'s field, whichever `Cli` the index lists first; a name several files of
    the crate declare, none of them the method's, names none."""
    cli = "pub struct Cli {{\n    /// {doc}\n    release: bool,\n    config: String,\n}}\n"
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "vdev"\n',
        "src/build.rs": cli.format(doc="Build with optimizations"),
        "src/check.rs": cli.format(doc="Check in release mode"),
        "src/run.rs": cli.format(doc="Run in release mode") + (
            "impl Cli {\n    pub fn exec(self) -> anyhow::Result<()> {\n"
            '        if self.release {\n            anyhow::bail!("no release runs");\n        }\n'
            "        Ok(())\n    }\n}\n"
        ),
        "src/other.rs": "impl Cli {\n    fn other(&self) -> bool { self.release }\n}\n",
    })  # fmt: skip
    (release,) = dependencies(graph, ["self.release"], node(graph, "Cli::exec"), ())
    assert (release.file_path, release.doc) == ("src/run.rs", "Run in release mode")
    assert dependencies(graph, ["self.release"], node(graph, "Cli::other"), ()) == ()


def test_a_raw_pointer_s_methods_are_never_the_repository_s(tmp_path: Path) -> None:
    # polars' `linearize`: `src.as_ptr().add(i)` went by name to `RowCountAndSize::add`
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "p"\n',
        "src/size.rs": (
            "pub struct Size(u64);\nimpl Size {\n    pub fn add(self, n: u64) -> Size {\n"
            '        assert!(n < 9, "size overflow");\n        Size(self.0 + n)\n    }\n}\n'
        ),
        "src/lib.rs": (
            "pub fn copy(v: &mut [u8], src: *const u8) {\n"
            "    unsafe { v.as_ptr().add(1); }\n"
            "    let p = v.as_mut_ptr();\n"
            "    unsafe { p.add(2); }\n"
            "    unsafe { src.add(3); }\n"
            "    let q = v.as_mut_ptr().add(5);\n"
            "    unsafe { q.add(6); }\n"
            "}\n"
            # lance's `do_prefetch`: pointers made by casts, in a tuple, then copied
            "pub fn prefetch(ptrs: std::ops::Range<*const u8>) {\n"
            "    let (ptr, end) = (ptrs.start as *const i8, ptrs.end as *const i8);\n"
            "    let mut current = ptr;\n"
            "    while current < end {\n"
            "        current = unsafe { current.add(64) };\n"
            "    }\n"
            "    let base = ptrs.start as *const i8;\n"
            "    unsafe { base.add(7); }\n"
            "}\n"
            # a cast over a call of the fn the `let` names: the call is still the fn's
            "pub fn add(n: u64) -> f64 { n as f64 }\n"
            "pub fn total() -> usize {\n    let add = add(3).ceil() as usize;\n    add\n}\n"
            "pub fn grow(total: Size) -> Size {\n    total.add(4)\n}\n"
        ),
    })  # fmt: skip
    callers = {graph.nodes[e.caller].label for e in graph.callers.get(node(graph, "Size::add"), [])}

    assert callers == {"grow"}
    assert [graph.nodes[e.caller].label for e in graph.callers.get(node(graph, "add"), [])] == [
        "total"
    ]


def test_a_boxed_value_cast_to_a_trait_object_runs_its_own_type_s_method(
    tmp_path: Path,
) -> None:
    # lance's `FsstMiniBlockEncoder::compress`: `Box::new(BinaryMiniBlockEncoder::default())
    # as Box<dyn MiniBlockCompressor>`, whose `compress` went by name to the wrong encoders
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "enc"\n',
        "src/lib.rs": (
            "pub trait Compressor {\n    fn compress(&self, n: u8) -> u8;\n}\n"
            "#[derive(Default)]\npub struct Binary;\n#[derive(Default)]\npub struct Fsst;\n"
            "pub struct PerValue;\n"
            "impl Compressor for Binary {\n    fn compress(&self, n: u8) -> u8 {\n"
            '        assert!(n < 9, "too wide");\n        n\n    }\n}\n'
            "impl Compressor for Fsst {\n    fn compress(&self, n: u8) -> u8 {\n"
            "        let inner = Box::new(Binary::default()) as Box<dyn Compressor>;\n"
            "        inner.compress(n)\n    }\n}\n"
            "impl PerValue {\n    pub fn compress(&self, n: u8) -> u8 { n }\n}\n"
        ),
    })  # fmt: skip
    binary, fsst = node(graph, "Binary::compress"), node(graph, "Fsst::compress")
    assert [graph.nodes[e.caller].label for e in graph.callers.get(binary, [])] == [
        "Fsst::compress"
    ]
    assert graph.callers.get(node(graph, "PerValue::compress"), []) == []
    assert graph.callers.get(fsst, []) == []


def test_a_variant_is_read_off_the_enum_its_file_s_use_names(tmp_path: Path) -> None:
    # risingwave's `streaming_job.rs`: `use risingwave_sqlparser::ast::Engine` among three
    # `Engine`s; a crate nested in the caller's crate's directory is its part
    engine = "pub enum Engine {{\n    /// {doc}\n    Iceberg,\n}}\n"
    graph = graph_of(tmp_path, {
        "src/common/Cargo.toml": '[package]\nname = "risingwave_common"\n',
        "src/common/src/lib.rs": engine.format(doc="common's"),
        "src/sqlparser/Cargo.toml": '[package]\nname = "risingwave_sqlparser"\n',
        "src/sqlparser/src/ast.rs": engine.format(doc="the parser's"),
        "src/meta/Cargo.toml": '[package]\nname = "risingwave_meta"\n',
        "src/meta/model/Cargo.toml": '[package]\nname = "risingwave_meta_model"\n',
        "src/meta/model/src/lib.rs": (
            "pub enum Kind {\n    /// the model's\n    Table,\n}\n" + engine.format(doc="the model's")
        ),
        "src/meta/src/job.rs": (
            "use risingwave_sqlparser::ast::Engine;\nuse super::*;\n"
            "fn create(engine: Engine, kind: Kind) -> anyhow::Result<()> {\n"
            '    if engine == Engine::Iceberg && kind == Kind::Table {\n        anyhow::bail!("no");\n    }\n'
            "    Ok(())\n}\n"
        ),
    })  # fmt: skip
    condition = "engine == Engine::Iceberg && kind == Kind::Table"
    found = dependencies(graph, [condition], node(graph, "create"), ())

    docs = {d.name: (d.file_path, d.doc) for d in found if d.kind == "variant"}
    assert docs == {
        "Engine::Iceberg": ("src/sqlparser/src/ast.rs", "the parser's"),
        "Kind::Table": ("src/meta/model/src/lib.rs", "the model's"),
    }


def test_the_method_a_condition_names_is_no_parameter_of_that_name(tmp_path: Path) -> None:
    # atuin's `handle_prune(settings, context, ..)`: "`load(..)` was None/Err (context)"
    # names the `.context(..)` call, not the parameter `context`
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "atuin"\n',
        "src/lib.rs": (
            "fn prune(path: &str, context: Context) -> eyre::Result<()> {\n"
            '    let key = load(path).context("could not load encryption key")?;\n'
            "    Ok(())\n}\n"
        ),
    })  # fmt: skip
    found = dependencies(graph, ["`load(path)` was None/Err (context)"], node(graph, "prune"), ())

    assert [d.name for d in found] == ["path"]


def test_a_variant_built_only_in_a_from_impl_says_what_runs_that_impl() -> None:
    # alacritty's `Error::Toml` is built in `impl From<TomlError> for Error`: every `?` that
    # converts one calls it, so "no caller found" alone misleads.
    sha = "bdb72b32ee" + "0" * 30
    from_hop = Hop(
        "Error::from", "src/config/mod.rs", 103, "fn from(val: TomlError) -> Self",
        call_line=104, implements="From::from", foreign=True,
    )  # fmt: skip
    built = Reach(paths=(CallerPath((from_hop,)),), callers=1, built="Error::Toml")
    assert trigger_sentence(built, sha) == (
        "At commit bdb72b32ee, `Error::Toml` is built in one function, `Error::from` at"
        " src/config/mod.rs:104 (no caller found: it implements `From::from`, which runs where"
        " a value is converted into `Error` (`.into()`, `?` or `Error::from(..)`), and the index"
        " resolves no such conversion (not one whose target type only inference tells))."
    )


def test_a_module_path_is_read_from_the_caller_s_module_before_a_same_named_one() -> None:
    """tauri-cli's `lib.rs` declares `mod build;` and calls `build::command`: the crate's
    `build`, not `mobile::ios::build` (Rust reads an unimported path from the caller's
    module); `mobile/mod.rs`'s own `build::command` is its child's. `crate::` and `super::`
    are read the same way, in a call or a `use`; a path that names no module so still takes
    the longest suffix."""
    graph = _graph_of(
        {
            "src/lib.rs": "mod build;\nmod mobile;\npub fn run() { build::command(); }\n",
            "src/build.rs": "pub fn command() {}\n",
            "src/mobile/mod.rs": (
                "mod build;\nmod ios;\npub fn go() { build::command(); crate::build::command(); }\n"
                "pub fn helper() {}\n"
            ),
            "src/mobile/build.rs": "pub fn command() {}\n",
            "src/mobile/ios/mod.rs": (
                "use super::helper;\npub fn up() { super::build::command(); helper(); }\n"
            ),
            "src/other/mod.rs": "pub fn far() { build::command(); }\npub fn helper() {}\n",
        }
    )

    def callees(label: str) -> list[tuple[str, int, tuple[str, ...]]]:
        return sorted(
            (graph.nodes[callee].path, e.line, tuple(graph.nodes[c].path for c in e.candidates))
            for callee, edges in graph.callers.items()
            for e in edges
            if graph.nodes[e.caller].label == label
        )

    assert callees("run") == [("src/build.rs", 3, ())]
    assert callees("go") == [("src/build.rs", 3, ()), ("src/mobile/build.rs", 3, ())]
    # `use super::helper`: `mobile`'s, not `other`'s
    assert callees("up") == [("src/mobile/build.rs", 2, ()), ("src/mobile/mod.rs", 2, ())]
    # `other` declares no `build`: either may be meant, as before
    assert callees("far") == [
        ("src/build.rs", 1, ("src/mobile/build.rs",)),
        ("src/mobile/build.rs", 1, ("src/build.rs",)),
    ]


def test_an_error_struct_is_reached_where_its_literal_is_built() -> None:
    """ripgrep's `impl Display for InvalidPatternError` and a thiserror `#[error("..")] struct
    LockError`: no variant to name, the fns that write the struct's literal build it."""
    source = (
        "pub struct InvalidPatternError { original: String, valid_up_to: usize }\n"
        "impl std::fmt::Display for InvalidPatternError {\n"
        "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n"
        '        write!(f, "found invalid UTF-8 in pattern at byte offset {}", self.valid_up_to)\n'
        "    }\n"
        "}\n"
        "pub fn pattern_from_os(p: &str) -> Result<&str, InvalidPatternError> {\n"
        "    p.strip_prefix('x')\n"
        "        .ok_or_else(|| InvalidPatternError { original: p.into(), valid_up_to: 0 })\n"
        "}\n"
        "#[derive(thiserror::Error, Debug)]\n"
        '#[error("the lock file {path} is held")]\n'
        "pub struct LockError { path: String }\n"
        "pub fn lock(p: &str) -> Result<(), LockError> { Err(LockError { path: p.into() }) }\n"
        "pub struct Config { name: String }\n"
        "pub fn config() -> Config { Config { name: String::new() } }\n"
    )
    graph = _graph_of({"crates/cli/src/lib.rs": source})
    from pipeline.scan.callerpaths import site_reach

    def built(needle: str) -> tuple[str | None, list[tuple[str, int | None]]]:
        reach = site_reach(graph, "crates/cli/src/lib.rs", line_of_text(source, needle))
        if reach is None:
            return None, []
        return reach.built, [(p.hops[-1].name, p.hops[-1].call_line) for p in reach.paths]

    assert built("found invalid UTF-8") == ("InvalidPatternError", [("pattern_from_os", 9)])
    assert built("the lock file") == ("LockError", [("lock", 14)])
    builds = graph.indexes["crates/cli/src/lib.rs"].builds
    assert [(b.enum, b.variant) for b in builds] == [("InvalidPatternError", ""), ("LockError", "")]


def test_one_crate_s_two_error_structs_of_one_name_are_built_apart() -> None:
    """cargo's `workspace::summary::MissingDependencyError` ("feature .. is not a
    dependency") and `workspace::editor::manifest::MissingDependencyError`: the manifest's
    literal builds the manifest's struct, not the summary's (whose `bail!(..)` literal sits
    in a macro's tokens: it has no builder to show, rather than the other's)."""
    display = (
        "impl std::fmt::Display for MissingDependencyError {\n"
        "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n"
        '        write!(f, "{}", "MESSAGE")\n'
        "    }\n"
        "}\n"
    )
    summary = "pub struct MissingDependencyError { dep: String }\n" + display.replace(
        "MESSAGE", "feature includes a dependency that is not one"
    )
    manifest = (
        "pub struct MissingDependencyError { name: String }\n"
        + display.replace("MESSAGE", "the dependency could not be found")
        + "pub fn remove(n: &str) -> Result<(), MissingDependencyError> {\n"
        "    Err(MissingDependencyError { name: n.into() })\n"
        "}\n"
    )
    files = {"src/lib.rs": "pub mod summary;\npub mod manifest;\n",
             "src/summary.rs": summary, "src/manifest.rs": manifest}  # fmt: skip
    graph = _graph_of(files)
    from pipeline.scan.callerpaths import site_reach

    found = site_reach(graph, "src/manifest.rs", line_of_text(manifest, "could not be found"))
    assert found is not None and found.built == "MissingDependencyError"
    assert [p.hops[-1].name for p in found.paths] == ["remove"]
    assert site_reach(graph, "src/summary.rs", line_of_text(summary, "feature includes")) is None


def test_a_name_two_cfg_gated_uses_bring_in_calls_either() -> None:
    """rustup's `self_update.rs` says `#[cfg(unix)] use unix::{.., do_remove_from_path}` and
    `#[cfg(windows)] use windows::{..}`: the last `use` alone was the call's (windows'), and
    the unix site read "no caller found" (reading 107). Each is a candidate, marked."""
    graph = _graph_of(
        {
            "src/cli/self_update.rs": (
                "#[cfg(unix)]\nmod unix;\n#[cfg(unix)]\nuse unix::{do_add_to_path, do_remove_from_path};\n"
                "#[cfg(windows)]\nmod windows;\n#[cfg(windows)]\n"
                "use windows::{do_add_to_path, do_remove_from_path};\n"
                "pub fn uninstall() -> Result<()> {\n    do_remove_from_path()?;\n    Ok(())\n}\n"
            ),
            "src/cli/self_update/unix.rs": "pub(crate) fn do_remove_from_path() -> Result<()> { Ok(()) }\n",
            "src/cli/self_update/windows.rs": "pub(crate) fn do_remove_from_path() -> Result<()> { Ok(()) }\n",
            "src/other.rs": "pub(crate) fn do_remove_from_path() -> Result<()> { Ok(()) }\n",
        }
    )
    edges = sorted(
        (graph.nodes[callee].path, e.resolution, len(e.candidates))
        for callee, found in graph.callers.items()
        for e in found
        if graph.nodes[e.caller].label == "uninstall"
    )
    assert edges == [
        ("src/cli/self_update/unix.rs", "import", 1),
        ("src/cli/self_update/windows.rs", "import", 1),
    ]


def test_a_receiver_another_crate_s_path_types_runs_none_of_the_repository_s_methods() -> None:
    """vector's `new_with_connector(connector, client_builder: &mut client::Builder)` under
    `use hyper::{client, ..}` calls hyper's `Builder::build`: it had been taken for vector's
    own `topology::builder::Builder::build`, a false "public API" way in (reading 106)."""
    graph = _graph_of(
        {
            "src/lib.rs": "pub mod http;\npub mod topology;\n",
            "src/topology.rs": (
                "pub struct Builder;\nimpl Builder {\n"
                "    pub fn build(&self, x: u8) -> Result<(), String> { Ok(()) }\n}\n"
            ),
            "src/http.rs": (
                "use hyper::{client, Body};\nuse crate::topology::Builder;\n"
                "pub fn with_connector(connector: u8, client_builder: &mut client::Builder) {\n"
                "    client_builder.build(connector);\n}\n"
                "pub fn with_ours(connector: u8, builder: &Builder) {\n"
                "    builder.build(connector);\n}\n"
                # a crate by its manifest's name, not its directory's (risingwave's `risedev`
                # is `src/risedevtool`): the path of a crate alone says nothing
                "use devkit::Builder as DevBuilder;\n"
                "pub fn with_dev(connector: u8, builder: &DevBuilder) {\n"
                "    builder.build(connector);\n}\n"
            ),
        }
    )
    callers = sorted(
        graph.nodes[e.caller].label
        for callee, found in graph.callers.items()
        for e in found
        if graph.nodes[callee].label == "Builder::build"
    )
    assert callers == ["with_dev", "with_ours"]


def test_a_parameter_the_fn_binds_again_is_not_what_its_conditions_depend_on(
    tmp_path: Path,
) -> None:
    """neon's `normalize_key(key: &str)` checks the `key` of `let key = clean_utf8(..)`:
    naming the parameter as if the check read it as passed sent the reader to the wrong
    value (reading 138). The parameter is named as one the fn binds again."""
    source = (
        "pub fn normalize_key(key: &str, strict: bool) -> Result<String, String> {\n"
        "    let key = clean(key);\n"
        '    if strict && key.starts_with("..") {\n'
        '        return Err(format!("invalid key {key}"));\n'
        "    }\n"
        "    Ok(key)\n}\n"
        "pub fn get(path: &str) { normalize_key(path, true).ok(); }\n"
    )
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "s"\n', "src/lib.rs": source})
    (site,) = find_sites("src/lib.rs", source.encode()).sites
    assert site.facts.rebound == ("key",)
    scan = find_sites("src/lib.rs", source.encode())
    contexts = build_contexts("o/s", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    (reach,) = reaches_of([spec_of(c) for c in contexts], graph).values()
    assert [(d.name, d.rebound) for d in reach.dependencies] == [("strict", None), ("key", True)]
    assert "`key` (parameter `key: &str`, which the fn binds again before the check)" in (
        trigger_sentence(reach, "ab" * 20) or ""
    )


API_ERROR = """\
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("Bad request: {0:#?}")]
    BadRequest(anyhow::Error),
    #[error("NotFound: {0}")]
    NotFound(Box<dyn std::error::Error + Send + Sync + 'static>),
    #[error(transparent)]
    InternalServerError(anyhow::Error),
}
impl ApiError {
    pub fn into_response(self) -> Response<Body> {
        match self {
            ApiError::BadRequest(err) => respond(format!("{err:#?}"), StatusCode::BAD_REQUEST),
            ApiError::NotFound(_) => respond(self.to_string(), StatusCode::NOT_FOUND),
            ApiError::InternalServerError(err) => {
                respond(format!("{err:#}"), StatusCode::INTERNAL_SERVER_ERROR)
            }
        }
    }
}
pub fn bad_request(error: &str) -> ApiError {
    respond_with(StatusCode::BAD_REQUEST, error)
}
pub fn get_tenant(id: u32) -> Result<u32, ApiError> {
    if id == 0 {
        return Err(ApiError::NotFound(anyhow::anyhow!("no such tenant {id}").into()));
    }
    if id == 1 {
        return Err(ApiError::InternalServerError(anyhow::anyhow!("tenant is broken")));
    }
    if id == 2 {
        load(id).context("tenant failed to load").map_err(ApiError::BadRequest)?;
    }
    Err(bad_request("tenant id is odd"))
}
"""


def test_the_variant_or_fn_that_makes_an_error_gives_its_http_status(tmp_path: Path) -> None:
    """neon's `ApiError::InternalServerError(anyhow!(..))` had no `httpStatus`, while
    `ApiError::into_response` gives each variant one `StatusCode` (reading 138); crates.io's
    `bad_request(..)` calls `custom(StatusCode::BAD_REQUEST, ..)`. A variant's own text
    (`#[error]`) gets its status too."""
    files = {"Cargo.toml": '[package]\nname = "api"\n', "src/lib.rs": API_ERROR}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", API_ERROR.encode())
    contexts = build_contexts("o/api", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    reaches = reaches_of([spec_of(c) for c in contexts], graph)
    status = {c.site.message: getattr(reaches.get(c.record_id), "http_status", None)
              for c in contexts}  # fmt: skip
    assert status["tenant is broken"] == 500
    # `.context(..).map_err(ApiError::BadRequest)`: the variant maps the site's error
    assert status["tenant failed to load"] == 400
    assert status["tenant id is odd"] == 400
    assert status["Bad request: {0:#?}"] == 400
    assert status["NotFound: {0}"] == 404
    # `.into()` first: the variant is given a converted value, still its own variant
    assert status["no such tenant {id}"] is None


def test_a_refused_request_is_validated_not_retried(tmp_path: Path) -> None:
    """crates.io's `bad_request("too many invites for this request - maximum 10")` read
    "retry" by its class's words (Resource exhausted): the server answers 400, and the same
    request fails again (reading 142). A 429 may be retried."""
    source = API_ERROR.replace('"tenant id is odd"', '"too many invites for this request - max 10"')
    files = {"Cargo.toml": '[package]\nname = "api"\n', "src/lib.rs": source}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", source.encode())
    contexts = build_contexts("o/api", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    reaches = reaches_of([spec_of(c) for c in contexts], graph)
    strategy = {
        c.site.message: explain(replace(c, reach=reaches.get(c.record_id))).handlingStrategy
        for c in contexts
    }
    assert strategy["too many invites for this request - max 10"] == "validation"
    # without the status the code shows, the class's strategy stands
    (alone,) = [c for c in contexts if c.site.message.startswith("too many invites")]
    assert explain(alone).handlingStrategy == "retry"


def test_a_process_command_s_name_is_no_subcommand(tmp_path: Path) -> None:
    """uv's build script runs `Command::new("git")` (std's process), and `ParsedUrl::
    try_from`'s `"git" =>` arm over a URL's scheme had become "subcommand `git`" (reading
    147). A clap builder's names stay subcommands."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "urls"\n',
        "build.rs": (
            "use std::{env, process::Command};\n"
            'fn main() {\n    let _ = Command::new("git").arg("rev-parse").output();\n}\n'
        ),
        "src/lib.rs": (
            "pub fn parse(scheme: &str) -> anyhow::Result<u8> {\n"
            "    match scheme {\n"
            '        "git" => git(),\n'
            '        "hg" => { let _ = std::process::Command::new("hg").status(); Ok(1) }\n'
            "        _ => Ok(0),\n    }\n}\n"
            'fn git() -> anyhow::Result<u8> {\n    anyhow::bail!("no git here")\n}\n'
        ),
        "src/bin/tool.rs": (
            "use clap::Command;\n"
            'fn main() {\n    let m = Command::new("tool").subcommand(Command::new("sync"))'
            ".get_matches();\n}\n"
        ),
    })  # fmt: skip
    (git,) = [i for i, n in enumerate(graph.nodes) if n.label == "git"]

    (path,) = caller_paths(graph, git)

    assert graph.subcommands == {"tool", "sync"}
    assert path.entry_label != "subcommand `git`"
    assert [h.name for h in path.hops] == ["parse", "git"]


def test_a_type_s_turbofish_leaves_the_call_its_type_s() -> None:
    """tikv's `run_impl` starts `let mut tikv = TikvServer::<CER, F>::init(config, tx)` and then
    calls `tikv.init_servers()`: the turbofish's arguments are no part of the type's name, so
    the call is `TikvServer::init`, and `tikv` is what it returns (reading 241: `TikvServer::init`
    had no caller, and the server's records no way in from `main`)."""
    source = (
        "pub struct TikvServer<E, F> { e: E, f: F }\n"
        "impl<E, F> TikvServer<E, F> {\n"
        "    pub fn init(c: u8) -> TikvServer<E, F> { todo!() }\n"
        "    pub fn init_servers(&self) {}\n}\n"
        "pub struct Other;\nimpl Other {\n    pub fn init(c: u8) -> Other { Other }\n"
        "    pub fn init_servers(&self) {}\n}\n"
        "fn run_impl<E, F>(c: u8) {\n"
        "    let tikv = TikvServer::<E, F>::init(c);\n"
        "    tikv.init_servers();\n"
        "}\n"
    )
    graph = _graph_of({"components/server/src/server.rs": source})
    assert [(label, how) for _, label, how in called_by(graph, "run_impl")] == [
        ("TikvServer::init", "type"),
        ("TikvServer::init_servers", "type"),
    ]


def test_a_let_of_a_field_of_a_call_s_value_is_no_longer_the_parameter_it_shadows() -> None:
    """risingwave's `ScalarWrapper::update(&self, state: &mut AggregateState, ..)` starts with
    `let state = &mut state.downcast_mut::<State>().0;` and then calls `state.append(..)`: an
    array builder's, not `append` of the `AggregateState` the parameter was (another crate has
    a struct of that name with an `append`). A field of a call's value is typed as the link
    types that chain, here not at all: no edge rather than a wrong one."""
    source = (
        "pub struct AggregateState;\n"
        "impl AggregateState {\n"
        "    pub fn downcast_mut<T>(&mut self) -> &mut T { todo!() }\n"
        "    pub fn append(&mut self, d: u8) {}\n}\n"
        "pub struct Holder { pub state: AggregateState }\n"
        "impl Holder {\n    pub fn get(&mut self) -> &mut Holder { self }\n}\n"
        "pub fn update(state: &mut AggregateState, holder: &mut Holder) {\n"
        "    let state = &mut state.downcast_mut::<State>().0;\n"
        "    state.append(1);\n"
        "    let inner = &mut holder.get().state;\n"  # a chain the link types: still typed
        "    inner.append(2);\n"
        "}\n"
    )
    graph = _graph_of({"src/expr/core/src/aggregate/scalar_wrapper.rs": source})
    assert [(line, label) for line, label, _ in called_by(graph, "update")] == [
        (line_of_text(source, "let state"), "AggregateState::downcast_mut"),
        (line_of_text(source, "let inner"), "Holder::get"),
        (line_of_text(source, "inner.append"), "AggregateState::append"),
    ]


def test_an_option_field_taken_and_unwrapped_is_the_type_it_holds() -> None:
    """tikv's `Task::process_write`: `let cmd = self.cmd.take().unwrap(); cmd.process_write(..)`
    on a field `cmd: Option<Command>` is `Command::process_write` (reading 241: no caller of
    it was found, for the 22 records under the scheduler's write commands)."""
    source = (
        "pub enum Command { A }\n"
        "impl Command {\n    pub fn process_write(self, s: u8) -> u8 { 1 }\n}\n"
        "pub struct Other;\n"
        "impl Other {\n    pub fn process_write(self, s: u8) -> u8 { 2 }\n}\n"
        "pub struct Task { cmd: Option<Command> }\n"
        "impl Task {\n"
        "    pub fn process_write(mut self, s: u8) -> u8 {\n"
        "        let cmd = self.cmd.take().unwrap();\n"
        "        cmd.process_write(s)\n"
        "    }\n}\n"
    )
    graph = _graph_of({"src/storage/txn/task.rs": source})
    assert called_by(graph, "Task::process_write") == [
        (line_of_text(source, "cmd.process_write"), "Command::process_write", "type")
    ]


def test_a_default_method_s_self_call_reaches_only_impls_that_keep_the_default() -> None:
    """qdrant's default `VectorStorageRead::read_vectors` calls `self.get_vector(..)`; the
    read-only dense storage has a `read_vectors` of its own, so the default's body never
    runs for it, and its `get_vector` is no callee of the default (stop 72's check of 30
    paths: the one wrong edge of its kind)."""
    source = (
        "pub trait Read {\n"
        "    fn get(&self, k: u32) -> u32;\n"
        "    fn read_all(&self, k: u32) -> u32 { self.get(k) }\n"
        "}\n"
        "pub struct Kept;\npub struct Own;\n"
        "impl Read for Kept {\n    fn get(&self, k: u32) -> u32 { k }\n}\n"
        "impl Read for Own {\n"
        "    fn get(&self, k: u32) -> u32 { k }\n"
        "    fn read_all(&self, k: u32) -> u32 { 0 }\n"
        "}\n"
        "pub fn use_any(r: &dyn Read) -> u32 { r.get(1) }\n"
    )
    graph = _graph_of({"lib/segment/src/read.rs": source})
    assert [label for _, label, _ in called_by(graph, "Read::read_all")] == [
        "Kept::get",
        "Read::get",
    ]
    # a call on another value than `self` reaches every impl, as before
    assert [label for _, label, _ in called_by(graph, "use_any")] == [
        "Kept::get",
        "Own::get",
        "Read::get",
    ]


def test_an_actix_route_s_path_is_under_the_scopes_that_register_it() -> None:
    """lemmy's feeds: `cfg.service(web::scope("/feeds").route("/c/{name}.xml",
    web::get().to(get_feed_community)))` read "HTTP GET /c/{name}.xml" (reading 270, 6 F
    of its kind); a scope inside another's `.service(..)` is under both."""
    graph = _graph_of(
        {
            "crates/routes/src/lib.rs": (
                "pub fn config(cfg: &mut web::ServiceConfig) {\n"
                '    cfg.service(web::scope("/feeds").route("/c/{name}.xml", web::get().to(feed)));\n'
                '    cfg.service(scope("/api/v4").service(scope("/site").route("", get().to(site))));\n'
                "}\n"
                "async fn feed() -> u8 { 0 }\n"
                "async fn site() -> u8 { 0 }\n"
            ),
        }
    )
    assert http_entries(graph) == {
        "feed": "HTTP GET /feeds/c/{name}.xml",
        "site": "HTTP GET /api/v4/site",
    }


def test_a_route_s_handler_another_crate_defines_is_the_one_its_file_imports(
    tmp_path: Path,
) -> None:
    """lemmy's `crates/api/routes` registers `get().to(get_image)`, a handler of the crate
    `lemmy_routes` it imports (`use lemmy_routes::images::{download::get_image}`): it read
    "public API `lemmy_routes::images::download::get_image`" (reading 270)."""
    graph = graph_of(
        tmp_path,
        {
            "Cargo.toml": '[workspace]\nmembers = ["crates/api_routes", "crates/routes"]\n',
            "crates/api_routes/Cargo.toml": '[package]\nname = "api_routes"\n',
            "crates/api_routes/src/lib.rs": (
                "use lemmy_routes::images::{download::get_image};\n"
                "pub fn config(cfg: &mut ServiceConfig) {\n"
                '    cfg.service(scope("/api/v4").route("/image/{filename}", get().to(get_image)));\n'
                "}\n"
            ),
            "crates/routes/Cargo.toml": '[package]\nname = "lemmy_routes"\n',
            "crates/routes/src/lib.rs": "pub mod images;\n",
            "crates/routes/src/images/mod.rs": "pub mod download;\n",
            "crates/routes/src/images/download.rs": "pub async fn get_image() -> u8 { 0 }\n",
        },
    )
    assert http_entries(graph) == {"get_image": "HTTP GET /api/v4/image/{filename}"}


def test_a_trait_typed_parameter_in_parentheses_reaches_every_impl(tmp_path: Path) -> None:
    """`command: &(impl PluginCommand + ?Sized)`: the type inside the parentheses (nushell's
    `create_plugin_signature` calls every plugin command's `examples()`, reading 282, where
    the index had found no caller of them)."""
    source = (
        "pub trait Cmd {\n    fn examples(&self) -> Vec<u8>;\n}\n"
        "pub struct A;\npub struct B;\n"
        "impl Cmd for A {\n    fn examples(&self) -> Vec<u8> {\n        vec![1]\n    }\n}\n"
        "impl Cmd for B {\n    fn examples(&self) -> Vec<u8> {\n        vec![2]\n    }\n}\n"
        "pub fn signature(command: &(impl Cmd + ?Sized)) -> usize {\n"
        "    command.examples().len()\n}\n"
        "pub fn boxed(command: &(dyn Cmd + Send)) -> usize {\n    command.examples().len()\n}\n"
        "pub fn pair(both: &(A, B)) -> usize {\n    both.0.examples().len()\n}\n"
    )
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "p"\n', "src/lib.rs": source})
    for impl in ("A::examples", "B::examples"):
        callers = [
            (graph.nodes[e.caller].label, e.resolution) for e in graph.callers[node(graph, impl)]
        ]
        assert ("signature", "trait") in callers
        assert ("boxed", "trait") in callers


def test_of_programs_calling_one_chain_alike_the_site_s_own_package_s_is_the_path(
    tmp_path: Path,
) -> None:
    """nushell's plugins each call `serve_plugin` from their `main`, which runs their
    commands' `examples()`: one path names them all, and it begins at the `main` of the
    package the site is in (a polars command's path began at `nu_plugin_custom_values`,
    reading 282's recheck)."""
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
        "crates/custom/Cargo.toml": '[package]\nname = "custom"\n',
        "crates/custom/src/main.rs": "fn main() {\n    serve::serve();\n}\n",
        "crates/polars/Cargo.toml": '[package]\nname = "polars"\n',
        "crates/polars/src/main.rs": "fn main() {\n    serve::serve();\n}\n",
        "crates/polars/src/lib.rs": 'pub fn examples() -> u8 {\n    panic!("bad example")\n}\n',
        "crates/serve/Cargo.toml": '[package]\nname = "serve"\n',
        "crates/serve/src/lib.rs": "pub fn serve() {\n    polars::examples();\n}\n",
    }
    graph = graph_of(tmp_path, files)
    (path,) = caller_paths(graph, node(graph, "examples"))
    assert [(h.name, h.file_path) for h in path.hops] == [
        ("main", "crates/polars/src/main.rs"),
        ("serve", "crates/serve/src/lib.rs"),
        ("examples", "crates/polars/src/lib.rs"),
    ]
    assert path.entry_label == "`polars` (fn main) or `custom` (fn main)"


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("", 500),  # actix-web's default `status_code`
        ("    fn status_code(&self) -> StatusCode {\n        StatusCode::NOT_FOUND\n    }\n", 404),
        # its own response, whatever status it builds: not said
        ("    fn error_response(&self) -> HttpResponse {\n        respond(self)\n    }\n", None),
        # meilisearch's: the status is the error's own; a status its response tests is none
        (
            "    fn error_response(&self) -> HttpResponse {\n"
            "        if self.code == StatusCode::SERVICE_UNAVAILABLE { retry() }\n"
            "        respond(self)\n    }\n"
            "    fn status_code(&self) -> StatusCode {\n        self.code\n    }\n",
            None,
        ),
    ],
)
def test_an_actix_response_error_is_the_error_s_conversion(
    tmp_path: Path, body: str, status: int | None
) -> None:
    """activitypub's example says `impl ResponseError for Error {}`: its handlers' errors
    reach the client as HTTP 500 (`httpStatus` was null, reading 304)."""
    api = (
        "pub struct Error(anyhow::Error);\n"
        # (by its path, as meilisearch writes it: `impl aweb::error::ResponseError for ..`)
        f"impl aweb::error::ResponseError for Error {{\n{body}}}\n"
        'pub async fn get_user(name: String) -> Result<u8, Error> {\n    Err(anyhow!("Invalid user").into())\n}\n'
    )
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "fed"\n', "src/lib.rs": api})
    assert user_conversion(graph, "Error", "src/lib.rs") == (
        "impl ResponseError for Error (src/lib.rs:2)",
        status,
    )


CASTS = """\
pub trait Cast: Sized {
    fn cast(v: Value) -> Result<Self, Error>;
}
pub struct Value { x: Option<f64> }
pub struct Point { x: f64 }
pub struct Datetime { s: i64 }
impl Value {
    pub fn cast_to<T: Cast>(self) -> Result<T, Error> {
        T::cast(self)
    }
}
impl Cast for Point {
    fn cast(v: Value) -> Result<Self, Error> {
        Ok(Point { x: v.x.expect("value type checked above") })
    }
}
impl Cast for Datetime {
    fn cast(v: Value) -> Result<Self, Error> {
        Ok(Datetime { s: 0 })
    }
}
impl std::ops::Deref for Datetime {
    type Target = i64;
    fn deref(&self) -> &i64 {
        &self.s
    }
}
impl Cast for f64 {
    fn cast(v: Value) -> Result<Self, Error> {
        Ok(0.0)
    }
}
pub fn float(v: Value) -> Result<f64, Error> {
    v.cast_to::<f64>()
}
pub fn info(v: Value) -> Result<Datetime, Error> {
    v.cast_to::<Datetime>()
}
pub fn to_point(v: Value) -> Result<Point, Error> {
    v.cast_to::<Point>()
}
pub fn inferred(v: Value) -> Result<Point, Error> {
    let p: Point = v.cast_to()?;
    Ok(p)
}
pub fn passed_on<U: Cast>(v: Value) -> Result<U, Error> {
    v.cast_to::<U>()
}
pub fn twice(v: Value) -> Result<Datetime, Error> {
    passed_on::<Datetime>(v)
}
"""


def test_a_generic_s_call_runs_the_impl_of_the_type_its_caller_s_turbofish_gives() -> None:
    """surrealdb's `Value::cast_to<T: Cast>` calls `T::cast(self)`, and the record of a
    panic in `impl Cast for Point` named `INFO` (`.cast_to::<Datetime>()`) and `ALTER`
    (`.cast_to::<Duration>()`) as its ways in (reading 313). A caller that writes the type
    in a turbofish runs that type's impl (whatever it derefs to, a primitive's too): one
    that writes another is no way to it; one that
    leaves it to inference keeps the way (unknown), and a turbofish of the caller's own type
    parameter moves the question to its callers."""
    _assert_turbofish_picks_the_impl(CASTS)


def _assert_turbofish_picks_the_impl(source: str) -> None:
    """The ways in to the panic of `impl Cast for Point` in `source` (`CASTS` or a variant):
    the callers whose turbofish names another type are none of them."""
    graph = _graph_of({"src/lib.rs": source})
    reach = site_reach(graph, "src/lib.rs", line_of_text(source, "checked above"))
    assert reach is not None
    tops = sorted(p.hops[0].name for p in reach.paths)
    assert "info" not in tops and "twice" not in tops and "float" not in tops
    assert "to_point" in tops and "inferred" in tops


def test_a_restricted_generic_fn_s_turbofish_picks_the_impl_as_a_public_one_s_does() -> None:
    """influxdb's catalog: `pub(crate) async fn update<Op: CatalogOp>` calls
    `self.update_committed::<Op>(args)`, whose `Op::prepare(..)` runs the impl its callers'
    turbofish names; `register_node` writes `self.update::<RegisterNodeOp>(..)` and had
    reached `DeleteUserOp::prepare` (reading 323): the `pub(` before `fn` hid the generics."""
    source = CASTS.replace("pub fn cast_to<T: Cast>", "pub(crate) async fn cast_to<T: Cast>")
    _assert_turbofish_picks_the_impl(source)


def test_a_call_through_a_standard_module_is_no_fn_of_the_repository() -> None:
    """sqlx-cli's `add` calls `fs::create_dir_all(dir)` under `use std::fs::{self, File}`,
    and its path went on into `sqlx_core::fs::create_dir_all`, a fn of a repository module
    also named `fs`, to a panic that `add` never reaches (stop 77's paths reading). A path
    under `std`, `core` or `alloc` (imported or written out) is the standard library's."""
    files = {
        "src/lib.rs": "pub mod fs;\npub mod cli;\n",
        "src/fs.rs": (
            "pub fn create_dir_all(path: &str) -> Result<(), String> {\n"
            '    panic!("no runtime for {path}")\n'
            "}\n"
        ),
        "src/cli.rs": (
            "use std::fs::{self, File};\n"
            "pub fn add(dir: &str) {\n"
            "    fs::create_dir_all(dir).unwrap();\n"
            "    std::fs::create_dir_all(dir).unwrap();\n"
            "}\n"
            "pub fn ours(dir: &str) {\n"
            "    crate::fs::create_dir_all(dir).unwrap();\n"
            "}\n"
        ),
    }
    assert _paths_to(files, "src/fs.rs", 2) == [["ours", "create_dir_all"]]


def test_of_two_ways_in_of_one_kind_the_one_naming_what_the_site_is_about_comes_first() -> None:
    """risingwave's sink checks (`ClickHouseSink::validate` in `sink/clickhouse.rs`) are
    reached by both the `create_source` and the `create_sink` RPC through one
    `create_streaming_job`; the record led with `create_source`. Of entries of one kind, one
    whose label names a word of the site's impl type (`sink` of `ClickHouseSink`) comes
    before one that does not, whatever comes first otherwise; the modules in a public API's
    label count for nothing (`sink_tools::start` names no sink, `risingwave_meta_node::start`
    no `StreamNode`), however short its path."""
    files = {
        "src/lib.rs": "pub mod ddl;\npub mod sink;\npub mod sink_tools;\n",
        "src/ddl.rs": (
            "pub fn create_source() { create_streaming_job(); }\n"
            "pub fn create_sink() { create_streaming_job(); }\n"
            "fn create_streaming_job() { crate::sink::ClickHouseSink::validate(); }\n"
        ),
        "src/sink_tools.rs": "pub fn start() { crate::sink::ClickHouseSink::validate(); }\n",
        "src/sink.rs": (
            "pub struct ClickHouseSink;\n"
            "impl ClickHouseSink {\n"
            "    pub(crate) fn validate() {\n"
            '        panic!("BYTEA is not supported for ClickHouse sink")\n'
            "    }\n"
            "}\n"
        ),
    }
    tops = [hops[0] for hops in _paths_to(files, "src/sink.rs", 4)]
    assert tops == ["create_sink", "start", "create_source"]


def _paths_to(files: dict[str, str], path: str, line: int) -> list[list[str]]:
    """The hops' names of each path to the site at `path`:`line` of a graph of `files`."""
    reach = site_reach(_graph_of(files), path, line)
    assert reach is not None
    return [[h.name for h in p.hops] for p in reach.paths]


def test_an_if_let_binding_is_unbound_after_its_block() -> None:
    """risingwave's snapshot backfill: `if let Upstream::Buffer(buffer) = &buffer { .. }`
    typed the arm's `buffer` below the block as the variant's payload, and
    `buffer.consumed_epoch()` reached `Buffer::consumed_epoch` "by type", skipping the
    wrapper that calls it (the wrong step of the 30 paths read at stops 82 and 83). After
    the block the arm's binding holds again, whose type the index does not tell: the call is
    matched by name at most, said to be a guess."""
    source = open_fixture_iflet()
    graph = _graph_of({"src/lib.rs": source})
    edges = [
        (graph.nodes[e.callee].label, e.resolution)
        for edges in graph.callers.values()
        for e in edges
        if graph.nodes[e.caller].label == "run"
    ]
    # inside the block the name is the payload, typed; after it, not the payload's
    assert ("Buffer::lag", "type") in edges
    assert ("Buffer::consumed_epoch", "type") not in edges
    assert ("Buffer::consumed_epoch", "name") in edges


def open_fixture_iflet() -> str:
    return """\
pub struct Buffer;
impl Buffer {
    pub fn consumed_epoch(&mut self) -> bool { true }
    pub fn lag(&self) -> u64 { 0 }
}
pub enum Upstream { Empty, Buffer(Buffer) }
impl Upstream {
    pub fn consumed_epoch(&mut self) -> bool {
        match self { Upstream::Empty => false, Upstream::Buffer(buffer) => buffer.consumed_epoch() }
    }
}
pub enum Either<L, R> { Left(L), Right(R) }
pub fn run(buffer: Either<Upstream, u32>) {
    match buffer {
        Either::Left(mut buffer) => {
            if let Upstream::Buffer(buffer) = &buffer {
                buffer.lag();
            }
            buffer.consumed_epoch();
        }
        Either::Right(_) => {}
    }
}
"""
