"""A bound on how deeply a Rust file nests, checked before it is parsed for sites.

tree-sitter (0.22 and later) keeps no parent pointers: `Node.parent` walks down from the
root, so every upward walk (condition chains, test-code checks, enclosing items) costs
the square of the depth, per site. A hostile file of 2,000 nested `if` with 300 `bail!`
did not finish in 600 s. Real code nests a few dozen levels; a file nested deeper than
`MAX_NESTING` brackets is skipped with a reason instead (issue 16).
"""

from __future__ import annotations

from itertools import accumulate

from pipeline.languages.base import FileRefused

MAX_NESTING = 256  # rustc's own default recursion limit is 128 macro levels; code stays far below
_STEP = {ord("{"): 1, ord("("): 1, ord("["): 1, ord("}"): -1, ord(")"): -1, ord("]"): -1}
_OTHERS = bytes(b for b in range(256) if b not in _STEP)


def nesting_depth(source: bytes) -> int:
    """The deepest bracket nesting of `source` (`{`, `(`, `[`), counted in C-speed passes."""
    brackets = source.translate(None, _OTHERS)
    if len(brackets) < 2 * MAX_NESTING:  # cannot be deep: skip the count
        return len(brackets) // 2
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def check_nesting(path: str, source: bytes) -> None:
    """Raise `FileRefused` for a file nested deeper than `MAX_NESTING`."""
    depth = nesting_depth(source)
    if depth > MAX_NESTING:
        raise FileRefused(f"{path}: nested {depth} brackets deep (more than {MAX_NESTING})")
