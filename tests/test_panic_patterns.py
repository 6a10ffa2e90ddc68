"""std's panicking macros print more than their message: `unreachable!("x")` panics with
"internal error: entered unreachable code: x", `todo!` with "not yet implemented: x",
`unimplemented!` with "not implemented: x", `assert_eq!(a, b, "x")` with "assertion `left ==
right` failed: x\\n  left: ..\\n right: .." (Rust 1.73 and later). SPEC 4: a record's
`messagePattern` must `re.fullmatch` what is printed; a stop 55 reading found helix's
`unreachable!` pattern could not. A site is still found again by its message's pattern
(`Language.pattern_identity`), so a dataset published before keeps its ids."""

from __future__ import annotations

import re

import pytest
from search_fixtures import BASE
from site_fixtures import republished

from pipeline.core.model import Record
from pipeline.languages.rust.sites import find_sites
from pipeline.publish.explain import ErrorIndex
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

SOURCE = (
    "fn step(x: u8, n: u8) {\n"
    "    match x {\n"
    '        0 => unreachable!("state {x} after a reset"),\n'
    '        1 => todo!("resuming a paused job"),\n'
    '        2 => core::unimplemented!("IPv6 multicast"),\n'
    "        _ => {\n"
    '            assert_eq!(x, n, "the counters diverged at {n}");\n'
    '            debug_assert_ne!(x, 9, "nine is reserved");\n'
    '            assert!(n > 0, "n must be positive");\n'
    '            panic!("no step {x}");\n'
    "        }\n"
    "    }\n"
    "}\n"
)


def patterns() -> dict[str, str]:
    return {s.message: s.pattern for s in find_sites("src/step.rs", SOURCE.encode()).sites}


@pytest.mark.parametrize(
    ("message", "printed"),
    [
        ("state {x} after a reset", "internal error: entered unreachable code: state 3 after a reset"),
        ("resuming a paused job", "not yet implemented: resuming a paused job"),
        ("IPv6 multicast", "not implemented: IPv6 multicast"),
        (
            "the counters diverged at {n}",
            "assertion `left == right` failed: the counters diverged at 4\n  left: 3\n right: 4",
        ),
        (
            "nine is reserved",
            "assertion `left != right` failed: nine is reserved\n  left: 9\n right: 9",
        ),
        ("n must be positive", "n must be positive"),
        ("no step {x}", "no step 7"),
    ],
)  # fmt: skip
def test_a_panic_s_pattern_matches_what_std_prints(message: str, printed: str) -> None:
    pattern = patterns()[message]
    assert re.fullmatch(pattern, printed)
    assert re.compile(pattern).groups == message.count("{")  # the placeholders' groups alone
    # the message alone is no panic's text where std prints more around it
    alone = message.replace("{x}", "3").replace("{n}", "4")
    assert bool(re.fullmatch(pattern, alone)) == printed.endswith(("positive", "no step 7"))


def test_a_dataset_published_before_keeps_its_ids() -> None:
    published, found, rewritten = republished(SOURCE, "src/step.rs")

    assert rewritten == 5
    assert found == published


def test_the_message_alone_and_the_whole_panic_both_find_the_record() -> None:
    scan = find_sites("src/step.rs", SOURCE.encode())
    contexts = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/step.rs": scan}))
    (context,) = [c for c in contexts if c.site.message == "resuming a paused job"]
    record = Record.model_validate(
        {**BASE, "id": context.record_id, "errorMessage": context.site.message,
         "messagePattern": context.message_pattern, "filePath": "src/step.rs", "lineNumber": 4}
    )  # fmt: skip
    index = ErrorIndex([record])
    for pasted in (
        "resuming a paused job",
        "thread 'main' panicked at src/step.rs:4:14:\nnot yet implemented: resuming a paused job",
    ):
        assert [m.record.id for m in index.search(pasted, limit=3)] == [record.id], pasted
