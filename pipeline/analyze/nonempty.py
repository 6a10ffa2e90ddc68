"""An item taken from a collection that a check above already found holding one.

`if !to_export.is_empty() { .. to_export.iter().next().expect(..) }`, `ensure!(ks.len() == 1)`
then `ks.into_iter().next().expect(..)`: the `expect` fails only on an empty collection, and
the check on the way to it says there is an item. Written as a trigger, the two read "`!x
.is_empty()` is true; `x.iter().next()` was None", which contradict each other (reading
322: surrealdb's "values verified non-empty", risingwave's `epoch_infos.last()`).

Only the plain forms are read: the item (`first()`, `last()`, `iter().next()`,
`into_iter().next()`, `get(0)`, ..) of a collection named as the check names it, and a
check of its emptiness or length that holds at the site (an `if` taken, an `else` or early
exit of the opposite test, an `ensure!`). Nothing may change the collection between the two:
a loop the site is in ends the search, and so does a line between them that empties it, or
may (`pop`, `clear`, `drain`, `remove`, `retain`, `truncate`, `take`, an assignment,
`mem::take(&mut ..)`), or that the site's window does not show. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.core.sitetypes import Condition, Site

# The value an `expect`/`unwrap` found `None`: an item of a collection, by a call that gives
# `None` only when it is empty.
_ITEM = re.compile(
    r"(?P<of>[A-Za-z_][\w.]*?)(?:\.(?:first|last|first_mut|last_mut)\(\)|\.get\(0\)|"
    r"\.(?:iter|into_iter|iter_mut|values|keys|drain\(\.\.\))\(?\)?\.(?:next|last|next_back|"
    r"min|max)\(\))"
)
_NONE = re.compile(r"(?P<value>.+) was None \((?:expect|unwrap)\)")


@dataclass(frozen=True, slots=True)
class NonEmptyCheck:
    check: str  # the condition as written: `!to_export.is_empty()`
    collection: str  # `to_export`
    item: str  # the value the site found `None`: `to_export.iter().next()`


def nonempty_checked_above(site: Site) -> NonEmptyCheck | None:
    """The check above an `expect`/`unwrap` of a collection's item that says the collection
    holds one; None when there is none, or a loop lies between the two."""
    conditions = site.facts.conditions
    if not conditions or conditions[-1].kind != "closure":
        return None
    failed = _NONE.fullmatch(conditions[-1].text.strip())
    item = _ITEM.fullmatch(failed["value"].strip()) if failed is not None else None
    if failed is None or item is None:
        return None
    collection = item["of"]
    for condition in reversed(conditions[:-1]):
        if condition.kind in ("while", "loop"):
            return None
        if _says_nonempty(condition, collection):
            if not _unchanged_between(site, collection, condition.line):
                return None
            return NonEmptyCheck(condition.text.strip(), collection, failed["value"].strip())
    return None


def _unchanged_between(site: Site, collection: str, line: int) -> bool:
    """Whether the lines after the check's `line` and before the site's, all in the site's
    window, leave `collection` as it is."""
    first = line - site.window_start + 1  # the window's index of the line after the check
    last = site.line - site.window_start  # .. of the site's line
    lines = site.window.split("\n")
    if first < 0 or last > len(lines) or first > last:
        return False
    name = re.escape(collection)
    changes = re.compile(
        rf"(?<![\w.]){name}\s*(?:\.\s*(?:pop\w*|clear|drain\w*|remove\w*|retain\w*|truncate|"
        rf"take|split_off|dedup\w*|resize\w*)\s*\(|(?:[-+*/|&^]|<<|>>)?=(?!=))|"
        rf"mem::(?:take|swap|replace)\(\s*&mut\s+{name}\b"
    )
    return not any(changes.search(text) for text in lines[first:last])


def _says_nonempty(condition: Condition, collection: str) -> bool:
    """Whether the condition, as it holds at the site, says `collection` has an item."""
    holds = _holds(condition)
    if holds is None:
        return False
    text = " ".join(condition.text.split())
    name = re.escape(collection)
    nonempty = re.fullmatch(
        rf"!\s*{name}\.is_empty\(\)|{name}\.len\(\) (?:> 0|>= 1|!= 0|== [1-9]\d*)", text
    )
    empty = re.fullmatch(rf"{name}\.is_empty\(\)|{name}\.len\(\) (?:== 0|< 1)", text)
    return bool(nonempty) if holds else bool(empty)


def _holds(condition: Condition) -> bool | None:
    """Whether the condition's text is true (True) or false (False) where the site is: an
    `if` taken, an `else` branch or an early exit not taken, an `ensure!` that passed."""
    if condition.kind == "if" and not condition.negated:
        return True
    if condition.kind in ("else", "exit"):
        return False
    if condition.kind == "ensure":
        return not condition.negated  # `if c { bail!(..) }` above: `c` false
    return None
