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
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n(.*?)(?:\n?```|\Z)", re.DOTALL)
_THINK = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
# Decoding attempts per block: bounds the work on a hostile answer full of stray braces.
_MAX_TRIES = 500
_LIST_FIELDS = ("solutions", "preventionTips", "tags")
_TEXT_FIELDS = ("documentation", "triggerScenarios", "commonSituations", "exampleFix")
_NULLABLE = ("validationCode", "typeGuard", "tryCatchPattern")
_IDENT = re.compile(r"[A-Za-z_]\w*")


class AnswerError(ValueError):
    """The model's text is not a valid answer; the message is fit to send back to the model."""


def strip_reasoning(text: str) -> str:
    """text without `<think>` blocks (reasoning models served without a reasoning parser)."""
    text = _THINK.sub("", text)
    # Some servers drop the opening tag: everything before a lone closing tag is reasoning.
    closing = text.rfind("</think>")
    return text[closing + len("</think>") :] if closing != -1 else text


def json_candidates(text: str) -> list[object]:
    """Every fenced block and every top-level JSON value in text, fenced blocks first."""
    if len(text) > MAX_ANSWER_CHARS:
        raise AnswerError(f"the answer is {len(text)} characters long; answer with the JSON only")
    text = strip_reasoning(text)
    decoder = json.JSONDecoder()
    found: list[object] = []
    for block in [m.group(1) for m in _FENCE.finditer(text)] + [text]:
        start, tries = block.find("{"), 0
        while start != -1 and tries < _MAX_TRIES:
            tries += 1
            try:
                value, end = decoder.raw_decode(block, start)
            except json.JSONDecodeError:
                start = block.find("{", start + 1)
                continue
            found.append(value)
            start = block.find("{", end)  # the next top-level object, not one nested in this
    return found


def extract_json(text: str) -> object:
    """The first JSON object in text, tolerating think blocks, code fences and prose."""
    for value in json_candidates(text):
        if isinstance(value, dict):
            return value
    raise AnswerError(_no_object(text))


def _no_object(text: str) -> str:
    decoder = json.JSONDecoder()
    body = strip_reasoning(text)
    start = body.find("{")
    if start != -1:
        try:
            decoder.raw_decode(body, start)
        except json.JSONDecodeError as exc:
            return f"invalid JSON: {exc.msg} at character {exc.pos}; answer with one complete JSON object"
    return "no JSON object found; answer with one complete JSON object"


def coerce(data: dict[str, object]) -> dict[str, object]:
    """The answer with the slips models make mended: unknown keys dropped, a string where a
    list belongs made a one-item list, a list where a string belongs joined, missing nullable
    fields null, enum values trimmed and lowercased."""
    fields = Explanation.model_fields
    if len(data) == 1:  # {"explanation": {...}}: the answer wrapped in one key
        [inner] = data.values()
        if isinstance(inner, dict) and set(inner) & set(fields):
            data = inner
    out = {k: v for k, v in data.items() if k in fields}
    for name in _LIST_FIELDS:
        if isinstance(out.get(name), str):
            out[name] = [out[name]]
    for name in _TEXT_FIELDS:
        value = out.get(name)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            out[name] = "\n".join(value)
    for name in _NULLABLE:
        out.setdefault(name, None)
    for name in ("handlingStrategy", "backgroundTag"):
        value = out.get(name)
        if isinstance(value, str):
            out[name] = value.strip().lower().replace("_", "-").replace(" ", "-")
    return out


def _validate(data: object, slugs: Collection[str]) -> Explanation:
    if not isinstance(data, dict):
        raise AnswerError("the answer is not a JSON object; answer with one complete JSON object")
    try:
        explanation = Explanation.model_validate(coerce(data))
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


def parse_answer(text: str, slugs: Collection[str]) -> Explanation:
    """The first JSON object in text that validates (after `coerce`); else the reason the
    likeliest one does not, fit to send back to the model."""
    candidates = [c for c in json_candidates(text) if isinstance(c, dict) and c]
    first_error: AnswerError | None = None
    for candidate in candidates:
        try:
            return _validate(candidate, slugs)
        except AnswerError as error:
            first_error = first_error or error
    if first_error is not None:
        raise first_error
    raise AnswerError(_no_object(text))


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
        facts.enum_doc,
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
        parts.extend(
            f"{d.name} {d.text} {' '.join(h.argument for h in d.passed)} {d.doc or ''}"
            for d in ctx.reach.dependencies
        )
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
