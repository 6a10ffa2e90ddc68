"""A site in a type's `Deserialize` impl names the struct fields serde reads one for: the
key of a settings file the user wrote wrong. Reading 328 found alacritty's config errors
("exceeded maximum scrolling history", an indexed color's index) with no key named: their
fns have no caller, serde runs them (`Reach.read_into`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_reach import committed_and_extracted, extracted_reach

CONFIG = """\
use serde::{Deserialize, Deserializer};

#[derive(Deserialize)]
pub struct UiConfig {
    pub scrolling: Scrolling,
}

#[derive(Deserialize)]
pub struct Scrolling {
    pub multiplier: u8,
    history: ScrollingHistory,
}

/// What a running terminal holds: no input is read into it.
pub struct Terminal {
    history: ScrollingHistory,
}

struct ScrollingHistory(u32);

impl<'de> Deserialize<'de> for ScrollingHistory {
    fn deserialize<D>(deserializer: D) -> Result<Self, D::Error>
    where
        D: Deserializer<'de>,
    {
        let lines = u32::deserialize(deserializer)?;
        if lines > 100_000 {
            return Err(serde::de::Error::custom(format!(
                "exceeded maximum scrolling history ({lines})"
            )));
        }
        Ok(Self(lines))
    }
}
"""


def _extracted(tmp_path: Path, source: str) -> tuple[dict[str, Any], dict[str, Any]]:
    files = {"Cargo.toml": '[package]\nname = "term"\n', "src/lib.rs": source}
    _, record = committed_and_extracted(files, "o/term", tmp_path, "exceeded maximum")
    return record, extracted_reach(tmp_path, record)


def test_a_deserialize_impl_names_the_fields_read_with_it_up_the_structs(tmp_path: Path) -> None:
    record, reach = _extracted(tmp_path, CONFIG)

    # `Terminal` holds one too, but derives no `Deserialize`: nothing reads it from input
    assert reach["read_into"] == [
        {"path": "UiConfig.scrolling.history", "file_path": "src/lib.rs", "line": 11}
    ]
    assert (
        "serde runs this `Deserialize` impl to read the field `UiConfig.scrolling.history` "
        "(src/lib.rs:11): the value at fault is that field's in what the program deserializes"
    ) in record["triggerScenarios"]


def test_the_fields_go_no_higher_than_a_settings_type(tmp_path: Path) -> None:
    # foundry's `Config` (foundry.toml) is also a field of a chisel session's: not said so
    source = (
        CONFIG.replace("UiConfig", "Session")
        .replace("pub struct Scrolling {", "pub struct ScrollConfig {")
        .replace("pub scrolling: Scrolling,", "pub scrolling: ScrollConfig,")
    )
    _, reach = _extracted(tmp_path, source)

    assert [r["path"] for r in reach["read_into"]] == ["ScrollConfig.history"]
