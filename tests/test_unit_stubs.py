"""A method of `impl Trait for ()` that does nothing but panic is a placeholder's: `()` stands
where a `Trait` is expected, and runs only where code gives it as one. pingora's `impl Session
for ()`, every method `unreachable!("server session: ..")`, read "`()::write_body` .. a bug,
not something to fix in your input" (reading 201)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_crate_only import explained
from test_reach import graph_of


def placeholder(body: str = 'unreachable!("server session: write_body")', owner: str = "()") -> str:
    return (
        "pub trait Session {\n    fn write_body(&mut self, data: Vec<u8>);\n}\n"
        f"impl Session for {owner} {{\n"
        "    fn write_body(&mut self, _data: Vec<u8>) {\n"
        f"        {body};\n"
        "    }\n"
        "}\n"
    )


def test_a_placeholder_s_panic_says_what_stands_in_and_what_to_give(tmp_path: Path) -> None:
    found = explained(tmp_path, placeholder())

    assert found.backgroundTag == "unsupported-operation"
    assert found.solutions[0] == (
        "`<() as Session>::write_body` is a placeholder: `impl Session for ()` lets `()` stand "
        "where a `Session` is expected, and this method of it only panics (`unreachable!`). "
        "It runs only when code gives `()` as its `Session` and then calls it: give a type "
        "that implements `Session` for real there."
    )
    assert not any(s.startswith("This is a bug") for s in found.solutions)
    assert "A panic here is a bug" not in found.exampleFix
    assert "in <() as Session>::write_body (src/lib.rs)" in found.exampleFix
    assert found.preventionTips[0] == (
        "Give a type that implements `Session` for real wherever one is expected."
    )


@pytest.mark.parametrize(
    ("body", "owner"),
    [
        ('unreachable!("server session: write_body")', "Vec<u8>"),  # a real type's method
        # it does something first: no placeholder
        ('let _n = _data.len();\n        unreachable!("server session: write_body")', "()"),
    ],
)
def test_a_real_type_s_or_a_working_method_s_panic_is_no_placeholder(
    tmp_path: Path, body: str, owner: str
) -> None:
    found = explained(tmp_path, placeholder(body, owner))

    assert found.backgroundTag != "unsupported-operation"
    assert not any("is a placeholder" in s for s in found.solutions)


def test_a_placeholder_s_hop_is_named_as_its_prose_names_it(tmp_path: Path) -> None:
    text = placeholder() + (
        "pub fn send(session: &mut dyn Session) {\n    session.write_body(vec![1]);\n}\n"
    )
    files = {"Cargo.toml": '[package]\nname = "tool"\n', "src/lib.rs": text}
    graph = graph_of(tmp_path, files)

    assert "<() as Session>::write_body" in {node.label for node in graph.nodes}
    assert "()::write_body" not in {node.label for node in graph.nodes}
