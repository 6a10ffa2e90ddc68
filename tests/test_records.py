"""From a site to a record (SPEC 4): identity, slug, link, error class, type and severity."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pipeline.analyze import SiteContext
from pipeline.analyze.static import explain
from pipeline.core.model import Record, TypeAlias
from pipeline.dataset.records import build_record, github_url, relocated, slugify
from pipeline.languages.rust.formats import message_pattern
from pipeline.languages.rust.sites import find_sites, result_import
from pipeline.scan.collect import build_contexts
from pipeline.scan.context import AliasTable, record_id
from pipeline.scan.pool import RepoScan

REPO = "acme/widgets"
SHA = "0123456789abcdef0123456789abcdef01234567"
# The seeds' two JSON records (002 and 004), copied into the repository.
SEEDS = Path(__file__).parent / "golden" / "seed_records"
SEED_IDS = {"002": "f16c5768bcd8aade", "004": "a71b6a9059b622d5"}


def contexts(files: dict[str, str]) -> list[SiteContext]:
    """Contexts of every site of `files`, resolved across them as one repository."""
    scans = {path: find_sites(path, text.encode()) for path, text in files.items()}
    return build_contexts(REPO, SHA, RepoScan(scans=scans))


def one(files: dict[str, str], message: str) -> SiteContext:
    found = [c for c in contexts(files) if c.site.message == message]
    assert len(found) == 1, [c.site.message for c in contexts(files)]
    return found[0]


def seed(prefix: str) -> dict[str, object]:
    path = SEEDS / f"{SEED_IDS[prefix]}.json"
    record: dict[str, object] = json.loads(path.read_text("utf-8"))["record"]
    return record


# --- message, slug, link ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "slug"),
    [
        ("should not pause when having snapshot backfill job {job_id}",
         "should-not-pause-when-having-snapshot-backfill-job"),
        ("Cannot alter the job {} because its creating backfill contains a scan type",
         "cannot-alter-the-job-because-its-creating-backf"),
        ("  --weird--  ", "weird"),
        ("Ünïcode: {x:?}!", "n-code-x"),  # ASCII alphanumerics only: a URL-safe slug
    ],
)  # fmt: skip
def test_slug(message: str, slug: str) -> None:
    assert slugify(message) == slug


@pytest.mark.parametrize("prefix", ["002", "004"])
def test_seed_slug_pattern_and_link_are_reproduced(prefix: str) -> None:
    record = seed(prefix)
    message = str(record["errorMessage"])
    assert slugify(message) == record["slug"]
    assert message_pattern(message) == record["messagePattern"]
    url = github_url(
        str(record["repo"]),
        str(record["analyzedSha"]),
        str(record["filePath"]),
        int(str(record["sourceCodeStart"])),
        int(str(record["sourceCodeEnd"])),
    )
    assert url == record["githubUrl"]


def test_record_has_the_seed_key_order_and_a_consistent_window() -> None:
    source = "".join(f"// {n}\n" for n in range(1, 30)) + 'fn f() { bail!("deep {x}"); }\n'
    context = one({"src/deep.rs": source}, "deep {x}")
    record = build_record(
        context, explain(context), "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"
    )
    assert list(record.model_dump()) == list(seed("002"))
    assert (record.lineNumber, record.sourceCodeStart, record.sourceCodeEnd) == (30, 12, 30)
    assert record.githubUrl == f"https://github.com/{REPO}/blob/{SHA}/src/deep.rs#L12-L30"
    assert re.fullmatch(record.messagePattern, "deep 42")
    assert record.slug == "deep-x"
    Record.model_validate(record.model_dump())


# --- identity -----------------------------------------------------------------------------------


LIB = 'fn f(x: u32) -> anyhow::Result<()> {\n    if x > 1 {\n        bail!("x is {x}");\n    }\n    bail!("x is {x}");\n}\n'


def test_id_is_stable_under_a_line_shift() -> None:
    before = contexts({"src/lib.rs": LIB})
    after = contexts({"src/lib.rs": "// a\n// new\n// header\n" + LIB})
    assert [c.site.line for c in after] == [c.site.line + 3 for c in before]
    assert [c.record_id for c in after] == [c.record_id for c in before]


def test_same_message_twice_in_one_file_gets_distinct_ids() -> None:
    first, second = contexts({"src/lib.rs": LIB})
    assert first.message_pattern == second.message_pattern
    assert first.record_id != second.record_id
    assert first.record_id == record_id(REPO, "src/lib.rs", first.message_pattern, 0)
    assert second.record_id == record_id(REPO, "src/lib.rs", first.message_pattern, 1)


def test_id_depends_on_repo_and_path() -> None:
    ids = {
        record_id("a/b", "src/x.rs", "p", 0),
        record_id("a/c", "src/x.rs", "p", 0),
        record_id("a/b", "src/y.rs", "p", 0),
    }
    assert len(ids) == 3
    assert all(re.fullmatch(r"[0-9a-f]{16}", i) for i in ids)


def test_content_hash_ignores_a_line_shift_but_not_an_edit() -> None:
    filler = "// filler\n" * 40
    base = contexts({"src/lib.rs": filler + LIB})[0]
    shifted = contexts({"src/lib.rs": "// filler\n" * 5 + filler + LIB})[0]
    edited = contexts({"src/lib.rs": filler + LIB.replace("x > 1", "x > 2")})[0]
    assert shifted.site.line == base.site.line + 5
    assert shifted.content_hash == base.content_hash
    assert edited.content_hash != base.content_hash


# --- errorClass ---------------------------------------------------------------------------------

ERROR_RS = "pub type MetaResult<T> = std::result::Result<T, MetaError>;\n"


@pytest.mark.parametrize(
    ("files", "message", "error_class"),
    [
        pytest.param(
            {"src/meta/src/error.rs": ERROR_RS,
             "src/meta/src/barrier/rpc.rs": 'fn f() -> MetaResult<()> { bail!("paused {x}") }\n'},
            "paused {x}", "MetaError", id="alias-in-another-file-of-the-crate",
        ),
        pytest.param(
            {"src/lib.rs": 'fn f() -> anyhow::Result<u32> { bail!("no value") }\n'},
            "no value", "anyhow::Error", id="anyhow::Result",
        ),
        pytest.param(
            {"src/lib.rs": 'fn f() -> Result<u32, MyError> { Err(MyError::Bad(format!("bad {x}"))) }\n'},
            "bad {x}", "MyError", id="Result<T, MyError>",
        ),
        pytest.param(
            {"src/lib.rs": 'use anyhow::Result;\nfn f() -> Result<()> { ensure!(ok, "not ok") }\n'},
            "not ok", "anyhow::Error", id="use-anyhow-Result-then-bare-Result",
        ),
        pytest.param(
            {"src/lib.rs": 'fn f() { let e = anyhow!("free standing"); }\n'},
            "free standing", "anyhow::Error", id="no-return-type-anyhow-macro",
        ),
        pytest.param(
            {"src/lib.rs": 'fn f() -> MetaResult<()> { panic!("boom") }\n', "src/error.rs": ERROR_RS},
            "boom", None, id="panic-has-no-class",
        ),
        pytest.param(
            {"src/lib.rs": 'fn f() -> MetaResult<()> { x.expect("present"); Ok(()) }\n',
             "src/error.rs": ERROR_RS},
            "present", None, id="expect-has-no-class",
        ),
        pytest.param(
            {"src/lib.rs": '#[derive(Error)]\nenum SinkError {\n    #[error("sink closed")]\n    Closed,\n}\n'},
            "sink closed", "SinkError", id="error-attr-is-its-enum",
        ),
        pytest.param(
            {"src/lib.rs": 'fn f() -> Result<(), Status> { Err(Status::not_found("no such row")) }\n'},
            "no such row", "Status", id="Result<(), Status>",
        ),
        pytest.param(
            {"src/lib.rs": 'fn f() -> Result<Box<dyn Fn(u8) -> u8>, PlanError> {\n'
                           '    bail!("no plan for {x}")\n}\n'},
            "no plan for {x}", "PlanError", id="an-arrow-inside-the-ok-type-closes-nothing",
        ),
        pytest.param(
            {"src/lib.rs": 'impl TryFrom<Raw> for Point {\n    type Error = tonic::Status;\n'
                           '    fn try_from(r: Raw) -> Result<Self, Self::Error> {\n'
                           '        Err(Status::invalid_argument("no vector"))\n    }\n}\n'},
            "no vector", "tonic::Status", id="a-trait-impl-s-Self::Error-is-its-type-Error",
        ),
        pytest.param(
            {"src/lib.rs": 'impl FromStr for Mode {\n    type Err = anyhow::Error;\n'
                           '    fn from_str(s: &str) -> Result<Self, <Self as FromStr>::Err> {\n'
                           '        bail!("bad mode")\n    }\n}\n'
                           'impl Parser for P {\n    type Error = ParseError;\n'
                           '    fn parse(&self) -> Result<u8, Self::Err> { bail!("bad byte") }\n}\n'},
            "bad byte", "anyhow::Error", id="a-Self::name-the-impl-does-not-set-falls-back-to-the-macro-s",
        ),
        pytest.param(
            {"src/lib.rs": 'trait Load {\n    type Error;\n'
                           '    fn load(&self) -> Result<u8, Self::Error> {\n'
                           '        Err(Status::not_found("nothing loaded"))\n    }\n}\n'},
            "nothing loaded", "Status", id="a-trait-s-default-method-names-its-constructor",
        ),
        pytest.param(
            {"src/lib.rs": "impl Reader {\n"
                           "    #[try_stream(boxed, ok = Vec<Message>, error = crate::error::ConnectorError)]\n"
                           "    async fn into_stream(mut self) {\n"
                           '        let x = self.next().await.context("no next shard record")?;\n'
                           "        yield x;\n    }\n}\n"},
            "no next shard record", "crate::error::ConnectorError", id="a-try_stream-s-items-error",
        ),
        pytest.param(
            {"src/lib.rs": "impl From<ParseError> for ShellError {\n"
                           "    fn from(error: ParseError) -> Self {\n"
                           '        ShellError::Generic(GenericError::new("too many documents"))\n'
                           "    }\n}\n"},
            "too many documents", "ShellError", id="a-From-impl-s-error-is-its-target",
        ),
        pytest.param(
            {"src/lib.rs": 'use eyre::{bail, Result};\nfn f() -> Result<()> { bail!("no eyre") }\n'},
            "no eyre", "eyre::Report", id="use-eyre-Result-then-bare-Result",
        ),
        pytest.param(
            {"src/lib.rs": 'use color_eyre::{eyre::Context, Result};\n'
                           'fn f() -> Result<u8> { read().context("cannot read the key") }\n'},
            "cannot read the key", "eyre::Report", id="use-color_eyre-Result-then-bare-Result",
        ),
        pytest.param(
            {"src/lib.rs": 'use eyre::{Result as EyreResult};\n'
                           'fn f() -> Result<u8, MyError> { bail!("not eyre\'s") }\n'},
            "not eyre's", "MyError", id="a-renamed-eyre-Result-leaves-Result-alone",
        ),
        # a type parameter's error is each caller's to choose (`serde_json::Error` for JSON):
        # no type of the repository's (readings 105, 106)
        pytest.param(
            {"src/lib.rs": "impl<'de> Deserialize<'de> for Tokens {\n"
                           "    fn deserialize<D>(d: D) -> Result<Self, D::Error>\n"
                           "    where D: Deserializer<'de> {\n"
                           '        Err(D::Error::custom("Length is not divisible by 5"))\n'
                           "    }\n}\n"},
            "Length is not divisible by 5", None, id="a-fn-type-parameter-s-error-is-none",
        ),
        pytest.param(
            {"src/lib.rs": "impl<'de, E: de::Error> Visitor<'de> for V<E> {\n"
                           "    fn visit_str(self, v: &str) -> Result<Mode, E> {\n"
                           '        Err(E::custom("unknown mode"))\n    }\n}\n'},
            "unknown mode", None, id="an-impl-type-parameter-is-none",
        ),
        pytest.param(
            {"src/lib.rs": "fn next<A: MapAccess<'de>>(a: A) -> Result<u8, <A as MapAccess<'de>>::Error> {\n"
                           '    Err(A::Error::custom("no key"))\n}\n'
                           "fn keep<D>(d: D) -> Result<u8, DecodeError> {\n"
                           '    Err(DecodeError::new("no byte"))\n}\n'},
            "no key", None, id="a-qualified-type-parameter-is-none",
        ),
        pytest.param(
            {"src/lib.rs": "fn next<A: MapAccess<'de>>(a: A) -> Result<u8, <A as MapAccess<'de>>::Error> {\n"
                           '    Err(A::Error::custom("no key"))\n}\n'
                           "fn keep<D>(d: D) -> Result<u8, DecodeError> {\n"
                           '    Err(DecodeError::new("no byte"))\n}\n'},
            "no byte", "DecodeError", id="a-fn-with-type-parameters-keeps-its-own-error",
        ),
        # std's `io::Result` is no alias of the repository's, whatever its crate calls
        # `Result` (yazi's `encode(..) -> io::Result<Vec<u8>>` read `ParseError`, reading 107)
        pytest.param(
            {"src/error.rs": "pub type Result<T> = std::result::Result<T, ParseError>;\n",
             "src/stamp.rs": "fn encode(url: Url) -> io::Result<Vec<u8>> {\n"
                             '    url.name().ok_or_else(|| io::Error::other("URL has no filename"))?;\n'
                             "}\n"
                             "fn write(url: Url) -> fmt::Result {\n"
                             '    Err(Other::new("cannot write the stamp"))\n}\n'},
            "URL has no filename", "std::io::Error", id="io-Result-is-std-s",
        ),
        pytest.param(
            {"src/error.rs": "pub type Result<T> = std::result::Result<T, ParseError>;\n",
             "src/lua.rs": "fn sub(lua: &Lua) -> mlua::Result<Function> {\n"
                           '    Err(Other::new("`sub()` called twice"))\n}\n'
                           "fn own() -> crate::error::Result<u8> {\n"
                           '    Err(Other::new("own result"))\n}\n'},
            "`sub()` called twice", "Other", id="another-crate-s-Result-is-not-the-repository-s",
        ),
        pytest.param(
            {"src/error.rs": "pub type Result<T> = std::result::Result<T, ParseError>;\n",
             "src/lua.rs": "fn own() -> crate::error::Result<u8> {\n"
                           '    Err(Other::new("own result"))\n}\n'},
            "own result", "ParseError", id="the-crate-s-own-Result-by-path",
        ),
        # std's `io::Error` built where no return type names the error (nushell's "fmt
        # error" read `Error`, reading 133's family)
        pytest.param(
            {"src/fmt.rs": "fn write_all(w: W) {\n"
                           '    let e = io::Error::other("fmt error");\n    send(e);\n}\n'},
            "fmt error", "std::io::Error", id="io-Error-constructors-are-std-s",
        ),
        pytest.param(
            {"src/fmt.rs": "fn other(w: W) {\n"
                           '    let e = std::io::Error::other("no sink");\n'
                           "    send(e);\n}\n"},
            "no sink", "std::io::Error", id="std-io-Error-other",
        ),
        pytest.param(
            {"src/fmt.rs": "fn own(w: W) {\n"
                           '    let e = store::Error::other("own other");\n    send(e);\n}\n'},
            "own other", "Error", id="another-Error-s-constructor-keeps-its-name",
        ),
        # a lifetime is no type of the `Result`: just's `RunResult<'src, T>` is an alias whose
        # error is its declaration's, not the tuple it holds (reading 316's recheck)
        pytest.param(
            {"src/error.rs": "pub type RunResult<'a, T = ()> = Result<T, Error<'a>>;\n",
             "src/eval.rs": "fn parameters<'a>(n: u8) -> RunResult<'a, (Scope<'a>, Vec<String>)> {\n"
                            '    Err(Other::new("arguments do not match parameter count"))\n}\n'},
            "arguments do not match parameter count", "Error<'a>", id="a-lifetime-is-no-type",
        ),
    ],
)  # fmt: skip
def test_error_class(files: dict[str, str], message: str, error_class: str | None) -> None:
    assert one(files, message).error_class == error_class


def test_aliases_resolve_to_the_nearest_crate() -> None:
    table = AliasTable.build(
        [
            ("src/meta/src/error.rs", _alias("XResult", "MetaError")),
            ("src/sink/src/error.rs", _alias("XResult", "SinkError")),
        ]
    )
    assert table.resolve("XResult", "src/meta/src/a/b.rs") == "MetaError"
    assert table.resolve("XResult", "src/sink/src/c.rs") == "SinkError"
    assert table.resolve("XResult", "src/other/d.rs") is None  # ambiguous: say nothing
    assert table.resolve("YResult", "src/meta/src/a/b.rs") is None


def test_a_result_of_a_crate_whose_alias_the_table_lacks_is_none_of_its_aliases() -> None:
    """mdBook's only `Result` alias is xtask's private `Box<dyn Error>` one; its examples
    `use mdbook_preprocessor::errors::Result` (a re-export of anyhow's); risingwave's
    `src/common` is the crate `risingwave_common`, its alias named by the import's tail."""
    table = AliasTable.build(
        [
            ("crates/xtask/src/main.rs", _alias("Result", "Box<dyn Error>")),
            ("src/common/src/error.rs", _alias("Result", "RwError")),
            ("src/rpc_client/src/error.rs", _alias("Result", "RpcError")),
        ],
        result_imports={
            "examples/nop-preprocessor.rs": "mdbook_preprocessor::errors",
            "src/meta/src/lib.rs": "risingwave_common::error",
            "src/rpc_client/src/lib.rs": "error",
        },
    )
    assert table.resolve("Result", "examples/nop-preprocessor.rs") is None
    assert table.resolve("Result", "src/meta/src/lib.rs") == "RwError"
    assert table.resolve("Result", "src/rpc_client/src/lib.rs") == "RpcError"


def test_a_bare_result_is_the_one_its_file_imports() -> None:
    """lance-index's files `use lance_core::{Error, Result}` or `use crate::{Error, Result}`
    (its `lib.rs`: `pub use lance_core::{Error, Result}`), where the crate's only `Result`
    alias is its bloom filter's `SbbfError` (reading 232: 89 records said `SbbfError`)."""
    own = "rust/lance-index/src/scalar/bloomfilter/sbbf.rs"
    table = AliasTable.build(
        [
            ("rust/lance-core/src/error.rs", _alias("Result", "Error")),
            (own, _alias("Result", "SbbfError")),
            ("src/sink/src/encoder/avro.rs", _alias("Result", "FieldEncodeError")),
            ("src/sink/src/lib.rs", _alias("Result", "SinkError")),
        ],
        result_imports={
            "rust/lance-index/src/scalar/tokenizer.rs": "lance_core",
            "rust/lance-index/src/lib.rs": "lance_core",
            "rust/lance-index/src/vector/kmeans.rs": "crate",
            "rust/lance-index/src/pb.rs": "std::io",
            "rust/lance-index/src/other.rs": "mlua",
            # risingwave's `encoder/mod.rs` names its crate's module (`use crate::sink::Result;`),
            # whose alias is not the sibling `avro.rs`'s private one
            "src/sink/src/encoder/mod.rs": "crate",
        },
    )

    assert table.resolve("Result", "rust/lance-index/src/scalar/tokenizer.rs") == "Error"
    assert table.resolve("Result", "rust/lance-index/src/vector/kmeans.rs") == "Error"
    assert table.resolve("Result", "rust/lance-index/src/pb.rs") == "std::io::Error"
    assert table.resolve("Result", own) == "SbbfError"  # its own
    # no crate of the repository named `mlua`: its alias, not the crate's only one (mdBook's
    # examples `use mdbook_preprocessor::errors::Result`, anyhow's, read xtask's private
    # `Box<dyn Error>` alias, the repository's only one: reading 309)
    assert table.resolve("Result", "rust/lance-index/src/other.rs") is None
    assert table.resolve("Result", "src/sink/src/encoder/mod.rs") == "SinkError"


@pytest.mark.parametrize(
    ("text", "module"),
    [
        (b"use lance_core::{Error, Result};\n", "lance_core"),
        (b"pub(crate) use crate::error::{Error, Result};\n", "crate::error"),
        (b"use std::io::Result;\n", "std::io"),
        (b"use a::{Result as R, X};\n", None),  # renamed: a bare `Result` is another
        # a fn's own `use` (sccache's `util.rs`, `std::fmt::Result` in one `Display`)
        (b"fn f() {\n    use std::fmt::{Result, Write};\n}\n", None),
    ],
)
def test_the_module_a_file_takes_result_from(text: bytes, module: str | None) -> None:
    assert result_import(text) == module


def _alias(name: str, error: str):  # type: ignore[no-untyped-def]
    from pipeline.core.model import TypeAlias

    return TypeAlias(name, error)


# --- errorType, severity ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "message", "error_type", "severity", "code"),
    [
        ('fn f() { panic!("state broke") }', "state broke", "panic", "critical", None),
        ('fn f() { unreachable!("never") }', "never", "panic", "critical", None),
        ('fn f() { x.expect("must hold"); }', "must hold", "panic", "critical", None),
        ('fn f() { assert!(ok, "must be ok") }', "must be ok", "panic", "critical", None),
        ('fn f() -> R { bail!("disk write failed") }', "disk write failed", "exception", "error", None),
        ('fn f() -> R { bail!("feature X is not supported") }', "feature X is not supported",
         "exception", "warning", None),
        ('fn f() -> R { Err(Status::invalid_argument("bad page size")) }', "bad page size",
         "error_code", "warning", "INVALID_ARGUMENT"),
        ('fn f() -> R { Err(ErrorCode::InternalError("broken".to_string()).into()) }', "broken",
         "error_code", "error", "InternalError"),
        ('fn f() -> R { bail!("E0123: bad token") }', "E0123: bad token", "error_code", "error",
         "E0123"),
    ],
)  # fmt: skip
def test_error_type_and_severity(
    source: str, message: str, error_type: str, severity: str, code: str | None
) -> None:
    context = one({"src/lib.rs": source + "\n"}, message)
    assert (context.error_type, context.severity, context.site.error_code) == (
        error_type,
        severity,
        code,
    )


ALIASES = AliasTable.build(
    [
        ("src/frontend/src/error.rs", TypeAlias("Result", "RwError")),
        ("src/frontend/src/webhook/utils.rs", TypeAlias("Result", "WebhookError")),
        ("src/meta/src/error.rs", TypeAlias("MetaResult", "MetaError")),
        ("src/meta/src/hummock/error.rs", TypeAlias("Result", "HummockError")),
        ("src/dml/src/error.rs", TypeAlias("Result", "DmlError")),
    ]
)


@pytest.mark.parametrize(
    ("name", "path", "error"),
    [
        ("Result", "src/frontend/src/error.rs", "RwError"),  # the same file
        ("Result", "src/frontend/src/binder/expr/mod.rs", "RwError"),  # the crate root's, above
        ("Result", "src/frontend/src/webhook/handler.rs", "WebhookError"),  # the nearest above
        ("Result", "src/meta/src/stream/manager.rs", "HummockError"),  # the crate's only one
        ("MetaResult", "src/meta/service/src/ddl.rs", "MetaError"),  # the repository's only one
        ("Result", "src/compute/src/server.rs", None),  # several in other crates: no guess
        ("NoSuchResult", "src/meta/src/x.rs", None),
    ],
)
def test_an_alias_resolves_as_rust_scopes_it_or_not_at_all(
    name: str, path: str, error: str | None
) -> None:
    assert ALIASES.resolve(name, path) == error


def test_a_relocated_record_is_the_record_built_afresh_at_the_new_place() -> None:
    filler = "".join(f"// filler {i}\n" for i in range(25))
    body = 'fn f(x: bool) -> anyhow::Result<()> {\n    if x {\n        bail!("refused {x}");\n    }\n    Ok(())\n}\n'
    before = one({"src/a.rs": filler + body}, "refused {x}")
    shifted = {"src/a.rs": "// new 1\n// new 2\n// new 3\n" + filler + body}  # above the window
    scans = {p: find_sites(p, t.encode()) for p, t in shifted.items()}
    after = build_contexts(REPO, "b" * 40, RepoScan(scans=scans))[0]
    assert after.content_hash == before.content_hash  # what makes a record reusable
    explanation = explain(before)
    old = build_record(before, explanation, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z")
    fresh = build_record(after, explanation, old.analyzedAt, old.contentChangedAt)

    moved = relocated(old, after)

    assert moved == fresh
    assert (moved.lineNumber, moved.analyzedSha) == (old.lineNumber + 3, "b" * 40)
