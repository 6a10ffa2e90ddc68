"""Error sites of one Rust file (SPEC 3): every kind, every message form, no test code."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from pipeline.core.model import SiteKind, TypeAlias
from pipeline.languages.rust.regions import site_hints
from pipeline.languages.rust.sites import find_sites

FIXTURES = Path(__file__).parent / "fixtures" / "rust"

# fixture -> (lineNumber, kind, macro as written, errorMessage, errorCode), in line order.
EXPECTED: dict[str, list[tuple[int, str, str, str, str | None]]] = {
    "bail.rs": [
        (6, "bail", "bail", "x is too big: {x}", None),
        (9, "bail", "anyhow::bail", "two is not allowed", None),
        (12, "bail", "risingwave_common::bail", "one: {}", None),
        # line 1 is a comment, line 14 is `bail!("{}", x)`: a message with no words
    ],
    "anyhow.rs": [
        (4, "anyhow", "anyhow", "value missing", None),
        (5, "anyhow", "anyhow::anyhow", "formatted {} value", None),
        (6, "anyhow", "anyhow", "got {a:?} instead", None),  # inside Err(..): one site, not two
    ],
    "ensure.rs": [
        (4, "ensure", "ensure", "n must be positive", None),
        (5, "ensure", "anyhow::ensure", "n = {} exceeds the limit {limit}", None),
        # `ensure!(n != 3)` has no message
    ],
    "format_err.rs": [(2, "format_err", "anyhow::format_err", "request failed with code {}", None)],
    "eyre.rs": [(2, "eyre", "eyre::eyre", "no report named {name}", None)],
    "panic.rs": [(4, "panic", "panic", "value was absent at {:?}", None)],
    "unreachable.rs": [(4, "unreachable", "unreachable", "unexpected kind {n}", None)],
    "todo.rs": [(2, "todo", "todo", "support for partitioned tables", None)],
    "unimplemented.rs": [
        (2, "unimplemented", "unimplemented", "rewind is not implemented for this source", None)
    ],
    "assert.rs": [
        (2, "assert", "assert", "a must be positive", None),
        (3, "assert", "assert_eq", "a and b differ: {} vs {}", None),
        (4, "assert", "debug_assert_ne", "a is seven", None),
        # `assert!(b < 100)` and `assert_eq!(a, b)` carry no message
    ],
    "display.rs": [
        (11, "display", "write", "setting `{key}` is missing", None),
        (13, "display", "writeln", "value {} is out of range", None),
        # line 14 continues the message of line 13; `Version` is no error type
    ],
    "error_attr.rs": [
        (7, "error_attr", "error", "catalog id not found: {kind} {id}", None),
        (9, "error_attr", "error", "duplicate name {0:?}", None),
        (17, "error_attr", "error", "connection to {addr} closed", None),  # on a struct
        # `#[error(transparent)]` has no message
    ],
    "expect.rs": [
        (2, "expect", "expect", "key 1 must exist", None),
        (6, "expect", "expect", "key {2} must exist", None),  # the `.expect` line of a chain
    ],
    "context.rs": [
        (4, "context", "context", "failed to read the config file", None),
        (8, "context", "with_context", "config {path} is not a number", None),
    ],
    "constructor.rs": [
        (3, "constructor", "MetaError::Catalog", "catalog {id} is empty", None),
        (6, "constructor", "MetaError::invalid_parameter", "id one is reserved", None),
        (9, "constructor", "Status::invalid_argument", "id two is invalid", "INVALID_ARGUMENT"),
        (12, "constructor", "ErrorCode::InternalError", "id three is broken", "InternalError"),
        (14, "constructor", "Err", "unknown id {}", None),
    ],
    "messages.rs": [
        (2, "bail", "bail", 'raw "quoted" message {x}', None),
        (3, "bail", "bail", "concatenated message {}", None),
        (4, "bail", "bail", 'tab\tnewline\nquote" unicode \u00e9 hex A', None),
        (5, "bail", "bail", "joined across lines", None),
        (7, "bail", "bail", r"raw \n stays", None),
        (8, "bail", "bail", "{{literal braces}} and {x}", None),
        (9, "anyhow", "anyhow", "inner format {}", None),
    ],
    "not_errors.rs": [(12, "panic", "panic", "the one real site", None)],
    "testcode.rs": [
        (2, "panic", "panic", "production panic", None),
        (31, "panic", "panic", "cfg(not(test)) is production code", None),
    ],
}


def scan_fixture(name: str, path: str | None = None) -> list[tuple[int, str, str, str, str | None]]:
    source = (FIXTURES / name).read_bytes()
    scan = find_sites(path or f"src/{name}", source)
    return [(s.line, s.kind, s.macro, s.message, s.error_code) for s in scan.sites]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_yields_exactly_its_sites(name: str) -> None:
    assert scan_fixture(name) == EXPECTED[name]


def test_every_fixture_has_a_table_and_every_kind_a_fixture() -> None:
    assert {p.name for p in FIXTURES.glob("*.rs")} == set(EXPECTED)
    covered = {kind for rows in EXPECTED.values() for _, kind, *_ in rows}
    assert covered == set(get_args(SiteKind))
    for kind in get_args(SiteKind):
        if kind != "constructor":
            assert f"{kind}.rs" in EXPECTED, kind


@pytest.mark.parametrize(
    ("line", "is_format", "args"),
    [
        (2, False, ()),  # `.expect("..")`: braces are literal text
        (6, False, ()),
    ],
)
def test_expect_messages_are_not_format_strings(
    line: int, is_format: bool, args: tuple[str, ...]
) -> None:
    scan = find_sites("src/expect.rs", (FIXTURES / "expect.rs").read_bytes())
    site = next(s for s in scan.sites if s.line == line)
    assert (site.is_format, site.format_args) == (is_format, args)


@pytest.mark.parametrize(
    ("fixture", "line", "args"),
    [
        ("bail.rs", 12, ("x",)),
        ("ensure.rs", 5, ("n",)),  # the ensure's condition is not a format argument
        ("assert.rs", 3, ("a", "b")),  # nor are assert_eq!'s operands
        ("anyhow.rs", 5, ("a",)),  # the arguments of format! inside anyhow!
        ("messages.rs", 3, ("x",)),  # concat!'s result is the format string
        ("context.rs", 8, ()),
    ],
)
def test_format_arguments_are_the_tokens_after_the_message(
    fixture: str, line: int, args: tuple[str, ...]
) -> None:
    scan = find_sites(f"src/{fixture}", (FIXTURES / fixture).read_bytes())
    site = next(s for s in scan.sites if s.line == line)
    assert site.format_args == args


@pytest.mark.parametrize(
    "path",
    [
        "tests/integration.rs",
        "benches/scan.rs",
        "src/meta/tests/helpers.rs",
        "src/frontend/benches/planner.rs",
        # not by file name (issue 11): `tests.rs`, `test_utils.rs` are test code when their
        # parent declares them `#[cfg(test)] mod ..;` (tests/test_testcode_rules.py)
    ],
)
def test_files_under_test_paths_yield_nothing(path: str) -> None:
    assert scan_fixture("bail.rs", path) == []


@pytest.mark.parametrize(
    ("path", "count"),
    [("src/testing_util.rs", 3), ("src/contest.rs", 3), ("src/attest/x.rs", 3)],
)
def test_test_like_names_that_are_not_test_paths_still_yield(path: str, count: int) -> None:
    assert len(scan_fixture("bail.rs", path)) == count


def test_a_cfg_test_file_yields_nothing() -> None:
    source = b'//! helpers\n#![cfg(test)]\n\npub fn f() {\n    panic!("only in tests");\n}\n'
    assert find_sites("src/helpers.rs", source).sites == ()
    production = source.replace(b"#![cfg(test)]", b"#![allow(dead_code)]")
    assert [s.line for s in find_sites("src/helpers.rs", production).sites] == [5]


@pytest.mark.parametrize(
    ("head", "generated"),
    [
        ("// This file is @generated by prost-build.\n", True),
        (
            "// Copyright 2025\n// Licensed under Apache-2.0\n\n// THIS FILE IS AUTO_GENERATED. DO NOT EDIT\n",
            True,
        ),
        ("/* Automatically generated by bindgen\n * 0.69 */\n#![allow(dead_code)]\n", True),
        ("//! Parses the config; see `generate.rs` for how docs are generated.\n", False),
        ("use x;\n// DO NOT EDIT the next line by hand\n", False),  # below code: the file's own
    ],
)
def test_a_generated_file_keeps_each_message_once(head: str, generated: bool) -> None:
    """A generator repeats its template in every item (tonic's "Service was not ready: {}" in
    each client method): in a file whose head says it is generated, one site per message."""
    method = (
        "pub async fn {name}(&mut self) -> Result<(), tonic::Status> {{\n"
        "    self.inner.ready().await.map_err(|e| {{\n"
        '        tonic::Status::unknown(format!("Service was not ready: {{}}", e.into()))\n'
        "    }})?;\n"
        '    if self.closed {{ return Err(tonic::Status::unavailable("{name} is closed")); }}\n'
        "    Ok(())\n}}\n"
    )
    source = (head + method.format(name="get") + method.format(name="put")).encode()
    scan = find_sites("src/a.rs", source)
    messages = [s.message for s in scan.sites]
    if generated:
        assert messages == ["Service was not ready: {}", "get is closed", "put is closed"]
    else:
        assert messages == [
            "Service was not ready: {}",
            "get is closed",
            "Service was not ready: {}",
            "put is closed",
        ]
    assert scan == find_sites("src/a.rs", source, whole=True)


def test_invalid_utf8_keeps_the_other_sites_of_the_file() -> None:
    source = (
        b'fn a() { bail!("before the bad bytes"); }\n'
        b'const X: &str = "\xff\xfe caf\xe9";\n'
        b'fn b() { bail!("after the bad bytes"); }\n'
    )
    scan = find_sites("src/bad.rs", source)
    assert [(s.line, s.message) for s in scan.sites] == [
        (1, "before the bad bytes"),
        (3, "after the bad bytes"),
    ]
    assert "\ufffd" in scan.sites[0].window  # the window shows the bad line, replaced


BROKEN_ITEM = b"fn broken( {\n    let = ;\n}\n"
BROKEN_STATEMENT = b'fn broken() {\n    let = ;\n    panic!("in the broken fn");\n}\n'


@pytest.mark.parametrize(
    ("broken", "middle"),
    [
        (BROKEN_ITEM, []),
        (BROKEN_STATEMENT, [(6, "in the broken fn")]),  # its own site survives the recovery too
    ],
)
def test_a_syntax_error_keeps_the_other_sites_of_the_file(
    broken: bytes, middle: list[tuple[int, str]]
) -> None:
    source = (
        b"fn a() -> anyhow::Result<()> {\n"
        b'    bail!("first site");\n'
        b"}\n" + broken + b"fn c() -> anyhow::Result<()> {\n"
        b"    if ready {\n"
        b'        bail!("after the syntax error");\n'
        b"    }\n"
        b"}\n"
    )
    last = 5 + broken.count(b"\n") + 1
    scan = find_sites("src/broken.rs", source)
    assert [(s.line, s.message) for s in scan.sites] == [
        (2, "first site"),
        *middle,
        (last, "after the syntax error"),
    ]
    assert scan.sites[-1].facts.conditions[0].text == "ready"


def _numbered_file(total: int, sites: dict[int, str]) -> bytes:
    lines = [sites.get(n, f"// line {n}") for n in range(1, total + 1)]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize(
    ("line", "start", "end"),
    [
        (3, 1, 21),  # clipped at the top
        (19, 1, 37),
        (25, 7, 43),  # full 37 lines
        (40, 22, 50),  # clipped at the bottom (file has 50 lines)
        (50, 32, 50),
    ],
)
def test_window_is_18_lines_either_side_clipped_to_the_file(
    line: int, start: int, end: int
) -> None:
    text = f'fn f() {{ panic!("site at {line}"); }}'
    source = _numbered_file(50, {line: text})
    (site,) = find_sites("src/w.rs", source).sites
    expected = [text if n == line else f"// line {n}" for n in range(start, end + 1)]
    assert (site.line, site.window_start) == (line, start)
    assert site.window.split("\n") == expected


def test_window_drops_carriage_returns() -> None:
    source = b'fn f() {\r\n    panic!("crlf file");\r\n}\r\n'
    (site,) = find_sites("src/crlf.rs", source).sites
    assert site.window == 'fn f() {\n    panic!("crlf file");\n}'


@pytest.mark.parametrize(
    ("source", "alias"),
    [
        (
            b"pub type MetaResult<T> = std::result::Result<T, MetaError>;",
            TypeAlias("MetaResult", "MetaError"),
        ),
        (b"type SinkResult<T> = Result<T, SinkError>;", TypeAlias("SinkResult", "SinkError")),
        (
            b"pub type Result<T, E = RwError> = std::result::Result<T, E>;",
            TypeAlias("Result", "RwError"),
        ),
    ],
)
def test_result_aliases_are_collected(source: bytes, alias: TypeAlias) -> None:
    # A site is needed for the file to be parsed at all.
    body = source + b'\nfn f() { panic!("x failed"); }\n'
    assert find_sites("src/error.rs", body).aliases == (alias,)


def test_non_result_aliases_are_ignored() -> None:
    body = b'type Map<K> = HashMap<K, u32>;\nfn f() { panic!("x failed"); }\n'
    assert find_sites("src/m.rs", body).aliases == ()


@pytest.mark.parametrize(
    ("source", "uses"),
    [
        (b"use anyhow::Result;", True),
        (b"use anyhow::{anyhow, Context, Result};", True),
        (b"use anyhow::Context;", False),
        (b"use std::io::Result;", False),
    ],
)
def test_use_anyhow_result_is_noticed(source: bytes, uses: bool) -> None:
    body = source + b'\nfn f() -> Result<()> { bail!("x failed") }\n'
    assert find_sites("src/u.rs", body).uses_anyhow_result is uses


@pytest.mark.parametrize(
    ("source", "may"),
    [
        (b'fn f() { bail!("x") }', True),
        (b'#[error("x")]', True),
        (b'x.expect("y")', True),
        (b'Err(Status::internal("x"))', True),
        (b"fn f() -> u32 { 1 }", False),
        (b'println!("nothing to see")', False),
    ],
)
def test_files_without_a_possible_site_are_not_parsed(source: bytes, may: bool) -> None:
    assert bool(site_hints(source)) is may
