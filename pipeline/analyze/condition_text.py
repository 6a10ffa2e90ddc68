"""A condition on the way to a site, or to where a builder builds its error, as prose:
"`x > 1` is true", "the arm `Some(v) =>` is taken", "`f(x)` is `None` (else branch)". Pure."""

from __future__ import annotations

import re

from pipeline.core.sitetypes import Condition, checked_above


def describe(condition: Condition) -> str:
    """One condition on the way to a site (or a build) as a step of prose: "`x > 1` is
    true", "the arm `Some(v) =>` is taken", "`f(x)` is `None` (else branch)"."""
    text = f"`{condition.text}`"
    return {
        "if": f"{text} is true",
        "if_let": f"{text} matches",
        "else": _not_held(condition.text, "else branch"),
        "match_arm": f"the arm {text} is taken{_past_arms(condition)}",
        "let_else": f"{text.removesuffix(' did not match`')}` did not match",
        "while": f"inside the loop `while {condition.text}`",
        # a bare `loop` has nothing it goes over (its condition's text is the keyword)
        "loop": "inside a `loop`" if condition.text == "loop" else f"inside the loop over {text}",
        # `if cond { bail!(..) }` above: an earlier check, passed when `cond` is false
        "ensure": _not_held(condition.text, "so the earlier check under it passed")
        if checked_above(condition)
        else f"the earlier check {text} passed",
        "check_failed": f"the check {text} is false",
        "exit": _not_held(condition.text, "so the early exit under it above is not taken"),
        "closure": _closure_prose(condition.text),
    }[condition.kind]


def _past_arms(condition: Condition) -> str:
    """For a catch-all arm (`match s: _ =>`, a bare binding), what the value matched none of:
    the arms before it, as written (hyperfine's "the arm `match range_step_size_hint(..): _
    =>` is taken" said nothing of `(_, Some(size)) if size <= MAX_PARAMETERS`, reading 326);
    "" for any other arm, or none before it. Over `_MOST_ARMS` arms, or a long one, counted."""
    head, colon, pattern = condition.text.rpartition(": ")
    value = head.removeprefix("match ").strip()
    arms = condition.excluded
    if not colon or not arms or not _CATCH_ALL.fullmatch(pattern.removesuffix("=>").strip()):
        return ""
    if len(arms) > _MOST_ARMS or any(len(a) > 80 or "`" in a for a in arms):
        return f" (`{value}` matched none of the {len(arms)} arms before it)"
    listed = ", ".join(f"`{a}`" for a in arms)
    return f" (`{value}` matched none of the arms before it: {listed})"


_CATCH_ALL = re.compile(r"_|(?:ref\s+)?(?:mut\s+)?[a-z_]\w*")
_MOST_ARMS = 6


def _not_held(text: str, why: str) -> str:
    """An `if` condition that did not hold (`why`: its else branch runs, its early exit is
    not taken): `x > 1` is false; an `if let`'s, said of the value: `let Some(v) = f(x)` ->
    "`f(x)` is `None`", `let Ok(v) = ..` an `Err`, another pattern "does not match `P`". A
    let chain (`let Some(v) = a && b`) is false, as a whole."""
    head, equals, value = text.partition(" = ")
    if not head.startswith("let ") or not equals or _CHAINED.search(text):
        return f"`{text}` is false ({why})"
    pattern = head.removeprefix("let ").strip()
    kind, _, inner = pattern.partition("(")
    bound = pattern.endswith(")") and _BINDING.fullmatch(inner.removesuffix(")").strip())
    outcome = _NOT_MATCHED.get(kind.strip(), "") if bound else ""
    return f"`{value}` {outcome or f'does not match `{pattern}`'} ({why})"


_CHAINED = re.compile(r"&&|\|\|")
# `Some(v)` is `None` when not matched, but `Some(Value::Str(v))` may be another `Some`
_BINDING = re.compile(r"(?:ref\s+)?(?:mut\s+)?&?(?:mut\s+)?\w+|\.\.")
# what a value is when the pattern of the `if let` whose else branch runs did not match it
_NOT_MATCHED = {"Some": "is `None`", "Ok": "is an `Err`", "Err": "is `Ok`"}


def _closure_prose(text: str) -> str:
    """`x was None (ok_or_else)` -> "`x` was None (`ok_or_else`)": code in backticks, prose out."""
    for outcome in (
        " was None/Err (",
        " was None (",
        " was Err (",
        " failed (",
        " was Ok (",
        " was Some (",
    ):
        value, found, method = text.partition(outcome)
        if found:
            return f"`{value}`{outcome[:-2]} (`{method.removesuffix(')')}`)"
    return text
