"""A panic on the system clock: `SystemTime::now().duration_since(UNIX_EPOCH).expect(..)`
gives an `Err` only when the clock reads a time before 1970-01-01 (std's `duration_since`:
`Err` when the argument is later than the time). That is the machine's clock, not a
broken invariant of the code nor a setting of the program's (class Operation failed) (bottom's reading 124, and 34 records over 35 repositories read
"The code assumed .. always gives a value"). Only what the code shows: the innermost
condition is that call on `UNIX_EPOCH`, written with or without its path. Pure."""

from __future__ import annotations

import re

from pipeline.analyze.guarded import guarded_call
from pipeline.core.sitetypes import Site

_SINCE_EPOCH = re.compile(
    r"\.\s*duration_since\(\s*(?:(?:::)?std::time::)?(?:SystemTime::)?UNIX_EPOCH\s*\)$"
)

CLOCK_ADVICE = (
    "the system clock reads a time before 1970-01-01 (`UNIX_EPOCH`): `duration_since` "
    "gives an `Err` only then. Set the machine's clock (NTP, or the container's host), then "
    "run again."
)


def clock_before_epoch(site: Site) -> bool:
    """Whether a panicking site's innermost condition is a `duration_since(UNIX_EPOCH)`
    that gave an `Err`: the clock was set before 1970."""
    if site.kind not in ("expect", "panic"):
        return False
    call = guarded_call(site, ("Err", "None/Err"))
    return call is not None and _SINCE_EPOCH.search(call) is not None
