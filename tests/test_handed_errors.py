"""An error a call makes inside a closure that its fn hands to another call, and whose
value the fn does not use, goes to that call, not to the fn's caller: ruff's rules hand
their fix builders to `diagnostic.try_set_fix(|| ..)`, which logs the error at debug level,
and the records said users meet it from the lint run (reading 160)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_crate_only import explained
from test_reach import graph_of

from pipeline.core.reach import no_entry_note
from pipeline.scan.callerpaths import SiteSpec, reaches_of

RULE = (
    "pub fn check(diagnostic: &mut Diagnostic) {\n"
    "    {handing}\n"
    "}\n"
    "fn build_fix(at: usize) -> anyhow::Result<Fix> {\n"
    '    anyhow::bail!("Unable to find trailing comma")\n'
    "}\n"
)


@pytest.mark.parametrize(
    "handing",
    [
        "diagnostic.try_set_fix(|| build_fix(1));",
        "diagnostic.try_set_fix(|| { let fix = build_fix(1)?; Ok(fix) });",
        "diagnostic.try_set_fix(|| async move { build_fix(1) });",
        # a chain that passes it on first (ruff's `remove_member(..).map(|edit| ..)`)
        "diagnostic.try_set_fix(|| build_fix(1).map(|fix| fix.unsafe_edit()));",
    ],
)
def test_an_error_handed_in_a_closure_to_a_call_whose_value_is_unused_goes_no_further(
    tmp_path: Path, handing: str
) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": RULE.replace("{handing}", handing),
    }
    graph = graph_of(tmp_path, files)

    reach = reaches_of([SiteSpec("r", None, "src/lib.rs", 5, ())], graph)["r"]

    assert (reach.paths, reach.dropped_by) == ((), 1)


def test_a_path_above_says_which_call_took_it(tmp_path: Path) -> None:
    text = RULE.replace("{handing}", "diagnostic.try_set_fix(|| fixed(1));") + (
        "fn fixed(at: usize) -> anyhow::Result<Fix> {\n    build_fix(at)\n}\n"
    )
    graph = graph_of(tmp_path, {"Cargo.toml": '[package]\nname = "tool"\n', "src/lib.rs": text})

    reach = reaches_of([SiteSpec("r", None, "src/lib.rs", 5, ())], graph)["r"]

    (path,) = reach.paths
    assert [h.name for h in path.hops] == ["fixed", "build_fix"]
    assert no_entry_note(path) == (
        "every caller of `fixed` the index found stops the error it returns there, passing "
        "none on: `check` (src/lib.rs:2) hands it in a closure to `.try_set_fix(..)`, ignoring "
        "what that returns and goes on"
    )


@pytest.mark.parametrize(
    "handing",
    [
        "diagnostic.try_set_fix(|| build_fix(1))?;",  # its value is used: `?`
        "let fixed = diagnostic.try_set_fix(|| build_fix(1));",  # kept
        "diagnostic.try_set_fix(|| { let _fix = build_fix(1); Ok(()) });",  # not the closure's
        "tasks.spawn_blocking(move || build_fix(1));",  # a task set the fn may join later
    ],
)
def test_a_closure_whose_call_s_value_is_used_passes_it_on(tmp_path: Path, handing: str) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "tool"\n',
        "src/lib.rs": RULE.replace("{handing}", handing),
    }
    graph = graph_of(tmp_path, files)

    reach = reaches_of([SiteSpec("r", None, "src/lib.rs", 5, ())], graph)["r"]

    assert [[h.name for h in p.hops] for p in reach.paths] == [["check", "build_fix"]]


def test_a_crate_only_fn_every_caller_keeps_the_error_of_has_no_catch(tmp_path: Path) -> None:
    # ruff's fix builders: the catch was offered for code that hands them to `try_set_fix`
    # (recheck 160)
    text = RULE.replace("{handing}", "diagnostic.try_set_fix(|| build_fix(1));")
    found = explained(tmp_path, text)

    assert found.tryCatchPattern is None
    assert found.solutions[0].startswith("Every caller the index found stops this error")
