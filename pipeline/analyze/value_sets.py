"""A value refused because it is none of those a `match` lists. Pure.

`match name { "simple" => .., "raw" => .., _ => bail!("unknown base tokenizer {}", name) }`
refuses a value outside the set the code names: an invalid argument, not a thing missing
that the reader could create first, whatever the word "unknown" suggests (lance's
tokenizers, sccache's "Unknown cache level", quickwit's "unknown command"; reading 232).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.core.brackets import split_outside_brackets
from pipeline.core.sitetypes import Condition

_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"|b?\'(?:[^\'\\]|\\.)\'|-?\d+')
_CATCH_ALL = re.compile(r"^(?:_|(?:mut\s+)?[a-z_]\w*)$")
# `s if s.starts_with("lindera/") || s == "jieba"`: a binding whose guard compares it with
# literals only
_NAMED_FAMILY = re.compile(
    r'([a-z_]\w*) if (?:\1(?:\.(?:starts_with|ends_with|contains)\("[^"\\]*"\)|\s*==\s*"[^"\\]*")'
    r"(?:\s*\|\|\s*)?)+",
    re.S,
)


def listed_values(conditions: Sequence[Condition]) -> tuple[str, ...] | None:
    """The literal values a site's catch-all `match` arm is taken after (`"simple"`,
    `"raw"`), when the site is in such an arm and two or more literals were tried first;
    None otherwise."""
    last = conditions[-1] if conditions else None
    if last is None or last.kind != "match_arm":
        return None
    if not catch_all(last):
        return None
    # an arm that tests its binding against literals (`s if s.starts_with("lindera/")`,
    # lance's tokenizers) takes a family of values the code names too
    tried = [p for p in last.excluded if not _NAMED_FAMILY.fullmatch(p.strip())]
    values = [v for p in tried for v in split_outside_brackets(p, "|")]
    if len(values) < 2 or not all(_LITERAL.fullmatch(v) for v in values):
        return None
    return tuple(values)


def catch_all(arm: Condition) -> bool:
    """Whether a `match` arm takes every value no earlier arm took (`_ =>`, `other =>`)."""
    pattern = arm.text.removesuffix(" =>").rpartition(": ")[2].strip()
    return arm.kind == "match_arm" and bool(_CATCH_ALL.fullmatch(pattern))
