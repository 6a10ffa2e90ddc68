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


CRATE_FIELD = """\
pub enum TokenMap { HashMap(Vec<u32>), Fst(u8) }

pub struct TokenSet {
    pub(crate) tokens: TokenMap,
}

impl TokenSet {
    pub fn add(&mut self, token: u32) {
        match self.tokens {
            TokenMap::HashMap(ref mut map) => map.push(token),
            _ => panic!("tokens must be HashMap while indexing"),
        }
    }
}
"""


def test_a_check_of_a_crate_visible_field_is_said_to_be_for_its_crate(tmp_path: Path) -> None:
    # lance's `TokenSet::tokens` (reading 232): `pub(crate)` is no field another crate reads
    files = {"Cargo.toml": '[package]\nname = "index"\n', "src/lib.rs": CRATE_FIELD}
    _, record = committed_and_extracted(files, "o/index", tmp_path / "c", "tokens must be")
    assert record["validationCode"] == (
        "// `tokens` is `pub(crate)`: only code in the crate that declares it can read it, and "
        "check so.\n"
        "let ok = matches!(token_set.tokens, TokenMap::HashMap(_));"
    )


GETTER = """\
pub struct Http2Session {
    response_header: Option<u32>,
}

impl Http2Session {
    pub fn response_header(&self) -> Option<&u32> {
        self.response_header.as_ref()
    }

    pub fn read_response_header(&mut self) {
        if self.response_header.is_some() {
            panic!("H2 response header is already read");
        }
        self.response_header = Some(1);
    }
}
"""


def test_a_check_of_a_private_field_with_a_pub_getter_reads_it_through_that(
    tmp_path: Path,
) -> None:
    # pingora's `Http2Session::response_header()` (reading 307: "a pub accessor exists"):
    # the check any caller can write, not one for the module alone
    files = {"Cargo.toml": '[package]\nname = "h2"\n', "src/lib.rs": GETTER}
    _, record = committed_and_extracted(files, "o/h2", tmp_path / "d", "H2 response header")
    assert record["validationCode"] == ("let ok = http2_session.response_header().is_none();")


ITERATED = """\
pub struct Workspace {
    members: Vec<u32>,
    current: u32,
}

impl Workspace {
    pub fn members(&self) -> impl Iterator<Item = &u32> {
        self.members.iter()
    }

    pub fn current(&mut self) {
        if !self.members.contains(&self.current) {
            panic!("the current manifest is no member");
        }
    }
}
"""


def test_a_getter_of_another_value_than_the_field_s_is_no_way_to_read_it(tmp_path: Path) -> None:
    # cargo's `Workspace::members()` is an iterator over packages, its field a `Vec`: the
    # check through it would not compile
    files = {"Cargo.toml": '[package]\nname = "ws"\n', "src/lib.rs": ITERATED}
    _, record = committed_and_extracted(files, "o/ws", tmp_path / "e", "the current manifest")
    assert record["validationCode"] == (
        "// `members` and `current` are private fields: only code in the module that declares "
        "them can read them, and check so.\n"
        "let ok = workspace.members.contains(&workspace.current);"
    )
