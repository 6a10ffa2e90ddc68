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

from pipeline.core.sitetypes import MACRO_RULES, Site, call_parameters

_PANICKING = frozenset(("panic", "assert", "expect"))
_HEADING = re.compile(r"^#+\s*Panics?\s*:?\s*$", re.MULTILINE)  # pingora writes `# Panic`
_NEXT_HEADING = re.compile(r"^#+\s", re.MULTILINE)
# "Never panics; the value 500 is non-zero." (vector): a section that says it does not
_NO_PANIC = re.compile(
    r"(?:this (?:\w+ )?)?(?:never|does not|doesn't|will not|won't|cannot|can't) panics?\b"
    r"(?!\s*(?:iff?|unless|when|as long|provided)\b)",  # polars' "does not panic iff: .."
    re.IGNORECASE,
)
_LIMIT = 300  # characters of the section quoted; a longer one is cut at a sentence


# A rule for callers the doc states outside such a section, before an `assert!` or a
# `panic!` of the fn: tantivy's `FacetCollector::add_facet` "Adding two facets within which
# one is the prefix of the other is forbidden.", `convert_to_fast_value_and_append_to_json_term`
# "The term must be json + JSON path." (read "a bug, report it upstream", reading 301)
_RULE = re.compile(
    r"(?:^|(?<=[.!?]\s))[^.!?]*?\b(?:(?:is|are) (?:forbidden|not allowed)|panics? (?:if|when|"
    r"unless)|will panic|must (?:not |never |always |only )?(?:be|have|contain|hold)\b)"
    r"[^.!?]*[.!?]",
    re.IGNORECASE,
)
_CHECKING = frozenset(("panic", "assert"))


def panics_section(site: Site) -> bool:
    """Whether the doc comment of the site's fn has a `# Panics` heading."""
    return _HEADING.search(site.facts.fn_doc or "") is not None


def documented_panic(site: Site) -> str | None:
    """The `# Panics` section of the doc comment of the fn a panicking site is in, as one
    line (cut at a sentence near `_LIMIT` characters); with none, for an `assert!` or a
    `panic!`, the first sentence of the doc that states a rule for its callers (`_RULE`);
    None when there is neither."""
    if site.kind not in _PANICKING or not site.facts.fn_doc:
        return None
    heading = _HEADING.search(site.facts.fn_doc)
    if heading is None:
        if site.kind not in _CHECKING:
            return None
        flat = " ".join(site.facts.fn_doc.split())
        rule = _RULE.search(flat)
        if rule is None or _NO_PANIC.search(rule.group()):
            return None
        said = rule.group().strip()
        if re.search(r"\botherwise\b", said, re.IGNORECASE) and rule.start() > 0:
            # "This will panic otherwise.": the sentence before says what it needs
            before = flat[: rule.start()].rstrip()
            start = max(before.rfind(". ", 0, len(before) - 1), -1) + 1
            said = f"{before[start:].strip()} {said}"
        return said[:_LIMIT]
    rest = site.facts.fn_doc[heading.end() :]
    following = _NEXT_HEADING.search(rest)
    section = " ".join((rest[: following.start()] if following else rest).split())
    if not section or _NO_PANIC.match(section):
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


# Words of a precondition on the object's state or on the order of calls: "if called after
# `wait_for_children`", "if it has already started encoding", "only allowed in the CacheKey
# phase", "if the EWMA mutex is poisoned", "if the store is registered twice"
_STATE_WORDS = re.compile(
    r"\b(?:called|already|phases?|not yet|poison\w*|has started|is running|has "
    r"finished|is closed|shut ?down|initiali[sz]ed|twice)\b",
    re.IGNORECASE,
)


def states_the_state(site: Site, section: str) -> bool:
    """Whether a `# Panics` section states a precondition on the object's state or the order
    of calls, not on a value the caller passes: it names none of the fn's parameters
    as code (`self` among them: "Panics if `self.remaining()` is less than `n`" is on values) and
    says when in the object's life it may be called (pingora's "This function will panic if
    it has already started encoding the response body": "Invalid argument" sent reading
    127's recheck to a `u32` that accepts any value). False when the parameters are not
    known (`Facts.call`: none for a closure's site) or the section says neither."""
    call = site.facts.call or ""
    if "(" not in call:
        return False
    params = call_parameters(call)
    if "." in call.partition("(")[0]:  # `ctx.adjust_level(new_level)`: a method, on `self`
        params.append("self")
    # a parameter as code (`n`, `by`, `self.remaining()`): "Cache key is only allowed to be
    # set in its own phase" names no parameter `key` (pingora's `set_cache_key(key)`)
    if any(re.search(rf"`{re.escape(p)}\b", section) for p in params):
        return False
    return _STATE_WORDS.search(section) is not None


# "The function returns an error if `count` is zero, if `start` is zero or negative ..":
# when the fn refuses what its caller passes (rust-prometheus' `exponential_buckets` read
# "Operation failed", reading 303)
_ERROR_WHEN = re.compile(
    r"[^.!?]*\breturns? (?:an? )?(?:error|`Err`|`Error`)s?\b[^.!?]*\b(?:if|when|unless)\b[^.!?]*[.!?]?",
    re.IGNORECASE,
)


def documented_error(site: Site) -> str | None:
    """The sentence of the doc comment of a site's fn that says it returns an error when one
    of its parameters is so (`start` named in it); None when the doc says no such thing, or
    names no parameter."""
    if site.kind in _PANICKING or not site.facts.fn_doc:
        return None
    params = [p for p in call_parameters(site.facts.call) if p.isidentifier() and p != "self"]
    flat = " ".join(site.facts.fn_doc.split())
    for found in _ERROR_WHEN.finditer(flat):
        said = found.group().strip()
        if any(re.search(rf"`{re.escape(p)}`|\b{re.escape(p)}\b", said) for p in params):
            return said[:_LIMIT]
    return None
