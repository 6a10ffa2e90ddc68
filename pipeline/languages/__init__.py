"""Stage 2, languages: the front ends the scan stage calls, registered in one table.

Adding a language is a new package beside `rust/` with an object implementing
`base.Language`, and one entry in `LANGUAGES`; no other stage changes.
"""

from __future__ import annotations

from pipeline.languages.base import Language
from pipeline.languages.rust import RUST

LANGUAGES: tuple[Language, ...] = (RUST,)

# The extractor version of a run: what the manifest records and the scan cache is keyed by.
EXTRACTOR_VERSION = "+".join(language.extractor_version for language in LANGUAGES)

# The index version of a run: what the index cache is keyed by.
INDEX_VERSION = "+".join(language.index_version for language in LANGUAGES)

SUFFIXES: tuple[str, ...] = tuple(s for language in LANGUAGES for s in language.suffixes)


def language_for(path: str) -> Language | None:
    """The language whose files end like `path`, or None."""
    for language in LANGUAGES:
        if path.endswith(language.suffixes):
            return language
    return None


def language_of(path: str) -> Language:
    """The language of a path that the scan stage selected (the first language otherwise)."""
    return language_for(path) or LANGUAGES[0]


__all__ = [
    "EXTRACTOR_VERSION",
    "INDEX_VERSION",
    "LANGUAGES",
    "SUFFIXES",
    "Language",
    "language_for",
    "language_of",
]
