"""A method called on a field of `self` whose written type is another crate's is that
crate's: hyper's `tx: oneshot::Sender<..>` and `inner: mpsc::UnboundedSender<..>` (under `use
tokio::sync::{mpsc, oneshot}`) had their `send` taken for hyper's own `Sender::send`, and a
path through them to a dispatch panic read as a way in (reading 122's recheck). A parameter
so written was already read so; a channel's half is another crate's even with its generic
arguments (it derefs to nothing it carries), where `Arc<T>` and `web::Data<T>` may."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

DISPATCH = """\
use tokio::sync::{mpsc, oneshot};

pub struct Sender {
    inner: mpsc::UnboundedSender<u8>,
}

impl Sender {
    pub fn send(&self, value: u8) -> Result<(), u8> {
        if value == 0 {
            panic!("dispatch sent a zero");
        }
        self.inner.send(value).map_err(|e| e.0)
    }
}

pub struct Pending {
    tx: oneshot::Sender<u8>,
    local: Sender,
}

impl Pending {
    pub fn fulfill(self, value: u8) {
        let _ = self.tx.send(value);
    }

    pub fn forward(&self, value: u8) {
        let _ = self.local.send(value);
    }
}
"""


def test_a_field_of_another_crate_s_type_calls_none_of_the_repository_s_methods(
    tmp_path: Path,
) -> None:
    graph = graph_of(
        tmp_path,
        {"Cargo.toml": '[package]\nname = "net"\n', "src/lib.rs": DISPATCH},
    )
    (send,) = [i for i, n in enumerate(graph.nodes) if n.label == "Sender::send"]

    callers = sorted(graph.nodes[e.caller].label for e in graph.callers.get(send, []))

    # not `fulfill`'s `self.tx.send`, nor `send`'s own `self.inner.send`
    assert callers == ["Pending::forward"]


def test_a_field_of_self_is_typed_by_its_own_file_s_struct_of_the_name(tmp_path: Path) -> None:
    """hyper has two `SendRequest`s, http1's with `dispatch: dispatch::Sender` and http2's
    with `dispatch: dispatch::UnboundedSender`: the type of a field was the first struct's of
    the name, so http2's `self.dispatch.send(req)` went to `Sender::send`."""
    conn = (
        "use crate::dispatch;\n\npub struct SendRequest {\n    dispatch: dispatch::{kind},\n}\n\n"
        "impl SendRequest {\n    pub fn send_request(&mut self) {\n"
        "        let _ = self.dispatch.send(1);\n    }\n}\n"
    )
    graph = graph_of(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "net"\n',
            "src/lib.rs": "pub mod dispatch;\npub mod http1;\npub mod http2;\n",
            "src/dispatch.rs": (
                "pub struct Sender;\npub struct UnboundedSender;\n"
                "impl Sender {\n    pub fn send(&mut self, v: u8) {}\n}\n"
                "impl UnboundedSender {\n    pub fn send(&mut self, v: u8) {}\n}\n"
            ),
            "src/http1.rs": conn.replace("{kind}", "Sender"),
            "src/http2.rs": conn.replace("{kind}", "UnboundedSender"),
        },
    )
    edges = sorted(
        (graph.nodes[e.caller].path, graph.nodes[callee].label)
        for callee, found in graph.callers.items()
        for e in found
    )
    assert edges == [
        ("src/http1.rs", "Sender::send"),
        ("src/http2.rs", "UnboundedSender::send"),
    ]


VECTOR_LIKE = """\
use tokio::sync::mpsc::{self as tokio_mpsc, Sender};
use tokio::{runtime, task::JoinSet};

type TapSender = tokio_mpsc::Sender<u8>;

pub struct Tap {
    tap_tx: TapSender,
}

impl Tap {
    pub fn try_send(&self, value: u8) {
        let _ = self.tap_tx.try_send(value);
    }
}

pub struct Timer {
    timer_tx: Sender<u8>,
}

impl Timer {
    pub fn start_wait(&self) {
        let _ = self.timer_tx.try_send(1);
    }
}

pub struct SenderAdapter;

impl SenderAdapter {
    pub fn try_send(&self, value: u8) -> Result<(), u8> {
        if value == 0 {
            return Err(value);
        }
        Ok(())
    }
}

pub struct LimitedSender;

pub mod source {
    /// a type of the repository's named as tokio's is, with no `try_send`
    pub struct Sender;
}

impl LimitedSender {
    pub fn try_send(&self, value: u8) -> Result<(), u8> {
        Ok(())
    }
}

pub struct Builder;

impl Builder {
    pub fn build(self) -> Result<(), String> {
        Err("no sinks".into())
    }
}

pub trait JoinSetExt {
    fn spawn_child(&mut self);
}

impl JoinSetExt for tokio::task::JoinSet<()> {
    fn spawn_child(&mut self) {}
}

pub fn build_runtime() -> runtime::Runtime {
    let mut rt_builder = runtime::Builder::new_multi_thread();
    rt_builder.build().expect("no runtime")
}

pub fn start() {
    let mut tasks = tokio::task::JoinSet::new();
    tasks.spawn_child();
}
"""


def callees_of(graph: object, caller: str) -> list[str]:
    nodes = graph.nodes  # type: ignore[attr-defined]
    return sorted(
        nodes[callee].label
        for callee, found in graph.callers.items()  # type: ignore[attr-defined]
        for e in found
        if nodes[e.caller].label == caller
    )


def test_another_crate_s_types_keep_their_methods_however_the_file_names_them(
    tmp_path: Path,
) -> None:
    """vector (reading 211): `tap_tx: TapSender` beside `type TapSender =
    tokio_mpsc::Sender<..>`, `timer_tx: Sender<..>` under `use tokio::sync::mpsc::Sender`,
    and `let rt_builder = runtime::Builder::new_multi_thread()` under `use tokio::runtime`
    are tokio's: their `try_send` and `build` are no `SenderAdapter::try_send` nor the
    repository's own `Builder::build`. A repository trait implemented for another crate's
    type (neon's `impl JoinSetExt for tokio::task::JoinSet`) is still that value's."""
    graph = graph_of(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "vector"\n\n[dependencies]\ntokio = "1"\n',
            "src/lib.rs": VECTOR_LIKE,
        },
    )

    assert callees_of(graph, "Tap::try_send") == []
    assert callees_of(graph, "Timer::start_wait") == []
    assert callees_of(graph, "build_runtime") == []
    assert callees_of(graph, "start") == ["JoinSet::spawn_child"]


def test_the_repository_s_own_module_path_keeps_its_type(tmp_path: Path) -> None:
    """The same `let` of a path through a module of the crate's own is the crate's type."""
    graph = graph_of(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "vector"\n',
            "src/lib.rs": "pub mod topology;\n\npub fn run() {\n"
            "    let b = topology::Builder::new();\n    let _ = b.build();\n}\n",
            "src/topology.rs": "pub struct Builder;\n\nimpl Builder {\n"
            "    pub fn new() -> Self {\n        Builder\n    }\n"
            "    pub fn build(self) -> Result<(), String> {\n        Ok(())\n    }\n}\n",
        },
    )

    assert callees_of(graph, "run") == ["Builder::build", "Builder::new"]
