"""What the call a `.context(..)` or `.expect(..)` guards gave, said as the condition chain
says it: xh's `s.split_once(':').context("Value should be formatted as <HOST>:<ADDRESS>")`
read "The call it guards, `s.split_once(':')`, returned an error" while its trigger said
it was `None`. A call std says returns an `Option` gave no value, a `Result` an error; a
call the syntax tree does not type gave either."""

from __future__ import annotations

import pytest
from site_fixtures import explained, explained_all


@pytest.mark.parametrize(
    ("statement", "outcome"),
    [
        ('s.split_once(\':\').context("Value should be formatted as <HOST>:<ADDRESS>")?',
         "`s.split_once(':')`, gave no value (`None`)."),
        ('std::fs::read_to_string(s).context("cannot read the settings")?',
         "`std::fs::read_to_string(s)`, returned an error."),
        ('std::env::current_dir().wrap_err("no current directory")?',
         "`std::env::current_dir()`, returned an error."),
        ('std::env::var_os(s).context("not set")?', "`std::env::var_os(s)`, gave no value (`None`)."),
        ('load_settings(s).context("cannot load the settings")?',
         "`load_settings(s)`, returned `None` or an error."),
        ('s.parse::<u32>().expect("a number")', "`s.parse::<u32>()`, returned an error."),
        ('lookup(s).expect("a known name")', "`lookup(s)`, was `None` or `Err`."),
    ],
)  # fmt: skip
def test_the_guarded_call_s_outcome_is_the_one_its_condition_states(
    statement: str, outcome: str
) -> None:
    source = (
        f"pub fn load(s: &str) -> anyhow::Result<()> {{\n    let v = {statement};\n    Ok(())\n}}\n"
    )
    explanation = explained(source)
    assert f"The call it guards, {outcome}" in explanation.documentation


def test_a_bare_name_std_s_use_brings_in_is_that_std_fn() -> None:
    """rustup's `remove_file(self.path).context("cleaning up cached downloads")` under `use
    std::fs::{self, OpenOptions, remove_file};` is std's `fs::remove_file`: an error, not
    "`None` or an error". A bare name no `use` of std's names stays either."""
    source = (
        "use std::fs::{self, OpenOptions, remove_file};\nuse crate::util::load_file;\n"
        "pub fn clean(p: &str) -> anyhow::Result<()> {\n"
        '    remove_file(p).context("cleaning up cached downloads")?;\n'
        '    load_file(p).context("cannot load the file")?;\n'
        "    Ok(())\n}\n"
    )
    said = explained_all(source)
    assert "The call it guards, `remove_file(p)`, returned an error." in (
        said["cleaning up cached downloads"].documentation
    )
    assert "The call it guards, `load_file(p)`, returned `None` or an error." in (
        said["cannot load the file"].documentation
    )


def test_a_value_after_a_question_mark_is_not_the_call_s_error() -> None:
    # lemmy's `Site::read_from_apub_id(pool, &url).await?.context("apub site not found")`
    # read as if a database error made it (reading 162)
    source = (
        "pub async fn actor(pool: &Pool, url: &str) -> anyhow::Result<Site> {\n"
        '    let site = Site::read(pool, url).await?.context("apub site not found")?;\n'
        "    Ok(site)\n"
        "}\n"
    )

    explanation = explained(source)

    assert (
        "What `Site::read(pool, url).await?` gave after its `?` was `None` or an error: an "
        "error of the call itself leaves at that `?`, without this message."
    ) in explanation.documentation
    assert "The call it guards" not in explanation.documentation


@pytest.mark.parametrize(
    ("statement", "kept"),
    [
        ('tokens.find(|t| *t == 1).context("Unable to find trailing comma")?', False),
        ('load_settings(s).context("cannot load the settings")?', True),
    ],
)
def test_a_context_on_a_value_that_was_none_keeps_no_cause_to_print(
    statement: str, kept: bool
) -> None:
    # ruff's `remove_member`: "print the error with `{:#}` to read it" where the record said
    # itself that the call gave `None` (reading 160)
    source = (
        f"pub fn load(s: &str, tokens: &mut Tokens) -> anyhow::Result<()> {{\n"
        f"    let v = {statement};\n    Ok(())\n}}\n"
    )

    explanation = explained(source)

    assert any("is kept as this one's cause" in s for s in explanation.solutions) == kept


@pytest.mark.parametrize(
    ("statement", "outcome"),
    [
        # a turbofish that says what it collects (sccache's `collect::<Result<_>>()`, 170)
        ('s.split(",").map(parse).collect::<Result<Vec<_>>>().context("bad list")?',
         "returned an error."),
        ('s.split(",").map(parse).collect::<Option<Vec<_>>>().context("bad list")?',
         "gave no value (`None`)."),
        # a value, not a call (sccache's `dist_compile_cmd`)
        ('s.context("no command")?', "The value it guards, `s`, was `None` or an `Err`."),
    ],
)  # fmt: skip
def test_what_a_turbofish_makes_and_what_a_value_held(statement: str, outcome: str) -> None:
    source = (
        f"pub fn load(s: &str) -> anyhow::Result<()> {{\n    let v = {statement};\n    Ok(())\n}}\n"
    )

    explanation = explained(source)

    assert outcome in explanation.documentation
