"""The program a panic's guarded call starts: `Command::new("npm").args(..).status()
.expect("npm should be installed")` gives an `Err` only when the program could not be started
(not installed, not on `PATH`, not executable) or its output could not be read; a program that
ran and failed is an `Ok` with its exit status. That is the environment of the person who runs
it, not a broken invariant of the code (mdBook's xtask, reading 114: "a bug, report it
upstream" before).

Only what the code shows: a chain from `Command::new(..)` (`std::process::`,
`tokio::process::` or neither before it) to `.status()`, `.output()` or `.spawn()` (an
`.await` after it too), or such a call on a name bound to `Command::new(..)` in the lines
above the site (`let mut cmd = Command::new("git"); .. cmd.output().expect(..)`). Pure."""

from __future__ import annotations

import re

from pipeline.analyze.guarded import guarded_call
from pipeline.core.sitetypes import Site

_NEW = r"(?:(?:::)?(?:std|tokio)::)?(?:process::)?Command::new\("
_STARTS = r"\.\s*(?:status|output|spawn)\(\)(?:\.await)?$"
_CHAIN = re.compile(rf"^{_NEW}(.*){_STARTS}", re.S)
_NAMED = re.compile(rf"^([a-z_]\w*){_STARTS}")


def started_program(site: Site) -> str | None:
    """`Command::new(..)`'s argument as written (`"npm"`, `cargo`, `&path`), when a
    panicking site's innermost condition is the start of that program, which failed; None
    for any other site."""
    if site.kind not in ("expect", "panic"):
        return None
    call = guarded_call(site, ("Err", "None/Err"))
    if call is None:
        return None
    chain = _CHAIN.match(call)
    if chain is not None:
        return _argument(chain[1])
    named = _NAMED.match(call)
    if named is None:
        return None
    above = "\n".join(site.window.split("\n")[: max(0, site.line - site.window_start)])
    bound = re.search(
        rf"\blet\s+(?:mut\s+)?{re.escape(named[1])}\s*(?::[^=]*)?=\s*{_NEW}([^;]*)", above
    )
    return _argument(bound[1]) if bound is not None else None


def _argument(after_new: str) -> str:
    """The argument of `Command::new(` + `after_new`, up to its closing parenthesis."""
    depth, argument = 0, []
    for char in after_new:
        if char == ")" and depth == 0:
            break
        depth += {"(": 1, ")": -1}.get(char, 0)
        argument.append(char)
    return "".join(argument).strip()


def program_named(argument: str) -> str | None:
    """The program a literal argument names (`"npm"` -> `npm`), looked up on `PATH` when it
    holds no `/`; None for an argument held in a variable (`cargo`, `&path`)."""
    literal = re.fullmatch(r'"([^"\\]+)"', argument)
    return literal[1] if literal is not None else None


def path_program(argument: str) -> str | None:
    """The program a literal argument names when the system looks it up on `PATH` (`npm`),
    not by a path (`./gradlew`); None otherwise."""
    name = program_named(argument)
    return name if name is not None and "/" not in name else None


def program_advice(argument: str) -> str:
    """What to do when the program could not be started."""
    name = program_named(argument)
    if name is None:
        return (
            f"the program `{argument}` names could not be started: it does not exist, is not "
            "on `PATH`, or is not executable. Make it available, then run again."
        )
    if "/" in name:
        return f"`{name}` could not be started: it does not exist or is not executable. Make it available, then run again."
    return (
        f"the program `{name}` could not be started: it is not installed, not on `PATH` "
        f"(`command -v {name}` finds nothing), or not executable. Install it or put it on "
        "`PATH`, then run again."
    )
