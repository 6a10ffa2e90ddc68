"""A panic on the start of a program (`Command::new("npm").status().expect("npm should be
installed")`) is the environment's: `status()`, `output()` and `spawn()` give an `Err` only
when the program could not be started (not installed, not on `PATH`, not executable), and a
program that ran and failed is an `Ok`. Its explanation names the program, says how to make
it available, classes it as not found, and calls it no bug (mdBook's xtask, reading 114)."""

from __future__ import annotations

import pytest
from site_fixtures import explained


@pytest.mark.parametrize(
    "lines",
    [
        ['let status = Command::new("npm").args(["run", "lint"]).status().expect("npm");'],
        ['let out = std::process::Command::new("npm").output().expect("npm should be there");'],
        ['let out = tokio::process::Command::new("npm").status().await.expect("npm");'],
        ['let mut cmd = Command::new("npm");', 'cmd.arg("ci");', 'cmd.spawn().expect("npm");'],
    ],
)
def test_a_panic_on_a_program_that_could_not_start_says_to_install_it(lines: list[str]) -> None:
    body = "\n".join(f"    {line}" for line in lines)
    explanation = explained(f"async fn lint() {{\n{body}\n}}\n")
    assert explanation.solutions[-1] == (
        "It panics here (`expect`) when the program `npm` could not be started: it is not "
        "installed, not on `PATH` (`command -v npm` finds nothing), or not executable. "
        "Install it or put it on `PATH`, then run again."
    )
    assert not any("bug" in s for s in explanation.solutions)
    assert explanation.backgroundTag == "not-found"
    assert explanation.exampleFix is not None
    assert explanation.exampleFix.endswith(
        "// A panic here means `npm` could not be started: install it or put it on PATH."
    )
    assert (
        explanation.preventionTips[0]
        == "Install `npm` and put it on `PATH` where the program runs."
    )


def test_a_program_held_in_a_variable_is_named_as_written() -> None:
    explanation = explained(
        "fn metadata(cargo: &str) {\n"
        '    let out = Command::new(cargo).arg("metadata").output().expect("run cargo");\n}\n'
    )
    assert explanation.solutions[-1].startswith(
        "It panics here (`expect`) when the program `cargo` names could not be started"
    )


@pytest.mark.parametrize(
    "lines",
    [
        # a program that ran and failed: its status, not its start
        ['let s = Command::new("npm").status().unwrap();', 'assert!(s.success(), "npm failed");'],
        # the wait of a child that started
        ["let mut child = spawned();", 'child.wait().expect("wait");'],
        # another type's `output()`
        ['let o = renderer.output().expect("rendered");'],
    ],
)
def test_what_is_not_the_start_of_a_program_is_not_told_to_install_it(lines: list[str]) -> None:
    body = "\n".join(f"    {line}" for line in lines)
    explanation = explained(f"fn lint() {{\n{body}\n}}\n")
    assert "could not be started" not in " ".join(explanation.solutions)
