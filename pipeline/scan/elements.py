"""What a `for` loop's name holds: an element of the value iterated, read off the type the
code writes for that value (`Vec<Segment>`, `&[T]`, `HashMap<K, V>`, `impl Iterator<Item =
&T>`). Pure: the link (`callgraph`) types the value iterated and asks here for its element.
"""

from __future__ import annotations

import re

from pipeline.scan.names import generic_parts

# Adapters whose items are the value's own elements: `for s in segments.iter().rev()`.
_SAME_ITEMS = frozenset(
    ("iter", "iter_mut", "into_iter", "drain", "rev", "copied", "cloned", "skip", "take",
     "filter", "skip_while", "take_while", "peekable", "step_by")
)  # fmt: skip
_VALUES = frozenset(("values", "values_mut", "into_values"))
_KEYS = frozenset(("keys", "into_keys"))
# Collections of one element type (its first argument) and of pairs (a key, a value).
_SEQUENCES = frozenset(
    ("Vec", "VecDeque", "HashSet", "BTreeSet", "IndexSet", "LinkedList", "BinaryHeap",
     "SmallVec", "ArrayVec", "Option", "FxHashSet", "AHashSet")
)  # fmt: skip
_MAPS = frozenset(("HashMap", "BTreeMap", "IndexMap", "DashMap", "FxHashMap", "AHashMap"))
# What holds the value iterated without changing its elements; a `Result` is taken as `?`ed.
_HOLDERS = re.compile(r"Arc|Box|Rc|Cow|\w*Result")
# `impl Iterator<Item = T>`; a `Stream`'s too (`#[for_await] for row in stream`)
_ITEM = re.compile(r"(?:impl|dyn)\s+(?:\w+::)*\w*(?:Iterator|Stream)\s*<\s*Item\s*=\s*(.+)>", re.S)
_LIFETIME = re.compile(r"^'\w+\s+")
_BOUNDS_AFTER = re.compile(r">\s*(?:\+\s*(?:'\w+|[\w:]+)\s*)+$")  # `impl Iterator<..> + '_`


def iterated(segments: tuple[str, ...], part: str) -> tuple[tuple[str, ...], str, str] | None:
    """The value a loop iterates (its receiver `segments`, `_segments`' split) without the
    adapters that keep its elements, which of an element the name is (`part`: "" all of it,
    "0"/"1" one of a pair) and which of a map's pair the adapters take (`want`, "" for
    both); None for an `.enumerate()` whose index is the name. Another method (`.map(..)`,
    `self.members()`) is the value's: the link types it by what it returns."""
    rest, want = list(segments), ""
    if rest and rest[-1] == "enumerate()":
        if part != "1":  # the index, or the (index, element) pair
            return None
        rest.pop()
        part = ""
    while len(rest) > 1 and rest[-1].endswith(")"):
        name = rest[-1].partition("(")[0]
        if name in _SAME_ITEMS:
            rest.pop()
            continue
        if name in _VALUES or name in _KEYS:
            rest.pop()
            want = "1" if name in _VALUES else "0"
            break
        break  # a method whose value is iterated (`self.members()`): the link reads its return
    return tuple(rest), part, want


def element_of(written: str, part: str = "", want: str = "") -> str | None:
    """The type of a loop's name over a value of type `written`: an element (`part` "") or
    one of an element's pair ("0", "1"); `want`: the value iterated is a map's keys ("0")
    or values ("1"). None when the type says no such thing."""
    text = _BOUNDS_AFTER.sub(">", _bare(written))
    pair: tuple[str, ...] = ()
    item = _ITEM.fullmatch(text)
    if item is not None:
        element = item[1]
    elif text.startswith("[") and text.endswith("]"):  # `[T]`, `[T; N]`
        element = text[1:-1].rsplit(";", 1)[0] if ";" in text else text[1:-1]
    else:
        name, arguments = generic_parts(text)
        last = name.rsplit("::", 1)[-1]
        if last in _MAPS and len(arguments) >= 2:
            element, pair = "", arguments[:2]
        elif last in _SEQUENCES and arguments:
            element = arguments[0]
            if element.startswith("[") and last in ("SmallVec", "ArrayVec"):  # `[T; 4]`
                element = element[1:-1].rsplit(";", 1)[0]
        else:
            return None
    if want:
        if not pair:
            return None
        element, pair = pair[int(want)], ()
    if not part:  # `Vec<_>`: a type the code leaves to the compiler, none the link can take
        return _bare(element) if element and _bare(element) != "_" else None
    if not pair:
        pair = _tuple(_bare(element))
    one = _bare(pair[int(part)]) if len(pair) == 2 else "_"
    return one if one != "_" else None


def _bare(text: str) -> str:
    """A type without its references and holders: `&'a Arc<Segment>` -> `Segment`,
    `Result<Vec<T>>` -> `Vec<T>`."""
    text = " ".join(text.split())
    for _ in range(4):
        text = _LIFETIME.sub("", text.removeprefix("&").strip()).removeprefix("mut ").strip()
        name, arguments = generic_parts(text)
        if not arguments or not _HOLDERS.fullmatch(name.rsplit("::", 1)[-1]):
            break
        text = arguments[0]
    return text


def _tuple(text: str) -> tuple[str, ...]:
    """`(A, B<C, D>)` -> (A, B<C, D>); () for no tuple."""
    if not (text.startswith("(") and text.endswith(")")):
        return ()
    return generic_parts(f"T<{text[1:-1]}>")[1]
