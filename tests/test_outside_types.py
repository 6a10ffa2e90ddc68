"""A receiver whose type the repository never defines (what a fn of ours returns from
another crate, `tokio_postgres::Client`; a std type; a bare type parameter) has no inherent
method of the repository's: a call on it goes to no same-named method of another type, nor
to a trait's impl for another type (risingwave's `client.prepare(..)` on a Postgres client
went by name to `StarrocksTxnClient::prepare`, one of this stop's sampled paths; cargo's
`checkout.dry_run()` on a git2 `CheckoutBuilder` to `ArgMatchesExt::dry_run`), only to a
trait the repository implements for it or for any type (a blanket impl). A value that holds another (`Arc::new(state)`), or `Self`,
is not such a type: its calls keep the name rules. And a type with methods of the name is
that type, whatever a same-named alias elsewhere says (cargo's `enum Exec` and `type Exec =
fn(..)`: `Exec::infer(cmd)` is the enum's)."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

SOURCE = """\
use std::sync::Arc;
pub struct StarrocksTxnClient;
impl StarrocksTxnClient {
    pub fn prepare(&self, sql: &str) -> u32 { 1 }
}
pub trait ClientExt {
    fn ping(&self) -> u32;
}
impl ClientExt for tokio_postgres::Client {
    fn ping(&self) -> u32 { 2 }
}
pub trait ArgMatchesExt {
    fn dry_run(&self) -> bool;
}
impl ArgMatchesExt for clap::ArgMatches {
    fn dry_run(&self) -> bool { false }
}
pub trait Pingable {
    fn pong(&self) -> u32;
}
impl<T: Send> Pingable for T {
    fn pong(&self) -> u32 { 0 }
}
pub fn create_pg_client() -> anyhow::Result<tokio_postgres::Client> { todo!() }
pub fn query() -> anyhow::Result<u32> {
    let client = create_pg_client()?;
    client.prepare("select 1");
    client.dry_run();
    Ok(client.ping() + client.pong())
}
pub struct State;
impl State {
    pub fn fetch(&self) -> u32 { 3 }
}
pub struct Resolver { state: State }
impl Resolver {
    pub fn resolve(self) -> u32 {
        let state = Arc::new(self.state);
        state.clone().fetch()
    }
    pub fn listen(transport: Arc<Self>) -> u32 {
        transport.process()
    }
    pub fn process(&self) -> u32 { 4 }
}
pub mod commands {
    pub type Exec = fn(u32) -> u32;
}
pub enum Exec { Builtin }
impl Exec {
    pub fn infer(cmd: &str) -> anyhow::Result<Self> { Ok(Exec::Builtin) }
    pub fn exec(self) -> u32 { 5 }
}
pub struct Filesystem;
impl Filesystem {
    pub fn as_path_unlocked(&self) -> u32 { 6 }
    pub fn into_path_unlocked(self) -> std::path::PathBuf { todo!() }
}
pub fn layout(ws: Workspace) -> u32 {
    let build_root = ws.build_dir();
    let n = build_root.as_path_unlocked();
    let build_root = build_root.into_path_unlocked();
    n
}
pub struct Catalog;
impl Catalog {
    pub fn get_id_by_class_name(&self, name: &str) -> u32 { 7 }
}
pub type CatalogReadGuard = parking_lot::ArcRwLockReadGuard<parking_lot::RawRwLock, Catalog>;
pub struct CatalogReader;
impl CatalogReader {
    pub fn read_guard(&self) -> CatalogReadGuard { todo!() }
}
pub fn resolve(catalog: &CatalogReader) -> u32 {
    catalog.read_guard().get_id_by_class_name("t")
}
pub fn main_loop() -> anyhow::Result<u32> {
    let exec = Exec::infer("build")?;
    Ok(exec.exec())
}
"""


def test_a_call_on_an_outside_type_reaches_only_a_trait_implemented_for_it(
    tmp_path: Path,
) -> None:
    edges = calls_in(tmp_path, SOURCE)
    assert [e for e in edges if e[0] == "query"] == [
        ("query", 26, "create_pg_client", "local"),
        ("query", 29, "Client::ping", "type"),  # `impl ClientExt for tokio_postgres::Client`
        ("query", 29, "T::pong", "name"),  # `impl<T: Send> Pingable for T`
    ]


def test_a_holder_s_value_and_self_keep_their_calls(tmp_path: Path) -> None:
    edges = calls_in(tmp_path, SOURCE)
    # parking_lot's guard, through an alias: `Catalog`'s method by name, as before
    assert [e for e in edges if e[0] == "resolve"] == [
        ("resolve", 75, "Catalog::get_id_by_class_name", "name"),
        ("resolve", 75, "CatalogReader::read_guard", "type"),
    ]
    assert [e for e in edges if e[0] in ("Resolver::resolve", "Resolver::listen")] == [
        ("Resolver::listen", 42, "Resolver::process", "type"),  # `transport: Arc<Self>`
        ("Resolver::resolve", 39, "State::fetch", "name"),
    ]


def test_a_type_with_the_method_wins_over_a_same_named_alias(tmp_path: Path) -> None:
    edges = calls_in(tmp_path, SOURCE)
    assert [e for e in edges if e[0] == "main_loop"] == [
        ("main_loop", 78, "Exec::infer", "type"),
        ("main_loop", 79, "Exec::exec", "type"),
    ]


def test_a_let_of_no_known_type_is_unknown_not_a_later_let_s_type(
    tmp_path: Path,
) -> None:
    """cargo's `Layout::new`: `let build_root = ws.build_dir();` (no type the index tells: an
    unknown `Workspace`), then `let build_root = build_root.into_path_unlocked();` (a
    `PathBuf`): the calls between are on the first, by name, not on a `PathBuf`."""
    edges = calls_in(tmp_path, SOURCE)
    assert [e for e in edges if e[0] == "layout"] == [
        ("layout", 61, "Filesystem::as_path_unlocked", "name"),
        ("layout", 62, "Filesystem::into_path_unlocked", "name"),
    ]
