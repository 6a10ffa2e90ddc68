"""An assertion of a fn that code outside its crate can call, testing nothing but the fn's
own parameters, is a precondition on what its caller passes: pingora's `CertKey::new`
(`assert!(!certificates.is_empty(), ..)`) read "This is a bug, not something to fix in your
input: report it upstream" (reading 201), while its own `validationCode` said what to check."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_crate_only import explained


def constructor(visibility: str, asserted: str) -> str:
    return (
        "pub struct CertKey {\n    certificates: Vec<u8>,\n    ready: bool,\n}\n"
        "impl CertKey {\n"
        f"    {visibility}fn new(certificates: Vec<u8>, key: u8) -> CertKey {{\n"
        f'        assert!({asserted}, "expected a non-empty vector of certificates");\n'
        "        CertKey { certificates, ready: key > 0 }\n"
        "    }\n"
        "}\n"
    )


def test_a_public_fn_s_assertion_of_its_arguments_is_its_caller_s_to_meet(
    tmp_path: Path,
) -> None:
    found = explained(tmp_path, constructor("pub ", "!certificates.is_empty()"))

    assert found.solutions[0].startswith(
        "`CertKey::new` asserts `!certificates.is_empty()` of the values its caller passes: a "
        "call that breaks that gets this panic. If your code calls it, make sure of that "
        "before the call;"
    )
    assert not any(s.startswith("This is a bug") for s in found.solutions)
    assert "A panic here is a bug" not in found.exampleFix
    assert "// `CertKey::new` asserts `!certificates.is_empty()` of its arguments" in (
        found.exampleFix
    )


@pytest.mark.parametrize(
    ("visibility", "asserted", "precondition"),
    [
        ("pub(crate) ", "!certificates.is_empty()", False),  # its crate's code passes them
        ("pub ", "certificates.len() > limit", False),  # a name the fn does not take
        ("pub ", "!self_check(&certificates)", True),  # a fn it calls on them
        ("pub ", "certificates.len() <= MAX_CERTIFICATES", True),  # the limit is the code's
        ("pub ", 'key != b"xy"[0] || certificates.is_empty()', True),  # no names in strings
    ],
)
def test_only_an_assertion_of_the_arguments_alone_is_the_caller_s(
    tmp_path: Path, visibility: str, asserted: str, precondition: bool
) -> None:
    found = explained(tmp_path, constructor(visibility, asserted))

    said = any("of the values its caller passes" in s for s in found.solutions)
    assert said is precondition
    assert any(s.startswith("This is a bug") for s in found.solutions) is not precondition


def test_its_class_is_the_caller_s_argument_not_the_code_s_assumption(tmp_path: Path) -> None:
    # the recheck of reading 201: "Class: Internal invariant violated" over advice that says
    # the caller breaks the assertion
    found = explained(tmp_path, constructor("pub ", "!certificates.is_empty()"))

    assert found.backgroundTag == "invalid-argument"
    assert "Class: Invalid argument." in found.documentation
    assert "Internal invariant" not in found.documentation + found.commonSituations
    assert "internal-invariant" not in found.tags
    assert "invalid-argument" in found.tags
    assert found.preventionTips[0] == (
        "Make sure `!certificates.is_empty()` holds of what you pass before calling `CertKey::new`."
    )
    assert (
        "Check values against what the call accepts (the allowed set, length and form) before "
        "passing them."
    ) in found.preventionTips
