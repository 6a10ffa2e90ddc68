"""Rust literals, format strings, message patterns and slugs (SPEC 4)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.dataset.records import slugify
from pipeline.languages.rust.formats import (
    decode_rust_string,
    literal_segments,
    message_pattern,
    placeholders,
)

# The seeds' two JSON records, copied into the repository (shared/ is not part of a clone).
SEEDS = Path(__file__).parent / "golden" / "seed_records"


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        ('"plain"', "plain"),
        ('""', ""),
        (r'"a\nb\rc\td"', "a\nb\rc\td"),
        (r'"back\\slash \0 nul"', "back\\slash \0 nul"),
        (r'"quote \" and \' apostrophe"', "quote \" and ' apostrophe"),
        (r'"hex \x41\x7f"', "hex A\x7f"),
        (r'"smile \u{1F600} e \u{e9} \u{1_F600}"', "smile \U0001f600 e é \U0001f600"),
        ('"unicode as written: é 日本"', "unicode as written: é 日本"),
        ('"format {job_id} {{x}} kept"', "format {job_id} {{x}} kept"),
        ('"line one \\\n        continues"', "line one continues"),
        ('"skips \\\n\n   \t blank lines"', "skips blank lines"),
        ('"crlf \\\r\n    continues"', "crlf continues"),
        ('"a real\nnewline"', "a real\nnewline"),
        ('"crlf\r\nnormalised"', "crlf\nnormalised"),
        (r'r"raw \n {x} \"', r"raw \n {x} " + "\\"),
        ('r#"has "quotes" inside"#', 'has "quotes" inside'),
        ('r##"has "# inside"##', 'has "# inside'),
        ('r""', ""),
        (r'b"bytes \x41 \n"', "bytes A \n"),
        (r'b"\xe6\x97\xa5"', "日"),
        (r'b"\xff"', "\ufffd"),
        (r'br"raw \bytes"', "raw \\bytes"),
        (r'c"c string \u{e9} \x41"', "c string é A"),
        ('cr#"raw c "x""#', 'raw c "x"'),
    ],
)
def test_decode_rust_string(literal: str, value: str) -> None:
    assert decode_rust_string(literal) == value


@pytest.mark.parametrize(
    "literal",
    [
        "plain",  # no quotes
        "'c'",  # a char literal
        "b'c'",  # a byte literal
        '"unterminated',
        '"trailing backslash\\"',
        '"two" "literals"',
        '"suffix"abc',
        'rb"wrong prefix order"',
        'r#"unbalanced"',
        'r"inner " quote"',
        'r#"early "# close"#',
        r'"bad escape \q"',
        r'"short hex \x4"',
        r'"str hex above ascii \x80"',
        r'"empty unicode \u{}"',
        r'"too long unicode \u{1000000}"',
        r'"surrogate \u{D800}"',
        r'"leading underscore \u{_1}"',
        r'"no braces \u0041"',
        r'b"no unicode in bytes \u{41}"',
        'b"non-ascii é in bytes"',
        "",
    ],
)
def test_decode_rust_string_rejects(literal: str) -> None:
    with pytest.raises(ValueError):
        decode_rust_string(literal)


@pytest.mark.parametrize(
    ("message", "pattern"),
    [
        (
            "should not pause when having snapshot backfill job {job_id}",
            "should not pause when having snapshot backfill job (.+?)",
        ),
        (
            "Cannot alter the job {} because its creating backfill contains a scan type"
            " that does not support online rescheduling",
            "Cannot alter the job (.+?) because its creating backfill contains a scan type"
            " that does not support online rescheduling",
        ),
        (
            "cannot create batch refresh job while database barrier is paused",
            "cannot create batch refresh job while database barrier is paused",
        ),
        ("{0} and {1}", "(.+?) and (.+?)"),
        ("value {:?} of {name:?}", "value (.+?) of (.+?)"),
        (
            "padded [{x:>8}] [{:<5}] [{:^7}] [{:*^9}] [{:08.3}]",
            r"padded \[(.+?)\] \[(.+?)\] \[(.+?)\] \[(.+?)\] \[(.+?)\]",
        ),
        (
            "width {:width$} prec {:.prec$} star {:.*} {0:.3}",
            "width (.+?) prec (.+?) star (.+?) (.+?)",
        ),
        (
            "sign {:+} hex {:#x} {:#010b} {:e} {:x?} {:X?}",
            "sign (.+?) hex (.+?) (.+?) (.+?) (.+?) (.+?)",
        ),
        (
            "pretty {:#?} and {state:#?} and {0:#x?}",
            r"pretty ([\s\S]+?) and ([\s\S]+?) and ([\s\S]+?)",
        ),
        (
            "raw ident {r#type} tuple field {0.name} unicode {größe}",
            "raw ident (.+?) tuple field (.+?) unicode (.+?)",
        ),
        ("trailing space {0:?  }", "trailing space (.+?)"),
        ("fill is a brace {:}>5}", "fill is a brace (.+?)"),
        ("{}{}", "(.+?)(.+?)"),
        ("{{literal}} {{}} {{{}}}", r"\{literal\} \{\} \{(.+?)\}"),
        ('json {{"a": {}}}', r'json \{"a": (.+?)\}'),
        ("regex chars .*+?()[]|^$\\ kept", r"regex chars \.\*\+\?\(\)\[\]\|\^\$\\ kept"),
        ("newline\nand\ttab", "newline\\\nand\\\ttab"),
        ("lone { brace", r"lone \{ brace"),
        ("lone } brace", r"lone \} brace"),
        ("not a placeholder {foo bar}", r"not a placeholder \{foo bar\}"),
        ("unclosed {name", r"unclosed \{name"),
        ("", ""),
    ],
)
def test_message_pattern(message: str, pattern: str) -> None:
    assert message_pattern(message) == pattern


@pytest.mark.parametrize(
    ("message", "pattern"),
    [
        ("should exist", "should exist"),
        ("map {key} missing", r"map \{key\} missing"),
        ("doubled {{ stay }} doubled", r"doubled \{\{ stay \}\} doubled"),
        ("lone { brace", r"lone \{ brace"),
    ],
)
def test_message_pattern_not_a_format_string(message: str, pattern: str) -> None:
    assert message_pattern(message, is_format=False) == pattern
    assert re.fullmatch(pattern, message)


@pytest.mark.parametrize(
    ("message", "specs"),
    [
        ("should not pause when having snapshot backfill job {job_id}", ["job_id"]),
        ("{job_id} {} {:?}", ["job_id", "", ":?"]),
        ("{x:>8} {:#?} {0:.3} {:width$}", ["x:>8", ":#?", "0:.3", ":width$"]),
        ("{{escaped}} lone { and }", []),
        ("no placeholders", []),
    ],
)
def test_placeholders(message: str, specs: list[str]) -> None:
    assert placeholders(message) == specs


@pytest.mark.parametrize(
    ("message", "is_format", "segments"),
    [
        (
            "should not pause when having snapshot backfill job {job_id}",
            True,
            ["should not pause when having snapshot backfill job "],
        ),
        ("{} not found in {:?}", True, [" not found in "]),
        ("{{table}} {} gone", True, ["{table} ", " gone"]),
        ("{}{}", True, []),
        ("map {key} {{x}}", False, ["map {key} {{x}}"]),
    ],
)
def test_literal_segments(message: str, is_format: bool, segments: list[str]) -> None:
    assert literal_segments(message, is_format) == segments


@pytest.mark.parametrize(
    ("message", "slug"),
    [
        (
            "Cannot alter the job {} because its creating backfill contains a scan type"
            " that does not support online rescheduling",
            "cannot-alter-the-job-because-its-creating-backf",
        ),
        (
            "should not pause when having snapshot backfill job {job_id}",
            "should-not-pause-when-having-snapshot-backfill-job",
        ),
        ("  --Leading and trailing!!  ", "leading-and-trailing"),
        ("Table `t1` (id=42) not found", "table-t1-id-42-not-found"),
        ("naïve café", "na-ve-caf"),  # ASCII only, as the seeds
        ("{}", ""),
        ("Ошибка", ""),
        ("x" * 60, "x" * 50),
    ],
)
def test_slugify(message: str, slug: str) -> None:
    assert slugify(message) == slug


@pytest.mark.parametrize("seed", sorted(SEEDS.glob("*.json")), ids=lambda p: p.stem)
def test_seed_records_agree(seed: Path) -> None:
    text = seed.read_text(encoding="utf-8")
    record = json.loads(text)["record"]
    assert message_pattern(record["errorMessage"]) == record["messagePattern"]
    assert slugify(record["errorMessage"]) == record["slug"]


# --- property: every rendering of a format string is matched by its pattern ---------------


@dataclass(frozen=True)
class Placeholder:
    """A generated placeholder: its source text and how Rust would lay out its argument."""

    source: str
    fill: str = " "
    align: str = ""
    width: int = 0
    multiline: bool = False


def render(pieces: list[str | Placeholder], args: list[str]) -> str:
    """Render like Rust's `format!`: `{{`/`}}` unescape, width pads (strings: left)."""
    out = []
    values = iter(args)
    for piece in pieces:
        if isinstance(piece, str):
            out.append(piece.replace("{{", "{").replace("}}", "}"))
            continue
        value = next(values)
        pad = max(0, piece.width - len(value))
        if piece.align == ">":
            value = piece.fill * pad + value
        elif piece.align == "^":
            value = piece.fill * (pad // 2) + value + piece.fill * (pad - pad // 2)
        else:
            value = value + piece.fill * pad
        out.append(value)
    return "".join(out)


literal_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(list(".*+?()[]{}|^$\\-#&~ \n\t")),
    ),
    max_size=12,
).map(lambda s: s.replace("{", "{{").replace("}", "}}"))

identifier = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True).filter(lambda s: s != "_")

placeholder = st.one_of(
    st.just(Placeholder("{}")),
    st.integers(0, 9).map(lambda n: Placeholder(f"{{{n}}}")),
    identifier.map(lambda name: Placeholder(f"{{{name}}}")),
    st.just(Placeholder("{:?}")),
    identifier.map(lambda name: Placeholder(f"{{{name}:?}}")),
    st.just(Placeholder("{:#?}", multiline=True)),
    st.builds(
        lambda name, fill, align, width: Placeholder(
            f"{{{name}:{fill}{align}{width}}}", fill or " ", align, width
        ),
        identifier,
        st.sampled_from(["", "*", "-", "0", "}", "é"]),
        st.sampled_from(["<", ">", "^"]),
        st.integers(1, 12),
    ),
)

one_line_value = st.text(
    st.characters(codec="utf-8", exclude_characters="\n"), min_size=1, max_size=10
)
# A pretty-printed Debug rendering: several lines, as `{:#?}` writes them.
multi_line_value = st.lists(one_line_value, min_size=2, max_size=4).map("\n".join)


@st.composite
def format_and_rendering(draw: st.DrawFn) -> tuple[str, str]:
    pieces: list[str | Placeholder] = draw(
        st.lists(st.one_of(literal_text, placeholder), max_size=8)
    )
    args = [
        draw(multi_line_value if piece.multiline else one_line_value)
        for piece in pieces
        if isinstance(piece, Placeholder)
    ]
    fmt = "".join(p if isinstance(p, str) else p.source for p in pieces)
    return fmt, render(pieces, args)


@settings(max_examples=400, deadline=None)
@given(format_and_rendering())
def test_pattern_matches_every_rendering(case: tuple[str, str]) -> None:
    fmt, rendered = case
    assert re.fullmatch(message_pattern(fmt), rendered), (fmt, rendered)


def test_empty_argument_is_deliberately_not_matched() -> None:
    assert re.fullmatch(message_pattern("job {} failed"), "job  failed") is None
    assert re.fullmatch(message_pattern("job {} failed"), "job 7 failed")


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8")))
def test_any_text_gives_a_pattern_that_compiles(message: str) -> None:
    pattern = re.compile(message_pattern(message))
    assert pattern.groups == len(placeholders(message))


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(codec="utf-8")))
def test_non_format_pattern_matches_message_as_written(message: str) -> None:
    assert re.fullmatch(message_pattern(message, is_format=False), message)


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(codec="utf-8"), max_size=80))
def test_slug_shape(message: str) -> None:
    slug = slugify(message)
    assert re.fullmatch(r"([a-z0-9]+(-[a-z0-9]+)*)?", slug)
    assert len(slug) <= 50


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8")))
def test_decode_inverts_rust_quoting(value: str) -> None:
    quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    # rustc reads a CRLF in the source as LF, and so does the decoder.
    assert decode_rust_string(quoted) == value.replace("\r\n", "\n")
    if '"#' not in value:
        assert decode_rust_string('r#"' + value + '"#') == value.replace("\r\n", "\n")
