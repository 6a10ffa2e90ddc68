"""What an explanation claims exists: backticked names, SQL keywords and commands.

A model that knows a domain writes plausible statements and commands that the
repository does not have (`ALTER DATABASE ... RESUME` where the parser has no
`RESUME`). Each claim is checked against the repository: names and command words
anywhere in its Rust source, SQL keywords in its code (not in a string literal).
Used by the llm analyzer (re-ask with what was invented) and by `errdoc eval`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

_BACKTICKED = re.compile(r"(?<!`)`([^`\n]{1,160})`(?!`)")
_CODE_LIKE = re.compile(r"[A-Za-z_][\w]*(?:(?:::|\.|->)[A-Za-z_][\w]*)*(?:\(\))?!?[?]?")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_SQL_VERBS = (
    "ALTER|CREATE|DROP|SET|SHOW|SELECT|INSERT|UPDATE|DELETE|GRANT|REVOKE|RECOVER|FLUSH|"
    "CANCEL|COMMENT|DESCRIBE|EXPLAIN|TRUNCATE|KILL|WAIT|REFRESH|DISCARD|BEGIN|COMMIT|"
    "ROLLBACK|START|ABORT|RESET|COPY|DECLARE|FETCH|CLOSE|VACUUM|ANALYZE|USE"
)
# A statement in backticks or in prose: a verb, then more upper-case words (and names).
_SQL_STATEMENT = re.compile(
    rf"\b(?:{_SQL_VERBS})\b(?:[ \t]+(?:[A-Z][A-Z_0-9]*\b|\.\.\.|[a-z_][\w.]*|\d+|[=(),*';<>]))+"
)
_UPPER_WORD = re.compile(r"\b[A-Z][A-Z_0-9]+\b")
_COMMAND = re.compile(r"^(?:\$ )?([a-z][\w.-]*)((?:[ \t]+[a-z][\w-]*)*)((?:[ \t]+.*)?)$")
_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]+)")
# Words a model may backtick without them being in the window: Rust and std vocabulary.
COMMON = frozenset(
    re.findall(
        r"\S+",
        """self Self crate super fn let mut ref match if else return async await impl pub struct
        enum trait type where for in loop while move dyn true false null None Some Ok Err
        Result Option Vec String str Box Arc Rc HashMap HashSet BTreeMap u8 u16 u32 u64 i32
        i64 usize bool anyhow bail ensure panic unwrap expect context with_context into from
        to_string format println assert assert_eq unreachable todo unimplemented clone iter
        map is_some is_none is_ok is_err as_ref Error Display Debug json""",
    )
)
# SQL words every SQL front end has; a missing one says nothing about invention.
_SQL_COMMON = frozenset(
    [
        "TO",
        "FROM",
        "WHERE",
        "AND",
        "OR",
        "NOT",
        "NULL",
        "IS",
        "AS",
        "ON",
        "IN",
        "BY",
        "INTO",
        "VALUES",
        "TABLE",
        "ALL",
        "DEFAULT",
    ]
)
# Programs outside the repository whose words are not the repository's to check.
TOOLS = frozenset(
    [
        "git",
        "cargo",
        "rustc",
        "rustup",
        "docker",
        "kubectl",
        "psql",
        "curl",
        "make",
        "sudo",
        "systemctl",
        "ls",
        "cat",
        "grep",
        "export",
        "echo",
        "env",
        "cd",
        "rm",
        "mkdir",
        "cp",
        "mv",
        "chmod",
        "tail",
        "head",
        "journalctl",
        "helm",
        "pip",
        "python",
        "python3",
        "npm",
        "ulimit",
        "sysctl",
        "df",
        "du",
        "ps",
        "kill",
        "top",
    ]
)

ClaimKind = Literal["name", "sql", "command"]


@dataclass(frozen=True, slots=True)
class Claim:
    """One thing an explanation says exists."""

    kind: ClaimKind
    word: str  # the word to look up: an identifier, an SQL keyword, a command word
    shown: str  # how the answer wrote it (the statement or command line, for context)


def claims(texts: Iterable[str]) -> list[Claim]:
    """Every name, SQL keyword and command word the texts claim, first occurrence first."""
    found: dict[tuple[str, str], Claim] = {}

    def add(kind: ClaimKind, word: str, shown: str) -> None:
        found.setdefault((kind, word), Claim(kind, word, shown))

    for text in texts:
        statements = [m.group(0).strip() for m in _SQL_STATEMENT.finditer(text)]
        for statement in statements:
            for word in _UPPER_WORD.findall(statement):
                if word not in _SQL_COMMON:
                    add("sql", word, statement)
        for span in _BACKTICKED.findall(text):
            span = span.strip()
            if _SQL_STATEMENT.match(span):
                continue  # read above as a statement
            if _CODE_LIKE.fullmatch(span):
                for ident in _IDENT.findall(span):
                    if ident not in COMMON and not ident.isdigit() and len(ident) >= 3:
                        add("name", ident, span)
                continue
            command = _COMMAND.match(span)
            if command and (command.group(2) or _FLAG.search(span)):
                program = command.group(1)
                if program in TOOLS:
                    continue
                add("command", program, span)
                for word in command.group(2).split():
                    add("command", word, span)
                for flag in _FLAG.findall(span):
                    add("command", flag.replace("-", "_"), span)
    return list(found.values())


def invented(
    found: Iterable[Claim],
    known: frozenset[str],
    name_exists: Callable[[str], bool] | None,
    keyword_exists: Callable[[str], bool] | None = None,
) -> list[Claim]:
    """The claims found neither near the site (`known`) nor in the repository.

    With no repository check at hand, only what is near the site counts as found.
    """
    keyword_exists = keyword_exists or name_exists
    missing = []
    for claim in found:
        word = claim.word
        if claim.kind == "sql":
            ok = word in known or (keyword_exists is not None and keyword_exists(word))
        elif claim.kind == "command":
            variants = claim_variants(word)
            ok = bool(variants & known) or (
                name_exists is not None and any(name_exists(v) for v in variants)
            )
        else:
            ok = word in known or (name_exists is not None and name_exists(word))
        if not ok:
            missing.append(claim)
    return missing


def describe(missing: Iterable[Claim]) -> str:
    """The invented claims as one sentence per kind, for a re-ask."""
    by_kind: dict[ClaimKind, list[str]] = {}
    for claim in missing:
        shown = f"`{claim.word}`" if claim.kind != "sql" else f"{claim.word} (in `{claim.shown}`)"
        if claim.kind == "command":
            shown = f"`{claim.word}` (in `{claim.shown}`)"
        by_kind.setdefault(claim.kind, []).append(shown)
    words = {
        "name": "These names occur nowhere in the repository",
        "sql": "These SQL keywords are not in the repository's code (its parser has no such"
        " statement)",
        "command": "These command words occur nowhere in the repository",
    }
    return " ".join(f"{words[k]}: {', '.join(v[:15])}." for k, v in by_kind.items())


def claim_variants(word: str) -> set[str]:
    """The spellings a word may have in the source: as written, snake case, Camel case."""
    return {word, word.replace("-", "_"), _camel(word)}


def _camel(word: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_]", word))
