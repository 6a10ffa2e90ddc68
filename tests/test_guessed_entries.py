"""Where users meet an error is said of the ways in whose every call the index told apart:
hyper's examples call `send_request` on what `http1::handshake` gives, which the index does
not type; the call was taken among the two `SendRequest::send_request`s by name, and the
record said users meet an http2-only panic through "example `gateway`, example `client`"
(reading 122's recheck, FALSE). With a sure way in, only those are named; with none, the
guessed ones are, said to be guesses."""

from __future__ import annotations

from pipeline.analyze.reach_text import situation_sentence, trigger_sentence
from pipeline.core.reach import CallerPath, Hop, Reach


def _path(entry: str, guessed: bool) -> CallerPath:
    top = Hop("main", "examples/gateway.rs", 1, "fn main()", call_line=3)
    send = Hop(
        "SendRequest::send_request", "src/http2.rs", 10, "pub fn send_request(&mut self)",
        call_line=12, resolution="name" if guessed else "type",
        candidates=("SendRequest::send_request (src/http1.rs:20)",) if guessed else (),
    )  # fmt: skip
    site = Hop("UnboundedSender::send", "src/dispatch.rs", 30, "fn send(&mut self)")
    return CallerPath((top, send, site) if guessed else (send, site), "main", entry)


def test_a_way_in_through_a_guessed_call_is_not_named_beside_a_sure_one() -> None:
    reach = Reach(
        paths=(
            _path("public API `SendRequest::send_request`", guessed=False),
            _path("example `gateway` (fn main)", guessed=True),
        ),
        callers=2,
    )
    assert situation_sentence(reach, "a" * 40) == (
        "At commit aaaaaaaaaa, users meet it through public API `SendRequest::send_request`."
    )


def test_guessed_ways_in_alone_are_named_as_guesses() -> None:
    reach = Reach(paths=(_path("example `gateway` (fn main)", guessed=True),), callers=1)
    assert situation_sentence(reach, "a" * 40) == (
        "At commit aaaaaaaaaa, users meet it through example `gateway` (fn main) (each through "
        "a call that may also run another fn of its name)."
    )


def _dispatched(count: int) -> CallerPath:
    """`StoreSystem::start` down to the site through `count` trait calls of several impls."""
    hops = [Hop("StoreSystem::start", "src/store.rs", 1, "pub fn start(&self)", call_line=2)]
    for i in range(count):
        hops.append(
            Hop(
                f"Impl{i}::handle",
                f"src/h{i}.rs",
                10,
                "fn handle(&mut self)",
                call_line=12,
                resolution="trait",
                via=f"Handler{i}::handle",
                impls=4 + i,
            )
        )
    hops.append(Hop("on_merge_result", "src/peer.rs", 30, "fn on_merge_result(&mut self)"))
    return CallerPath(tuple(hops), "pub-api", "public API `StoreSystem::start`")


def test_a_path_through_trait_dispatch_is_said_to_hold_for_the_impls_it_names() -> None:
    """tikv's v2 `StoreSystem::start` was said to reach v1's `RaftPoller` through
    `PollHandler::handle_normal` (one of 4 impls), which its values never select (reading
    181). The path is told with the values it needs: each dispatched hop, two in full."""
    sha = "a" * 40
    one = Reach(paths=(_dispatched(1),), callers=1)
    assert trigger_sentence(one, sha) == (
        "At commit aaaaaaaaaa it can be reached from public API `StoreSystem::start`, when "
        "`Handler0::handle` there runs `Impl0`'s (one of 4 impls): `StoreSystem::start` -> "
        "`Impl0::handle` (called as `Handler0::handle`, one of 4 impls) -> `on_merge_result`."
    )
    three = trigger_sentence(Reach(paths=(_dispatched(3),), callers=1), sha) or ""
    assert three.startswith(
        "At commit aaaaaaaaaa it can be reached from public API `StoreSystem::start`, when "
        "`Handler0::handle` there runs `Impl0`'s (one of 4 impls) and `Handler1::handle` "
        "there runs `Impl1`'s (one of 5 impls), and 1 more such calls: "
    )
    assert situation_sentence(one, sha) == (
        "At commit aaaaaaaaaa, users meet it through public API `StoreSystem::start` (each "
        "through a trait's method, which may run another of its impls)."
    )
