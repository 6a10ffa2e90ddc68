"""A check on a parameter's field names the field, its doc and the method a program sets it
with (sqlx's `maybe_upgrade` reads `options.ssl_mode`, which `MySqlConnectOptions::ssl_mode`
sets; reading 308 found no word of it): the issue's "a field to its struct definition and
doc", for `options.x` as for `self.x`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_reach import committed_and_extracted, reach_section

OPTIONS = """\
pub enum SslMode { Disabled, Preferred, Required }

pub struct ConnectOptions {
    /// How the connection negotiates TLS.
    pub(crate) ssl_mode: SslMode,
}

impl ConnectOptions {
    pub fn new() -> Self {
        ConnectOptions { ssl_mode: SslMode::Preferred }
    }

    /// Sets the TLS mode.
    pub fn ssl_mode(mut self, mode: SslMode) -> Self {
        self.ssl_mode = mode;
        self
    }

    pub fn get_ssl_mode(&self) -> &SslMode {
        &self.ssl_mode
    }

    pub fn connect(&self, server_tls: bool) -> anyhow::Result<()> {
        upgrade(self, server_tls)
    }
}

fn upgrade(options: &ConnectOptions, server_tls: bool) -> anyhow::Result<()> {
    match options.ssl_mode {
        SslMode::Required => {
            if !server_tls {
                anyhow::bail!("server does not support TLS");
            }
        }
        _ => {}
    }
    Ok(())
}
"""

BUILDER = """\
pub struct IndexBuilder {
    schema: Option<u32>,
    sorted: bool,
    values: Option<u32>,
}

impl IndexBuilder {
    pub fn schema(mut self, schema: u32) -> Self {
        self.schema = Some(schema);
        self
    }

    pub fn set_sorted(&mut self, sorted: bool) {
        self.sorted = sorted;
    }

    pub fn validate(&self) -> anyhow::Result<()> {
        if let Some(schema) = self.schema.as_ref() {
            if self.sorted && *schema == 0 {
                anyhow::bail!("a sorted index needs a schema with fields");
            }
            Ok(())
        } else {
            anyhow::bail!("no schema passed");
        }
    }

    pub fn set_values(&mut self, values: u32) -> anyhow::Result<()> {
        if self.values.is_some() {
            anyhow::bail!("values already set");
        }
        self.values = Some(values);
        Ok(())
    }
}
"""


def _extracted(tmp_path: Path, source: str, message: str) -> tuple[str, dict[str, Any]]:
    files = {"Cargo.toml": '[package]\nname = "conn"\n', "src/lib.rs": source}
    return committed_and_extracted(files, "o/conn", tmp_path, message)


def _dependencies(tmp_path: Path, record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    reach = json.loads((tmp_path / "out" / "o" / "conn" / "reach.json").read_text())
    return {d["name"]: d for d in reach["records"][record["id"]]["dependencies"]}


def test_a_parameter_s_field_is_told_with_its_doc_its_setter_and_its_getter(
    tmp_path: Path,
) -> None:
    _, record = _extracted(tmp_path, OPTIONS, "server does not support TLS")
    field = _dependencies(tmp_path, record)["options.ssl_mode"]
    assert (field["kind"], field["text"], field["doc"]) == (
        "field",
        "pub(crate) ssl_mode: SslMode",
        "How the connection negotiates TLS.",
    )
    assert (field["setter"], field["accessor"]) == ("ConnectOptions::ssl_mode", "&get_ssl_mode")
    assert (
        "`options.ssl_mode` (field `pub(crate) ssl_mode: SslMode`: How the connection "
        "negotiates TLS.; a program sets it with `ConnectOptions::ssl_mode(..)`)"
    ) in record["triggerScenarios"]


def test_the_setter_of_a_field_the_check_reads_is_a_solution(tmp_path: Path) -> None:
    _, record = _extracted(tmp_path, OPTIONS, "server does not support TLS")
    assert (
        "`ConnectOptions::ssl_mode(..)` sets `options.ssl_mode`, which the check reads: where "
        "a program calls it is one place the value is chosen."
    ) in record["solutions"]


def test_the_page_names_the_setter(tmp_path: Path) -> None:
    _, record = _extracted(tmp_path, OPTIONS, "server does not support TLS")
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert "a program sets it with <code>ConnectOptions::ssl_mode(..)</code>" in section


def test_a_field_the_failing_check_reads_is_set_by_a_set_method(tmp_path: Path) -> None:
    _, record = _extracted(tmp_path, BUILDER, "no schema passed")
    assert any(
        s.startswith("`IndexBuilder::schema(..)` sets `self.schema`") for s in record["solutions"]
    )


def test_a_field_that_only_gave_a_value_on_the_way_is_no_setter_s_matter(
    tmp_path: Path,
) -> None:
    # tantivy's "cannot be combined with sort_by_field" under `if let Some(schema) =
    # self.schema.as_ref()`: the schema was there, the other field refused
    _, record = _extracted(tmp_path, BUILDER, "a sorted index needs")
    said = [s for s in record["solutions"] if " sets `" in s]
    assert said == [
        "`IndexBuilder::set_sorted(..)` sets `self.sorted`, which the check reads: where a "
        "program calls it is one place the value is chosen."
    ]


def test_the_setter_that_refuses_is_no_other_place_to_set_it(tmp_path: Path) -> None:
    # cargo's `GlobalContext::set_values`: "config values already found" is its own refusal
    _, record = _extracted(tmp_path, BUILDER, "values already set")
    assert not [s for s in record["solutions"] if " sets `" in s]
    assert "a program sets it with `IndexBuilder::set_values(..)`" in record["triggerScenarios"]
