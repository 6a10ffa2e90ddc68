"""What a guarded call gave, told by the index where the syntax could not: "The call it
guards, `find_ldd_libraries(&obj_path)`, returned `None` or an error" of a fn of the
repository that returns a `Result` (sccache, reading 170: 10 of 21 records said both).
`Reach.guarded` is what the resolved fn's return type says. Pure."""

from __future__ import annotations

import re

from pipeline.analyze.static_advice import CAUSE_KEPT_LEAD, CAUSE_KEPT_TOLD, NEVER_EITHER
from pipeline.core.model import Explanation
from pipeline.core.reach import GUARDING_METHODS, Reach

_EITHER = re.compile(
    r"(The call it guards, `[^`]*`, )(?:returned `None` or an error|was `None` or `Err`)\."
)
# `f()?.expect(..)`: what the `?` left (static's "gave after its `?`" sentence)
_AFTER_EITHER = re.compile(r"(What `[^`]*\?` gave after its `\?` was )`None` or an error(:)")
_AFTER = {"Err": "an error", "None": "`None`"}
_UNTOLD = re.compile(rf"(` )was None/Err( \(`(?:{'|'.join(GUARDING_METHODS)})`\))")
_SAID = {"Err": "returned an error.", "None": "gave no value (`None`)."}
# the hedges the static text makes where it could not tell (`static_advice`), told
_HEDGED = {
    "Err": (
        (NEVER_EITHER, "(never an `Err`)"),
        (CAUSE_KEPT_LEAD, CAUSE_KEPT_TOLD),
    ),
    "None": ((NEVER_EITHER, "(never `None`)"),),
}


def told_outcome(apart: Explanation, reach: Reach | None) -> Explanation:
    """`apart` with its guarded call's outcome told (`Reach.guarded`): in the documentation,
    the trigger's step, and, for an `Option` that was `None`, no cause to print."""
    if reach is None or reach.guarded not in _SAID:
        return apart
    told = reach.guarded
    documentation = _EITHER.sub(lambda m: m.group(1) + _SAID[told], apart.documentation, count=1)
    documentation = _AFTER_EITHER.sub(
        lambda m: m.group(1) + _AFTER[told] + m.group(2), documentation, count=1
    )
    trigger = _UNTOLD.sub(rf"\1was {told}\2", apart.triggerScenarios, count=1)
    solutions = apart.solutions
    if told == "None":
        solutions = [s for s in solutions if not s.startswith(CAUSE_KEPT_LEAD)]
    for hedged, said in _HEDGED[told]:  # the rest of the text says it too (recheck 163)
        solutions = [s.replace(hedged, said) for s in solutions]
    if (documentation, trigger, solutions) == (
        apart.documentation,
        apart.triggerScenarios,
        apart.solutions,
    ):
        return apart
    return apart.model_copy(
        update={"documentation": documentation, "triggerScenarios": trigger, "solutions": solutions}
    )
