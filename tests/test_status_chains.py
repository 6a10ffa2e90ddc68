"""An error's HTTP status through the `From` conversions that carry it to the response.
qdrant's `CollectionError::bad_input(..)` builds `CollectionError::BadInput`, which `impl
From<CollectionError> for StorageError` makes `StorageError::BadInput`, which the REST
layer's `impl ResponseError for HttpError` answers with `StatusCode::BAD_REQUEST` in a match
on its `StorageError`: reading 200 found `httpStatus` null on such records, every one."""

from __future__ import annotations

from pathlib import Path

from test_reach import graph_of

from pipeline.core.reach import Reach
from pipeline.languages.rust.sites import find_sites
from pipeline.scan.callerpaths import reaches_of, spec_of
from pipeline.scan.collect import build_contexts
from pipeline.scan.pool import RepoScan

LAYERS = """\
#[derive(Debug, thiserror::Error)]
pub enum OperationError {
    #[error("Wrong input: {description}")]
    WrongInput { description: String },
    #[error("Service error: {description}")]
    ServiceError { description: String },
}
#[derive(Debug, thiserror::Error)]
pub enum CollectionError {
    #[error("Bad input: {description}")]
    BadInput { description: String },
    #[error("Not found: {what}")]
    NotFound { what: String },
    #[error("Service internal error: {error}")]
    ServiceError { error: String },
}
impl CollectionError {
    pub fn bad_input(description: impl Into<String>) -> CollectionError {
        CollectionError::BadInput { description: description.into() }
    }
}
impl From<OperationError> for CollectionError {
    fn from(err: OperationError) -> Self {
        match err {
            OperationError::WrongInput { description } => Self::BadInput { description },
            OperationError::ServiceError { description } => Self::ServiceError { error: description },
        }
    }
}
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("Wrong input given: {description}")]
    BadInput { description: String },
    #[error("No such thing: {description}")]
    NotFound { description: String },
    #[error("Storage failed: {description}")]
    ServiceError { description: String },
}
impl From<CollectionError> for StorageError {
    fn from(err: CollectionError) -> Self {
        match err {
            CollectionError::BadInput { description } => StorageError::BadInput { description },
            CollectionError::NotFound { .. } => StorageError::NotFound { description: err.to_string() },
            CollectionError::ServiceError { error } => StorageError::ServiceError { description: error },
        }
    }
}
pub struct HttpError(StorageError);
impl ResponseError for HttpError {
    fn status_code(&self) -> http::StatusCode {
        match &self.0 {
            StorageError::BadInput { .. } => http::StatusCode::BAD_REQUEST,
            StorageError::NotFound { .. } => http::StatusCode::NOT_FOUND,
            StorageError::ServiceError { .. } => http::StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}
pub fn store(size: usize) -> Result<(), OperationError> {
    if size > 10 {
        return Err(OperationError::ServiceError { description: "too big".to_string() });
    }
    Ok(())
}
pub fn check(limit: usize) -> Result<(), CollectionError> {
    store(limit)?;
    if limit == 0 {
        return Err(CollectionError::bad_input("limit must be positive"));
    }
    Err(CollectionError::NotFound { what: format!("point {limit}") })
}
"""
# The REST layer: a route whose handler calls `check`
ROUTED = """\
pub async fn check_handler(limit: usize) -> Result<(), HttpError> {
    check(limit).map_err(|e| HttpError(e.into()))?;
    Ok(())
}
pub fn app() -> Router {
    Router::new().route("/check", get(check_handler))
}
"""


def reaches(tmp_path: Path, text: str) -> dict[str, Reach | None]:
    """Each site's reach by its message."""
    files = {"Cargo.toml": '[package]\nname = "store"\n', "src/lib.rs": text}
    graph = graph_of(tmp_path, files)
    scan = find_sites("src/lib.rs", text.encode())
    contexts = build_contexts("o/store", "ab" * 20, RepoScan(scans={"src/lib.rs": scan}))
    found = reaches_of([spec_of(c) for c in contexts], graph)
    return {c.site.message: found.get(c.record_id) for c in contexts}


def status_of(reach: Reach | None) -> int | None:
    return reach.http_status if reach is not None else None


def test_a_variant_s_status_is_the_one_its_conversions_carry_it_to(tmp_path: Path) -> None:
    found = reaches(tmp_path, LAYERS + ROUTED)

    assert status_of(found["Not found: {what}"]) == 404
    # two conversions: `OperationError` -> `CollectionError` -> `StorageError`
    assert status_of(found["Service error: {description}"]) == 500
    reach = found["Service error: {description}"]
    assert reach is not None
    assert reach.conversion == (
        "`OperationError::ServiceError` -> `CollectionError::ServiceError` (impl "
        "From<OperationError> for CollectionError (src/lib.rs:23)), then "
        "`CollectionError::ServiceError` -> `StorageError::ServiceError` (impl "
        "From<CollectionError> for StorageError (src/lib.rs:40)), then "
        "`HttpError::status_code` (src/lib.rs:50)"
    )


def test_a_constructor_fn_gives_the_status_of_the_one_variant_it_builds(
    tmp_path: Path,
) -> None:
    found = reaches(tmp_path, LAYERS + ROUTED)

    assert status_of(found["limit must be positive"]) == 400
    # the variant's own text (`#[error]`): its status too
    assert status_of(found["Bad input: {description}"]) == 400


def test_conversions_that_disagree_give_no_status(tmp_path: Path) -> None:
    # a second `From` takes `CollectionError::NotFound` to a variant answered with 500
    text = (
        LAYERS
        + ROUTED
        + (
            "pub enum GrpcError {\n    Internal { description: String },\n}\n"
            "impl From<CollectionError> for GrpcError {\n"
            "    fn from(err: CollectionError) -> Self {\n"
            "        match err {\n"
            "            CollectionError::NotFound { what } => GrpcError::Internal { description: what },\n"
            "            other => GrpcError::Internal { description: other.to_string() },\n"
            "        }\n"
            "    }\n"
            "}\n"
            "impl GrpcError {\n"
            "    fn status_code(&self) -> http::StatusCode {\n"
            "        match self {\n"
            "            GrpcError::Internal { .. } => http::StatusCode::INTERNAL_SERVER_ERROR,\n"
            "            _ => http::StatusCode::BAD_GATEWAY,\n"
            "        }\n"
            "    }\n"
            "}\n"
        )
    )

    found = reaches(tmp_path, text)

    assert status_of(found["Not found: {what}"]) is None
    assert status_of(found["limit must be positive"]) == 400  # taken to one status only


def test_an_enum_name_two_crates_declare_is_not_guessed(tmp_path: Path) -> None:
    # the arms and the `From` name `StorageError` alone: with a second `StorageError`, which
    # one they mean is not sure
    text = (
        LAYERS
        + ROUTED
        + (
            "pub mod other {\n"
            "    pub enum StorageError {\n        BadInput { description: String },\n    }\n"
            "}\n"
        )
    )

    found = reaches(tmp_path, text)

    assert status_of(found["limit must be positive"]) is None


def test_no_status_through_another_type_without_a_way_in_over_http(tmp_path: Path) -> None:
    # qdrant's edge crate builds the `OperationError`s the REST API answers with 500, but no
    # server links it: a status the error's own type does not give needs a path from a route
    found = reaches(tmp_path, LAYERS)

    assert status_of(found["Not found: {what}"]) is None
    assert status_of(found["limit must be positive"]) is None
    reach = found["Service error: {description}"]
    assert reach is not None
    assert reach.conversion is None
