"""An error a site makes in a closure of a chain that its own fn drops reaches no caller:
sccache's `normpath` makes `io::Error::other("Error converting string")` in a `map_err(|_|
..)` whose chain ends `.unwrap_or_else(|_| path.replace(..))`, and returns a `String`; its
record said "`normpath` returns an error built by `io::Error::other`" and offered a
try/catch (reading 126, FALSE). The record says the fn drops it, by what, and offers nothing
to catch. A chain that passes the error on (`?`, a `.context(..)`) is as before."""

from __future__ import annotations

import pytest
from site_fixtures import explained

from pipeline.languages.rust.sites import find_sites

NORMPATH = """\
fn normpath(path: &str) -> String {
    File::open(path)
        .and_then(|f| {
            let o = name_of(f);
            o.into_string()
                .map(|s| s.replace('a', "b"))
                .map_err(|_| io::Error::other("Error converting string"))
        })
        .unwrap_or_else(|_| path.replace('a', "b"))
}
"""


def _discarded(body: str) -> str | None:
    source = f"fn f(s: &str) -> Result<u8> {{\n{body}\n}}\n"
    (site,) = find_sites("src/x.rs", source.encode()).sites
    return site.facts.discarded


def test_an_error_its_fn_drops_is_said_to_reach_no_caller() -> None:
    explanation = explained(NORMPATH)
    assert explanation.documentation.startswith(
        "`normpath` makes this error in a closure in `src/x.rs`, and drops it there: the chain "
        "it is made in ends in `.unwrap_or_else(|_| ..)`, which keeps nothing of it, so no "
        "caller of `normpath` gets it and no user reads it."
    )
    assert explanation.tryCatchPattern is None
    assert explanation.solutions == [
        "Nothing to handle: `normpath` drops this error where it makes it (`.unwrap_or_else(|_| "
        "..)`) and goes on with another value. Look here only when that value is not what you "
        "expected."
    ]


@pytest.mark.parametrize(
    ("body", "dropped"),
    [
        ('    let v = s.parse::<u8>().map_err(|_| Error::new("bad")).ok();\n    Ok(1)', "`.ok()`"),
        (
            '    if let Ok(v) = s.parse::<u8>().map_err(|_| anyhow!("no")) {\n'
            "        return Ok(v);\n    }\n    Ok(0)",
            "`if let Ok(..) = ..`",
        ),
        # passed on: by `?`, by a context, by the fn's value
        ('    let v = s.parse::<u8>().map_err(|e| anyhow!("no: {e}"))?;\n    Ok(v)', None),
        ('    s.parse::<u8>().map_err(|_| anyhow!("no")).map(|v| v + 1)', None),
        # made in a closure run later (`map`): no error of the chain's
        ('    let f = s.len().checked_sub(1).ok_or_else(|| anyhow!("empty"))?;\n    Ok(0)', None),
    ],
)
def test_what_drops_the_error_is_named_as_written(body: str, dropped: str | None) -> None:
    assert _discarded(body) == dropped


def test_a_panic_in_a_fallback_closure_is_no_dropped_error() -> None:
    explanation = explained(
        'fn f(s: &str) -> u8 {\n    s.parse().unwrap_or_else(|_| panic!("not a number"))\n}\n'
    )
    assert "drops it there" not in explanation.documentation
