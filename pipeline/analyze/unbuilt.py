"""The text of a variant that no code builds (`Reach.unbuilt`): what its message means for
a reader who met it anyway. Generic advice ("the code that constructs it decides when",
"find the operation that returned it in your logs", a match on it) reads as if the error
happened at this commit; none of it can (vector's `#[allow(dead_code)]`
`UnsupportedEndpoint` and three never-built snafu variants in 21 records, reading 231).
Pure."""

from __future__ import annotations

from pipeline.analyze.reach_text import commit_label
from pipeline.core.model import Explanation

# What the index reads, as a reader is told it: the ways code builds a variant it looked for
_LOOKED_FOR = (
    "no `{v}(..)` or `{v} {{ .. }}`{selector}, no use of it as a value, no `?` or `From` that "
    "converts into it, and no line but its definition and `match` arms' patterns (which "
    "test for it) that writes its name, outside tests"
)


def unbuilt_explanation(
    apart: Explanation, variant: str, sha: str, selector: str | None = None
) -> Explanation:
    """`apart` told that at `sha` nothing the index reads builds `variant` (`Enum::Variant`;
    `selector`: its snafu context selector's name): the trigger says so, the situation and
    the solutions say what a message seen anyway points to (other code than the commit's),
    the tips are for the code's authors, and no `match` is offered on a value no call
    returns."""
    at = commit_label(sha)
    looked = _LOOKED_FOR.format(
        v=variant, selector=f", no selector `{selector}`" if selector else ""
    )
    trigger = (
        f"The text is printed when a `{variant}` value is formatted. {at} no code the index "
        f"reads builds `{variant}` ({looked}; a macro's expansion or code generated at build "
        "time is not read): the variant looks unused, and this commit's code does not "
        "produce this message."
    )
    situation = (
        f"{at} nothing builds `{variant}`: a program built from this commit's code does not "
        "print this message. Seen anyway, it comes from other code: another version of the "
        "program, or code generated at build time."
    )
    solutions = [
        f"Check which version of the program printed it: {at.lower()} no code builds "
        f"`{variant}`, so an older or newer version (or generated code) did; read that "
        "version's code for where it builds it.",
    ]
    tips = [
        f"For the code's authors: `{variant}` is built nowhere {at.lower()}; build it where "
        "the failure its text names is detected, or remove it, so that the error type lists "
        "only errors a user can meet.",
    ]
    fix = (
        f"// {at} no code builds `{variant}`: there is no call here to change. Compare the "
        "version of the program that printed the message with this commit."
    )
    return apart.model_copy(
        update={
            "triggerScenarios": trigger,
            "commonSituations": situation,
            "solutions": solutions,
            "preventionTips": tips,
            "exampleFix": fix,
            "tryCatchPattern": None,
        }
    )
