"""`path.to_str().expect(..)` gives `None` only when the path is not UTF-8: a name on the
machine or a path given to the program, not a broken assumption of the code's. cargo's
`home.to_str().expect(..)` on an SSH host key's path read "a bug, not your input" (reading
140; 27 of 63 such records over 44 repositories read "Internal invariant violated")."""

from __future__ import annotations

import pytest
from site_fixtures import explained


@pytest.mark.parametrize(
    "statement",
    [
        'let home = home.to_str().expect("home dir should be utf-8");',
        'let root = workspace_manifest_path.parent().unwrap().to_str().expect("root not utf-8");',
        'let p = Path::new(&self.config.dir).join(&file_name).to_str().expect("not utf8");',
        'let stem = file.file_stem().unwrap().to_str().expect("utf8 filename");',
    ],
)
def test_a_panic_on_a_path_that_is_not_utf8_says_to_use_one_that_is(statement: str) -> None:
    explanation = explained(
        f"fn f(home: &Path, file: &Path) -> u64 {{\n    {statement}\n    1\n}}\n"
    )
    assert "the path is not valid UTF-8" in explanation.solutions[-1]
    assert explanation.backgroundTag == "invalid-argument"
    assert "not UTF-8: use one that is" in (explanation.exampleFix or "")
    assert "Keep the names of the files and directories it reads UTF-8." in (
        explanation.preventionTips
    )


@pytest.mark.parametrize(
    "statement",
    [
        # a header's `to_str` is no path's: visible ASCII, a `Result`
        'let v = value.to_str().expect("header is ascii");',
        # a value the code does not name as a path
        'let s = self.name.to_str().expect("name is utf8");',
        # a `filename` may be a header's, and the authors say it was checked (axum's)
        'let s = filename.to_str().expect("This was a HeaderValue so this can not fail");',
        'let s = rel_file_path.to_str().expect("everything was utf8");',
    ],
)
def test_another_to_str_is_no_path_on_the_machine(statement: str) -> None:
    explanation = explained(f"fn f(value: &HeaderValue) -> u64 {{\n    {statement}\n    1\n}}\n")
    assert "not valid UTF-8" not in " ".join(explanation.solutions)
