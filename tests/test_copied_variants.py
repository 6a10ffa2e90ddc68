"""A fn that copies an error's variant from one that exists (`clone`, `maybe_clone`) is no
place the error comes about: tikv's `ErrorInner::maybe_clone` was named where `Committed`
is built, and its public `Error::maybe_clone` as the way users meet it (reading 181)."""

from __future__ import annotations

from pathlib import Path

from test_reach import committed_and_extracted

FILES = {
    "Cargo.toml": '[package]\nname = "txn"\n',
    "src/lib.rs": (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum Error {\n"
        '    #[error("txn already committed at {commit_ts}")]\n'
        "    Committed { commit_ts: u64 },\n"
        '    #[error("other failure")]\n'
        "    Other,\n"
        "}\n"
        "impl Error {\n"
        "    pub fn maybe_clone(&self) -> Option<Error> {\n"
        "        match self {\n"
        "            Error::Committed { commit_ts } => Some(Error::Committed { commit_ts: *commit_ts }),\n"
        "            Error::Other => None,\n"
        "        }\n"
        "    }\n"
        "}\n"
        "pub fn cleanup(ts: u64, committed: Option<u64>) -> Result<(), Error> {\n"
        "    if let Some(commit_ts) = committed {\n"
        "        return Err(Error::Committed { commit_ts });\n"
        "    }\n"
        "    Ok(())\n"
        "}\n"
    ),
}


def test_a_copy_of_a_variant_is_not_where_it_is_built(tmp_path: Path) -> None:
    sha, record = committed_and_extracted(FILES, "o/txn", tmp_path, "txn already committed")
    assert record["triggerScenarios"].endswith(
        f"At commit {sha[:10]}, `Error::Committed` is built in one function, `cleanup` at"
        " src/lib.rs:18, when `let Some(commit_ts) = committed` matches, itself an entry point:"
        " public API `txn::cleanup`."
    )
    assert "maybe_clone" not in record["triggerScenarios"] + record["commonSituations"]


def test_a_build_only_a_fault_injection_feature_compiles_is_not_where_it_is_built(
    tmp_path: Path,
) -> None:
    """tikv's `#[cfg(feature = "failpoints")] fn make_txn_error` builds `Committed` when a
    fail point says so; its recheck named it as where the error is built (reading 181)."""
    files = dict(FILES)
    files["src/lib.rs"] += (
        '#[cfg(feature = "failpoints")]\n'
        "pub fn make_txn_error(s: &str) -> Error {\n"
        '    if s == "committed" { Error::Committed { commit_ts: 0 } } else { Error::Other }\n'
        "}\n"
    )
    sha, record = committed_and_extracted(files, "o/txn", tmp_path, "txn already committed")
    assert record["triggerScenarios"].endswith(
        f"At commit {sha[:10]}, `Error::Committed` is built in one function, `cleanup` at"
        " src/lib.rs:18, when `let Some(commit_ts) = committed` matches, itself an entry point:"
        " public API `txn::cleanup`."
    )
    assert "make_txn_error" not in record["triggerScenarios"] + record["commonSituations"]
