"""`explain`: the record a rendered message comes from is found first, inside any log."""

from __future__ import annotations

import json
import random
import re
import statistics
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from render_fixtures import seed_dataset, seed_doc, write_dataset

from pipeline.core.model import Record
from pipeline.dataset.reader import load_all
from pipeline.languages.rust.formats import message_pattern
from pipeline.publish.explain import ErrorIndex, literal_segments
from pipeline.publish.explain_cli import explain_command

BASE = seed_doc("f16c5768bcd8aade")["record"]
PLACEHOLDER = re.compile(r"\{\{|\}\}|\{[^{}]*\}")


def render(message: str, args: list[str]) -> str:
    """The message as the program prints it, each placeholder replaced by the next argument."""
    it = iter(args)
    return PLACEHOLDER.sub(
        lambda m: m.group()[0] if m.group() in ("{{", "}}") else next(it), message
    )


MESSAGES = [
    "should not pause when having snapshot backfill job {job_id}",
    "Cannot alter the job {} because its creating backfill contains a scan type"
    " that does not support online rescheduling",
    "table {} not found",
    "{} not found",
    "job {} failed: {}",
    "invalid value {:?} for option {name}",
    "actor {actor_id} exited unexpectedly",
    "failed to connect to {addr}: {err}",
    "config key {{{key}}} is deprecated",
    "meta store is not available",
    "function",
    "connection",
    "{}: {}: {}",  # too little literal text to ever be suggested
]


def records() -> list[Record]:
    return [
        Record.model_validate(
            BASE
            | {
                "id": f"{n:016x}",
                "errorMessage": m,
                "messagePattern": message_pattern(m),
                "filePath": f"src/f{n}.rs",
                "lineNumber": n + 1,
            }
        )
        for n, m in enumerate(MESSAGES)
    ]


INDEX = ErrorIndex(records())
ARG = st.from_regex(r"[A-Za-z0-9_:./#@-]{1,24}", fullmatch=True)
TIMESTAMP = st.datetimes().map(lambda d: d.isoformat() + "Z")
MODULE = st.from_regex(r"[a-z_]{1,12}(::[a-z_]{1,12}){0,3}", fullmatch=True)
TAIL = st.sampled_from(
    [
        "",
        "\nCaused by:\n    0: io error: connection reset by peer",
        " caused by: gRPC request to meta service failed: Unavailable",
        "\n\nStack backtrace:\n   0: anyhow::error::<impl>",
    ]
)


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(0, len(MESSAGES) - 2),
    args=st.lists(ARG, min_size=3, max_size=3),
    ts=TIMESTAMP,
    module=MODULE,
    level=st.sampled_from(["ERROR", "WARN", "error:"]),
    tail=TAIL,
)
def test_top_match_is_the_rendered_message(
    n: int, args: list[str], ts: str, module: str, level: str, tail: str
) -> None:
    line = f"{ts} {level} {module}: {render(MESSAGES[n], args)}{tail}"
    assert re.search(message_pattern(MESSAGES[n]), line)
    top = INDEX.search(line, limit=3)
    assert top and top[0].id == f"{n:016x}", (line, top)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Error: table orders not found", ["table {} not found", "{} not found"]),
        ("thing not found", ["{} not found"]),
        ("config key {timeout} is deprecated", ["config key {{{key}}} is deprecated"]),
        ("2024-05-01 INFO all good", []),
        # a message filling its slot beats a longer one inside running text
        ("ERROR rw: function\nCaused by: connection reset", ["function", "connection"]),
        ("a: b: c", []),
        (
            "line one\nmeta store is not available\nactor 7 exited unexpectedly",
            ["meta store is not available", "actor {actor_id} exited unexpectedly"],
        ),
    ],
)
def test_search_table(text: str, expected: list[str]) -> None:
    assert [m.message for m in INDEX.search(text, limit=5)] == expected


@pytest.mark.parametrize(
    ("pattern", "segments"),
    [
        (r"table (.+?) not found", ["table ", " not found"]),
        (r"config key \{(.+?)\} is deprecated", ["config key {", "} is deprecated"]),
        (r"(.+?): (.+?)", [": "]),
        (r"a\.b\d+c", ["a.b", "c"]),
    ],
)
def test_literal_segments(pattern: str, segments: list[str]) -> None:
    assert literal_segments(pattern) == segments


def test_json_output_shape(tmp_path: Path) -> None:
    seed_dataset(tmp_path / "out")
    line = (
        "2026-09-14T16:17:12Z ERROR risingwave_meta::barrier::rpc: "
        "should not pause when having snapshot backfill job 42"
    )
    result = CliRunner().invoke(explain_command, ["--out", str(tmp_path / "out"), "--json", line])
    assert result.exit_code == 0, result.output
    matches = json.loads(result.output)
    assert [m["id"] for m in matches] == ["f16c5768bcd8aade"]
    # the records' own key names, camelCase, plus what only a match has
    assert list(matches[0]) == [
        "id",
        "repo",
        "score",
        "exact",
        "errorMessage",
        "messagePattern",
        "filePath",
        "lineNumber",
        "enclosingItem",
        "githubUrl",
        "page",
        "solutions",
    ]
    assert matches[0]["page"].startswith("risingwavelabs/risingwave/f16c5768bcd8aade-")
    assert matches[0]["lineNumber"] == 1074 and matches[0]["score"] > 40
    assert matches[0]["exact"] is True
    assert matches[0]["errorMessage"] == BASE["errorMessage"]


def test_text_output_reads_stdin_and_strips_control_characters(tmp_path: Path) -> None:
    rec = BASE | {
        "id": "e" * 16,
        "repo": "acme/db",
        "errorMessage": "boom \x1b[2J{}",
        "messagePattern": "boom \x1b\\[2J(.+?)",
    }
    write_dataset(tmp_path / "out", "acme/db", [rec])
    result = CliRunner().invoke(
        explain_command, ["--out", str(tmp_path / "out")], input="log: boom \x1b[2Jnow\n"
    )
    assert result.exit_code == 0, result.output
    assert "1. boom ?[2J{}" in result.output and "\x1b" not in result.output
    assert "acme/db · src/meta/src/barrier/rpc.rs:1074" in result.output


def test_no_match_and_no_dataset_exit_non_zero(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(explain_command, ["--out", str(tmp_path / "none"), "x"])
    assert missing.exit_code == 1 and "errdoc extract" in missing.output
    seed_dataset(tmp_path / "out")
    nothing = runner.invoke(explain_command, ["--out", str(tmp_path / "out"), "all", "is", "well"])
    assert nothing.exit_code == 1


def test_index_from_datasets(tmp_path: Path) -> None:
    seed_dataset(tmp_path)
    index = ErrorIndex.from_datasets(load_all(tmp_path))
    assert index.size == 2


def test_ten_thousand_patterns_answer_in_milliseconds() -> None:
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = {"".join(rng.choices(letters, k=rng.randint(3, 9))) for _ in range(3000)}
    vocab = [*sorted(words), "failed", "to", "the", "not", "found", "job"]
    messages = [" ".join(rng.choices(vocab, k=rng.randint(2, 7))) + " {}" for _ in range(10_000)]
    patterns = [message_pattern(m) for m in messages]
    index = ErrorIndex(
        [
            Record.model_validate(
                BASE | {"id": f"{n:016x}", "errorMessage": m, "messagePattern": p}
            )
            for n, (m, p) in enumerate(zip(messages, patterns, strict=True))
        ]
    )
    assert index.size == 10_000
    times = []
    for n, m in enumerate(messages[:300]):
        line = f"2024-01-01T00:00:00Z ERROR a::b: {render(m, ['1234'])}\nCaused by: reset"
        start = time.perf_counter()
        top = index.search(line)
        times.append(time.perf_counter() - start)
        # the same message drawn twice has the same pattern: either record is a right answer
        assert top and patterns[int(top[0].id, 16)] == patterns[n], (line, top[:3])
    assert statistics.median(times) < 0.005  # the target; typical is well under 1 ms


def test_a_pattern_that_is_not_a_regex_never_matches_and_spoils_nothing() -> None:
    broken = Record.model_construct(
        **(BASE | {"id": "b" * 16, "errorMessage": "table broken", "messagePattern": "table ([x"})
    )
    index = ErrorIndex([broken, *records()])
    assert [m.message for m in index.search("Error: table ([x not found")] == [
        "table {} not found",
        "{} not found",
    ]


def test_a_value_that_prints_nothing_still_finds_its_message() -> None:
    """rustup's "toolchain '{}' is not installed{}" prints its last value only sometimes;
    the pasted "error: toolchain 'nightly' is not installed" found nothing before."""
    message = "toolchain '{}' is not installed{}"
    record = Record.model_validate(
        BASE | {"id": "c" * 16, "errorMessage": message, "messagePattern": message_pattern(message)}
    )
    index = ErrorIndex([record, *records()])
    (top, *_) = index.search("error: toolchain 'nightly-x86_64' is not installed")
    assert top.message == message
    # the record's own pattern keeps SPEC 4's `(.+?)`: only the search lets it be empty
    assert record.messagePattern == "toolchain '(.+?)' is not installed(.+?)"


def test_a_message_that_is_only_an_error_word_answers_nothing() -> None:
    """nushell has a record whose whole message is "error": it answered every pasted error
    that nothing else matched ("error: justfile does not contain recipe `build`")."""
    bare = Record.model_validate(
        BASE | {"id": "d" * 16, "errorMessage": "Error", "messagePattern": "Error"}
    )
    index = ErrorIndex([bare, *records()])
    assert index.search("error: justfile does not contain recipe `build`") == []
    assert index.size == ErrorIndex(records()).size
