"""The failure class the repository's own code gives an error, by the name of the code it
answers it with (`Reach.code`: `StatusCode::InvalidArguments`, `Code::IndexNotFound`,
`StatusCode::NOT_FOUND`, `Status::not_found(..)`). Pure.

A message's words pick a class before the index runs (greptimedb's "Invalid source and
target region" read "Parse error", reading 230, which its `status_code` answers with
`StatusCode::InvalidArguments`); the code that answers the variant says what its authors
meant it to be. Only names that say one class are read:
`Internal`, `Unexpected`, `Unknown`, `INTERNAL_SERVER_ERROR`, `Unavailable` say where the
fault lies at most, not what failed, and leave the class as the words chose it. A class the
code's name allows (`compatible`) is kept: a 400 `BAD_REQUEST` for "table `t` not found"
stays "Not found"."""

from __future__ import annotations

import re
from typing import NamedTuple

_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


class CodeClass(NamedTuple):
    slug: str  # the class the code's name says
    compatible: frozenset[str]  # classes the name allows, kept when the words chose one


_CALLER = frozenset(
    ("invalid-argument", "parse-error", "out-of-range", "type-mismatch", "schema-mismatch",
     "configuration-error", "not-found", "already-exists", "unsupported-operation",
     "not-implemented", "invalid-state-transition", "permission-denied", "unauthenticated",
     "resource-exhausted", "version-incompatibility", "concurrency-conflict")
)  # fmt: skip
# an argument refused: for being malformed, out of range, of the wrong type or shape, or
# naming an item that is not there or is taken, a path or an address that does not work
# ("index not found, name: {name}" answered `StatusCode::InvalidArguments` stays "Not found";
# greptimedb's "Failed to connect to Etcd at {etcd_addr}", "Connection failure")
_ARGUMENT = frozenset(
    ("invalid-argument", "parse-error", "out-of-range", "type-mismatch", "schema-mismatch",
     "configuration-error", "unsupported-operation", "not-implemented", "not-found",
     "already-exists", "io-error", "connection-failure", "version-incompatibility")
)  # fmt: skip
_AUTH = frozenset(("unauthenticated", "permission-denied"))


def _says(*slugs: str) -> frozenset[str]:
    return frozenset(slugs)


# (words the name holds in this order, the class): first match wins, so the more specific
# first (`AuthHeaderNotFound` is a missing credential, not a missing item)
_RULES: tuple[tuple[tuple[str, ...], CodeClass], ...] = (
    (("unauthenticated",), CodeClass("unauthenticated", _AUTH)),
    (("unauthorized",), CodeClass("unauthenticated", _AUTH)),
    (("password", "mismatch"), CodeClass("unauthenticated", _AUTH)),
    (("auth", "header"), CodeClass("unauthenticated", _AUTH)),
    (("permission", "denied"), CodeClass("permission-denied", _AUTH)),
    (("access", "denied"), CodeClass("permission-denied", _AUTH)),
    # HTTP's 403 answers more than a missing permission (neon's "refused to exclude timeline
    # with {}, node {} is member of it"): any class of the caller's doing is kept
    (("forbidden",), CodeClass("permission-denied", _CALLER)),
    (("not", "found"), CodeClass("not-found", _says("not-found"))),
    (("already", "exists"), CodeClass("already-exists", _says("already-exists"))),
    (("deadline", "exceeded"), CodeClass("timeout", _says("timeout", "cancelled"))),
    (("timeout",), CodeClass("timeout", _says("timeout", "cancelled"))),
    (("cancelled",), CodeClass("cancelled", _says("cancelled", "timeout"))),
    (("resource", "exhausted"), CodeClass("resource-exhausted", _says("resource-exhausted"))),
    (("resources", "exhausted"), CodeClass("resource-exhausted", _says("resource-exhausted"))),
    (("rate", "limited"), CodeClass("resource-exhausted", _says("resource-exhausted"))),
    # HTTP's 429 says "later" as often as "too much" (neon's "creation of timeline with the
    # given ID is in progress")
    (("too", "many", "requests"), CodeClass("resource-exhausted", _says("resource-exhausted", "concurrency-conflict", "invalid-state-transition", "timeout"))),
    (("unsupported",), CodeClass("unsupported-operation", _says("unsupported-operation", "not-implemented"))),
    (("unimplemented",), CodeClass("unsupported-operation", _says("unsupported-operation", "not-implemented"))),
    (("not", "implemented"), CodeClass("not-implemented", _says("unsupported-operation", "not-implemented"))),
    # "SQL data type not supported yet: {:?}" answered `StatusCode::InvalidSyntax`
    (("invalid", "syntax"), CodeClass("parse-error", _says("parse-error", "not-implemented", "unsupported-operation"))),
    (("invalid", "argument"), CodeClass("invalid-argument", _ARGUMENT)),
    (("invalid", "arguments"), CodeClass("invalid-argument", _ARGUMENT)),
    (("bad", "request"), CodeClass("invalid-argument", _CALLER)),
)  # fmt: skip


def code_name(code: str) -> str:
    """The name of a code as `Reach.code` writes it: `StatusCode::NOT_FOUND` -> `NOT_FOUND`,
    `Status::not_found(..)` -> `not_found`."""
    return code.removesuffix("(..)").rpartition("::")[2]


def words_of(name: str) -> list[str]:
    """`AuthHeaderNotFound` -> auth, header, not, found; `NOT_FOUND` and `not_found` alike."""
    return [w.lower() for part in name.split("_") for w in _WORDS.findall(part)]


def code_class(code: str) -> CodeClass | None:
    """The class the code's name says (`code_name`), None for a name that says none."""
    words = words_of(code_name(code))
    for wanted, found in _RULES:
        if _holds(words, wanted):
            return found
    if words[-1:] == ["exists"]:  # greptimedb's `StatusCode::TableColumnExists`
        return CodeClass("already-exists", _says("already-exists", "concurrency-conflict"))
    if words[:1] == ["invalid"]:  # meilisearch's `Code::InvalidIndexUid`: an input refused
        return CodeClass("invalid-argument", _ARGUMENT)
    return None


def _holds(words: list[str], wanted: tuple[str, ...]) -> bool:
    """Whether `wanted` is a run of `words`."""
    n = len(wanted)
    return any(tuple(words[i : i + n]) == wanted for i in range(len(words) - n + 1))


def reclass_to(code: str | None, current: str) -> str | None:
    """The class an explanation of class `current` takes from its code, None to keep it.

    HTTP's few codes (`StatusCode::UNAUTHORIZED`) stand for many failures: one of them
    keeps any class of the caller's doing the words chose (vector's firehose source answers
    "Could not parse incoming request {}: {}", a JSON body's parse, with 401) and moves only
    a class that says the fault is not the caller's (neon's "id mismatch: url={id:?}, ..",
    "Operation failed", answered 400)."""
    found = code_class(code) if code else None
    if found is None or current in found.compatible or found.slug == current:
        return None
    if code_name(code or "").isupper() and current in _CALLER:
        return None
    return found.slug
