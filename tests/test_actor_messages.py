"""A message sent to an actor runs the `handle` of the actor that takes its type: quickwit's
indexing pipeline is a chain of actors (`impl Handler<ParquetMergeScratch> for
ParquetMergeExecutor`), each sending the next its message (`ctx.send_message(&mailbox,
scratch)`), and 177 of its records stopped at `ParquetMergeExecutor::handle`, whose only
caller is the actor runtime. The send is an edge resolved `message` to each such `handle`
(actix's `addr.do_send(Ping { .. })` and `addr.send(..)` too), when the code shows the
message's type: a struct literal, a unit struct, or a name a `let` of one binds. A link from the previous
one is still the full link when an actor is added elsewhere."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in
from test_link_memo import relinked, resolved_again
from test_reach import _graph_of, line_of_text, node

from pipeline.analyze.reach_text import path_text
from pipeline.core.reach import CallerPath, Hop
from pipeline.scan.signatures import handled_message

SOURCE = """\
pub struct Scratch { pub id: u32 }
pub struct Ping;
pub struct Unhandled;
pub struct Executor;
impl Handler<Scratch> for Executor {
    type Reply = ();
    async fn handle(&mut self, scratch: Scratch, ctx: &Ctx) -> Result<(), String> {
        Err(format!("merge {} failed", scratch.id))
    }
}
pub struct Pinger;
impl actix::Handler<Ping> for Pinger {
    fn handle(&mut self, msg: Ping, ctx: &mut Context) {}
}
pub struct Downloader;
impl Downloader {
    async fn download(&self, ctx: &Ctx, mailbox: &Mailbox) {
        let scratch = Scratch { id: 1 };
        ctx.send_message(mailbox, scratch).await;
    }
    fn ping(&self, addr: &Addr) {
        addr.do_send(Ping);
        addr.do_send(Unhandled);
    }
}
"""


def test_a_message_sent_runs_the_handle_of_the_actor_of_its_type(tmp_path: Path) -> None:
    edges_found = [e for e in calls_in(tmp_path, SOURCE) if e[0].startswith("Downloader")]
    assert edges_found == [
        ("Downloader::download", 19, "Executor::handle", "message"),
        ("Downloader::ping", 22, "Pinger::handle", "message"),  # `Unhandled`: no actor takes it
    ]


SHARED = """\
pub struct AssignShards;
pub struct SourceActor;
impl Handler<AssignShards> for SourceActor {
    fn handle(&mut self, m: AssignShards) {}
}
pub struct Pipeline { source_mailbox: Mailbox<SourceActor> }
impl Handler<AssignShards> for Pipeline {
    fn handle(&mut self, m: AssignShards) {
        self.source_mailbox.send_message(m);
    }
}
pub fn assign(ctx: &Ctx, mailbox: &Mailbox<Pipeline>, other: Unknown) {
    ctx.send_message(mailbox, AssignShards);
    other.send_message(AssignShards);
}
"""


def test_a_message_goes_to_the_actor_its_mailbox_is_for(tmp_path: Path) -> None:
    """quickwit's `AssignShards` is handled by three actors; `handles.source_mailbox
    .send_message(..)`, a `Mailbox<SourceActor>`, reaches the source's `handle` alone. A
    mailbox whose type the code does not show keeps every actor of the message."""
    found = [e for e in calls_in(tmp_path, SHARED) if e[3] == "message"]
    assert found == [
        ("Pipeline::handle", 9, "SourceActor::handle", "message"),
        ("assign", 13, "Pipeline::handle", "message"),
        ("assign", 14, "Pipeline::handle", "message"),
        ("assign", 14, "SourceActor::handle", "message"),
    ]


def test_a_handler_s_message_type_is_read_off_its_trait() -> None:
    assert handled_message("Handler<ParquetMergeScratch>") == "ParquetMergeScratch"
    assert handled_message("actix::Handler<Arc<Ping>>") == "Ping"
    assert handled_message("Handler") is None
    assert handled_message("RequestHandler<Ping>") is None


def test_the_hop_says_it_is_an_actor_s() -> None:
    hop = Hop("Executor::handle", "src/lib.rs", 7, "async fn handle(..)", resolution="message")
    assert path_text(CallerPath((hop,))) == (
        "`Executor::handle` (an actor, sent a message it handles)"
    )


BASE = {
    "src/lib.rs": "pub mod actors;\npub mod send;\n",
    "src/actors.rs": (
        "pub struct Scratch;\npub struct Executor;\n"
        "impl Handler<Scratch> for Executor {\n    fn handle(&mut self, s: Scratch) {}\n}\n"
    ),
    "src/send.rs": (
        "use crate::actors::Scratch;\n"
        "pub fn download(mailbox: &Mailbox) {\n    mailbox.ask(Scratch);\n}\n"
    ),
}


def test_an_actor_added_elsewhere_is_linked_as_a_full_link_would() -> None:
    files = {
        **BASE,
        "src/more.rs": (
            "use crate::actors::Scratch;\npub struct Planner;\n"
            "impl Handler<Scratch> for Planner {\n    fn handle(&mut self, s: Scratch) {}\n}\n"
        ),
    }
    graph, memo, after = relinked(BASE, files)
    handles = sorted(
        graph.nodes[callee].label
        for callee, found in graph.callers.items()
        for e in found
        if e.resolution == "message"
    )
    assert handles == ["Executor::handle", "Planner::handle"]
    assert "src/send.rs" in resolved_again(memo, after)


SELF_SENT = """\
pub struct Loop;
pub struct MergeTask { pub id: u32 }
pub struct Source;
impl Handler<Loop> for Source {
    fn handle(&mut self, m: Loop, ctx: &ActorContext<Self>) {
        ctx.schedule_self_msg(HEARTBEAT, Loop);
    }
}
impl Source {
    fn initialize(&mut self, ctx: &ActorContext<Self>) {
        ctx.send_self_message(Loop);
    }
}
pub struct Planner;
impl Handler<Loop> for Planner {
    fn handle(&mut self, m: Loop, ctx: &ActorContext<Self>) {
        ctx.try_send_self_message(Loop);
    }
}
pub struct Downloader;
impl Handler<MergeTask> for Downloader {
    fn handle(&mut self, task: MergeTask) {}
}
pub fn schedule(mailbox: &Mailbox<Downloader>) {
    let task = MergeTask { id: 1 };
    mailbox.try_send_message(task);
}
"""


def test_a_message_an_actor_sends_itself_runs_its_own_handle(tmp_path: Path) -> None:
    """quickwit's actors loop by sending themselves a message (`ctx.schedule_self_msg(
    HEARTBEAT, Loop)`, `ctx.send_self_message(Loop)`): of the actors that handle `Loop`, the
    sender's own `handle` runs. `mailbox.try_send_message(task)` is a send too (quickwit's
    merge scheduler: 169 records stopped at the downloader's `handle`)."""
    found = [e for e in calls_in(tmp_path, SELF_SENT) if e[3] == "message"]
    assert found == [
        ("Planner::handle", 17, "Planner::handle", "message"),
        ("Source::handle", 6, "Source::handle", "message"),
        ("Source::initialize", 11, "Source::handle", "message"),
        ("schedule", 26, "Downloader::handle", "message"),
    ]


def test_a_handler_called_on_self_is_the_one_of_its_message_s_type() -> None:
    """quickwit's `SourceActor::initialize` calls `self.handle(Loop, ctx)`: of the actor's
    `impl Handler<Loop>`, `Handler<AssignShards>` and `Handler<SuggestTruncate>`, the one
    whose message is a `Loop` (reading 251 read "the call is ambiguous" and named the
    other two). A message of no evident type stays ambiguous."""
    source = (
        "pub struct Loop;\npub struct Spawn { pub n: u8 }\npub struct Shard(u8);\n"
        "pub struct SourceActor;\n"
        "impl Handler<Loop> for SourceActor {\n"
        "    fn handle(&mut self, m: Loop, ctx: &Ctx) -> u8 { 1 }\n}\n"
        "impl Handler<Spawn> for SourceActor {\n"
        "    fn handle(&mut self, m: Spawn, ctx: &Ctx) -> u8 { 2 }\n}\n"
        "impl Handler<Shard> for SourceActor {\n"
        "    fn handle(&mut self, m: Shard, ctx: &Ctx) -> u8 { 3 }\n}\n"
        "impl SourceActor {\n"
        "    fn initialize(&mut self, ctx: &Ctx, m: Msg) {\n"
        "        self.handle(Loop, ctx);\n"
        "        self.handle(Spawn::default(), ctx);\n"
        "        self.handle(Shard(3), ctx);\n"
        "        self.handle(m, ctx);\n"
        "    }\n}\n"
    )
    graph = _graph_of({"quickwit/quickwit-indexing/src/source/mod.rs": source})
    lines = {
        line_of_text(source, text): text
        for text in ("self.handle(Loop", "self.handle(Spawn", "self.handle(Shard", "self.handle(m")
    }
    caller = node(graph, "SourceActor::initialize")
    seen = sorted(
        (lines[e.line], graph.nodes[callee].definition.params[0][1], bool(e.candidates))
        for callee, edges in graph.callers.items()
        for e in edges
        if e.caller == caller
    )
    assert seen == [
        ("self.handle(Loop", "Loop", False),
        ("self.handle(Shard", "Shard", False),
        ("self.handle(Spawn", "Spawn", False),
        ("self.handle(m", "Loop", True),
        ("self.handle(m", "Shard", True),
        ("self.handle(m", "Spawn", True),
    ]
