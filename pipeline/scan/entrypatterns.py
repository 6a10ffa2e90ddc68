"""A repository's own entry points (issue 10): `entries` of its `[[repo]]` table in repos.toml.

The built-in shapes (`fn main`, clap, tonic, routes, statement dispatch, a library's `pub`
API) do not know a repository's registries: nushell's commands are `impl Command for X
{ fn run(..) }` found by name at run time, a plugin host calls `Plugin::start`. A pattern
names such fns by what the index knows of them, every given key must match:

```toml
[[repo]]
name = "nushell/nushell"
entries = [
  { trait = "Command", fn = "run", label = "nu command `{owner}`" },
  { fn = "handle_*", path = "src/handlers/**", label = "handler `{fn}`" },
  { attr = "function(*", label = "SQL function `{arg}`" },
]
```

`fn`, `owner` (the impl's type) and `trait` (the impl's trait) are globs (`*`, `?`,
`[..]`); `path` is a glob over repository paths as `--include` reads it; `attr` a glob over
each of the fn's attributes as written inside `#[..]` (risingwave registers its SQL functions
with `#[function("sqrt(float8) -> float8")]`: users reach them from a query, nothing in the
repository calls them by name); `label` is what a reader sees, with `{fn}`, `{owner}`,
`{trait}`, `{path}`, `{attr}` (the attribute that matched) and `{arg}` (its first string,
else the attribute) filled in. A pattern's fn is an entry point of kind `custom`, ranked
with `main` and CLI commands. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from fnmatch import translate
from functools import cached_property
from typing import Any

from pipeline.source.globs import glob_to_regex

KEYS = ("fn", "owner", "trait", "path", "attr", "label")
_NAMING = ("fn", "owner", "trait", "path", "attr")  # keys that choose fns
_FILLED = (*_NAMING, "arg")  # what a label may say
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')  # a string literal, escapes kept
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class PatternError(ValueError):
    """An `entries` value that is not a list of valid patterns; the message names it."""


@dataclass(frozen=True)
class EntryPattern:
    """Fns of a repository that users reach directly (every key given must match)."""

    label: str
    fn: str | None = None
    owner: str | None = None
    trait: str | None = None
    path: str | None = None
    attr: str | None = None

    @cached_property
    def _compiled(self) -> dict[str, re.Pattern[str]]:
        return {
            key: re.compile(glob_to_regex(value) if key == "path" else translate(value), re.S)
            for key, value in (
                ("fn", self.fn),
                ("owner", self.owner),
                ("trait", self.trait),
                ("path", self.path),
                ("attr", self.attr),
            )
            if value is not None
        }

    def matches(
        self, fn: str, owner: str | None, trait: str | None, path: str, attrs: Sequence[str] = ()
    ) -> bool:
        """Whether a fn `fn` (of `impl [trait for] owner`, in file `path`, with attributes
        `attrs`) is one of these."""
        given = {"fn": fn, "owner": owner, "trait": trait, "path": path}
        for key, compiled in self._compiled.items():
            if key == "attr":
                if self._attribute(attrs) is None:
                    return False
            elif given[key] is None or compiled.fullmatch(str(given[key])) is None:
                return False
        return True

    def label_of(
        self, fn: str, owner: str | None, trait: str | None, path: str, attrs: Sequence[str] = ()
    ) -> str:
        """The label with its placeholders filled in (an absent value as empty)."""
        attribute = self._attribute(attrs) or ""
        string = _STRING.search(attribute)
        values = {"fn": fn, "owner": owner or "", "trait": trait or "", "path": path,
                  "attr": attribute, "arg": string[1] if string else attribute}  # fmt: skip
        return _PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), self.label)

    def _attribute(self, attrs: Sequence[str]) -> str | None:
        """The first of `attrs` the `attr` glob matches (None: none, or no `attr` given)."""
        compiled = self._compiled.get("attr")
        if compiled is None:
            return None
        return next((a for a in attrs if compiled.fullmatch(" ".join(a.split()))), None)

    def as_json(self) -> dict[str, str]:
        """The pattern as the manifest records it (given keys only)."""
        return {key: value for key, value in asdict(self).items() if value is not None}


def parse_patterns(value: Any, where: str) -> tuple[EntryPattern, ...]:
    """`entries` of a `[[repo]]` table: a list of inline tables, each with a `label` and at
    least one of `fn`, `owner`, `trait`, `path`, `attr` (a pattern that names every fn is
    refused)."""
    if not isinstance(value, list):
        raise PatternError(f"{where}: key 'entries' must be a list of tables like "
                           '{ trait = "Command", fn = "run", label = "command `{owner}`" }')  # fmt: skip
    return tuple(_pattern(item, f"{where}: entries[{n}]") for n, item in enumerate(value))


def _pattern(item: Any, where: str) -> EntryPattern:
    if not isinstance(item, Mapping):
        raise PatternError(f'{where}: not a table; write {{ fn = "run", label = ".." }}')
    for key in item:
        if key not in KEYS:
            raise PatternError(f"{where}: unknown key {key!r}; expected one of {', '.join(KEYS)}")
    for key, text in item.items():
        if not isinstance(text, str) or not text.strip():
            raise PatternError(f"{where}: key {key!r} must be a non-empty string")
    if "label" not in item:
        raise PatternError(f"{where}: key 'label' is required (what a reader sees)")
    if not any(key in item for key in _NAMING):
        raise PatternError(f"{where}: give at least one of {', '.join(_NAMING)}")
    unknown = [m for m in _PLACEHOLDER.findall(item["label"]) if m not in _FILLED]
    if unknown:
        raise PatternError(f"{where}: label placeholder {{{unknown[0]}}} is none of "
                           + ", ".join(f"{{{k}}}" for k in _FILLED))  # fmt: skip
    return EntryPattern(**{key: str(text).strip() for key, text in item.items()})


def patterns_json(patterns: Sequence[EntryPattern]) -> list[dict[str, str]] | None:
    """What the manifest's settings hold of the patterns (None: there are none)."""
    return [p.as_json() for p in patterns] or None
