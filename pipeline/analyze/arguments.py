"""The command-line argument a panic's guarded call reads by position: a program run with
fewer arguments than it reads panics there (`std::env::args().nth(1).expect("USAGE: ..")`,
cargo's `fix-json` example, meilisearch's `filter-parser`), which is its user's input, not a
broken invariant of the code (reading 109's families; "a bug" before).

Only a read the code shows: `env::args()` or `env::args_os()` (after `std::` or not), a
`.skip(n)` and then `.nth(k)` or `.next()`; or such a read of a name bound to `env::args()`
in the lines above the site (`let mut args = std::env::args();` then `args.nth(1)`,
firecracker's uffd handlers), also collected (`let args: Vec<String> = env::args().collect()`
then `args.get(1)`). Pure."""

from __future__ import annotations

import re

from pipeline.analyze.guarded import guarded_call
from pipeline.core.sitetypes import Site

_ARGS = r"(?:(?:::)?std::)?env::args(?:_os)?\(\)(?:\.skip\(\d+\))?(?:\.peekable\(\))?"
_READ = re.compile(rf"^({_ARGS})\.(?:nth\(\d+\)|next\(\))$")
_NAMED_READ = re.compile(r"^([a-z_]\w*)\.(nth\(\d+\)|next\(\)|get\(\d+\))$")


def _binding(name: str, collected: bool) -> re.Pattern[str]:
    """`let [mut] name[: T] = env::args()[.skip(n)]` (`collected`: then `.collect()`)."""
    tail = r"\s*\.\s*collect(?:::<[^>]*>)?\(\)" if collected else ""
    return re.compile(rf"\blet\s+(?:mut\s+)?{re.escape(name)}\s*(?::[^=]*)?=\s*{_ARGS}{tail}\s*;")


def missing_argument(site: Site) -> str | None:
    """The read of a command-line argument that gave no value, when an `.expect(..)`'s
    guarded call is one (the innermost condition `std::env::args().nth(1) was None
    (expect)`), as the code writes it; None for any other site."""
    read = guarded_call(site, ("None",)) if site.kind == "expect" else None
    if read is None:
        return None
    if _READ.match(read):
        return read
    named = _NAMED_READ.match(read)
    if named is None:
        return None
    above = "\n".join(site.window.split("\n")[: max(0, site.line - site.window_start)])
    collected = named[2].startswith("get(")
    return read if _binding(named[1], collected).search(above) else None
