"""Path globs for INCLUDE/EXCLUDE, matched against '/'-separated repository paths.

The rules are gitignore's, minus negation:
- `*` matches within one segment, `?` one character of a segment, `[abc]`/`[!abc]` a set;
- `**` as a whole segment matches zero or more segments (`a/**/b` matches `a/b` and `a/x/y/b`);
- a pattern without a `/` matches at any depth (`*_test.rs`, `tests`); a leading `/` anchors it;
- a pattern also matches everything below a directory it names (`src/meta`, `src/meta/`
  and `src/meta/**` all select every file under src/meta).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_ANY_SEGMENTS = "(?:[^/]*/)*"


def _segment_regex(segment: str) -> str:
    """Translate one path segment of a glob into a regex that never crosses a '/'."""
    out: list[str] = []
    i, n = 0, len(segment)
    while i < n:
        c = segment[i]
        if c == "*":
            while i < n and segment[i] == "*":
                i += 1
            out.append("[^/]*")
            continue
        if c == "?":
            out.append("[^/]")
        elif c == "[":
            end = segment.find("]", i + 2 if segment[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = segment[i + 1 : end]
                negate = body.startswith("!")
                if negate:
                    body = body[1:]
                # Escape everything but ranges, so a hostile pattern cannot smuggle regex syntax.
                body = "".join("-" if ch == "-" else re.escape(ch) for ch in body)
                out.append(f"[^/{body}]" if negate else f"(?![/])[{body}]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def glob_to_regex(pattern: str) -> str:
    """Return the regex (for re.fullmatch) that a glob over repository paths stands for."""
    pat = pattern.strip()
    anchored = pat.startswith("/") or "/" in pat.rstrip("/")
    pat = pat.lstrip("/")
    while pat.startswith("./"):
        pat = pat[2:]
    pat = pat.rstrip("/")
    segments = [s for s in pat.split("/") if s]
    parts: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            parts.append(".*" if last else _ANY_SEGMENTS)
        else:
            parts.append(_segment_regex(segment) + ("" if last else "/"))
    prefix = "" if anchored else _ANY_SEGMENTS
    return prefix + "".join(parts) + "(?:/.*)?"


@dataclass(frozen=True, slots=True)
class PathFilter:
    """Compiled include/exclude globs: a path passes if it is included and not excluded."""

    include: tuple[re.Pattern[str], ...]
    exclude: tuple[re.Pattern[str], ...]

    def __call__(self, path: str) -> bool:
        if self.include and not any(rx.fullmatch(path) for rx in self.include):
            return False
        return not any(rx.fullmatch(path) for rx in self.exclude)


def compile_filter(include: Sequence[str] = (), exclude: Sequence[str] = ()) -> PathFilter:
    """Compile include/exclude globs; blank patterns are ignored, no include means everything."""
    if isinstance(include, str) or isinstance(exclude, str):
        raise TypeError("include/exclude take a sequence of globs, not one string")
    return PathFilter(
        include=tuple(re.compile(glob_to_regex(p), re.DOTALL) for p in include if p.strip()),
        exclude=tuple(re.compile(glob_to_regex(p), re.DOTALL) for p in exclude if p.strip()),
    )
