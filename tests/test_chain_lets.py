"""A `let` of a chain's method value has the type the chain gives: risingwave's
`handle_alter_sink_props` does `let meta_client = session.env().meta_client();` then
`meta_client.alter_sink_props(..)`, which went by name to the RPC client's `MetaClient` method
(one of the last stop's sampled paths, read), skipping the frontend's `FrontendMetaClient`
trait and its impl. The receiver chain is typed as a receiver is (a parameter's type, each
method's return), then the method's value; a chain that cannot be typed leaves the call
to the name, as before; a chain that reads its own name (`let s = s.a().b()`) types nothing.
And `self.0` of a tuple struct has the field's type (the impl's own hop to `MetaClient`)."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

SOURCE = """\
pub struct SessionImpl { env: FrontendEnv }
pub struct FrontendEnv;
pub struct MetaClient;
pub struct FrontendMetaClientImpl(MetaClient);
pub trait FrontendMetaClient {
    fn alter_sink_props(&self, id: u32) -> u32;
}
impl SessionImpl {
    pub fn env(&self) -> &FrontendEnv { &self.env }
}
impl FrontendEnv {
    pub fn meta_client(&self) -> &dyn FrontendMetaClient { &FrontendMetaClientImpl(MetaClient) }
}
impl MetaClient {
    pub fn alter_sink_props(&self, id: u32) -> u32 { id }
    pub fn meta_client(&self) -> MetaClient { MetaClient }
}
impl FrontendMetaClient for FrontendMetaClientImpl {
    fn alter_sink_props(&self, id: u32) -> u32 { self.0.alter_sink_props(id) }
}
pub fn handle(session: &SessionImpl) -> u32 {
    let meta_client = session.env().meta_client();
    meta_client.alter_sink_props(1)
}
pub fn untyped(session: Unknown) -> u32 {
    let meta_client = session.env().meta_client();
    meta_client.alter_sink_props(2)
}
pub fn again(meta_client: &SessionImpl) -> u32 {
    let meta_client = meta_client.env().meta_client();
    meta_client.alter_sink_props(3)
}
"""


def test_a_let_of_a_chain_s_method_has_the_type_the_chain_gives(tmp_path: Path) -> None:
    edges = calls_in(tmp_path, SOURCE)
    assert [e for e in edges if e[0] == "handle"] == [
        ("handle", 22, "FrontendEnv::meta_client", "type"),
        ("handle", 22, "SessionImpl::env", "type"),
        ("handle", 23, "FrontendMetaClient::alter_sink_props", "trait"),
        ("handle", 23, "FrontendMetaClientImpl::alter_sink_props", "trait"),
    ]


def test_a_chain_that_cannot_be_typed_leaves_the_call_to_its_name(tmp_path: Path) -> None:
    # `Unknown` is no type of the repository: the call goes by name, as without the `let`
    # (the type the receiver is named after, `meta_client` -> `MetaClient`)
    edges = calls_in(tmp_path, SOURCE)
    assert [e for e in edges if e[0] == "untyped" and e[1] == 27] == [
        ("untyped", 27, "MetaClient::alter_sink_props", "name")
    ]


def test_a_chain_off_its_own_name_types_nothing(tmp_path: Path) -> None:
    edges = calls_in(tmp_path, SOURCE)
    assert [e for e in edges if e[0] == "again" and e[1] == 31] == [
        ("again", 31, "MetaClient::alter_sink_props", "name")
    ]


def test_a_tuple_struct_s_field_has_its_type(tmp_path: Path) -> None:
    # `FrontendMetaClientImpl(MetaClient)`: `self.0.alter_sink_props(..)` is `MetaClient`'s
    # (it went by name to the trait's own declaration, the caller's own trait)
    edges = calls_in(tmp_path, SOURCE)
    assert [e for e in edges if e[0] == "FrontendMetaClientImpl::alter_sink_props"] == [
        ("FrontendMetaClientImpl::alter_sink_props", 19, "MetaClient::alter_sink_props", "type")
    ]


LOCKS = """\
use std::sync::{Arc, Mutex, RwLock};
pub struct TransferTaskProgress;
impl TransferTaskProgress {
    pub fn set_stage(&mut self, stage: u32) {}
}
pub struct RecoveryProgress;
impl RecoveryProgress {
    pub fn set_stage(&mut self, stage: u32) {}
}
pub struct Snapshot;
impl Snapshot {
    pub fn set_stage(&self, stage: u32) {}
}
pub struct Store;
impl Store {
    pub fn read(&self) -> Snapshot { Snapshot }
}
pub fn transfer(progress: Arc<Mutex<TransferTaskProgress>>, store: Arc<RwLock<Store>>, own: Store) {
    progress.lock().set_stage(1);
    own.read().set_stage(2);
}
"""


def test_a_lock_s_guard_is_the_locked_value(tmp_path: Path) -> None:
    """qdrant's `progress.lock().set_stage(..)` on an `Arc<Mutex<TransferTaskProgress>>`:
    the guard derefs to the value (it went by name to `RecoveryProgress::set_stage`); a type
    with a `read` method of its own (`Store::read`) keeps it."""
    edges = calls_in(tmp_path, LOCKS)
    assert [e for e in edges if e[0] == "transfer"] == [
        ("transfer", 19, "TransferTaskProgress::set_stage", "type"),
        ("transfer", 20, "Snapshot::set_stage", "type"),
        ("transfer", 20, "Store::read", "type"),
    ]


SHARDS = """\
pub struct QueueProxyShard;
impl QueueProxyShard {
    pub fn transfer_all_missed_updates(&self) -> u32 { 1 }
}
pub struct Inner;
impl Inner {
    pub fn transfer_all_missed_updates(&self) -> u32 { 2 }
}
pub struct LocalShard;
impl LocalShard {
    pub fn transfer_all_missed_updates(&self) -> u32 { 3 }
}
pub enum Shard {
    QueueProxy(QueueProxyShard),
    Local(LocalShard),
}
pub fn un_proxify(local: Option<Shard>) -> u32 {
    match local {
        Some(Shard::QueueProxy(proxy)) => proxy.transfer_all_missed_updates(),
        Some(Shard::Local(shard)) => shard.transfer_all_missed_updates(),
        None => 0,
    }
}
"""


def test_an_arm_s_variant_inside_some_binds_its_value(tmp_path: Path) -> None:
    """qdrant's `Some(Shard::QueueProxy(proxy)) => proxy.transfer_all_missed_updates()`: the
    binding holds the variant's `QueueProxyShard`, as a bare `Shard::QueueProxy(proxy)` does
    (it went by name to `Inner`'s method, one hop further down)."""
    edges = calls_in(tmp_path, SHARDS)
    assert [e for e in edges if e[0] == "un_proxify"] == [
        ("un_proxify", 19, "QueueProxyShard::transfer_all_missed_updates", "type"),
        ("un_proxify", 20, "LocalShard::transfer_all_missed_updates", "type"),
    ]


BOUNDED = """\
pub trait SyncExpression {
    fn eval(&self, input: u32) -> u32;
}
pub trait Expression {
    fn eval(&self, input: u32) -> u32;
}
impl<E: SyncExpression> Expression for E {
    fn eval(&self, input: u32) -> u32 { SyncExpression::eval(self, input) }
}
pub struct Literal;
impl SyncExpression for Literal {
    fn eval(&self, input: u32) -> u32 { input }
}
pub struct ArrayTransform<E> {
    array: E,
}
impl<E: SyncExpression> SyncExpression for ArrayTransform<E> {
    fn eval(&self, input: u32) -> u32 {
        self.array.eval(input)
    }
}
"""


def test_a_field_of_the_impl_s_type_parameter_has_its_bound(tmp_path: Path) -> None:
    """risingwave's `impl<E: SyncExpression> SyncExpression for ArrayTransformExpression<E>`:
    `self.array.eval(input)` with `array: E` runs a `SyncExpression`'s `eval` (it went to the
    async blanket impl's, `impl<E: SyncExpression> Expression for E`, one of this stop's
    sampled wrong hops): the impl's bounds type what the fn's own do not."""
    edges = calls_in(tmp_path, BOUNDED)
    assert [e for e in edges if e[0] == "ArrayTransform::eval"] == [
        ("ArrayTransform::eval", 19, "Literal::eval", "trait"),
        ("ArrayTransform::eval", 19, "SyncExpression::eval", "trait"),
    ]


POLLER = """\
pub trait PollHandler<N> {
    fn handle_normal(&mut self, normal: N) -> u32;
}
pub struct Poller<N, Handler> {
    pub handler: Handler,
    pub normal: N,
}
impl<N: Copy, Handler: PollHandler<N>> Poller<N, Handler> {
    fn poll(&mut self) -> u32 {
        self.handler.handle_normal(self.normal)
    }
}
pub struct RaftPoller;
impl PollHandler<u32> for RaftPoller {
    fn handle_normal(&mut self, normal: u32) -> u32 { normal }
}
pub struct Handler;
impl PollHandler<u32> for Handler {
    fn handle_normal(&mut self, normal: u32) -> u32 { normal + 1 }
}
impl Handler {
    pub fn handle_normal(&mut self) -> u32 { 2 }
}
"""


def test_a_field_of_the_struct_s_type_parameter_is_not_a_type_of_that_name(tmp_path: Path) -> None:
    """tikv's batch system: `struct Poller<N: Fsm, C: Fsm, Handler> { handler: Handler, .. }`
    and `impl<N, C, Handler: PollHandler<N, C>> Poller<N, C, Handler>`, whose `poll` calls
    `self.handler.handle_normal(p)`. The field's `Handler` is the struct's type parameter,
    bounded by the impl, not the test runner's `pub struct Handler` (which took the call
    alone, typed: 162 of tikv's records had no way into the raftstore's pollers)."""
    edges = calls_in(tmp_path, POLLER)
    assert [e for e in edges if e[0] == "Poller::poll"] == [
        ("Poller::poll", 10, "Handler::handle_normal", "trait"),
        ("Poller::poll", 10, "PollHandler::handle_normal", "trait"),
        ("Poller::poll", 10, "RaftPoller::handle_normal", "trait"),
    ]


LONG_CHAIN = """\
pub struct Builder;
impl Builder {
    pub fn new(config: u32, diff: u32, buffers: u32, extra: u32, registry: u32) -> Self { Builder }
    pub fn build(self) -> u32 { 1 }
}
pub struct Other;
impl Other {
    pub fn build(self) -> u32 { 2 }
}
pub struct Pieces { config: u32, diff: u32, buffers: u32, extra_context: u32, utilization_registry: u32 }
impl Pieces {
    pub fn pieces(self) -> u32 {
        Builder::new(
            self.config,
            self.diff,
            self.buffers,
            self.extra_context,
            self.utilization_registry,
        )
        .build()
    }
}
"""


def test_a_receiver_chain_too_long_to_keep_is_typed_with_its_arguments_elided(
    tmp_path: Path,
) -> None:
    """vector's `Builder::new(self.config, self.diff, ..)` then `.build()`, which rustfmt breaks
    over eight lines: the receiver's text was cut at 80 characters and so typed nothing (the
    call went by name to both `build`s, or none); the index now keeps the chain with its
    calls' arguments elided, `Builder::new(..)`, which the link types as before (index 60)."""
    edges = [e for e in calls_in(tmp_path, LONG_CHAIN) if e[0] == "Pieces::pieces"]
    assert edges == [
        ("Pieces::pieces", 13, "Builder::new", "type"),
        ("Pieces::pieces", 20, "Builder::build", "type"),
    ]
