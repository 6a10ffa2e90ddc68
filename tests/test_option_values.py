"""An error of a value parser is about the value the user typed: xh's `Timeout::from_str`
refuses what was given to `--timeout` ("Connection timeout is too big" read as a resource
exhausted, "..must be non negative" as a timeout), and its advice named the fn's parameter
where the user knows the option."""

from __future__ import annotations

from site_fixtures import explained_all

from pipeline.analyze.static import with_reach
from pipeline.core.reach import CallerPath, Hop, Reach

SOURCE = """\
pub struct Timeout(f64);
impl std::str::FromStr for Timeout {
    type Err = anyhow::Error;
    fn from_str(sec: &str) -> anyhow::Result<Timeout> {
        if sec.starts_with('-') {
            anyhow::bail!("Connection timeout is negative");
        }
        if sec.len() > 9 {
            anyhow::bail!("Connection timeout is too big");
        }
        Ok(Timeout(sec.parse()?))
    }
}
pub fn wait(s: f64) -> anyhow::Result<()> {
    if s > 1e9 {
        anyhow::bail!("Connection timeout is too big");
    }
    Ok(())
}
"""


def test_a_from_str_error_refuses_the_text_whatever_its_words() -> None:
    found = explained_all(SOURCE)
    classes = {m: e.backgroundTag for m, e in found.items()}
    assert classes == {
        "Connection timeout is negative": "invalid-argument",
        "Connection timeout is too big": "resource-exhausted",  # `wait`'s: no parse
    }
    parsed = [e for e in explained_all(SOURCE.split("pub fn wait")[0]).values()]
    assert {e.backgroundTag for e in parsed} == {"invalid-argument"}


def test_the_advice_names_the_option_whose_value_the_fn_parses() -> None:
    apart = explained_all(SOURCE.split("pub fn wait")[0])["Connection timeout is too big"]
    assert "The check depends on what is passed to `Timeout::from_str` (`sec`): the values" \
        " its caller passes decide it" in " ".join(apart.solutions)  # fmt: skip
    parser = Hop("Timeout::from_str", "src/x.rs", 4, "fn from_str(sec: &str)")
    option = CallerPath((parser,), "cli", "option `--timeout` (`Cli::timeout`)")
    told = with_reach(apart, Reach(paths=(option,)), "ab" * 20)
    assert (
        "The check depends on the value given to option `--timeout` (`Cli::timeout`), which"
        " `Timeout::from_str` gets as `sec`: give one the check accepts."
    ) in told.solutions
    # reached through other fns, the fn's parameter is not the option's value as typed
    caller = Hop("parse_args", "src/x.rs", 30, "fn parse_args()", call_line=31)
    longer = CallerPath((caller, parser), "cli", "option `--timeout` (`Cli::timeout`)")
    assert with_reach(apart, Reach(paths=(longer,)), "ab" * 20).solutions[0] == apart.solutions[0]
