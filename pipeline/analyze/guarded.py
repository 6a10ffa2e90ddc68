"""The call whose outcome a site's innermost condition is: `x.lock() was Err (expect)` says
`x.lock()` gave an `Err`, `dirs::home_dir() was None/Err (context)` that it gave no value
(an `Option` or a `Result`: the scan does not know which). The rules that read what such a
call is (a command-line argument, a lock, a directory lookup) start here. Pure."""

from __future__ import annotations

import re
from collections.abc import Collection

from pipeline.core.sitetypes import Site

_OUTCOME = re.compile(r" was (None|Err|None/Err) \(\w+\)$")


def guarded_call(site: Site, outcomes: Collection[str]) -> str | None:
    """The call of the innermost condition, as written, when what it gave is one of
    `outcomes` (`None`, `Err`, `None/Err`); None for any other condition, or none."""
    if not site.facts.conditions:
        return None
    text = site.facts.conditions[-1].text.removeprefix("closure: ")
    found = _OUTCOME.search(text)
    if found is None or found[1] not in outcomes:
        return None
    return text[: found.start()].strip()
