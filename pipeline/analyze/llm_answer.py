"""Turning a model's text into a validated `Explanation`, and checking that it is grounded."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable

from pydantic import ValidationError

from pipeline.analyze import SiteContext
from pipeline.analyze.grounding import Claim, claims, invented
from pipeline.core.model import Explanation

# Answers longer than this are not parsed (a hostile or runaway server).
MAX_ANSWER_CHARS = 200_000
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n(.*?)(?:\n```|\Z)", re.DOTALL)
_IDENT = re.compile(r"[A-Za-z_]\w*")


class AnswerError(ValueError):
    """The model's text is not a valid answer; the message is fit to send back to the model."""


def extract_json(text: str) -> object:
    """The first JSON object in text, tolerating code fences and prose around it."""
    if len(text) > MAX_ANSWER_CHARS:
        raise AnswerError(f"the answer is {len(text)} characters long; answer with the JSON only")
    fenced = _FENCE.search(text)
    candidates = [fenced.group(1)] if fenced else []
    candidates.append(text)
    decoder = json.JSONDecoder()
    last_error = "no JSON object found"
    for candidate in candidates:
        start = candidate.find("{")
        while start != -1:
            try:
                value, _ = decoder.raw_decode(candidate, start)
            except json.JSONDecodeError as exc:
                last_error = f"invalid JSON: {exc.msg} at character {exc.pos}"
            else:
                if isinstance(value, dict):
                    return value
            start = candidate.find("{", start + 1) if start < 2000 else -1
    raise AnswerError(f"{last_error}; answer with one complete JSON object")


def parse_answer(text: str, slugs: Collection[str]) -> Explanation:
    """Parse and validate an answer: JSON, the pydantic model, a taxonomy slug."""
    data = extract_json(text)
    try:
        explanation = Explanation.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in err['loc']) or 'answer'}: {err['msg']}"
            for err in exc.errors()[:8]
        ]
        raise AnswerError("the JSON does not match the schema: " + "; ".join(problems)) from exc
    if slugs and explanation.backgroundTag not in slugs:
        raise AnswerError(
            f"backgroundTag {explanation.backgroundTag!r} is not a taxonomy slug;"
            f" use one of: {', '.join(sorted(slugs))}"
        )
    return explanation


def _texts(explanation: Explanation) -> Iterable[str]:
    for value in explanation.model_dump().values():
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, str))


def known_identifiers(ctx: SiteContext) -> frozenset[str]:
    """Every identifier in the window, the message and the facts of a site."""
    site, facts = ctx.site, ctx.site.facts
    parts = [
        ctx.window,
        site.message,
        site.macro,
        site.file_path,
        ctx.error_class or "",
        site.error_code or "",
        *site.format_args,
        *(c.text for c in facts.conditions),
    ]
    for value in (
        facts.enclosing_fn,
        facts.enclosing_impl,
        facts.fn_doc,
        facts.return_type,
        facts.enclosing_type,
        facts.variant,
        facts.type_doc,
        facts.receiver,
        facts.callee,
    ):
        if value:
            parts.append(value)
    if ctx.reach is not None:  # what the prompt showed of the caller paths
        for path in ctx.reach.paths:
            parts.append(path.entry_label or "")
            for hop in path.hops:
                parts.extend((hop.name, hop.signature, hop.doc or "", *hop.candidates))
        parts.extend(f"{d.name} {d.text} {d.doc or ''}" for d in ctx.reach.dependencies)
    return frozenset(_IDENT.findall("\n".join(parts)))


def ungrounded_claims(
    explanation: Explanation,
    known: frozenset[str],
    identifier_exists: Callable[[str], bool] | None = None,
    keyword_exists: Callable[[str], bool] | None = None,
) -> list[Claim]:
    """Names, SQL keywords and commands the answer claims that exist neither near the site
    nor in the repository."""
    return invented(claims(_texts(explanation)), known, identifier_exists, keyword_exists)


def ungrounded_identifiers(
    explanation: Explanation,
    known: frozenset[str],
    identifier_exists: Callable[[str], bool] | None = None,
) -> list[str]:
    """The words of `ungrounded_claims`."""
    return [c.word for c in ungrounded_claims(explanation, known, identifier_exists)]
