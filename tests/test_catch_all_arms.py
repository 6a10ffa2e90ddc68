"""A catch-all arm (`_ =>`, a bare binding) is taken when the value matched none of the arms
before it, and the step says which those are: hyperfine's "the arm `match
range_step_size_hint(start, end, step): _ =>` is taken" said nothing of the arm it missed,
`(_, Some(size)) if size <= MAX_PARAMETERS` (reading 326); 1,225 records of 21
repositories read so."""

from __future__ import annotations

from site_fixtures import explained

from pipeline.analyze.condition_text import describe
from pipeline.core.sitetypes import Condition


def test_a_catch_all_arm_says_the_arms_its_value_matched_none_of() -> None:
    source = (
        "pub fn kind(s: &str) -> anyhow::Result<u8> {\n"
        "    match s {\n"
        '        "json" => Ok(1),\n'
        '        "vector" | "vec" => Ok(2),\n'
        '        other if other.starts_with("x") => Ok(3),\n'
        '        _ => anyhow::bail!("unknown kind {s}"),\n'
        "    }\n"
        "}\n"
    )
    assert explained(source).triggerScenarios.startswith(
        "In `kind`: 1. the arm `match s: _ =>` is taken (`s` matched none of the arms before "
        'it: `"json"`, `"vector" | "vec"`, `other if other.starts_with("x")`); 2. `anyhow::bail` '
        "produces the error."
    )


def test_an_arm_of_its_own_pattern_or_with_none_before_it_says_nothing_more() -> None:
    assert describe(Condition("match_arm", "match s: Some(x) =>", 3, False, ("None",))) == (
        "the arm `match s: Some(x) =>` is taken"
    )
    assert (
        describe(Condition("match_arm", "match s: _ =>", 3)) == "the arm `match s: _ =>` is taken"
    )


def test_many_arms_before_it_are_counted() -> None:
    arms = tuple(f'"{n}"' for n in range(8))
    assert describe(Condition("match_arm", "match s: other =>", 3, False, arms)) == (
        "the arm `match s: other =>` is taken (`s` matched none of the 8 arms before it)"
    )
