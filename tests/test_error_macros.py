"""A repository's own error macros: `macro_rules!` that return, build or panic with an error
made from their tokens (polars' `polars_bail!`, `polars_ensure!`, `polars_err!`) make their
invocations sites, found from the definitions wherever they are in the repository."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from regen_fixtures import extract, manifest, records, regenerate

from pipeline.analyze.reach_text import undated_record
from pipeline.core.macros import NO_MACROS, ErrorMacros, MacroSpec, using
from pipeline.languages import language_of
from pipeline.scan.cache import ScanCache

RUST = language_of("x.rs")

# As polars writes them (crates/polars-error/src/lib.rs), trimmed.
ERRORS_RS = """\
pub enum PolarsError { ComputeError(String), InvalidOperation(String) }
pub type PolarsResult<T> = Result<T, PolarsError>;

#[macro_export]
macro_rules! polars_err {
    ($variant:ident: format!($_:tt) $(, _:tt)* $(,)?) => {
        const { panic!("remove unnecessary format! from polars_(bail|err)! macro") }
    };
    ($variant:ident: $fmt:literal $(, $arg:expr)* $(,)?) => {
        $crate::PolarsError::$variant(format!($fmt, $($arg),*).into())
    };
}

#[macro_export]
macro_rules! polars_bail {
    ($($tt:tt)+) => {
        return Err($crate::polars_err!($($tt)+))
    };
}

#[macro_export]
macro_rules! polars_ensure {
    ($cond:expr, $($tt:tt)+) => {
        if !$cond {
            $crate::polars_bail!($($tt)+);
        }
    };
}

macro_rules! with_match_type {
    ($dtype:expr, $body:expr) => {
        match $dtype { 1 => $body, _ => unimplemented!() }
    };
}

macro_rules! die {
    ($($arg:tt)*) => {{
        eprintln!($($arg)*);
        std::process::exit(1)
    }};
}
"""

OPS_RS = """\
use polars_error::{polars_bail, polars_ensure, polars_err, PolarsResult};

pub fn take(len: usize, idx: usize) -> PolarsResult<usize> {
    polars_ensure!(idx < len, OutOfBounds: "index {} is out of bounds for length {}", idx, len);
    if len == 0 {
        polars_bail!(ComputeError: "cannot take from an empty series");
    }
    let first = lookup(idx).ok_or_else(|| polars_err!(InvalidOperation: "no value at {}", idx))?;
    with_match_type!(first, Ok(first))
}
"""


def definitions(source: str) -> ErrorMacros:
    return RUST.error_macros([RUST.macro_definitions(source.encode())])


def test_the_definitions_say_what_each_macro_does_and_where_its_message_is() -> None:
    found = definitions(ERRORS_RS)

    assert found.by_name == {
        "polars_bail": MacroSpec("bail", 0),  # `return Err(polars_err!(..))`
        "polars_ensure": MacroSpec("ensure", 1),  # `if !$cond { polars_bail!(..) }`
        "polars_err": MacroSpec("constructor", 0),  # `PolarsError::$variant(format!(..))`
    }


def test_a_macro_that_takes_nothing_from_its_invocation_into_an_error_is_not_one() -> None:
    found = definitions(ERRORS_RS)

    # `_ => unimplemented!()` of a code generator; `die!` prints and exits: no error value
    assert "with_match_type" not in found.by_name
    assert "die" not in found.by_name


def test_a_built_in_name_keeps_its_own_meaning() -> None:
    own_bail = "macro_rules! bail { ($($t:tt)*) => { return Err(anyhow::anyhow!($($t)*)) }; }\n"

    assert definitions(own_bail) == NO_MACROS


def test_a_macro_that_panics_with_its_message_panics() -> None:
    fatal = "macro_rules! fatal { ($($t:tt)*) => { { log(); panic!($($t)*) } }; }\n"

    assert definitions(fatal).by_name == {"fatal": MacroSpec("panic", 0)}


def test_a_macro_whose_message_is_its_own_text_takes_none_from_its_invocation() -> None:
    # polars' `feature_gated!("temporal", ..)`: "temporal" is an argument of the rule's
    # own text, not the message (the `panic!` in the definition is a site of its own)
    feature_gated = """\
macro_rules! feature_gated {
    ($($feature:literal);*, $content:expr) => {{
        { panic!("activate '{}' feature", concat!($($feature, ", "),*)) }
    }};
}
"""

    assert definitions(feature_gated) == NO_MACROS


def test_invocations_are_sites_with_the_variant_as_their_code() -> None:
    with using(definitions(ERRORS_RS)):
        scan = RUST.find_sites("src/ops.rs", OPS_RS.encode())

    found = {(s.kind, s.line, s.message, s.error_code, s.macro) for s in scan.sites}
    assert found == {
        ("ensure", 4, "index {} is out of bounds for length {}", "OutOfBounds", "polars_ensure!"),
        ("bail", 6, "cannot take from an empty series", "ComputeError", "polars_bail!"),
        ("constructor", 8, "no value at {}", "InvalidOperation", "polars_err!"),
    }
    ensure = next(s for s in scan.sites if s.kind == "ensure")
    assert ensure.format_args == ("idx", "len")
    assert ensure.facts.conditions[-1].kind == "check_failed"
    assert ensure.facts.conditions[-1].text == "idx < len"


def test_without_the_definitions_the_invocations_are_no_sites() -> None:
    assert RUST.find_sites("src/ops.rs", OPS_RS.encode()).sites == ()


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(
        {
            "crates/polars-error/src/lib.rs": ERRORS_RS,
            "crates/polars-ops/src/ops.rs": OPS_RS,
        }
    )
    return repo


def ops_records(out: Path) -> dict[str, dict[str, Any]]:
    """The records of `ops.rs` by message (`lib.rs` has a `panic!` of its own)."""
    found = records(out).values()
    return {r["errorMessage"]: r for r in found if r["filePath"].endswith("ops.rs")}


def test_an_extraction_documents_the_invocations_of_macros_defined_in_another_crate(
    repo: GitRepo, tmp_path: Path
) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"

    result = extract(repo.path, out, cache, "main")

    assert result.exit_code == 0, result.output
    found = ops_records(out)
    assert set(found) == {
        "index {} is out of bounds for length {}",
        "cannot take from an empty series",
        "no value at {}",
    }
    bail = found["cannot take from an empty series"]
    assert (bail["errorType"], bail["errorCode"], bail["errorClass"]) == (
        "error_code",
        "ComputeError",
        "PolarsError",
    )
    assert "returns early with `polars_bail!`" in bail["documentation"]
    ensure = found["index {} is out of bounds for length {}"]
    assert "fails a `polars_ensure!` check" in ensure["documentation"]


def test_macros_defined_outside_the_include_still_make_sites(repo: GitRepo, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"

    result = extract(repo.path, out, cache, "main", "--include", "crates/polars-ops/**")

    assert result.exit_code == 0, result.output
    assert len(records(out)) == len(ops_records(out)) == 3


def test_a_macro_defined_later_sends_the_files_that_use_it_back_to_the_scan(
    tmp_path: Path,
) -> None:
    repo = GitRepo.init(tmp_path / "src")
    no_macros = ERRORS_RS.split("#[macro_export]")[0]
    repo.commit(
        {"crates/polars-error/src/lib.rs": no_macros, "crates/polars-ops/src/ops.rs": OPS_RS}
    )
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0
    assert records(out) == {}
    assert "errorMacros" not in manifest(out)

    repo.commit({"crates/polars-error/src/lib.rs": ERRORS_RS})  # ops.rs is the same blob
    result = regenerate(out, cache)

    assert result.exit_code == 0, result.output
    assert len(ops_records(out)) == 3
    assert manifest(out)["errorMacros"] == definitions(ERRORS_RS).digest()

    repo.commit({"crates/polars-error/src/lib.rs": no_macros})  # and gone again
    assert regenerate(out, cache).exit_code == 0
    assert ops_records(out) == {}


PLAIN_RS = """\
pub fn load(path: &str) -> anyhow::Result<()> {
    if path.is_empty() {
        anyhow::bail!("no path given");
    }
    Ok(())
}
"""


_LIB, _OPS, _PLAIN = (
    "crates/polars-error/src/lib.rs", "crates/polars-ops/src/ops.rs", "crates/io/src/plain.rs"
)  # fmt: skip


def _extracted_with_macros(tmp_path: Path) -> tuple[GitRepo, Path, Path]:
    """A repository whose `lib.rs` defines polars' macros, `ops.rs` invokes them and
    `plain.rs` does not, extracted: the source, OUT and CACHE."""
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({_LIB: ERRORS_RS, _OPS: OPS_RS, _PLAIN: PLAIN_RS})
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0
    return repo, out, cache


def test_a_change_to_the_macros_scans_again_only_the_files_that_invoke_a_changed_one(
    tmp_path: Path,
) -> None:
    """The table changes with its definitions' file; a file that invokes no macro that
    changed reads as it did and is carried over, one that does is scanned again, and the
    dataset is what a first extraction at that commit gives."""
    repo, out, cache = _extracted_with_macros(tmp_path)
    lib = _LIB

    # a macro added that no file invokes: only its own file is scanned
    added = (
        ERRORS_RS + "macro_rules! polars_warn {\n    ($($tt:tt)+) => {\n"
        "        return Err($crate::polars_err!($($tt)+))\n    };\n}\n"
    )
    repo.commit({lib: added})
    assert regenerate(out, cache).exit_code == 0
    assert manifest(out)["counts"]["filesCarried"] == 2
    assert "polars_warn" in manifest(out)["errorMacroTable"]

    # `polars_bail!` now panics: ops.rs, which invokes it, is scanned again; plain.rs is not
    panics = added.replace(
        "return Err($crate::polars_err!($($tt)+))\n    };\n}\n\n#[macro_export]\n"
        "macro_rules! polars_ensure",
        "panic!($($tt)+)\n    };\n}\n\n#[macro_export]\nmacro_rules! polars_ensure",
        1,
    )
    assert panics != added
    sha = repo.commit({lib: panics})
    assert regenerate(out, cache).exit_code == 0
    assert manifest(out)["counts"]["filesCarried"] == 1
    regenerated = {m: r["errorType"] for m, r in ops_records(out).items()}
    assert regenerated["cannot take from an empty series"] == "panic"

    fresh = tmp_path / "fresh"
    assert extract(repo.path, fresh, tmp_path / "cache-fresh", sha).exit_code == 0
    assert _comparable(records(out)) == _comparable(records(fresh))


def _comparable(found: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Records but their times and commit: an explanation kept for unchanged content (SPEC 7)
    names the commit it was written at."""
    times = ("analyzedAt", "contentChangedAt", "datasetVersion", "analyzedSha", "githubUrl")
    return {
        rid: {k: v for k, v in undated_record(r).items() if k not in times}
        for rid, r in found.items()
    }


def test_a_file_carried_over_a_changed_table_keeps_its_scan_for_its_next_version(
    tmp_path: Path,
) -> None:
    """A file carried over a change of the macro table reads as it did: its scan is kept as
    one made with the new table, so its next version parses only the units that changed
    (found from that scan), and the dataset is still what a first extraction gives."""
    repo, out, cache = _extracted_with_macros(tmp_path)
    lib, plain = _LIB, _PLAIN
    before = manifest(out)["errorMacros"]
    plain_blob = repo.blob_sha(plain)
    assert ScanCache(cache, before).get_many([plain_blob]).keys() == {plain_blob}

    added = ERRORS_RS + "macro_rules! polars_warn {\n    ($($tt:tt)+) => { panic!($($tt)+) };\n}\n"
    repo.commit({lib: added})
    assert regenerate(out, cache).exit_code == 0
    now = manifest(out)["errorMacros"]
    assert now != before and manifest(out)["counts"]["filesCarried"] == 2
    assert ScanCache(cache, now).get_many([plain_blob]).keys() == {plain_blob}

    sha = repo.commit({plain: PLAIN_RS + PLAIN_RS.replace("load", "save").replace("no", "nowhere")})
    assert regenerate(out, cache).exit_code == 0
    fresh = tmp_path / "fresh"
    assert extract(repo.path, fresh, tmp_path / "cache-fresh", sha).exit_code == 0
    assert _comparable(records(out)) == _comparable(records(fresh))
    assert "nowhere path given" in {r["errorMessage"] for r in records(out).values()}


def test_scans_are_adopted_only_from_a_table_named_by_a_digest(tmp_path: Path) -> None:
    cache = ScanCache(tmp_path, "0123456789abcdef")
    scan = RUST.find_sites("a.rs", PLAIN_RS.encode())
    earlier = ScanCache(tmp_path, "fedcba9876543210")
    earlier.put_many({"b" * 40: scan})
    assert cache.adopt("../../etc/passwd", ["b" * 40]) == 0
    assert cache.adopt("0000000000000000", ["b" * 40]) == 0  # no such table: nothing made
    assert not list(tmp_path.glob("*0000000000000000*"))
    assert cache.adopt("fedcba9876543210", ["b" * 40, "c" * 40]) == 1
    assert cache.get_many(["b" * 40]) == earlier.get_many(["b" * 40]) != {}
