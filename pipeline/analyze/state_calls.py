"""A panic on the state of the value a method is called on: the calls made on it before.

pingora's `HttpCache` moves its `phase` on as its methods run (`set_cache_key` sets
`CachePhase::CacheKey`, `set_miss` `CachePhase::Miss`, ..) and each method panics on a phase
it does not handle (`_ => panic!("wrong phase {:?}", self.phase)`). That read "Internal
invariant violated .. a bug, not something to fix in your input" (reading 201): the panic is
the order of the calls, which whoever makes them decides. When the scan found that every
condition on the way reads one field of `self` alone and fns of the impl assign it
(`Facts.state_field`, `statefield`), the advice names those fns, and a check reads the field
through the impl's `pub` getter where one returns it. Pure."""

from __future__ import annotations

import re

from pipeline.analyze.static_code import impl_type, where
from pipeline.core.sitetypes import Site, value_name
from pipeline.scan.context import error_type

SETTERS_SHOWN = 6
# the advice sentence for a caller, which a fn only its crate calls says otherwise
# (`crate_only.passed_within_the_crate`)
STATE_ADVICE_LEAD = "If your code makes those calls, "
# panics that test an assumption; `todo!`/`unimplemented!` leave a case out
_STATE_KINDS = frozenset(("panic", "unreachable", "assert", "expect"))


def state_panic(site: Site) -> bool:
    """Whether the site panics on the state of its method's `self`: a field that its
    conditions read alone and that other fns of the impl assign."""
    facts = site.facts
    # a fn that panics on what it set itself (risingwave's "just transitioned out of
    # Seeding") asserts its own step: no earlier call decides it
    others = [fn for fn, _value in facts.state_setters if fn != facts.enclosing_fn]
    return (
        site.kind in _STATE_KINDS
        and error_type(site) == "panic"
        and bool(facts.state_field and others and facts.enclosing_impl)
    )


def state_owner(site: Site) -> str:
    """The type whose state it is: the impl's (`impl Trait for T`: `T`)."""
    return impl_type(site.facts.enclosing_impl or "")


def setters_sentence(site: Site) -> str:
    """ "In `impl HttpCache`, `phase` is set by `disable` (to `CachePhase::Disabled(reason)`),
    `bypass` (to `CachePhase::Bypass`) and 10 more fns." """
    facts = site.facts
    shown = [
        f"`{fn}` (to `{value}`)" if value else f"`{fn}` (to a value it computes)"
        for fn, value in facts.state_setters[:SETTERS_SHOWN]
    ]
    more = len(facts.state_setters) - len(shown)
    listed = ", ".join(shown[:-1]) + (" and " if len(shown) > 1 else "") + shown[-1]
    if more:
        listed = f"{', '.join(shown)} and {more} more fn{'s' if more > 1 else ''}"
    return f"In `impl {state_owner(site)}`, `{facts.state_field}` is set by {listed}."


def state_solutions(site: Site) -> list[str]:
    """What the state tells: which field, who sets it, and what a caller does about it."""
    facts = site.facts
    owner, field = state_owner(site), facts.state_field
    getter = (
        f" (`{value_name(owner)}.{facts.state_getter.lstrip('&')}()` reads it)"
        if facts.state_getter
        else ""
    )
    return [
        f"{where(site)} panics on the state its `{owner}` is in (`self.{field}`), not on a "
        "value a call passes: the methods called on it before this one set that state. "
        + setters_sentence(site),
        f"{STATE_ADVICE_LEAD}call {where(site)} only once those before it have brought "
        f"`{field}` to a state it handles{getter}. If the backtrace (`RUST_BACKTRACE=1`) "
        "shows only the repository's own code making them, it is a bug there: report it "
        "upstream with the full message and the version you run.",
    ]


def state_tip(site: Site) -> str:
    """The prevention tip: the order of the calls."""
    return (
        f"Call `{state_owner(site)}`'s methods in the order its `{site.facts.state_field}` "
        "allows: each one expects the state the calls before it left."
    )


def state_comment(site: Site) -> str:
    """The exampleFix's last comment."""
    return (
        f"// A panic here means `self.{site.facts.state_field}` was in a state "
        f"{where(site)} does not handle: the calls made on it before decide that."
    )


def through_getter(code: str | None, site: Site) -> str | None:
    """A check that reads the state field, read through the impl's `pub` getter instead
    (`http_cache.phase` -> `http_cache.phase()`): code outside the module can write that.
    Not where it compares the value a getter returns a reference to (`&self.tabs`)."""
    facts = site.facts
    if code is None or not facts.state_field or not facts.state_getter:
        return code
    field, getter = re.escape(facts.state_field), facts.state_getter.lstrip("&")
    if facts.state_getter.startswith("&") and re.search(
        rf"\.{field}\b\s*(?:[=!<>]=|[<>])|(?:[=!<>]=|[<>])\s*[\w.]*\.{field}\b", code
    ):
        return code  # a reference is no value to compare: the field stays, for its module
    return re.sub(rf"(?<=[\w)])\.{field}\b(?!\s*\()", f".{getter}()", code)
