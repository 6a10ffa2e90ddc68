"""Where a text's brackets leave a character at the top level: the `,` that ends a macro's
first operand, the `|` between the alternatives of a pattern. Pure."""

from __future__ import annotations


def first_outside_brackets(text: str, char: str) -> int:
    """Where `char` first stands in `text` outside `()`, `[]` and `{}`; -1 when it does not
    (the `,` that ends a macro's first operand, the `|` of an or-pattern)."""
    depth = 0
    for at, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == char and depth == 0:
            return at
    return -1
