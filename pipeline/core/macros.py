"""A repository's own error macros (found by a language front end: `rust.errormacros`), as
the scan reads them: which names, what an invocation does, where its message is."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from pipeline.core.sitetypes import SiteKind

# The macros one file defines, as a front end reads them: plain data (marshal's types),
# cached by blob (`Language.macro_definitions`).
Definitions = dict[str, tuple[tuple[Any, ...], ...]]


class MacroSpec(NamedTuple):
    """How an invocation of a repository's error macro reads as a site."""

    kind: SiteKind  # `bail`, `ensure`, `constructor` or `panic`
    message_argument: int  # which comma-separated argument holds the message


@dataclass(frozen=True)
class ErrorMacros:
    """A repository's error macros by name (no built-in name among them)."""

    by_name: Mapping[str, MacroSpec] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.by_name)

    def get(self, name: str) -> MacroSpec | None:
        return self.by_name.get(name)

    @cached_property
    def names(self) -> frozenset[str]:
        return frozenset(self.by_name)

    def table(self) -> dict[str, str] | None:
        """Each macro's reading as plain data, `{name: "kind/argument"}`, as the manifest
        keeps it (None: no macro): the next run compares it name by name (`changed_macros`)."""
        if not self.by_name:
            return None
        return {n: f"{s.kind}/{s.message_argument}" for n, s in sorted(self.by_name.items())}

    def digest(self) -> str | None:
        """What keys scans made with this table (None: no macro, the plain scans)."""
        table = self.table()
        if table is None:
            return None
        text = ";".join(f"{n}={spec}" for n, spec in table.items())
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def changed_macros(
    before: Mapping[str, Any] | None, digest_before: str | None, now: ErrorMacros
) -> frozenset[str] | None:
    """The names whose reading differs between a previous table (`ErrorMacros.table`, with
    its digest) and `now`: added, gone or read otherwise. None when the previous table is
    not known (a manifest from before it was kept, with macros)."""
    if before is None and digest_before is not None:
        return None
    old, new = dict(before or {}), now.table() or {}
    return frozenset(n for n in old.keys() | new.keys() if old.get(n) != new.get(n))


NO_MACROS = ErrorMacros()
# The table the scan of this process reads (`in_force`): a scan is a pure function of a
# file's bytes and of its repository's table, which is set once per scan (`using`), in
# each pool worker for its life, rather than handed through every function of the scan.
_IN_FORCE: ContextVar[ErrorMacros] = ContextVar("error_macros", default=NO_MACROS)


def in_force() -> ErrorMacros:
    """The error macros the scan in progress reads (none outside `using`)."""
    return _IN_FORCE.get()


@contextmanager
def using(macros: ErrorMacros) -> Iterator[None]:
    """Scan with `macros` as the repository's error macros, within the block."""
    token = _IN_FORCE.set(macros)
    try:
        yield
    finally:
        _IN_FORCE.reset(token)


def set_for_process(macros: ErrorMacros) -> None:
    """`using` for the rest of a pool worker's life."""
    _IN_FORCE.set(macros)
