"""A guarded call of one of the repository's fns is told by that fn's return type, where
the syntax said "returned `None` or an error": sccache's `find_ldd_libraries(&obj_path)`
returns a `Result` (reading 170: 10 of 21 records said both)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_crate_only import explained


def source(returned: str) -> str:
    return (
        "pub fn package(path: &str) -> anyhow::Result<()> {\n"
        '    let libs = find_libraries(path).context("failed to find the libraries")?;\n'
        "    Ok(())\n"
        "}\n"
        f"fn find_libraries(path: &str) -> {returned} {{\n"
        "    todo!()\n"
        "}\n"
    )


@pytest.mark.parametrize(
    ("returned", "said", "step"),
    [
        ("anyhow::Result<Vec<String>>", "returned an error.", "was Err"),
        ("CargoResult<Vec<String>>", "returned an error.", "was Err"),
        ("Option<Vec<String>>", "gave no value (`None`).", "was None"),
    ],
)
def test_a_guarded_call_of_the_repository_s_fn_says_what_it_gave(
    tmp_path: Path, returned: str, said: str, step: str
) -> None:
    found = explained(tmp_path, source(returned))

    assert f"The call it guards, `find_libraries(path)`, {said}" in found.documentation
    assert f"`find_libraries(path)` {step} (`context`)" in found.triggerScenarios


def test_an_option_that_was_none_keeps_no_cause(tmp_path: Path) -> None:
    found = explained(tmp_path, source("Option<Vec<String>>"))

    assert not any("is kept as this one's cause" in s for s in found.solutions)


def test_a_fn_that_returns_something_else_leaves_both_said(tmp_path: Path) -> None:
    found = explained(tmp_path, source("Libraries"))

    assert "returned `None` or an error." in found.documentation


def test_the_rest_of_the_text_tells_it_too(tmp_path: Path) -> None:
    # cargo's `normalized_documentation().expect(..)` said "returned an error" and "never
    # `None` nor an `Err`" side by side (recheck 163)
    text = source("anyhow::Result<Vec<String>>").replace(
        '.context("failed to find the libraries")?', '.expect("found before")'
    )

    found = explained(tmp_path, text)

    assert "The call it guards, `find_libraries(path)`, returned an error." in found.documentation
    assert not any("nor an `Err`" in s for s in found.solutions)
    assert any("(never an `Err`)" in s for s in found.solutions)


def test_an_error_that_failed_is_said_to_be_kept(tmp_path: Path) -> None:
    found = explained(tmp_path, source("anyhow::Result<Vec<String>>"))

    assert any(
        s.startswith("The error that failed is kept as this one's cause: ") for s in found.solutions
    )


@pytest.mark.parametrize(
    ("returned", "said"),
    [
        ("anyhow::Result<Option<Vec<String>>>", "`None`"),
        ("Result<Result<Vec<String>, String>, std::io::Error>", "an error"),
        ("anyhow::Result<Vec<String>>", "`None` or an error"),  # no layer inside
    ],
)
def test_a_call_whose_outer_result_a_question_mark_took_off_says_what_it_held(
    tmp_path: Path, returned: str, said: str
) -> None:
    """tantivy's `self.inner.next_element::<V>()?.expect(..)`: an `Err` leaves at the `?`,
    so what `expect` meets is the `Option` inside (reading 317 read "None/Err" as false)."""
    text = source(returned).replace(
        '.context("failed to find the libraries")?', '?.expect("found before")'
    )

    found = explained(tmp_path, text)

    assert (
        f"What `find_libraries(path)?` gave after its `?` was {said}: an error of the call itself"
        " leaves at that `?`"
    ) in found.documentation
    step = {"`None`": "None", "an error": "Err"}.get(said, "None/Err")
    assert f"`find_libraries(path)?` was {step} (`expect`)" in found.triggerScenarios


def _with(body: str, more: str = "") -> str:
    return (
        "pub struct Server {\n    writer: Option<Writer>,\n    store: Result<Store, String>,\n"
        "    shared: Arc<Store>,\n}\n"
        "pub struct Config {\n    server: Arc<Server>,\n}\n"
        "impl Server {\n"
        "    pub fn serve(\n"
        "        &self, matches: &ArgMatches, items: Vec<u8>, config: &Config,\n"
        "    ) -> anyhow::Result<()> {\n"
        f"        let v = {body};\n"
        "        Ok(())\n"
        "    }\n"
        "}\n"
        f"{more}"
    )


@pytest.mark.parametrize(
    ("body", "step"),
    [
        # a dependency's method, named after no fn of the repository: clap's `get_one`,
        # itertools' `exactly_one`, reqwest's awaited `json()` (reading 325, difftastic's
        # `matches.get_one("graph-limit")` read "was None/Err")
        ('matches.get_one::<usize>("limit").expect("has a default")', "was None"),
        ('items.into_iter().exactly_one().expect("one item")', "was Err"),
        # given nothing, it is no `get_one` clap has
        ('matches.get_one().expect("has a default")', "was None/Err"),
        # a field of the method's own type, by its written type
        ('self.writer.as_ref().expect("opened")', "was None"),
        ('self.store.as_ref().expect("opened")', "was Err"),
        ('self.writer.expect("opened")', "was None"),
        ('self.shared.as_ref().expect("opened")', "was None/Err"),
        # a chain of fields off a parameter, by its type's struct
        ('config.server.writer.as_ref().expect("opened")', "was None"),
        ('config.server.shared.as_ref().expect("opened")', "was None/Err"),
        ('config.missing.writer.as_ref().expect("opened")', "was None/Err"),
    ],
)
def test_a_dependency_s_method_or_an_own_field_says_what_it_gave(
    tmp_path: Path, body: str, step: str
) -> None:
    found = explained(tmp_path, _with(body))

    guarded = body.rsplit(".expect(", 1)[0]
    assert f"`{guarded}` {step} (`expect`)" in found.triggerScenarios


def test_a_method_the_repository_has_a_fn_of_is_not_taken_for_a_dependency_s(
    tmp_path: Path,
) -> None:
    # cargo's own `get_one` returns a `CargoResult`: a name the repository has is not clap's
    mine = (
        "pub struct Set;\nimpl Set {\n    pub fn get_one(&self, id: u8) -> Option<u8> { None }\n}\n"
    )
    found = explained(tmp_path, _with('matches.get_one("x").expect("has a default")', mine))

    assert '`matches.get_one("x")` was None/Err (`expect`)' in found.triggerScenarios
