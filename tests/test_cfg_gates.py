"""What `#[cfg(..)]` says of a site (SPEC 5's facts): which builds have its code, and which
arms of a `match` a build can hold together."""

from __future__ import annotations

import pytest
from site_fixtures import explained, explained_all

from pipeline.core.sitetypes import Facts
from pipeline.languages.rust.logic import validation_code
from pipeline.languages.rust.sites import find_sites


def facts_of(source: str, message: str = "target") -> Facts:
    scan = find_sites("src/lib.rs", source.encode())
    (site,) = [s for s in scan.sites if s.message == message]
    return site.facts


# hickory-dns's `RData::from_tokens` (reading 133): the `DS` arm a build has depends on a feature
DS_ARMS = """
fn from_tokens(record_type: RecordType) -> Result<RData, ParseError> {
    Ok(match record_type {
        RecordType::A => RData::A(a()?),
        RecordType::KEY => return Err(ParseError::from("KEY should be dynamically generated")),
        #[cfg(feature = "__dnssec")]
        RecordType::DS => RData::DS(ds()?),
        #[cfg(not(feature = "__dnssec"))]
        RecordType::DS => return Err(ParseError::from("target")),
        _ => return Err(ParseError::from("unknown")),
    })
}
"""


def test_an_arm_no_build_has_beside_the_sites_is_no_earlier_arm() -> None:
    facts = facts_of(DS_ARMS)
    (arm,) = facts.conditions
    assert arm.excluded == ("RecordType::A", "RecordType::KEY")
    # before: `matches!(.., A | KEY | DS) || !matches!(.., DS)`, true for the failing `DS`;
    # then `!matches!(.., DS)`, true for the types the failing `_ =>` after it takes
    assert arm.fails_later
    assert validation_code(facts.conditions) is None


def test_the_gates_around_a_site_are_listed_outermost_first() -> None:
    assert facts_of(DS_ARMS).gates == ('not(feature = "__dnssec")',)
    source = """
#[cfg(unix)]
mod platform {
    #[cfg(any(
        feature = "a",
        feature = "b"
    ))]
    fn f(x: u32) {
        #[cfg(debug_assertions)]
        if x > 3 {
            panic!("target");
        }
    }
}
"""
    assert facts_of(source).gates == (
        "unix",
        'any(feature = "a", feature = "b")',
        "debug_assertions",
    )


@pytest.mark.parametrize(
    "attribute",
    ["#[cfg(test)]", "#[cfg(all(test, unix))]", "#[inline]", '#[cfg_attr(feature = "x", inline)]'],
)
def test_test_gates_and_other_attributes_are_no_gates(attribute: str) -> None:
    source = f'{attribute}\nfn f() {{ panic!("target"); }}\n'
    scan = find_sites("src/lib.rs", source.encode())
    assert all(site.facts.gates == () for site in scan.sites)


def test_a_long_predicate_is_cut_after_a_whole_argument() -> None:
    features = ", ".join(f'feature = "storage-{n}"' for n in range(12))
    gates = facts_of(f'#[cfg(any({features}))]\nfn f() {{ panic!("target"); }}\n').gates
    assert gates == (
        'any(feature = "storage-0", feature = "storage-1", feature = "storage-2", '
        'feature = "storage-3", …)',
    )


def test_a_variants_own_gate_is_its_records() -> None:
    source = """
#[derive(Debug, thiserror::Error)]
pub enum E {
    #[cfg(unix)]
    #[error("target")]
    Spawn,
}
"""
    assert facts_of(source).gates == ("unix",)


def test_the_trigger_says_which_builds_have_the_code() -> None:
    trigger = explained_all(DS_ARMS)["target"].triggerScenarios
    assert trigger.endswith(
        'Only builds where `#[cfg(not(feature = "__dnssec"))]` holds have this code: a build '
        "with the feature `__dnssec` does not get here."
    )
    debug = explained('#[cfg(debug_assertions)]\nfn f() { panic!("target"); }\n')
    assert debug.triggerScenarios.endswith(
        "Only builds where `#[cfg(debug_assertions)]` holds have this code: debug builds, not "
        "release builds."
    )
    plain = explained('fn f() { panic!("target"); }\n')
    assert "Only builds" not in plain.triggerScenarios


def test_a_variant_without_a_doc_quotes_its_enums_as_the_enums() -> None:
    source = """
/// An error occurred in a program that nextest ran, not in nextest itself.
#[derive(Debug, thiserror::Error)]
pub enum ExpectedError {
    #[error("target")]
    StoreDirCreate,
}
"""
    documentation = explained(source).documentation
    assert (
        "The variant has no doc comment; the enum `ExpectedError`'s says: \"An error occurred in "
        'a program that nextest ran, not in nextest itself."'
    ) in documentation
    assert "Its doc comment says" not in documentation
