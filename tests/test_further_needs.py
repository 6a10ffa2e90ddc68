"""A path the depth limit cut is told the way in further up (`Beyond`) by a walk from its top
hop that carries what the walk up to that hop needed: the package or the impl type a
dispatch below must be given. neon's `PostgresBackend::process_message` runs the
safekeeper's handler, and its records said they were "reached from `proxy` (fn main)", a
binary that does not link the safekeeper (reading 191, 1 F; 71 records of neon)."""

from __future__ import annotations

import json
from pathlib import Path

from test_reach import committed_and_extracted

from pipeline.core.reach import Beyond, reach_from_json

CHAIN = "".join(f"fn s{i}() -> anyhow::Result<()> {{\n    s{i + 1}()\n}}\n" for i in range(1, 6))
FILES = {
    "Cargo.toml": '[workspace]\nmembers = ["backend", "server", "proxy"]\n',
    "backend/Cargo.toml": '[package]\nname = "backend"\npublish = false\n',
    "backend/src/lib.rs": (
        "pub trait Handler {\n    fn process_query(&mut self) -> anyhow::Result<()>;\n}\n"
        "pub struct Backend;\n"
        "impl Backend {\n"
        "    pub fn new() -> Self {\n        Backend\n    }\n"
        "    pub fn run(&mut self, handler: &mut impl Handler) -> anyhow::Result<()> {\n"
        "        self.process_message(handler)\n    }\n"
        "    fn process_message(&mut self, handler: &mut impl Handler) -> anyhow::Result<()> {\n"
        "        handler.process_query()\n    }\n}\n"
    ),
    "server/Cargo.toml": '[package]\nname = "server"\n[dependencies]\nbackend = { path = "../backend" }\n',
    "server/src/main.rs": (
        "pub struct ServerHandler;\n"
        "impl ServerHandler {\n    pub fn new() -> Self {\n        ServerHandler\n    }\n}\n"
        "impl backend::Handler for ServerHandler {\n"
        "    fn process_query(&mut self) -> anyhow::Result<()> {\n        s1()\n    }\n}\n"
        + CHAIN
        + 'fn s6() -> anyhow::Result<()> {\n    anyhow::bail!("the greeting is truncated")\n}\n'
        "fn start() -> anyhow::Result<()> {\n"
        "    let mut handler = ServerHandler::new();\n"
        "    let mut server = backend::Backend::new();\n"
        "    server.run(&mut handler)\n}\n"
        "fn main() {\n    start().unwrap();\n}\n"
    ),
    "proxy/Cargo.toml": '[package]\nname = "proxy"\n[dependencies]\nbackend = { path = "../backend" }\n',
    "proxy/src/main.rs": (
        "pub struct ProxyHandler;\n"
        "impl ProxyHandler {\n    pub fn new() -> Self {\n        ProxyHandler\n    }\n}\n"
        "impl backend::Handler for ProxyHandler {\n"
        "    fn process_query(&mut self) -> anyhow::Result<()> {\n        Ok(())\n    }\n}\n"
        "fn main() {\n"
        "    let mut handler = ProxyHandler::new();\n"
        "    let mut proxy = backend::Backend::new();\n"
        "    proxy.run(&mut handler).unwrap();\n}\n"
    ),
}


def test_the_way_in_above_a_cut_path_keeps_the_impl_its_dispatch_runs(tmp_path: Path) -> None:
    _, record = committed_and_extracted(FILES, "o/pg", tmp_path, "the greeting is truncated")
    rows = json.loads((tmp_path / "out" / "o" / "pg" / "reach.json").read_text())["records"]
    (path,) = reach_from_json(rows[record["id"]]).paths
    assert path.entry is None
    assert [h.name for h in path.hops][:2] == [
        "Backend::process_message",
        "ServerHandler::process_query",
    ]
    # `proxy` runs `Backend::run` 2 calls up, but with its own handler: not this one
    assert path.beyond == Beyond("main", "`server` (fn main)", 3)  # main -> start -> run
