"""The authors' verdict on an error they return: a comment right above its statement, or
above the `if`, `else` or match arm whose block the statement opens, or at the end of its
line, that says the state cannot come about ("This should never happen", "shouldn't be
possible", "unreachable"). Then no value a caller passes is the one to correct: if the
error shows, the program broke an assumption of its own (qdrant's `IncompatibleSchema`
after the index it just deleted, "So it should not be possible to get this error",
reading 144). Only the code's own words, read from the site's window. Pure."""

from __future__ import annotations

import re

from pipeline.core.sitetypes import Site

_VERDICT = re.compile(
    r"\bshould(?:n'?t| not| never)\s+(?:ever\s+)?(?:be possible|happen|occur|be reached)\b|"
    r"\b(?:can(?:not|'t)|can never|will never|never)\s+(?:happen|occur)s?\b|"
    # "This arm should be unreachable", a bare "unreachable"; not a peer that is, nor the
    # `unreachable!` macro a comment names (risingwave's "we do not panic with `unreachable!`")
    r"\b(?:it|this|that|arm|branch|case|code|path) (?:is|should be|must be) unreachable\b(?!!)|"
    r"\A\W*unreachable\W*\Z|\bimpossible (?:branch|case|state)\b|"
    r"\b(?:this|it) (?:is|would be) (?:a |definitely a |definite )?bug\b",
    re.IGNORECASE,
)
# a line that opens the block the site's statement is the first of: `if ..{`, `} else {`,
# `Some(x) => {`, `None => {`
_OPENS_BLOCK = re.compile(r"(?:\bif\b.*|\belse|=>)\s*\{\s*$")
_ENDS_STATEMENT = re.compile(r"[;{},]\s*$")
_STATEMENT_LINES = 4  # lines of one statement above the site's, at most


def authors_verdict(site: Site) -> str | None:
    """The comment line that says the site's state cannot come about, as written (`//`
    stripped); None without one."""
    lines = site.window.splitlines()
    at = site.line - site.window_start
    if not 0 <= at < len(lines):
        return None
    _, slashes, trailing = lines[at].partition("//")
    if slashes and '"' not in trailing and _VERDICT.search(trailing):
        return _comment("//" + trailing)
    start = at
    while (
        start > 0
        and at - start < _STATEMENT_LINES
        and not _ENDS_STATEMENT.search(lines[start - 1])
        and not lines[start - 1].lstrip().startswith("//")
    ):
        start -= 1
    found = _comment_above(lines, start)
    if found is None and start > 0 and _OPENS_BLOCK.search(lines[start - 1]):
        found = _comment_above(lines, start - 1)
    return found


_SENTENCE_LINES = 3  # comment lines of the verdict's sentence, at most


def _comment_above(lines: list[str], start: int) -> str | None:
    """The sentence of the `//` comment right above line `start` that gives a verdict: from
    its line to the line that ends it (`.`, `!`, `?`), within the comment."""
    above = start - 1
    while above >= 0 and _comment(lines[above]) is not None:
        if _VERDICT.search(_comment(lines[above]) or ""):
            sentence = []
            for line in lines[above : min(start, above + _SENTENCE_LINES)]:
                sentence.append(_comment(line) or "")
                if sentence[-1].endswith((".", "!", "?")):
                    break
            return " ".join(part for part in sentence if part)
        above -= 1
    return None


def _comment(line: str) -> str | None:
    """The text of a `//` (or `///`) comment line, None for a line of code."""
    stripped = line.lstrip()
    return stripped.lstrip("/").strip() if stripped.startswith("//") else None
