"""A value refused for being none of those a `match` lists is an invalid argument, whatever
"unknown" in its message suggests: there is nothing missing to create first."""

from __future__ import annotations

from site_fixtures import explained_all

from pipeline.analyze.value_sets import listed_values
from pipeline.core.sitetypes import Condition


def test_a_catch_all_arm_after_literal_arms_refuses_a_value_outside_the_list() -> None:
    found = explained_all(
        "pub fn level(name: &str) -> anyhow::Result<u8> {\n"
        "    match name {\n"
        '        "l1" | "local" => Ok(1),\n'
        '        "l2" => Ok(2),\n'
        '        _ => anyhow::bail!("Unknown cache level: {}", name),\n'
        "    }\n"
        "}\n"
    )["Unknown cache level: {}"]
    assert "Class: Invalid argument." in found.documentation
    assert "create it first" not in " ".join(found.preventionTips)


def test_an_unknown_name_looked_up_elsewhere_keeps_the_class_its_words_say() -> None:
    found = explained_all(
        "pub fn table(tables: &std::collections::HashMap<String, u8>, name: &str)"
        " -> anyhow::Result<u8> {\n"
        "    match tables.get(name) {\n"
        "        Some(t) => Ok(*t),\n"
        '        None => anyhow::bail!("unknown table {}", name),\n'
        "    }\n"
        "}\n"
    )["unknown table {}"]
    assert ": Not found." in found.documentation


def test_only_literal_arms_before_a_catch_all_make_a_list() -> None:
    arm = Condition("match_arm", "match s: _ =>", 3, excluded=('"a" | "b"', '"c"'))
    assert listed_values([arm]) == ('"a"', '"b"', '"c"')
    assert listed_values([Condition("match_arm", "match s: other =>", 3, excluded=('"a"', "1"))])
    assert listed_values([Condition("match_arm", "match s: _ =>", 3, excluded=('"a"',))]) is None
    assert (
        listed_values([Condition("match_arm", "match s: _ =>", 3, excluded=("A::B", '"c"'))])
        is None
    )
    assert (
        listed_values([Condition("match_arm", 'match s: "x" =>', 3, excluded=('"a"', '"c"'))])
        is None
    )


def test_an_arm_that_tests_its_binding_against_literals_is_part_of_the_list() -> None:
    # lance's `s if s.starts_with("lindera/") =>` among its tokenizer names (reading 232)
    found = explained_all(
        "pub fn tokenizer(name: &str) -> anyhow::Result<u8> {\n"
        "    match name {\n"
        '        "simple" => Ok(1),\n'
        '        "raw" => Ok(2),\n'
        '        s if s.starts_with("lindera/") || s == "jieba" => Ok(3),\n'
        '        _ => anyhow::bail!("unknown base tokenizer {}", name),\n'
        "    }\n"
        "}\n"
    )["unknown base tokenizer {}"]
    assert "Class: Invalid argument." in found.documentation
    # a guard that computes something else is no list of values
    arm = Condition("match_arm", "match s: _ =>", 3, excluded=('"a"', '"b"', "s if s.len() > 3"))
    assert listed_values([arm]) is None
