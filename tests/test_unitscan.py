"""A changed file parses only its changed units, and finds exactly what a whole parse finds."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from test_regions import FIXTURES, big_impl

from pipeline.core.sitetypes import FileScan
from pipeline.languages.rust.regions import relevant_units, site_hints
from pipeline.languages.rust.sites import find_sites
from pipeline.languages.rust.unitscan import file_context, find_sites_after, unit_key, unit_scans

PATH = "src/meta/src/store.rs"


def scanned_after(before: bytes, after: bytes, *, split: bool = True) -> FileScan:
    """Scan `after` knowing `before`'s scan; checked against the plain and the whole scan.

    `split=False`: `before` is one a previous scan is not split for (test-only or broken),
    so the file is scanned whole; otherwise the unit path must be the one taken.
    """
    known = unit_scans(before, find_sites(PATH, before))
    if not split:
        assert known is None
        got = find_sites(PATH, after)
    else:
        assert known is not None
        got = find_sites_after(PATH, after, known)
    whole = find_sites(PATH, after, whole=True)
    assert got == find_sites(PATH, after)
    if not whole.parse_errors:  # a broken file's whole parse recovers its own way
        assert got == whole
    return got


def new_units(before: bytes, after: bytes) -> int:
    """How many of `after`'s units `before` does not have: what `find_sites_after` parses."""
    known = unit_scans(before, find_sites(PATH, before)) or {}
    units = relevant_units(after, site_hints(after))
    context = file_context(after)
    return sum(1 for unit in units if unit_key(after, unit, context) not in known)


def text(source: bytes) -> str:
    return source.decode()


EDITS: list[tuple[str, Callable[[str], str]]] = [
    ("lines inserted above everything", lambda s: "// a\n// b\n\n" + s),
    ("a member edited", lambda s: s.replace("member 22 refused", "member 22 was refused")),
    ("a filler member grown", lambda s: s.replace("let x3 = 3 * 4;", "let x3 = 3 * 4;\n" * 3)),
    ("the impl renamed", lambda s: s.replace("impl<T> Store\n", "impl<T> Depot\n")),
    ("a member's guard changed", lambda s: s.replace("if self.paused {", "if !self.paused {", 1)),
    (
        "a test attribute above a blank line",
        lambda s: s.replace("impl<T> Store\n", "#[cfg(test)]\n\nimpl<T> Store\n"),
    ),
    ("a whole-file test attribute", lambda s: "#![cfg(any(test, feature = \"test-utils\"))]\n" + s),
    ("a member removed", lambda s: s.replace("pub fn member_7(", "fn gone_7(").replace(
        'anyhow::bail!("member 7 refused while paused");', "return Ok(());"
    )),
    ("an alias added", lambda s: s.replace(
        "/// The store;", "pub type StoreResult<T> = Result<T, StoreError>;\n\n/// The store;"
    )),
    ("a syntax error in a new member", lambda s: s.replace("fn filler_3(&self)", "fn filler_3(&self")),
]  # fmt: skip
UNSPLIT_WHEN_EDITED = {"a whole-file test attribute"}


@pytest.mark.parametrize(("name", "edit"), EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_file_gives_what_a_whole_parse_gives(
    name: str, edit: Callable[[str], str]
) -> None:
    before = big_impl()
    scanned_after(before, edit(text(before)).encode())
    # and the edit undone; a file that is all test code is not split, so it is scanned whole
    scanned_after(edit(text(before)).encode(), before, split=name not in UNSPLIT_WHEN_EDITED)


def test_only_the_changed_member_is_parsed_and_the_rest_moves_down() -> None:
    before = big_impl()
    after = ("// one\n// two\n\n" + text(before)).replace(
        "member 22 refused", "member 22 was refused"
    )

    got = scanned_after(before, after.encode())

    assert new_units(before, after.encode()) == 1  # member_22; 7, 37 and 52 are known
    old = find_sites(PATH, before)
    assert [s.line for s in got.sites] == [s.line + 3 for s in old.sites]
    moved = [c.line for s in got.sites for c in s.facts.conditions]
    assert moved == [c.line + 3 for s in old.sites for c in s.facts.conditions]


def test_aliases_move_with_their_unit() -> None:
    alias = b"pub type StoreResult<T> = Result<T, StoreError>;\n\n"
    before = alias + big_impl()
    after = b"// x\n\n" + before
    got = scanned_after(before, after)
    assert [(a.name, a.line) for a in got.aliases] == [("StoreResult", 3)]


def test_a_scan_that_recovered_from_an_error_is_not_split() -> None:
    broken = big_impl().replace(b"fn filler_3(&self)", b"fn filler_3(&self")
    scan = find_sites(PATH, broken, whole=True)
    assert scan.parse_errors
    assert unit_scans(broken, scan) is None


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.rs")), ids=lambda p: p.name)
def test_every_fixture_moved_down_is_found_from_its_units(fixture: Path) -> None:
    source = fixture.read_bytes()
    known = unit_scans(source, find_sites(f"src/{fixture.name}", source))
    assert known is not None
    moved = b"// moved\n" + source
    got = find_sites_after(f"src/{fixture.name}", moved, known)
    assert got == find_sites(f"src/{fixture.name}", moved)


def test_placing_a_site_keeps_every_field_but_its_place() -> None:
    """`placed` builds sites field by field; a field added to Site or Facts must not be lost."""
    from dataclasses import fields, replace

    from pipeline.core.sitetypes import Condition, Facts, Site, placed

    facts = Facts(**{f.name: f"v-{f.name}" for f in fields(Facts) if f.name != "conditions"})
    facts = replace(facts, conditions=(Condition("if", "x", 5, True),))
    values = {f.name: f"v-{f.name}" for f in fields(Site)}
    values.update(line=7, column=2, is_format=False, format_args=("a",), http_status=404,
                  facts=facts, window_start=3)  # fmt: skip
    site = Site(**values)  # type: ignore[arg-type]

    assert placed(site, 0, site.file_path, site.window, site.window_start) == site
    moved = placed(site, 3, "b.rs", "w", 9)
    assert moved == replace(
        site,
        line=10,
        file_path="b.rs",
        window="w",
        window_start=9,
        facts=replace(facts, conditions=(Condition("if", "x", 8, True),)),
    )


def test_a_file_with_crlf_line_ends_moves_its_sites_the_same_way() -> None:
    before = big_impl().replace(b"\n", b"\r\n")
    after = b"// moved\r\n\r\n" + before.replace(b"member 22 refused", b"member 22 was refused")
    got = scanned_after(before, after)
    assert [s.line for s in got.sites] == [s.line + 2 for s in find_sites(PATH, before).sites]


def test_a_unit_parsed_alone_sees_the_doc_comment_above_it() -> None:
    before = (
        b"const LIMIT: u32 = 1;\n/// Drains the queue.\n\n"
        b'fn drain() -> anyhow::Result<()> {\n    anyhow::bail!("queue gone");\n}\n'
    )
    after = before.replace(b"queue gone", b"queue is gone")  # only `drain` is parsed again
    got = scanned_after(before, after)
    assert got.sites[0].facts.fn_doc == "Drains the queue."


def test_a_generated_file_is_scanned_whole_again_so_each_message_stays_once() -> None:
    """Its scan keeps each message once, which no unit's own scan shows: not split."""
    head = b"// This file is @generated by prost-build.\n"
    method = (
        b"pub fn NAME(&self) -> Result<(), Status> {\n"
        b'    self.ready().map_err(|e| Status::unknown(format!("Service was not ready: {}", e)))\n'
        b"}\n\n"
    )
    before = head + method.replace(b"NAME", b"get") + method.replace(b"NAME", b"put")
    after = before + method.replace(b"NAME", b"delete")
    got = scanned_after(before, after, split=False)
    assert [(s.line, s.message) for s in got.sites] == [(3, "Service was not ready: {}")]
