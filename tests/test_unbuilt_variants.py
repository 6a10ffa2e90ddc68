"""A variant's text that no code builds is a message this commit's code never prints
(vector's `#[allow(dead_code)] UnsupportedEndpoint` and three snafu variants nothing builds,
in 21 records, reading 231): its record says so, where it read "the code that constructs
it decides when" and offered a `match` on it. Only what the index reads counts, and the
claim is not made where code may build it unnamed: a `#[from]` field (`.into()`), a
`macro_rules!` body, a bare name in an argument; a build in test code is no build."""

from __future__ import annotations

from pathlib import Path

from gitrepo import GitRepo
from test_reach import committed_and_extracted

from pipeline.languages.rust.index import index_file
from pipeline.scan.builders import (
    counted_file,
    in_patterns,
    never_built,
    settle_mentions,
    unbuilt_candidates,
)
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.entrypoints import build_graph
from pipeline.source.repository import list_files
from pipeline.source.wordcount import value_counts

ERRORS = """\
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("store is closed")]
    Closed,
    #[error("unsupported endpoint: {0}")]
    UnsupportedEndpoint(String),
    #[error("I/O failed")]
    Io(#[from] std::io::Error),
    #[error("not implemented: {0}")]
    NotImplemented(String),
    #[error("name {name} is taken")]
    Taken { name: String },
    #[error("only a test builds it")]
    TestOnly,
}
"""

STORE = """\
use crate::error::StoreError;
use crate::error::StoreError::*;

macro_rules! not_implemented {
    ($($arg:tt)*) => {
        return Err(StoreError::NotImplemented(format!($($arg)*)))
    };
}

pub fn close(open: bool) -> Result<(), StoreError> {
    if !open {
        return Err(StoreError::Closed);
    }
    Ok(())
}

pub fn compact() -> Result<(), StoreError> {
    not_implemented!("compact")
}

pub fn take(name: &str) -> Result<(), StoreError> {
    reject(Taken { name: name.to_string() })
}

fn reject(e: StoreError) -> Result<(), StoreError> {
    Err(e)
}

#[cfg(test)]
mod tests {
    #[test]
    fn builds() {
        let _ = super::StoreError::TestOnly;
    }
}
"""

ERR, LIB = "src/error.rs", "src/store.rs"


def line_of(needle: str) -> int:
    return next(n for n, line in enumerate(ERRORS.splitlines(), 1) if needle in line)


def settled_graph(tmp_path: Path, files: dict[str, str]) -> CallGraph:
    """The graph of `files`, committed, with the variants' names counted in its files as a
    run counts them (`settle_mentions`)."""
    repo = GitRepo.init(tmp_path / "repo")
    sha = repo.commit(files)
    graph = build_graph(
        {p: index_file(p, text.encode()) for p, text in files.items() if p.endswith(".rs")}
    )
    lines = [(p, n) for p, text in files.items() for n in range(1, text.count("\n") + 1)]
    names = unbuilt_candidates(graph, lines)  # a run asks of its sites' lines
    blobs = {e.path: e.blob_sha for e in list_files(repo.git_dir, sha).entries}
    counted = value_counts(
        repo.git_dir, sha, names, lambda path: counted_file(graph, path), blobs, in_patterns
    )
    settle_mentions(graph, counted)
    return graph


def test_only_a_variant_no_code_builds_or_may_build_is_said_unbuilt(tmp_path: Path) -> None:
    graph = settled_graph(tmp_path, {ERR: ERRORS, LIB: STORE})

    def unbuilt(needle: str) -> str | None:
        return never_built(graph, ERR, line_of(needle))

    assert unbuilt("unsupported endpoint") == "StoreError::UnsupportedEndpoint"
    # a `#[cfg(test)]` module's build is none the index reads, but its file writes the name:
    # the text cannot tell a test module's lines, so no claim (a test file's is none below)
    assert unbuilt("only a test builds it") is None
    assert unbuilt("store is closed") is None  # `Err(StoreError::Closed)`
    assert unbuilt("I/O failed") is None  # `?` or `.into()` may build it from an io::Error
    assert unbuilt("not implemented") is None  # the macro's body builds it where it is used
    assert unbuilt("is taken") is None  # bare, through the glob `use`, as an argument


def test_a_name_the_index_does_not_read_as_a_build_keeps_the_claim_off(tmp_path: Path) -> None:
    """A build in a macro's tokens (`tokio::select!`), a `static`'s initializer, an argument
    cut at 40 characters: the index reads none as a build of the variant, but the file
    writes its name, and no claim is made on the strength of what it did not read. A
    `match` arm's pattern is read, and builds nothing (surrealdb's `to_types.rs` names every
    `Error` variant, the dead `DtAlreadyExists` too: reading 313); one in a macro's tokens
    (`matches!`) still counts."""
    uses = (
        "use crate::error::StoreError;\n"
        "pub fn wait() -> Result<(), StoreError> {\n"
        "    tokio::select! { _ = tick() => return Err(StoreError::UnsupportedEndpoint(x)) }\n"
        "}\n"
    )
    graph = settled_graph(tmp_path / "a", {ERR: ERRORS, LIB: STORE, "src/wait.rs": uses})
    assert never_built(graph, ERR, line_of("unsupported endpoint")) is None

    arm = "pub fn f(e: &StoreError) -> u8 {\n    match e { StoreError::TestOnly => 1, _ => 0 }\n}\n"
    graph = settled_graph(tmp_path / "b", {ERR: ERRORS, LIB: STORE, "src/code.rs": arm})
    assert never_built(graph, ERR, line_of("only a test builds it")) is None  # the test's
    # a test file's mention is none, and an arm's pattern builds nothing
    untested = STORE.split("#[cfg(test)]")[0]
    graph = settled_graph(tmp_path / "c", {ERR: ERRORS, LIB: untested, "tests/code.rs": arm})
    assert never_built(graph, ERR, line_of("only a test builds it")) == "StoreError::TestOnly"
    graph = settled_graph(tmp_path / "d", {ERR: ERRORS, LIB: untested, "src/code.rs": arm})
    assert never_built(graph, ERR, line_of("only a test builds it")) == "StoreError::TestOnly"
    # a guard that writes it (`if ok(StoreError::TestOnly)`) names it as an argument: no claim
    # (`test_a_match_arm_s_pattern_is_counted_without_its_guard_or_body` counts the guard apart)
    guarded = arm.replace(
        "StoreError::TestOnly =>", "StoreError::TestOnly if ok(StoreError::TestOnly) =>"
    )
    graph = settled_graph(tmp_path / "e", {ERR: ERRORS, LIB: untested, "src/code.rs": guarded})
    assert never_built(graph, ERR, line_of("only a test builds it")) is None
    macro = "pub fn f(e: &StoreError) -> bool {\n    matches!(e, StoreError::TestOnly)\n}\n"
    graph = settled_graph(tmp_path / "f", {ERR: ERRORS, LIB: untested, "src/code.rs": macro})
    assert never_built(graph, ERR, line_of("only a test builds it")) is None


def test_a_match_arm_s_pattern_is_counted_without_its_guard_or_body() -> None:
    """What the text count takes off a name: its writings in arms' patterns, each one; not
    in an arm's guard or body, where code may build the variant, nor in a macro's tokens."""
    from pipeline.languages.rust.patternwords import pattern_mentions

    text = (
        "use Error::*;\n"
        "fn f(e: Error) -> u8 {\n"
        "    match e {\n"
        "        Dead { .. } | Error::Other(_) => 1,\n"
        "        Error::Third if made(Error::Guarded) => 2,\n"
        "        _ => { let x = Error::Other(1); 3 }\n"
        "    }\n"
        "}\n"
        "fn g(e: &Error) -> bool { matches!(e, Error::Dead { .. }) }\n"
    )
    words = {"Dead", "Other", "Third", "Guarded", "Absent"}
    assert pattern_mentions(text.encode(), words) == {"Dead": 1, "Other": 1, "Third": 1}


def test_without_the_text_s_counts_nothing_is_said_unbuilt() -> None:
    graph = build_graph(
        {p: index_file(p, t.encode()) for p, t in {ERR: ERRORS, LIB: STORE}.items()}
    )
    assert never_built(graph, ERR, line_of("unsupported endpoint")) is None


def test_an_unbuilt_variant_s_record_says_this_commit_does_not_print_it(tmp_path: Path) -> None:
    files = {
        "Cargo.toml": '[package]\nname = "store"\n',
        "src/lib.rs": "pub mod error;\npub mod store;\n",
        ERR: ERRORS,
        LIB: STORE,
    }
    sha, record = committed_and_extracted(files, "o/store", tmp_path, "unsupported endpoint")

    assert record["triggerScenarios"] == (
        "The text is printed when a `StoreError::UnsupportedEndpoint` value is formatted. "
        f"At commit {sha[:10]} no code the index reads builds `StoreError::UnsupportedEndpoint`"
        " (no `StoreError::UnsupportedEndpoint(..)` or `StoreError::UnsupportedEndpoint { .. }`,"
        " no use of it as a value, no `?` or `From` that converts into it, and no line but its"
        " definition and `match` arms' patterns (which test for it) that writes its name,"
        " outside tests; a macro's expansion or code generated"
        " at build time is not read): the variant looks unused, and this commit's code does"
        " not produce this message."
    )
    assert record["commonSituations"].startswith(
        f"At commit {sha[:10]} nothing builds `StoreError::UnsupportedEndpoint`"
    )
    assert record["solutions"][0].startswith("Check which version of the program printed it")
    assert record["tryCatchPattern"] is None
    assert record["exampleFix"].startswith(f"// At commit {sha[:10]} no code builds")
    assert "remove it" in record["preventionTips"][0]

    # a built variant's record is told where it is built, not this
    _, closed = committed_and_extracted(files, "o/store", tmp_path / "b", "store is closed")
    assert "no code the index reads builds" not in closed["triggerScenarios"]
    assert closed["tryCatchPattern"] is not None


def test_a_macro_s_body_is_read_to_its_closing_bracket_and_a_hostile_file_stays_linear() -> None:
    from pipeline.languages.rust.macronames import macro_rules_names

    text = b"macro_rules! m { () => { Err(E::V(1)) } }\nfn f() -> Outside { Outside }\n"
    assert macro_rules_names(text) == ("E", "Err", "V")
    # 20,000 unclosed definitions: each body ends where the next one starts
    hostile = b"macro_rules! a { X " * 20_000
    assert macro_rules_names(hostile) == ("X",)
