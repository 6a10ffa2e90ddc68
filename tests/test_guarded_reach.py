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
