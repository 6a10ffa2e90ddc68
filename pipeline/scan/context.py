"""A site in its repository: identity, pattern, error class, window (SPEC 4). Pure.

`SiteContext` is everything a record or an analyzer needs about one site. It is
built from the scans of the whole repository (aliases are resolved across files)
and needs no pydantic: listing sites stays light.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from pipeline.core.reach import Reach
from pipeline.core.sitetypes import TEXT_KINDS, ErrorType, Severity, Site, TypeAlias
from pipeline.scan.names import crate_name, generic_parts


@dataclass(frozen=True, slots=True)
class SiteContext:
    """A site plus everything an analyzer may use to explain it."""

    record_id: str
    repo: str
    sha: str
    site: Site
    error_class: str | None
    error_type: ErrorType
    severity: Severity
    message_pattern: str
    window: str  # the source window, lines joined by "\n"
    window_start: int  # 1-based line of the window's first line
    content_hash: str
    reach: Reach | None = None  # caller paths and condition sources, when an index was built
    module: str | None = None  # `risingwave_meta::stream`: what the build manifests call the file
    target: str | None = None  # the kind of target the file is built in (`build`: a build script)
    # the build profiles that abort on a panic (`panic = "abort"` at the workspace's root)
    aborts: tuple[str, ...] = ()
    # an anyhow-named macro the file imports from the repository (`FileScan.own_macros`):
    # its error is the fn's type, anyhow's only where that says so
    own_macro: bool = False
    # each feature the site's `cfg` gates need (`feature = "x"` alone), with why a build
    # that asks for none has it on: "default", the package that turns it on, "" for nothing
    # (`RepositoryModules.feature_on`); () where no manifest tells
    features_on: tuple[tuple[str, str], ...] = ()


PANIC_KINDS = {"panic", "unreachable", "todo", "unimplemented", "assert", "expect"}
ANYHOW_KINDS = {"bail", "anyhow", "ensure", "format_err"}
# An expected rejection of a user's request that leaves the system healthy.
_REJECTION = re.compile(
    r"\b(not supported|unsupported|does not support|doesn't support|invalid|not allowed|"
    r"permission denied|already exists?|not found|does not exist|doesn't exist|not permitted|"
    r"too (?:long|large|many|big)|must be|expected .* got|unknown)\b",
    re.IGNORECASE,
)
_REJECTING_CALLEE = re.compile(
    r"(invalid|not_?found|permission|unsupported|not_?supported|already_?exists|bind|parse)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class AliasTable:
    """`type XResult<T> = Result<T, XError>` aliases of a whole repository, and what each
    file's imports say of its errors' type (`use anyhow::Result`, its own `bail!`)."""

    by_name: Mapping[str, tuple[tuple[str, str], ...]]  # name -> ((file path, error type), ...)
    anyhow_result_files: frozenset[str] = frozenset()  # files that `use anyhow::Result`
    # a file -> anyhow's macro names it imports from elsewhere (`FileScan.own_macros`)
    own_macros: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # a file -> the module path its `use` takes `Result` from (`FileScan.result_from`)
    result_imports: Mapping[str, str] = field(default_factory=dict)
    # a file -> anyhow's macro names it imports from anyhow or eyre (`FileScan.anyhow_macros`)
    anyhow_macros: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    _memo: dict[tuple[str, str], str | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    @classmethod
    def build(
        cls,
        aliases: Iterable[tuple[str, TypeAlias]],
        anyhow_files: Iterable[str] = (),
        own_macros: Mapping[str, tuple[str, ...]] | None = None,
        result_imports: Mapping[str, str] | None = None,
        anyhow_macros: Mapping[str, tuple[str, ...]] | None = None,
    ) -> AliasTable:
        """Index aliases by name from `(file path, alias)` pairs."""
        table: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for path, alias in aliases:
            table[alias.name].append((path, alias.error_type))
        return cls(
            {name: tuple(sorted(v)) for name, v in table.items()},
            frozenset(anyhow_files),
            dict(own_macros or {}),
            dict(result_imports or {}),
            dict(anyhow_macros or {}),
        )

    def resolve(self, name: str, path: str) -> str | None:
        """The error type of alias `name` as seen from `path`: same file, nearest crate, unique."""
        key = (name, path)
        if key not in self._memo:
            self._memo[key] = self._resolve(name, path)
        return self._memo[key]

    def _resolve(self, name: str, path: str, depth: int = 0) -> str | None:
        candidates = self.by_name.get(name, ())
        if not candidates:
            return None
        same_file = [error for file, error in candidates if file == path]
        if same_file:
            return same_file[0]
        imported = self.result_imports.get(path) if name == "Result" else None
        first = imported.split("::", 1)[0] if imported else ""
        if imported and first == "crate" and depth < 3:
            # `use crate::{Error, Result};`: the module it names declares the alias, or
            # takes it from elsewhere itself (lance-index's `lib.rs`: `pub use
            # lance_core::{Error, Result};`), followed up to 3 modules
            segments = imported.split("::")[1:]
            for module in _module_files(_crate(path), segments):
                held = [error for file, error in candidates if file == module]
                if held:
                    return held[0]
                if module in self.result_imports and module != path:
                    return self._resolve(name, module, depth + 1)
        if imported and first not in ("crate", "self", "super"):
            # `use lance_core::{Error, Result};`: the alias of the crate it names, not this
            # crate's only one (lance-index's bloom filter's `SbbfError`, reading 232: 89
            # records); std's `io`/`fmt` own theirs
            last = imported.rsplit("::", 1)[-1]
            if first == "std" or first == "core":
                return _STD_RESULTS.get(last)  # `use std::io::Result;`
            named = {e for f, e in candidates if crate_name(_crate(f)) == first}
            if named:
                return named.pop() if len(named) == 1 else None
            crate = _crate(path)
            local = any(  # `use error::Result;` in a crate's root: its own module `error`
                _crate(f) == crate and first in f.removesuffix(".rs").split("/")
                for f, _ in candidates
            )
            # a crate whose name ends in its directory's (risingwave's `src/rpc_client` is
            # `risingwave_rpc_client`)
            suffixed = {e for f, e in candidates if first.endswith("_" + crate_name(_crate(f)))}
            if not local and len(suffixed) == 1:
                return suffixed.pop()
            if not local and not suffixed:
                # the crate it names declares none of these aliases (mdBook's examples `use
                # mdbook_preprocessor::errors::Result`, anyhow's re-exported, read xtask's
                # private `Box<dyn Error>` one, the repository's only alias, reading 309;
                # greptimedb's `use datafusion_common::Result` its own crate's `Error`)
                return None
            # several, or a module of its own: as before, the nearest alias
        # An alias in this file's directory or above it (`crate::error::Result` from the crate
        # root) is in scope the way Rust modules nest; a sibling module's alias is not.
        site_dir = _directory(path)
        above = [c for c in candidates if _is_within(site_dir, _directory(c[0]))]
        if above:
            depth = max(len(_directory(file)) for file, _ in above)
            nearest = {error for file, error in above if len(_directory(file)) == depth}
            if len(nearest) == 1:
                return nearest.pop()
        # Else the crate's only alias of that name (imported from a sibling module), else the
        # repository's only one (`risingwave_meta::MetaResult` in another crate); choosing
        # between several is a guess this does not make.
        crate = _crate(path)
        for scope in ({e for f, e in candidates if _crate(f) == crate}, {e for _, e in candidates}):
            if len(scope) == 1:
                return scope.pop()
        return None


def _module_files(crate: str, segments: Sequence[str]) -> tuple[str, ...]:
    """The files that may hold module `crate::a::b` of the crate in directory `crate`."""
    base = f"{crate}/src" if crate else "src"
    if not segments:
        return (f"{base}/lib.rs", f"{base}/main.rs")
    stem = "/".join(segments)
    return (f"{base}/{stem}.rs", f"{base}/{stem}/mod.rs")


def _directory(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _is_within(directory: str, ancestor: str) -> bool:
    return directory == ancestor or directory.startswith(ancestor + "/") or not ancestor


_TARGET_DIRS = ("/examples/", "/benches/", "/tests/")  # a crate's other targets, beside src/


def _crate(path: str) -> str:
    """`src/meta/src/stream/x.rs` -> `src/meta`: the directory that holds the crate's `src/`
    (or its `examples/`, `benches/`, `tests/`, `build.rs`: `crates/nu-table/examples/x.rs`
    -> `crates/nu-table`, `src/meta/build.rs` -> `src/meta`)."""
    head, found, _ = path.partition("/src/")
    if found:
        return head
    for directory in _TARGET_DIRS:
        head, found, _ = path.partition(directory)
        if found:
            return head
    if path == "build.rs" or path.startswith(("src/", *(d[1:] for d in _TARGET_DIRS))):
        return ""  # the root package's (its `src/cmd/build.rs` is a module, no build script)
    if path.endswith("/build.rs"):
        return path.removesuffix("/build.rs")
    return path.split("/", 1)[0]


def record_id(repo: str, file_path: str, pattern: str, ordinal: int) -> str:
    """16 hex of a new site's id; `ordinal` is the counter that makes it unused (SPEC 4).

    Scanning numbers a file's sites of one pattern 0, 1, ...: what a first extraction
    publishes. Later runs keep the ids of sites found again (`dataset.ids`).
    """
    key = "\n".join((repo, file_path, pattern, str(ordinal)))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def content_hash(message: str, pattern: str, window: str) -> str:
    """What makes an explanation stale: message, pattern and source window."""
    body = json.dumps([message, pattern, window], ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()


# `impl Stream<Item = Result<T, E>>`, `impl futures::Stream<Item = ..> + Send`: a stream of
# results, which a caller reads item by item (no `Result` of the call to match)
STREAM_OF = re.compile(
    r"impl\s+(?:\w+::)*(?:Try)?Stream\s*<\s*Item\s*=\s*(?P<item>.+?)\s*>(?:\s*\+\s*[\w' ]+)*",
    re.S,
)


_FROM_IMPL = re.compile(r"^From<.*> for (?P<target>[\w:]+)(?:<.*>)?$", re.S)


def panics(site: Site) -> bool:
    """Whether the site's error is a panic: a panicking macro or method, or a `.context(..)`
    unwrapped right after it (`Facts.unwrapped`)."""
    return site.kind in PANIC_KINDS or site.facts.unwrapped is not None


def error_class(site: Site, aliases: AliasTable) -> str | None:
    """The Rust error type of the site: the fn's return type, resolved, else the macro's."""
    if panics(site):
        return None
    if site.kind in TEXT_KINDS:
        return site.facts.enclosing_type
    resolved = _result_error(site.facts.return_type, site.file_path, aliases)
    if resolved is not None and _chosen_by_caller(resolved, site.facts.generics):
        # `D::Error` of `fn deserialize<D: Deserializer<'de>>`: whichever deserializer the
        # caller passes says (`serde_json::Error`); `E` of `visit_str<E: de::Error>` too
        return None
    if resolved is not None and not resolved.startswith("Self::"):
        return resolved  # `Self::Error` left: no impl of this fn says which type it is
    converted = _FROM_IMPL.match(site.facts.enclosing_impl or "")
    if converted is not None and (site.facts.return_type or "").strip() == "Self":
        return converted["target"]  # `impl From<ParseError> for ShellError`: what `?` gives
    if site.macro.endswith("!"):  # the repository's own error macro: its type is not anyhow's
        return None
    if own_macro(site, aliases):
        # the repository's own `bail!`: the fn's error type, not seen here; also an
        # `ensure!` no `use` takes from anyhow in a fn returning another crate's `Result<T>`
        # alias (risingwave's `BatchError` read `anyhow::Error`, with an `e.chain()` that
        # does not compile, reading 305: 2 F)
        return None
    if site.kind in ANYHOW_KINDS or (site.kind == "context" and site.macro != "wrap_err"):
        return "anyhow::Error"
    if site.kind == "eyre":
        return "eyre::Report"
    if site.kind == "constructor" and site.macro != "Err" and "::" in site.macro:
        written = site.macro.rsplit("::", 1)[0]
        if _STD_IO_ERROR.fullmatch(written):  # nushell's `io::Error::other(..)` read "Error"
            return "std::io::Error"
        return written.rsplit("::", 1)[-1]
    return None


_STD_IO_ERROR = re.compile(r"(?:::)?(?:std::)?io::Error")
_HEAD = re.compile(r"<\s*(\w+)\s+as\b|(\w+)")  # `<A as MapAccess<'de>>::Error`, `D::Error`


def own_macro(site: Site, aliases: AliasTable) -> bool:
    """Whether the site's anyhow-named macro (`bail!`) is one its file imports from the
    repository or another crate (`use risingwave_common::bail;`), not anyhow's; or one no
    `use` takes from anyhow in a fn returning another crate's `Result<T>` alias, where
    anyhow's would not compile (`#[macro_use] extern crate risingwave_common;`)."""
    if site.kind not in ANYHOW_KINDS:
        return False
    if site.macro.removeprefix("::").startswith("anyhow::"):
        return False  # `anyhow::bail!(..)`: anyhow's by its path (mdBook's examples, 309)
    if site.macro in aliases.own_macros.get(site.file_path, ()):
        return True
    imported = aliases.anyhow_macros.get(site.file_path, ())
    return _unresolved_result(site, aliases) and site.macro not in imported and "*" not in imported


def _unresolved_result(site: Site, aliases: AliasTable) -> bool:
    """Whether the site's fn returns a one-argument `Result` alias (`Result<T>`) that its
    file does not take from anyhow (read where the repository's aliases did not resolve it:
    `error_class`'s class is then unknown, and `_is_anyhow` asks `own_macro` alone)."""
    written = site.facts.return_type
    if not written or site.file_path in aliases.anyhow_result_files:
        return False
    error, alias = _result_type(written)
    return error is None and alias is not None and alias.rsplit("::", 1)[-1] == "Result"


def _chosen_by_caller(error: str, generics: str | None) -> bool:
    """Whether the error type `error` is, or belongs to, a type parameter of the site's fn
    or impl (`generics`): a type each caller chooses."""
    head = _HEAD.match(error.strip())
    if generics is None or head is None:
        return False
    return (head[1] or head[2]) in generics.split()


def _result_error(return_type: str | None, path: str, aliases: AliasTable) -> str | None:
    if not return_type:
        return None
    written, alias = _result_type(return_type)
    if alias is None:
        return written
    qualifier, _, short = alias.rpartition("::")
    if alias == "Result" and path in aliases.anyhow_result_files:
        return "anyhow::Error"
    module = qualifier.rpartition("::")[2]
    if short == "Result" and module in _STD_RESULTS:  # `io::Result`, `tokio::io::Result`
        return _STD_RESULTS[module]
    if short == "Result" and qualifier and not _names_a_module_of(qualifier, aliases, short):
        return None  # `mlua::Result`: another crate's, whatever this repository calls `Result`
    resolved = aliases.resolve(short, path)
    if resolved is not None and resolved.endswith("Result"):
        return None  # an alias of an alias we cannot see through
    return resolved


# std's own `Result` aliases, by the module that declares them (`tokio::io::Result` and
# `futures::io::Result` are std's too): yazi's `fn encode(..) -> io::Result<Vec<u8>>` was
# its crate's only `Result` alias, `ParseError` (reading 107)
_STD_RESULTS = {"io": "std::io::Error", "fmt": "std::fmt::Error"}


def _names_a_module_of(qualifier: str, aliases: AliasTable, name: str) -> bool:
    """Whether the path `qualifier` (`crate::error`, `risingwave_common::error`, `mlua`) may
    name the module of one of the repository's aliases `name`: a path of this crate's own
    (`crate`, `self`, `super`), or one whose last name is a directory or file of the path of
    a file that declares one. Only for `Result`, the name every crate may give its own: a
    `MetaResult` is the repository's wherever it is imported from."""
    candidates = aliases.by_name.get(name, ())
    head, _, _ = qualifier.partition("::")
    if head in ("crate", "self", "super"):
        return True
    last = qualifier.rpartition("::")[2]
    return any(
        last in file.removesuffix(".rs").replace("-", "_").split("/") for file, _ in candidates
    )


def _result_type(return_type: str) -> tuple[str | None, str | None]:
    """What a fn's return type says of its error: (the type, None) when it is written out
    (`Result<T, E>`, `anyhow::Result<T>`), (None, the alias as written) when an alias must
    be looked up (`MetaResult<T>`), (None, None) when it is no `Result`."""
    streamed = STREAM_OF.fullmatch(return_type.strip())
    if streamed is not None:  # each item is the `Result` (`#[try_stream]`, `impl Stream<..>`)
        return _result_type(streamed["item"])
    name, arguments = generic_parts(return_type)
    # a lifetime is no type: just's `RunResult<'src, T>` is an alias holding a `T`, whose
    # error its declaration says, not a `Result<T, E>` ("(Scope<'src, 'run>, ..)" had been
    # a record's error class)
    arguments = tuple(a for a in arguments if not a.startswith("'"))
    if not name.endswith("Result"):
        return None, None
    if len(arguments) >= 2:
        return arguments[1], None
    if name in ("anyhow::Result", "::anyhow::Result"):
        return "anyhow::Error", None
    if name.endswith("eyre::Result"):
        return "eyre::Report", None
    if name in ("miette::Result", "::miette::Result"):
        # pixi's `lock_pypi_packages(..) -> miette::Result<..>` with `use miette::Context`:
        # its `.context(..)` makes a `miette::Report`, no anyhow error (reading 132)
        return "miette::Report", None
    return None, name


def alias_lookup(site: Site) -> str | None:
    """The alias name that `error_class` looks up for this site, if it looks one up.

    What a carried-over record's error class depends on outside its own file.
    """
    if panics(site) or site.kind in TEXT_KINDS or not site.facts.return_type:
        return None
    _, alias = _result_type(site.facts.return_type)
    return alias.rsplit("::", 1)[-1] if alias is not None else None


def error_type(site: Site) -> ErrorType:
    """`panic` for panics, `error_code` when a code is carried, else `exception`."""
    if panics(site):
        return "panic"
    return "error_code" if site.error_code else "exception"


def severity(site: Site) -> Severity:
    """`critical` for panics; `warning` for an expected rejection of a request; else `error`."""
    if panics(site):
        return "critical"
    if _REJECTION.search(site.message) or (
        site.kind == "constructor" and _REJECTING_CALLEE.search(site.macro)
    ):
        return "warning"
    return "error"


def ordinals(patterns: Sequence[str]) -> list[int]:
    """For the patterns of one file's sites (in line order), each one's ordinal in that file."""
    seen: dict[str, int] = defaultdict(int)
    result = []
    for pattern in patterns:
        result.append(seen[pattern])
        seen[pattern] += 1
    return result


def site_context(
    repo: str,
    sha: str,
    site: Site,
    ordinal: int,
    aliases: AliasTable,
    module: str | None = None,
    target: str | None = None,
    aborts: tuple[str, ...] = (),
    features_on: tuple[tuple[str, str], ...] = (),
) -> SiteContext:
    """Everything about one site that a record or an analyzer needs (`module`, `target`,
    `aborts`: what the build manifests call its file, the kind of target it is built in and
    the profiles whose builds abort on a panic, when they say)."""
    pattern, window, start = site.pattern, site.window, site.window_start
    klass = error_class(site, aliases)
    return SiteContext(
        record_id=record_id(repo, site.file_path, pattern, ordinal),
        repo=repo,
        sha=sha,
        site=site,
        error_class=klass,
        own_macro=own_macro(site, aliases),
        error_type=error_type(site),
        severity=severity(site),
        message_pattern=pattern,
        window=window,
        window_start=start,
        content_hash=content_hash(site.message, pattern, window),
        module=module,
        target=target,
        aborts=aborts,
        features_on=features_on,
    )
