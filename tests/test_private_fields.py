"""A check that reads a private field is for code in the module that declares it: the
`validationCode` says so (reading 181: tikv's `peer_fsm_delegate.fsm.peer.is_initialized()`
offered to callers that cannot compile it)."""

from __future__ import annotations

from pathlib import Path

from test_reach import committed_and_extracted

ENGINE = """\
pub struct Args {
    engine: Engine,
    pub limit: usize,
}

pub enum Engine { Auto, Pcre }

impl Args {
    pub fn matcher(&self) -> anyhow::Result<()> {
        if matches!(self.engine, Engine::Auto) {
            anyhow::bail!("the automatic engine cannot build this matcher");
        }
        Ok(())
    }

    pub fn window(&self) -> anyhow::Result<()> {
        if self.limit > 10 {
            anyhow::bail!("a window over ten lines is not supported");
        }
        Ok(())
    }
}
"""


def test_a_check_of_a_private_field_is_said_to_be_for_its_module(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "grep"\n', "src/lib.rs": ENGINE}
    _, record = committed_and_extracted(files, "o/grep", tmp_path / "a", "the automatic engine")
    assert record["validationCode"] == (
        "// `engine` is a private field: only code in the module that declares it can read "
        "it, and check so.\n"
        "let ok = !matches!(args.engine, Engine::Auto);"
    )


def test_a_check_of_a_pub_field_is_anyone_s(tmp_path: Path) -> None:
    files = {"Cargo.toml": '[package]\nname = "grep"\n', "src/lib.rs": ENGINE}
    _, record = committed_and_extracted(files, "o/grep", tmp_path / "b", "a window over ten")
    assert record["validationCode"] == "let ok = !(args.limit > 10);"
