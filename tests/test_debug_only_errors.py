"""A message that is a value of a variant it builds (`GpuError::Other("..")`) shows in that
type's `Display`, which may put words around it; a type with no `Display` the index finds
(qdrant's `GpuError`, `#[derive(Debug)]` alone) shows it in its `Debug` form only: the record
read "what a user reads is `GpuError::Other`'s own message (its `Display`)" (reading 200)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_crate_only import explained


def gpu(display: str) -> str:
    return (
        "#[derive(Debug)]\n"
        "pub enum GpuError {\n    Other(String),\n}\n"
        f"{display}"
        "pub fn build(shader: Option<u8>) -> Result<u8, GpuError> {\n"
        "    let Some(shader) = shader else {\n"
        '        return Err(GpuError::Other("Pipeline shader is required".to_string()));\n'
        "    };\n"
        "    Ok(shader)\n"
        "}\n"
    )


DISPLAY = (
    "impl std::fmt::Display for GpuError {\n"
    "    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n"
    '        write!(f, "{:?}", self)\n'
    "    }\n"
    "}\n"
)


ALIASED = "pub type GpuResult<T> = Result<T, GpuError>;\n"


@pytest.mark.parametrize(
    ("display", "shown"),
    [("", "Debug"), (DISPLAY, "Display"), (ALIASED, "Debug"), (ALIASED + DISPLAY, "Display")],
)
def test_a_carried_value_is_read_where_its_type_prints_it(
    tmp_path: Path, display: str, shown: str
) -> None:
    # qdrant's `fn new(..) -> GpuResult<Self>`: the alias's error type
    source = gpu(display)
    if display.startswith(ALIASED):
        source = source.replace("Result<u8, GpuError>", "GpuResult<u8>")
    found = explained(tmp_path, source)

    assert ("its `Display`), which may put words around it" in found.documentation) is (
        shown == "Display"
    )
    assert ("it shows where `GpuError::Other`'s `Debug` form" in found.documentation) is (
        shown == "Debug"
    )


def test_a_value_wrapped_in_another_type_first_keeps_its_own_type_s_display(
    tmp_path: Path,
) -> None:
    # quickwit's `ElasticsearchError::from(SearchError::InvalidArgument(..))`: the fn returns
    # the wrapper, which has no `Display`; the built `SearchError` has one
    wrapped = gpu(DISPLAY).replace("Result<u8, GpuError>", "Result<u8, Wrapper>").replace(
        'Err(GpuError::Other("Pipeline shader is required".to_string()))',
        'Err(Wrapper::from(GpuError::Other("Pipeline shader is required".to_string())))',
    ) + (
        "#[derive(Debug)]\npub struct Wrapper(GpuError);\n"
        "impl From<GpuError> for Wrapper {\n    fn from(e: GpuError) -> Self {\n"
        "        Wrapper(e)\n    }\n}\n"
    )

    found = explained(tmp_path, wrapped)

    assert "its `Display`), which may put words around it" in found.documentation
