"""A type named as the trait it implements: sccache's `impl dist::Client for Client` in
`dist/http.rs`. Its methods had read as the trait's own declarations (a method whose type and
trait have one name is the trait's), so a call through `Arc<dyn dist::Client>` reached the
trait's `do_run_job` and never the impl's: "no caller of `Client::do_run_job` found"
(reading 126). The impl's trait keeps its path, and the call is dispatched to it."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

MOD = """\
pub mod http;

pub trait Client {
    fn do_run_job(&self, job: u32) -> Result<u32>;
}

pub fn compile(dist_client: Arc<dyn Client>) -> Result<u32> {
    dist_client.do_run_job(1)
}
"""

HTTP = """\
use crate::dist;

pub struct Client {
    url: String,
}

impl dist::Client for Client {
    fn do_run_job(&self, job: u32) -> Result<u32> {
        bail!("could not run job {}", job)
    }
}
"""


def test_a_call_through_the_trait_reaches_the_impl_of_the_type_named_as_it(
    tmp_path: Path,
) -> None:
    graph = graph_of(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "cache"\n',
            "src/lib.rs": "pub mod dist;\n",
            "src/dist/mod.rs": MOD,
            "src/dist/http.rs": HTTP,
        },
    )
    impls = [
        i
        for i, n in enumerate(graph.nodes)
        if n.label == "Client::do_run_job" and n.path == "src/dist/http.rs"
    ]
    (impl,) = impls
    assert graph.nodes[impl].definition.trait == "dist::Client"
    assert [(graph.nodes[e.caller].label, e.resolution) for e in graph.callers.get(impl, [])] == [
        ("compile", "trait")
    ]
