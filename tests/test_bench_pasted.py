"""`bench.pasted_stage`: the error lines a repository's own tests expect, as a user pastes them."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def test_error_lines_are_the_first_lines_of_error_literals_with_snapshot_tokens_filled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(ROOT))  # the benches are no installed package
    error_lines = importlib.import_module("bench.pasted_stage").error_lines
    cargo = (
        'str![[r#"\n[ERROR] could not find `Cargo.toml` in `[ROOT]/foo` or any parent directory\n'
        '"#]]\n'
        '.with_stderr_data("[ERROR] no such command: `xyz`\\n\\nhelp: view all installed")'
    )
    just = '.stderr("error: justfile does not contain recipe `foo`\\n")\n.stderr("error: x")'
    meilisearch = '@r###"\n{\n  "message": "Index `doggo` not found.",\n  "code": "index_not_found"'
    cargo_cause = 'str![[r#"\n[ERROR] failed to parse manifest\n\nCaused by:\n  invalid artifact specifier\n"#]]'
    mdbook = (
        'str![[r#"\n INFO Book building has started\nERROR Rendering failed\n'
        '[TAB]Caused by: print.md is reserved for internal use\n[TAB]Caused by: [NOT_FOUND]\n"#]]\n'
        'eprintln!("error: `{cmd:?}` failed");'
    )
    found = error_lines([cargo, just, meilisearch, mdbook, cargo_cause])
    assert found == [
        "Index `doggo` not found.",
        "error: Rendering failed",
        "error: could not find `Cargo.toml` in `/home/user/foo` or any parent directory",
        "error: failed to parse manifest",
        "error: justfile does not contain recipe `foo`",
        "error: no such command: `xyz`",
        "invalid artifact specifier",  # a cause on the line below `Caused by:`, as printed
        "print.md is reserved for internal use",
    ]  # not "error: x" (too short to tell anything), a cause that is only a placeholder, nor
    # a format string
