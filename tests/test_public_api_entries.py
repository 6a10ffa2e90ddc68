"""A library's `pub` fn is an entry point ("public API") only if code outside the crate can
name it. nushell's `nu-parser/src/lib.rs` declares `mod parse_signatures;` and re-exports
only some of what its modules hold (`pub use parser::{parse, ..}`, `pub use
parse_keywords::*`): `parse_signatures::parse_row_condition`, `pub` in a private module and
re-exported by nothing, had been labelled "public API `nu_parser::parse_signatures::
parse_row_condition`" (stop 51's reading). A `pub(crate) mod` is private too; a fn
re-exported by name or through a glob of its module, and any `pub` fn of a `pub mod` stay
public; so does one whose module's declaring file is not indexed. A method of a `pub` type
is public where code outside can hold the type: its module is public or re-exports it, or a
public fn's signature names it, through an alias too (qdrant's `Segment::with_view(f)` hands
`f` a `SegmentReadViewFor`, a `SegmentReadView` of the private `read_view`); not a method of
a `pub` type nothing outside can hold (helix's `Registry::register_hook`, of the private
`registry` module, stop 53's reading), nor of a type the crate declares `pub(crate)` or
private (lemmy's `SendRetryTask::send_retry_loop`, stop 52's reading)."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

from pipeline.languages.rust.visibility import private_modules, public_use_lines

FILES = {
    "Cargo.toml": '[package]\nname = "parser"\n',
    "src/lib.rs": (
        "mod parse_signatures;\n"
        "mod parser;\n"
        "mod keywords;\n"
        "pub mod api;\n"
        "pub(crate) mod util;\n"
        "mod types;\n"
        "mod hidden;\n"
        "pub mod store;\n"
        "mod secret;\n"
        "mod view;\n"
        "pub use parser::{parse,\n    parse_block};\n"
        "pub use keywords::*;\n"
        "pub use types::Engine;\n"
        "pub(crate) use util::helper;\n"
    ),
    "src/parse_signatures.rs": "pub fn parse_row_condition() -> u32 { 1 }\n",
    "src/parser.rs": (  # re-exports from a private module that `lib.rs` does not re-export
        "pub use crate::parse_signatures::parse_row_condition;\n"
        "pub fn parse() -> u32 { 2 }\npub fn parse_block() -> u32 { 3 }\npub fn lex() -> u32 { 4 }\n"
    ),
    "src/keywords.rs": (  # `lib.rs` globs it: its own re-exports are public
        "pub use crate::hidden::deep;\npub fn parse_let() -> u32 { 5 }\n"
        "mod edges;\npub mod shown;\n"
    ),
    # the glob re-exports `keywords`' public submodule, not its private `edges` (vector's
    # `pub use self::runner::*` and `runner`'s private `io::OutputEdge`, reading 106)
    "src/keywords/edges.rs": (
        "pub struct Edge;\nimpl Edge {\n    pub fn spawn(&self) -> u32 { 16 }\n}\n"
        "pub fn wire() -> u32 { 17 }\n"
    ),
    "src/keywords/shown.rs": "pub fn display() -> u32 { 18 }\n",
    # qdrant's `impl ShardReplicaSet` blocks sit in private child modules of the type's, and
    # a `pub` type of a private module reaches outside through public signatures: a method
    # counts as public wherever it is
    "src/store.rs": "mod ops;\npub struct Store;\n",
    "src/store/ops.rs": "impl super::Store {\n    pub fn put(&self) -> u32 { 11 }\n}\n",
    "src/secret.rs": "pub struct Secret;\nimpl Secret {\n    pub fn reveal(&self) -> u32 { 12 }\n}\n",
    "src/hidden.rs": "pub fn deep() -> u32 { 9 }\npub fn shallow() -> u32 { 10 }\n",
    "src/api.rs": (
        "pub mod retry;\npub fn open() -> u32 { 6 }\n"
        "pub fn with_view<T>(f: impl FnOnce(crate::view::ViewFor<'_>) -> T) -> T { todo!() }\n"
    ),
    # held outside only through `with_view`'s signature and the alias it names
    "src/view.rs": (
        "pub struct View;\npub type ViewFor<'a> = &'a View;\n"
        "impl View {\n    pub fn read(&self) -> u32 { 15 }\n}\n"
    ),
    "src/util.rs": "pub fn helper() -> u32 { 7 }\n",
    "src/types.rs": "pub struct Engine;\nimpl Engine {\n    pub fn run(&self) -> u32 { 8 }\n}\n",
    # lemmy's `pub(crate) struct SendRetryTask`: its `pub fn`s are no name outside the crate
    "src/api/retry.rs": (
        "pub(crate) struct Task;\nimpl Task {\n    pub fn retry(&self) -> u32 { 13 }\n}\n"
        "struct Inner;\nimpl Inner {\n    pub fn go(&self) -> u32 { 14 }\n}\n"
    ),
}


def test_a_pub_fn_is_public_api_only_where_the_crate_exports_it(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    public = sorted(
        graph.nodes[n].label for n, (kind, _) in graph.entries.items() if kind == "pub-api"
    )
    assert public == [
        "Engine::run", "Store::put", "View::read", "deep", "display", "open", "parse",
        "parse_block", "parse_let", "with_view",
    ]  # fmt: skip


def test_the_index_keeps_a_file_s_private_modules_and_pub_use_lines() -> None:
    source = FILES["src/lib.rs"].encode()
    assert private_modules(source) == (
        "parse_signatures", "parser", "keywords", "util", "types", "hidden", "secret", "view",
    )  # fmt: skip
    assert public_use_lines(source) == (11, 13, 14)
    # test code is never in the call graph: not a private module of the file's
    assert private_modules(b"#[cfg(test)]\nmod tests {\n}\n#[allow(unused)]\nmod a;\n") == ("a",)


def test_a_declaration_is_read_from_the_line_it_starts_on_as_a_whole() -> None:
    """The declarations are looked for at the lines that start with `pub` or `mod` only:
    the file's first line is one, and a declaration over two lines (`pub(crate)` above its
    `mod`) is one declaration, not a `pub(crate)` one and a private one."""
    source = b"mod first;\npub(crate)\nmod second;\n  mod indented;\npub use first::A;\n"
    assert private_modules(source) == ("first", "second")
    assert public_use_lines(source) == (5,)
    assert public_use_lines(b"pub use a::B;\r\npub use a::C;\r\n") == (1, 2)


def test_a_private_module_s_item_is_named_by_the_path_its_pub_use_gives(tmp_path: Path) -> None:
    """axum-extra's `Resource` is declared in the private `routing::resource` and re-exported
    as `routing::Resource`: "public API `axum_extra::routing::resource::Resource::index`"
    named a path no user can write (reading 108's recheck)."""
    graph = graph_of(tmp_path, FILES)
    labels = {
        graph.nodes[n].label: label
        for n, (kind, label) in graph.entries.items()
        if kind == "pub-api"
    }
    # (no manifest read here: the crate's own name is left out)
    assert labels["Engine::run"] == "public API `Engine::run`"  # `pub use types::Engine;`
    assert labels["Store::put"] == "public API `store::Store::put`"  # its impl in `store::ops`
    assert labels["open"] == "public API `api::open`"  # a public module's: as it is


def test_a_method_whose_impl_sits_in_a_public_module_is_named_by_its_type_s_module(
    tmp_path: Path,
) -> None:
    """qdrant's `impl ShardReplicaSet` in the public `replica_set::snapshots`, which only
    imports the type: "public API `..::replica_set::snapshots::ShardReplicaSet::restore_..`"
    named a path no code can write (reading 137). A type of two modules keeps the impl's."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "store"\n',
        "src/lib.rs": "pub mod replica_set;\npub mod a;\npub mod b;\n",
        "src/replica_set/mod.rs": "pub mod snapshots;\npub struct ShardReplicaSet;\n",
        "src/replica_set/snapshots.rs": (
            "use super::ShardReplicaSet;\n"
            "impl ShardReplicaSet {\n    pub fn restore(&self) -> u32 { 1 }\n}\n"
        ),
        "src/a.rs": "pub struct Twin;\npub mod ops;\n",
        "src/a/ops.rs": "impl super::Twin {\n    pub fn run(&self) -> u32 { 2 }\n}\n",
        "src/b.rs": "pub struct Twin;\n",
    })  # fmt: skip
    labels = {
        graph.nodes[n].label: label
        for n, (kind, label) in graph.entries.items()
        if kind == "pub-api"
    }
    assert labels["ShardReplicaSet::restore"] == (
        "public API `replica_set::ShardReplicaSet::restore`"
    )
    assert labels["Twin::run"] == "public API `a::ops::Twin::run`"


def test_a_glob_re_export_reaches_the_module_it_names_not_one_of_the_same_name(
    tmp_path: Path,
) -> None:
    """hyper's `ffi` says `pub use self::client::*`: its own `client`, not the private
    `proto::h2::client`, whose types had read as public API."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "net"\n',
        "src/lib.rs": "mod proto;\npub mod ffi;\n",
        "src/proto/mod.rs": "pub mod client;\n",
        "src/proto/client.rs": "pub fn handshake() {}\n",
        "src/ffi/mod.rs": "mod client;\npub use self::client::*;\n",
        "src/ffi/client.rs": "pub fn clientconn_handshake() {}\n",
    })  # fmt: skip
    public = sorted(
        graph.nodes[n].label for n, (kind, _) in graph.entries.items() if kind == "pub-api"
    )
    assert public == ["clientconn_handshake"]


def test_an_item_of_a_private_module_a_glob_re_exports_is_named_by_the_glob_s_module(
    tmp_path: Path,
) -> None:
    """risingwave's `iterator` says `mod backward_user; pub use backward_user::*;`: code
    outside writes `iterator::BackwardUserIterator`, not the private module's path (stop 59's
    reading of 30 paths found three such labels, two of them yazi's `fs::file::File`)."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "store"\n',
        "src/lib.rs": "pub mod iterator;\n",
        "src/iterator/mod.rs": "mod backward_user;\npub use backward_user::*;\n",
        "src/iterator/backward_user.rs": (
            "pub struct BackwardUserIterator;\n"
            "impl BackwardUserIterator {\n    pub fn seek(&self) {}\n}\n"
        ),
    })  # fmt: skip
    labels = sorted(label for kind, label in graph.entries.values() if kind == "pub-api")
    assert labels == ["public API `iterator::BackwardUserIterator::seek`"]


def test_a_glob_that_brings_in_two_items_of_a_name_names_neither(tmp_path: Path) -> None:
    """polars' `prelude` globs csv's and ipc's modules, each with a `BatchedWriter`: Rust
    lets neither be named `prelude::BatchedWriter` (here `all::`, a name that sorts before
    the others), so each keeps its own module's path."""
    writer = "pub struct BatchedWriter;\nimpl BatchedWriter {\n    pub fn {f}(&self) {}\n}\n"
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "io"\n',
        "src/lib.rs": "pub mod csv;\npub mod ipc;\npub mod all;\n",
        "src/all.rs": "pub use crate::csv::*;\npub use crate::ipc::*;\n",
        "src/csv/mod.rs": "mod write;\npub use write::*;\n",
        "src/csv/write.rs": writer.replace("{f}", "write_csv"),
        "src/ipc/mod.rs": "mod write;\npub use write::*;\n",
        "src/ipc/write.rs": writer.replace("{f}", "write_ipc"),
    })  # fmt: skip
    labels = sorted(label for kind, label in graph.entries.values() if kind == "pub-api")
    assert labels == [
        "public API `csv::BatchedWriter::write_csv`",
        "public API `ipc::BatchedWriter::write_ipc`",
    ]


def test_a_private_module_re_exported_whole_by_name_is_public_under_that_name(
    tmp_path: Path,
) -> None:
    """tantivy's root says `mod core;` and `pub use crate::core::json_utils;`: the `pub` fns of
    `json_utils` are its API, named `json_utils::..` (its `append_to_json_term` read "only code
    in its own crate calls", reading 301's recheck). A renamed re-export of a module, and an
    item re-exported by name, are as before: the module's other items stay hidden."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "search"\n',
        "src/lib.rs": (
            "mod core;\nmod other;\npub use crate::core::json_utils;\n"
            "pub use crate::other::shown;\n"
        ),
        "src/core/mod.rs": "pub mod json_utils;\npub mod hidden;\n",
        "src/core/json_utils.rs": "pub fn append_to_json_term() {}\n",
        "src/core/hidden.rs": "pub fn inner() {}\n",
        "src/other.rs": "pub fn shown() {}\npub fn unshown() {}\n",
    })  # fmt: skip
    labels = sorted(label for kind, label in graph.entries.values() if kind == "pub-api")
    assert labels == ["public API `json_utils::append_to_json_term`", "public API `shown`"]


def test_a_re_export_in_a_public_inline_module_names_the_item_there(tmp_path: Path) -> None:
    """rust-prometheus' root says `mod desc;` and `pub mod core { pub use
    super::desc::{Desc, Describer}; }`: `Desc::new` is `prometheus::core::Desc::new`, public
    API (it read "only code in its own crate calls `Desc::new`", reading 303). What no such
    `pub use` names stays hidden."""
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "prom"\n',
        "src/lib.rs": (
            "mod desc;\nmod hidden;\n"
            "pub mod core {\n    pub use super::desc::{Desc, Describer};\n}\n"
        ),
        "src/desc.rs": (
            "pub struct Desc;\nimpl Desc {\n    pub fn new(name: &str) -> Desc {\n"
            '        assert!(!name.is_empty(), "bad");\n        Desc\n    }\n}\n'
        ),
        "src/hidden.rs": "pub struct Inner;\nimpl Inner {\n    pub fn make() {}\n}\n",
    })  # fmt: skip
    labels = sorted(label for kind, label in graph.entries.values() if kind == "pub-api")
    assert labels == ["public API `core::Desc::new`"]


def test_a_type_of_another_crate_a_signature_names_leaks_no_hidden_type_of_its_name(
    tmp_path: Path,
) -> None:
    """risingwave's frontend handlers take a `Query` of `risingwave_sqlparser::ast`; the
    scheduler's `Query`, in the private `scheduler`, had read as held outside by that
    signature, and with it the types its methods name, to `SourceScanInfo::complete` as
    "public API" (stop 82's check of 30 paths: not fair). A signature whose file imports
    the scheduler's own `Query` (a path of the crate's own, or of a child module) and
    returns one still leaks it."""
    files = {
        "Cargo.toml": '[package]\nname = "frontend"\n',
        "src/lib.rs": "mod scheduler;\npub mod handler;\n",
        "src/scheduler.rs": (
            "pub struct Query;\npub struct Stage;\n"
            "impl Query {\n    pub fn stage(&self) -> Stage { Stage }\n}\n"
            "impl Stage {\n    pub fn complete(self) -> u32 { 1 }\n}\n"
        ),
        "src/handler.rs": (
            "use sqlparser::ast::Query;\npub fn handle_query(query: Query) -> u32 { 2 }\n"
        ),
    }

    def public_of(files: dict[str, str], where: Path) -> list[str]:
        graph = graph_of(where, files)
        return sorted(
            graph.nodes[n].label for n, (kind, _) in graph.entries.items() if kind == "pub-api"
        )

    assert public_of(files, tmp_path / "foreign") == ["handle_query"]
    own = {
        **files,
        "src/handler.rs": files["src/handler.rs"].replace("sqlparser::ast", "crate::scheduler")
        + "pub fn plan() -> Query { Query }\n",
    }
    assert public_of(own, tmp_path / "own") == [
        "Query::stage",
        "Stage::complete",
        "handle_query",
        "plan",
    ]


def test_a_hidden_type_is_held_outside_only_where_code_outside_is_given_one(
    tmp_path: Path,
) -> None:
    """A public fn that takes a hidden type gives code outside none: risingwave's `pub fn
    distribute_execute(.., query: Query, ..)` takes the private `scheduler`'s own `Query`,
    which had made `Query::stage`, the `QueryStage` it returns and `SourceScanInfo::complete`
    "public API" (stops 82 and 83's checks of 30 paths). What does give one: a return type,
    what a callback it takes is given, a `pub` field of a type held outside (meilisearch's
    `SearchContext::word_interner: DedupInterner<String>`, whose `freeze()` returns a
    `FixedSizeInterner`)."""
    scheduler = (
        "pub struct Query;\npub struct Stage;\npub struct Given;\npub struct Field;\n"
        "pub struct Frozen;\n"
        "impl Query {\n    pub fn stage(&self) -> Stage { Stage }\n}\n"
        "impl Given {\n    pub fn look(&self) {}\n}\n"
        "impl Field {\n    pub fn freeze(self) -> Frozen { Frozen }\n}\n"
        "impl Frozen {\n    pub fn len(&self) -> u32 { 0 }\n}\n"
    )
    handler = (
        "use crate::scheduler::{Field, Given, Query};\n"
        "pub fn distribute_execute(query: Query, parallelism: u32) -> u32 { parallelism }\n"
        "pub fn visit(f: impl Fn(&Given) -> u32) -> u32 { 0 }\n"
        "pub struct Context {\n    pub interner: Field,\n    hidden: Query,\n}\n"
    )
    graph = graph_of(tmp_path, {
        "Cargo.toml": '[package]\nname = "frontend"\n',
        "src/lib.rs": "mod scheduler;\npub mod handler;\n",
        "src/scheduler.rs": scheduler,
        "src/handler.rs": handler,
    })  # fmt: skip
    public = sorted(
        graph.nodes[n].label for n, (kind, _) in graph.entries.items() if kind == "pub-api"
    )
    assert public == ["Field::freeze", "Frozen::len", "Given::look", "distribute_execute", "visit"]
