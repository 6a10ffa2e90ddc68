"""A `#[from]` variant is built where `?` converts its source error (issue 10: "the error
type's ... conversion"; what no code names). thiserror's `Io(#[from] std::io::Error)` writes
`impl From<std::io::Error> for StoreError`, which `?` calls in a fn returning a
`StoreError` on a call returning an `io::Error`: that fn builds `StoreError::Io` there."""

from __future__ import annotations

import json
from pathlib import Path

from regen_fixtures import cli

from pipeline.analyze.reach_text import situation_sentence, trigger_sentence
from pipeline.languages.rust.index import index_file
from pipeline.scan.callerpaths import site_reach
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.conversions import from_source, key, result_error
from pipeline.scan.entrypoints import build_graph

ERRORS = """\
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot read the store: {0}")]
    Io(#[from] std::io::Error),
    #[error("bad entry: {0}")]
    Parse(
        #[from]
        #[backtrace]
        ParseError,
    ),
    #[error("never converted: {0}")]
    Unused(#[from] OtherError),
    #[error("no source: {0}")]
    Plain(String),
}
pub type Result<T, E = StoreError> = std::result::Result<T, E>;
"""
PARSE = """\
pub struct ParseError;
pub struct OtherError;
pub fn parse_entry(s: &str) -> Result<u32, ParseError> { Err(ParseError) }
pub fn read_file(p: &str) -> std::io::Result<String> { std::fs::read_to_string(p) }
pub async fn read_async(p: &str) -> std::io::Result<String> { read_file(p) }
"""
STORE = """\
use crate::error::{Result, StoreError};
use crate::parse::{parse_entry, read_async, read_file};
pub fn load(p: &str) -> Result<u32> {
    let text = read_file(p)?;
    let n = parse_entry(&text)?;
    Ok(n)
}
pub async fn fetch(p: &str) -> Result<String> {
    Ok(read_async(p).await?)
}
pub fn peek(p: &str) -> Option<u32> {
    parse_entry(p).ok()
}
pub fn relay(p: &str) -> std::result::Result<u32, crate::parse::ParseError> {
    let n = parse_entry(p)?;
    Ok(n)
}
pub fn other(p: &str) -> anyhow::Result<u32> {
    Ok(parse_entry(p)?)
}
pub fn mapped(p: &str) -> Result<u32> {
    let n = parse_entry(p).map_err(|_| StoreError::Plain(p.into()))?;
    Ok(n)
}
"""
CLI = """\
use store::error::StoreError;
pub fn run(p: &str) -> Result<(), StoreError> {
    store::parse::parse_entry(p)?;
    Ok(())
}
"""
# another crate's own `StoreError`: its `?` converts into that one, not the site's
MIRROR = """\
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("mirror: {0}")]
    Parse(#[from] store::parse::ParseError),
}
pub fn sync(p: &str) -> Result<u32, StoreError> {
    Ok(store::parse::parse_entry(p)?)
}
"""
FILES = {
    "store/src/lib.rs": "pub mod error;\npub mod parse;\npub mod store;\n",
    "store/src/error.rs": ERRORS,
    "store/src/parse.rs": PARSE,
    "store/src/store.rs": STORE,
    "cli/src/lib.rs": CLI,
    "mirror/src/lib.rs": MIRROR,
}


def _graph() -> CallGraph:
    return build_graph({path: index_file(path, text.encode()) for path, text in FILES.items()})


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_from_field_s_type_and_a_signature_s_error_type_are_read() -> None:
    graph = _graph()
    variants = {d.name: d for d in index_file("store/src/error.rs", ERRORS.encode()).definitions}
    assert from_source(variants["Io"]) == "std::io::Error"
    assert from_source(variants["Parse"]) == "ParseError"  # through `#[backtrace]`
    assert from_source(variants["Plain"]) is None
    here = "store/src/store.rs"
    assert result_error(graph, "fn f() -> Result<u32>", here) == "StoreError"  # the default
    assert result_error(graph, "fn f() -> Result<u32, Other>", here) == "Other"
    assert result_error(graph, "fn f() -> std::io::Result<()>", here) == "std::io::Error"
    assert result_error(graph, "fn f() -> anyhow::Result<u32>", here) == "anyhow::Error"
    # anyhow's `Result<T, E = Error>` given an `E` (neon's `timeline.rs`, which imports it)
    assert result_error(graph, "fn f() -> anyhow::Result<u32, Other>", here) == "Other"
    # another crate of the repository's alias, named by its path
    assert result_error(graph, "fn f() -> store::error::Result<u32>", "cli/src/lib.rs") == (
        "StoreError"
    )
    assert result_error(graph, "fn f() -> Result<u32, Self::Err>", here) is None
    assert result_error(graph, "fn f() -> Option<u32>", here) is None
    assert key("std::io::Error") == key("io::Error") == "io::Error"
    assert key("crate::parse::ParseError") == "ParseError"


def test_a_from_variant_is_built_where_question_mark_converts_its_source() -> None:
    graph = _graph()

    def builders(needle: str) -> tuple[str | None, int, list[tuple[str, str, int | None]]]:
        reach = site_reach(graph, "store/src/error.rs", _line(ERRORS, needle))
        if reach is None:
            return None, 0, []
        ends = sorted((p.hops[-1].name, p.hops[-1].file_path, p.hops[-1].call_line)
                      for p in reach.paths)  # fmt: skip
        return reach.built, reach.callers, ends

    # `read_file(p)?` in `load`, `read_async(p).await?` in `fetch`
    assert builders("cannot read the store") == (
        "StoreError::Io",
        2,
        [("fetch", "store/src/store.rs", 9), ("load", "store/src/store.rs", 4)],
    )
    io = site_reach(graph, "store/src/error.rs", _line(ERRORS, "cannot read the store"))
    assert io is not None and io.converts == "std::io::Error"
    text = trigger_sentence(io, "0" * 40)
    assert text is not None and (
        "`StoreError::Io` is built in 2 functions, among them `load` at store/src/store.rs:4"
        " (its `#[from]` field: `?` builds it from a call's `std::io::Error`)" in text
    )
    # `load`'s `parse_entry(&text)?`, and `run` in another crate that names this one's;
    # not `peek` (no `?`), `relay` (the same error type), `other` (anyhow's), `mapped`
    # (its `?` is on `map_err`'s value), nor the mirror crate's own `StoreError`
    assert builders("bad entry") == (
        "StoreError::Parse",
        2,
        [("load", "store/src/store.rs", 5), ("run", "cli/src/lib.rs", 3)],
    )
    assert builders("never converted") == (None, 0, [])


CONFIG_ERRORS = """\
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the config: {0}")]
    Io(#[from] std::io::Error),
    #[error("bad json: {0}")]
    Json(#[from] serde_json::Error),
    #[error("the task failed: {0}")]
    Join(#[from] tokio::task::JoinError),
    #[error("lookup failed: {0}")]
    Lookup(#[from] anyhow::Error),
}
"""
CONFIG = """\
use crate::error::ConfigError;
pub fn load(p: &str) -> Result<u32, ConfigError> {
    let text = std::fs::read_to_string(p)?;
    let v: u32 = serde_json::from_str(&text)?;
    Ok(v + crate::lookup::lookup(&text)?)
}
pub async fn measure(p: String) -> Result<u32, ConfigError> {
    Ok(tokio::task::spawn_blocking(move || p.len() as u32).await?)
}
pub struct Writer;
impl Writer {
    pub fn flush(&mut self) -> Result<(), ConfigError> { Ok(()) }
}
pub fn flushed(w: &mut Writer) -> Result<(), ConfigError> {
    w.flush()?;
    Ok(())
}
pub fn mapped(p: &str) -> Result<String, ConfigError> {
    Ok(std::fs::read_to_string(p).map_err(|e| anyhow::anyhow!("{e}"))?)
}
pub fn spawn_blocking() {}
"""
LOOKUP = """\
use anyhow::Result;
pub fn lookup(k: &str) -> Result<u32> { Ok(k.len() as u32) }
"""


def test_a_from_variant_is_built_where_question_mark_converts_a_known_outside_error() -> None:
    """A `?` on a call out of the repository converts what the standard library or a common
    crate says it fails with (`std::fs::read_to_string`: an `io::Error`; `serde_json`'s; a
    spawned task's `JoinError`, whatever fns of the repository are named `spawn_blocking`);
    a repository fn returning anyhow's `Result` makes an `anyhow::Error`. Not the
    repository's own `flush`, nor a call whose error is mapped before the `?` (the `?` is
    `map_err`'s)."""
    files = {"cfg/src/lib.rs": "pub mod error;\npub mod config;\npub mod lookup;\n",
             "cfg/src/error.rs": CONFIG_ERRORS, "cfg/src/config.rs": CONFIG,
             "cfg/src/lookup.rs": LOOKUP}  # fmt: skip
    graph = build_graph({p: index_file(p, t.encode()) for p, t in files.items()})

    def built(needle: str) -> tuple[str | None, str | None, list[tuple[str, int | None]]]:
        reach = site_reach(graph, "cfg/src/error.rs", _line(CONFIG_ERRORS, needle))
        assert reach is not None
        ends = sorted((p.hops[-1].name, p.hops[-1].call_line) for p in reach.paths)
        return reach.built, reach.converts, ends

    assert built("cannot read the config") == ("ConfigError::Io", "std::io::Error", [("load", 3)])
    assert built("bad json") == ("ConfigError::Json", "serde_json::Error", [("load", 4)])
    assert built("the task failed") == (
        "ConfigError::Join",
        "tokio::task::JoinError",
        [("measure", 8)],
    )
    assert built("lookup failed") == ("ConfigError::Lookup", "anyhow::Error", [("load", 5)])


def test_a_thiserror_ext_newtype_takes_its_enum_s_conversions() -> None:
    """risingwave's `#[thiserror_ext(newtype(name = StreamExecutorError))] enum ErrorKind`:
    fns return the newtype (`StreamExecutorResult<T>`), whose `From` wraps the enum's."""
    errors = (
        "#[derive(thiserror::Error, thiserror_ext::Box)]\n"
        "#[thiserror_ext(newtype(name = ExecError, backtrace))]\n"
        "pub enum ErrorKind {\n"
        '    #[error("Storage error: {0}")]\n'
        "    Storage(\n"
        "        #[backtrace]\n"
        "        #[from]\n"
        "        StorageError,\n"
        "    ),\n"
        "}\n"
        "pub type ExecResult<T> = std::result::Result<T, ExecError>;\n"
    )
    executor = (
        "use crate::error::ExecResult;\n"
        "pub struct StorageError;\n"
        "fn get(k: u32) -> Result<u32, StorageError> { Err(StorageError) }\n"
        "pub fn execute(k: u32) -> ExecResult<u32> {\n"
        "    let v = get(k)?;\n"
        "    Ok(v)\n"
        "}\n"
    )
    files = {"exec/src/lib.rs": "pub mod error;\npub mod executor;\n",
             "exec/src/error.rs": errors, "exec/src/executor.rs": executor}  # fmt: skip
    graph = build_graph({p: index_file(p, t.encode()) for p, t in files.items()})
    reach = site_reach(graph, "exec/src/error.rs", _line(errors, "Storage error"))
    assert reach is not None and (reach.built, reach.converts) == (
        "ErrorKind::Storage",
        "StorageError",
    )
    assert [(p.hops[-1].name, p.hops[-1].call_line) for p in reach.paths] == [("execute", 5)]


def test_a_hand_written_from_impl_is_called_by_the_question_mark_that_converts() -> None:
    """alacritty's `impl From<io::Error> for Error { fn from(val) -> Self { Error::Io(val) } }`
    builds `Error::Io`: it is called where `?` turns an `io::Error` into that `Error`."""
    errors = (
        "pub enum Error {\n"
        '    #[error("Error getting current working directory: {0}")]\n'
        "    Io(std::io::Error),\n"
        "}\n"
        "impl From<std::io::Error> for Error {\n"
        "    fn from(val: std::io::Error) -> Self {\n"
        "        Error::Io(val)\n"
        "    }\n"
        "}\n"
        "fn stat(p: &str) -> std::io::Result<u64> { Ok(1) }\n"
        "pub fn cwd(p: &str) -> Result<u64, Error> {\n"
        "    let size = stat(p)?;\n"
        "    Ok(size)\n"
        "}\n"
    )
    graph = build_graph({"term/src/lib.rs": index_file("term/src/lib.rs", errors.encode())})
    reach = site_reach(graph, "term/src/lib.rs", 2)
    assert reach is not None and reach.built == "Error::Io"
    assert [[(h.name, h.resolution, h.call_line) for h in p.hops] for p in reach.paths] == [
        [("cwd", None, 12), ("Error::from", "conversion", 7)]
    ]
    text = trigger_sentence(reach, "0" * 40)
    assert text is not None and "`cwd` -> `Error::from` (through `?`)" in text


def test_a_from_source_renamed_by_a_use_is_the_type_the_use_names() -> None:
    """alacritty's `use toml::de::Error as TomlError;` and `impl From<TomlError> for Error`:
    `toml::from_str(..)?` in a fn returning that `Error` calls the impl (it had no caller);
    thiserror's `Yaml(#[from] YamlError)` with `use serde_yaml::Error as YamlError` is built
    by `serde_yaml::from_str(..)?`. A name no `use` renames keeps its own key: a `TomlError`
    of the file's own is no `toml` error."""
    errors = (
        "use serde_yaml::Error as YamlError;\n"
        "use toml::de::Error as TomlError;\n"
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum Error {\n"
        '    #[error("Config error: {0}")]\n'
        "    Toml(TomlError),\n"
        '    #[error("Yaml error: {0}")]\n'
        "    Yaml(#[from] YamlError),\n"
        "}\n"
        "impl From<TomlError> for Error {\n"
        "    fn from(val: TomlError) -> Self {\n"
        "        Error::Toml(val)\n"
        "    }\n"
        "}\n"
        "pub fn parse(text: &str) -> Result<u32, Error> {\n"
        "    let value: u32 = toml::from_str(text)?;\n"
        "    Ok(value)\n"
        "}\n"
        "pub fn migrate(text: &str) -> Result<u32, Error> {\n"
        "    let value: u32 = serde_yaml::from_str(text)?;\n"
        "    Ok(value)\n"
        "}\n"
    )
    own = errors.replace("use toml::de::Error as TomlError;\n", "pub struct TomlError;\n")
    for text, toml_callers in (
        (errors, [[("parse", 16), ("Error::from", 12)]]),
        (own, [[("Error::from", 12)]]),
    ):
        graph = build_graph({"cfg/src/lib.rs": index_file("cfg/src/lib.rs", text.encode())})
        toml = site_reach(graph, "cfg/src/lib.rs", _line(text, "Config error"))
        assert toml is not None and toml.built == "Error::Toml"
        assert [[(h.name, h.call_line) for h in p.hops] for p in toml.paths] == toml_callers
        yaml = site_reach(graph, "cfg/src/lib.rs", _line(text, "Yaml error"))
        assert yaml is not None and (yaml.built, yaml.converts) == ("Error::Yaml", "YamlError")
        assert [(p.hops[-1].name, p.hops[-1].call_line) for p in yaml.paths] == [("migrate", 20)]


def test_a_from_source_the_crate_renames_is_its_own_type() -> None:
    """`use crate::parse::PError as ParseFailure;` and `Parse(#[from] ParseFailure)`: the
    `?` on a fn of the crate returning `PError` builds it (the fn writes the type's own name,
    not the path of the `use`)."""
    lib = (
        "pub mod parse;\n"
        "use crate::parse::PError as ParseFailure;\n"
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum Error {\n"
        '    #[error("bad entry")]\n'
        "    Parse(#[from] ParseFailure),\n"
        "}\n"
        "pub fn read(s: &str) -> Result<u32, Error> {\n"
        "    let v = parse::entry(s)?;\n"
        "    Ok(v)\n"
        "}\n"
    )
    parse = "pub struct PError;\npub fn entry(s: &str) -> Result<u32, PError> { Err(PError) }\n"
    # tikv's `use tikv_util::codec::Error as CodecError`: an `Error` of the repository's is
    # no other module's `Error` (`net::fetch(s)?` makes `net`'s, not `codec`'s)
    codec = (
        lib.replace("pub mod parse;\n", "pub mod codec;\npub mod net;\n")
        .replace(
            "use crate::parse::PError as ParseFailure;", "use crate::codec::Error as CodecError;"
        )
        .replace("Parse(#[from] ParseFailure)", "Codec(#[from] CodecError)")
        .replace("parse::entry(s)?", "net::fetch(s)?")
        .replace("enum Error", "enum CfgError")
        .replace("u32, Error>", "u32, CfgError>")
    )
    net = "pub struct Error;\npub fn fetch(s: &str) -> Result<u32, Error> { Err(Error) }\n"
    for files, built, ends in (
        ({"cfg/src/lib.rs": lib, "cfg/src/parse.rs": parse}, "Error::Parse", [("read", 9)]),
        ({"cfg/src/lib.rs": codec, "cfg/src/codec.rs": "pub struct Error;\n",
          "cfg/src/net.rs": net}, "CfgError::Codec", []),
    ):  # fmt: skip
        graph = build_graph({p: index_file(p, t.encode()) for p, t in files.items()})
        text = files["cfg/src/lib.rs"]
        reach = site_reach(graph, "cfg/src/lib.rs", _line(text, "bad entry"))
        found = [(p.hops[-1].name, p.hops[-1].call_line) for p in reach.paths] if reach else []
        assert (reach.built if reach else None, found) == (built if ends else None, ends)


def test_a_converted_variant_is_said_so_in_the_text_the_page_and_explain_json(
    tmp_path: Path,
) -> None:
    from test_reach import committed_and_extracted, reach_section

    files = {"Cargo.toml": '[package]\nname = "store"\n', **{
        path.removeprefix("store/"): text for path, text in FILES.items() if path.startswith("store/")
    }}  # fmt: skip
    sha, record = committed_and_extracted(files, "o/store", tmp_path, "cannot read the store")
    assert (
        f"At commit {sha[:10]}, `StoreError::Io` is built in 2 functions, among them `load` at"
        " src/store.rs:4 (its `#[from]` field: `?` builds it from a call's `std::io::Error`)"
    ) in record["triggerScenarios"]
    section = reach_section(tmp_path / "out", tmp_path / "site", record)
    assert (
        "Its <code>#[from]</code> field lets <code>?</code> build it from a call's"
        " <code>std::io::Error</code>, where no code names it."
    ) in section.replace("&#39;", "'")
    result = cli("explain", "--out", str(tmp_path / "out"), "--json", "cannot read the store: gone")
    assert result.exit_code == 0, result.output
    (match,) = json.loads(result.output)
    assert match["reach"]["converts"] == "std::io::Error"


def test_a_variant_a_use_brings_in_by_name_is_built_where_it_is_called() -> None:
    """activitypub's `use crate::error::Error::ParseFetchedObject;` and `Err(ParseFetchedObject(
    e, url, ..))`: the variant had no builder and no reach (reading 304). A renamed `use`,
    or a name no `use` brings in, builds nothing."""
    errors = (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum Error {\n"
        '    #[error("Failed to parse object {1}: {0}")]\n'
        "    ParseFetchedObject(String, String),\n"
        "}\n"
    )
    fetch = (
        "use crate::error::Error::ParseFetchedObject;\n"
        "use crate::error::Error;\n"
        "pub fn fetch(url: String) -> Result<u8, Error> {\n"
        "    Err(ParseFetchedObject(String::new(), url))\n"
        "}\n"
    )
    for source, builders in ((fetch, [("fetch", 4)]),
                             (fetch.replace("ParseFetchedObject;", "ParseFetchedObject as P;"), [])):  # fmt: skip
        files = {"fed/src/lib.rs": "pub mod error;\npub mod fetch;\n",
                 "fed/src/error.rs": errors, "fed/src/fetch.rs": source}  # fmt: skip
        graph = build_graph({p: index_file(p, t.encode()) for p, t in files.items()})
        reach = site_reach(graph, "fed/src/error.rs", 3)
        found = [(p.hops[-1].name, p.hops[-1].call_line) for p in reach.paths] if reach else []
        assert found == builders


WEBFINGER = """\
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("Failed to resolve actor via webfinger")]
    WebfingerResolveFailed(#[from] WebFingerError),
    #[error("fetch failed: {0}")]
    Fetch(#[from] FetchError),
}
#[derive(Debug, thiserror::Error)]
pub enum WebFingerError {
    #[error("The webfinger identifier doesn't match the expected instance domain name")]
    WrongDomain,
}
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("body too large")]
    TooLarge,
}
pub fn resolve(name: &str) -> Result<u8, Error> {
    if name.is_empty() {
        return Err(WebFingerError::WrongDomain.into());
    }
    Err(FetchError::TooLarge.into())
}
"""


def test_a_variant_a_from_variant_wraps_without_printing_it_says_what_users_read() -> None:
    """activitypub's `WebFingerError::WrongDomain` becomes `Error::WebfingerResolveFailed(
    #[from] WebFingerError)`, whose text is the fixed "Failed to resolve actor via
    webfinger": the record said users meet its own text (reading 304). A wrapper whose text
    prints the source (`fetch failed: {0}`) shows it: nothing to say."""
    graph = build_graph({"fed/src/lib.rs": index_file("fed/src/lib.rs", WEBFINGER.encode())})
    wrong = site_reach(graph, "fed/src/lib.rs", _line(WEBFINGER, "doesn't match"))
    assert wrong is not None and wrong.wrapped_by == (
        '`Error::WebfingerResolveFailed` ("Failed to resolve actor via webfinger")'
    )
    said = situation_sentence(wrong, "ab" * 20)
    assert said is not None and said.endswith(
        'Where `?` or `.into()` turns it into `Error::WebfingerResolveFailed` ("Failed to '
        'resolve actor via webfinger") (its `#[from]`), a user reads that text, and this one '
        "only where the error's causes are printed (`source()`, anyhow's `{:#}`)."
    )
    large = site_reach(graph, "fed/src/lib.rs", _line(WEBFINGER, "body too large"))
    assert large is not None and large.wrapped_by is None


def test_a_wrapper_of_another_crate_s_type_of_the_same_name_is_not_its() -> None:
    """uv-distribution's `Metadata(#[from] uv_pypi_types::MetadataError)` ("Failed to parse
    metadata from built wheel") wraps the pypi-types crate's `MetadataError`, not the
    distribution crate's own enum of that name, whose variants had read "Where `?` turns
    it into `Error::Metadata`" (the review of stop 74, read against uv's source); the
    pypi-types crate's variants are the ones it wraps."""
    errors = (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum Error {\n"
        '    #[error("Failed to parse metadata from built wheel")]\n'
        "    Metadata(#[from] pypi::MetadataError),\n"
        "}\n"
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum MetadataError {\n"
        '    #[error("source entry only applies to an extra")]\n'
        "    MissingExtra,\n"
        "}\n"
        "pub fn lower() -> Result<u8, MetadataError> {\n"
        "    Err(MetadataError::MissingExtra)\n"
        "}\n"
    )
    pypi = (
        "#[derive(Debug, thiserror::Error)]\n"
        "pub enum MetadataError {\n"
        '    #[error("bad wheel metadata")]\n'
        "    Bad,\n"
        "}\n"
        "pub fn parse() -> Result<u8, MetadataError> {\n"
        "    Err(MetadataError::Bad)\n"
        "}\n"
    )
    files = {"dist/src/lib.rs": errors, "pypi/src/lib.rs": pypi}
    graph = build_graph({p: index_file(p, t.encode()) for p, t in files.items()})
    own = site_reach(graph, "dist/src/lib.rs", _line(errors, "only applies"))
    assert own is not None and own.built == "MetadataError::MissingExtra"
    assert own.wrapped_by is None
    # the one it wraps: where `?` converts it in the other crate, users read the wrapper's
    wrapped = site_reach(graph, "pypi/src/lib.rs", _line(pypi, "bad wheel"))
    assert wrapped is not None and wrapped.wrapped_by == (
        '`Error::Metadata` ("Failed to parse metadata from built wheel")'
    )
