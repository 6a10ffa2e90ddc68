"""Parsing only the items that can hold a site never changes what is found."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.languages.rust.regions import is_test_file, ranges_of, relevant_units, site_hints
from pipeline.languages.rust.sites import find_sites

FIXTURES = Path(__file__).parent / "fixtures" / "rust"


def big_impl(members: int = 60) -> bytes:
    """A rustfmt-shaped file: a large impl whose few members hold sites, doc comments with `;`."""
    parts = [
        "use anyhow::Result;\n\n",
        "/// The store; it keeps things.\n",
        "#[derive(Debug)]\n",
        "pub struct Store {\n    paused: bool,\n}\n\n",
        "impl<T> Store\nwhere\n    T: Clone,\n{\n",
    ]
    for i in range(members):
        if i % 15 == 7:
            parts.append(
                f"    /// Member {i} does things;\n"
                f"    /// e.g. select 1;\n"
                f"    #[inline]\n"
                f"    pub fn member_{i}(&self) -> Result<()> {{\n"
                f"        if self.paused {{\n"
                f'            anyhow::bail!("member {i} refused while paused");\n'
                f"        }}\n"
                f"        Ok(())\n"
                f"    }}\n\n"
            )
        else:
            parts.append(
                f"    fn filler_{i}(&self) -> u64 {{\n"
                + "".join(f"        let x{j} = {j} * {i};\n" for j in range(8))
                + "        x0\n    }\n\n"
            )
    parts.append('}\n\n#[cfg(test)]\nmod tests {\n    fn t() { panic!("test only"); }\n}\n')
    return "".join(parts).encode()


def test_a_large_impl_is_parsed_by_member_with_the_same_result() -> None:
    source = big_impl()
    ranges = ranges_of(source, relevant_units(source, site_hints(source)))
    assert ranges is not None  # the shortcut is taken...
    parsed = sum(r.end_byte - r.start_byte for r in ranges)
    assert parsed < len(source) / 3  # ...and skips most of the file
    fast, exact = find_sites("src/store.rs", source), find_sites("src/store.rs", source, whole=True)
    assert fast == exact
    assert [s.facts.enclosing_impl for s in fast.sites] == ["Store"] * 4
    assert fast.sites[0].facts.fn_doc == "Member 7 does things;\ne.g. select 1;"


def test_a_member_parsed_alone_still_reads_its_impl_s_associated_type() -> None:
    fillers = "".join(
        f"    fn filler_{i}(&self) -> u64 {{\n"
        + "        let x = 1;\n" * 8
        + "        x\n    }\n\n"
        for i in range(20)
    )
    source = (
        "impl FromStr for Mode {\n"
        "    /// What a bad mode gives.\n"
        "    type Err = ParseModeError;\n\n"
        f"{fillers}"
        "    fn from_str(s: &str) -> Result<Self, Self::Err> {\n"
        '        Err(ParseModeError::new("unknown mode"))\n'
        "    }\n"
        "}\n"
    ).encode()
    ranges = ranges_of(source, relevant_units(source, site_hints(source)))
    assert ranges is not None and sum(r.end_byte - r.start_byte for r in ranges) < len(source) / 3
    fast = find_sites("src/mode.rs", source)
    assert fast == find_sites("src/mode.rs", source, whole=True)
    assert [s.facts.return_type for s in fast.sites] == ["Result<Self, ParseModeError>"]


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.rs")), ids=lambda p: p.name)
def test_every_fixture_gives_what_a_whole_parse_gives(fixture: Path) -> None:
    source = fixture.read_bytes()
    assert find_sites(f"src/{fixture.name}", source) == find_sites(
        f"src/{fixture.name}", source, whole=True
    )


def test_a_wrong_cut_falls_back_to_the_whole_file() -> None:
    # A column-0 line inside a raw string looks like an item start to the cutter.
    source = (
        b'fn a() -> anyhow::Result<()> {\n    let s = r#"\n\nfn fake() {"#;\n'
        b'    anyhow::bail!("real {}", s);\n}\n'
    )
    assert find_sites("src/a.rs", source) == find_sites("src/a.rs", source, whole=True)
    assert [s.message for s in find_sites("src/a.rs", source).sites] == ["real {}"]


def test_a_message_far_below_its_macro_is_still_found() -> None:
    condition = "".join(f"                        .step_{i}(\n" for i in range(40))
    source = (
        "pub fn check(&self) {\n"
        "    for x in &self.items {\n"
        "        assert!(\n"
        f"            x{condition}" + "                        )" * 40 + ",\n"
        '            "duplicate item {} in {}",\n'
        "            x,\n"
        "            self.name\n"
        "        );\n"
        "    }\n"
        "}\n"
    ).encode()
    assert len(source) > 2000
    found = find_sites("src/a.rs", source)
    assert [s.message for s in found.sites] == ["duplicate item {} in {}"]
    assert found == find_sites("src/a.rs", source, whole=True)


@pytest.mark.parametrize(
    ("source", "hinted"),
    [
        (b'fn f() { Err(e)?; let s = "x"; }', False),  # the literal is in the next statement
        (b"fn f() { assert!(ok); }", False),
        (b'fn f() { return Err(format!("bad {x}")); }', True),
        (b"fn f() { x.context(MSG)?; }", False),
        (b"type MetaResult<T> = Result<T, MetaError>;", True),  # an alias needs no literal
    ],
)
def test_a_needle_counts_only_with_a_literal_before_the_statement_ends(
    source: bytes, hinted: bool
) -> None:
    assert bool(site_hints(source)) is hinted


def test_an_attribute_cut_off_by_a_blank_line_still_marks_its_item() -> None:
    source = b'#[cfg(test)]\n\nmod checks {\n    fn f() { panic!("only in tests"); }\n}\n'
    assert find_sites("src/a.rs", source) == find_sites("src/a.rs", source, whole=True)
    assert find_sites("src/a.rs", source).sites == ()


@pytest.mark.parametrize(
    ("head", "test_only"),
    [
        ("#![cfg(test)]\n", True),
        ('// Copyright\n\n#![cfg(all(test, feature = "x"))]\n', True),
        ("/* licence\n * text\n */\n#![cfg(test)]\n", True),
        ("#![allow(dead_code)]\n", False),
        ("#![cfg(not(test))]\n", False),
        ("use x;\nmod tests {\n    #![cfg(test)]\n}\n", False),  # a test module, not a test file
    ],
)
def test_a_test_inner_attribute_at_the_head_makes_the_file_test_code(
    head: str, test_only: bool
) -> None:
    source = (head + 'fn f() -> u32 {\n    panic!("reached");\n}\n').encode()
    assert is_test_file(source) is test_only
    assert find_sites("src/a.rs", source) == find_sites("src/a.rs", source, whole=True)


def test_a_doc_comment_cut_off_by_a_blank_line_still_documents_its_fn() -> None:
    """The comment ends the chunk above, which holds no site and is not parsed."""
    source = (
        b"const LIMIT: u32 = 1;\n/// Drains the queue.\n\n"
        b'fn drain() -> anyhow::Result<()> {\n    anyhow::bail!("queue gone");\n}\n'
    )
    fast, whole = find_sites("src/a.rs", source), find_sites("src/a.rs", source, whole=True)
    assert fast == whole
    assert fast.sites[0].facts.fn_doc == "Drains the queue."


def test_a_lead_inside_a_parsed_item_above_overlaps_it_harmlessly() -> None:
    source = (
        b'fn above() {\n    panic!("above failed");\n}\nconst LIMIT: u32 = 1;\n'
        b"/// Drains the queue.\n\nfn drain() -> anyhow::Result<()> {\n"
        b'    anyhow::bail!("queue gone");\n}\n'
    )
    fast = find_sites("src/a.rs", source)
    assert fast == find_sites("src/a.rs", source, whole=True)
    assert fast.sites[1].facts.fn_doc == "Drains the queue."


def test_a_semicolon_in_a_closure_block_of_the_condition_does_not_end_the_assert() -> None:
    """The message after `{ let y = ..; .. }` still makes the assert a site (qdrant's
    `debug_assert!(to_update.iter().all(|(u, d)| { let u = ..; u.is_disjoint(..) }), "..")`)."""
    source = (
        b"fn split() {\n    debug_assert!(\n        updates.iter().all(|u| {\n"
        b"            let seen = u.len();\n            seen > 0\n        }),\n"
        b'        "segments should not have overlapping updates",\n    );\n}\n'
    )
    assert site_hints(source)
    scan = find_sites("src/a.rs", source)
    assert [(s.line, s.message) for s in scan.sites] == [
        (2, "segments should not have overlapping updates")
    ]
    assert scan == find_sites("src/a.rs", source, whole=True)
    assert not site_hints(b'fn f() {\n    assert!(ready);\n    let s = "later";\n}\n')
