"""The Rust front end: tree-sitter-rust queries, sites, regions, messages, facts, test code."""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.core.sitetypes import FileScan
from pipeline.languages.rust import formats, sites, testcode, unitscan
from pipeline.languages.rust.nesting import check_nesting


class Rust:
    """`base.Language` for Rust."""

    name: str = "rust"
    extractor_version: str = sites.EXTRACTOR_VERSION
    suffixes: tuple[str, ...] = (".rs",)

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

    def literal_segments(self, message: str, is_format: bool = True) -> list[str]:
        """Text between `{...}` placeholders, `{{`/`}}` decoded."""
        return formats.literal_segments(message, is_format)

    def placeholders(self, message: str) -> list[str]:
        """`{}`, `{name}`, `{:?}` as written."""
        return formats.placeholders(message)


RUST = Rust()
