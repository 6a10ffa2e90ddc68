"""What a reader is told of a check that reads private fields: only code in the module that
declares them can write it. Pure.

A condition on `self.engine` becomes the check `let ok = !matches!(hi_args.engine, ..);`,
which code outside that module cannot compile when `engine` has no `pub` (tikv's
`peer_fsm_delegate.fsm.peer.is_initialized()`, reading 181). The index tells the field's
declaration (`Reach.dependencies`); the check stays, said for whom it is. A field whose type
has a `pub fn` of its name that gives it (`Dependency.accessor`) is read through that call,
which anyone can write (pingora's `response_header()`, reading 307)."""

from __future__ import annotations

import re

from pipeline.core.reach import Reach, visibility_scope

# who may read a field, narrowest first (`Reach.internal`'s names, `visibility_scope`)
_NARROW = {"module": 0, "parent module": 1, "crate": 3}  # `module `a::b``: 2


def private_fields(reach: Reach | None) -> list[str]:
    """The fields the conditions read (`self.a.b` -> `b`) that code outside their crate
    cannot read: no `pub`, or a `pub(crate)`, `pub(super)`, `pub(in ..)`."""
    return list(_restricted_fields(reach))


def _restricted_fields(reach: Reach | None) -> dict[str, str]:
    """Each field the conditions read that not every crate may read, and who may, as
    `visibility_scope` says: "module", "parent module", "module `a::b`" or "crate"."""
    if reach is None:
        return {}
    found: dict[str, str] = {}
    for d in reach.dependencies:
        written = d.text.lstrip()
        if d.kind != "field" or (written.startswith("pub") and written[3:].lstrip()[:1] != "("):
            continue  # a plain `pub` field: anyone's
        found.setdefault(d.name.rsplit(".", 1)[-1], visibility_scope(written))
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
    for name, getter in _accessors(reach).items():  # a `pub fn` of its name: anyone's read
        field = rf"\.{re.escape(name)}\b(?!\s*\()"
        if name not in read or (
            getter.startswith("&")
            and re.search(rf"{field}\s*{_COMPARED}|{_COMPARED}\s*[\w.]*{field}", code)
        ):
            continue  # `cache.phase() != Phase::Hit` compares a `&Phase` with a `Phase`
        code = re.sub(field, f".{getter.lstrip('&')}()", code)
        del read[name]
    if not read:
        return code
    names = list(read)
    one = len(names) == 1
    them = "it" if one else "them"
    more = ", .." if len(names) > 2 else ""
    if len(set(read.values())) == 1:  # `a` and `b` are private fields
        scope = next(iter(read.values()))
        kind = "a private field" if one else "private fields"
        visible = kind if scope == "module" else f"`{_modifier(scope)}`"
        named = " and ".join(f"`{name}`" for name in names[:2]) + more
        named += f" {'is' if one else 'are'} {visible}"
    else:
        named = " and ".join(f"`{n}` {_visibility(read[n])}" for n in names[:2]) + more
    narrowest = min(read.values(), key=lambda scope: _NARROW.get(scope, 2))
    return (
        f"// {named}: only code in {_who(narrowest, them)} can read {them}, and check so.\n{code}"
    )


# a comparison: a lent value (`&Phase`) does not compare with an owned one
_COMPARED = r"(?:[=!<>]=|[<>](?![<>]))"


def _accessors(reach: Reach | None) -> dict[str, str]:
    """Each restricted field the conditions read whose type has a `pub fn` of its name that
    returns it (`Dependency.accessor`): pingora's `http2_session.response_header.is_none()`
    reads as `http2_session.response_header().is_none()`, which any caller can write
    (reading 307: "a pub accessor exists")."""
    if reach is None:
        return {}
    return {
        d.name.rsplit(".", 1)[-1]: d.accessor
        for d in reach.dependencies
        if d.kind == "field" and d.accessor
    }


def _visibility(scope: str) -> str:
    return "is a private field" if scope == "module" else f"is `{_modifier(scope)}`"


def _modifier(scope: str) -> str:
    """How a field of a restricted `scope` is declared: `pub(crate)`, `pub(super)`,
    `pub(in a::b)` (the inverse of `visibility_scope`)."""
    if scope == "crate":
        return "pub(crate)"
    if scope == "parent module":
        return "pub(super)"
    return f"pub(in {scope.removeprefix('module ').strip('`')})"


def _who(scope: str, them: str) -> str:
    if scope == "module":
        return f"the module that declares {them}"
    if scope == "parent module":
        return f"the parent of the module that declares {them}"
    if scope == "crate":
        return f"the crate that declares {them}"
    return scope.removeprefix("module ")  # `a::b`
