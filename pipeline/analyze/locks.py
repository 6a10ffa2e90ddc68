"""A panic on a lock that returned an error (`self.vmm.lock().expect("Poisoned lock")`): std's
`Mutex::lock` and `RwLock::read`/`write` return one only when the lock is poisoned, that is
when another thread panicked while it held the lock. This panic follows that first one, whose
message was printed before it: the first is the error to read (262 records of 26
repositories, firecracker's 113 among them, had been told "the code assumed
`self.vmm.lock()` always gives a value", reading 110).

Only a call the code shows: `.lock()` on a name or a field (not `try_lock`, which also
fails when the lock is held), or at the end of a call chain where the message says poisoned; `.read()` and `.write()` with no argument only where the
message or the receiver's name says lock (xshell's `cmd.read()` runs a command). Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.analyze.guarded import guarded_call
from pipeline.core.sitetypes import EARLIER_STEPS, Site

_LOCKED = re.compile(r"^((?:[A-Za-z_]\w*(?:::|\.))*[A-Za-z_]\w*)\.(lock|read|write)\(\)$")
_LOCK_WORDS = re.compile(r"lock|poison|mutex", re.IGNORECASE)
_CHAINED = re.compile(r"[)?]\s*\.lock\(\)$")
_POISON_WORDS = re.compile(r"poison", re.IGNORECASE)
# a `match` arm or an `if let` on the `Err` of a call, as `Condition.text` writes it
_ERR_ARM = re.compile(
    r"^(?:match (?P<matched>.+?): Err\([^()]*\) =>|let Err\([^()]*\) = (?P<bound>.+))$"
)


def poisoned_lock(site: Site) -> str | None:
    """The lock call whose error a panicking site's innermost condition is (`self.vmm.lock()`),
    as the code writes it; None for any other site."""
    call = guarded_call(site, ("Err", "None/Err")) if site.kind == "expect" else None
    if call is None and site.kind == "panic" and site.facts.conditions:
        # `match self.sim.write() { Err(_) => safe_panic!("failed to acquire write lock.") }`
        # (tikv's, read "Concurrency conflict" and "one writer at a time", reading 150)
        arm = _ERR_ARM.match(site.facts.conditions[-1].text)
        call = (arm["matched"] or arm["bound"]).strip() if arm is not None else None
    if call is None:
        return None
    locked = _LOCKED.match(call)
    if locked is None:
        # a lock at the end of a call chain (`..get_mmds().ok_or(..)?.lock()`) only where the
        # message says it is poisoned: a chain may end in `std::fs::File::lock`'s I/O error
        chained = _CHAINED.search(call)
        if chained is None or not _POISON_WORDS.search(site.message):
            return None
        # the lock the whole chain gives, not its steps after the `?` (`…?.lock()`)
        return (
            site.facts.receiver if call.startswith(EARLIER_STEPS) and site.facts.receiver else call
        )
    if locked[2] != "lock" and not (
        _LOCK_WORDS.search(site.message) or _LOCK_WORDS.search(locked[1])
    ):
        return None
    return call


def unwinding_only(aborts: Sequence[str]) -> str:
    """What a poisoned lock's trigger and situations add where the workspace's `aborts`
    profiles abort on a panic: they never get there (firecracker's recheck of reading 110)."""
    return (
        "Only a build that unwinds on a panic gets here: this repository's workspace sets "
        f'`panic = "abort"` in its {profiles_named(aborts)}.'
    )


def profiles_named(aborts: Sequence[str]) -> str:
    """ "`dev` and `release` profiles", "`release` profile"."""
    names = " and ".join(f"`{name}`" for name in aborts)
    return f"{names} {'profile' if len(aborts) == 1 else 'profiles'}"
