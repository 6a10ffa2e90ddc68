"""A multi-crate workspace for the repository index: traits, a gRPC pair, CLIs, statements."""

from __future__ import annotations

WORKSPACE: dict[str, str] = {
    "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
    "crates/engine/src/lib.rs": """\
pub mod store;
pub use store::Engine;

/// The longest name a key may have.
pub const MAX_LEN: usize = 64;

/// Checks a name before it is stored.
pub fn validate(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("empty name".to_string());
    }
    check_len(name)
}

fn check_len(name: &str) -> Result<(), String> {
    if name.len() > MAX_LEN {
        panic!("name too long: {}", name);
    }
    Ok(())
}

/// Walks down a tree.
pub fn walk(depth: u32) -> u32 {
    if depth > 10 {
        panic!("tree deeper than ten levels");
    }
    walk(depth + 1)
}
""",
    "crates/engine/src/store.rs": """\
pub trait Store {
    fn put(&self, key: &str) -> bool;
}

pub struct Memory;

impl Store for Memory {
    fn put(&self, key: &str) -> bool {
        key.is_empty()
    }
}

pub struct Disk;

impl Store for Disk {
    fn put(&self, key: &str) -> bool {
        key.len() > 3
    }
}

pub struct Engine {
    store: Memory,
    /// Refuse every write.
    pub read_only: bool,
}

impl Engine {
    pub fn write(&self, key: &str) -> bool {
        self.check(key);
        self.store.put(key)
    }

    fn check(&self, key: &str) {
        if self.read_only {
            panic!("engine is read-only, cannot write {}", key);
        }
    }

    pub fn shutdown(&self) -> bool {
        true
    }

    pub fn flush(&self) -> u32 {
        fn write(n: u32) -> u32 {
            n
        }
        write(1)
    }
}

pub enum Job {
    Put(String),
    Flush,
}

impl Engine {
    pub fn run_job(&self, job: Job) {
        match job {
            Job::Put(key) => self.put_raw(&key),
            Job::Flush => {
                self.flush();
            }
        }
    }

    fn put_raw(&self, key: &str) {
        if key.is_empty() {
            panic!("raw keys cannot be empty");
        }
    }
}

pub fn apply(f: Option<fn(&str) -> Result<(), String>>) {
    if let Some(validate) = f {
        validate("x");
    }
}

pub struct Conn;

impl Conn {
    pub fn shutdown(&self) -> bool {
        panic!("connection already shut down");
    }
}

pub fn stop(conn: &Conn) -> bool {
    conn.shutdown()
}

pub fn stop_any(thing: &dyn Fn() -> bool, x: Holder) -> bool {
    x.item.shutdown()
}
""",
    "crates/sql/src/util.rs": """\
pub fn normalize(name: &str) -> String {
    if name.contains(' ') {
        panic!("cannot normalize a name with spaces");
    }
    name.to_lowercase()
}
""",
    "crates/server/src/lib.rs": """\
use engine::Engine;
use tonic::{Request, Response, Status};

pub mod http;

pub struct KvServiceImpl {
    engine: Engine,
}

#[tonic::async_trait]
impl KvService for KvServiceImpl {
    async fn put_key(&self, request: Request<PutRequest>) -> Result<Response<PutResponse>, Status> {
        let key = request.into_inner().key;
        self.engine.write(&key);
        Ok(Response::new(PutResponse {}))
    }
}

pub struct State {
    engine: Engine,
}

pub struct AdminServiceImpl {
    state: State,
}

#[tonic::async_trait]
impl AdminService for AdminServiceImpl {
    async fn flush_all(&self, request: Request<FlushRequest>) -> Result<Response<FlushResponse>, Status> {
        self.state.engine.run_job(Job::Flush);
        Ok(Response::new(FlushResponse {}))
    }
}

pub struct ServerError;

impl From<ServerError> for Status {
    fn from(e: ServerError) -> Status {
        Status::internal("server error")
    }
}

/// The crate's own `Error`: not what an `anyhow::Error` site returns.
pub enum Error {}

impl From<Error> for Status {
    fn from(e: Error) -> Status {
        match e {}
    }
}
""",
    "crates/server/src/http.rs": """\
use axum::routing::post;
use axum::Router;

pub fn router() -> Router {
    Router::new().route("/keys", post(create_key))
}

async fn create_key() -> &'static str {
    engine::walk(0);
    "ok"
}

#[derive(thiserror::Error, Debug)]
pub enum ApiError {
    #[error("key {0} is missing")]
    Missing(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (StatusCode::NOT_FOUND, "missing").into_response()
    }
}
""",
    "crates/client/src/lib.rs": """\
pub struct KvClient {
    inner: KvServiceClient<Channel>,
}

impl KvClient {
    pub async fn put_key(&self, key: &str) -> Result<(), String> {
        self.inner.put_key(PutRequest { key: key.to_string() }).await.map_err(|e| e.to_string())?;
        Ok(())
    }
}
""",
    "crates/cli/src/main.rs": """\
use clap::{Parser, Subcommand};
use client::KvClient;
use engine::validate;

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand)]
enum Opts {
    Put { key: String },
    Check { name: String },
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Opts::Put { key } => put(&key),
        Opts::Check { name } => validate(&name).unwrap(),
    }
}

async fn put(key: &str) {
    let client = KvClient::connect();
    client.put_key(key).await.unwrap();
}
""",
    "crates/admin/src/main.rs": """\
use clap::Command;

fn main() {
    let matches = Command::new("admin")
        .subcommand(Command::new("halt"))
        .get_matches();
    match matches.subcommand() {
        Some(("halt", _)) => halt(),
        _ => {}
    }
}

fn halt() {
    engine::walk(1);
}
""",
    "crates/sql/src/lib.rs": """\
use engine::Engine;

pub mod util;
use crate::util::*;

pub enum Statement {
    Insert { key: String },
    Upsert { key: String },
    Drop { name: String, kind: Kind },
}

pub enum Kind {
    Table,
}

pub fn handle(stmt: Statement, engine: &Engine) {
    match stmt {
        Statement::Insert { key } => handle_insert(engine, &key),
        Statement::Upsert { key } => handle_insert(engine, &key),
        Statement::Drop { name, kind } => match kind {
            Kind::Table => handle_drop(&name),
        },
    }
}

fn handle_insert(engine: &Engine, key: &str) {
    engine.write(key);
}

fn handle_drop(name: &str) {
    let walk = |n: &str| n.is_empty();
    normalize(name);
    if walk(name) {
        panic!("cannot drop an unnamed table");
    }
}
""",
}


def line_of(path: str, needle: str) -> int:
    """The 1-based line of the first line of `path` that contains `needle`."""
    for number, line in enumerate(WORKSPACE[path].splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")
