"""A panic in a public accessor named for it (`expect_literal`, `unwrap_value`): it panics
by design on a value it does not expect, and the code that calls it chose to. ruff's
generated `InterpolatedStringElement::expect_literal` read "Internal invariant violated ..
a bug, not something to fix in your input" (reading 160): whoever calls it with another
variant made the mistake, in their own code. So does an assertion of a fn code outside its
crate can call that tests nothing but the fn's own parameters (pingora's `CertKey::new`,
`assert!(!certificates.is_empty(), ..)`, reading 201): a precondition on what its caller
passes. Pure."""

from __future__ import annotations

import re

from pipeline.core.reach import Reach
from pipeline.core.sitetypes import Site, call_parameters
from pipeline.scan.context import error_type

_NAMED_FOR_IT = re.compile(r"(?:expect|unwrap)_\w+")
# the sentences of a panic's advice that blame the fn itself (`static_advice`)
_BLAMING = ("This is a bug, not something to fix in your input", "The code assumed ")
_BLAMING_COMMENT = "// A panic here is a bug, not bad input: report it with its backtrace."
_REPORT_IF_OURS = (
    "if the backtrace (`RUST_BACKTRACE=1`) shows the repository's own code calling it, "
    "report that upstream with the full message and the version you run."
)


def panicking_accessor(site: Site, reach: Reach | None) -> bool:
    """Whether the site's fn is an accessor named for its panic that code outside its crate
    can call (the index found it is not crate-only, `Reach.internal`)."""
    fn = site.facts.enclosing_fn or ""
    if reach is None or reach.internal or error_type(site) != "panic":
        return False
    # a method of the value alone (`element.expect_literal()`): not risingwave's
    # `expect_first_barrier(stream)`, which reads what a stream sends, nor tikv's test
    # helpers that make callbacks expecting a result
    method = bool(site.facts.enclosing_impl) and not call_parameters(site.facts.call)
    return method and bool(_NAMED_FOR_IT.fullmatch(fn))


# the plain names of a condition (not a method's, a path's or a macro's, nor a `CONST`'s:
# `n <= MAX` asserts `n`, the limit is the code's); string literals are cut out first
_NAME = re.compile(r"(?<![\w:.'])([a-z_]\w*)\b(?!\s*[(:!])")
_STRING = re.compile(r'(?:\bb)?"(?:[^"\\]|\\.)*"')
_NOT_NAMES = frozenset(("true", "false", "as", "mut", "ref", "_"))


def asserted_precondition(site: Site, reach: Reach | None) -> str | None:
    """The asserted condition, when the site is an assertion (`assert!`, `assert_eq!`, ..)
    whose every condition names only the fn's parameters, and the index found the fn is not
    crate-only (`Reach.internal`): what a caller must pass (`!certificates.is_empty()`)."""
    if reach is None or reach.internal or site.kind != "assert" or not site.facts.conditions:
        return None
    params = set(call_parameters(site.facts.call))
    named: set[str] = set()
    for condition in site.facts.conditions:
        named |= {
            n for n in _NAME.findall(_STRING.sub('""', condition.text)) if n not in _NOT_NAMES
        }
    if not named or not named <= params:
        return None
    return site.facts.conditions[-1].text


def callers_to_fix(site: Site, reach: Reach | None, fn: str) -> tuple[str, str, str] | None:
    """For a panic that is its caller's doing (a panicking accessor's, an asserted
    precondition's): the advice sentence that leads, the exampleFix's comment, and the
    prevention tip instead of "keep the assumption"; None for any other site."""
    if panicking_accessor(site, reach):
        return (
            f"{fn} panics by design, as its name says, when it is called on a value it does "
            "not expect: the code that calls it decided the value would be one. If your code "
            "calls it, test the value first or use an accessor that gives an `Option` or a "
            f"`Result`; {_REPORT_IF_OURS}",
            f"// {fn} panics by design on a value it does not expect: test the value before "
            "calling it.",
            f"Call {fn} only on a value it expects, or use an accessor that gives an `Option` "
            "or a `Result`.",
        )
    asserted = asserted_precondition(site, reach)
    if asserted is not None:
        return (
            f"{fn} asserts `{asserted}` of the values its caller passes: a call that breaks "
            f"that gets this panic. If your code calls it, make sure of that before the call; "
            f"{_REPORT_IF_OURS}",
            f"// {fn} asserts `{asserted}` of its arguments: make sure of it before calling it.",
            f"Make sure `{asserted}` holds of what you pass before calling {fn}.",
        )
    return None


# the tip of a panic the code assumed could not happen (`static_advice.prevention`)
ASSUMPTION_TIP = "Keep the assumption the code states true, or report where it breaks."


def unblamed(solutions: list[str], lead: str) -> list[str]:
    """`lead`, then the advice but the sentences that blame the fn itself."""
    return [lead, *(s for s in solutions if not s.startswith(_BLAMING))]


def recommented(example: str, comment: str) -> str:
    """The exampleFix with the comment that blames the fn replaced by `comment`."""
    return example.replace(_BLAMING_COMMENT, comment)
