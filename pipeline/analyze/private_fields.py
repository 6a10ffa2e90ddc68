"""What a reader is told of a check that reads private fields: only code in the module that
declares them can write it. Pure.

A condition on `self.engine` becomes the check `let ok = !matches!(hi_args.engine, ..);`,
which code outside that module cannot compile when `engine` has no `pub` (tikv's
`peer_fsm_delegate.fsm.peer.is_initialized()`, reading 181). The index tells the field's
declaration (`Reach.dependencies`); the check stays, said for whom it is."""

from __future__ import annotations

import re

from pipeline.core.reach import Reach

# `pub(crate)`, `pub(super)`, `pub(self)`, `pub(in crate::a)`: visible to part of the code
_RESTRICTED = re.compile(r"pub\s*\(\s*(crate|super|self|in\s+[^)]*?)\s*\)")
# who may read a field, narrowest first
_NARROW = ("module", "super", "in", "crate")


def private_fields(reach: Reach | None) -> list[str]:
    """The fields the conditions read (`self.a.b` -> `b`) that code outside their crate
    cannot read: no `pub`, or a `pub(crate)`, `pub(super)`, `pub(in ..)`."""
    return list(_restricted_fields(reach))


def _restricted_fields(reach: Reach | None) -> dict[str, str]:
    """Each field the conditions read that not every crate may read, and who may: `module`,
    `super`, `in <path>` or `crate`."""
    if reach is None:
        return {}
    found: dict[str, str] = {}
    for d in reach.dependencies:
        if d.kind != "field":
            continue
        text = d.text.lstrip()
        if not text.startswith("pub"):
            scope = "module"
        elif (restricted := _RESTRICTED.match(text)) is not None:
            written = " ".join(restricted[1].split())
            scope = "module" if written == "self" else written
        else:
            continue
        found.setdefault(d.name.rsplit(".", 1)[-1], scope)
    return found


def check_for_the_module(code: str | None, reach: Reach | None) -> str | None:
    """A `validationCode` or `typeGuard` headed by who can write it, when it reads a field
    that not every crate may read (`private_fields`); any other code as it is."""
    if code is None:
        return None
    scopes = _restricted_fields(reach)
    read = {
        name: scope
        for name, scope in scopes.items()
        if re.search(rf"\.{re.escape(name)}\b(?!\s*\()", code)  # not a getter's call
    }
    if not read:
        return code
    names = list(read)
    one = len(names) == 1
    them = "it" if one else "them"
    more = ", .." if len(names) > 2 else ""
    if len(set(read.values())) == 1:  # `a` and `b` are private fields
        scope = next(iter(read.values()))
        kind = "a private field" if one else "private fields"
        visible = kind if scope == "module" else f"`pub({scope})`"
        named = " and ".join(f"`{name}`" for name in names[:2]) + more
        named += f" {'is' if one else 'are'} {visible}"
    else:
        named = " and ".join(f"`{n}` {_visibility(read[n])}" for n in names[:2]) + more
    narrowest = min(read.values(), key=lambda scope: _NARROW.index(scope.split()[0]))
    return (
        f"// {named}: only code in {_who(narrowest, them)} can read {them}, and check so.\n{code}"
    )


def _visibility(scope: str) -> str:
    return "is a private field" if scope == "module" else f"is `pub({scope})`"


def _who(scope: str, them: str) -> str:
    if scope == "module":
        return f"the module that declares {them}"
    if scope == "super":
        return f"the parent of the module that declares {them}"
    if scope == "crate":
        return f"the crate that declares {them}"
    return f"`{scope.removeprefix('in ').strip()}`"
