"""`explain`'s matcher: which records does a pasted error line or log come from?

Every pattern is posted under one anchor: its rarest whole word of literal text.
A query looks up the words it contains, keeps the candidates whose longest
literal segment occurs in it, and only then runs their regexes, so the cost
follows the query's length, not the number of patterns.

The site's search (`render/static/search.js`) runs the same algorithm over the rows
`site_rows` exports: same anchors, keys, patterns, boundaries, locations and order.
A change here is a change there; tests/test_search_parity.py holds them together.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pipeline.core.model import Record
from pipeline.core.patterns import Budget, LinearPattern, PatternMatch, compile_pattern
from pipeline.dataset.reader import Dataset, Paged, page_path
from pipeline.languages import language_of

_WORD = re.compile(r"[A-Za-z0-9_]+")
_PLACEHOLDER = "(.+?)"
_PLACEHOLDERS = re.compile(r"\(\.\+\?\)|\(\[\\s\\S\]\+\?\)")  # (.+?) and ([\s\S]+?)
_SPECIAL = set(".^$*+?{}[]|()")
MIN_LITERAL = 4  # a pattern with less literal text than this matches almost any line
MIN_HEAD = 10  # nor is a first line with less found by alone (nor with one word)
_LETTERS = re.compile(r"[A-Za-z]{2}")  # nor does one without a word (`{}: {}`) say anything
# nor one whose only word is what every error line says (nushell's "Error", "failed"): it
# would answer any pasted error that nothing else matches
_PREFIX_WORDS = frozenset(
    ("error", "errors", "err", "warning", "failed", "failure", "fatal", "panic")
)
# A message in a log stands between the log prefix or an error-chain separator and the end
# of the line; a pattern matched inside running text (`connection` in `connection reset by
# peer`) is a weaker answer than one that fills such a slot, whatever its length.
BOUNDARY_BONUS = 8
_LEFT_EDGE = set("\n:>])|\"'`")
_RIGHT_EDGE = set("\n:;,.)(\"'`")
# A location printed with the message (`panicked at src/x.rs:10:5`, a backtrace frame
# `at ./src/x.rs:10`, a log's `src/x.rs:10`) names the site among records of one message
# (risingwave has 112 `should exist`): the file outweighs a boundary, the line the file.
FILE_BONUS = 24
LINE_BONUS = 48  # within LINE_NEAR lines of the record's line; half of it within its window
LINE_NEAR = 3
WINDOW = 18
FIRST_MATCHES = 4  # occurrences of one pattern looked at for a boundary: a log repeats lines
LOOSE_PENALTY = 1  # a match with the values left out yields to an exact one of the same length
# A value left out reads as nothing, `{}`/`{job_id}`, `<id>`, `...` or `…` (what people type).
LOOSE_GAP = r"[ \t]*(?:\{[^{}\n]{0,40}\}|<[^<>\n]{0,40}>|\.\.\.|…)?[ \t]*"
_EDGE_BLANKS = re.compile(r"^(?:\\[ \t]|[ \t])+|(?:\\[ \t]|[ \t])+$")
_LOCATION = re.compile(
    r"(?<![A-Za-z0-9_.@+/\\-])([A-Za-z0-9_.@+/\\-]{1,300}\.[A-Za-z][A-Za-z0-9]{0,5}):([0-9]{1,7})"
)


@dataclass(frozen=True)
class Match:
    """One record whose messagePattern occurs in the query, with its score."""

    record: Record
    # literal characters matched, a bonus per end standing at a boundary, and a bonus when
    # a location in the text (`panicked at file:line`, a backtrace frame) points at the site
    score: int
    exact: bool  # False: matched with its values left out

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def message(self) -> str:
        return self.record.errorMessage

    @property
    def page(self) -> str:
        """The record's page, relative to the site root."""
        return page_path(self.record)

    def as_json(self, enclosing: str | None = None) -> dict[str, object]:
        """The match under the record's own key names (camelCase), plus score and page."""
        r = self.record
        return {
            "id": r.id,
            "repo": r.repo,
            "score": self.score,
            "exact": self.exact,
            "errorMessage": r.errorMessage,
            "messagePattern": r.messagePattern,
            "filePath": r.filePath,
            "lineNumber": r.lineNumber,
            "enclosingItem": enclosing,
            "githubUrl": r.githubUrl,
            "page": self.page,
            "solutions": list(r.solutions),
        }


class Listed(Paged, Protocol):
    """What the matcher and the site's rows read of a record: a Record or render's summary."""

    @property
    def errorMessage(self) -> str: ...
    @property
    def messagePattern(self) -> str: ...
    @property
    def filePath(self) -> str: ...
    @property
    def lineNumber(self) -> int: ...


R = TypeVar("R", bound=Listed)


def search_pattern(record: Listed) -> str:
    """The pattern a pasted text is searched by: the message's, without what std prints
    around it (`unreachable!`'s "internal error: entered unreachable code: ", `expect`'s
    ": {error:?}"), so that the message pasted alone finds its record as the whole panic
    text does (`Language.pattern_identity`)."""
    return language_of(record.filePath).pattern_identity(record.messagePattern)


@dataclass(frozen=True)
class _Entry(Generic[R]):
    record: R
    key: str  # the longest literal segment, edge blanks trimmed: a cheap `in` test first
    literal: int
    loose: str  # the pattern with its values optional (`values_left_out`)
    head: str = ""  # a message of several lines: its first line's pattern (`first_line`)
    head_literal: int = 0
    pattern: str = ""  # what a pasted text is searched by (`search_pattern`), made once


def _compiled(pattern: str) -> LinearPattern | None:
    """A pattern compiled when a query first needs it (None if it is not one errdoc runs).

    Compiling every pattern up front was most of the cost of one `explain` call
    (0.35 s of 0.55 s on risingwave's 6,071 records). RE2, never `re`: a hostile
    pattern must not backtrack (core/patterns.py).
    """
    return compile_pattern(pattern)


def literal_segments(pattern: str) -> list[str]:
    """The literal runs of a messagePattern, split at placeholders and any other construct."""
    segments: list[str] = []
    buf: list[str] = []
    for token in _TOKEN.finditer(pattern):
        literal = token["lit"]
        if literal is None:
            escaped = token["esc"]
            # `\d`, `\s`, `\b` ... are not literals; an escaped punctuation mark is one.
            literal = escaped if escaped is not None and not escaped.isalnum() else None
            if token["sp"] == "\\":  # a trailing lone backslash reads as itself
                literal = "\\"
        if literal is None:  # a placeholder or another regex construct ends the segment
            segments.append("".join(buf))
            buf = []
        else:
            buf.append(literal)
    segments.append("".join(buf))
    return [s for s in segments if s]


# A placeholder, an escape, a run of plain characters, or one special character.
_TOKEN = re.compile(
    r"(?P<ph>" + re.escape(_PLACEHOLDER) + r")"
    r"|\\(?P<esc>.)"
    r"|(?P<lit>[^\\" + re.escape("".join(sorted(_SPECIAL))) + r"]+)"
    r"|(?P<sp>[\s\S])",
    re.DOTALL,
)


def _anchor_words(pattern: str) -> list[str]:
    """Words of the literal text that a rendering keeps whole (not glued to an argument)."""
    words: list[str] = []
    parts = _PLACEHOLDERS.split(pattern)
    for n, part in enumerate(parts):
        segs = literal_segments(part)
        for i, seg in enumerate(segs):
            for m in _WORD.finditer(seg):
                glued_left = n > 0 and i == 0 and m.start() == 0 and _WORD.match(part[:1])
                glued_right = (
                    n < len(parts) - 1
                    and i == len(segs) - 1
                    and m.end() == len(seg)
                    and _WORD.match(part[-1:])
                )
                if not (glued_left or glued_right):
                    words.append(m.group())
    return words


def _anchored(records: Iterable[R]) -> list[tuple[_Entry[R], str]]:
    """Each record a query can find, with its anchor word ("" when it has none)."""
    entries: list[_Entry[R]] = []
    word_sets: list[set[str]] = []
    for record in records:
        pattern = search_pattern(record)
        segments = literal_segments(pattern)
        literal = sum(len(s) for s in segments)
        if literal < MIN_LITERAL or not any(_LETTERS.search(s) for s in segments):
            continue
        words = {w.lower() for s in segments for w in _WORD.findall(s)}
        if len(words) == 1 and words <= _PREFIX_WORDS:
            continue
        head = first_line(pattern)
        # a first line pasted alone must find the record too: its key and anchor are the
        # first line's, which the whole message holds as well
        keyed = literal_segments(head) if head else segments
        key = max((s.strip(" \t") for s in keyed), key=len)
        head_literal = sum(len(s) for s in keyed) if head else 0
        loose = values_left_out(pattern)
        entries.append(_Entry(record, key, literal, loose, head, head_literal, pattern))
        word_sets.append(set(_anchor_words(head or pattern)))
    df = Counter(w for ws in word_sets for w in ws)
    return [
        (entry, min(words, key=lambda w: (df[w], -len(w), w)) if words else "")
        for entry, words in zip(entries, word_sets, strict=True)
    ]


def first_line(pattern: str) -> str:
    """The pattern of a message's first line when it has several (a pasted first line is
    a common question: cargo's "no such command: `x`" is followed by its help), else ""
    (also when that line has too little text to be found by)."""
    head, newline, _ = pattern.partition(_ESCAPED_NEWLINE)
    if not newline:
        return ""
    segments = literal_segments(head)
    words = _WORD.findall(" ".join(segments))
    if sum(len(s) for s in segments) < MIN_HEAD or len(words) < 2:
        return ""  # "error: {}" would find every pasted error
    return head


_ESCAPED_NEWLINE = re.escape("\n")


def site_rows(records: Iterable[Listed], enclosing: Mapping[str, str | None]) -> list[list[object]]:
    """What the site's search needs of each record, in the order search.js reads it."""
    return _rows(_anchored(records), enclosing)


def _rows(
    anchored: list[tuple[_Entry[R], str]], enclosing: Mapping[str, str | None]
) -> list[list[object]]:
    rows: list[list[object]] = []
    for e, anchor in anchored:
        r = e.record
        rows.append(
            [
                anchor, e.key, e.literal, e.pattern, e.loose, e.head, e.head_literal,
                r.repo, r.filePath, r.lineNumber, r.id, r.errorMessage,
                page_path(r), enclosing.get(r.id) or "",
            ]
        )  # fmt: skip
    return rows


class ErrorIndex:
    """Patterns of every record, indexed by an anchor word for fast lookup."""

    def __init__(self, records: list[Record]) -> None:
        self.anchors: dict[str, str] = {}  # record id -> its anchor ("" when it has none)
        self._by_word: dict[str, list[_Entry[Record]]] = {}
        self._unanchored: list[_Entry[Record]] = []
        self._anchored = _anchored(records)
        for entry, anchor in self._anchored:
            if anchor:
                self._by_word.setdefault(anchor, []).append(entry)
            else:
                self._unanchored.append(entry)
            self.anchors[entry.record.id] = anchor
        self.size = len(self._anchored)

    @classmethod
    def from_datasets(cls, datasets: list[Dataset]) -> ErrorIndex:
        """Index the current records of every dataset."""
        return cls([r for d in datasets for r in d.records])

    def search(self, text: str, limit: int = 5) -> list[Match]:
        """Records whose pattern occurs in `text`, best first (see the module docstring)."""
        text = normalize(text)
        seen: set[str] = set()
        found: list[Match] = []
        places = locations(text)
        pools = [self._by_word.get(w, ()) for w in set(_WORD.findall(text))]
        budget = Budget()
        spans: dict[str, tuple[int, int]] = {}  # an exact match's best span, by record id
        for pool in [*pools, self._unanchored]:
            for entry in pool:
                if entry.record.id in seen or entry.key not in text:
                    continue
                if budget.spent():  # what was found so far stands; the rest is not tried
                    break
                seen.add(entry.record.id)
                hit = _score(entry, text)
                if hit is not None:
                    score, exact, span = hit
                    score += _location_bonus(entry.record, places)
                    found.append(Match(entry.record, score, exact))
                    if span is not None:
                        spans[entry.record.id] = span
        found = sorted(_slot_fillers(found, spans, text), key=_rank)
        return found[: max(limit, 0)]

    def site_rows(self, enclosing: Mapping[str, str | None]) -> list[list[object]]:
        """What the site's search needs of each record, in the order search.js reads it."""
        return _rows(self._anchored, enclosing)


SITE_FIELDS = [
    "anchor", "key", "literal", "pattern", "loose", "head", "headLiteral",
    "repo", "filePath", "lineNumber", "id", "errorMessage", "page", "enclosingItem",
]  # fmt: skip


def matcher_constants() -> dict[str, Any]:
    """What search.js must use exactly as explain does (one source for both)."""
    return {
        "placeholder": _PLACEHOLDER,
        "word": _WORD.pattern,
        "location": _LOCATION.pattern,
        "leftEdge": "".join(sorted(_LEFT_EDGE)),
        "rightEdge": "".join(sorted(_RIGHT_EDGE)),
        "boundaryBonus": BOUNDARY_BONUS,
        "fileBonus": FILE_BONUS,
        "lineBonus": LINE_BONUS,
        "lineNear": LINE_NEAR,
        "window": WINDOW,
        "loosePenalty": LOOSE_PENALTY,
        "firstMatches": FIRST_MATCHES,
        "mayBeEmpty": [list(pair) for pair in _MAY_BE_EMPTY],
        "placeholders": _PLACEHOLDERS.pattern,
        "slotTemplates": SLOT_TEMPLATES,
    }


def normalize(text: str) -> str:
    """Line ends as `\\n` (a log pasted from Windows), as the site's search reads them too."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def values_left_out(pattern: str) -> str:
    """The pattern with each inner value optional (`job {} failed` finds `job failed`).

    A value at either end is dropped: a message that starts or ends with one is already
    matched anywhere its literal text stands.
    """
    parts = _PLACEHOLDERS.split(pattern)
    inner = [_EDGE_BLANKS.sub("", p) for p in parts]
    while len(inner) > 1 and not inner[0]:
        inner.pop(0)
    while len(inner) > 1 and not inner[-1]:
        inner.pop()
    return LOOSE_GAP.join(inner)


# A value may print as nothing (rustup's "toolchain '{}' is not installed{}", whose last
# `{}` is an optional suffix): the search lets each placeholder match the empty string.
# The records' `messagePattern` keeps SPEC 4's `(.+?)` (it keys the ids).
_MAY_BE_EMPTY = ((r"(.+?)", r"(.*?)"), (r"([\s\S]+?)", r"([\s\S]*?)"))


def searched(pattern: str) -> str:
    """The pattern as a pasted text is searched with: each value may be empty."""
    for value, empty in _MAY_BE_EMPTY:
        pattern = pattern.replace(value, empty)
    return pattern


def _score(entry: _Entry[Record], text: str) -> tuple[int, bool, tuple[int, int] | None] | None:
    """Literal length plus boundary bonus of the best exact match, else of a loose one; and
    the exact match's span (the first of the best), else None."""
    pattern = entry.pattern
    for source, exact in ((searched(pattern), True), (entry.loose, False)):
        if not exact and source == pattern:
            break
        best, span = -1, None
        for m in _first(source, text):
            bounded = _bounded(text, m, pattern)
            if bounded > best:
                best, span = bounded, (m.start(), m.end())
        if best >= 0:
            penalty = 0 if exact else LOOSE_PENALTY
            return entry.literal + BOUNDARY_BONUS * best - penalty, exact, span if exact else None
    if entry.head:  # the first line alone, as written: scored by its own text
        head = entry.head
        best = max((_bounded(text, m, head) for m in _first(searched(head), text)), default=-1)
        if best >= 0:
            return entry.head_literal + BOUNDARY_BONUS * best, True, None
    return None


# A pasted "Parse mismatch: expected valid variable name." is nushell's `#[error("Parse
# mismatch: expected {0}.")]` with `{0}` filled by the record of the site that built it
# (`ParseError::Expected("valid variable name")`): that site is the answer, one point above
# the template. Only the best SLOT_TEMPLATES templates are looked into, by score.
SLOT_TEMPLATES = 5


def _slot_fillers(
    found: list[Match], spans: Mapping[str, tuple[int, int]], text: str
) -> list[Match]:
    """`found` with each record whose message fills a placeholder of a better match (whole:
    the template's pattern, that placeholder replaced by the record's, matches the
    template's span from end to end) scored one above that template."""
    templates = sorted(
        (
            m
            for m in found
            if m.record.id in spans and _PLACEHOLDERS.search(search_pattern(m.record))
        ),
        key=_rank,
    )[:SLOT_TEMPLATES]
    raised: dict[str, int] = {}
    for template in templates:
        start, end = spans[template.record.id]
        matched = text[start:end]
        slots = _PLACEHOLDERS.split(search_pattern(template.record))
        for match in found:
            span = spans.get(match.record.id)
            if span is None or match is template or match.score > template.score:
                continue
            if not (start <= span[0] and span[1] <= end):
                continue
            filler = "(?:" + searched(search_pattern(match.record)) + ")"
            for i in range(1, len(slots)):
                whole = slots[0] + "".join(
                    (filler if j == i else _PLACEHOLDER) + slots[j] for j in range(1, len(slots))
                )
                regex = _compiled("^(?:" + searched(whole) + ")$")
                if regex is not None and next(regex.finditer(matched), None) is not None:
                    score = template.score + 1
                    raised[match.record.id] = max(raised.get(match.record.id, 0), score)
                    break
    return [
        Match(m.record, raised[m.record.id], m.exact) if m.record.id in raised else m for m in found
    ]


def _rank(m: Match) -> tuple[int, str, str, str]:
    """Best first; a tie by repository, file and id (search.js's `byRank`)."""
    return -m.score, m.record.repo, m.record.filePath, m.record.id


def _first(pattern: str, text: str, most: int = FIRST_MATCHES) -> list[PatternMatch]:
    out: list[PatternMatch] = []
    regex = _compiled(pattern)
    if regex is None:
        return out
    for m in regex.finditer(text):
        out.append(m)
        if len(out) == most:
            break
    return out


def _bounded(text: str, m: PatternMatch, pattern: str) -> int:
    """How many ends of the match stand where a message starts or ends (0, 1 or 2)."""
    before = text[: m.start()].rstrip(" \t")
    after = text[m.end() :].lstrip(" \t")
    left = pattern.startswith(_PLACEHOLDER) or not before or before[-1] in _LEFT_EDGE
    right = pattern.endswith(_PLACEHOLDER) or not after or after[0] in _RIGHT_EDGE
    return int(left) + int(right)


def locations(text: str) -> list[tuple[str, int]]:
    """`path:line` places printed in the text, paths `/`-separated without a leading `./`."""
    out: list[tuple[str, int]] = []
    for m in _LOCATION.finditer(text):
        path = m[1].replace("\\", "/")
        while path.startswith("./"):
            path = path[2:]
        out.append((path, int(m[2])))
    return out


def _location_bonus(record: Record, places: list[tuple[str, int]]) -> int:
    """The best bonus a place gives: the record's file, then how near its line."""
    best = 0
    f = record.filePath
    for path, line in places:
        if not (path == f or path.endswith("/" + f) or f.endswith("/" + path)):
            continue
        off = abs(line - record.lineNumber)
        near = LINE_BONUS if off <= LINE_NEAR else LINE_BONUS // 2 if off <= WINDOW else 0
        best = max(best, FILE_BONUS + near)
    return best
