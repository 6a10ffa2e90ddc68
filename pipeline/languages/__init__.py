"""Stage 2, languages: the front ends the scan stage calls, registered in one table.

Adding a language is a new package beside `rust/` with an object implementing
`base.Language`, and one entry in `LANGUAGES`; no other stage changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.languages.base import Language, ModuleNames
from pipeline.languages.rust import RUST

LANGUAGES: tuple[Language, ...] = (RUST,)

# The extractor version of a run: what the manifest records and the scan cache is keyed by.
EXTRACTOR_VERSION = "+".join(language.extractor_version for language in LANGUAGES)

# The index version of a run: what the index cache is keyed by.
INDEX_VERSION = "+".join(language.index_version for language in LANGUAGES)
# Bumped with what `macro_definitions` reads of a file: it keys the per-blob macro cache.
MACROS_VERSION = "+".join(language.macros_version for language in LANGUAGES)

SUFFIXES: tuple[str, ...] = tuple(s for language in LANGUAGES for s in language.suffixes)


MANIFEST_NAMES: tuple[str, ...] = tuple(
    n for language in LANGUAGES for n in language.manifest_names
)


class RepositoryModules:
    """What every language's manifests say the files of one commit are called."""

    def __init__(self, by_language: Mapping[str, ModuleNames] | None = None) -> None:
        self._by_language = dict(by_language or {})

    def module_path(self, path: str) -> str | None:
        """`grep_index::index` for ripgrep's `crates/index/src/index.rs`; None when unknown."""
        names = self._names(path)
        return names.module_path(path) if names is not None else None

    def binary_of(self, path: str) -> str | None:
        """The program a `fn main` in `path` runs as (`rg`); None when unknown."""
        names = self._names(path)
        return names.binary_of(path) if names is not None else None

    def build_script_of(self, path: str) -> str | None:
        """The package whose build script is rooted at `path` (`uv-python` for its
        `build.rs`); None when it is none, or unknown."""
        names = self._names(path)
        return names.build_script_of(path) if names is not None else None

    def target_kind(self, path: str) -> str | None:
        """`lib`, `bin`, `example`, `test`, `bench` or `build` for `path`; None when unknown."""
        names = self._names(path)
        return names.target_kind(path) if names is not None else None

    def target_root(self, path: str) -> str | None:
        """The root file of the one target `path` is compiled into; None when unknown."""
        names = self._names(path)
        return names.target_root(path) if names is not None else None

    def aborting_profiles(self, path: str) -> tuple[str, ...]:
        """The build profiles in which a panic in `path` aborts at once; () when none."""
        names = self._names(path)
        return names.aborting_profiles(path) if names is not None else ()

    def package_of(self, path: str) -> str | None:
        """The package `path` belongs to, as `<language>:<name>`; None when unknown."""
        names = self._names(path)
        package = names.package_of(path) if names is not None else None
        return f"{language_of(path).name}:{package}" if package is not None else None

    def feature_on(self, path: str, feature: str) -> str | None:
        """Why an unasked build has `feature` of `path`'s package on ("default", a package
        that turns it on), "" when nothing does; None when unknown."""
        names = self._names(path)
        return names.feature_on(path, feature) if names is not None else None

    def published(self, path: str) -> bool | None:
        """Whether `path`'s package is published (no `publish = false`); None when unknown."""
        names = self._names(path)
        return names.published(path) if names is not None else None

    def reachable_packages(self, package: str) -> frozenset[str]:
        """What `package_of` names, and the packages whose items its code can name."""
        language, _, name = package.partition(":")
        names = self._by_language.get(language)
        if names is None:
            return frozenset((package,))
        return frozenset(f"{language}:{p}" for p in names.reachable_packages(name))

    def dependency_tables(self) -> tuple[tuple[str, Any], ...]:
        """Every language's packages with their direct dependencies, sorted."""
        return tuple((n, m.dependency_table()) for n, m in sorted(self._by_language.items()))

    def unreached(self, files: Sequence[str]) -> dict[str, tuple[tuple[str, str], ...]]:
        """Of `files`, those no module declaration can make part of a build by their paths,
        with what may still declare them inline (`ModuleNames.unreached`), every language's."""
        out: dict[str, tuple[tuple[str, str], ...]] = {}
        for language in LANGUAGES:
            names = self._by_language.get(language.name)
            if names is not None:
                out.update(names.unreached([f for f in files if f.endswith(language.suffixes)]))
        return out

    def _names(self, path: str) -> ModuleNames | None:
        language = language_for(path)
        return self._by_language.get(language.name) if language is not None else None


def repository_modules(manifests: Mapping[str, bytes], files: Sequence[str]) -> RepositoryModules:
    """Each language's module names from its manifests (path -> bytes) and its files."""
    return RepositoryModules(
        {
            language.name: language.module_names(
                {
                    p: b
                    for p, b in manifests.items()
                    if p.rsplit("/", 1)[-1] in language.manifest_names
                },
                [f for f in files if f.endswith(language.suffixes)],
            )
            for language in LANGUAGES
        }
    )


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
    "MACROS_VERSION",
    "MANIFEST_NAMES",
    "SUFFIXES",
    "Language",
    "RepositoryModules",
    "language_for",
    "language_of",
    "repository_modules",
]
