"""A caller that unwraps the error a call returns makes it a panic there (issue 10: "the exact
path of conditions that reaches it"): atuin's `Record::encrypt` calls `encrypt_sync(..)
.unwrap()`, and its record named `history init-store` as where users meet the error's text,
when what they meet there is a panic printing the error's `Debug` form (reading 324). The
walk goes on up (the panic unwinds those callers too); the hop says how it unwraps it
(`Hop.unwraps`), and the text, the page and the prompt say what the callers above get."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_reach import committed_and_extracted, reach_section

STORE = """\
#[derive(Debug)]
pub struct SealError(String);
impl std::fmt::Display for SealError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

pub fn seal(data: &[u8]) -> Result<Vec<u8>, SealError> {
    if data.is_empty() {
        return Err(SealError("nothing to seal".to_string()));
    }
    Ok(data.to_vec())
}

pub fn init_store(records: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    records.iter().map(|r| encrypt(r)).collect()
}

fn encrypt(record: &[u8]) -> Vec<u8> {
    seal(record).unwrap()
}

pub fn push(record: &[u8]) -> Result<Vec<u8>, SealError> {
    let sealed = seal(record)?;
    Ok(sealed)
}

pub fn rebuild(record: &[u8]) -> Vec<u8> {
    seal(record).expect("a stored record seals again")
}
"""


def _extracted(tmp_path: Path, source: str = STORE) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    files = {"Cargo.toml": '[package]\nname = "store"\n', "src/lib.rs": source}
    _, record = committed_and_extracted(files, "o/store", tmp_path, "nothing to seal")
    reach = json.loads((tmp_path / "out" / "o" / "store" / "reach.json").read_text())
    return record, reach["records"][record["id"]]["paths"]


def _hops(paths: list[dict[str, Any]]) -> dict[str, list[tuple[str, str | None]]]:
    return {
        str(p["entry_label"]): [(h["name"], h.get("unwraps")) for h in p["hops"]] for p in paths
    }


def test_the_hop_that_unwraps_the_error_says_how_and_the_walk_goes_on(tmp_path: Path) -> None:
    _, paths = _extracted(tmp_path)
    assert _hops(paths) == {
        "public API `store::init_store`": [
            ("init_store", None),
            ("encrypt", "`.unwrap()`"),
            ("seal", None),
        ],
        "public API `store::push`": [
            ("push", None),
            ("seal", None),
        ],  # `?`: returned, not unwrapped
        "public API `store::rebuild`": [
            ("rebuild", '`.expect("a stored record seals again")`'),
            ("seal", None),
        ],
    }


def test_the_text_and_the_page_say_the_callers_above_meet_a_panic(tmp_path: Path) -> None:
    # only `init_store` -> `encrypt` -> `seal`: the first path is the one that unwraps
    record, _ = _extracted(tmp_path, STORE.split("pub fn push")[0])
    assert (
        "`init_store` -> `encrypt` -> `seal`. On that path `encrypt` (src/lib.rs:21) unwraps "
        "what `seal` returns with `.unwrap()`: there the error becomes a panic, whose message "
        "shows the error's `Debug` form, and the callers above get no error value. The "
        "conditions depend on `data`"
    ) in record["triggerScenarios"]
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert (
        "(unwraps what it returns with <code>.unwrap()</code>: from here up it is a panic)"
        in section
    )


def test_an_expect_s_message_is_what_the_panic_prints_first(tmp_path: Path) -> None:
    source = (
        STORE.split("pub fn init_store")[0] + "pub fn rebuild" + STORE.split("pub fn rebuild")[1]
    )
    record, _ = _extracted(tmp_path, source)
    assert (
        'On that path `rebuild` (src/lib.rs:17) unwraps what `seal` returns with `.expect("a '
        'stored record seals again")`: there the error becomes a panic, whose message shows '
        "that text, a colon and the error's `Debug` form, and the callers above get no error "
        "value."
    ) in record["triggerScenarios"]
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert "<code>.expect(&#34;a stored record seals again&#34;)</code>" in section


def test_a_panic_s_path_marks_no_hop(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "store"\n',
        "src/lib.rs": STORE.replace(
            'return Err(SealError("nothing to seal".to_string()));', 'panic!("nothing to seal");'
        ),
    }
    _, record = committed_and_extracted(files, "o/store", tmp_path, "nothing to seal")
    reach = json.loads((tmp_path / "out" / "o" / "store" / "reach.json").read_text())
    hops = [h for p in reach["records"][record["id"]]["paths"] for h in p["hops"]]
    assert {h["name"] for h in hops} >= {"encrypt", "rebuild"}
    assert not any("unwraps" in h for h in hops)
    assert "unwraps what" not in record["triggerScenarios"]
