"""`Result::expect(msg)` panics with "{msg}: {error:?}", `Option::expect(msg)` with "{msg}"
alone, and the syntax does not say which receiver a site has: an `.expect(..)` site's
`messagePattern` must `re.fullmatch` both (SPEC 4: every rendering). A stop 54 reading found
six `.expect` patterns that could not match the panic a user pastes ("failed to bind: Os {
code: 98, kind: AddrInUse, .. }"). The pattern now ends in an optional `: <the error's
Debug>` (any text, over lines: anyhow's "Caused by:"), no capture group of its own. A
dataset published before keeps its ids: the site is found again by its pattern without
that suffix (`Language.pattern_identity`)."""

from __future__ import annotations

import re

from site_fixtures import republished

from pipeline.languages.rust.sites import find_sites

SOURCE = (
    "fn serve(addr: &str, name: &str) {\n"
    '    let listener = std::net::TcpListener::bind(addr).expect("failed to bind the socket");\n'
    '    let port = std::env::var("PORT").ok().expect(&format!("no port set for {name}"));\n'
    '    check(addr).expect_err("a bare address must be refused");\n'
    "}\n"
    'fn check(addr: &str) -> anyhow::Result<()> {\n    anyhow::bail!("refused {addr}")\n}\n'
)


def patterns() -> dict[str, str]:
    return {s.message: s.pattern for s in find_sites("src/main.rs", SOURCE.encode()).sites}


def test_an_expect_pattern_matches_the_bare_message_and_a_result_s_panic() -> None:
    pattern = patterns()["failed to bind the socket"]
    for rendered in (
        "failed to bind the socket",
        'failed to bind the socket: Os { code: 98, kind: AddrInUse, message: "in use" }',
        "failed to bind the socket: could not connect\n\nCaused by:\n    refused",
    ):
        assert re.fullmatch(pattern, rendered), rendered
    assert not re.fullmatch(pattern, "failed to bind the socket twice")
    formatted = patterns()["no port set for {name}"]
    assert re.fullmatch(formatted, "no port set for api: NotPresent")
    assert re.compile(formatted).groups == 1  # the placeholder's group alone
    assert re.fullmatch(
        patterns()["a bare address must be refused"], "a bare address must be refused: ()"
    )


def test_another_site_s_pattern_is_as_it_was() -> None:
    assert patterns()["refused {addr}"] == "refused (.+?)"


def test_a_dataset_published_before_keeps_its_ids() -> None:
    published, found, rewritten = republished(SOURCE, "src/main.rs")

    assert rewritten > 0
    assert found == published
