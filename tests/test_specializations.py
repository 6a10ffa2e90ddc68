"""A typed call whose type has one trait's method in several impls, each for other type
arguments, may run any of them: risingwave's `on_tick` calls `self.monitor_cdc()` in `impl<T>
SplitEnumerator for DebeziumSplitEnumerator<T>`, and `impl CdcMonitor for
DebeziumSplitEnumerator<Mysql>` (`<Postgres>`, `<SqlServer>`, and the `default fn` of the
generic impl) each write one; which runs depends on `T`. The four had been more than a
call keeps candidates for, and the call reached none (30 records without a caller). Up to
12 such impls are kept; same-named methods of different types or traits are not, nor a
trait's impls for different trait arguments (quickwit's `Handler<Loop>`, `Handler<Spawn>`
of one actor: `self.handle(..)` runs the one its argument's type picks)."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

SOURCE = """\
pub struct Enumerator<T> { t: T }
pub trait Monitor { fn monitor(&mut self) -> u8; }
impl<T> Monitor for Enumerator<T> { default fn monitor(&mut self) -> u8 { 0 } }
impl Monitor for Enumerator<Mysql> { fn monitor(&mut self) -> u8 { 1 } }
impl Monitor for Enumerator<Postgres> { fn monitor(&mut self) -> u8 { 2 } }
impl Monitor for Enumerator<SqlServer> { fn monitor(&mut self) -> u8 { 3 } }
impl<T> Enumerator<T> {
    pub fn on_tick(&mut self) -> u8 { self.monitor() }
}
pub struct A; pub struct B; pub struct C; pub struct D;
impl A { pub fn run(&self) {} }
impl B { pub fn run(&self) {} }
impl C { pub fn run(&self) {} }
impl D { pub fn run(&self) {} }
pub fn guess(x: Unknown) { x.run() }
pub struct Service;
impl Handler<Loop> for Service { fn handle(&mut self, m: Loop) {} }
impl Handler<Spawn> for Service { fn handle(&mut self, m: Spawn) {} }
impl Handler<Stop> for Service { fn handle(&mut self, m: Stop) {} }
impl Handler<Gc> for Service { fn handle(&mut self, m: Gc) {} }
impl Service {
    fn initialize(&mut self) { self.handle(Loop) }
}
"""


SENDERS = {
    f"src/{m}.rs": "pub struct Sender;\nimpl Clone for Sender { fn clone(&self) -> Self { Sender } }\n"
    for m in ("a", "b", "c", "d")
}


def test_same_named_types_of_several_modules_are_not_one_type_s_impls(tmp_path: Path) -> None:
    """tikv has four `Sender`s (its channels), each `impl Clone for Sender`: a typed
    `tx.clone()` is no dispatch among them."""
    from test_reach import graph_of

    graph = graph_of(tmp_path, {
        **SENDERS,
        "Cargo.toml": '[package]\nname = "ch"\n',
        "src/lib.rs": "mod a; mod b; mod c; mod d;\npub fn run(tx: Sender) { tx.clone(); }\n",
    })  # fmt: skip
    clones = [e for edges in graph.callers.values() for e in edges if e.line == 2]
    assert clones == []


def test_each_impl_of_one_trait_for_the_typed_receiver_s_type_may_run(tmp_path: Path) -> None:
    found = [
        e
        for e in calls_in(tmp_path, SOURCE)
        if e[0] in ("Enumerator::on_tick", "guess", "Service::initialize")
    ]
    assert found == [
        ("Enumerator::on_tick", 8, "Enumerator::monitor", "self"),
        ("Enumerator::on_tick", 8, "Enumerator::monitor", "self"),
        ("Enumerator::on_tick", 8, "Enumerator::monitor", "self"),
        ("Enumerator::on_tick", 8, "Enumerator::monitor", "self"),
        ("Service::initialize", 22, "Service::handle", "self"),
    ]  # `x.run()`: four types' methods of the name, no type to tell: none; `self.handle(Loop)`
    # on an actor of four `Handler<M>` impls: the argument's type picks one (`Handler<Loop>`'s,
    # `test_actor_messages`), not each
