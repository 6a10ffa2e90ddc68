"""A panic that asserts what its code holds true (an `unreachable!` arm, an `.expect(..)` on
a value just checked, an `assert!`) is met by a user only where that assumption breaks: bat's
`_ => unreachable!("other values for --binary are not allowed")`, which clap's value parser
rules out, read "users meet it through `bat` (fn main), subcommand `cache`" (reading 300).
Runs get there through those entry points; the sentence says so, and that it fails only
where the assumption does not hold. A `panic!` the code raises on a state it tests ("engine
is read-only") is met by whoever brings that state: said as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_reach import graph_of

from pipeline.analyze.static import explain_apart, with_reach
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import SiteSpec, reaches_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

MAIN = """\
fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    run(&mode);
}
fn run(mode: &str) {
    match mode {
        "plain" => {}
        "color" => {}
        _ => unreachable!("other values for --mode are not allowed"),
    }
    let parts: Vec<&str> = mode.split(',').collect();
    let first = parts.first().expect("split gives one part at least");
    if first.is_empty() {
        panic!("mode is empty");
    }
}
"""


@pytest.mark.parametrize(
    ("message", "said"),
    [
        (
            "other values for --mode",
            "runs get here through `main` (fn main); it fails there only where what its code "
            "assumes does not hold.",
        ),
        (
            "split gives one part",
            "runs get here through `main` (fn main); it fails there only where what its code "
            "assumes does not hold.",
        ),
        ("mode is empty", "users meet it through `main` (fn main)."),
    ],
)
def test_an_assertion_s_entry_points_are_where_runs_get(
    tmp_path: Path, message: str, said: str
) -> None:
    files = {"Cargo.toml": '[package]\nname = "tool"\n', "src/main.rs": MAIN}
    line = next(n for n, text in enumerate(MAIN.splitlines(), 1) if message in text)
    graph = graph_of(tmp_path, files)
    reach = reaches_of([SiteSpec("r", None, "src/main.rs", line, (), True)], graph)["r"]
    scan = find_sites("src/main.rs", MAIN.encode())
    contexts = build_contexts("o/r", "ab" * 20, RepoScan(scans={"src/main.rs": scan}))
    (context,) = [c for c in contexts if c.site.line == line]

    explanation = with_reach(explain_apart(context), reach, "ab" * 20, context.site)

    assert explanation.commonSituations.endswith(f"At commit ababababab, {said}")
