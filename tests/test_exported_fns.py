"""A fn an attribute exports to another language is an entry point: the scripts or programs
of that language call it through the binding the attribute generates. typst's `#[func]` on
`Tiling::construct` is a Typst document's `tiling(..)`, and its records named it only as the
Rust crate's public API (reading 190); pyo3's `#[pyfunction]`, `#[wasm_bindgen]`, `#[napi]`
and `#[uniffi::export]` do the same for Python, JavaScript, Node.js and mobile code."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

FILES = {
    "Cargo.toml": '[package]\nname = "lib"\n',
    "src/lib.rs": """\
pub struct Tiling;
#[scope]
impl Tiling {
    #[func(constructor, since = "0.13.0")]
    pub fn construct(size: f64) -> Result<Tiling, String> {
        if !size.is_finite() {
            return Err("tile size must be finite".into());
        }
        Ok(Tiling)
    }
    pub fn plain(&self) {}
}
#[func]
pub fn lorem(words: usize) -> String {
    String::new()
}
#[pyfunction]
pub fn parse(text: &str) -> PyResult<()> {
    Ok(())
}
#[wasm_bindgen]
pub fn render(input: &str) -> String {
    String::new()
}
#[napi]
pub fn hash(data: String) -> u32 {
    0
}
#[uniffi::export]
pub fn connect(url: String) {}
#[serde(rename = "func")]
pub fn renamed() {}
""",
}


def test_a_fn_exported_to_another_language_is_an_entry_point(tmp_path: Path) -> None:
    graph = graph_of(tmp_path, FILES)
    entries = {graph.nodes[n].label: entry for n, entry in graph.entries.items()}
    assert entries["Tiling::construct"] == (
        "custom",
        "script function `Tiling::construct` (`#[func]`)",
    )
    assert entries["lorem"] == ("custom", "script function `lorem` (`#[func]`)")
    assert entries["parse"] == ("custom", "Python function `parse` (`#[pyfunction]`)")
    assert entries["render"] == ("custom", "JavaScript binding `render` (`#[wasm_bindgen]`)")
    assert entries["hash"] == ("custom", "Node.js binding `hash` (`#[napi]`)")
    assert entries["connect"] == (
        "custom",
        "foreign-language binding `connect` (`#[uniffi::export]`)",
    )
    # no attribute of an export: the crate's public API, as before
    assert entries["Tiling::plain"][0] == "pub-api"
    assert entries["renamed"][0] == "pub-api"
