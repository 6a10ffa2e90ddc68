"""The diff core: every kind of difference, the counting invariants, determinism."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from diff_fixtures import NEW_SHA, edit_line, fixture_pair, seed, shifted, variant
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.model import Record
from pipeline.versions.diff import DatasetDiff, diff_records, neighbourhood

A = seed("002")  # bail! on one line, rpc.rs:1074
B = seed("004")  # bail!( with the message on the next line, stream_manager.rs:978


def counts(d: DatasetDiff) -> tuple[int, int, int, int, int, int]:
    s = d.summary
    return (s.added, s.removed, s.moved, s.changed, s.unchanged, len(d.shifted))


def _duplicate_above(r: Record) -> tuple[list[Record], list[Record]]:
    # Another site with the same message 60 lines above: r keeps its id (SPEC 4), the new
    # site gets the next counter's.
    inserted = shifted(r, -60)
    inserted = variant(edit_line(inserted, -2, "    if other_reason {"), ordinal=1)
    return [r], [inserted, shifted(r, 4)]


def _rewritten_around(r: Record) -> tuple[list[Record], list[Record]]:
    new = r
    for offset in (-4, -3, -2, -1, 1, 2, 3, 4):
        new = edit_line(new, offset, f"rewritten({offset});")
    return [r], [new]


def _far_replacement(r: Record) -> tuple[list[Record], list[Record]]:
    other = variant(B, filePath=r.filePath, errorMessage="unrelated failure {}", lineNumber=978)
    return [r], [other]


def _retimed(r: Record) -> Record:
    when = "2027-01-01T00:00:00.000Z"
    return variant(r, id=r.id, analyzedAt=when, contentChangedAt=when)


Make = Callable[[], tuple[list[Record], list[Record]]]
RENAMED = "src/meta/src/barrier/rpc2.rs"

# fmt: off
CASES: list[tuple[str, Make, tuple[int, ...], str]] = [
    # name, () -> (old, new), (added, removed, moved, changed, unchanged, shifted), changed fields
    ("identical", lambda: ([A, B], [A, B]), (0, 0, 0, 0, 2, 0), ""),
    ("new commit, same lines", lambda: ([A], [variant(A, id=A.id, analyzedSha=NEW_SHA)]),
     (0, 0, 0, 0, 1, 0), ""),
    ("line shift only", lambda: ([A], [shifted(A, 7)]), (0, 0, 0, 0, 1, 1), ""),
    ("timestamps only", lambda: ([A], [_retimed(A)]), (0, 0, 0, 0, 1, 0), ""),
    ("edited message", lambda: ([A], [variant(A, errorMessage="must not pause {job_id}")]),
     (0, 0, 0, 1, 0, 0), "slug errorMessage messagePattern sourceCode"),
    ("edited window", lambda: ([B], [edit_line(B, -12, "        let _g = lock().await;")]),
     (0, 0, 0, 1, 0, 0), "sourceCode"),
    ("edited window next to the site", lambda: ([A], [edit_line(A, -1, "    if paused {")]),
     (0, 0, 0, 1, 0, 0), "sourceCode"),
    ("site kept, code around it rewritten", lambda: _rewritten_around(A),
     (0, 0, 0, 1, 0, 0), "sourceCode"),
    ("new explanation", lambda: ([A], [variant(A, id=A.id, solutions=["Resume first."])]),
     (0, 0, 0, 1, 0, 0), "solutions"),
    ("renamed file", lambda: ([A], [variant(A, filePath=RENAMED)]), (0, 0, 1, 0, 0, 0), ""),
    ("moved to another file with its function",
     lambda: ([A], [edit_line(variant(A, filePath=RENAMED), 15, "}")]),
     (0, 0, 1, 0, 0, 0), "sourceCode"),
    ("moved to another file and edited",
     lambda: ([A], [variant(A, filePath=RENAMED, errorMessage="paused with job {job_id}")]),
     (1, 1, 0, 0, 0, 0), ""),
    ("new site", lambda: ([A], [A, B]), (1, 0, 0, 0, 1, 0), ""),
    ("deleted site", lambda: ([A, B], [B]), (0, 1, 0, 0, 1, 0), ""),
    ("same message inserted above", lambda: _duplicate_above(A), (1, 0, 0, 0, 1, 1), ""),
    ("other site elsewhere in the same file", lambda: _far_replacement(A),
     (1, 1, 0, 0, 0, 0), ""),
]
# fmt: on


@pytest.mark.parametrize(("name", "make", "expected", "fields"), CASES, ids=[c[0] for c in CASES])
def test_each_kind_of_difference(
    name: str,
    make: Make,
    expected: tuple[int, ...],
    fields: str,
) -> None:
    old, new = make()
    d = diff_records(old, new)
    assert counts(d) == expected
    pairs = d.changed + d.moved
    assert " ".join(f.name for p in pairs for f in p.fields) == fields


def test_an_edited_message_is_paired_back_with_both_ids() -> None:
    new = variant(A, errorMessage="must not pause with job {job_id}")
    (pair,) = diff_records([A], [new]).changed
    assert (pair.old.id, pair.new.id) == (A.id, new.id)
    assert {f.name: (f.before, f.after) for f in pair.fields}["errorMessage"] == (
        A.errorMessage,
        new.errorMessage,
    )


def test_location_fields_and_timestamps_are_never_reported() -> None:
    new = variant(shifted(A, 5), id=A.id, documentation="rewritten", analyzedAt="2030-01-01")
    (pair,) = diff_records([A], [new]).changed
    assert [f.name for f in pair.fields] == ["documentation"]
    assert pair.shifted


def test_fixture_pair_has_one_of_each() -> None:
    old, new = fixture_pair()
    d = diff_records(old, new)
    assert counts(d) == (1, 1, 1, 2, 2, 1)
    assert d.has_differences
    assert not diff_records(new, new).has_differences


def test_a_repeated_id_is_refused() -> None:
    with pytest.raises(ValueError, match=A.id):
        diff_records([A, A], [A])


def test_a_window_without_its_site_line_does_not_crash() -> None:
    broken = variant(A, id=A.id, lineNumber=5000)
    assert neighbourhood(broken)[-1] == A.sourceCode.split("\n")[-1].strip()


# Random record sets drawn from a small pool of look-alikes, so that ids, files,
# messages and windows collide often.
_FILES = ["src/a.rs", "src/b.rs"]
_MESSAGES = ["cannot pause {job_id}", "should not pause when having snapshot backfill job {job_id}"]


@st.composite
def records(draw: st.DrawFn) -> Record:
    r = variant(
        A,
        ordinal=draw(st.integers(0, 1)),
        filePath=draw(st.sampled_from(_FILES)),
        errorMessage=draw(st.sampled_from(_MESSAGES)),
    )
    if draw(st.booleans()):
        r = shifted(r, draw(st.integers(-3, 3)))
    if draw(st.booleans()):
        r = edit_line(r, draw(st.integers(-6, 6)), draw(st.sampled_from(["}", "x();", ""])))
    if draw(st.booleans()):
        r = variant(r, id=r.id, documentation=draw(st.sampled_from(["one", "two"])))
    return r


def unique(rs: list[Record]) -> list[Record]:
    return list({r.id: r for r in rs}.values())


@settings(max_examples=300, deadline=None)
@given(st.lists(records(), max_size=8).map(unique), st.lists(records(), max_size=8).map(unique))
def test_every_record_is_counted_once_on_each_side(old: list[Record], new: list[Record]) -> None:
    d = diff_records(old, new)
    s = d.summary
    assert s.added + s.moved + s.changed + s.unchanged == len(new)
    assert s.removed + s.moved + s.changed + s.unchanged == len(old)
    pairs = d.moved + d.changed + d.unchanged
    assert sorted(r.id for r in [*d.added, *(p.new for p in pairs)]) == sorted(r.id for r in new)
    assert sorted(r.id for r in [*d.removed, *(p.old for p in pairs)]) == sorted(r.id for r in old)
    assert all(p.old.id == p.new.id and not p.fields for p in d.unchanged)
    assert all(p.old.id != p.new.id for p in d.moved)
    assert not {r.id for r in d.added} & {r.id for r in d.removed}


@settings(max_examples=100, deadline=None)
@given(
    st.lists(records(), max_size=8).map(unique),
    st.lists(records(), max_size=8).map(unique),
    st.data(),
)
def test_input_order_does_not_matter(
    old: list[Record], new: list[Record], data: st.DataObject
) -> None:
    reordered = diff_records(data.draw(st.permutations(old)), data.draw(st.permutations(new)))
    assert reordered == diff_records(old, new)


@settings(max_examples=100, deadline=None)
@given(st.lists(records(), max_size=8).map(unique))
def test_a_dataset_against_itself_is_all_unchanged(rs: list[Record]) -> None:
    d = diff_records(rs, rs)
    assert counts(d) == (0, 0, 0, 0, len(rs), 0)
