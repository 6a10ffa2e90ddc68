"""The Rust front end: tree-sitter-rust queries, sites, regions, messages, facts, test code."""

from __future__ import annotations

from collections.abc import Mapping

from pipeline.core.index import FileIndex
from pipeline.core.sitetypes import FileScan
from pipeline.languages.rust import formats, index, sites, testcode, unitscan


class Rust:
    """`base.Language` for Rust."""

    name: str = "rust"
    extractor_version: str = sites.EXTRACTOR_VERSION
    suffixes: tuple[str, ...] = (".rs",)
    index_version: str = index.INDEX_VERSION

    def find_sites(self, path: str, source: bytes) -> FileScan:
        """Every error site of one `.rs` file."""
        return sites.find_sites(path, source)

    def find_sites_after(
        self, path: str, source: bytes, known: Mapping[str, FileScan] | None
    ) -> FileScan:
        """`find_sites`, parsing only the items that `known` does not hold."""
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

    def index_file(self, path: str, source: bytes) -> FileIndex:
        """The index of one `.rs` file (`index.index_file`)."""
        return index.index_file(path, source)


RUST = Rust()
