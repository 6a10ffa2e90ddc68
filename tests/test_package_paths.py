"""Caller paths are chains a build can make: a package calls into what it depends on, and
a trait's dispatch into another package's impl needs a caller above that can name it."""

from __future__ import annotations

import pytest

from pipeline.languages import repository_modules
from pipeline.languages.rust.cargo_deps import package_dependencies
from pipeline.languages.rust.index import index_file
from pipeline.scan.callerpaths import caller_paths
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypoints import build_graph

# sqlx's shape: a core with a trait whose default method calls `Self::decode_with`, two
# drivers implementing it, a facade over both, and a program of each kind.
WORKSPACE = {
    "Cargo.toml": (
        '[workspace]\nmembers = ["core", "mysql", "postgres", "facade", "tool", "pgtool"]\n'
        '[workspace.dependencies]\nkore = { path = "core", package = "db-core" }\n'
    ),
    "core/Cargo.toml": '[package]\nname = "db-core"\n',
    "core/src/lib.rs": (
        "pub trait Decode: Sized {\n"
        "    fn decode_with(buf: &[u8]) -> Result<Self, String>;\n"
        "    fn decode(buf: &[u8]) -> Result<Self, String> { Self::decode_with(buf) }\n"
        "}\n"
    ),
    "mysql/Cargo.toml": (
        '[package]\nname = "db-mysql"\n[dependencies]\nkore = { workspace = true }\n'
        '[dev-dependencies]\ndb = { path = "../facade", package = "db-facade" }\n'
    ),
    "mysql/src/lib.rs": (
        "use kore::Decode;\n"
        "pub struct OkPacket;\n"
        "impl Decode for OkPacket {\n"
        "    fn decode_with(buf: &[u8]) -> Result<Self, String> {\n"
        '        if buf.is_empty() { return Err("empty OK packet".into()); }\n'
        "        Ok(OkPacket)\n"
        "    }\n"
        "}\n"
        "pub fn read_ok(buf: &[u8]) { OkPacket::decode(buf).unwrap(); }\n"
    ),
    "postgres/Cargo.toml": '[package]\nname = "db-postgres"\n[dependencies]\nkore = { workspace = true }\n',
    "postgres/src/lib.rs": (
        "use kore::Decode;\n"
        "pub struct Notice;\n"
        "impl Decode for Notice {\n"
        "    fn decode_with(_buf: &[u8]) -> Result<Self, String> { Ok(Notice) }\n"
        "}\n"
        "pub fn read_notice(buf: &[u8]) { Notice::decode(buf).unwrap(); }\n"
    ),
    "facade/Cargo.toml": (
        '[package]\nname = "db-facade"\n'
        '[target.\'cfg(unix)\'.dependencies]\nmy = { path = "../mysql", package = "db-mysql" }\n'
        'pg = { path = "../postgres", package = "db-postgres" }\n'
    ),
    "facade/src/lib.rs": "pub use my::read_ok;\npub use pg::read_notice;\n",
    "tool/Cargo.toml": '[package]\nname = "tool"\n[dependencies]\ndb-facade = { path = "../facade" }\n',
    "tool/src/main.rs": 'fn main() { Decode::decode(b""); }\n',
    "pgtool/Cargo.toml": '[package]\nname = "pgtool"\n[dependencies]\ndb-postgres = { path = "../postgres" }\n',
    "pgtool/src/main.rs": 'fn main() { Decode::decode(b""); }\n',
}


def graph_of(files: dict[str, str]) -> CallGraph:
    sources = {p: t for p, t in files.items() if p.endswith(".rs")}
    manifests = {p: t.encode() for p, t in files.items() if p.endswith("Cargo.toml")}
    return build_graph(
        {p: index_file(p, t.encode()) for p, t in sources.items()},
        modules=repository_modules(manifests, list(sources)),
    )


def paths_to(graph: CallGraph, label: str, path: str) -> list[tuple[str | None, list[str]]]:
    (target,) = [i for i, n in enumerate(graph.nodes) if n.label == label and n.path == path]
    return [(p.entry_label, [h.name for h in p.hops]) for p in caller_paths(graph, target)]


def test_a_dispatch_into_a_package_is_reached_only_from_callers_that_can_name_it() -> None:
    graph = graph_of(WORKSPACE)
    # the default method may be any impl's; above it, only MySQL's own package and the
    # programs over the facade can hold a MySQL type: not postgres's `read_notice`, not
    # `pgtool`, whose package sees postgres alone
    assert paths_to(graph, "OkPacket::decode_with", "mysql/src/lib.rs") == [
        ("`tool` (fn main)", ["main", "Decode::decode", "OkPacket::decode_with"]),
        ("public API `db_mysql::read_ok`", ["read_ok", "Decode::decode", "OkPacket::decode_with"]),
    ]
    assert paths_to(graph, "Notice::decode_with", "postgres/src/lib.rs") == [
        ("`pgtool` (fn main) or `tool` (fn main)", ["main", "Decode::decode", "Notice::decode_with"]),
        ("public API `db_postgres::read_notice`",
         ["read_notice", "Decode::decode", "Notice::decode_with"]),
    ]  # fmt: skip


def test_a_dyn_value_made_elsewhere_is_no_static_dispatch_and_holds_nothing() -> None:
    # risingwave's batch executors call the frontend's catalog reader through an
    # `Arc<dyn SysCatalogReader>`: the frontend made it, the executors do not depend on it
    files = {
        **WORKSPACE,
        "core/src/lib.rs": WORKSPACE["core/src/lib.rs"]
        + "pub trait Reader { fn read_table(&self); }\n"
        + "pub fn scan(reader: &dyn Reader) { reader.read_table(); }\n",
        "mysql/src/lib.rs": WORKSPACE["mysql/src/lib.rs"]
        + "pub struct Catalog;\n"
        + 'impl kore::Reader for Catalog { fn read_table(&self) { panic!("no table") } }\n',
        "postgres/src/lib.rs": "use kore::scan;\n"
        + WORKSPACE["postgres/src/lib.rs"]
        + "pub fn list(reader: &dyn kore::Reader) { scan(reader); }\n",
    }
    found = paths_to(graph_of(files), "Catalog::read_table", "mysql/src/lib.rs")
    # postgres does not see MySQL, nor does MySQL depend on it: held, this chain would go
    assert found == [("public API `db_postgres::list`", ["list", "scan", "Catalog::read_table"])]


def test_without_manifests_nothing_is_refused() -> None:
    sources = {p: t for p, t in WORKSPACE.items() if p.endswith(".rs")}
    graph = build_graph({p: index_file(p, t.encode()) for p, t in sources.items()})
    entries = [label for label, _ in paths_to(graph, "OkPacket::decode_with", "mysql/src/lib.rs")]
    assert entries == [
        "`pgtool` (fn main) or `tool` (fn main)",
        "public API `mysql::read_ok`",
        "public API `postgres::read_notice`",
    ]


def test_a_call_into_a_package_neither_side_depends_on_is_no_edge_of_a_path() -> None:
    # nushell's nu-glob calls std's `Path::as_os_str`; nu-path, which it does not depend
    # on, defines a `Path` too
    files = {
        **WORKSPACE,
        "postgres/src/lib.rs": WORKSPACE["postgres/src/lib.rs"]
        + "use std::path::Path;\npub fn show(p: &Path) { p.as_os_str(); }\n",
        "mysql/src/lib.rs": WORKSPACE["mysql/src/lib.rs"]
        + "pub struct Path;\n"
        + 'impl Path { pub fn as_os_str(&self) -> u8 { panic!("no OS string") } }\n',
    }
    unchecked = build_graph(
        {p: index_file(p, t.encode()) for p, t in files.items() if p.endswith(".rs")}
    )
    assert [p for p, _ in paths_to(unchecked, "Path::as_os_str", "mysql/src/lib.rs")] == [
        "public API `postgres::show`"
    ]
    assert paths_to(graph_of(files), "Path::as_os_str", "mysql/src/lib.rs") == []


def test_a_trait_s_impl_is_reached_only_from_code_that_links_the_trait() -> None:
    """risingwave's `ComputeClient::execute` calls tonic's `self.task_client.execute(req)`;
    risedev, a package it does not depend on, declares a `Task` trait with an `execute`,
    whose impls the call was taken for (reading 320). A call can reach another package's
    impl through a trait only where its own package links the trait's: a `dyn` value made
    elsewhere (`core`'s `Decode`), not a trait it cannot name."""
    files = {
        **WORKSPACE,
        "Cargo.toml": WORKSPACE["Cargo.toml"].replace('"pgtool"]', '"pgtool", "devtool"]'),
        "devtool/Cargo.toml": '[package]\nname = "devtool"\n',
        "devtool/src/lib.rs": (
            "pub trait Task { fn execute(&mut self) -> Result<(), String>; }\n"
            "pub struct Meta;\n"
            "impl Task for Meta {\n"
            '    fn execute(&mut self) -> Result<(), String> { Err("no meta backend".into()) }\n'
            "}\n"
            "pub fn run(task: &mut dyn Task) { task.execute().unwrap(); }\n"
        ),
        "postgres/src/lib.rs": WORKSPACE["postgres/src/lib.rs"]
        + "pub struct Client { inner: grpc::TaskClient }\n"
        + "impl Client { pub fn fetch(&self) { self.inner.clone().execute(1); } }\n",
    }
    found = paths_to(graph_of(files), "Meta::execute", "devtool/src/lib.rs")
    assert found == [("public API `devtool::run`", ["run", "Meta::execute"])]
    unchecked = build_graph(
        {p: index_file(p, t.encode()) for p, t in files.items() if p.endswith(".rs")}
    )
    assert "public API `postgres::Client::fetch`" in [
        label for label, _ in paths_to(unchecked, "Meta::execute", "devtool/src/lib.rs")
    ]


def test_package_views_renames_workspace_entries_and_path_dependencies_held_elsewhere() -> None:
    manifests = {p: t.encode() for p, t in WORKSPACE.items() if p.endswith("Cargo.toml")}
    manifests["gen/Cargo.toml"] = (
        b'[package]\nname = "gen"\n[dependencies]\nedge = { path = "../generated" }\n'
    )
    deps = package_dependencies(manifests)
    assert deps.package_of("mysql/src/lib.rs") == "db-mysql"
    assert deps.package_of("facade/src/lib.rs") == "db-facade"
    assert deps.package_of("README.md") is None  # the root manifest declares no package
    assert deps.reachable("db-mysql") == {"db-mysql", "db-core"}  # `kore`, inherited, renamed
    # its tests and examples also see the dev-dependency, and all it depends on
    assert deps.reachable("db-mysql", "dev") == {
        "db-mysql", "db-core", "db-facade", "db-postgres",
    }  # fmt: skip
    assert deps.reachable("db-facade") == {"db-facade", "db-mysql", "db-postgres", "db-core"}
    assert deps.reachable("tool") == {"tool", "db-facade", "db-mysql", "db-postgres", "db-core"}
    assert deps.reachable("pgtool") == {"pgtool", "db-postgres", "db-core"}
    # `generated` is not in the repository: it may re-export any package
    assert deps.reachable("gen") == {
        "gen", "db-core", "db-mysql", "db-postgres", "db-facade", "tool", "pgtool",
    }  # fmt: skip


@pytest.mark.parametrize(
    "manifest",
    [
        b"[package\n",
        b'[package]\nname = "x"\ndependencies = 3\n',
        b"\xff\xfe",
        b"a = " + b"[" * 5000,
    ],
)
def test_a_manifest_that_does_not_parse_declares_nothing(manifest: bytes) -> None:
    deps = package_dependencies(
        {"x/Cargo.toml": manifest, "y/Cargo.toml": b'[package]\nname = "y"\n'}
    )
    assert deps.package_of("x/src/lib.rs") in (None, "x")
    assert deps.reachable("y") == {"y"}


def test_an_enum_named_like_a_clap_one_is_a_subcommand_only_where_the_clap_one_is_seen() -> None:
    # sqlx-cli's clap `Command` and sqlx-sqlite's worker `Command`: `Command::Describe` in
    # the worker is a message on a channel, no `describe` a user types
    files = {
        **WORKSPACE,
        "tool/src/main.rs": (
            "#[derive(Parser)]\nenum Command { Describe }\n"
            "fn main() { match Command::parse() { Command::Describe => db_core::describe() } }\n"
        ),
        "core/src/lib.rs": WORKSPACE["core/src/lib.rs"]
        + "enum Command { Describe }\n"
        + "pub fn describe() {}\n"
        + "fn worker(cmd: Command) { match cmd { Command::Describe => prepare() } }\n"
        + 'fn prepare() { panic!("query string too large") }\n',
    }
    assert paths_to(graph_of(files), "prepare", "core/src/lib.rs") == [
        (None, ["worker", "prepare"])
    ]
    unchecked = build_graph(
        {p: index_file(p, t.encode()) for p, t in files.items() if p.endswith(".rs")}
    )
    assert [label for label, _ in paths_to(unchecked, "prepare", "core/src/lib.rs")] == [
        "subcommand `describe` (`Command::Describe`)"
    ]


EXECUTOR = """\
pub trait Executor {
    fn fetch_many(&mut self);
    fn execute_many(&mut self) { self.fetch_many() }
    fn execute(&mut self) { self.execute_many() }
}
pub struct MySqlConnection;
impl Executor for MySqlConnection {
    fn fetch_many(&mut self) { panic!("mysql packet") }
}
pub struct PgConnection;
impl Executor for PgConnection {
    fn fetch_many(&mut self) {}
}
pub fn on_postgres(conn: &mut PgConnection) { conn.execute(); }
pub fn on_mysql(conn: &mut MySqlConnection) { conn.execute(); }
pub fn on_any(conn: &mut dyn Executor) { conn.execute(); }
impl PgConnection { pub fn connect(url: &str) -> Result<Self, String> { Ok(PgConnection) } }
pub fn on_local() -> Result<(), String> {
    let mut conn = PgConnection::connect("pg://")?;
    conn.execute();
    Ok(())
}
pub struct Pool;
impl Pool {
    fn checkout(&self) -> PgConnection { PgConnection }
    pub fn run(&self) {
        let mut conn = self.checkout();
        conn.execute();
    }
}
pub trait Rewriter {
    fn rewrite_ref(&mut self);
    fn rewrite(&mut self) { default_rewrite(self) }
}
pub fn default_rewrite<R: Rewriter + ?Sized>(rewriter: &mut R) { rewriter.rewrite_ref(); }
pub struct Substitute;
impl Rewriter for Substitute {
    fn rewrite_ref(&mut self) { panic!("type mismatch") }
}
pub struct Params;
impl Rewriter for Params {
    fn rewrite_ref(&mut self) {}
    fn rewrite(&mut self) { default_rewrite(self) }
}
pub fn substitute(s: &mut Substitute) { s.rewrite(); }
"""


def test_a_provided_method_s_self_and_a_generic_parameter_are_the_impl_the_chain_runs() -> None:
    graph = build_graph({"src/lib.rs": index_file("src/lib.rs", EXECUTOR.encode())})
    # `Self` is the impl's type: a PostgreSQL connection never runs MySQL's `fetch_many`
    # (a parameter's, a `let` of `PgConnection::connect`'s `Self`, or of an own method's
    # value, `self.checkout()`); a `dyn Executor` may be either
    assert [label for label, _ in paths_to(graph, "MySqlConnection::fetch_many", "src/lib.rs")] == [
        "public API `on_mysql`", "public API `on_any`",
    ]  # fmt: skip
    # `default_rewrite(self)` from `Params::rewrite` passes a `Params`: no way to `Substitute`
    assert paths_to(graph, "Substitute::rewrite_ref", "src/lib.rs") == [
        ("public API `substitute`", ["substitute", "Rewriter::rewrite", "default_rewrite",
                                      "Substitute::rewrite_ref"]),
    ]  # fmt: skip


def test_a_provided_method_is_walked_again_for_another_self() -> None:
    # quickwit's query AST: `build_tantivy_ast_call` runs `QueryAst`'s impl, whose arm calls
    # it again on a `RangeQuery`; the way to the range's error passes that method twice
    source = (
        "pub trait BuildAst {\n"
        "    fn build_impl(&self) -> u8;\n"
        "    fn build_call(&self) -> u8 { self.build_impl() }\n"
        "}\n"
        "pub enum QueryAst { Range(RangeQuery) }\n"
        "impl BuildAst for QueryAst {\n"
        "    fn build_impl(&self) -> u8 { match self { QueryAst::Range(range) => range.build_call() } }\n"
        "}\n"
        "pub struct RangeQuery;\n"
        "impl BuildAst for RangeQuery {\n"
        '    fn build_impl(&self) -> u8 { panic!("bad bound") }\n'
        "}\n"
        "pub fn build_query(ast: &QueryAst) -> u8 { ast.build_call() }\n"
    )
    graph = build_graph({"src/lib.rs": index_file("src/lib.rs", source.encode())})
    assert paths_to(graph, "RangeQuery::build_impl", "src/lib.rs") == [
        ("public API `build_query`", ["build_query", "BuildAst::build_call",
                                       "QueryAst::build_impl", "BuildAst::build_call",
                                       "RangeQuery::build_impl"]),
    ]  # fmt: skip


def test_a_public_api_in_an_inline_module_is_named_with_it() -> None:
    # lance-datagen's `generator.rs` holds `pub mod array { pub fn step_custom .. }`: its
    # path is `lance_datagen::generator::array::step_custom` (reading 232); a method of a
    # type declared outside that module is named by the type's (risingwave's `mod private
    # { impl ScalarImpl { .. } }`)
    graph = graph_of(
        {
            "Cargo.toml": '[package]\nname = "datagen"\n',
            "src/lib.rs": "pub mod generator;\n",
            "src/generator.rs": (
                "pub struct Gen;\n"
                "pub mod array {\n"
                "    pub fn step_custom() -> u32 {\n        super::width()\n    }\n"
                "}\n"
                "mod private {\n"
                "    impl super::Gen {\n"
                "        pub fn as_width(&self) -> u32 {\n            super::width()\n        }\n"
                "    }\n"
                "}\n"
                "fn width() -> u32 {\n"
                '    None.expect("Primitive types should have a fixed width")\n'
                "}\n"
            ),
        }
    )

    (target,) = [i for i, n in enumerate(graph.nodes) if n.label == "width"]
    labels = sorted(p.entry_label or "" for p in caller_paths(graph, target))

    assert labels == [
        "public API `datagen::generator::Gen::as_width`",
        "public API `datagen::generator::array::step_custom`",
    ]
