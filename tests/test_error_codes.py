"""The code a repository's own code answers an error's variant with classes it, over the
words of its message (`Reach.code`, `analyze.status_class`). Reading 230: greptimedb's
`Error::TooManyPartitions` ("Too many partitions"), which its `ErrorExt::status_code`
answers with `StatusCode::InvalidArguments`, read "Resource exhausted" and "retry" by its
words; meilisearch answers its variants with `Code::IndexNotFound`, neon with HTTP's
`StatusCode::NOT_FOUND`, a gRPC layer with tonic's `Status::not_found(..)`."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_reach import committed_and_extracted, graph_of

from pipeline.analyze.static import explain_apart, with_reach
from pipeline.analyze.status_class import code_class, reclass_to
from pipeline.core.reach import Reach
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import reaches_of, spec_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

SHA = "ab" * 20

# greptimedb's shape: snafu variants, a `status_code` whose arms name them bare under
# `use Error::*;`, one a partition count refused as an argument
GREPTIME = """\
use snafu::{ensure, Snafu};
#[derive(Debug, Snafu)]
pub enum Error {
    #[snafu(display("Too many partitions"))]
    TooManyPartitions {},
    #[snafu(display("Table not found: {name}"))]
    TableNotFound { name: String },
    #[snafu(display("Failed to connect to Etcd at {addr}"))]
    ConnectEtcd { addr: String },
    #[snafu(display("Failed to serialize"))]
    Serialize {},
}
impl ErrorExt for Error {
    fn status_code(&self) -> StatusCode {
        use Error::*;
        match self {
            TooManyPartitions { .. } | ConnectEtcd { .. } => StatusCode::InvalidArguments,
            TableNotFound { .. } => StatusCode::InvalidArguments,
            Serialize { .. } => StatusCode::Internal,
        }
    }
}
pub fn partition(n: usize, name: &str) -> Result<(), Error> {
    ensure!(n < 100, TooManyPartitionsSnafu {});
    ensure!(!name.is_empty(), TableNotFoundSnafu { name });
    ensure!(n > 0, ConnectEtcdSnafu { addr: name });
    ensure!(n != 7, SerializeSnafu {});
    Ok(())
}
"""


def reaches(tmp_path: Path, text: str) -> dict[str, Reach | None]:
    """Each site's reach by its message."""
    files = {"Cargo.toml": '[package]\nname = "meta"\n', "src/lib.rs": text}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", text.encode())
    contexts = build_contexts("o/meta", SHA, RepoScan(scans={"src/lib.rs": scan}))
    found = reaches_of([spec_of(c) for c in contexts], graph)
    return {c.site.message: found.get(c.record_id) for c in contexts}


def explained(tmp_path: Path, text: str) -> dict[str, tuple[str, str, str]]:
    """Each site's (class, its documentation, its handling strategy), the index's reach in."""
    files = {"Cargo.toml": '[package]\nname = "meta"\n', "src/lib.rs": text}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", text.encode())
    contexts = build_contexts("o/meta", SHA, RepoScan(scans={"src/lib.rs": scan}))
    found = reaches_of([spec_of(c) for c in contexts], graph)
    out = {}
    for c in contexts:
        e = with_reach(explain_apart(c), found.get(c.record_id), SHA, c.site, c.error_class)
        out[c.site.message] = (e.backgroundTag, e.documentation, e.handlingStrategy)
    return out


def test_a_bare_variant_under_a_glob_use_of_its_type_takes_the_arm_s_code(
    tmp_path: Path,
) -> None:
    found = reaches(tmp_path, GREPTIME)

    reach = found["Too many partitions"]
    assert reach is not None
    assert reach.code == "StatusCode::InvalidArguments"
    assert reach.code_by == "`Error::status_code` (src/lib.rs:14)"
    # an arm of two patterns gives both the code
    connect = found["Failed to connect to Etcd at {addr}"]
    assert connect is not None and connect.code == "StatusCode::InvalidArguments"
    serialize = found["Failed to serialize"]
    assert serialize is not None and serialize.code == "StatusCode::Internal"


def test_bare_names_without_a_glob_use_of_the_type_are_no_variants(tmp_path: Path) -> None:
    # `TooManyPartitions { .. }` could be a struct pattern of anything: no `use Error::*`
    found = reaches(tmp_path, GREPTIME.replace("        use Error::*;\n", ""))

    reach = found["Too many partitions"]
    assert reach is None or reach.code is None


def test_a_code_enum_s_arms_and_tonic_s_status_in_another_type_s_match(
    tmp_path: Path,
) -> None:
    text = """\
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("cannot open index `{0}`")]
    Missing(String),
    #[error("Index `{0}` already exists")]
    Taken(String),
}
impl ErrorCode for IndexError {
    fn error_code(&self) -> Code {
        match self {
            IndexError::Missing(_) => Code::IndexNotFound,
            Self::Taken(_) => Code::IndexAlreadyExists,
        }
    }
}
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("point {0} is gone")]
    Gone(u64),
}
impl From<StorageError> for tonic::Status {
    fn from(err: StorageError) -> Self {
        match err {
            StorageError::Gone(id) => Status::not_found(format!("{id}")),
        }
    }
}
pub fn open(name: &str) -> Result<(), IndexError> {
    if name.is_empty() {
        return Err(IndexError::Missing(name.to_string()));
    }
    Err(IndexError::Taken(name.to_string()))
}
pub fn get(id: u64) -> Result<(), StorageError> {
    Err(StorageError::Gone(id))
}
"""
    found = reaches(tmp_path, text)

    missing = found["cannot open index `{0}`"]
    assert missing is not None and missing.code == "Code::IndexNotFound"
    taken = found["Index `{0}` already exists"]
    assert taken is not None and taken.code == "Code::IndexAlreadyExists"
    gone = found["point {0} is gone"]
    assert gone is not None
    assert (gone.code, gone.code_by) == ("Status::not_found(..)", "`Status::from` (src/lib.rs:22)")


@pytest.mark.parametrize(
    ("code", "slug"),
    [
        ("StatusCode::InvalidArguments", "invalid-argument"),
        ("StatusCode::NOT_FOUND", "not-found"),
        ("Code::IndexNotFound", "not-found"),
        ("Status::not_found(..)", "not-found"),
        ("StatusCode::AuthHeaderNotFound", "unauthenticated"),  # a credential, not an item
        ("StatusCode::TableColumnExists", "already-exists"),
        ("Code::InvalidIndexUid", "invalid-argument"),
        ("StatusCode::InvalidSyntax", "parse-error"),
        ("StatusCode::DeadlineExceeded", "timeout"),
        ("StatusCode::RuntimeResourcesExhausted", "resource-exhausted"),
        ("StatusCode::FORBIDDEN", "permission-denied"),
        # where the fault lies at most, not what failed
        ("StatusCode::Internal", None),
        ("StatusCode::INTERNAL_SERVER_ERROR", None),
        ("Code::Unavailable", None),
        ("StatusCode::Unexpected", None),
    ],
)
def test_a_code_s_name_says_a_class_or_none(code: str, slug: str | None) -> None:
    found = code_class(code)

    assert (found.slug if found is not None else None) == slug


@pytest.mark.parametrize(
    ("code", "current", "now"),
    [
        ("StatusCode::InvalidArguments", "resource-exhausted", "invalid-argument"),
        ("StatusCode::InvalidArguments", "operation-failed", "invalid-argument"),
        # an argument naming what is not there, a parse of it, a bad address: kept
        ("StatusCode::InvalidArguments", "not-found", None),
        ("StatusCode::InvalidArguments", "parse-error", None),
        ("StatusCode::InvalidArguments", "connection-failure", None),
        # HTTP's 400 and 403 allow any class of the caller's doing
        ("StatusCode::BAD_REQUEST", "not-found", None),
        ("StatusCode::BAD_REQUEST", "io-error", "invalid-argument"),
        ("StatusCode::FORBIDDEN", "invalid-state-transition", None),
        # HTTP's 401 for a request body's parse (vector's firehose source): the words' class
        ("StatusCode::UNAUTHORIZED", "parse-error", None),
        ("StatusCode::UNAUTHORIZED", "operation-failed", "unauthenticated"),
        ("StatusCode::REQUEST_TIMEOUT", "internal-invariant", "timeout"),
        ("Code::IndexNotFound", "io-error", "not-found"),
        ("StatusCode::Internal", "invalid-argument", None),
        (None, "invalid-argument", None),
    ],
)
def test_the_code_reclasses_only_a_class_its_name_does_not_allow(
    code: str | None, current: str, now: str | None
) -> None:
    assert reclass_to(code, current) == now


def test_the_explanation_takes_the_code_s_class_and_says_whence(tmp_path: Path) -> None:
    found = explained(tmp_path, GREPTIME)

    tag, documentation, strategy = found["Too many partitions"]
    assert tag == "invalid-argument"
    assert documentation.endswith(
        "Class, by its code `StatusCode::InvalidArguments` in `Error::status_code` "
        "(src/lib.rs:14): Invalid argument."
    )
    assert strategy != "retry"  # the same partition count is refused again
    # a class the code allows stays the words' own
    assert found["Table not found: {name}"][0] == "not-found"
    assert found["Failed to connect to Etcd at {addr}"][0] == "connection-failure"


def test_the_record_carries_the_code_its_repository_answers_the_error_with(
    tmp_path: Path,
) -> None:
    # meilisearch's `error_code()` arm `Code::DatabaseSizeLimitReached`, read as
    # `database_size_limit_reached` by its users, was in `reach.json` and not in the
    # record (reading 311): SPEC 4's "an enum variant name used as a code"
    files = {"Cargo.toml": '[package]\nname = "part"\n', "src/lib.rs": GREPTIME}
    _, record = committed_and_extracted(files, "o/part", tmp_path, "Too many partitions")
    assert (record["errorCode"], record["errorType"]) == ("InvalidArguments", "error_code")


def test_a_panic_carries_no_code_of_its_fn_s_error_type(tmp_path: Path) -> None:
    source = GREPTIME.replace(
        "    Ok(())\n}\n",
        '    Ok(())\n}\npub fn must(n: usize) {\n    assert!(n > 1, "n too small");\n}\n',
    )
    files = {"Cargo.toml": '[package]\nname = "part"\n', "src/lib.rs": source}
    _, record = committed_and_extracted(files, "o/part", tmp_path, "n too small")
    assert (record["errorCode"], record["errorType"]) == (None, "panic")
