"""serde's `de::Error::missing_field("max_size")` and `duplicate_field("max_size")` take a
field's name and write the message themselves: "missing field `max_size`". A stop 54
reading found records whose message was the bare field name ("max_size", vector's buffer
config), a text no user ever reads (FALSE)."""

from __future__ import annotations

import re

from pipeline.analyze.taxonomy import classify
from pipeline.languages.rust.sites import find_sites

SOURCE = b"""\
fn visit_map(mut map: M) -> Result<Config, M::Error> {
    if seen {
        return Err(de::Error::duplicate_field("max_size"));
    }
    let max_size = max_size.ok_or_else(|| serde::de::Error::missing_field("max_size"))?;
    if twice {
        return Err(<M::Error as Error>::duplicate_field("chars"));
    }
    Err(Error::custom("the buffer is not configured"))
}
"""


def test_serde_s_field_constructors_carry_serde_s_message() -> None:
    sites = {s.message: s for s in find_sites("src/config.rs", SOURCE).sites}

    assert sorted(sites) == [
        # by its trait's qualified path (alacritty's, reading 290: it read "chars")
        "duplicate field `chars`",
        "duplicate field `max_size`",
        "missing field `max_size`",
        "the buffer is not configured",
    ]
    rendered = "missing field `max_size` at line 3 column 1"  # serde_json adds the place
    assert re.match(sites["missing field `max_size`"].pattern, rendered)


def test_they_are_a_document_of_the_wrong_shape() -> None:
    # not "not found" (create it first), nor "already exists", nor a password's class
    for message in (
        "missing field `max_size`",
        "duplicate field `level`",
        "missing field `password`",
    ):
        assert classify(message, "constructor") == "parse-error"
