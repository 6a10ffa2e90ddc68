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


def split_outside_brackets(text: str, char: str) -> list[str]:
    """`text` cut at each `char` outside brackets, each part stripped (an empty one kept: a
    trailing `,` leaves one): a tuple's elements (`,`), an or-pattern's alternatives (`|`)."""
    parts = []
    while (at := first_outside_brackets(text, char)) >= 0:
        parts.append(text[:at])
        text = text[at + 1 :]
    parts.append(text)
    return [p.strip() for p in parts]
