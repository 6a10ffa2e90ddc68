"""Two receivers the link had no type for (reading 230, greptimedb: "no caller of .. found"
where one calls it): a struct's literal (`WorkerStarter { .. }.start()`), and a `let` of a
lock's guard (`let mut inner = self.inner.lock().await; inner.next()`), which derefs to
what the lock holds. Only a struct or enum of the repository's is taken so: a lock of an
alias or a std type, or the repository's own `read()`, leaves the name untyped and its
methods found by name, as before."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

SOURCE = """\
pub struct Inner { n: u64 }
impl Inner {
    pub async fn next(&mut self) -> Result<u64, String> { Err("x".into()) }
}
pub struct Other;
impl Other {
    pub async fn next(&mut self) -> Result<u64, String> { Ok(1) }
}
pub struct Sequence { inner: tokio::sync::Mutex<Inner> }
impl Sequence {
    pub async fn next(&self) -> Result<u64, String> {
        let mut inner = self.inner.lock().await;
        inner.next().await
    }
}
pub struct WorkerStarter { id: u32 }
impl WorkerStarter { pub fn start(self) -> u32 { self.id } }
pub struct Engine;
impl Engine { pub fn start(self) -> u32 { 0 } }
pub fn group() -> u32 {
    WorkerStarter {
        id: 1,
    }
    .start()
}
pub struct ShardHolder { n: u64 }
impl ShardHolder { pub fn get_shard(&self, id: u32) -> Option<u32> { None } }
pub struct SharedShardHolder(std::sync::Arc<tokio::sync::RwLock<ShardHolder>>);
impl SharedShardHolder {
    pub async fn read(&self) -> tokio::sync::RwLockReadGuard<'_, ShardHolder> { self.0.read().await }
}
pub struct Collection { shards_holder: SharedShardHolder }
impl Collection {
    pub async fn point(&self, id: u32) -> Option<u32> {
        let shard_holder_read = self.shards_holder.read().await;
        shard_holder_read.get_shard(id)
    }
}
"""


def edges(tmp_path: Path) -> list[tuple[str, str, str | None]]:
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "m"\n', "src/lib.rs": SOURCE})
    return sorted(
        (graph.nodes[e.caller].label, graph.nodes[callee].label, e.resolution)
        for callee, found in graph.callers.items()
        for e in found
    )


def test_a_guard_and_a_literal_are_typed_and_an_own_lock_keeps_its_name(tmp_path: Path) -> None:
    assert edges(tmp_path) == [
        # the repository's own `read()`: its guard untyped, `get_shard` found by name
        ("Collection::point", "ShardHolder::get_shard", "name"),
        ("Collection::point", "SharedShardHolder::read", "type"),
        ("Sequence::next", "Inner::next", "type"),  # not `Other::next`, nor itself
        ("group", "WorkerStarter::start", "type"),  # not `Engine::start`
    ]
