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
