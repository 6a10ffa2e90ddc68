"""A fn an attribute exports to another language is an entry point: the scripts or programs
of that language call it through the binding the attribute generates. typst's `#[func]` on
`Tiling::construct` is a Typst document's `tiling(..)`, and its records named it only as the
Rust crate's public API (reading 190); pyo3's `#[pyfunction]`, `#[wasm_bindgen]`, `#[napi]`
and `#[uniffi::export]` do the same for Python, JavaScript, Node.js and mobile code."""

from __future__ import annotations

import json
from pathlib import Path

from test_reach import committed_and_extracted, graph_of

from pipeline.analyze.python_catch import python_catch
from pipeline.core.reach import CallerPath, Hop, Reach, reach_from_json
from pipeline.languages.rust.sites import find_sites

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


def test_the_methods_an_exporting_impl_exports_are_entry_points(tmp_path: Path) -> None:
    # lance's `#[pymethods] impl PyFullTextQuery { #[staticmethod] fn multi_match_query .. }`
    # is Python's `MultiMatchQuery`: it read "Only code in its own module can call" it
    # (reading 232). Every method of a `#[pymethods]` impl; the `pub` ones of a
    # `#[wasm_bindgen]` impl; none of a `#[napi]` impl's but those that say `#[napi]`
    files = {
        "Cargo.toml": '[package]\nname = "lib"\n',
        "src/lib.rs": """\
pub struct Query;
#[pymethods]
impl Query {
    #[staticmethod]
    fn multi_match(boosts: Vec<f32>) -> PyResult<Query> {
        Ok(Query)
    }
}
pub struct Workspace;
#[wasm_bindgen]
impl Workspace {
    pub fn check(&self) {}
    fn helper(&self) {}
}
pub struct Hasher;
#[napi]
impl Hasher {
    #[napi]
    pub fn digest(&self) {}
    pub fn plain(&self) {}
}
""",
    }
    graph = graph_of(tmp_path, files)
    entries = {graph.nodes[n].label: entry for n, entry in graph.entries.items()}

    assert entries["Query::multi_match"] == (
        "custom",
        "Python method `Query::multi_match` (`#[pymethods]`)",
    )
    assert entries["Workspace::check"] == (
        "custom",
        "JavaScript binding `Workspace::check` (`#[wasm_bindgen]`)",
    )
    assert "Workspace::helper" not in entries
    assert entries["Hasher::digest"] == ("custom", "Node.js binding `Hasher::digest` (`#[napi]`)")
    assert entries["Hasher::plain"][0] == "pub-api"


def test_a_python_export_is_named_as_python_calls_it(tmp_path: Path) -> None:
    # lance's `#[pyclass(name = "_Dataset")] struct Dataset`: Python's `_Dataset.drop_columns`,
    # which its records named by the Rust type (reading 232)
    files = {
        "Cargo.toml": '[package]\nname = "lib"\n',
        "src/lib.rs": """\
#[pyclass(name = "_Dataset", module = "_lib", subclass)]
pub struct Dataset;
#[pymethods]
impl Dataset {
    fn drop_columns(&self, columns: Vec<String>) -> PyResult<()> {
        Ok(())
    }
    #[pyo3(name = "list_tags")]
    fn tags_ordered(&self) -> PyResult<()> {
        Ok(())
    }
    #[new]
    fn new(uri: String) -> PyResult<Self> {
        Ok(Dataset)
    }
    #[staticmethod]
    fn drop_all(uri: String) -> PyResult<()> {
        Ok(())
    }
}
#[pyclass]
pub struct Fragment;
#[pymethods]
impl Fragment {
    fn count(&self) -> usize {
        0
    }
}
#[pyfunction]
#[pyo3(name = "read_transaction")]
pub fn read_transaction_file(path: &str) -> PyResult<()> {
    Ok(())
}
""",
    }
    graph = graph_of(tmp_path, files)
    entries = {graph.nodes[n].label: entry for n, entry in graph.entries.items()}

    assert entries["Dataset::drop_columns"] == (
        "custom",
        "Python method `_Dataset.drop_columns` (Rust `Dataset::drop_columns`, `#[pymethods]`)",
    )
    assert entries["Dataset::tags_ordered"][1].startswith("Python method `_Dataset.list_tags` (")
    assert entries["Dataset::new"][1].startswith("Python constructor `_Dataset` (Rust `Dat")
    assert entries["Dataset::drop_all"][1].startswith("Python static method `_Dataset.drop_all` (")
    assert entries["Fragment::count"] == (
        "custom",
        "Python method `Fragment.count` (Rust `Fragment::count`, `#[pymethods]`)",
    )
    assert entries["read_transaction_file"] == (
        "custom",
        "Python function `read_transaction` (Rust `read_transaction_file`, `#[pyfunction]`)",
    )


def test_a_binding_ranks_after_the_program_s_own_entry_point(tmp_path: Path) -> None:
    # ruff's playground `#[wasm_bindgen] Workspace::new` reaches its configuration's errors
    # in fewer calls than its CLI's `format`; a reader runs the CLI (stop 66's paths)
    files = {
        "Cargo.toml": '[package]\nname = "lint"\n',
        "src/main.rs": (
            "fn main() {\n    run().unwrap();\n}\n"
            "fn run() -> anyhow::Result<()> {\n    format()\n}\n"
            "fn format() -> anyhow::Result<()> {\n    settings()\n}\n"
            "#[wasm_bindgen]\npub fn playground() -> anyhow::Result<()> {\n    settings()\n}\n"
            "fn settings() -> anyhow::Result<()> {\n"
            '    anyhow::bail!("a deprecated rule is not allowed in preview")\n}\n'
        ),
    }
    _, record = committed_and_extracted(files, "o/lint", tmp_path, "a deprecated rule")
    rows = json.loads((tmp_path / "out" / "o" / "lint" / "reach.json").read_text())["records"]
    paths = reach_from_json(rows[record["id"]]).paths
    assert [h.name for h in paths[0].hops] == ["main", "run", "format", "settings"]
    assert [h.name for h in paths[1].hops] == ["playground", "settings"]
    assert paths[1].entry_label == "JavaScript binding `playground` (`#[wasm_bindgen]`)"


KMEANS = """\
#[pyclass(name = "KMeans")]
pub struct PyKMeans { trained: Option<u8> }
#[pymethods]
impl PyKMeans {
    fn predict(&self, dims: usize) -> PyResult<u8> {
        if dims == 0 {
            return Err(PyValueError::new_err("Must be a FixedSizeList"));
        }
        let Some(k) = self.trained else {
            return Err(pyo3::exceptions::PyIOError::new_err("KMeans must fit (train) first"));
        };
        Ok(k)
    }
}
#[pyfunction]
pub fn train(dims: usize) -> PyResult<u8> {
    helper(dims).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}
fn helper(dims: usize) -> anyhow::Result<u8> {
    if dims > 9 {
        anyhow::bail!("too many dimensions for training");
    }
    Ok(1)
}
"""


def test_a_python_method_s_error_is_caught_in_python(tmp_path: Path) -> None:
    # lance's `KMeans.predict` (reading 232): no Rust code calls it, Python does
    files = {"Cargo.toml": '[package]\nname = "lib"\n', "src/lib.rs": KMEANS}
    _, record = committed_and_extracted(files, "o/lib", tmp_path / "a", "Must be a Fixed")
    assert record["tryCatchPattern"] == (
        "try:\n"
        "    obj.predict(...)  # Python `KMeans.predict`, which pyo3 exports\n"
        "except ValueError as e:\n"
        '    if "Must be a FixedSizeList" not in str(e):\n'
        "        raise\n"
        "    ...  # handle this case"
    )
    _, record = committed_and_extracted(files, "o/lib", tmp_path / "b", "KMeans must fit")
    assert "except OSError as e:" in record["tryCatchPattern"]  # pyo3's `PyIOError`
    # a constructor is the class called, a static method the class's
    made = KMEANS.replace(
        "    fn predict(&self, dims: usize) -> PyResult<u8> {",
        "    #[new]\n    fn new(dims: usize) -> PyResult<u8> {",
    )
    files = {"Cargo.toml": '[package]\nname = "lib"\n', "src/lib.rs": made}
    _, record = committed_and_extracted(files, "o/lib", tmp_path / "c", "Must be a Fixed")
    assert record["tryCatchPattern"].splitlines()[1] == (
        "    KMeans(...)  # Python `KMeans`, which pyo3 exports"
    )


def test_an_error_a_python_function_s_callee_returns_keeps_its_rust_handling(
    tmp_path: Path,
) -> None:
    # `helper` is Rust called by Rust: its caller `train` can match its result
    files = {"Cargo.toml": '[package]\nname = "lib"\n', "src/lib.rs": KMEANS}
    _, record = committed_and_extracted(files, "o/lib", tmp_path, "too many dimensions")
    assert record["tryCatchPattern"].splitlines()[-1] != "    ...  # handle this case"
    assert "except" not in record["tryCatchPattern"]


def test_an_error_pyo3_converts_is_caught_as_any_exception() -> None:
    # a crate error returned by `?` in a `#[pyfunction]`: its class is its `PyErr`
    # conversion's to choose, which the site does not show
    source = (
        "#[pyfunction]\npub fn train(dims: usize) -> PyResult<u8> {\n"
        '    if dims > 9 {\n        return Err(Error::invalid("too many dimensions"))?;\n    }\n'
        "    Ok(1)\n}\n"
    )
    (site,) = find_sites("src/lib.rs", source.encode()).sites
    hop = Hop("train", "src/lib.rs", 2, "pub fn train(dims: usize) -> PyResult<u8>")
    label = "Python function `train` (`#[pyfunction]`)"
    reach = Reach(paths=(CallerPath((hop,), "custom", label),), callers=0)
    assert python_catch(site, reach, "too many dimensions") == (
        "try:\n"
        "    train(...)  # Python `train`, which pyo3 exports\n"
        "except Exception as e:  # the class its conversion to `PyErr` chooses\n"
        '    if "too many dimensions" not in str(e):\n'
        "        raise\n"
        "    ...  # handle this case"
    )
    # a path of two hops: the site's fn is Rust that Rust calls
    other = Hop("helper", "src/lib.rs", 9, "fn helper()")
    deeper = Reach(paths=(CallerPath((hop, other), "custom", label),), callers=1)
    assert python_catch(site, deeper, "too many dimensions") is None
