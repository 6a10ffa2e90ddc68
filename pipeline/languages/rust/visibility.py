"""What a file makes visible outside its crate, from its text (as `testcode` reads test
modules): the modules it declares that are not `pub` (`mod parser;`, `pub(crate) mod x;`),
and the lines of its `pub use` declarations. The link reads them to tell a `pub` fn that is
the crate's public API from one in a private module that nothing re-exports. Pure."""

from __future__ import annotations

import re

from pipeline.languages.rust.testcode import is_test_attribute

# A top-level module declaration (rustfmt's column 0): `mod x;`, `pub(crate) mod x {`
_MOD = re.compile(rb"^(pub\b\s*(?:\([^)\n]*\))?\s*)?mod\s+(?:r#)?(\w+)\s*[;{]", re.M)
# A top-level re-export: `pub use a::b;`, `pub use a::{b, c};` (not `pub(crate) use`)
_PUB_USE = re.compile(rb"^pub\s+use\b", re.M)


def private_modules(source: bytes) -> tuple[str, ...]:
    """The top-level modules the file declares without a plain `pub`, in file order; not
    those test code is (`#[cfg(test)] mod tests {`: never in the call graph)."""
    if b"mod " not in source:
        return ()
    return tuple(
        match.group(2).decode()
        for match in _MOD.finditer(source)
        if (not match.group(1) or b"(" in match.group(1))
        and not _under_test_attribute(source, match.start())
    )


def _under_test_attribute(source: bytes, start: int) -> bool:
    """Whether the attribute lines right above `start` (a line's start) mark test code; up
    to 8 lines read, upwards (not the whole text above: a `lib.rs` declares many modules)."""
    end = start
    for _ in range(8):
        if end <= 0:
            return False
        begin = source.rfind(b"\n", 0, end - 1) + 1
        text = source[begin:end].strip()
        if not text.startswith(b"#["):
            return False
        if is_test_attribute(text[2:].rstrip(b"]").decode("utf-8", errors="replace")):
            return True
        end = begin
    return False


def public_use_lines(source: bytes) -> tuple[int, ...]:
    """The lines (1-based) where the file's top-level `pub use` declarations start."""
    if b"use" not in source:
        return ()
    return tuple(source.count(b"\n", 0, match.start()) + 1 for match in _PUB_USE.finditer(source))
