"""The failure-class taxonomy and its offline keyword classifier (SPEC 4, `backgroundTag`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_fixtures import explained

from pipeline.analyze.taxonomy import (
    FailureClass,
    classify,
    classify_explained,
    classify_step,
    load_taxonomy,
    parse_taxonomy,
)

# The seeds' two JSON records, copied into the repository (shared/ is not part of a clone).
SEEDS = Path(__file__).parent / "golden" / "seed_records"
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def test_taxonomy_loads_with_valid_classes() -> None:
    taxonomy = load_taxonomy()
    assert 18 <= len(taxonomy) <= 25
    for slug, failure_class in taxonomy.items():
        assert isinstance(failure_class, FailureClass)
        assert failure_class.slug == slug
        assert SLUG.fullmatch(slug)
        assert failure_class.title and failure_class.title[0].isupper()
        assert len(failure_class.description) > 200, slug  # one real paragraph
        assert "\n" not in failure_class.description
        # a tip to act on, not the description again (it read "A generic failure: ..")
        assert failure_class.prevention.endswith("."), slug
        assert failure_class.prevention not in failure_class.description, slug
    assert load_taxonomy() is taxonomy  # read once


@pytest.mark.parametrize(
    "slug",
    [
        "invalid-state-transition",
        "not-found",
        "already-exists",
        "invalid-argument",
        "unsupported-operation",
        "permission-denied",
        "unauthenticated",
        "resource-exhausted",
        "timeout",
        "connection-failure",
        "configuration-error",
        "parse-error",
        "type-mismatch",
        "schema-mismatch",
        "internal-invariant",
        "not-implemented",
        "concurrency-conflict",
        "data-corruption",
        "version-incompatibility",
        "io-error",
        "out-of-range",
        "operation-failed",
    ],
)
def test_taxonomy_has_class(slug: str) -> None:
    assert slug in load_taxonomy()


@pytest.mark.parametrize("seed", sorted(SEEDS.glob("*.json")), ids=lambda p: p.stem)
def test_seed_background_tags_are_taxonomy_slugs(seed: Path) -> None:
    text = seed.read_text(encoding="utf-8")
    assert json.loads(text)["record"]["backgroundTag"] in load_taxonomy()


def test_every_class_but_the_fallback_is_reachable_by_its_own_keywords() -> None:
    for slug, failure_class in load_taxonomy().items():
        if slug == "operation-failed":
            assert failure_class.keywords == ()
            continue
        longest = max(failure_class.keywords, key=lambda k: len(k.split()))
        assert classify(longest.rstrip("*"), "bail") == slug, longest


VALID_CLASS = """
[[class]]
slug = "{slug}"
title = "A title"
description = "What it means and what fixes it."
keywords = {keywords}
"""
REQUIRED = (
    "invalid-state-transition", "internal-invariant", "invalid-argument", "not-implemented",
    "operation-failed",
)  # fmt: skip


def taxonomy_text(*extra: str, keywords: str = "[]") -> str:
    classes = [VALID_CLASS.format(slug=slug, keywords=keywords) for slug in REQUIRED]
    return "".join(classes) + "".join(extra)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "one or more"),
        ("class = 3", "one or more"),
        (taxonomy_text(VALID_CLASS.format(slug="not-implemented", keywords="[]")), "duplicate"),
        (taxonomy_text(VALID_CLASS.format(slug="Not_Found", keywords="[]")), "slug"),
        (taxonomy_text(VALID_CLASS.format(slug="-x", keywords="[]")), "slug"),
        (taxonomy_text('[[class]]\nslug = "x"\ntitle = "X"\ndescription = "  "\n'), "description"),
        (taxonomy_text('[[class]]\nslug = "x"\ndescription = "d"\n'), "title"),
        (taxonomy_text(keywords='["Upper"]'), "keyword"),
        (taxonomy_text(keywords='["a*b"]'), "keyword"),
        (taxonomy_text(keywords='["..."]'), "keyword"),
        (taxonomy_text(keywords='"not a list"'), "keywords"),
        (
            taxonomy_text(
                VALID_CLASS.format(slug="x", keywords="[]") + 'condition_keywords = "s"\n'
            ),
            "condition_keywords",
        ),
        (
            taxonomy_text(
                VALID_CLASS.format(slug="x", keywords="[]") + 'condition_keywords = ["A"]\n'
            ),
            "keyword",
        ),
        (VALID_CLASS.format(slug="not-found", keywords="[]"), "needs the classes"),
        (
            taxonomy_text(VALID_CLASS.format(slug="x", keywords="[]") + "prevention = 1\n"),
            "prevention",
        ),
        (
            taxonomy_text(VALID_CLASS.format(slug="x", keywords='["a"]') + 'with_topic = ["b"]\n'),
            "with_topic",
        ),
    ],
)
def test_parse_taxonomy_rejects(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_taxonomy(text)


def test_parse_taxonomy_normalises_keywords_and_description() -> None:
    text = taxonomy_text(
        VALID_CLASS.format(slug="x", keywords='["doesn\'t exist", "i/o", "pars*"]')
    )
    parsed = parse_taxonomy(text)
    assert list(parsed)[: len(REQUIRED)] == list(REQUIRED)
    assert parsed["x"].keywords == ("doesn t exist", "i o", "pars*")


@pytest.mark.parametrize(
    ("message", "kind", "expected"),
    [
        # a database's or search engine's index is no index past the end (meilisearch,
        # risingwave); a bound still is
        ("while opening index {uid} at '{}'", "context", "io-error"),
        ("Index does not have foreign keys", "bail", "operation-failed"),
        ("index out of bounds: {}", "bail", "out-of-range"),
        # the seeds
        (
            "cannot create batch refresh job while database barrier is paused",
            "bail",
            "invalid-state-transition",
        ),
        (
            "should not pause when having snapshot backfill job {job_id}",
            "bail",
            "invalid-state-transition",
        ),
        # The seed record says invalid-state-transition (a model read the code); the
        # message alone names an unsupported operation, and that is what keywords see.
        (
            "Cannot alter the job {} because its creating backfill contains a scan type"
            " that does not support online rescheduling",
            "bail",
            "unsupported-operation",
        ),
        ("job {} is already running", "bail", "invalid-state-transition"),
        ("status must be Running, actually {:?}", "bail", "invalid-state-transition"),
        ("cannot drop table while it is being created", "bail", "invalid-state-transition"),
        ("transaction already committed", "bail", "invalid-state-transition"),
        ("worker {} is not ready", "bail", "invalid-state-transition"),
        ("old sink job {} not found in barrier state", "bail", "not-found"),
        ("database {database_id} does not exist", "bail", "not-found"),
        ("no table changelog found for upstream table {} when resolving", "bail", "not-found"),
        ("column {} not found in schema", "bail", "not-found"),
        # qdrant: "exists" under a negation is no name taken (reading 200)
        ("Not existing vector name error: {received_name}", "bail", "not-found"),
        ("Non-existing shard {}", "bail", "not-found"),
        ("the key does not exists", "bail", "not-found"),
        ('relation "{}" already exists', "bail", "already-exists"),
        ("duplicate column name: {}", "bail", "already-exists"),
        ("feature {} is not supported", "bail", "unsupported-operation"),
        # rustup: an adverb between the negation and the verb
        ("{} does not currently support completions for {}", "bail", "unsupported-operation"),
        ("only support `=` and `<>` comparison operators", "bail", "unsupported-operation"),
        ("replace sink must not use snapshot backfill", "bail", "unsupported-operation"),
        ("unsupported protocol version {}", "bail", "version-incompatibility"),
        ("the cluster version is incompatible with this client", "bail", "version-incompatibility"),
        ("not yet implemented: {}", "bail", "not-implemented"),
        ("permission denied for table {}", "bail", "permission-denied"),
        ("user {} does not have privilege to drop the database", "bail", "permission-denied"),
        ("must be owner of relation {}", "bail", "permission-denied"),
        ("authentication failed for user {}", "bail", "unauthenticated"),
        ('invalid password for user "{}"', "bail", "unauthenticated"),
        # axum's oauth example: a forged or stale login, not data of another shape
        ("CSRF token mismatch", "anyhow", "unauthenticated"),
        ("Signature verification failed", "bail", "unauthenticated"),
        ("memory limit exceeded: {} > {}", "bail", "resource-exhausted"),
        ("too many connections", "bail", "resource-exhausted"),
        ("request timed out after {:?}", "bail", "timeout"),
        ("deadline exceeded while waiting for barrier", "bail", "timeout"),
        ("failed to connect to meta node at {}", "bail", "connection-failure"),
        ("connection refused", "bail", "connection-failure"),
        ("invalid configuration: {}", "bail", "configuration-error"),
        ("environment variable {} is not set", "bail", "configuration-error"),
        ("failed to parse SQL: {}", "bail", "parse-error"),
        # xh's: not a state to resume, a header that does not parse
        ("Can't parse Content-Range header, can't resume download", "anyhow", "parse-error"),
        ("could not parse the lock file", "bail", "parse-error"),
        ('syntax error at or near "{}"', "bail", "parse-error"),
        ("invalid input syntax for type integer: {}", "bail", "parse-error"),
        ("cannot cast type {} to {}", "bail", "type-mismatch"),
        ("type mismatch: expected {}, found {}", "bail", "type-mismatch"),
        ("the number of columns does not match the schema", "bail", "schema-mismatch"),
        ("checksum mismatch in block {}", "bail", "data-corruption"),
        ("corrupted data file: {}", "bail", "data-corruption"),
        # too few bytes for what a file says it holds: truncated (qdrant), not a resource
        ("Insufficient file size for GraphLinks file", "bail", "data-corruption"),
        (
            "insufficient length (compressed data, expected {size} bytes, got {})",
            "bail",
            "data-corruption",
        ),
        ("Insufficient storage: {description}", "bail", "resource-exhausted"),
        # a flag given without its value (cargo's mdman, nushell)
        ("--url requires a value", "bail", "invalid-argument"),
        # a context's "to"/"from" is a file's only before a value the message prints
        ("failed to rename {} to {}", "context", "io-error"),
        ("cannot write to stdout", "context", "io-error"),
        ("failed to copy to clipboard in plugin {}", "context", "operation-failed"),
        ("Failed to create jni string from source offset: {}", "context", "operation-failed"),
        # a part of a path's text is got with no file system (tauri, tikv, qdrant); a
        # file's metadata is not
        ("Couldn't get parent of target path", "bail", "operation-failed"),
        ("Failed to get file name", "bail", "operation-failed"),
        ("failed to get parent path of config file: {}", "bail", "operation-failed"),
        ("failed to get file metadata", "bail", "io-error"),
        ("create parent directory '{}' failed: {}", "bail", "io-error"),
        # an unknown value of a fixed set (starship's reading of direnv's status)
        ("unknown integer allow status", "constructor", "invalid-argument"),
        # a context's verb in its -ing form; not an adjective (rustup's state file, vector)
        ("error parsing state", "context", "parse-error"),
        ("Failed to build URI from parsed arguments", "context", "operation-failed"),
        ("`-{short}` expects a value", "bail", "invalid-argument"),
        ("failed to read file {}", "bail", "io-error"),
        ("failed to create directory {}", "bail", "io-error"),
        ("integer overflow", "bail", "out-of-range"),
        ("index {} out of bounds for length {}", "bail", "out-of-range"),
        # a field's name is no class: hickory's SOA "retry" field (reading 133)
        ("retry outside i32 range", "constructor", "out-of-range"),
        ("refresh outside `u32` range", "bail", "out-of-range"),
        ("query was cancelled", "bail", "cancelled"),
        ("the server is shutting down", "error_attr", "cancelled"),
        ("failed to acquire lock", "context", "concurrency-conflict"),
        ("concurrent modification detected, please retry", "bail", "concurrency-conflict"),
        ("table version is stale", "bail", "concurrency-conflict"),
        ("Unable to remove stale HTML output", "context", "operation-failed"),  # old output
        ("invalid parameter: {}", "constructor", "invalid-argument"),
        # a count of what was written, not a resource (risingwave, cargo, alacritty)
        ("Too many/few arguments for pg_catalog.pg_get_expr()", "bail", "invalid-argument"),
        ("too many arguments", "bail", "invalid-argument"),
        ("Too many parameters", "constructor", "invalid-argument"),
        ("too many segments on URL", "bail", "invalid-argument"),
        # .. or of a value's parts (risingwave's qualified name, reading 146)
        ("improper qualified name (too many dotted names): {}", "display", "invalid-argument"),
        ("too many values in row {}", "bail", "invalid-argument"),
        ("Too many connections", "bail", "resource-exhausted"),
        ("too many requests", "bail", "resource-exhausted"),
        ("too many inflight time travel queries, max is {}", "bail", "resource-exhausted"),
        ("parallelism must be greater than 0", "ensure", "invalid-argument"),
        ("name cannot be empty", "bail", "invalid-argument"),
        ("this should never happen", "bail", "internal-invariant"),
        ("failed to do the thing: {}", "bail", "operation-failed"),
        # placeholders are not words of the message
        ("failed: {timeout} {permission_denied}", "bail", "operation-failed"),
        # a panic states an assumption of the code unless it names a misuse or a limit
        ("table not found", "expect", "internal-invariant"),
        ("should exist", "expect", "internal-invariant"),
        ("must not set previously", "assert", "internal-invariant"),
        ("failed to send response", "panic", "internal-invariant"),
        # the macro decides, whatever the message says
        ("table {} not found", "unreachable", "internal-invariant"),
        ("", "unreachable", "internal-invariant"),
        ("permission checks", "todo", "not-implemented"),
        ("not supported", "unimplemented", "not-implemented"),
    ],
)
def test_classify(message: str, kind: str, expected: str) -> None:
    assert classify(message, kind) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # risingwave's and polars' SQL: a keyword in capitals names a clause, not a thing
        ("duplicate OWNER clause in CREATE DATABASE", "invalid-argument"),  # not permission
        ("LIMIT must not be negative, but found: {}", "out-of-range"),  # not a resource limit
        (
            "EXISTS subquery is not currently supported in this position: {:?}",
            "unsupported-operation",
        ),
        ("Invalid number for ALTER CONFIG", "invalid-argument"),  # not configuration
        # initialisms stay words, and so does a message written all in capitals
        ("invalid JSON body", "parse-error"),
        ("GRPC call to the meta node timed out", "timeout"),
        ("ACCESS DENIED", "permission-denied"),
        ("Duplicated option: {}", "invalid-argument"),
    ],
)
def test_a_word_in_capitals_inside_a_sentence_is_a_name_not_english(
    message: str, expected: str
) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # starship: the Win32 call that failed, nothing that already exists (reading 113)
        ("DuplicateToken failed: {e:?}", "operation-failed"),
        ("GetFileSecurityW failed: {e}", "operation-failed"),
        # the words around it still decide
        ("DuplicateToken: permission denied", "permission-denied"),
        ("table already exists in PostgreSQL", "already-exists"),
        ("Mismatched payload for OpenFileInPlace", "schema-mismatch"),  # zellij: no file opened
        # it stays a word of the phrase around it
        ("Unknown MySQL data type", "invalid-argument"),
        # the name of an error's kind says what failed
        ("KdlDeserialization error: {0}", "parse-error"),
    ],
)
def test_a_word_in_camel_case_is_a_name_of_code_not_english(message: str, expected: str) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "kind", "condition", "expected"),
    [
        # nushell, meilisearch, cargo: the step the message names failed in the file system
        (
            "Error with file name: {e}",
            "bail",
            "File::create(file_path) failed (map_err)",
            "io-error",
        ),
        (
            "could not open <INPUT>",
            "bail",
            "std::fs::File::open(&input) failed (map_err)",
            "io-error",
        ),
        (
            "failed to move `{}` to `{}`",
            "context",
            "fs::rename(&src, &dst) failed (with_context)",
            "io-error",
        ),
        (
            "could not read fixture {:?}",
            "expect",
            "std::fs::read(path) was Err (expect)",
            "io-error",
        ),
        # a context's process call: cargo's `child.wait().context("credential process never
        # started")` read "Unauthenticated" by its word (reading 302)
        (
            "credential process never started",
            "context",
            "child.wait() was Err (context)",
            "io-error",
        ),
        (
            "credential process failed",
            "context",
            "cmd.output().await was Err (context)",
            "io-error",
        ),
        # .. but a context's verb still decides, and a bail's words do
        ("failed to parse credential", "context", "child.wait() was Err (context)", "parse-error"),
        ("invalid credential", "bail", "child.wait() failed (map_err)", "unauthenticated"),
        # the message's own class stays; another call that failed says nothing
        ("invalid json", "bail", "std::fs::read(path) failed (map_err)", "parse-error"),
        (
            "no snapshot",
            "bail",
            "table.metadata().current_snapshot() was None (ok_or_else)",
            "operation-failed",
        ),
    ],
)
def test_a_failed_call_of_the_file_system_is_an_io_error(
    message: str, kind: str, condition: str, expected: str
) -> None:
    if kind == "expect":  # a panic that says a step failed is classed by the step alone
        assert classify_step(message, conditions=[condition]) == expected
    else:
        assert classify(message, kind, [condition]) == expected


@pytest.mark.parametrize(
    ("message", "condition", "expected"),
    [
        # a child process's exit status is how the program ended, no object's state (rustup,
        # tauri, uv, vector: 39 such records were invalid state transitions)
        (
            "self-updated failed to replace rustup executable",
            "!status.success()",
            "operation-failed",
        ),
        ("cue fmt exited with {status}", "!output.status.success()", "operation-failed"),
        ("command failed", "status.code() != Some(0)", "operation-failed"),
        # an object's status still is one
        ("cannot pause the job", "self.status != JobStatus::Running", "invalid-state-transition"),
    ],
)
def test_a_child_process_s_exit_status_is_no_state(
    message: str, condition: str, expected: str
) -> None:
    assert classify(message, "bail", [condition]) == expected


@pytest.mark.parametrize(
    ("message", "condition", "expected"),
    [
        # a response's status is how a peer answered, no object's state (neon, risingwave:
        # 71 of 136 records classed by "status" were HTTP or response statuses, reading 210)
        (
            "STS request failed with status {status}",
            "!resp.status().is_success()",
            "operation-failed",
        ),
        ("unexpected answer", "res.status != StatusCode::OK", "operation-failed"),
        (
            "unexpected answer",
            "http::StatusCode::NOT_FOUND == response.status()",
            "operation-failed",
        ),
        (
            "transaction error: {}",
            "!STARROCKS_SUCCESS_STATUS.contains(&res.status.as_str())",
            "operation-failed",
        ),
        # a failed call's arguments and strings are no state it read
        (
            "Failed to create timeline data structure",
            "self.create_timeline_struct(id, rel_size_v2_status, ctx) was None/Err (context)",
            "operation-failed",
        ),
        (
            "Failed to append a path",
            'url.join("status") was Err (with_context)',
            "operation-failed",
        ),
        # a match over an object's status still is one
        (
            "unexpected close",
            "match status: Status::StreamReady(stream) =>",
            "invalid-state-transition",
        ),
    ],
)
def test_a_response_s_status_is_no_state(message: str, condition: str, expected: str) -> None:
    assert classify(message, "bail", [condition]) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # polars, zellij, risingwave: a constraint the message states on a value
        ("`closed` must be one of {{'left', 'right'}}, got {v}", "invalid-argument"),
        ("`quantized_vector_size` must be non-zero", "invalid-argument"),
        ("fraction must be between 0.0 and 1.0, got: {}", "out-of-range"),
        ("filter predicate must be of type `Boolean`, got `{}`", "type-mismatch"),
        ("size should be a fixed number (eg. 1) or a quoted percent", "type-mismatch"),
        (
            "the length of `descending` ({}) does not match the length of `by` ({})",
            "invalid-argument",
        ),
        ("number of ids and payloads must be equal ({} != {})", "invalid-argument"),
        # typst, neon: what a value must (not) be, as a bound, a form or a kind of number
        ("tile offset must be finite", "invalid-argument"),
        ("tile offset must not be font-relative", "invalid-argument"),
        ("direction must be horizontal", "invalid-argument"),
        ("must be `left` or `right`", "invalid-argument"),
        ("`src` must not start or end with a comma", "invalid-argument"),
        ("parallel_jobs must be >= 1", "invalid-argument"),
        ("duration must be 1-60 secs", "invalid-argument"),
        # .. not the code's own state, nor a word of a kind no value has
        ("index must be initialized before adding points", "operation-failed"),
        ("lhs_mapping should be invertible", "operation-failed"),
        # a keyword of the message still decides first
        ("the file must be one of the listed paths: permission denied", "permission-denied"),
        ("must have next", "operation-failed"),
    ],
)
def test_a_constraint_the_message_states_decides_when_no_keyword_did(
    message: str, expected: str
) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("sorting by last modified isn't supported: {err}", "unsupported-operation"),  # ripgrep
        ("operator {:?} is not currently supported", "unsupported-operation"),  # polars
        ("array/struct on left are not supported yet", "not-implemented"),  # risingwave
        # "is unsupported" says it as plainly as "is not supported" (uv's pip-sync flags)
        (
            "pip-sync's `--config` is unsupported (uv does not use a configuration file)",
            "unsupported-operation",
        ),
    ],
)
def test_not_supported_in_any_tense_is_unsupported(message: str, expected: str) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # uv, polars, meilisearch, qdrant: two inputs that exclude each other
        ("cannot specify both `url` and `path`", "invalid-argument"),  # was operation-failed
        ("`lib` and `no_package` are mutually exclusive", "invalid-argument"),
        ("only one of 'skip_rows'/'skip_lines' may be set", "invalid-argument"),
        ("Invalid request: both `media` and `vector` parameters are present.", "invalid-argument"),
        ("Cannot specify a password both via the URL and CLI", "invalid-argument"),  # no login
        ("Cannot read both requirements file and script from stdin", "invalid-argument"),  # no I/O
        ("the 'lookup' and 'range' capabilities can't be both disabled", "invalid-argument"),
        # an input that must be given (cargo's mdman, qdrant)
        ("-t must be specified (man, md, txt)", "invalid-argument"),  # was operation-failed
        ("peer ID must be specified when resharding down", "invalid-argument"),  # no connection
        # an option of the request: the invalid-argument class's own "unknown option"
        ("'table.name' option must be specified.", "invalid-argument"),
        # settings that exclude each other: the prose names them (a request's options are
        # its arguments: "an unknown option, an illegal combination of parameters")
        ("cannot configure both `package.workspace` and `[workspace]`", "configuration-error"),
        ("CREATE TABLE received mutually exclusive options: {:?}", "invalid-argument"),
        # one input ruling another out (sccache: was unauthenticated, by "credentials")
        (
            "If setting S3 credentials, SCCACHE_S3_NO_CREDENTIALS must not be set.",
            "configuration-error",
        ),
        ("`--bump post` cannot be used with another `--bump` value", "invalid-argument"),
        # a value of one kind with another: no pair of inputs
        (
            "Relative range values cannot be used with streams that don't have a known length",
            "unsupported-operation",
        ),
        # "both" alone is no conflict
        ("Two workspace members are both named `{name}`", "operation-failed"),
        (
            "CROSS JOIN UNNEST with both literal arrays and columns is not supported",
            "unsupported-operation",
        ),
    ],
)
def test_inputs_that_exclude_each_other_or_are_missing_are_the_callers_to_fix(
    message: str, expected: str
) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("can't convert to str", "operation-failed"),  # starship: a non-UTF-8 path, no I/O
        ("download cancelled", "cancelled"),  # qdrant: the words decide, not the carrier
        ("Invalid path in file URL", "invalid-argument"),  # uv
        ("Failed to flush quantization storage: {e}", "io-error"),  # qdrant: the words say so
    ],
)
def test_a_catch_all_constructor_names_no_class(message: str, expected: str) -> None:
    """`io::Error::other(..)` carries an error that no OS call returned: its type is no
    I/O error (each of these was one when the constructor's name counted)."""
    assert classify(message, "constructor", names=["io::Error::other"]) == expected
    assert classify(message, "constructor", names=["std::io::Error::other"]) == expected


def test_an_unknown_error_names_no_missing_thing() -> None:
    for message in (
        "Unknown error", "An unknown error has occurred",  # nushell, polars
        "recipe `{recipe}` failed on line {n} for an unknown reason",  # just
        "process experienced an unknown failure",
    ):  # fmt: skip
        assert classify(message, "bail") == "operation-failed"  # was not-found
    assert classify("unknown column {}", "bail") == "not-found"  # the keyword still counts


@pytest.mark.parametrize(
    "message",
    [
        "unknown ip family {family}",  # sqlx, a code read while decoding
        "Unknown socket protocol: {socket_protocol}",  # vector
        "Unknown scheme: {scheme}",
        "unknown compression: {compression}",
        "Invalid filename {}, unknown extension",
        "unknown escape character `{}`",  # cargo
        "unknown profile name: '{}'; valid profile names are: {}",  # rustup
    ],
)
def test_an_unknown_value_of_a_set_the_code_knows_is_no_missing_thing(message: str) -> None:
    """Stop 54's reading: "unknown ip family" was "Not found" ("create it first")."""
    assert classify(message, "bail") == "invalid-argument"


@pytest.mark.parametrize(
    "message",
    ["The import task emanates from an unknown remote `{0}`", "Unknown connection: {name}",
     "concatenate field uses an unknown field `{sub_field}`"],
)  # fmt: skip
def test_an_unknown_object_is_still_not_found(message: str) -> None:
    assert classify(message, "bail") == "not-found"


@pytest.mark.parametrize(
    "message",
    [
        "The binary caches in '{}' are not compatible with this version of bat ({}).",
        "Segment version({stored_version}) is not compatible with current version({app_version})",
        "The current Python version ({0}) is not compatible with the locked Python requirement",
        "deserialization failed  given DSL_VERSION: {major}.{minor} is not compatible with this "
        "Polars version",  # was a parse error: the data parsed, its version is the matter
    ],
)
def test_not_compatible_with_this_version_is_a_version_incompatibility(message: str) -> None:
    assert classify(message, "bail") == "version-incompatibility"


def test_not_compatible_with_something_else_is_not_a_version_matter() -> None:
    message = "Snapshot is not compatible with existing collection: {:?}"  # qdrant
    assert classify(message, "bail") != "version-incompatibility"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # two justfile settings that conflict: nothing to upgrade (reading 106)
        ("`{}` set on line {} is incompatible with `{}`", "operation-failed"),
        ("daemon autostart is incompatible with `daemon.systemd_socket = true`", "operation-failed"),
        # "incompatible" beside a type or a schema is theirs, beside a version a version's
        ("column {} data type {:?} is incompatible with downstream SQL Server type {}",
         "type-mismatch"),
        ("query is incompatible with schema. {0})", "schema-mismatch"),
        ("Your database version ({major}.{minor}) is incompatible with your current engine",
         "version-incompatibility"),
        ("The resolved Python interpreter (Python {0}) is incompatible with the script's Python "
         "requirement: `{1}`", "version-incompatibility"),
    ],
)  # fmt: skip
def test_incompatible_is_a_version_matter_only_beside_a_version(
    message: str, expected: str
) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    "message",
    [
        "expect one of [local, distributed, auto]",  # risingwave's session settings
        "unrecognized value `{value}` for `{key}`",
        "Was expecting one of `fragments`, `userProvided` or nothing, but instead found `{}`",
        "choice '{unk}' is unrecognized",  # ripgrep
    ],
)
def test_a_value_outside_the_set_the_code_knows_is_an_invalid_argument(message: str) -> None:
    assert classify(message, "bail") == "invalid-argument"  # each was operation-failed


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Unknown option '{option}'", "invalid-argument"),  # nushell: each was not-found
        ("Unknown flag '--{name}'", "invalid-argument"),  # a command's flag, no setting
        ("unknown fill strategy: {}", "invalid-argument"),  # risingwave
        ("Unknown architecture: {0}", "invalid-argument"),  # uv
        (
            "Unknown pane frame style: '{}' (expected 'full', 'titles' or 'none')",
            "invalid-argument",
        ),
        ("unknown configuration key for aws: {}", "configuration-error"),  # polars
        ("grep config error: unknown encoding: {}", "configuration-error"),  # ripgrep
        # an unknown object is still not found; the others keep their phrase
        ("Unknown remote `{0}`", "not-found"),
        ("unknown column {}", "not-found"),
        ("unknown error kind; try updating Cargo?", "operation-failed"),
        ("invalid output in {whence}: `{line}` Unknown key: `{key}`", "parse-error"),
    ],
)
def test_an_unknown_value_of_a_known_kind_is_an_invalid_argument(
    message: str, expected: str
) -> None:
    assert classify(message, "bail") == expected


def test_a_setting_the_configuration_file_lacks_is_a_configuration_error() -> None:
    message = "TLS config is not defined in the Qdrant config file"  # was connection-failure
    assert classify(message, "constructor", names=["Error::TlsConfigUndefined"]) == (
        "configuration-error"
    )


def test_inputs_that_exclude_each_other_are_settings_when_the_error_says_so() -> None:
    message = "Cannot have both tabs and panes in the same node"  # zellij's layout file
    assert classify(message, "constructor", names=["ConfigError"]) == "configuration-error"
    assert classify(message, "constructor", names=["LayoutError"]) == "invalid-argument"


@pytest.mark.parametrize(
    ("message", "kind", "conditions", "names", "expected"),
    [
        # conditions decide only when the message names no class
        ("cannot do this now", "bail", ["self.state.is_paused()"], [], "invalid-state-transition"),
        ("cannot do this now", "bail", ["isPaused"], [], "invalid-state-transition"),
        ("cannot do this now", "bail", ["Err(e) if e.is_timeout()"], [], "timeout"),
        ("table not found", "bail", ["self.state.is_paused()"], [], "not-found"),
        ("cannot do this now", "bail", ["x > 3"], [], "operation-failed"),
        # "status" is a state in a check (`self.status`), an HTTP or exit status in a message
        (
            "cannot do this now",
            "bail",
            ["self.status != Status::Running"],
            [],
            "invalid-state-transition",
        ),
        (
            "http request returned an unsuccessful status code: {0}",
            "bail",
            [],
            [],
            "operation-failed",
        ),
        # a bare "token" is no parse error: an auth, security or jobserver token
        ("failed to acquire jobserver token", "bail", [], [], "operation-failed"),
        ("unexpected token `{}`", "bail", [], [], "parse-error"),
        # what a parser met where it wanted something else; "unexpected" alone names no
        # class: a peer's message, the code's own state (reading 111)
        ("unexpected closing delimiter `{}`", "bail", [], [], "parse-error"),
        ("unexpected end of input, expected identifier", "bail", [], [], "parse-error"),
        ("establish: unexpected message: {:?}", "bail", [], [], "operation-failed"),
        ("unexpected close of barrier aligner", "bail", [], [], "operation-failed"),
        ("unexpected symbolic link: {}", "bail", [], [], "operation-failed"),  # tikv's
        # a panic with a silent message stays a broken invariant, whatever led to it
        ("boom", "panic", ["self.state.is_paused()"], [], "internal-invariant"),
        # error codes, variants and constructors count like the message
        ("{}", "constructor", [], ["ErrorCode::PermissionDenied"], "permission-denied"),
        ("{}", "constructor", [], ["Status::not_found"], "not-found"),
        ("{0}", "error_attr", [], ["InvalidParameterValue"], "invalid-argument"),
        ("{0}", "error_attr", [], ["SQLSTATE_42601"], "operation-failed"),
        # conditions are code: their words name things (helix's terminal backend, its
        # grammar's `parser_path`); only a predicate's name says what was checked
        (
            "failed to create terminal backend",
            "context",
            ["TerminaBackend::new((&config.editor).into())"],
            [],
            "operation-failed",
        ),
        (
            "cannot do this now",
            "bail",
            ["needs_recompile(&library_path, &parser_path)"],
            [],
            "operation-failed",
        ),
        ("Command not provided", "bail", ["args.is_empty()"], [], "invalid-argument"),
        # a failed step: what the words after it name is what it was about, not how it
        # failed; its verb, the failure's own words, or a cause after it still decide
        ("Failed to check iceberg table exists: {}", "context", [], [], "operation-failed"),
        ("{}: failed to open read-only database", "bail", [], [], "operation-failed"),
        ("Failed to remove collection {name}: {err}", "bail", [], [], "operation-failed"),
        ("failed to open file", "bail", [], [], "io-error"),
        ("failed to find package with id: {}", "bail", [], [], "not-found"),
        ("failed to fetch meta info for source {}, timeout {:?}", "bail", [], [], "timeout"),
        ("Unable to copy across static files", "context", [], [], "io-error"),
        ("failed to acquire package cache lock", "bail", [], [], "concurrency-conflict"),
        # "conflict" is mostly of requirements or options, a "lock" mostly a lock file
        ("error acquiring cache lock: {e}", "bail", [], [], "concurrency-conflict"),
        ("Found conflicting Python requirements: {}", "bail", [], [], "operation-failed"),
        ("conflicts between `package.publish` fields", "bail", [], [], "operation-failed"),
        ("Found dependency `{id}` with no locked distribution", "bail", [], [], "operation-failed"),
        ("write conflict on key {}, please retry", "bail", [], [], "concurrency-conflict"),
        # "is not a valid X": a value refused, not a step that failed (fd, cargo, uv)
        (
            "'{}' is not a valid date or duration. See 'fd --help'.",
            "anyhow",
            [],
            [],
            "invalid-argument",
        ),
        ("{0} is not a valid wheel filename", "error_attr", [], [], "invalid-argument"),
        ("temp file path is not valid UTF-8", "bail", [], [], "parse-error"),
        # a file is what a message is about; reading, writing, saving one is how it failed
        (
            "Cannot specify `--package` when building from a file",
            "bail",
            [],
            [],
            "operation-failed",
        ),
        (
            "Multiple `pylock.toml` files specified: `{}` vs. `{}`",
            "bail",
            [],
            [],
            "operation-failed",
        ),
        ("Error saving file", "bail", [], [], "io-error"),
        ("creating destination file {}", "context", [], [], "io-error"),
        # a call that failed ran `status()`: a step, not a state read (tauri's npm helper);
        # a field read `.status` still is
        (
            "failed to run {self}",
            "context",
            ["self.cross_command().args(dependencies).status() was None/Err (with_context)"],
            [],
            "operation-failed",
        ),
        ("nope", "bail", ["self.status == Status::Stopped"], [], "invalid-state-transition"),
    ],
)
def test_classify_with_conditions_and_names(
    message: str, kind: str, conditions: list[str], names: list[str], expected: str
) -> None:
    assert classify(message, kind, conditions, names) == expected


@pytest.mark.parametrize(
    ("message", "kind", "conditions", "source", "hits", "reason_mentions"),
    [
        ("barrier is paused", "bail", [], "message", ("paused",), "'paused'"),
        (
            "nope",
            "bail",
            ["self.state.is_paused()"],
            "conditions",
            ("paused",),
            "conditions",
        ),
        ("anything", "unreachable", [], "kind", (), "macro"),
        ("boom", "panic", [], "panic", (), "panic"),
        ("nope", "bail", [], "fallback", (), "no keyword"),
    ],
)
def test_classification_says_why(
    message: str,
    kind: str,
    conditions: list[str],
    source: str,
    hits: tuple[str, ...],
    reason_mentions: str,
) -> None:
    explained = classify_explained(message, kind, conditions)
    assert explained.source == source
    assert explained.hits == hits
    assert reason_mentions in explained.reason()
    assert explained.slug in explained.reason()


@settings(max_examples=300, deadline=None)
@given(
    st.text(st.characters(codec="utf-8"), max_size=120),
    st.sampled_from(["bail", "panic", "expect", "unreachable", "todo", "constructor", "?"]),
    st.lists(st.text(st.characters(codec="utf-8"), max_size=40), max_size=3),
)
def test_classify_always_answers_a_taxonomy_slug(
    message: str, kind: str, conditions: list[str]
) -> None:
    explained = classify_explained(message, kind, conditions)
    assert explained.slug in load_taxonomy()
    assert explained.slug == classify(message, kind, conditions)
    assert explained.reason()


@pytest.mark.parametrize(
    ("message", "slug"),
    [
        ("no upload token found, please run `cargo login`", "not-found"),
        ("No iceberg sink name found for table {}", "not-found"),
        ("{key:?} could not be found in the environment snapshot", "not-found"),
        ("data type not found", "not-found"),
        # `found` in "found X, expected Y" names what was there: nothing is missing
        ("found {fence_length} `{FENCE_CHAR}` in rust frontmatter, expected at least 3", None),
        ("expected exactly one mview fragment for table {}, found {}", None),
        ("found duplicate version of package `{} v{}` vendored from two sources", None),
    ],
)
def test_found_names_a_missing_thing_only_when_the_message_says_it_is_not(
    message: str, slug: str | None
) -> None:
    found = classify(message, "bail", [], [])
    assert found == slug if slug is not None else found != "not-found"


@pytest.mark.parametrize(
    ("message", "slug"),
    [
        # a topic word alone does not choose its class
        ("wait version not set", "operation-failed"),
        ("no metadata for path `{}`", "operation-failed"),
        # a file-system verb on it does
        ("failed to load metadata for path `{}`", "io-error"),
        ("Invalid warehouse path: {}", "invalid-argument"),
        ("Cannot move columns", "operation-failed"),
        # ... but adds to a class another keyword chose
        ("the lock file version is incompatible with this Cargo", "version-incompatibility"),
        ("failed to read directory `{}`", "io-error"),
        ("column count mismatch: expected {}, got {}", "schema-mismatch"),
    ],
)
def test_a_topic_word_adds_to_a_class_but_never_chooses_it_alone(message: str, slug: str) -> None:
    assert classify(message, "bail", [], []) == slug


def test_topics_must_be_keywords_of_their_class() -> None:
    text = (
        '[[class]]\nslug = "operation-failed"\ntitle = "x"\ndescription = "x"\n'
        'keywords = ["failed"]\ntopics = ["path"]\n'
    )
    with pytest.raises(ValueError, match="topics must be some of its keywords"):
        parse_taxonomy(text)


@pytest.mark.parametrize(
    ("message", "names", "expected"),
    [
        # risingwave files these under `ErrorCode::InvalidInputSyntax`; the message says more
        (
            'column "{c}" of table "{t}" already exists',
            ["ErrorCode::InvalidInputSyntax"],
            "already-exists",
        ),
        (
            "aggregate functions are not allowed in {}",
            ["ErrorCode::InvalidInputSyntax"],
            "unsupported-operation",
        ),
        ("table version is stale", ["ErrorCode::PermissionDenied"], "concurrency-conflict"),
        # single words are as often about something else: the name stays (nushell's escape)
        ("invalid hex escape, expected exactly 2 hex digits", ["ParseError"], "parse-error"),
        (
            "incorrect length (got {}, expected {})",
            ["ShapeMismatch", "SchemaMismatch"],
            "schema-mismatch",
        ),
    ],
)
def test_the_messages_own_phrase_outweighs_the_errors_name(
    message: str, names: list[str], expected: str
) -> None:
    assert classify(message, "constructor", names=names) == expected


@pytest.mark.parametrize(
    ("message", "names", "expected"),
    [
        (
            "ALTER FRAGMENT ... SET rate limit supports exactly one fragment id",
            ["ErrorCode::InvalidInputSyntax"],
            "parse-error",
        ),
        ("the batch has too many rows: {n}", ["InvalidArgument"], "invalid-argument"),
        # a name that says nothing of the input leaves the message's case
        ("too many open requests", ["ServiceError"], "resource-exhausted"),
    ],
)
def test_a_name_that_says_the_input_was_refused_outweighs_a_case_the_run_met(
    message: str, names: list[str], expected: str
) -> None:
    """risingwave's `ErrorCode::InvalidInputSyntax("ALTER FRAGMENT .. SET rate limit
    supports exactly one fragment id")` read "Resource exhausted", then "retry" (reading
    146): the rate limit is what the statement sets, nothing ran out."""
    assert classify(message, "constructor", names=names) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("failed to verify the checksum of `{}`", "data-corruption"),  # cargo
        ("failed to validate checksum of {}", "data-corruption"),
        # a check that could not be made is still a step that failed
        ("Failed to check iceberg table exists: {}", "operation-failed"),
    ],
)
def test_a_failed_verification_is_what_it_checked(message: str, expected: str) -> None:
    assert classify(message, "bail") == expected


def test_a_checksum_in_any_form_is_an_integrity_check() -> None:
    """Plural and suffixed: uv's ZIP reader ("conflicting checksums", `crc32`)."""
    message = "ZIP file uses conflicting checksums (got {local_crc32}, expected {crc32})"
    assert classify(message, "bail") == "data-corruption"


def test_a_class_is_a_guess_only_where_single_words_of_the_message_chose_it() -> None:
    from pipeline.analyze.taxonomy import classify_explained

    guess = classify_explained("exceeded maximum scrolling history ({lines})", "bail")
    assert (guess.slug, guess.source, guess.guessed) == ("resource-exhausted", "message", True)
    # a phrase of more than one word, or the error's own name, says it outright
    assert not classify_explained("request timed out", "bail").guessed
    named = classify_explained("cannot touch {}", "constructor", names=["PermissionDenied"])
    assert (named.slug, named.source, named.guessed) == ("permission-denied", "name", False)


def test_a_name_that_ends_in_an_acronym_is_one_word() -> None:
    """alacritty's "OpenGL error requesting {description}: invalid enum" had been an I/O
    error by the word "open" of "OpenGL" (reading 108's recheck)."""
    from pipeline.analyze.taxonomy import classify_explained

    found = classify_explained("OpenGL error requesting {description}", "constructor")
    assert "open" not in found.hits and found.slug != "io-error"
    assert classify("PostgreSQL connection refused", "bail") == "connection-failure"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # fd (reading 117): the hints after the blank line are no words of the failure
        (
            "{}\n\nNote: You can search for literal substrings with '--fixed-strings' or "
            "literal strings with '--exact' options (instead of a regular expression).",
            "operation-failed",
        ),
        (
            "The search pattern '{pattern}' contains a path-separation character and will not "
            "lead to any search results.\n\nIf you want your pattern to match the full file "
            "path, use: fd --full-path '{pattern}'",
            "operation-failed",
        ),
        # the failure's own paragraph still decides
        ("permission denied for '{path}'\n\nRun it as the owner of the file.", "permission-denied"),
    ],
)
def test_a_messages_hints_after_a_blank_line_do_not_class_it(message: str, expected: str) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # fd: an owner string and a full path are no permission nor a resource that ran out
        ("more than one ':' present in owner string '{}'", "operation-failed"),
        ("cannot match the full path of '{}'", "operation-failed"),
        ("must be the owner of table {}", "permission-denied"),
        ("the send queue is full", "resource-exhausted"),
        ("channel full, dropping the event", "resource-exhausted"),
    ],
)
def test_owner_and_full_class_only_in_their_phrases(message: str, expected: str) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a mismatch is a schema's only beside what a schema holds (nushell's "Pipeline
        # mismatch." is none); of a hash, a version or a dtype it is theirs (reading 121)
        ("Pipeline mismatch.", "operation-failed"),
        ("column mismatch in {}", "schema-mismatch"),
        ("hash mismatch for {}", "data-corruption"),
        ("version mismatch: {} vs {}", "version-incompatibility"),
        ("dtype mismatch: {} vs {}", "type-mismatch"),
        # "newer" and "older" name a version's age only beside a version
        ("file {} is newer than segment {}", "operation-failed"),
        ("server version is newer than the client", "version-incompatibility"),
        # "numeric" is no bound; "remote" alone is no connection; British spelling
        ("Task uid is invalid. It should only contain numeric characters.", "invalid-argument"),
        ("remote rejected the push", "operation-failed"),
        ("failed to connect to remote {}", "connection-failure"),
        ("Azure returned 401 Unauthorised", "unauthenticated"),
    ],
)
def test_words_that_name_a_class_only_in_their_sense(message: str, expected: str) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # input left out: an invalid argument (362 of the 436 classes this moved over 32
        # repositories)
        ("Missing command", "invalid-argument"),
        ("missing field: condition", "invalid-argument"),
        ("HalfPageScrollUpByPaneId missing pane_id", "invalid-argument"),
        ("missing `port` in postgres-cdc properties", "configuration-error"),
        # an object a lookup did not find
        ("snapshot file is missing", "not-found"),
        ("binary {} is missing from PATH", "not-found"),
        # a file's name in backticks is still a file (uv's virtual environment)
        ("Broken virtual environment `{0}`: `pyvenv.cfg` is missing", "not-found"),
        ("`self.config` is missing", "invalid-argument"),
    ],
)
def test_missing_is_a_lookups_only_beside_what_a_lookup_finds(message: str, expected: str) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # cargo: cut to a blank, the flag's name broke the phrase, and "specified" read as
        # a lookup that found nothing (stop 58's review)
        ("unknown `-Z` flag specified: {}", "invalid-argument"),
        ("unknown `{}` option", "invalid-argument"),
        ("unknown --format value {}", "invalid-argument"),
    ],
)
def test_a_name_of_code_in_backticks_stays_a_word_of_its_phrase(
    message: str, expected: str
) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        # lemmy's `.context(..)`: "retry" had made it a concurrency conflict (reading 128)
        ("impossible: if fail count set last retry also set", "context"),
        ("internal error: 'where' declaration not found", "bail"),  # nushell: was not found
        ("BUG: paused stream should not yield", "bail"),  # risingwave: was a state transition
        ("unreachable: IO sink node state is 'Finished'", "bail"),
        # neon's page service: was Operation failed (reading 262)
        ("implementation error: split pgb into reader and writer", "context"),
    ],
)
def test_a_message_that_opens_with_the_authors_verdict_is_a_broken_invariant(
    message: str, kind: str
) -> None:
    assert classify(message, kind) == "internal-invariant"


def test_an_invariant_word_inside_the_message_is_only_a_keyword() -> None:
    # not an opening verdict ("Impossible to .."): the rule leaves it to the keywords
    assert classify("Impossible to retry the request", "bail") != "internal-invariant"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("JSON serialization failed", "operation-failed"),  # nushell's (reading 148)
        ("JSON parse failed", "parse-error"),
        ("invalid JSON: {}", "parse-error"),
        ("could not deserialize yaml", "parse-error"),
        # what a parse found unbalanced, not anything that is (neon's quoted string)
        ("unbalanced quoted string", "parse-error"),
        ("shard placement is unbalanced", "operation-failed"),
    ],
)
def test_a_format_s_name_says_what_was_read_or_written_not_that_reading_failed(
    message: str, expected: str
) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # tikv's test cluster gave up waiting (reading 150); the placeholder's value is not read
        ("region {:?} has not been split after {}ms", "timeout"),
        ("region {} is not removed after 60s.", "timeout"),
        ("Timed out waiting for vCPU thread '{name}' to exit", "timeout"),
        # a setting named "timeout", or a count of tries, is no wait that gave up
        ("slow-timeout present in default profile", "internal-invariant"),
        ("retry {} times after failure", "internal-invariant"),
    ],
)
def test_a_panic_that_says_a_wait_gave_up_is_a_timeout(message: str, expected: str) -> None:
    assert classify(message, "panic") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a context that opens with what the code was doing names the step that failed:
        # its nouns say what it was about (neon's, reading 210)
        ("serializing effective config", "operation-failed"),
        ("querying LFC state", "operation-failed"),
        ("loading LFC state into postgres", "operation-failed"),
        # its verb still decides where it names a class, as "failed to .." does
        ("parsing config", "parse-error"),
        ("reading config file {path}", "io-error"),
        # a word that only ends so is no step
        ("missing config file", "not-found"),
        ("invalid record", "invalid-argument"),
    ],
)
def test_a_context_that_says_what_was_being_done_is_a_step(message: str, expected: str) -> None:
    assert classify(message, "context") == expected


def test_a_failed_process_call_s_tip_is_what_that_call_needs() -> None:
    """cargo's `child.wait().context("credential process never started")`, an I/O error,
    got the file tips ("what it reads exists"), none of which makes a wait fail (reading
    302's recheck); a `spawn` needs the program it starts."""
    waited = explained(
        "fn run(mut child: Child) -> anyhow::Result<()> {\n"
        '    child.wait().context("credential process never started")?;\n'
        "    Ok(())\n}\n"
    )
    assert waited.backgroundTag == "io-error"
    assert any(t.startswith("Nothing checked before the run prevents it: waiting for")
               for t in waited.preventionTips)  # fmt: skip
    started = explained(
        "fn start(path: &str) -> anyhow::Result<Child> {\n"
        '    let child = Command::new(path).arg("-v").spawn().context("process never started")?;\n'
        "    Ok(child)\n}\n"
    )
    assert any("the program it starts is installed" in t for t in started.preventionTips)


def test_a_sentence_that_says_the_program_stops_chooses_no_class() -> None:
    """bat's "IO circle detected. The input from stdin is also an output. Aborting to
    prevent infinite loop." read "Cancelled or shut down" by "aborting" (reading 300): the
    program's reaction is no failure of its own; a message that opens so still counts."""
    circle = (
        "IO circle detected. The input from stdin is also an output. Aborting to prevent "
        "infinite loop."
    )
    assert classify(circle, "bail") != "cancelled"
    assert classify("Aborted by the user", "bail") == "cancelled"
    assert classify("Connection refused. Giving up.", "bail") == "connection-failure"


def test_a_home_directory_not_found_is_the_environment_s() -> None:
    """bat's `BatProjectDirs::new().expect("Could not get home directory")` read "I/O error"
    by "get .. directory" (reading 300): the environment names no home directory (`HOME`
    unset). Reading a file there is still an I/O step."""
    assert classify_step("Could not get home directory") == "configuration-error"
    assert classify("unable to find the user's home directory", "bail") == "configuration-error"
    assert classify("failed to read the config in the home directory", "bail") == "io-error"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a password judged: the caller could not prove who it is
        ("Username and password does not match, username: {}", "unauthenticated"),
        ("The password did not verify", "unauthenticated"),
        ("Password is needed for authentication but it was not provided", "unauthenticated"),
        ("metadata in jwt does not match with metadata declared with user", "unauthenticated"),
        ("invalid password", "unauthenticated"),
        # a password named as data, an argument or a setting: no login failed (surrealdb's
        # "Failed to hash password" had said "renew the credentials", reading 322)
        ("Failed to hash password: {}", "operation-failed"),
        ("Invalid password hash: {}", "invalid-argument"),
        ("Function 'crypto::bcrypt::compare' expects a string password, got: {}", "type-mismatch"),
        ("missing `password` in CDC properties", "configuration-error"),
        ("NATS connect mode `credential` requires both `nkey` and `jwt`", "invalid-argument"),
    ],
)
def test_a_password_is_unauthenticated_only_where_the_message_judges_it(
    message: str, expected: str
) -> None:
    assert classify(message, "bail") == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a lexer's token and a parser's precedence: the query's syntax (reading 322)
        ("Invalid token `{}`", "parse-error"),
        ("Invalid token, found invalid character `{char}` after number token", "parse-error"),
        ("Chaining range operators has no specified associativity", "parse-error"),
        # a token of a login stays the caller's credentials
        ("Invalid token", "unauthenticated"),
        ("Tenant token expired. Was valid up to `{exp}` and we're now `{now}`.", "unauthenticated"),
    ],
)
def test_a_token_of_a_lexer_is_syntax_and_a_token_of_a_login_is_not(
    message: str, expected: str
) -> None:
    assert classify(message, "bail") == expected
