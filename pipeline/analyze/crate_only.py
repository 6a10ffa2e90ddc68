"""What a reader is told of an error whose fn only code in its own crate can call
(`Reach.internal`: no entry point, no trait's method). Pure.

Such a fn's caller is the crate itself: "pass values the check accepts" and a `match` on
its result are advice for the crate's own code, which a user of the program or of the
library cannot follow as written (cargo's private `validate_profile_override`, ruff's
`pub(crate)` fix builders, vector's config helpers: readings 160-163). The advice stays,
said for whom it is, and the reader outside is pointed at the way in: the callers above,
and the public API the index found leading there."""

from __future__ import annotations

import re

from pipeline.analyze.state_calls import STATE_ADVICE_LEAD
from pipeline.analyze.static_advice import (
    CALLER_ADVICE,
    CONVERT_ADVICE,
    PASSED_LEAD,
    PASSED_TAIL,
    lowered,
    said_before,
)
from pipeline.analyze.taxonomy import INVALID_ARGUMENT, load_taxonomy
from pipeline.core.reach import Reach


def crate_only(reach: Reach | None) -> bool:
    """Whether only code in the site's crate can call the site's fn (`Reach.internal`)."""
    return reach is not None and bool(reach.internal)


def public_way_in(reach: Reach) -> str | None:
    """The best path's public API entry, as labelled (`public API `cargo::ops::publish``),
    when one of the paths ends at one; else None."""
    return next(
        (p.entry_label for p in reach.paths if p.entry == "pub-api" and p.entry_label), None
    )


def callable_in(scope: str | None) -> str:
    """Where `Reach.internal` says the code is that can call the fn: "its own module",
    "its own crate", "module `a::b`"."""
    scope = scope or "crate"
    if scope.startswith("module `"):
        return scope
    if scope.startswith("fn `"):  # declared in that fn's body
        return f"the body of {scope}"
    return "its parent module" if scope == "parent module" else f"its own {scope}"


def catch_for_the_crate(pattern: str, fn: str, reach: Reach) -> str:
    """A caller's `match` on the fn's result, headed by who can write it: code in its module
    or crate. Code outside is pointed at the public API the index found leading there."""
    where = callable_in(reach.internal)
    head = [f"// Only code in {where} can call {fn}; code there could handle it so."]
    public = public_way_in(reach)
    if public is not None:
        head.append(f"// From outside the crate, the caller paths reach it through {public}.")
    elif reach.paths:
        head.append("// Its callers (the caller paths) decide what a user sees of it.")
    return "\n".join(head) + "\n" + pattern


def catch_for_the_namers(
    pattern: str | None, owner: str | None, scope: str | None, holder: str | None = None
) -> str | None:
    """A match on an error type's variant (`Err(GitInfoError::InvalidRef { .. })`) headed by
    who can name the type, where code outside its crate cannot (`scope`, as `Reach.internal`
    names it: its visibility, `Facts.type_visibility`, or the index's `unnamed_types`); as it
    was without a scope, or when it is headed already. A match on its text names no type:
    headed by who gets a value of it when the type that holds it (`holder`: the type itself,
    or the one its builders return it in) is the one of restricted visibility (just's
    `pub(crate) struct CompileError`, reading 281); as it was otherwise."""
    if pattern is None or not owner or not scope or pattern.startswith("// "):
        return pattern
    if re.search(rf"\b{re.escape(owner)}\s*(?:::|\{{)", pattern):
        return (
            f"// Only code in {callable_in(scope)} can name `{owner}`; code there could "
            f"handle it so.\n{pattern}"
        )
    if holder is not None:
        return (
            f"// It comes as a `{holder}`, a type only code in {callable_in(scope)} can name; "
            f"code there could handle it so.\n{pattern}"
        )
    return pattern


def passed_within_the_crate(solution: str, scope: str | None = "crate") -> str:
    """ "The check depends on what is passed to `f` (`x`): pass values the check accepts."
    said of a fn only its module or crate calls (`scope`, `Reach.internal`): its callers set
    the value; the reader follows it up to where it is set. Any other solution is returned
    as it is."""
    where = callable_in(scope)
    if solution.startswith(PASSED_LEAD) and solution.endswith(PASSED_TAIL):
        fn, _, inputs = solution[len(PASSED_LEAD) : -len(PASSED_TAIL)].partition(" (")
        return (
            f"{PASSED_LEAD}{fn} ({inputs}, which only code in {where} calls: its "
            "callers set that value, from the program's state or from what a user gave it; "
            "follow it up to where it is set and correct it there."
        )
    if solution.startswith(STATE_ADVICE_LEAD):  # the calls on its state: the crate's own
        return (
            f"Only code in {where} calls it, so the repository's own code made those calls in "
            "that order: report it upstream with the full message, the backtrace "
            "(`RUST_BACKTRACE=1`) and the version you run."
        )
    for advice, passed in ((CALLER_ADVICE, "them"), (CONVERT_ADVICE, "it")):
        if advice in solution:
            return solution.replace(
                advice,
                f"passes. Only code in {where} calls it, so the repository's own code "
                f"passed {passed}: report that upstream",
            )
    return solution


def checked_within_the_crate(
    tip: str, fn: str, scope: str | None = "crate", passed: bool = True
) -> str | None:
    """The tip "Check values against what the call accepts .. before passing them" said of
    a fn only its module or crate calls (`scope`, `Reach.internal`): its callers pass the
    values, not a reader (risingwave's private `add_impl`, given the literals `true` and
    `false`, read so beside advice that said its callers set them, reading 202), whether the
    class is the code's or its words' guess. Where its checks read no value a caller passes
    (`passed` false: no parameter, no field of `self`), the tip is left out (None):
    starship's build script checks the paths it lists itself, and read "the values it checks
    come from its callers" (reading 314, F). Any other tip as it is."""
    said = load_taxonomy()[INVALID_ARGUMENT].prevention
    instead = (
        f"Only code in {callable_in(scope)} calls {fn}, so the values it checks come from "
        "its callers: check them where the program sets them, or where it reads them from "
        "its input."
    )
    before = said_before(tip, said)
    if before is None:
        return tip
    if not passed:
        return None
    return before + lowered(instead) if before else instead
