"""The offline analyzer: explanations built only from what the syntax tree shows.

Every sentence names something taken from the code (the fn, its doc comment, the
conditions, the receiver, the message's placeholders) or from the failure-class
taxonomy; where the tree says nothing, the text says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Literal

from pipeline.analyze import Analysis, SiteContext
from pipeline.analyze.reach_text import situation_sentence, trigger_sentence
from pipeline.analyze.taxonomy import classify, load_taxonomy
from pipeline.core.model import Condition, Explanation, HandlingStrategy, Site
from pipeline.languages import language_of

# Bump when the wording changes, so that reused explanations are rewritten.
STATIC_VERSION = "static-6"

_STRATEGY_BY_CLASS: dict[str, HandlingStrategy] = {
    "configuration-error": "configuration",
    "timeout": "retry",
    "connection-failure": "retry",
    "resource-exhausted": "retry",
    "concurrency-conflict": "retry",
    "version-incompatibility": "upgrade",
    "invalid-argument": "validation",
    "not-found": "validation",
    "already-exists": "validation",
    "invalid-state-transition": "validation",
    "permission-denied": "configuration",
    "unauthenticated": "configuration",
}
_VERB = {
    "bail": "returns early with `bail!`",
    "anyhow": "builds an error with `anyhow!`",
    "ensure": "fails an `ensure!` check",
    "format_err": "builds an error with `format_err!`",
    "eyre": "builds an error with `eyre!`",
    "panic": "panics with `panic!`",
    "unreachable": "hits `unreachable!`, a branch its authors believed impossible",
    "todo": "hits `todo!`: the branch is not written yet",
    "unimplemented": "hits `unimplemented!`: the case is not supported",
    "assert": "fails an assertion",
    "expect": "panics in `.expect(..)`",
    "context": "adds this context to an error from a call that failed",
    "constructor": "returns an error built by",
    "error_attr": "formats this variant with `#[error(..)]`",
}


class StaticAnalyzer:
    """Explains sites from syntax-tree facts alone; never fails, never calls out."""

    name: Literal["static"] = "static"

    def analyze(self, contexts: Sequence[SiteContext]) -> Iterator[Analysis]:
        """One `ok` analysis per context, in order."""
        for context in contexts:
            yield Analysis(
                record_id=context.record_id,
                content_hash=context.content_hash,
                explanation=explain(context),
                analyzer="static",
                prompt_version=STATIC_VERSION,
            )


def explain(context: SiteContext) -> Explanation:
    """The static explanation of one site."""
    site = context.site
    conditions = list(site.facts.conditions)
    failure_class = classify(
        site.message, site.kind, [c.text for c in conditions], path=site.file_path
    )
    strategy: HandlingStrategy = (
        "fail-fast"
        if context.error_type == "panic"
        else _STRATEGY_BY_CLASS.get(failure_class, "try-catch")
    )
    return Explanation(
        documentation=_documentation(context, failure_class),
        triggerScenarios=_with(_trigger(site, conditions), trigger_sentence(context.reach)),
        commonSituations=_with(
            _situations(context, failure_class), situation_sentence(context.reach)
        ),
        solutions=_solutions(context, conditions),
        exampleFix=_example_fix(context, conditions),
        handlingStrategy=strategy,
        validationCode=_validation(conditions),
        typeGuard=_type_guard(conditions),
        tryCatchPattern=_try_catch(context),
        preventionTips=_prevention(context, conditions, failure_class),
        tags=_tags(context, failure_class),
        backgroundTag=failure_class,
    )


def _with(text: str, sentence: str | None) -> str:
    """`text`, and the index's sentence after it when there is one (issue 10)."""
    return f"{text} {sentence}" if sentence else text


def _where(site: Site) -> str:
    facts = site.facts
    if facts.enclosing_fn and facts.enclosing_impl:
        return f"`{facts.enclosing_impl}::{facts.enclosing_fn}`"
    if facts.enclosing_fn:
        return f"`{facts.enclosing_fn}`"
    return f"`{site.file_path}`"


def _documentation(context: SiteContext, failure_class: str) -> str:
    site = context.site
    facts = site.facts
    title = load_taxonomy()[failure_class].title
    if site.kind == "error_attr":
        owner = (
            f"`{facts.enclosing_type}::{facts.variant}`"
            if facts.variant
            else f"`{facts.enclosing_type}`"
        )
        text = f'{owner} is an error type whose message (`#[error(..)]`) reads "{site.message}".'
        if facts.type_doc:
            text += f' Its doc comment says: "{_first_sentence(facts.type_doc)}"'
        return text + f" Class: {title}."
    verb = _VERB[site.kind]
    if site.kind == "constructor":
        verb = f"{verb} `{site.macro}`"
    text = f"{_where(site)} {verb} in `{site.file_path}`."
    if site.kind in ("expect", "context") and facts.receiver:
        outcome = "was `None` or `Err`" if site.kind == "expect" else "returned an error"
        text += f" The call it guards, `{facts.receiver}`, {outcome}."
    if facts.fn_doc:
        text += f' The function\'s doc comment says: "{_first_sentence(facts.fn_doc)}"'
    if context.error_type == "panic":
        text += " A panic aborts the current task or thread rather than returning an error."
    return text + f" Class: {title}."


def _trigger(site: Site, conditions: Sequence[Condition]) -> str:
    where = _where(site)
    if site.kind == "error_attr":
        facts = site.facts
        owner = "::".join(p for p in (facts.enclosing_type, facts.variant) if p)
        return (
            f"Whenever a `{owner}` value is formatted with `Display`: returned to a caller who "
            "prints it, logged, or wrapped as the cause of another error. The attribute only "
            f"defines the text; the code that constructs `{owner}` decides when that happens."
        )
    if not conditions:
        return (
            f"No `if`, `match`, `let ... else` or `ensure!` inside {where} guards this site: "
            "it is reached whenever execution gets there."
        )
    steps = [f"{i}. {_describe(c)}" for i, c in enumerate(conditions, 1)]
    steps.append(f"{len(steps) + 1}. `{site.macro}` produces the error")
    return f"In {where}: " + "; ".join(steps) + "."


def _describe(condition: Condition) -> str:
    text = f"`{condition.text}`"
    return {
        "if": f"{text} is true",
        "if_let": f"{text} matches",
        "else": f"{text} is false (else branch)",
        "match_arm": f"the arm {text} is taken",
        "let_else": f"{text}",
        "while": f"inside the loop `while {condition.text}`",
        "loop": f"inside the loop over {text}",
        "ensure": f"the earlier check {text} passed",
        "check_failed": f"the check {text} is false",
        "closure": f"{text}",
    }[condition.kind]


def _situations(context: SiteContext, failure_class: str) -> str:
    site = context.site
    area = _module(site.file_path)
    title = load_taxonomy()[failure_class].title
    name = site.facts.enclosing_fn
    if name:
        doing = " ".join(part for part in name.split("_") if part)
        text = f'While the code in `{area}` is doing "{doing}" ({_where(site)})'
    else:
        text = f"While code in `{area}` runs"
    text += f'; the message reads as a case of "{title}"'
    slots = list(language_of(site.file_path).placeholders(site.message)) if site.is_format else []
    if slots:
        names = ", ".join(f"`{{{p}}}`" if p else "`{}`" for p in slots)
        text += f", and it prints the value(s) involved ({names}), which tell which object it was"
    return text + "."


def _solutions(context: SiteContext, conditions: Sequence[Condition]) -> list[str]:
    site = context.site
    solutions: list[str] = []
    for condition in reversed(conditions):
        if condition.kind == "if":
            solutions.append(f"Make sure `{negate(condition.text)}` holds before the call.")
        elif condition.kind in ("else", "check_failed"):
            solutions.append(f"Make sure `{condition.text}` holds before the call.")
        elif condition.kind in ("match_arm", "if_let"):
            solutions.append(f"Avoid inputs for which {_describe(condition)}.")
        elif condition.kind == "let_else":
            solutions.append(
                f"Provide a value for which {condition.text.replace(' did not match', ' matches')}."
            )
        elif condition.kind == "closure":
            solutions.append(f"Find out why {condition.text}.")
    if site.kind == "context":
        solutions.insert(
            0, "Read the `Caused by:` chain under this message: it names the error that failed."
        )
    if context.error_type == "panic":
        solutions.append(
            "A panic here means an assumption of the code broke: report it upstream with the "
            "full message, the backtrace (`RUST_BACKTRACE=1`) and the version you run."
        )
    if site.is_format and language_of(site.file_path).placeholders(site.message):
        solutions.append("Check the values the message prints; they identify what was rejected.")
    if not solutions:
        solutions.append(f"Read {_where(site)} to see what the call expected.")
    return solutions


def _example_fix(context: SiteContext, conditions: Sequence[Condition]) -> str:
    site = context.site
    thrown = context.window.split("\n")[site.line - context.window_start].strip()
    guard = next(
        (c for c in reversed(conditions) if c.kind in ("if", "else", "check_failed")), None
    )
    lines = [f"// {site.file_path}", thrown]
    if guard is not None:
        test = negate(guard.text) if guard.kind == "if" else guard.text
        lines += [
            "// before the operation, check what the code checks:",
            f"if {test} {{",
            "    // proceed",
            "}",
        ]
    return "\n".join(lines)


def _validation(conditions: Sequence[Condition]) -> str | None:
    checks = [c for c in conditions if c.kind in ("if", "else", "check_failed")]
    if not checks:
        return None
    parts = [_grouped(negate(c.text)) if c.kind == "if" else _grouped(c.text) for c in checks]
    return "let ok = " + " && ".join(parts) + ";"


def negate(condition: str) -> str:
    """`!x` -> `x`, `a.b()` -> `!a.b()`, `a == b` -> `!(a == b)`."""
    text = condition.strip()
    if text.startswith("!") and not text.startswith("!=") and _simple(text[1:]):
        return text[1:].strip()
    return f"!{text}" if _simple(text) else f"!({text})"


def _simple(expression: str) -> bool:
    """No operator outside brackets: safe to prefix with `!`."""
    depth = 0
    for index, ch in enumerate(expression):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and (
            ch in " =<>|&+-*/%^?" and not (ch == "-" and expression[index + 1 : index + 2] == ">")
        ):
            return False
    return True


def _grouped(expression: str) -> str:
    return expression if _simple(expression) else f"({expression})"


def _type_guard(conditions: Sequence[Condition]) -> str | None:
    for condition in reversed(conditions):
        if condition.kind == "let_else":
            pattern, _, value = (
                condition.text.removeprefix("let ").removesuffix(" did not match").partition(" = ")
            )
            return f"matches!({value}, {pattern})"
    return None


def _try_catch(context: SiteContext) -> str | None:
    if context.error_type == "panic":
        return None
    segments = sorted(
        language_of(context.site.file_path).literal_segments(
            context.site.message, context.site.is_format
        ),
        key=len,
    )
    needle = segments[-1].strip().replace("\\", "\\\\").replace('"', '\\"') if segments else ""
    call = context.site.facts.enclosing_fn or "operation"
    return (
        f"match {call}(..) {{\n"
        f'    Err(e) if e.to_string().contains("{needle}") => {{ /* handle */ }}\n'
        "    other => other?,\n"
        "}"
    )


def _prevention(
    context: SiteContext, conditions: Sequence[Condition], failure_class: str
) -> list[str]:
    tips = [
        f"Check `{c.text}` before calling {_where(context.site)}."
        for c in conditions
        if c.kind in ("if", "else", "check_failed")
    ]
    tips.append(_first_sentence(load_taxonomy()[failure_class].description))
    return tips


def _tags(context: SiteContext, failure_class: str) -> list[str]:
    parts = [
        p
        for p in context.site.file_path.removesuffix(".rs").split("/")
        if p not in ("src", "lib", "mod")
    ]
    tags = [*parts[:2], context.site.kind.replace("_", "-"), failure_class]
    seen: list[str] = []
    for tag in tags:
        tag = tag.lower().replace("_", "-")
        if tag and tag not in seen:
            seen.append(tag)
    return seen


def _module(path: str) -> str:
    parts = [p for p in path.removesuffix(".rs").split("/") if p not in ("src", "mod", "lib")]
    return "::".join(parts) or path


def _first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    end = flat.find(". ")
    return flat if end < 0 else flat[: end + 1]
