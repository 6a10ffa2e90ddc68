"""A public accessor named for its panic (`expect_literal`) panics by design on a value it
does not expect: the code that calls it chose to. ruff's generated `expect_*` accessors
read "a bug, not something to fix in your input" (reading 160)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_crate_only import explained


def accessor(visibility: str, name: str = "expect_literal") -> str:
    return (
        "#[derive(Debug)]\n"
        "pub enum Element {\n    Literal(String),\n    Other,\n}\n"
        "impl Element {\n"
        f"    {visibility}fn {name}(self) -> String {{\n"
        "        match self {\n"
        "            Element::Literal(text) => text,\n"
        '            other => panic!("called expect on {other:?}"),\n'
        "        }\n"
        "    }\n"
        "}\n"
    )


def test_a_public_accessor_s_panic_is_its_caller_s_choice(tmp_path: Path) -> None:
    found = explained(tmp_path, accessor("pub "))

    assert found.solutions[0].startswith(
        "`Element::expect_literal` panics by design, as its name says, when it is called on a "
        "value it does not expect: the code that calls it decided the value would be one."
    )
    assert not any(s.startswith("This is a bug") for s in found.solutions)
    assert "A panic here is a bug" not in found.exampleFix
    assert "// `Element::expect_literal` panics by design" in found.exampleFix


@pytest.mark.parametrize(
    ("visibility", "name"),
    [("", "expect_literal"), ("pub(crate) ", "expect_literal"), ("pub ", "literal_or_panic")],
)
def test_a_crate_only_or_otherwise_named_fn_s_panic_stays_its_own_bug(
    tmp_path: Path, visibility: str, name: str
) -> None:
    found = explained(tmp_path, accessor(visibility, name))

    assert not any("panics by design" in s for s in found.solutions)


def test_a_fn_named_so_that_reads_what_it_is_given_is_no_accessor(tmp_path: Path) -> None:
    # risingwave's `expect_first_barrier(stream)`: the first message a stream sends
    text = accessor("pub ").replace("fn expect_literal(self)", "fn expect_literal(self, n: u8)")

    found = explained(tmp_path, text)

    assert not any("panics by design" in s for s in found.solutions)


def test_a_public_accessor_s_class_is_its_caller_s_argument(tmp_path: Path) -> None:
    found = explained(tmp_path, accessor("pub "))

    assert found.backgroundTag == "invalid-argument"
    assert "Class: Invalid argument." in found.documentation
    assert found.preventionTips[0] == (
        "Call `Element::expect_literal` only on a value it expects, or use an accessor that "
        "gives an `Option` or a `Result`."
    )
