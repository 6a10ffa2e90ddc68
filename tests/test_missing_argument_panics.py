"""A panic on a command-line argument the program reads by position
(`std::env::args().nth(1).expect("USAGE: fix-json <file>")`) is its user's: the program ran
with fewer arguments than it reads. Its explanation says to pass the argument, classes it
as an invalid argument, and calls it no bug; a read the code does not show as the command
line's (`v.nth(1)` of any iterator) is still an assumption of the code."""

from __future__ import annotations

import pytest
from site_fixtures import explained


@pytest.mark.parametrize(
    ("lines", "read"),
    [
        (['let f = std::env::args().nth(1).expect("USAGE: fix-json <file>");'], None),
        (['let f = env::args_os().skip(1).next().expect("missing <INPUT> file");'], None),
        (
            ["let mut args = std::env::args();", 'let p = args.nth(1).expect("No socket path");'],
            "args.nth(1)",
        ),
        (  # mdBook's xtask: `bump` and then its level
            [
                "let mut args = std::env::args().skip(1).peekable();",
                'let level = args.next().expect("one of major, minor, patch");',
            ],
            "args.next()",
        ),
        (
            [
                "let args: Vec<String> = env::args().collect();",
                'let p = args.get(1).expect("give a path");',
            ],
            "args.get(1)",
        ),
    ],
)
def test_a_panic_on_a_missing_command_line_argument_says_to_pass_it(
    lines: list[str], read: str | None
) -> None:
    body = "\n".join(f"    {line}" for line in lines)
    explanation = explained(f"fn main() {{\n{body}\n}}\n")
    shown = read or lines[-1].split(" = ", 1)[1].split(".expect", 1)[0]
    assert explanation.solutions[-1] == (
        "It panics here (`expect`) when the program runs with fewer command-line arguments "
        f"than it reads: `{shown}` found none. Run it again with the arguments it expects "
        "(its usage, or the message, names them)."
    )
    assert not any("bug" in s for s in explanation.solutions)
    assert explanation.backgroundTag == "invalid-argument"
    assert "Class: Invalid argument." in explanation.documentation
    assert explanation.exampleFix is not None
    assert explanation.exampleFix.endswith(
        f"// A panic here means the program ran without the command-line argument `{shown}` "
        "reads: pass it."
    )
    assert explanation.preventionTips[0] == (
        "Run the program with every command-line argument it reads."
    )


@pytest.mark.parametrize(
    "lines",
    [
        ['let f = words.nth(1).expect("two words");'],  # no binding to the command line
        ["let args = other();", 'let f = args.nth(1).expect("x");'],  # bound to another
        ['let f = std::env::args().nth(1).map(parse).expect("x");'],  # a parse, not the read
    ],
)
def test_a_positional_read_of_anything_else_is_still_an_assumption(lines: list[str]) -> None:
    body = "\n".join(f"    {line}" for line in lines)
    explanation = explained(f"fn main(words: Words) {{\n{body}\n}}\n")
    assert explanation.backgroundTag == "internal-invariant"
    assert "command-line" not in " ".join(explanation.solutions)
