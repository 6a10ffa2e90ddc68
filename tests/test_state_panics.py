"""A panic on the state of the value a method is called on is the order of the calls made on
it before, not a broken assumption of its own: pingora's `HttpCache` moves its `phase` on as
its methods run, and each panics on a phase it does not handle (reading 201 read "Internal
invariant violated .. a bug, not something to fix in your input")."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from llm_server import TAXONOMY
from test_crate_only import explained
from test_prompt_v2 import site

from pipeline.analyze.llm_prompt import load_prompt
from pipeline.core.sitetypes import Facts
from pipeline.languages.rust.sites import find_sites


def cache(visibility: str = "pub ", lookup: str = "") -> str:
    return (
        "#[derive(Debug, Clone, Copy, PartialEq)]\n"
        "pub enum Phase {\n    Uninit,\n    Key,\n    Hit,\n    Miss,\n}\n"
        "pub struct Cache {\n    phase: Phase,\n    hits: u32,\n}\n"
        "impl Cache {\n"
        "    pub fn phase(&self) -> Phase {\n        self.phase\n    }\n"
        "    pub fn set_key(&mut self) {\n"
        "        self.phase = Phase::Key;\n"
        "    }\n"
        "    pub fn found(&mut self, fresh: bool) {\n"
        "        self.phase = if fresh { Phase::Hit } else {\n            Phase::Miss\n        };\n"
        "    }\n"
        f"    {visibility}fn lookup(&mut self{lookup}) {{\n"
        "        match self.phase {\n"
        "            Phase::Key => self.hits += 1,\n"
        '            _ => panic!("wrong phase {:?}", self.phase),\n'
        "        }\n"
        "    }\n"
        "}\n"
    )


def facts_of(text: str) -> Facts:
    (site,) = find_sites("src/lib.rs", text.encode()).sites
    return site.facts


def test_the_scan_keeps_the_field_its_setters_and_its_getter() -> None:
    facts = facts_of(cache())

    assert facts.state_field == "phase"
    # a computed value (an `if` over two lines) is kept without it
    assert facts.state_setters == (("set_key", "Phase::Key"), ("found", ""))
    assert facts.state_getter == "phase"


def test_a_condition_that_reads_a_parameter_too_is_no_state_of_self() -> None:
    text = cache(lookup=", force: bool").replace(
        "match self.phase {", "match (self.phase, force) {"
    )

    assert facts_of(text).state_field is None


def test_a_condition_on_two_fields_is_no_one_state() -> None:
    text = cache().replace(
        "        match self.phase {\n",
        "        if self.hits > 3 {\n            return;\n        }\n        match self.phase {\n",
    )

    assert facts_of(text).state_field is None


def test_a_public_method_s_panic_on_its_state_names_the_calls_that_set_it(
    tmp_path: Path,
) -> None:
    found = explained(tmp_path, cache())

    assert found.backgroundTag == "invalid-state-transition"
    assert found.documentation.endswith("Class: Invalid state transition.")
    assert found.solutions[0] == (
        "`Cache::lookup` panics on the state its `Cache` is in (`self.phase`), not on a value "
        "a call passes: the methods called on it before this one set that state. In `impl "
        "Cache`, `phase` is set by `set_key` (to `Phase::Key`) and `found` (to a value it computes)."
    )
    assert found.solutions[1].startswith(
        "If your code makes those calls, call `Cache::lookup` only once those before it have "
        "brought `phase` to a state it handles (`cache.phase()` reads it)."
    )
    assert not any(s.startswith("This is a bug") for s in found.solutions)
    assert "A panic here is a bug" not in found.exampleFix
    assert "`self.phase` was in a state `Cache::lookup` does not handle" in found.exampleFix
    # the private field is read through the getter, which any caller can call
    assert found.validationCode == "let ok = matches!(cache.phase(), Phase::Key);"


def test_a_crate_only_method_s_calls_are_the_repository_s_own(tmp_path: Path) -> None:
    found = explained(tmp_path, cache(visibility="pub(crate) "))

    assert found.solutions[0].startswith("`Cache::lookup` panics on the state its `Cache` is in")
    assert found.solutions[1].startswith(
        "Only code in its own crate calls it, so the repository's own code made those calls"
    )
    assert not any(s.startswith("If your code makes those calls") for s in found.solutions)


def test_without_a_getter_the_check_stays_for_the_module(tmp_path: Path) -> None:
    text = cache().replace("    pub fn phase(&self) -> Phase {\n        self.phase\n    }\n", "")

    found = explained(tmp_path, text)

    assert found.solutions[1].startswith("If your code makes those calls, call `Cache::lookup`")
    assert "reads it" not in found.solutions[1]
    assert found.validationCode is not None
    assert found.validationCode.startswith("// `phase` is a private field")


@pytest.mark.parametrize(
    "assigned",
    [
        "",  # no fn of the impl moves it: the value it was built with
        "        self.hits = 0;\n",  # another field's
    ],
)
def test_a_field_no_method_sets_stays_an_assumption(tmp_path: Path, assigned: str) -> None:
    text = (
        "#[derive(Debug)]\npub enum Kind {\n    A,\n    B,\n}\n"
        "pub struct Item {\n    kind: Kind,\n    hits: u32,\n}\n"
        "impl Item {\n"
        "    pub fn reset(&mut self) {\n" + assigned + "    }\n"
        "    pub fn run(&self) {\n"
        "        match self.kind {\n"
        "            Kind::A => {}\n"
        '            _ => panic!("unexpected kind {:?}", self.kind),\n'
        "        }\n"
        "    }\n"
        "}\n"
    )

    found = explained(tmp_path, text)

    assert found.backgroundTag != "invalid-state-transition"
    assert not any("panics on the state" in s for s in found.solutions)


def test_the_model_is_told_the_state_and_who_sets_it() -> None:
    (scanned,) = find_sites("src/lib.rs", cache().encode()).sites
    context = dataclasses.replace(site(0), site=scanned)

    user = load_prompt().render(context, TAXONOMY)[1]["content"]

    assert (
        "The conditions read nothing but `self.phase`, the state of the value the method is "
        "called on (its `pub fn phase(&self)` returns it). Fns of the same impl that assign "
        "it: `set_key` (to `Phase::Key`), `found`." in user
    )


def asserted(check: str) -> str:
    return cache().replace(
        "        match self.phase {\n"
        "            Phase::Key => self.hits += 1,\n"
        '            _ => panic!("wrong phase {:?}", self.phase),\n'
        "        }\n",
        f'        assert!({check}, "not ready");\n',
    )


def test_an_assertion_alone_on_the_field_is_its_state() -> None:
    assert facts_of(asserted("self.phase == Phase::Key")).state_field == "phase"


def test_an_assertion_that_reads_another_field_too_is_no_one_state() -> None:
    # tikv's `if self.crypter.is_some() { assert!(self.crypter..finalize(&mut self.buffer)?
    # == 0, "unsupported encryption") }`: what the crypter gives, not the calls made before
    text = cache().replace(
        '            _ => panic!("wrong phase {:?}", self.phase),\n',
        '            _ => assert!(self.phase == Phase::Hit && self.hits == 0, "no"),\n',
    )

    assert facts_of(text).state_field is None


def test_a_fn_that_panics_on_what_it_set_itself_asserts_its_own_step(tmp_path: Path) -> None:
    # risingwave's `await_ready`: `self.inner = Ready(..)`, then `Seeding(_) => unreachable!(
    # "just transitioned out of Seeding")`
    text = (
        "#[derive(Debug)]\npub enum Inner {\n    Seeding,\n    Ready,\n}\n"
        "pub struct Handler {\n    inner: Inner,\n}\n"
        "impl Handler {\n"
        "    pub fn await_ready(&mut self) {\n"
        "        self.inner = Inner::Ready;\n"
        "        match self.inner {\n"
        '            Inner::Seeding => unreachable!("just transitioned out of Seeding"),\n'
        "            Inner::Ready => {}\n"
        "        }\n"
        "    }\n"
        "}\n"
    )

    found = explained(tmp_path, text)

    assert facts_of(text).state_setters == (("await_ready", "Inner::Ready"),)
    assert not any("panics on the state" in s for s in found.solutions)


BY_VALUE = "    pub fn phase(&self) -> Phase {\n        self.phase\n    }\n"
BY_REFERENCE = "    pub fn phase(&self) -> &Phase {\n        &self.phase\n    }\n"


def test_a_getter_that_lends_the_field_is_kept_as_one() -> None:
    assert facts_of(cache().replace(BY_VALUE, BY_REFERENCE)).state_getter == "&phase"


def test_a_lent_field_is_matched_through_its_getter(tmp_path: Path) -> None:
    found = explained(tmp_path, cache().replace(BY_VALUE, BY_REFERENCE))

    assert found.validationCode == "let ok = matches!(cache.phase(), Phase::Key);"
    assert "(`cache.phase()` reads it)" in found.solutions[1]


def test_a_lent_field_is_not_compared_through_its_getter(tmp_path: Path) -> None:
    # `cache.phase() == Phase::Hit` would compare a `&Phase` with a `Phase`
    compared = (
        cache()
        .replace(BY_VALUE, BY_REFERENCE)
        .replace(
            "        match self.phase {\n"
            "            Phase::Key => self.hits += 1,\n"
            '            _ => panic!("wrong phase {:?}", self.phase),\n'
            "        }\n",
            '        if self.phase == Phase::Hit {\n            panic!("already hit");\n        }\n',
        )
    )

    found = explained(tmp_path, compared)

    assert found.validationCode is not None
    assert "cache.phase()" not in found.validationCode
    assert found.validationCode.startswith("// `phase` is a private field")


def test_the_model_is_told_a_lending_getter_by_its_name() -> None:
    (scanned,) = find_sites("src/lib.rs", cache().replace(BY_VALUE, BY_REFERENCE).encode()).sites
    context = dataclasses.replace(site(0), site=scanned)

    user = load_prompt().render(context, TAXONOMY)[1]["content"]

    assert "(its `pub fn phase(&self)` returns it)" in user


def test_a_setter_that_writes_several_values_keeps_each() -> None:
    text = cache().replace(
        "        self.phase = Phase::Key;\n",
        "        self.phase = Phase::Key;\n        if self.hits > 9 {\n"
        "            self.phase = Phase::Miss;\n        }\n        self.phase = Phase::Key;\n",
    )

    assert facts_of(text).state_setters[0] == ("set_key", "Phase::Key | Phase::Miss")
