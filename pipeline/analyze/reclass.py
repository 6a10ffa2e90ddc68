"""An explanation said of another failure class than the one it was written for. Pure.

The class is chosen before the index runs (`static.explain_apart`); what the index finds can
show it was the caller's doing (`accessors.callers_to_fix`: pingora's `CertKey::new` asserts
what its caller passes). Its advice then says so, and the class must too, or the record
contradicts itself: "Class: Internal invariant violated" over "make sure of that before the
call" (reading 201's recheck)."""

from __future__ import annotations

import re

from pipeline.analyze.static_advice import said_before
from pipeline.analyze.taxonomy import load_taxonomy
from pipeline.core.model import Explanation


def reclassed(apart: Explanation, slug: str, by: str | None = None) -> Explanation:
    """`apart` of class `slug`: its class sentence, the class its situations name, its tag,
    and the class's prevention tip (as given, or as its words' guess) swapped. `by`: what
    the class sentence says it is known by ("its code `StatusCode::InvalidArguments` ..")."""
    old = apart.backgroundTag
    taxonomy = load_taxonomy()
    if old == slug or old not in taxonomy or slug not in taxonomy:
        return apart
    was, now = taxonomy[old], taxonomy[slug]
    sentence = re.compile(r"Class(?:, by the words? [^:]*)?: " + re.escape(was.title) + r"\.")
    tips = [
        now.prevention if said_before(tip, was.prevention) is not None else tip
        for tip in apart.preventionTips
    ]
    return apart.model_copy(
        update={
            "documentation": sentence.sub(
                f"Class, by {by}: {now.title}." if by else f"Class: {now.title}.",
                apart.documentation,
            ),
            "commonSituations": apart.commonSituations.replace(
                f'a case of "{was.title}"', f'a case of "{now.title}"'
            ),
            "tags": [slug if tag == old else tag for tag in apart.tags],
            "preventionTips": tips,
            "backgroundTag": slug,
        }
    )
