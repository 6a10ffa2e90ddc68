"""What a reader is told of a site inside `quote!`: code a procedural macro writes, not code
it runs. Pure.

sqlx's derived `Decode` for an enum (`sqlx-macros-core`'s `expand_derive_decode_strong_enum`)
holds `_ => Err(format!("invalid value {:?} for enum {}", ..))` inside `quote! { .. }`: the
macro puts that `match` into the crate that derives it, where it runs each time a row is
decoded; the record read "returned as the using crate compiles" (reading 308, F). The same
holds of greptimedb's `#[admin_fn]` and risingwave's `#[function]` code generators. The
site's own fn, its conditions and its callers are the macro's; what decides the error is
the generated code's, written with the macro's `#name` placeholders, which the index does
not read as code. So the text says where the code comes from and what runs it, and drops
what was said in the macro fn's terms (its checks, its callers' values, code calling it).
"""

from __future__ import annotations

from pipeline.analyze.reach_text import commit_label, path_text
from pipeline.analyze.static_code import where
from pipeline.core.model import Explanation
from pipeline.core.reach import CallerPath, Reach
from pipeline.core.sitetypes import Site

_COMPILING = ", as the using crate compiles"


def generated_explanation(
    apart: Explanation, site: Site, reach: Reach | None, sha: str
) -> Explanation:
    """`apart` told of the code `site.facts.generated` writes, where it runs (the site's
    `Facts.generated` is set)."""
    quoting = site.facts.generated or "quote!"
    fn = where(site)
    best = reach.paths[0] if reach is not None and reach.paths else None
    macro = _writer(best)
    named = macro or "the macro"
    place = f"`{site.file_path}`"
    lead = (
        f"This is code that {fn} writes with `{quoting}` in {place}, not code it runs: a "
        f"procedural macro's output, which the compiler puts into the crate that uses "
        f"{named}. That code produces this error at run time, in the program built from that "
        "crate; the macro itself does not, as it expands."
    )
    first_end = apart.documentation.find(f" in {place}.")
    rest = apart.documentation[first_end + len(f" in {place}.") :] if first_end >= 0 else ""
    trigger = (
        f"It runs when the code {named} generates runs and reaches this statement. What "
        f"decides that is in the `{quoting}` tokens around line {site.line} (written with the "
        "macro's `#name` placeholders, filled in for each item that uses the macro), which "
        "the index does not read as code."
    )
    if macro is not None and best is not None:
        trigger += f" {commit_label(sha)}, {macro} writes it: {path_text(best)}."
    situation = (
        f"When a program built from a crate that uses {named} runs the code the macro "
        "generated for it: a failure at run time, not a compile error of that crate."
    )
    solution = (
        f"The error comes from the code {named} generated for your crate, at run time: the "
        "values that code gets from your program decide it (what the message prints says "
        "which). If those values are right, the generated code is wrong for them: report it "
        f"to the macro's authors with the item that uses it ({site.file_path}:{site.line} "
        "writes that code)."
    )
    kept = [s for s in apart.solutions if s.startswith("Look at the value")]
    tips = [t for t in apart.preventionTips if fn not in t]
    return apart.model_copy(
        update={
            "documentation": (lead + rest).strip(),
            "triggerScenarios": trigger,
            "commonSituations": situation,
            "solutions": [solution, *kept],
            "exampleFix": (
                f"// The check is in the code {named} generates for your item "
                f"({site.file_path}:{site.line}): give it values it accepts at run time, or "
                "report the generated code to the macro's authors."
            ),
            "validationCode": None,
            "typeGuard": None,
            "tryCatchPattern": None,
            "preventionTips": tips
            or [
                "Keep the values your program gives the generated code within what the macro "
                "documents for the items that use it."
            ],
        }
    )


def _writer(best: CallerPath | None) -> str | None:
    """The macro whose expansion writes the code (`attribute `#[admin_fn]``), from the best
    path's entry when that is a procedural macro."""
    if best is None or best.entry != "macro" or not best.entry_label:
        return None
    return best.entry_label.removesuffix(_COMPILING)
