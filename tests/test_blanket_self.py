"""A blanket impl that forwards to a trait's method on `self` runs whichever impl `self`
is: risingwave's `impl<T: SplitEnumerator> AnySplitEnumerator for T` writes
`SplitEnumerator::on_tick(self)`, and its source manager calls `on_tick` on a `Box<dyn
AnySplitEnumerator>`; the call had reached only the trait's default, not the enumerators'
own `on_tick` (risingwave's CDC monitoring, 30 records). A trait's fn called with another
first argument keeps that argument's impl (`Sink::run(&update)`: by its type). The owner is
the impl's type parameter even where the repository also defines a type of that name
(risingwave's metrics crate has a `T`)."""

from __future__ import annotations

from pathlib import Path

from test_field_lets import calls_in

SOURCE = """\
pub trait SplitEnumerator {
    fn on_tick(&mut self) -> u8 { 0 }
}
pub trait AnySplitEnumerator {
    fn on_tick(&mut self) -> u8;
}
impl<T: SplitEnumerator> AnySplitEnumerator for T {
    fn on_tick(&mut self) -> u8 { SplitEnumerator::on_tick(self) }
}
pub struct Kafka;
impl SplitEnumerator for Kafka { fn on_tick(&mut self) -> u8 { 1 } }
pub struct Cdc;
impl SplitEnumerator for Cdc { fn on_tick(&mut self) -> u8 { 2 } }
pub fn other(k: &mut Kafka) -> u8 { SplitEnumerator::on_tick(k) }
pub struct T;
"""


def test_a_blanket_impl_s_call_on_self_runs_each_impl(tmp_path: Path) -> None:
    found = [e for e in calls_in(tmp_path, SOURCE) if e[1] in (8, 14)]
    assert found == [
        ("T::on_tick", 8, "Cdc::on_tick", "trait"),
        ("T::on_tick", 8, "Kafka::on_tick", "trait"),
        ("T::on_tick", 8, "SplitEnumerator::on_tick", "trait"),
        ("other", 14, "SplitEnumerator::on_tick", "type"),
    ]
