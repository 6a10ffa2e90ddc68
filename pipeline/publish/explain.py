"""`explain`: which records does a pasted error line or log come from?

Every pattern is posted under one anchor: its rarest whole word of literal text.
A query looks up the words it contains, keeps the candidates whose longest
literal segment occurs in it, and only then runs their regexes, so the cost
follows the query's length, not the number of patterns.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import click

from pipeline.core.model import Record
from pipeline.core.reach import reach_to_json
from pipeline.dataset.reader import Dataset, DatasetError, load_all, page_path

_WORD = re.compile(r"[A-Za-z0-9_]+")
_PLACEHOLDER = "(.+?)"
_SPECIAL = set(".^$*+?{}[]|()")
MIN_LITERAL = 4  # a pattern with less literal text than this matches almost any line
_LETTERS = re.compile(r"[A-Za-z]{2}")  # nor does one without a word (`{}: {}`) say anything
# A message in a log stands between the log prefix or an error-chain separator and the end
# of the line; a pattern matched inside running text (`connection` in `connection reset by
# peer`) is a weaker answer than one that fills such a slot, whatever its length.
BOUNDARY_BONUS = 8
_LEFT_EDGE = set("\n:>])|\"'`")
_RIGHT_EDGE = set("\n:;,.)(\"'`")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Match:
    """One record whose messagePattern occurs in the query."""

    id: str
    repo: str
    score: int  # literal characters matched, plus a bonus per end that stands at a boundary
    message: str
    file_path: str
    line: int
    page: str  # relative to the site root
    first_solution: str | None


@dataclass(frozen=True)
class _Entry:
    record: Record
    key: str  # the longest literal segment: a cheap `in` test before the regex
    literal: int


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str] | None:
    """A pattern compiled when a query first needs it (None if it is not a regex).

    Compiling every pattern up front was most of the cost of one `explain` call
    (0.35 s of 0.55 s on risingwave's 6,071 records).
    """
    try:
        return re.compile(pattern)
    except re.error:  # a hand-edited dataset: never matches
        return None


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
    parts = pattern.split(_PLACEHOLDER)
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


class ErrorIndex:
    """Patterns of every record, indexed by an anchor word for fast lookup."""

    def __init__(self, records: list[Record]) -> None:
        entries: list[_Entry] = []
        word_sets: list[set[str]] = []
        for record in records:
            segments = literal_segments(record.messagePattern)
            literal = sum(len(s) for s in segments)
            if literal < MIN_LITERAL or not any(_LETTERS.search(s) for s in segments):
                continue
            entries.append(_Entry(record, max(segments, key=len), literal))
            word_sets.append(set(_anchor_words(record.messagePattern)))
        df = Counter(w for ws in word_sets for w in ws)
        self._by_word: dict[str, list[_Entry]] = {}
        self._unanchored: list[_Entry] = []
        for entry, words in zip(entries, word_sets, strict=True):
            if words:
                anchor = min(words, key=lambda w: (df[w], -len(w), w))
                self._by_word.setdefault(anchor, []).append(entry)
            else:
                self._unanchored.append(entry)
        self.size = len(entries)

    @classmethod
    def from_datasets(cls, datasets: list[Dataset]) -> ErrorIndex:
        """Index the current records of every dataset."""
        return cls([r for d in datasets for r in d.records])

    def search(self, text: str, limit: int = 5) -> list[Match]:
        """Records whose pattern occurs in `text`, longest literal match first, then repo."""
        seen: set[str] = set()
        found: list[tuple[int, _Entry]] = []
        words = set(_WORD.findall(text))
        pools = [self._by_word.get(w, ()) for w in words]
        for pool in [*pools, self._unanchored]:
            for entry in pool:
                if entry.record.id in seen or entry.key not in text:
                    continue
                seen.add(entry.record.id)
                best = max(
                    (_bounded(text, m, entry.record.messagePattern) for m in _first(entry, text)),
                    default=-1,
                )
                if best >= 0:
                    found.append((entry.literal + BOUNDARY_BONUS * best, entry))
        found.sort(key=lambda f: (-f[0], f[1].record.repo, f[1].record.filePath, f[1].record.id))
        return [_match(e, score) for score, e in found[: max(limit, 0)]]


def _first(entry: _Entry, text: str, most: int = 4) -> list[re.Match[str]]:
    out: list[re.Match[str]] = []
    regex = _compiled(entry.record.messagePattern)
    if regex is None:
        return out
    for m in regex.finditer(text):
        out.append(m)
        if len(out) == most:
            break
    return out


def _bounded(text: str, m: re.Match[str], pattern: str) -> int:
    """How many ends of the match stand where a message starts or ends (0, 1 or 2)."""
    before = text[: m.start()].rstrip(" \t")
    after = text[m.end() :].lstrip(" \t")
    left = pattern.startswith(_PLACEHOLDER) or not before or before[-1] in _LEFT_EDGE
    right = pattern.endswith(_PLACEHOLDER) or not after or after[0] in _RIGHT_EDGE
    return int(left) + int(right)


def _match(entry: _Entry, score: int) -> Match:
    r = entry.record
    return Match(
        id=r.id,
        repo=r.repo,
        score=score,
        message=r.errorMessage,
        file_path=r.filePath,
        line=r.lineNumber,
        page=page_path(r),
        first_solution=r.solutions[0] if r.solutions else None,
    )


def _clean(text: str) -> str:
    """Untrusted text for a terminal: no control characters (no escape sequences)."""
    return _CONTROL.sub("?", text.replace("\n", " ").replace("\t", " "))


def _with_reach(match: dict[str, Any], dataset: Dataset | None) -> dict[str, Any]:
    """A JSON match with how its record is reached (`reach`), when the dataset has `reach.json`."""
    reach = dataset.reach.get(str(match["id"])) if dataset is not None else None
    return {**match, "reach": reach_to_json(reach)} if reach is not None else match


def format_matches(matches: list[Match]) -> str:
    """The human-readable answer of `explain`."""
    lines: list[str] = []
    for n, m in enumerate(matches, 1):
        lines.append(f"{n}. {_clean(m.message)}")
        lines.append(f"   {m.repo} · {_clean(m.file_path)}:{m.line} · score {m.score}")
        lines.append(f"   page: {m.page}")
        if m.first_solution:
            lines.append(f"   fix: {_clean(m.first_solution)}")
    return "\n".join(lines)


@click.command("explain")
@click.option("--out", default="output", show_default=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of matches.")
@click.option("--limit", default=5, show_default=True, type=click.IntRange(min=1))
@click.argument("text", nargs=-1)
def explain_command(out: Path, as_json: bool, limit: int, text: tuple[str, ...]) -> None:
    """Find the records a pasted error line or log comes from (TEXT, or stdin when absent or -)."""
    query = sys.stdin.read() if not text or text == ("-",) else " ".join(text)
    try:
        datasets = load_all(out)
    except DatasetError as exc:
        raise click.ClickException(str(exc)) from exc
    if not datasets:
        raise click.ClickException(f"no dataset under {out}/: run `errdoc extract` or pass --out")
    matches = ErrorIndex.from_datasets(datasets).search(query, limit=limit)
    if as_json:
        by_repo = {d.repo: d for d in datasets}
        answer = [_with_reach(asdict(m), by_repo.get(m.repo)) for m in matches]
        click.echo(json.dumps(answer, ensure_ascii=False, indent=2))
    elif matches:
        click.echo(format_matches(matches))
    else:
        click.echo("no record matches this text", err=True)
    if not matches:
        sys.exit(1)
