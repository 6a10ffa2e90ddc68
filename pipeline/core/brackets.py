"""Where a text's brackets leave a character at the top level: the `,` that ends a macro's
first operand, the `|` between the alternatives of a pattern. Pure."""

from __future__ import annotations


def first_outside_brackets(text: str, char: str) -> int:
    """Where `char` (a character, or a token of more: `&&`) first stands in `text` outside
    `()`, `[]` and `{}`; -1 when it does not (the `,` that ends a macro's first operand, the
    `|` of an or-pattern, the `&&` of a condition)."""
    depth, first = 0, char[0]
    for at, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == first and depth == 0 and text.startswith(char, at):
            return at
    return -1


def split_outside_brackets(text: str, char: str) -> list[str]:
    """`text` cut at each `char` (a character or a token) outside brackets, each part
    stripped (an empty one kept: a trailing `,` leaves one): a tuple's elements (`,`), an
    or-pattern's alternatives (`|`), a condition's parts (`&&`)."""
    parts = []
    while (at := first_outside_brackets(text, char)) >= 0:
        parts.append(text[:at])
        text = text[at + len(char) :]
    parts.append(text)
    return [p.strip() for p in parts]
