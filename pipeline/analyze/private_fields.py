"""What a reader is told of a check that reads private fields: only code in the module that
declares them can write it. Pure.

A condition on `self.engine` becomes the check `let ok = !matches!(hi_args.engine, ..);`,
which code outside that module cannot compile when `engine` has no `pub` (tikv's
`peer_fsm_delegate.fsm.peer.is_initialized()`, reading 181). The index tells the field's
declaration (`Reach.dependencies`); the check stays, said for whom it is."""

from __future__ import annotations

import re

from pipeline.core.reach import Reach


def private_fields(reach: Reach | None) -> list[str]:
    """The fields the conditions read (`self.a.b` -> `b`) whose declaration has no `pub`."""
    if reach is None:
        return []
    return list(
        dict.fromkeys(
            d.name.rsplit(".", 1)[-1]
            for d in reach.dependencies
            if d.kind == "field" and not d.text.lstrip().startswith("pub")
        )
    )


def check_for_the_module(code: str | None, reach: Reach | None) -> str | None:
    """A `validationCode` or `typeGuard` headed by who can write it, when it reads a private
    field (`private_fields`); any other code as it is."""
    if code is None:
        return None
    read = [
        name
        for name in private_fields(reach)
        if re.search(rf"\.{re.escape(name)}\b(?!\s*\()", code)  # not a getter's call
    ]
    if not read:
        return code
    named = " and ".join(f"`{name}`" for name in read[:2]) + (", .." if len(read) > 2 else "")
    are = "are private fields" if len(read) > 1 else "is a private field"
    return (
        f"// {named} {are}: only code in the module that declares "
        f"{'them' if len(read) > 1 else 'it'} can read {'them' if len(read) > 1 else 'it'}"
        f", and check so.\n{code}"
    )
