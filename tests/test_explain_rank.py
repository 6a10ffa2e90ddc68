"""`explain` ranks by the locations in the pasted text and finds a message typed without its values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from render_fixtures import seed_dataset, seed_doc

from pipeline.core.model import Record
from pipeline.languages.rust.formats import message_pattern
from pipeline.publish.explain import ErrorIndex, locations, values_left_out
from pipeline.publish.explain_cli import explain_command

BASE = seed_doc("f16c5768bcd8aade")["record"]
RPC = "src/meta/src/barrier/rpc.rs"
# (file, line, message): many records print `should exist`; the one thrown at rpc.rs:1074
# sorts after the others by file, so only the location can put it first.
SITES = [
    ("src/batch/src/a.rs", 10, "should exist"),
    ("src/common/src/b.rs", 20, "should exist"),
    (RPC, 900, "should exist"),
    (RPC, 1074, "should exist"),
    ("src/stream/src/c.rs", 1074, "should exist"),
    ("src/meta/src/d.rs", 5, "table {} not found"),
    ("src/meta/src/d.rs", 6, "{} not found"),
    ("src/meta/src/e.rs", 7, "job {} failed: {}"),
    ("src/meta/src/e.rs", 8, "invalid value {:?} for option {name}"),
    ("src/meta/src/e.rs", 9, "actor {actor_id} exited unexpectedly"),
    ("src/meta/src/e.rs", 10, "should not pause when having snapshot backfill job {job_id}"),
]


def _record(n: int, path: str, line: int, message: str) -> Record:
    return Record.model_validate(
        BASE
        | {
            "id": f"{n:016x}",
            "errorMessage": message,
            "messagePattern": message_pattern(message),
            "filePath": path,
            "lineNumber": line,
        }
    )


INDEX = ErrorIndex([_record(n, *site) for n, site in enumerate(SITES)])
TARGET = f"{SITES.index((RPC, 1074, 'should exist')):016x}"


@pytest.mark.parametrize(
    "text",
    [
        # Rust >= 1.73: the location, then the message on the next line
        "thread 'tokio-runtime-worker' panicked at src/meta/src/barrier/rpc.rs:1074:67:\n"
        "should exist\nnote: run with `RUST_BACKTRACE=1` environment variable",
        # older Rust: the message first, quoted
        "thread 'main' panicked at 'should exist', src/meta/src/barrier/rpc.rs:1074:67",
        # a backtrace frame a line below the call, relative to the workspace
        "should exist\nstack backtrace:\n   0: rust_begin_unwind\n"
        "  14: risingwave_meta::barrier::rpc::ControlStreamManager::inject\n"
        "             at ./src/meta/src/barrier/rpc.rs:1076:21\n"
        "  15: tokio::runtime::task::core::Core<T,S>::poll\n"
        "             at /rustc/abc/library/core/src/future/future.rs:123:9",
        # an absolute path from a CI machine, and a Windows one
        "panicked at /home/ci/risingwave/src/meta/src/barrier/rpc.rs:1074:67:\nshould exist",
        "panicked at C:\\ci\\rw\\src\\meta\\src\\barrier\\rpc.rs:1074:67:\r\nshould exist",
        # a log line with the place in its prefix
        "2026-09-14T16:17:12Z ERROR risingwave_meta::barrier::rpc rpc.rs:1073: should exist",
    ],
)
def test_the_location_in_the_text_ranks_the_site_thrown_there_first(text: str) -> None:
    top = INDEX.search(text, limit=5)
    assert top[0].id == TARGET, [(m.record.filePath, m.record.lineNumber, m.score) for m in top]
    # the same file's other `should exist` comes next: the file counts without the line
    assert (top[1].record.filePath, top[1].record.lineNumber) == (RPC, 900)


def test_without_a_location_the_order_is_by_file() -> None:
    top = INDEX.search("ERROR: should exist", limit=5)
    assert [m.record.filePath for m in top][:2] == ["src/batch/src/a.rs", "src/common/src/b.rs"]
    assert len({m.score for m in top}) == 1


def test_a_location_in_another_file_gives_nothing() -> None:
    top = INDEX.search("panicked at src/frontend/src/x.rs:1074:5:\nshould exist", limit=5)
    assert len({m.score for m in top}) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("src/meta/src/barrier/rpc.rs:1074:67", [(RPC, 1074)]),
        ("at ./src/a.rs:3", [("src/a.rs", 3)]),
        ("C:\\x\\src\\a.rs:3:1", [("/x/src/a.rs", 3)]),
        ("listening on 0.0.0.0:5690", []),  # an address is no file
        ("no place here: 12", []),
    ],
)
def test_locations(text: str, expected: list[tuple[str, int]]) -> None:
    assert locations(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("should not pause when having snapshot backfill job", SITES[10][2]),
        ("Error: should not pause when having snapshot backfill job {job_id}", SITES[10][2]),
        ("table not found", "table {} not found"),
        ("table {} not found", "table {} not found"),
        ("table <name> not found", "table {} not found"),
        ("table ... not found", "table {} not found"),
        ("job failed: timeout", "job {} failed: {}"),
        ("invalid value for option", "invalid value {:?} for option {name}"),
        ("actor exited unexpectedly", "actor {actor_id} exited unexpectedly"),
    ],
)
def test_a_message_with_its_values_left_out_is_found(text: str, expected: str) -> None:
    top = INDEX.search(text, limit=3)
    assert top and top[0].message == expected, [(m.message, m.score) for m in top]


def test_an_exact_match_beats_the_same_message_with_values_left_out() -> None:
    top = INDEX.search("table orders not found", limit=3)
    assert top[0].message == "table {} not found" and top[0].exact
    loose = INDEX.search("table not found", limit=3)
    assert loose[0].message == "table {} not found" and not loose[0].exact
    assert loose[0].score < top[0].score


@pytest.mark.parametrize(
    ("text"),
    [
        "tablespace users is not found",  # the words apart, other words between them
        "actor 7 exited",  # the literal text incomplete
        "invalid value 3 for the option",
    ],
)
def test_values_left_out_is_no_licence_to_match_anything(text: str) -> None:
    assert [m.message for m in INDEX.search(text)] in ([], ["{} not found"])


def test_values_left_out_pattern() -> None:
    assert values_left_out(r"table (.+?) not found").startswith("table[ \\t]*(?:")
    assert values_left_out(r"(.+?) not found") == "not found"
    assert values_left_out(r"meta store is down") == "meta store is down"


def test_cli_finds_the_seed_message_without_its_value_and_says_so(tmp_path: Path) -> None:
    seed_dataset(tmp_path / "out")
    runner = CliRunner()
    text = "should not pause when having snapshot backfill job"
    result = runner.invoke(explain_command, ["--out", str(tmp_path / "out"), text])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("1. should not pause when having snapshot backfill job")
    assert "(values left out)" in result.output
    as_json = runner.invoke(explain_command, ["--out", str(tmp_path / "out"), "--json", text])
    assert json.loads(as_json.output)[0]["exact"] is False


# nushell: `#[error("Parse mismatch: expected {0}.")]` on `ParseError::Expected`, and the
# sites that build it with the text users then read inside that template
SLOT_SITES = [
    ("crates/nu-protocol/src/errors/parse_error.rs", 88, "Parse mismatch: expected {0}."),
    ("crates/nu-parser/src/parse_patterns.rs", 99, "valid variable name"),
    ("crates/nu-parser/src/parse_literals.rs", 40, "filesize with valid units"),
    ("src/meta/src/e.rs", 7, "job {} failed: {}"),
    ("src/meta/src/f.rs", 3, "snapshot {} too old"),
]
SLOTS = ErrorIndex([_record(0x50 + n, *site) for n, site in enumerate(SLOT_SITES)])


EXPECTED = "Parse mismatch: expected {0}."


@pytest.mark.parametrize(
    ("text", "first", "just_above"),
    [
        # the site that built the value, not the template it fills (was second, 27 to 42)
        ("Error: Parse mismatch: expected valid variable name.", "valid variable name", EXPECTED),
        (
            "Parse mismatch: expected filesize with valid units.",
            "filesize with valid units",
            EXPECTED,
        ),
        # a message with its own values fills a slot too
        ("ERROR job 7 failed: snapshot 12 too old", "snapshot {} too old", None),
        # more than the record's text in the slot: the template stays the answer
        ("Parse mismatch: expected valid variable names or more.", EXPECTED, None),
    ],
)
def test_a_site_whose_message_fills_a_templates_value_is_found_first(
    text: str, first: str, just_above: str | None
) -> None:
    found = SLOTS.search(text, limit=3)
    assert found[0].message == first
    if just_above is not None:  # one point above the template it fills
        assert found[1].message == just_above
        assert found[0].score == found[1].score + 1
