"""A panic in a public accessor named for it (`expect_literal`, `unwrap_value`): it panics
by design on a value it does not expect, and the code that calls it chose to. ruff's
generated `InterpolatedStringElement::expect_literal` read "Internal invariant violated ..
a bug, not something to fix in your input" (reading 160): whoever calls it with another
variant made the mistake, in their own code. Pure."""

from __future__ import annotations

import re

from pipeline.core.reach import Reach
from pipeline.core.sitetypes import Site, call_parameters
from pipeline.scan.context import error_type

_NAMED_FOR_IT = re.compile(r"(?:expect|unwrap)_\w+")
# the sentences of a panic's advice that blame the fn itself (`static_advice`)
_BLAMING = ("This is a bug, not something to fix in your input", "The code assumed ")
_BLAMING_COMMENT = "// A panic here is a bug, not bad input: report it with its backtrace."


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


def accessor_solutions(solutions: list[str], fn: str) -> list[str]:
    """The advice of a panicking accessor's panic: the caller's choice first, the fn's own
    blame left out."""
    return [
        f"{fn} panics by design, as its name says, when it is called on a value it does not "
        "expect: the code that calls it decided the value would be one. If your code calls "
        "it, test the value first or use an accessor that gives an `Option` or a `Result`; "
        "if the backtrace (`RUST_BACKTRACE=1`) shows the repository's own code calling it, "
        "report that upstream with the full message and the version you run.",
        *(s for s in solutions if not s.startswith(_BLAMING)),
    ]


def accessor_example(example: str, fn: str) -> str:
    """The exampleFix of a panicking accessor: its comment says whose the panic is."""
    return example.replace(
        _BLAMING_COMMENT,
        f"// {fn} panics by design on a value it does not expect: test the value before "
        "calling it.",
    )
