"""An error made with a constructor whose variant says what it is (`Unsupported`,
`NotSupported`, `NotImplemented`, `Unimplemented`) is classed so, whatever its message's
words or the bound it checks: foundry's `SymbolicError::Unsupported("out-of-bounds symbolic
RETURNDATACOPY")`, a case its symbolic engine does not handle, read "Out of range or
overflow" and "meet it with valid input, credentials or permissions" (reading 328)."""

from __future__ import annotations

from site_fixtures import explained_all

SOURCE = """\
pub fn copy(offset: usize, size: usize, data: &[u8]) -> Result<(), SymbolicError> {
    if offset.saturating_add(size) > data.len() {
        return Err(SymbolicError::Unsupported("out-of-bounds symbolic RETURNDATACOPY"));
    }
    Ok(())
}

pub fn plan(filter: bool) -> Result<(), DataFusionError> {
    if filter {
        return Err(DataFusionError::NotImplemented("Range aggregate FILTER is invalid".into()));
    }
    Ok(())
}

pub fn read(offset: usize, data: &[u8]) -> Result<(), SymbolicError> {
    if offset > data.len() {
        return Err(SymbolicError::Memory("out-of-bounds memory read"));
    }
    Ok(())
}
"""


def test_the_variant_s_name_classes_the_error_over_its_words_and_its_bound() -> None:
    found = explained_all(SOURCE, "src/memory.rs")
    assert found["out-of-bounds symbolic RETURNDATACOPY"].backgroundTag == "unsupported-operation"
    assert found["Range aggregate FILTER is invalid"].backgroundTag == "not-implemented"
    # another variant keeps the class its check gives
    assert found["out-of-bounds memory read"].backgroundTag == "out-of-range"
