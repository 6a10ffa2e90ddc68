"""A site in a `fail_point!`'s closure is a failure a test injects: the `fail` crate runs that
closure only in a build with its `failpoints` feature, while the failpoint is configured.
tikv's `StoragePool::create` holds `Err(Error::ErrorWrapper(String::from("failpoint")))` so,
and its record named six RPC entry points a user "meets it through" (reading 326). The site
is still found (issue 11), and its record says what injects it."""

from __future__ import annotations

from pathlib import Path

from test_reach import committed_and_extracted

from pipeline.languages.rust.sites import find_sites

MAIN = """\
fn main() {
    create().unwrap();
}

fn create() -> anyhow::Result<()> {
    fail::fail_point!("create_storage_slowly", |_| {
        Err(anyhow::anyhow!("injected storage failure"))
    });
    if missing() {
        anyhow::bail!("the storage is missing");
    }
    Ok(())
}

fn missing() -> bool {
    false
}
"""


def test_a_site_in_a_failpoint_s_closure_is_found_with_its_failpoint() -> None:
    sites = {s.message: s for s in find_sites("src/main.rs", MAIN.encode()).sites}
    assert sites["injected storage failure"].facts.failpoint == "create_storage_slowly"
    assert sites["the storage is missing"].facts.failpoint is None


def test_its_record_says_a_test_injects_it_not_a_user(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "store"\n', "src/main.rs": MAIN}
    sha, record = committed_and_extracted(files, "o/store", tmp_path, "injected storage")

    assert record["documentation"].startswith(
        "This error is injected by the failpoint `create_storage_slowly` (`fail_point!` in "
        "`create`, `src/main.rs`): the `fail` crate runs the closure that makes it only in a "
        "build with its `failpoints` feature, while that failpoint is configured;"
    )
    assert record["triggerScenarios"] == (
        "It occurs only when the failpoint `create_storage_slowly` is configured to run its "
        "closure (`FAILPOINTS=create_storage_slowly=return` in the environment, or "
        '`fail::cfg("create_storage_slowly", ..)` in a test), in a build with the '
        "`failpoints` feature, and the code reaches the `fail_point!` in `create`. "
        f"At commit {sha[:10]} that code is reached from `main` -> `create`."
    )
    assert record["solutions"][0].startswith("This is a failure injected for a test")
    assert record["tryCatchPattern"] is None


def test_a_site_beside_the_failpoint_keeps_its_own_text(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "store"\n', "src/main.rs": MAIN}
    _, record = committed_and_extracted(files, "o/store", tmp_path, "the storage is missing")

    assert "failpoint" not in record["documentation"]
    assert "missing()" in record["triggerScenarios"]
