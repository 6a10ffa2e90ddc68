"""A library's public type is used through the traits it implements: a server awaits
hyper's `Connection` (`Future::poll`), a program iterates an iterator, drops a guard. hyper's
records had stopped at `Dispatcher::poll` with "no caller found" (reading 122): its
`Connection::poll` is `Pin::new(&mut self.conn).poll(cx)`, which the link did not type, and
a method of a trait impl was never an entry point. Now the pinned value is typed by what is
pinned, and a method of a public type's impl of a trait the repository does not declare is
public API "through `Trait::method`"; a private type's, or one of the crate's own traits,
is not."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of, line_of_text

from pipeline.scan.callerpaths import site_reach

CONN = """\
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

pub trait Service {
    fn call(&self);
}

pub struct Connection {
    conn: Dispatcher,
}

struct Dispatcher {
    done: bool,
}

impl Future for Dispatcher {
    type Output = ();

    fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<()> {
        if self.done {
            panic!("dispatch polled after completion");
        }
        Poll::Pending
    }
}

impl Future for Connection {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        Pin::new(&mut self.conn).poll(cx)
    }
}

impl Service for Connection {
    fn call(&self) {}
}
"""


def test_an_awaited_public_type_is_a_way_in_through_the_pinned_value(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "net"\n',
            "src/lib.rs": "pub mod conn;\n",
            "src/conn.rs": CONN,
        },
    )
    entries = sorted(label for kind, label in graph.entries.values() if kind == "pub-api")
    # not the private `Dispatcher`'s `poll`, nor the crate's own `Service`
    assert entries == ["public API `conn::Connection` through `Future::poll`"]

    reach = site_reach(graph, "src/conn.rs", line_of_text(CONN, "dispatch polled"))

    assert reach is not None
    assert [(p.entry, [h.name for h in p.hops]) for p in reach.paths] == [
        ("pub-api", ["Connection::poll", "Dispatcher::poll"])
    ]


def test_an_impl_for_another_crates_wrapper_is_named_by_its_place(
    tmp_path: Path,
) -> None:
    # sccache's `impl Service<SccacheRequest> for Arc<SccacheService<C>>` read "public API
    # `sccache::server::Arc` through `Service::call`" (reading 126): no such item exists
    server = (
        "use std::sync::Arc;\n\npub struct SccacheService {\n    n: usize,\n}\n\n"
        "impl Iterator for Arc<SccacheService> {\n    type Item = usize;\n\n"
        "    fn next(&mut self) -> Option<usize> {\n        None\n    }\n}\n\n"
        "pub struct Requests;\n\n"
        "impl Iterator for Requests {\n    type Item = usize;\n\n"
        "    fn next(&mut self) -> Option<usize> {\n        None\n    }\n}\n"
    )
    graph = graph_of(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "cache"\n',
            "src/lib.rs": "pub mod server;\n",
            "src/server.rs": server,
        },
    )
    entries = sorted(label for kind, label in graph.entries.values() if kind == "pub-api")
    # the way in stays (sccache's server meets its errors there), named by the impl's place
    assert entries == [
        "`Iterator::next` of the impl for another crate's `Arc` (src/server.rs:10)",
        "public API `server::Requests` through `Iterator::next`",
    ]
