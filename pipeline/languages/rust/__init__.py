"""The Rust front end: tree-sitter-rust queries, sites, regions, messages, facts, test code."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence

from pipeline.core.index import FileIndex
from pipeline.core.macros import Definitions, ErrorMacros
from pipeline.core.sitetypes import Condition, FileScan, ModuleLines
from pipeline.languages.base import FileRefused
from pipeline.languages.rust import (
    bindings,
    cargo_targets,
    codecheck,
    display,
    errormacros,
    formats,
    index,
    logic,
    modulegates,
    patternwords,
    regions,
    sites,
    testcode,
    unitscan,
)
from pipeline.languages.rust.index_items import clap_option
from pipeline.languages.rust.nesting import check_nesting

_MACRO_RULES = re.compile(rb"macro_rules!")


class Rust:
    """`base.Language` for Rust."""

    name: str = "rust"
    extractor_version: str = sites.EXTRACTOR_VERSION
    suffixes: tuple[str, ...] = (".rs",)
    index_version: str = index.INDEX_VERSION
    macros_version: str = errormacros.MACROS_VERSION
    manifest_names: tuple[str, ...] = (cargo_targets.MANIFEST,)
    file_references: str = r'path *= *"[^"]+"|include! *\( *"[^"]+"'

    def module_names(
        self, manifests: Mapping[str, bytes], files: Sequence[str]
    ) -> cargo_targets.CrateMap:
        """The crates and modules Cargo makes of `files` (`cargo_targets`)."""
        return cargo_targets.crate_map(manifests, files)

    def macro_definitions(self, source: bytes) -> Definitions:
        """The `macro_rules!` of one file as plain data (`errormacros.Rule` tuples): what
        `error_macros` reads, and a cache keeps by blob."""
        hints = [m.start() for m in _MACRO_RULES.finditer(source)]
        if not hints:
            return {}
        tree = regions.parse_relevant(sites.parser(), source, hints)
        return {
            name: tuple((tuple(sorted(r.invokes)), *r[1:]) for r in rules)
            for name, rules in errormacros.macro_rules_of(tree).items()
        }

    def error_macros(self, definitions: Iterable[Definitions]) -> ErrorMacros:
        """The repository's own error macros, from its files' `macro_definitions`."""
        merged: dict[str, tuple[errormacros.Rule, ...]] = {}
        for found in definitions:
            for name, rules in found.items():
                merged[name] = tuple(errormacros.Rule(frozenset(r[0]), *r[1:]) for r in rules)
        builtin = {*sites.MACRO_KINDS, *sites.DISPLAY_MACROS}
        return errormacros.error_macros(merged, builtin)

    def find_sites(self, path: str, source: bytes) -> FileScan:
        """Every error site of one `.rs` file."""
        check_nesting(path, source)
        return sites.find_sites(path, source)

    def find_sites_after(
        self, path: str, source: bytes, known: Mapping[str, FileScan] | None
    ) -> FileScan:
        """`find_sites`, parsing only the items that `known` does not hold."""
        check_nesting(path, source)
        if known is None:
            return sites.find_sites(path, source)
        return unitscan.find_sites_after(path, source, known)

    def unit_scans(self, source: bytes, scan: FileScan) -> dict[str, FileScan] | None:
        """An earlier scan split by top-level item."""
        return unitscan.unit_scans(source, scan)

    def is_test_path(self, path: str) -> bool:
        """`tests/`, `benches/` and the like."""
        return testcode.is_test_path(path)

    def test_module_paths(self, path: str, modules: Sequence[str]) -> tuple[str, ...]:
        """`a/lib.rs` declaring `x` -> `a/x.rs`, `a/x/`; `a/foo.rs` -> `a/foo/x.rs`, `a/foo/x/`."""
        return testcode.test_module_paths([(path, tuple(modules))])

    def module_gates(
        self, files: Mapping[str, tuple[tuple[str, ...], ModuleLines]]
    ) -> dict[str, tuple[str, ...]]:
        """`modulegates.module_gates`: the `cfg` gates of the `mod` lines above each file."""
        return modulegates.module_gates(files)

    def pattern_identity(self, pattern: str) -> str:
        """The pattern without what std prints around the message (`formats.EXPECT_SUFFIX`,
        `PANIC_PREFIXES`): a site's pattern of an earlier version had none."""
        return formats.message_identity(pattern)

    def literal_segments(self, message: str, is_format: bool = True) -> list[str]:
        """Text between `{...}` placeholders, `{{`/`}}` decoded."""
        return formats.literal_segments(message, is_format)

    def placeholders(self, message: str) -> list[str]:
        """`{}`, `{name}`, `{:?}` as written."""
        return formats.placeholders(message)

    def parses_as_code(self, text: str) -> bool:
        """tree-sitter-rust parses it, as items or as a fn body, with no error."""
        return codecheck.parses_as_code(text)

    def validation_code(self, conditions: Sequence[Condition]) -> str | None:
        """`let ok = ..;`: the chain negated by De Morgan, `let` patterns as tests."""
        return logic.validation_code(conditions)

    def type_guard(self, conditions: Sequence[Condition]) -> str | None:
        """`v.is_some()` or `matches!(v, P)` for the innermost `let ... else`."""
        return logic.type_guard(conditions)

    def test_pattern(self, pattern: str) -> str:
        """Each name the pattern binds made `_`, but those its guard reads."""
        return bindings.without_bindings(pattern)

    def display_variant(self, conditions: Sequence[str]) -> str | None:
        """The innermost arm of a `match` on `self` or a field of it (`display`)."""
        return display.display_variant(conditions)

    def pattern_mentions(self, path: str, source: bytes, words: Collection[str]) -> Counter[str]:
        """The words' writings in `match` arm patterns (`patternwords`); none counted in a
        file nested too deeply to parse safely."""
        try:
            check_nesting(path, source)
        except FileRefused:
            return Counter()
        return patternwords.pattern_mentions(source, words)

    def index_file(self, path: str, source: bytes) -> FileIndex:
        """The index of one `.rs` file (`index.index_file`); a file nested too deeply is refused."""
        check_nesting(path, source)
        return index.index_file(path, source)

    def index_leaves_out(self, path: str) -> bool:
        """Test directories and test harness crates (`index.leaves_out`)."""
        return index.leaves_out(path)

    def field_option(self, field: str, attrs: Sequence[str]) -> str | None:
        """clap's derive: `#[arg(long)] serve: bool` is `--serve` (`index_items.clap_option`)."""
        return clap_option(field, attrs)

    def index_file_after(
        self, path: str, source: bytes, old_source: bytes, old_index: FileIndex
    ) -> FileIndex:
        """`index.index_file_after`: only the changed items and members are parsed."""
        check_nesting(path, source)
        return index.index_file_after(path, source, old_source, old_index)


RUST = Rust()
