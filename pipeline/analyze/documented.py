"""A panic its fn's documentation states: a `# Panics` section in the doc comment of the fn
that holds it ("Panics if `n` is larger than the number of remaining bytes.", tokio's
`ReadBuf::initialize_unfilled_to`) says the caller broke a rule the API states, not that the
code broke an assumption of its own (reading 119: "a bug, report it upstream" before). Rust's
API guidelines (C-FAILURE) ask every fn that may panic to say when, under that heading. So is
a panic in the body of an assertion macro (`assert_ok!`, `assert_df_eq!`): its users' test
asserting something that did not hold. Pure.
"""

from __future__ import annotations

import re

from pipeline.core.sitetypes import MACRO_RULES, Site

_PANICKING = frozenset(("panic", "assert", "expect"))
_HEADING = re.compile(r"^#+\s*Panics?\s*:?\s*$", re.MULTILINE)  # pingora writes `# Panic`
_NEXT_HEADING = re.compile(r"^#+\s", re.MULTILINE)
_LIMIT = 300  # characters of the section quoted; a longer one is cut at a sentence


def documented_panic(site: Site) -> str | None:
    """The `# Panics` section of the doc comment of the fn a panicking site is in, as one
    line (cut at a sentence near `_LIMIT` characters); None when there is none."""
    if site.kind not in _PANICKING or not site.facts.fn_doc:
        return None
    heading = _HEADING.search(site.facts.fn_doc)
    if heading is None:
        return None
    rest = site.facts.fn_doc[heading.end() :]
    following = _NEXT_HEADING.search(rest)
    section = " ".join((rest[: following.start()] if following else rest).split())
    if not section:
        return None
    if len(section) <= _LIMIT:
        return section
    cut = section.rfind(". ", 0, _LIMIT)
    return section[: cut + 1] if cut > 0 else section[:_LIMIT].rstrip() + " .."


def assertion_macro(site: Site) -> str | None:
    """The name of the assertion macro (`assert_ok`, `assert_df_eq`) whose body a panicking
    site is in: a test helper its users call, whose panic is their assertion failing where
    they use it (tokio-test's `assert_err!` "assertion failed: Ok({:?})" read "a bug, report
    it upstream", reading 119); None for any other site."""
    item = site.facts.item or ""
    if site.kind not in _PANICKING or site.facts.enclosing_fn or not item.startswith(MACRO_RULES):
        return None
    name = item.removeprefix(MACRO_RULES)
    return name if name.startswith("assert") else None
