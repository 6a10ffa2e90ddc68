"""The contract between the scan stage and a language front end.

The scan stage knows nothing of a grammar: it asks the registry (`pipeline.languages`)
which language a path belongs to and calls that language's `find_sites`. A front end
is a package under `pipeline/languages/` (its queries, its parsing, its format-string
rules) with one object implementing `Language`, added to the registry's table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Protocol

from pipeline.core.index import FileIndex
from pipeline.core.macros import Definitions, ErrorMacros
from pipeline.core.sitetypes import Condition, FileScan, ModuleLines


class FileRefused(Exception):
    """A file a front end will not scan (e.g. nested too deeply to walk in time); says why."""


class ModuleNames(Protocol):
    """What a language's build manifests say a file is called (`cargo_targets.CrateMap`)."""

    def module_path(self, path: str) -> str | None:
        """The module `path` is, in the language's own notation; None when no manifest says."""
        ...

    def binary_of(self, path: str) -> str | None:
        """The name a user runs the program whose entry point is in `path`, if it is a root."""
        ...

    def build_script_of(self, path: str) -> str | None:
        """The package whose build script `path` is the root of (Cargo's `build.rs`)."""
        ...

    def target_kind(self, path: str) -> str | None:
        """What `path` is compiled into: `lib`, `bin`, `example`, `test`, `bench`, `build`."""
        ...

    def target_root(self, path: str) -> str | None:
        """The root file of the one target `path` is compiled into; None when no manifest
        says which (a module several targets of one directory may hold)."""
        ...

    def package_of(self, path: str) -> str | None:
        """The package (the unit a manifest declares dependencies for) `path` belongs to."""
        ...

    def aborting_profiles(self, path: str) -> tuple[str, ...]:
        """The build profiles in which a panic in `path` aborts the process at once (no
        unwinding: no lock is left poisoned, no other thread sees it); () when none."""
        ...

    def feature_on(self, path: str, feature: str) -> str | None:
        """Why a build that asks for no feature has `feature` of `path`'s package on:
        "default", or the package of the repository that turns it on; "" when nothing does;
        None when no manifest holds `path`."""
        ...

    def published(self, path: str) -> bool | None:
        """Whether the package `path` belongs to is published for others to depend on (no
        `publish = false`); None when no manifest tells."""
        ...

    def reachable_packages(self, package: str) -> frozenset[str]:
        """`package` and the repository's packages it depends on, transitively: whose
        items its code can name."""
        ...

    def dependency_table(self) -> tuple[tuple[str, str, tuple[str, ...], bool], ...]:
        """Every package's direct dependencies among the repository's, sorted."""
        ...

    def unreached(self, files: Iterable[str]) -> Mapping[str, tuple[tuple[str, str], ...]]:
        """Of `files`, those no declaration of a module can make part of a build by their
        paths alone (a fixture directory of source files its tests read as data), each
        with the files that may still declare it in an inline module, and that module's
        name (`("src/lib.rs", "thrift")`)."""
        ...


class Language(Protocol):
    """One language front end: file selection, sites, test code and message formats."""

    name: str
    # Bumped whenever `find_sites` may answer differently for the same bytes: it keys the
    # per-blob scan cache and is recorded in the manifest.
    extractor_version: str
    suffixes: tuple[str, ...]
    # Bumped whenever `index_file` may answer differently: it keys the per-blob index cache.
    index_version: str
    # Bumped whenever `macro_definitions` may answer differently: it keys the macro cache.
    macros_version: str
    # The file names of the build manifests that name its modules (`Cargo.toml`).
    manifest_names: tuple[str, ...]
    # A `git grep -E` pattern of what pulls a file into a build by its name, whatever the
    # directories say (Rust's `#[path = "x.rs"]`, `include!("x.rs")`): `unreached` files a
    # match names are kept.
    file_references: str

    def module_names(self, manifests: Mapping[str, bytes], files: Sequence[str]) -> ModuleNames:
        """What the manifests (path -> bytes) say the `files` of the commit are called."""
        ...

    def macro_definitions(self, source: bytes) -> Definitions:
        """The macros one file defines, as plain data (marshal's types: cached by blob)."""
        ...

    def error_macros(self, definitions: Iterable[Definitions]) -> ErrorMacros:
        """The repository's own error macros from its files' `macro_definitions`
        (`find_sites` reads them while `macros.using` them)."""
        ...

    def find_sites(self, path: str, source: bytes) -> FileScan:
        """Every error site of one file, with its facts (pure: no IO)."""
        ...

    def find_sites_after(
        self, path: str, source: bytes, known: Mapping[str, FileScan] | None
    ) -> FileScan:
        """`find_sites`, reusing the scans of unchanged units of an earlier version."""
        ...

    def unit_scans(self, source: bytes, scan: FileScan) -> dict[str, FileScan] | None:
        """An earlier version's scan split by unit, for `find_sites_after`; None if it cannot be."""
        ...

    def is_test_path(self, path: str) -> bool:
        """True for a path that holds only test code (its sites are never records)."""
        ...

    def test_module_paths(self, path: str, modules: Sequence[str]) -> tuple[str, ...]:
        """Path prefixes of the files of `modules`, declared test-only in the file at `path`."""
        ...

    def module_gates(
        self, files: Mapping[str, tuple[tuple[str, ...], ModuleLines]]
    ) -> dict[str, tuple[str, ...]]:
        """Each file's build gates from the files that declare it and its ancestors, from
        each file's (`FileScan.file_gates`, `FileScan.gated_modules`); files with none left out."""
        ...

    def pattern_identity(self, pattern: str) -> str:
        """What of a site's `messagePattern` says which site it is across versions: the
        pattern without what only widens the renderings it accepts (a permanent id is
        found again by it, `dataset.ids`)."""
        ...

    def literal_segments(self, message: str, is_format: bool = True) -> list[str]:
        """The literal text of a message between its placeholders."""
        ...

    def placeholders(self, message: str) -> list[str]:
        """The placeholders of a format-string message, as written."""
        ...

    def parses_as_code(self, text: str) -> bool:
        """Whether `text` is valid code of this language (as items or as a fn body)."""
        ...

    def validation_code(self, conditions: Sequence[Condition]) -> str | None:
        """A check that holds exactly when the condition chain does not; None if none can."""
        ...

    def type_guard(self, conditions: Sequence[Condition]) -> str | None:
        """The pattern test of the innermost `let ... else` of the chain, if any."""
        ...

    def test_pattern(self, pattern: str) -> str:
        """A pattern as a test that binds no name (`Some(x)` -> `Some(_)`): what it matches."""
        ...

    def display_variant(self, conditions: Sequence[str]) -> str | None:
        """The variant an error type's `Display` text is written for, from the conditions'
        texts of a `display` site (or of any site in such a `fmt`); None if none is named."""
        ...

    def pattern_mentions(self, path: str, source: bytes, words: Collection[str]) -> Counter[str]:
        """How many times one file writes each of `words` where it matches a value, never
        makes one (a `match` arm's pattern): what of a name's whole-word count is no build."""
        ...

    def index_file(self, path: str, source: bytes) -> FileIndex:
        """Definitions, calls and imports of one file, for the repository index (pure)."""
        ...

    def field_option(self, field: str, attrs: Sequence[str]) -> str | None:
        """The command-line option a field is, as a user types it (`--serve`), when its
        attributes say an argument parser makes one of it; None otherwise."""
        ...

    def index_leaves_out(self, path: str) -> bool:
        """Whether the index leaves the file at `path` out whatever its bytes (test code by
        its directory): decided by the path, so never by a cache keyed by the bytes."""
        ...

    def index_file_after(
        self, path: str, source: bytes, old_source: bytes, old_index: FileIndex
    ) -> FileIndex:
        """`index_file`, reusing the index of an earlier version (`old_index` of
        `old_source`) for what did not change (pure; the same answer either way)."""
        ...
