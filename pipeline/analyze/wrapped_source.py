"""The class an error's wrapped source says, when its message prints it: a variant that
holds a `serde_json::Error` and prints it failed to parse, whatever verb its message leads
with ("failed to read cache entry at `{}`: {source}": just's, where the file had been read
already and the JSON in it did not parse; reading 281 read "I/O error"). Only the parse
errors of std and of the crates nearly every repository uses, and std's `io::Error`. Pure."""

from __future__ import annotations

import re

from pipeline.analyze.taxonomy import IO_ERROR, PARSE_ERROR
from pipeline.core.sitetypes import Site
from pipeline.languages import language_of

# A type by its path's tail: serde's formats' errors, std's number parses, `url`, `chrono`,
# `semver`, `toml_edit`; and std's (or tokio's) `io::Error`
_PARSE_TYPES = re.compile(
    r"(?:(?:::)?\w+::)*?(?:serde_json::Error|serde_yaml::Error|toml::de::Error"
    r"|toml_edit::TomlError|toml_edit::de::Error|Parse(?:Int|Float)Error|url::ParseError"
    r"|chrono::ParseError|semver::Error)"
)
_IO_TYPES = re.compile(r"(?:(?:::)?std::|tokio::)?io::Error")
# a message of writing a format out: serde's error then is the encoder's, no parse (vector's
# "Failed to encode series metric to JSON: {source}")
_ENCODES = re.compile(r"(?i)\b(?:encod|seriali[sz])")


def source_class(site: Site) -> str | None:
    """`PARSE_ERROR` or `IO_ERROR` when the site's variant (or struct) has a field of such a
    type, boxed or not, that its message prints (`{source}`, `{0}`); None otherwise (two
    such fields of different classes say nothing)."""
    slots = language_of(site.file_path).placeholders(site.message) if site.is_format else []
    printed = {slot.partition(":")[0].strip() for slot in slots}
    found = set()
    for name, written in site.facts.fields:
        if name not in printed:
            continue
        bare = written.removeprefix("Box<").removesuffix(">").strip()
        if _PARSE_TYPES.fullmatch(bare):
            if _ENCODES.search(site.message):
                return None
            found.add(PARSE_ERROR)
        elif _IO_TYPES.fullmatch(bare):
            found.add(IO_ERROR)
    return found.pop() if len(found) == 1 else None
