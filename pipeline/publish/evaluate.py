"""`errdoc eval`: offline quality figures of a dataset's explanations.

Per record, from the record alone (and the repository, when given): do the code
fields parse as Rust, are the names, SQL keywords and commands it claims found
in the repository, does it name a function of the caller path, is its
documentation its own, does it keep the message's placeholders, does it keep
the field length limits. The judge mode (`publish/judge.py`) compares against a
reference set with a model.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pipeline.analyze.fields import FIELD_ORDER, over_limit
from pipeline.analyze.grounding import Claim, claim_variants, claims, invented
from pipeline.core.model import Record
from pipeline.core.reach import Reach
from pipeline.languages.rust.sites import parser

CODE_FIELDS = ("validationCode", "typeGuard", "tryCatchPattern", "exampleFix")
_IDENT = re.compile(r"[A-Za-z_]\w*")
# A code field may hold SQL or a shell command as well: it is parsed only when it reads as Rust.
_RUSTY = re.compile(
    r"\b(?:fn|let|match|impl|use|struct|enum|if)\b|=>|::|[?;]\s*$|\w!\(|\.\w+\(", re.M
)
_SQL_START = re.compile(r"^\s*(?:[A-Z]{3,}\b|\$ )")
_RUST_WORDS = frozenset(
    [
        "let",
        "if",
        "match",
        "fn",
        "use",
        "impl",
        "pub",
        "struct",
        "enum",
        "return",
        "for",
        "while",
        "loop",
        "mut",
        "async",
        "unsafe",
        "const",
        "static",
        "type",
        "trait",
        "mod",
        "where",
        "else",
    ]
)
_QUOTED = re.compile(r"`([^`\n]{4,400})`|\"([^\"\n]{4,400})\"")
_BEFORE_AFTER = re.compile(r"^\s*(?://|#|--)\s*(?:before|after)\b.*$", re.I | re.M)
_COMMENT = re.compile(r"^\s*(?://|#|--).*$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Item:
    """One record to evaluate, with what the dataset knows of its caller paths."""

    record: Record
    enclosing_fn: str | None = None
    hops: tuple[str, ...] = ()  # caller-path functions above the enclosing one


@dataclass(frozen=True, slots=True)
class RecordCheck:
    """The offline checks of one record."""

    record_id: str
    code_checked: int
    code_parsed: int
    claimed: int
    grounded: int
    names_enclosing: bool
    names_caller: bool | None  # None: no caller path known for this record
    placeholders_kept: bool
    limit_problems: tuple[str, ...]
    invented: tuple[str, ...] = ()


@dataclass(frozen=True)
class Figures:
    """A dataset's offline figures."""

    records: int
    code_checked: int
    code_parsed: int
    claimed: int
    grounded: int
    names_enclosing: int
    with_paths: int
    names_caller: int
    distinct_documentation: int
    placeholders_kept: int
    within_limits: int
    checks: tuple[RecordCheck, ...] = field(repr=False, default=())

    def as_dict(self) -> dict[str, Any]:
        """The figures as ratios and counts (JSON output, the bench)."""
        return {
            "records": self.records,
            "codeParses": _ratio(self.code_parsed, self.code_checked),
            "codeFieldsChecked": self.code_checked,
            "groundedNames": _ratio(self.grounded, self.claimed),
            "namesClaimed": self.claimed,
            "namesEnclosingFn": _ratio(self.names_enclosing, self.records),
            "namesCallerHop": _ratio(self.names_caller, self.with_paths),
            "recordsWithCallerPaths": self.with_paths,
            "distinctDocumentation": _ratio(self.distinct_documentation, self.records),
            "placeholdersKept": _ratio(self.placeholders_kept, self.records),
            "withinLengthLimits": _ratio(self.within_limits, self.records),
        }

    def format(self) -> str:
        """A few aligned lines for the terminal."""
        d = self.as_dict()

        def pct(key: str) -> str:
            value = d[key]
            return "n/a" if value is None else f"{100 * value:5.1f}%"

        return "\n".join(
            (
                f"records                      {self.records}",
                f"code fields that parse       {pct('codeParses')} of {self.code_checked}",
                f"grounded names               {pct('groundedNames')} of {self.claimed} claimed",
                f"name the enclosing fn        {pct('namesEnclosingFn')}",
                f"name a caller-path hop       {pct('namesCallerHop')}"
                f" of {self.with_paths} with caller paths",
                f"distinct documentation       {pct('distinctDocumentation')}",
                f"placeholders kept            {pct('placeholdersKept')}",
                f"within field length limits   {pct('withinLengthLimits')}",
            )
        )


def _ratio(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(part / whole, 4)


def texts_of(record: Record) -> list[str]:
    """Every explanation string of a record (the fields an analyzer writes)."""
    out: list[str] = []
    for name in FIELD_ORDER:
        value = getattr(record, name)
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, str))
    return out


@functools.lru_cache(maxsize=1)
def _parser() -> Any:
    return parser()


def parses_as_rust(code: str) -> bool:
    """Whether code parses without an error node, each before/after part on its own: as
    items, or as statements in a fn body."""
    parts = [p for p in _BEFORE_AFTER.split(code) if _COMMENT.sub("", p).strip()]
    return all(_parses(_COMMENT.sub("", part).strip()) for part in parts)


def _parses(source: str) -> bool:
    for wrapped in (source, f"fn __errdoc() {{\n{source}\n}}", f"fn __errdoc() {{\n{source};\n}}"):
        if not _parser().parse(wrapped.encode("utf-8")).root_node.has_error:
            return True
    return False


def reads_as_rust(code: str) -> bool:
    """Whether a code field is meant as Rust (not an SQL statement or a command line)."""
    body = _COMMENT.sub("", code).strip()
    if not body or _SQL_START.match(body):
        return False
    words = body.split(None, 2)
    if (
        len(words) > 1
        and re.fullmatch(r"[a-z][\w.-]*", words[0])
        and words[0] not in _RUST_WORDS
        and re.fullmatch(r"--?[\w-]+|[a-z][\w-]*", words[1])
    ):
        return False  # `risectl meta pause`, `cargo build --release`
    return bool(_RUSTY.search(body))


def placeholders_kept(record: Record) -> bool:
    """False when a text quotes the message with its placeholders filled by made-up values."""
    if record.errorMessage == re.sub(r"\{[^{}]*\}", "", record.errorMessage):
        return True  # no placeholder to lose
    try:
        pattern = re.compile(record.messagePattern)
    except re.error:
        return True
    for text in texts_of(record):
        for match in _QUOTED.finditer(text):
            quoted = match.group(1) or match.group(2)
            if quoted != record.errorMessage and pattern.fullmatch(quoted):
                return False
    return True


def _mentions(texts: Sequence[str], name: str) -> bool:
    short = name.rsplit("::", 1)[-1]
    return any(re.search(rf"(?<![\w]){re.escape(short)}(?![\w])", t) for t in texts)


def check_record(
    item: Item,
    name_exists: Callable[[str], bool] | None = None,
    keyword_exists: Callable[[str], bool] | None = None,
) -> RecordCheck:
    """The offline checks of one record; names are grounded by its window, else the repo."""
    record = item.record
    texts = texts_of(record)
    checked = parsed = 0
    for name in CODE_FIELDS:
        value = getattr(record, name)
        if not value or not reads_as_rust(value):
            continue
        checked += 1
        parsed += parses_as_rust(value)
    known = frozenset(_IDENT.findall("\n".join((record.sourceCode, record.errorMessage))))
    found: list[Claim] = claims(texts)
    missing = invented(found, known, name_exists, keyword_exists)
    problems = tuple(p for name in FIELD_ORDER for p in over_limit(name, getattr(record, name)))
    return RecordCheck(
        record_id=record.id,
        code_checked=checked,
        code_parsed=parsed,
        claimed=len(found),
        grounded=len(found) - len(missing),
        names_enclosing=bool(item.enclosing_fn) and _mentions(texts, item.enclosing_fn or ""),
        names_caller=any(_mentions(texts, h) for h in item.hops) if item.hops else None,
        placeholders_kept=placeholders_kept(record),
        limit_problems=problems,
        invented=tuple(c.word for c in missing),
    )


def evaluate(
    items: Iterable[Item],
    name_exists: Callable[[str], bool] | None = None,
    keyword_exists: Callable[[str], bool] | None = None,
) -> Figures:
    """The offline figures of a set of records."""
    items = list(items)
    checks = [check_record(i, name_exists, keyword_exists) for i in items]
    docs = Counter(" ".join(i.record.documentation.split()) for i in items)
    return Figures(
        records=len(items),
        code_checked=sum(c.code_checked for c in checks),
        code_parsed=sum(c.code_parsed for c in checks),
        claimed=sum(c.claimed for c in checks),
        grounded=sum(c.grounded for c in checks),
        names_enclosing=sum(c.names_enclosing for c in checks),
        with_paths=sum(c.names_caller is not None for c in checks),
        names_caller=sum(bool(c.names_caller) for c in checks),
        distinct_documentation=sum(
            docs[" ".join(i.record.documentation.split())] == 1 for i in items
        ),
        placeholders_kept=sum(c.placeholders_kept for c in checks),
        within_limits=sum(not c.limit_problems for c in checks),
        checks=tuple(checks),
    )


def candidate_words(items: Iterable[Item]) -> set[str]:
    """Every word the records' claims may be looked up as (commands also in snake and Camel
    case), for one batched repository lookup."""
    words: set[str] = set()
    for item in items:
        for claim in claims(texts_of(item.record)):
            words.update(claim_variants(claim.word))
    return words


def items_of(
    records: Iterable[Record], manifest: Mapping[str, Any], reach: Mapping[str, Reach]
) -> list[Item]:
    """Records with their enclosing fn (the manifest's) and caller-path hops (`reach.json`)."""
    entries = manifest.get("records") if isinstance(manifest.get("records"), dict) else {}
    out = []
    for record in records:
        entry = entries.get(record.id) if isinstance(entries, dict) else None
        entry = entry if isinstance(entry, dict) else {}
        fn = entry.get("enclosingFn") if isinstance(entry.get("enclosingFn"), str) else None
        out.append(Item(record, fn, _hops(reach.get(record.id), fn)))
    return out


def _hops(reach: Reach | None, enclosing: str | None) -> tuple[str, ...]:
    """The functions on the record's caller paths, its own enclosing fn left out."""
    names: list[str] = []
    for path in reach.paths if reach is not None else ():
        for hop in path.hops:
            if hop.name.rsplit("::", 1)[-1] != enclosing and hop.name not in names:
                names.append(hop.name)
    return tuple(names)
