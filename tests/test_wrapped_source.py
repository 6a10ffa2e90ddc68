"""The class an error's wrapped source says, when its message prints it: just's "failed to
read cache entry at `{}`: {source}" held a `serde_json::Error` (the file was read already;
its JSON did not parse) and read "I/O error" by its verb (reading 281)."""

from __future__ import annotations

import pytest
from site_fixtures import explained


def _attr(message: str, fields: str) -> str:
    return (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum CacheError {\n"
        f'    #[error("{message}")]\n'
        f"    Entry {{ {fields} }},\n"
        "}\n"
    )


@pytest.mark.parametrize(
    ("message", "fields", "tag"),
    [
        # the verb says I/O, the source says the JSON did not parse
        (
            "failed to read cache entry at {path}: {source}",
            "path: String, source: serde_json::Error",
            "parse-error",
        ),
        (
            "could not open config at {filename}: {inner}",
            "filename: String, inner: std::io::Error",
            "io-error",
        ),
        (
            "cannot load {value}: {err}",
            "value: String, err: Box<std::num::ParseIntError>",
            "parse-error",
        ),
    ],
)
def test_the_source_the_message_prints_says_how_it_failed(
    message: str, fields: str, tag: str
) -> None:
    assert explained(_attr(message, fields)).backgroundTag == tag


@pytest.mark.parametrize(
    ("message", "fields"),
    [
        # not printed: the message's words decide, as before
        ("failed to read cache entry at {path}", "path: String, source: serde_json::Error"),
        # serde's error of an encoder: no parse
        ("Failed to encode series metric to JSON: {source}", "source: serde_json::Error"),
    ],
)
def test_a_source_not_printed_or_an_encoder_s_decides_nothing(message: str, fields: str) -> None:
    assert explained(_attr(message, fields)).backgroundTag not in ("parse-error",)
