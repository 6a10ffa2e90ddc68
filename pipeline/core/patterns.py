"""Message patterns run in linear time, whatever a repository or a dataset puts in them.

A `messagePattern` comes from an untrusted repository's message (`x(.+?) x(.+?) ... end`
with 50 placeholders) or from a hand-edited dataset (`(a+)+$`); Python's backtracking
`re` takes exponential time on such a pattern and a 46-character line. Patterns are run
with RE2 (google-re2), whose automaton matches in time linear in the text, and bounded
in size; `pattern_problem` is what `validate` reports for a pattern `explain` would not
run. A query also carries a time budget (`Budget`), so no text can hold it for long.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Iterator
from typing import Protocol, cast

import re2  # type: ignore[import-untyped]

MAX_PATTERN_CHARS = 8192  # the longest pattern of risingwave and cargo is under 1,000
RE2_MAX_MEM = 8 << 20  # an automaton larger than this (`a{1000}{1000}`) is refused
QUERY_BUDGET_S = 1.0


class PatternMatch(Protocol):
    """The part of a match object that errdoc uses (RE2's and `re`'s alike)."""

    def start(self) -> int: ...

    def end(self) -> int: ...


class LinearPattern(Protocol):
    """A compiled pattern whose search time is linear in the text."""

    def finditer(self, text: str) -> Iterator[PatternMatch]: ...


def _options() -> object:
    options = re2.Options()
    options.log_errors = False  # RE2 writes to stderr otherwise
    options.max_mem = RE2_MAX_MEM
    return cast(object, options)


def _compile(pattern: str) -> LinearPattern:
    if len(pattern) > MAX_PATTERN_CHARS:
        raise ValueError(f"longer than {MAX_PATTERN_CHARS} characters")
    re.compile(pattern)  # errdoc's own syntax is Python's: what it refuses, nobody runs
    try:
        return cast(LinearPattern, re2.compile(pattern, _options()))
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        raise ValueError(f"not a linear-time pattern (RE2: {detail})") from None


@functools.lru_cache(maxsize=65536)
def compile_pattern(pattern: str) -> LinearPattern | None:
    """The pattern compiled for linear-time search, or None if it is not one errdoc runs."""
    try:
        return _compile(pattern)
    except (ValueError, re.error, RecursionError, OverflowError):
        return None


def pattern_problem(pattern: str) -> str | None:
    """Why `explain` would not run this pattern, or None when it would."""
    try:
        _compile(pattern)
    except re.error as exc:
        return f"does not compile ({exc})"
    except (RecursionError, OverflowError):
        return "does not compile (nested too deeply)"
    except ValueError as exc:
        return str(exc)
    return None


class Budget:
    """A deadline for one query: checked between patterns, so one query ends in time."""

    def __init__(self, seconds: float = QUERY_BUDGET_S) -> None:
        self._deadline = time.monotonic() + seconds
        self.exhausted = False

    def spent(self) -> bool:
        """True (and remembered) once the deadline has passed."""
        if not self.exhausted and time.monotonic() > self._deadline:
            self.exhausted = True
        return self.exhausted
