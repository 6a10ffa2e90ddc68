"""A platform directory a lookup did not find (`dirs::home_dir()`, `dirs::cache_dir()`,
`ProjectDirs::from(..)`, a wrapper's `.home_dir()`) is the environment's: no home directory
(`HOME` unset) or a directory the platform lacks. It is classed a configuration error and
the advice names the variable, never file-system permissions or disk room (bat's "Could not
get home directory" was an I/O error; reading 109)."""

from __future__ import annotations

import pytest
from site_fixtures import explained

_HOME = (
    "found no directory: it comes from the environment ({first}the home directory, which is "
    "`HOME` on Unix and the user's profile on Windows). Set `HOME` in the environment the "
    "program runs in (a service, a container or `sudo` may run it without one)."
)


@pytest.mark.parametrize(
    ("statement", "call", "first"),
    [
        ('dirs::home_dir().expect("Could not get home directory")', "dirs::home_dir()", ""),
        (
            'dirs::cache_dir().expect("could not create cache dir")',
            "dirs::cache_dir()",
            "`XDG_CACHE_HOME` first on Linux, then ",
        ),
        (
            'ProjectDirs::from("com", "x", "y").expect("no project directories")',
            'ProjectDirs::from("com", "x", "y")',
            "",
        ),
        (
            'cfg.process.home_dir().map(|p| p.join(".rustup")).expect("could not find home dir")',
            "cfg.process.home_dir()",
            "",
        ),
    ],
)
def test_a_panic_on_a_directory_lookup_is_the_environment_s(
    statement: str, call: str, first: str
) -> None:
    explanation = explained(f"fn f(cfg: &Cfg) {{\n    let _ = {statement};\n}}\n")
    assert explanation.solutions[-1] == f"`{call}` " + _HOME.format(first=first)
    assert explanation.backgroundTag == "configuration-error"
    assert not any("permission" in s or "bug" in s for s in explanation.solutions)
    assert explanation.exampleFix is not None
    assert f"// A panic here means `{call}` found no directory" in explanation.exampleFix
    assert explanation.preventionTips[0].startswith("Run the program where `HOME` is set")


def test_an_error_returned_on_a_directory_lookup_is_the_environment_s() -> None:
    source = (
        "fn f() -> anyhow::Result<()> {\n"
        "    let Some(home) = dirs::home_dir() else {\n"
        '        anyhow::bail!("Failed to get home directory");\n'
        "    };\n"
        "    Ok(())\n"
        "}\n"
    )
    explanation = explained(source)
    assert "`dirs::home_dir()` " + _HOME.format(first="") in explanation.solutions
    assert explanation.backgroundTag == "configuration-error"


@pytest.mark.parametrize(
    "statement",
    [
        'dirs::home_dir().filter(|p| p.is_absolute()).expect("x")',  # the filter may refuse it
        'config.cache_dir.as_ref().expect("x")',  # a field, no lookup
        'home_dir_of(user).expect("x")',
    ],
)
def test_other_calls_are_not_read_as_a_directory_lookup(statement: str) -> None:
    explanation = explained(f"fn f(config: &C, user: &str) {{\n    let _ = {statement};\n}}\n")
    assert "found no directory" not in " ".join(explanation.solutions)
