"""A panic or `expect` on a failed conversion of what the caller passed refuses that value:
tauri's `CapabilityBuilder::permission` panics with "invalid permission identifier" when the
identifier it was given does not convert. Its explanation says so, names the parameter, and
calls it a bug only when the repository's own code passes the value; a conversion of the
code's own state, or one whose message states an assumption, is still a bug to report."""

from __future__ import annotations

import pytest
from site_fixtures import explained

from pipeline.languages.rust.sites import find_sites

_BUG = "This is a bug, not something to fix in your input"

TAURI = """\
impl CapabilityBuilder {
    pub fn permission(mut self, permission: impl Into<String>) -> Self {
        let permission = permission.into();
        self.0.permissions.push(
            permission
                .clone()
                .try_into()
                .unwrap_or_else(|_| panic!("invalid permission identifier '{permission}'")),
        );
        self
    }
}
"""


def test_a_panic_on_a_parameter_that_does_not_convert_refuses_it() -> None:
    explanation = explained(TAURI)
    assert explanation.solutions[0] == (
        "`CapabilityBuilder::permission` panics when `permission.clone().try_into()` fails: it "
        "refuses the value it was given, which the message may print."
    )
    assert explanation.solutions[1].startswith(
        "The value comes from `permission`, which the caller of `CapabilityBuilder::permission` "
        "passes: if your code calls it, pass a value that converts;"
    )
    assert _BUG not in " ".join(explanation.solutions)
    assert 'reads as a case of "Invalid argument"' in explanation.commonSituations
    assert explanation.exampleFix is not None
    assert explanation.exampleFix.endswith(
        "// It panics when `permission.clone().try_into()` fails: pass a value that converts."
    )
    assert "is a bug, not bad input" not in explanation.exampleFix
    assert explanation.preventionTips[0] == (
        "Before calling `CapabilityBuilder::permission`, make sure "
        "`permission.clone().try_into()` succeeds."
    )


@pytest.mark.parametrize(
    ("statement", "conversion", "parameter"),
    [
        ('text.parse::<u16>().expect("a port number")', "text.parse::<u16>()", "text"),
        ('raw.parse().unwrap_or_else(|e| panic!("bad mode: {e}"))', "raw.parse()", "raw"),
        (
            'Mode::try_from(raw).unwrap_or_else(|_| panic!("unknown mode {raw}"))',
            "Mode::try_from(raw)",
            "raw",
        ),
        ('u16::from_str(text).expect("a port number")', "u16::from_str(text)", "text"),
    ],
)
def test_each_form_of_conversion_refuses_the_parameter_it_converts(
    statement: str, conversion: str, parameter: str
) -> None:
    explanation = explained(f"fn set(text: &str, raw: u8) {{\n    let _ = {statement};\n}}\n")
    assert explanation.solutions[0].startswith(f"`set` panics when `{conversion}` fails")
    assert explanation.solutions[1].startswith(f"The value comes from `{parameter}`")


@pytest.mark.parametrize(
    "statement",
    [
        'self.raw.parse::<u32>().expect("a number")',  # the code's own state
        'local.parse::<u32>().expect("a number")',  # made here, not passed
        'text.parse::<u32>().expect("validated above, should parse")',  # an assumption
        'text.trim().len().checked_add(1).expect("a number")',  # no conversion
    ],
)
def test_a_conversion_of_no_parameter_or_one_assumed_to_succeed_is_a_bug(statement: str) -> None:
    source = (
        "impl S {\n    fn get(&self, text: &str) {\n        let local = String::new();\n"
        f"        let _ = {statement};\n    }}\n}}\n"
    )
    explanation = explained(source)
    assert "panics when" not in " ".join(explanation.solutions)
    assert explanation.solutions[-1].startswith(_BUG)


def calls_of(source: str) -> dict[str, str | None]:
    """How a caller calls the fn of each site of `source`, by message (`Facts.call`)."""
    return {s.message: s.facts.call for s in find_sites("src/x.rs", source.encode()).sites}


def test_a_site_in_a_closure_that_runs_in_place_is_reached_at_its_fn_s_call() -> None:
    source = (
        "fn start(a: u8) {\n"
        '    let _ = make(a).unwrap_or_else(|_| panic!("in place"));\n'
        '    let _ = make(a).map_err(|e| anyhow!("mapped {e}"));\n'
        '    std::thread::spawn(move || make(a).unwrap_or_else(|_| panic!("later")));\n'
        '    let _ = (0..a).map(|i| make(i).expect("per item"));\n'
        "}\n"
    )
    assert calls_of(source) == {
        "in place": "start(a)",
        "mapped {e}": "start(a)",
        "later": None,  # runs when the thread does
        "per item": None,  # runs when the iterator is consumed
    }


def test_a_call_that_failed_in_map_err_is_a_failed_call_not_a_check() -> None:
    source = (
        "pub fn set_payload(payload_json: String) -> Result<(), EdgeError> {\n"
        "    let payload = json_to_payload(&payload_json).map_err(|e| {\n"
        '        EdgeError::invalid_argument(format!("invalid payload JSON: {e}"))\n'
        "    })?;\n    Ok(())\n}\n"
    )
    said = explained(source).solutions
    assert not any(s.startswith("The check depends") for s in said)
    assert (
        "`json_to_payload(&payload_json)` was given `payload_json`, which the caller of "
        "`set_payload` passes: if the error underneath says it refused it, where that "
        "value comes from is what to change; else the failure is the call's own."
    ) in said


@pytest.mark.parametrize(
    "statement",
    [
        'gctx.get_env(VAR).unwrap().parse().expect("a size in bytes")',  # the environment's
        'u32::try_from(text.len()).expect("length fits")',  # a value made from it
        'Uri::from_str(Url::from_file_path(text).unwrap().as_str()).expect("a uri")',
    ],
)
def test_a_conversion_of_what_a_call_made_of_a_parameter_refuses_no_parameter(
    statement: str,
) -> None:
    explanation = explained(f"fn set(gctx: &Ctx, text: &str) {{\n    let _ = {statement};\n}}\n")
    assert "panics when" not in " ".join(explanation.solutions)


def test_a_trait_s_associated_fn_is_called_through_the_type_that_implements_it() -> None:
    # risingwave's `Sink::set_default_commit_checkpoint_interval(desc, user_specified)`: a
    # bare call does not compile (reading 202); a method is called on a value
    source = (
        "pub trait Sink {\n"
        "    fn set_default(desc: &mut u32, user: bool) -> anyhow::Result<()> {\n"
        '        anyhow::ensure!(!user, "config conflict");\n'
        "        Ok(())\n"
        "    }\n"
        "    fn check(&self, n: u32) -> anyhow::Result<()> {\n"
        '        anyhow::ensure!(n > 0, "n must be positive");\n'
        "        Ok(())\n"
        "    }\n"
        "}\n"
        "pub fn plain(n: u32) -> anyhow::Result<()> {\n"
        '    anyhow::ensure!(n > 0, "plain n must be positive");\n'
        "    Ok(())\n"
        "}\n"
    )
    assert calls_of(source) == {
        "config conflict": "<T as Sink>::set_default(desc, user)",
        "n must be positive": "value.check(n)",
        "plain n must be positive": "plain(n)",
    }
    assert explained(source.split("    fn check")[0] + "}\n").tryCatchPattern.startswith(
        "match <T as Sink>::set_default(desc, user) {"
    )
