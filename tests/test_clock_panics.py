"""`SystemTime::now().duration_since(UNIX_EPOCH).expect(..)` gives an `Err` only when the
system clock reads a time before 1970 (std's `duration_since`): the machine's setting, not a
broken assumption of the code's. bottom's "Time went backwards" read "The code assumed ..
always gives a value", "a bug" (reading 124; 34 records over 35 repositories)."""

from __future__ import annotations

import pytest
from site_fixtures import explained


@pytest.mark.parametrize(
    "statement",
    [
        'SystemTime::now().duration_since(UNIX_EPOCH).expect("Time went backwards")',
        'start.duration_since(std::time::UNIX_EPOCH).expect("time should go forward")',
        'SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).expect("system time before epoch")',
    ],
)
def test_a_panic_on_the_clock_before_1970_says_to_set_the_clock(statement: str) -> None:
    explanation = explained(f"fn f(start: SystemTime) -> u64 {{\n    {statement}.as_secs()\n}}\n")

    assert "the system clock reads a time before 1970-01-01" in explanation.solutions[-1]
    # a step that failed on the machine, no setting of the program's
    assert explanation.backgroundTag == "operation-failed"
    assert explanation.exampleFix is not None
    assert "set it" in explanation.exampleFix
    assert "Keep the clock of the machine that runs it set (NTP)." in explanation.preventionTips


def test_another_duration_since_is_no_clock_setting() -> None:
    # between two instants the code took: its own assumption
    explanation = explained(
        "fn f(a: SystemTime, b: SystemTime) -> u64 {\n"
        '    a.duration_since(b).expect("b is earlier").as_secs()\n}\n'
    )
    assert "system clock" not in " ".join(explanation.solutions)
