"""Which trait an impl implements when one crate declares two of a name: tikv's `tikv_util`
has a `Runnable` in `worker/pool.rs` and another in `worker/future.rs`; `worker/mod.rs`
re-exports the first as `Runnable` and the second as `FutureRunnable`. The workers of every
other crate (`impl Runnable for Runner`) were dispatched to from neither: a call of a
same-named trait's method reached only the impls in the declaration's own crate. An impl
now implements the declaration its file's `use` of the name leads to, through re-exports
(renamed ones too), or its path as written (`impl grpc::SearchService for ..`); one whose
`use` leads nowhere in the repository keeps the crate rule."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

FILES = {
    "Cargo.toml": '[workspace]\nmembers = ["util", "server"]\n',
    "util/Cargo.toml": '[package]\nname = "util"\n',
    "util/src/lib.rs": "pub mod worker;\n",
    "util/src/worker/mod.rs": (
        "mod future;\nmod pool;\n"
        "pub use pool::{Runnable, start};\n"
        "pub use self::future::{Runnable as FutureRunnable, poll};\n"
    ),
    "util/src/worker/pool.rs": (
        "pub trait Runnable {\n"
        "    fn run(&mut self, task: u32);\n"
        "}\n"
        "pub fn start<R: Runnable>(runner: &mut R) {\n"
        "    runner.run(1)\n"
        "}\n"
    ),
    "util/src/worker/future.rs": (
        "pub trait Runnable<T> {\n"
        "    fn run(&mut self, task: T);\n"
        "}\n"
        "pub fn poll<R: Runnable<u32>>(runner: &mut R) {\n"
        "    runner.run(2)\n"
        "}\n"
    ),
    "server/Cargo.toml": '[package]\nname = "server"\n',
    "server/src/lib.rs": "pub mod runner;\npub mod endpoint;\npub mod other;\npub mod adapter;\n",
    "server/src/runner.rs": (
        "use util::worker::Runnable;\n"
        "pub struct Runner;\n"
        "impl Runnable for Runner {\n"
        "    fn run(&mut self, task: u32) {}\n"
        "}\n"
    ),
    "server/src/endpoint.rs": (
        "use util::worker::FutureRunnable;\n"
        "pub struct Endpoint;\n"
        "impl FutureRunnable<u32> for Endpoint {\n"
        "    fn run(&mut self, task: u32) {}\n"
        "}\n"
    ),
    "server/src/other.rs": (  # its `use` is of no file of the repository: the crate rule
        "use elsewhere::Runnable;\n"
        "pub struct Other;\n"
        "impl Runnable for Other {\n"
        "    fn run(&mut self, task: u32) {}\n"
        "}\n"
    ),
    # quickwit's `GrpcSearchAdapter`: it implements the generated `grpc::SearchService`
    # (outside the repository here), not the `SearchService` its file also imports
    "server/src/adapter.rs": (
        "use util::worker::Runnable;\n"
        "use proto::service::{self as grpc};\n"
        "pub struct Adapter;\n"
        "impl grpc::Runnable for Adapter {\n"
        "    fn run(&mut self, task: u32) {}\n"
        "}\n"
    ),
}


def test_an_impl_implements_the_trait_its_use_leads_to(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    label = {i: f"{n.path}:{n.label}" for i, n in enumerate(graph.nodes)}
    edges = sorted(
        (label[e.caller], e.line, label[callee], e.resolution)
        for callee, found in graph.callers.items()
        for e in found
    )
    assert edges == [
        ("util/src/worker/future.rs:poll", 5, "server/src/endpoint.rs:Endpoint::run", "trait"),
        ("util/src/worker/future.rs:poll", 5, "util/src/worker/future.rs:Runnable::run", "trait"),
        ("util/src/worker/pool.rs:start", 5, "server/src/runner.rs:Runner::run", "trait"),
        ("util/src/worker/pool.rs:start", 5, "util/src/worker/pool.rs:Runnable::run", "trait"),
    ]
