"""The answer's fields as the model writes them: reasoning order, meaning, length limits.

Shared by the prompt (which states the limits), the schema the model sees (whose
property order is the order a model writes in) and `errdoc eval` (which checks them).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FieldRule:
    """One answer field: what it holds and how long it may be."""

    name: str
    meaning: str
    max_chars: int  # per string; for a list, per item
    max_items: int | None = None  # lists only
    nullable: bool = False


# The path first, then what it means, then what to do: a model that has traced the
# conditions writes a documentation grounded in them instead of one guessed from the message.
FIELDS: tuple[FieldRule, ...] = (
    FieldRule(
        "triggerScenarios",
        "The exact path to the site: the caller path from the entry point the user acts on "
        "(when one is shown), then each condition of the chain, in order, with its values.",
        700,
    ),
    FieldRule(
        "documentation",
        "What the error means: the enclosing function, what it was doing, which check failed "
        "and what that says about the state or the input.",
        600,
    ),
    FieldRule(
        "commonSituations",
        "What the person who meets the error was doing, in terms of the entry point of a "
        "caller path shown (statement, command, RPC, configuration); when none is shown, "
        "what the enclosing function serves, without guessing an entry point.",
        400,
    ),
    FieldRule("solutions", "Fixes, most likely first; each one concrete action.", 220, 4),
    FieldRule(
        "exampleFix",
        "Before/after code, a statement or a command that exists in the repository. "
        "Empty string when nothing honest can be shown.",
        800,
    ),
    FieldRule("handlingStrategy", "One value of the list below.", 20),
    FieldRule(
        "validationCode",
        "A check a caller can run before the call to avoid the error, or null.",
        600,
        nullable=True,
    ),
    FieldRule(
        "typeGuard",
        "A type-level guard (a newtype, an enum, a non-empty type) that rules the error out, "
        "or null.",
        400,
        nullable=True,
    ),
    FieldRule(
        "tryCatchPattern",
        "How a caller matches and handles this error value (a `match` on the error type or "
        "variant shown), or null.",
        600,
        nullable=True,
    ),
    FieldRule("preventionTips", "How to keep it from happening again.", 200, 4),
    FieldRule("tags", "Short lowercase tags: component, operation, kind.", 24, 6),
    FieldRule("backgroundTag", "One slug of the failure-class taxonomy.", 40),
)
FIELD_ORDER: tuple[str, ...] = tuple(f.name for f in FIELDS)
RULES: dict[str, FieldRule] = {f.name: f for f in FIELDS}

# handlingStrategy values: what each one asks of the caller.
STRATEGIES: tuple[tuple[str, str], ...] = (
    ("validation", "the caller can check its input or the state first and not call"),
    ("try-catch", "the caller should expect this error and handle it where it calls"),
    ("retry", "the condition is transient (a lock, a leader change, a timeout): retry later"),
    ("configuration", "a setting, flag or environment value must change"),
    ("upgrade", "the feature is missing in this version: upgrade or use another path"),
    ("fail-fast", "a broken invariant or unrecoverable state: stop and report it as a bug"),
)


def over_limit(name: str, value: object) -> list[str]:
    """What in value breaks the length limits of field name (empty when it keeps them)."""
    rule = RULES.get(name)
    if rule is None or value is None:
        return []
    problems = []
    if isinstance(value, list):
        if rule.max_items is not None and len(value) > rule.max_items:
            problems.append(f"{name}: {len(value)} items (at most {rule.max_items})")
        for i, item in enumerate(value):
            if isinstance(item, str) and len(item) > rule.max_chars:
                problems.append(f"{name}[{i}]: {len(item)} characters (at most {rule.max_chars})")
    elif isinstance(value, str) and len(value) > rule.max_chars:
        problems.append(f"{name}: {len(value)} characters (at most {rule.max_chars})")
    return problems
