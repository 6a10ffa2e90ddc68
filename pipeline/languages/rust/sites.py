"""Find the error sites of one Rust file with one tree-sitter query pass: pure, no IO."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

import tree_sitter_rust
from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from pipeline.core.macros import MacroSpec, in_force
from pipeline.core.sitetypes import (
    TEXT_KINDS,
    Condition,
    FileScan,
    Site,
    SiteKind,
    TypeAlias,
    placed,
)
from pipeline.languages.rust.display import (
    continues_a_message,
    display_owner,
    display_trait,
    display_variant,
)
from pipeline.languages.rust.facts import (
    CHECK_OPERANDS,
    check_text,
    site_facts,
    with_field_state,
)
from pipeline.languages.rust.formats import (
    decode_rust_string,
    expect_pattern,
    literal_segments,
    panic_pattern,
)
from pipeline.languages.rust.index_items import fn_signature
from pipeline.languages.rust.macrotrees import MAX_DEPTH, macro_tree_sites
from pipeline.languages.rust.messages import (
    Message,
    attached_help,
    closure_messages,
    expression_message,
    join_tokens,
    local_message,
    node_text,
    placeholder_only,
    split_token_tree,
    through_helper,
    token_message,
)
from pipeline.languages.rust.modulegates import declared_modules, file_gates
from pipeline.languages.rust.polling import waited_by
from pipeline.languages.rust.regions import (
    is_generated_file,
    is_test_file,
    parse_relevant,
    site_hints,
    source_window,
    split_lines,
)
from pipeline.languages.rust.snippets import (
    enclosing_call,
    impl_type,
    in_unsafe_fn,
    initializer_item,
    statement_snippet,
)
from pipeline.languages.rust.testcode import (
    declared_test_modules,
    is_test_code,
    is_test_path,
)

# Bump when a change here would change what a cached FileScan holds.
# 34: an error type's `Display` impl writes sites (`display`); 35: each branch of an `if`
# in its arm a message of its own; 38: `assert!(false, ..)` checks nothing; 39: `x.ok_or(E)`
# is reached when `x` is None; 40: a help with no word of its own (`help("{3}")`) is none;
# 41: `Err(e).context(..)` wraps an error, no call failed; 42: the closure that gets an
# environment read's value (`env::var("X").map_or(8, |v| ..)`) is a condition; 43: also
# through `.ok()` (`was Some`); 46: `test_util` (singular) is test support; 47: a std
# method's name with two arguments or more is not std's (`was None/Err`); 48: a site in the
# closure of `unwrap_or_else`, `map_err`, .. runs at its fn's call (`Facts.call`)
# 49: an early exit above a site (`if c { return ..; }`) is a condition (`exit`); 50: std's
# fns by path (`std::env::current_dir()`) fail as `Err` or `None` as std says; 51: a
# `bail!(span, "..")`'s message follows its place; 52: `x.map_or_else(|| Err(..), Ok)` and
# `x.map_or(Err(..), Ok)` are reached when `x` holds nothing; 53: a test path's empty scan is
# no blob's (`scan_listing`): a cache of 52 may hold one for a blob a product file has too;
# 54: `args.expect("..")?` on a parameter of a declared type of the repository's is its method;
# 55: an `.expect(..)` site's pattern accepts `Result::expect`'s ": {error:?}" (`EXPECT_SUFFIX`);
# 56: serde's `Error::missing_field("x")` is "missing field `x`"; 57: a trait impl's
# `Self::Error` in a return type is its `type Error = ..;`; 58: a bare `Result<T>` in a file
# that imports eyre's is `eyre::Result<T>`; 59: a site in a `macro_rules!` body names it;
# 60: a `#[try_stream(ok = T, error = E)]` fn returns `impl Stream<Item = Result<T, E>>`;
# 61: `.context(..)` on `anyhow::Error::new(e)` wraps an error, no call failed; 62: the
# pattern of `unreachable!`, `todo!`, `unimplemented!`, `assert_eq!`/`assert_ne!` holds what
# std prints around the message (`formats.PANIC_PREFIXES`); 63: `strip_prefix`,
# `strip_suffix`, `to_str` may return a `Result` (`Path`'s, `HeaderValue`'s): "None/Err";
# 64: `.with_context("literal")` is no anyhow's (its takes a closure): no site; 65: a site
# keeps the type parameters of its fn and impl (`Facts.generics`); 66: `x.map_or::<T, _>(Err(..),
# ..)` with a turbofish is `map_or`'s; 67: a site in a closure or async block handed to a
# `spawn` names it (`Facts.spawned`); 68: a `write!` in another trait's `fmt` than `Display`
# (`impl ColorDisplay for Error`) keeps that impl; 69: a closure on an environment read through
# `.as_deref()`/`.as_ref()` gets its value (`env::var("X").as_deref().map(|x| ..)`); 70: the
# iterable of a `for` is no step "inside the loop"; 71: a site in a fn that an item-level
# macro wraps (`cfg_rt! { pub fn f() { .. } }`) has that fn's facts (`macroitems`); 72: an
# error a closure of a chain makes that the chain drops in the fn (`Facts.discarded`); 73: the
# groups of a `cfg_if!`/`cfg_select!` are items, and a macro's aliases count (`item_groups`)
# 97: a site in an item-level macro whose body is no items is in what that macro generates
# (`Facts.item` `invocation cast! { Binding`, `macrotrees._item_level`); 98: what a site
# needs (the provenance's `needs`) includes a guard that an earlier arm of the same values
# failed (`valueflow._guards_failed`): a carried record's needs are made again; 99: a
# trait's associated fn is called `<T as Trait>::f(..)` (`Facts.call`, `snippets`); 100: the
# one field of `self` the conditions read alone, its setters and getter (`statefield`); 101:
# a getter that lends the field is kept as "&name"; 102: common crates' fns that fail with an
# error or no value, by path (`serde_json::to_value`, `Regex::new`, `NonZeroUsize::new`);
# 103: a state field's setter keeps each short value it writes, not only its first; 104:
# snafu's `#[snafu(display(..))]` is an `error_attr` site (`Site.macro` "snafu"); 105: the
# module a file imports `Result` from (`FileScan.result_from`); 106: the `#[cfg(..)]` gate of
# each earlier arm of a match arm (`Condition.excluded_gates`); 107: `Facts.unsafe_fn`; 108:
# `Facts.waited`; 109: an awaited call of a well-known async method, a `register_*!` macro,
# and a name tested as an `Option` above, fail as `None` or `Err`, not "None/Err"; 110: std's
# file, socket and process methods that give a `Result` (`sync_data`, `output`, ..); 111: an
# error built as `.context(..)`'s argument (`x.context(anyhow!(..))`) is `x`'s failure; 112:
# serde's `<V::Error as Error>::duplicate_field("x")` is "duplicate field `x`"; 113: a child
# process's `wait`, `wait_with_output`, `kill` and a `spawn` fail as `Err`; 114:
# `Facts.parsed_by`, a closure handed to clap's `.value_parser(..)`; chrono's `try_seconds`,
# `east_opt`, .. fail as `None` whatever their type is imported as; 115:
# `FileScan.anyhow_macros`, the anyhow macros a file imports from anyhow itself; 116:
# `Facts.generated`, the `quote!` whose tokens hold the site (a proc macro's output); 117: a
# `Result` imported from a crate that declares none of the repository's aliases is none of them;
# 118: a macro written `anyhow::bail!` is anyhow's, whatever `Result` its fn returns; 119: a
# `let .. else` and a `match` some of whose arms leave, above the site, are guards of it; 120:
# `Facts.call` of a fn that returns a future (`-> BoxFut<..>`, `-> impl Future<..>`) awaits it;
# 121: a bare name a `use` of std's brings in (`remove_file` of `use std::fs::{remove_file}`)
# fails as std's fn of that path says; 122: an `assert!`'s or `ensure!`'s own test counts for
# `Facts.rebound` (ripgrep's `let path = self.strip(path)` before `assert!(!path.has_root())`);
# 123: `FileScan.file_gates` and `gated_modules`, the `cfg` gates of the `mod x;` lines; 124:
# a lifetime is no type argument of a return type the sites' contexts read for the error
# type (`RunResult<'src, T>`: an alias's `T`, no `Result<T, E>`; `context._result_type`)
# 125: a literal given to a file's helper that writes it into its message: the helper's text;
# 126: a bare name's failure is told by what its nearest `let` holds (`facts._let_value`);
# 127: what a guarded value held when it held nothing, told by more of the syntax: an
# `unwrap_or_else`'s or `map_or_else`'s closure's parameters, std's conversions by path, an
# `Option`'s adapters, tokio's awaited fns, `write!`, a bare parameter's written type; 128:
# `flatten()`; `Facts.failpoint`, the `fail_point!` whose closure holds the site.
EXTRACTOR_VERSION = "129"

LANGUAGE = Language(tree_sitter_rust.language())

MACRO_KINDS: dict[str, SiteKind] = {
    "bail": "bail",
    "anyhow": "anyhow",
    "ensure": "ensure",
    "format_err": "format_err",
    "eyre": "eyre",
    "panic": "panic",
    "unreachable": "unreachable",
    "todo": "todo",
    "unimplemented": "unimplemented",
    "assert": "assert",
    "assert_eq": "assert",
    "assert_ne": "assert",
    "debug_assert": "assert",
    "debug_assert_eq": "assert",
    "debug_assert_ne": "assert",
}
# `write!(f, "..")`: the message follows the formatter; a site only in an error type's
# `Display::fmt` (`display`).
DISPLAY_MACROS = frozenset(("write", "writeln"))
METHOD_KINDS: dict[str, SiteKind] = {
    "expect": "expect",
    "expect_err": "expect",
    "context": "context",
    "with_context": "context",
    "wrap_err": "context",
    "wrap_err_with": "context",
}

_CTOR_CALLEE = re.compile(r"(Error|Status|Code)::[A-Za-z_][A-Za-z0-9_]*$")  # as rust-sites.scm
_MESSAGE_ARGUMENTS = ("string_literal", "raw_string_literal", "macro_invocation", "call_expression")

# The macros whose message may follow a place (`bail!(span, "..")`, typst's diagnostics)
_SPAN_LED = frozenset(("bail", "anyhow", "format_err", "eyre"))
# Their token trees hold the message (found by the query), not sites of their own.
_ERROR_MACROS = frozenset(MACRO_KINDS)

# gRPC status constructors carry a stable, client-visible code.
GRPC_CODES = {
    "cancelled", "unknown", "invalid_argument", "deadline_exceeded", "not_found",
    "already_exists", "permission_denied", "resource_exhausted", "failed_precondition",
    "aborted", "out_of_range", "unimplemented", "internal", "unavailable", "data_loss",
    "unauthenticated",
}  # fmt: skip

# `use anyhow::Result` or `use anyhow::{.., Result, ..}` (see `uses_anyhow_result`).
_ANYHOW_RESULT = re.compile(rb"use\s+(?:::)?anyhow::(?:Result\b|\{[^}]*\bResult\b)")
# `use anyhow::Error` or `use anyhow::{.., Error, ..}`: a bare `Error` in the file is anyhow's.
_ANYHOW_ERROR = re.compile(rb"use\s+(?:::)?anyhow::(?:Error\s*;|\{[^}]*\bError\b(?!\s+as))")
_BARE_ERROR = re.compile(r"(?<![\w:])Error(?=\s*[>,])")
# `use eyre::Result`, `use color_eyre::{eyre::Context, Result}`: a bare `Result<T>` is eyre's
# (atuin's `bail!` and `.context(..)` return an `eyre::Report`, not an `anyhow::Error`).
_EYRE_RESULT = re.compile(
    rb"use\s+(?:::)?(?:color_eyre::(?:eyre::)?|eyre::)(?:Result\b|\{[^}]*(?<![\w:])Result\b(?!\s+as))"
)
_BARE_RESULT = re.compile(r"Result\s*<")


@cache
def _query() -> Query:
    text = (
        resources.files("pipeline.languages.rust.queries")
        .joinpath("rust-sites.scm")
        .read_text("utf-8")
    )
    return Query(LANGUAGE, text)


@cache
def parser() -> Parser:
    """The process's Rust parser (included ranges reset after each use)."""
    return Parser(LANGUAGE)


@dataclass(frozen=True, slots=True)
class SourceFile:
    """The file a site is found in."""

    path: str
    source: bytes


def find_sites(path: str, source: bytes, *, whole: bool = False) -> FileScan:
    """Every error site of one file, with the type aliases it declares.

    `whole=True` parses the whole file instead of the items that can hold a site;
    the result is the same (the tests hold the shortcut to that), only slower.
    """
    if is_test_path(path) or is_test_file(source):
        return FileScan(sites=())
    hints = site_hints(source)
    if not hints:
        return siteless_scan(source)
    tree = parser().parse(source) if whole else parse_relevant(parser(), source, hints)
    return scan_tree(path, source, tree)


def scan_tree(path: str, source: bytes, tree: Tree) -> FileScan:
    """The scan of a file from a parse of it (whole, or of the parts that can hold a site)."""
    found, aliases = collect(tree, path, source)
    parse_errors = 1 if tree.root_node.has_error else 0
    return placed_scan(path, source, [(0, found, aliases)], parse_errors=parse_errors)


def placed_scan(
    path: str,
    source: bytes,
    parts: Iterable[tuple[int, Sequence[Site], Sequence[TypeAlias]]],
    *,
    parse_errors: int,
) -> FileScan:
    """A file's scan from `(shift, sites, aliases)` parts, each `shift` lines above its place.

    The sites are placed at `path` with their windows, in file order.
    """
    lines = split_lines(source)
    sites: list[Site] = []
    aliases: list[TypeAlias] = []
    for shift, part_sites, part_aliases in parts:
        aliases.extend(replace(a, line=a.line + shift) if shift else a for a in part_aliases)
        for site in part_sites:
            window, start = source_window(lines, site.line + shift)
            sites.append(placed(site, shift, path, window, start))
    sites.sort(key=lambda s: (s.line, s.column))
    sites = _either_branch(sites)
    if is_generated_file(source):
        sites = _first_of_each_message(sites)
    return FileScan(
        sites=tuple(sites),
        aliases=tuple(aliases),
        parse_errors=parse_errors,
        uses_anyhow_result=uses_anyhow_result(source),
        result_from=result_import(source),
        own_macros=own_error_macros(source),
        anyhow_macros=own_error_macros(source, anyhow=True),
        test_modules=declared_test_modules(source),
        **_module_lines(source),
    )


def siteless_scan(source: bytes) -> FileScan:
    """The scan of a file that holds no site: what it says of the modules it declares."""
    return FileScan(sites=(), test_modules=declared_test_modules(source), **_module_lines(source))


def _module_lines(source: bytes) -> dict[str, Any]:
    """`FileScan.file_gates` and `gated_modules` (`modulegates`)."""
    gates = file_gates(source)
    return {"file_gates": gates, "gated_modules": declared_modules(source, every=bool(gates))}


_IF_AND_ELSE = ({"if", "else"}, {"if_let", "else"})


def _either_branch(sites: list[Site]) -> list[Site]:
    """`sites` without the `if`/`else` that only picks how the same error is built: two
    sites of one fn with the same message whose conditions differ only in their last, the
    same test held in one and not in the other. nushell's `if let Some(span) = state.span
    { GenericError::new(msg, .., span) } else { GenericError::new_internal(msg, ..) }` read
    "goes on only when `state.span.is_some()`", where a span fails the same way (reading
    148). The test is no step to the error: both lose it. Only the branches of one `if`,
    of sites of one kind: risingwave's `if cfg!(debug_assertions) { panic!(m) } else {
    return Err(..(m)) }` says when it panics; neon's `if cancelled { return Err(m) }` and
    the same `m` later (past that `if`, its `exit`) are two ways, not one."""
    groups: dict[tuple[str | None, str | None, str, str], list[int]] = {}
    for at, site in enumerate(sites):
        if site.facts.conditions:
            key = (site.facts.enclosing_fn, site.facts.enclosing_impl, site.kind, site.message)
            groups.setdefault(key, []).append(at)
    either: set[int] = set()
    for group in groups.values():
        for a, b in itertools.combinations(group, 2):
            first, second = sites[a].facts.conditions, sites[b].facts.conditions
            if (
                len(first) == len(second)
                and first[:-1] == second[:-1]
                and (first[-1].text, first[-1].line) == (second[-1].text, second[-1].line)
                and {first[-1].kind, second[-1].kind} in _IF_AND_ELSE
            ):
                either |= {a, b}
    return [
        replace(site, facts=replace(site.facts, conditions=site.facts.conditions[:-1]))
        if at in either
        else site
        for at, site in enumerate(sites)
    ]


def _first_of_each_message(sites: Sequence[Site]) -> list[Site]:
    """A generated file's sites, each message once: the first place the generator wrote it.

    A generator repeats its template in every item it writes (tonic's "Service was not
    ready: {}" in each of qdrant's 99 client methods): one record tells all of them. Its
    messages that occur once (risingwave's generated `ALTER .. on the fly` checks) are the
    repository's errors like any other, and keep their records.
    """
    seen: set[tuple[str, str]] = set()
    kept = []
    for site in sites:
        key = (site.kind, site.message)
        if key not in seen:
            seen.add(key)
            kept.append(site)
    return kept


def collect(
    tree: Tree, path: str, source: bytes, depth: int = 0
) -> tuple[list[Site], list[TypeAlias]]:
    """The sites (no window yet) and the aliases a parse shows, macro token trees included."""
    sites: list[Site] = []
    aliases: list[TypeAlias] = []
    for pattern, captures in QueryCursor(_query()).matches(tree.root_node):
        node = captures[_ROOT_CAPTURE[pattern]][0]
        if pattern == _ALIAS:
            alias = _type_alias(captures)
            if alias is not None:
                aliases.append(replace(alias, line=node.start_point.row + 1))
            continue
        if pattern == _METHOD:
            found = _method_sites(node, captures, SourceFile(path, source))
        else:
            site = _site(pattern, node, captures, SourceFile(path, source))
            found = [site] if site is not None else []
        if found and not is_test_code(node):
            sites.extend(with_field_state(site, node, source) for site in found)
    macros = in_force()
    if macros:  # the repository's own error macros (`errormacros`)
        file = SourceFile(path, source)
        for _, captures in QueryCursor(_macro_query(macros.names)).matches(tree.root_node):
            node = captures["macro"][0]
            own = macros.get(node_text(captures["macro.name"][0]))
            site = _macro_site(node, captures, file, own) if own is not None else None
            if site is not None and not is_test_code(node):
                sites.append(with_field_state(site, node, source))
    if depth < MAX_DEPTH:

        def nested(sub: Tree) -> list[Site]:
            # the aliases a macro wraps count too (lemmy's `LemmyResult` in a `cfg_select!`),
            # not a `macro_rules!` template's (`Result<T, $err>`)
            found, declared = collect(sub, path, source, depth + 1)
            aliases.extend(a for a in declared if "$" not in a.error_type)
            return found

        sites += macro_tree_sites(tree, source, parser(), _ERROR_MACROS | macros.names, nested)
    return sites, aliases


@cache
def _macro_query(names: frozenset[str]) -> Query:
    """Invocations of a repository's own error macros (`errormacros`), captured as the
    built-in ones are (`_macro_site` reads both)."""
    quoted = " ".join(f'"{name}"' for name in sorted(names))
    return Query(
        LANGUAGE,
        "(macro_invocation macro: [(identifier) @macro.name (scoped_identifier name:"
        f" (identifier) @macro.name)] (token_tree) @macro.args (#any-of? @macro.name {quoted}))"
        " @macro",
    )


# a `use` declaration, and the names of anyhow's macros in it: its tree holds no text a
# `use` cannot (not "use that as the root. .. Ok(..);" of a comment, which took cargo's
# `anyhow::bail` for its own). Led by its literal, so that the search over a whole file is
# a fast one (`(?m)^[ \t]*..use` tried every line start: 0.40 of 0.43 CPU-s over
# risingwave's files); what precedes it on its line is checked after (`_USE_LEAD`).
_USE = re.compile(rb"use\s+(?:::)?(\w+)([^;()\"=/]*);")
_USE_LEAD = re.compile(rb"[ \t]*(?:pub(?:\([^)\n]*\))?\s+)?")
_ANYHOW_MACRO = re.compile(rb"\b(bail|ensure|anyhow|format_err)\b(?!\s*::)")
_ANYHOW_CRATES = frozenset((b"anyhow", b"eyre", b"color_eyre"))


def own_error_macros(source: bytes, anyhow: bool = False) -> tuple[str, ...]:
    """anyhow's macro names (`bail`, `ensure`, `anyhow`, `format_err`) the file imports from
    any other crate or module: `use risingwave_common::bail;` is risingwave's own `bail!`,
    which returns the fn's error type (`Err(anyhow!(..).into())`), not an `anyhow::Error`
    (its `ExprError` read `anyhow::Error`, and `e.chain()` that does not compile, reading
    146). With `anyhow`, those it imports from anyhow or eyre themselves, and "*" when a
    glob `use` may bring them in (zellij's `use zellij_utils::errors::prelude::*`, which
    re-exports anyhow's `bail` and `Result`)."""
    found: set[str] = set()
    for use in _USE.finditer(source):
        names = _ANYHOW_MACRO.findall(use[2]) if (use[1] in _ANYHOW_CRATES) == anyhow else []
        if anyhow and use[1] not in _NO_MACROS and b"*" in use[2] and _at_top(source, use.start()):
            names = [*names, b"*"]
        if names and _declares_use(source, use.start()):
            found.update(name.decode() for name in names)
    return tuple(sorted(found))


# globs that bring in no error macro: std's, and a test module's `use super::*`
_NO_MACROS = frozenset((b"std", b"core", b"alloc", b"super", b"self"))


def _at_top(source: bytes, at: int) -> bool:
    """Whether the `use` at `at` opens its line (the file's top level, rustfmt's column 0)."""
    return at == 0 or source[at - 1 : at] == b"\n"


def _declares_use(source: bytes, at: int) -> bool:
    """Whether the `use` at `at` starts a declaration: only blanks and a `pub(..)` before it
    on its line (not `reuse`, nor a comment's words)."""
    lead = _USE_LEAD.match(source, source.rfind(b"\n", 0, at) + 1, at)
    return lead is not None and lead.end() == at


# `use lance_core::{Error, Result};`, `use crate::error::Result;` at the file's top level:
# where a bare `Result` is from. Not a `use` inside a fn or a module (sccache's `util.rs`
# takes `std::fmt::Result` in one fn, its crate's `Result` by a glob everywhere else), nor a
# nested group's (`use a::{b::{C, Result}}`)
_RESULT_IMPORT = re.compile(
    rb"^(?:pub(?:\([^)]*\))?\s+)?use\s+(?:::)?((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*)::"
    rb"(?:Result\s*;|\{[^{}]*(?<![\w:])Result\b(?!\s+as\b)[^{}]*\}\s*;)",
    re.M,
)


def result_import(source: bytes) -> str | None:
    """The module path a file's `use` takes `Result` from (`lance_core`, `crate::error`),
    None when it imports none (`FileScan.result_from`)."""
    found = _RESULT_IMPORT.search(source) if b"Result" in source else None
    return found[1].decode("utf-8", "replace") if found is not None else None


def uses_anyhow_result(source: bytes) -> bool:
    """`use anyhow::Result` (or `{.., Result}`): a bare `Result<T>` is anyhow's."""
    return _ANYHOW_RESULT.search(source) is not None


# the patterns of `rust-sites.scm`, in its order (`_SNAFU`: `#[snafu(display(..))]`)
_MACRO, _ATTR, _SNAFU, _METHOD, _CTOR, _ERRWRAP, _ALIAS = range(7)
_ROOT_CAPTURE = {
    _MACRO: "macro",
    _ATTR: "attr",
    _SNAFU: "attr",
    _METHOD: "method",
    _CTOR: "ctor",
    _ERRWRAP: "errwrap",
    _ALIAS: "alias",
}


def _site(
    pattern: int, node: Node, captures: dict[str, list[Node]], file: SourceFile
) -> Site | None:
    if pattern == _MACRO:
        return _macro_site(node, captures, file)
    if pattern in (_ATTR, _SNAFU):
        return _attr_site(node, captures, file)
    return _ctor_site(pattern, node, captures, file)


def _macro_site(
    node: Node, captures: dict[str, list[Node]], file: SourceFile, own: MacroSpec | None = None
) -> Site | None:
    """The site of an error macro's invocation; `own`: what the repository's own macro of
    that name is (`errormacros`), whose message may lead with the error's `Variant:`, its
    code (`polars_bail!(ComputeError: "..")`)."""
    name = node_text(captures["macro.name"][0])
    arguments = split_token_tree(captures["macro.args"][0])
    if own is None and name in DISPLAY_MACROS:
        return _display_site(node, name, arguments, file)
    # the message follows the check's operands
    index = own.message_argument if own is not None else CHECK_OPERANDS.get(name, 0)
    if len(arguments) <= index:
        return None
    tokens, code = _variant_led(arguments[index]) if own is not None else (arguments[index], None)
    message = token_message(tokens, is_format=True)
    at = index  # the message's argument
    if message is None and own is None and name in _SPAN_LED and len(arguments) > 1:
        # typst's `bail!(span, "not enough arguments")`: a diagnostic's place, then its
        # message (anyhow's `bail!` takes a literal first when more follow)
        message = token_message(arguments[1], is_format=True)
        at = 1 if message is not None else at
    if message is None and own is None and len(tokens) == 1 and tokens[0].type == "identifier":
        # `bail!(msg)`: anyhow's one-expression form, the message built in a local first
        message = local_message(node, node_text(tokens[0]))
        if message is not None:
            message = Message(message.text, message.is_format, message.args)
    if message is None:
        return None
    message = _with_arguments(message, arguments[at + 1 :])
    local = placeholder_only(message) if own is None else None
    if local is not None:  # `bail!("{msg}")` with `let msg = format!(..)` above
        message = local_message(node, local) or message
    if own is not None:
        kind, label = own.kind, f"{name}!"
    else:
        macro_node = node.child_by_field_name("macro")
        kind, label = MACRO_KINDS[name], node_text(macro_node) if macro_node else name
    site = _make_site(kind, node, file, message, label, error_code=code)
    if site is None or index == 0:
        return site
    check = check_text(name, [join_tokens(tokens) for tokens in arguments[:index]])
    if check == "false":  # `debug_assert!(false, ..)`: no check, a panic wherever it is reached
        return site
    failed = Condition("check_failed", check, site.line)
    return replace(site, facts=replace(site.facts, conditions=(*site.facts.conditions, failed)))


def _variant_led(tokens: list[Node]) -> tuple[list[Node], str | None]:
    """A message argument without a leading `Variant:`, and that variant (its code)."""
    if len(tokens) > 2 and tokens[0].type == "identifier" and tokens[1].type == ":":
        variant = node_text(tokens[0])
        return tokens[2:], variant if variant[:1].isupper() else None
    return tokens, None


def _with_arguments(message: Message, arguments: list[list[Node]]) -> Message:
    """`message` with the macro's arguments after it as its format arguments, unless the
    message already names its own."""
    extra = tuple(join_tokens(tokens) for tokens in arguments)
    return (
        Message(message.text, message.is_format, extra) if extra and not message.args else message
    )


def _display_site(
    node: Node, name: str, arguments: list[list[Node]], file: SourceFile
) -> Site | None:
    """`write!(f, "..", args)` in an error type's `Display::fmt` (`display`): the text of
    the variant the arm around it matches, as an `#[error(..)]` attribute would give it."""
    owner = display_owner(node, file.source)
    if owner is None or len(arguments) < 2 or continues_a_message(node):
        return None
    message = token_message(arguments[1], is_format=True)
    if message is None:
        return None
    site = _make_site("display", node, file, _with_arguments(message, arguments[2:]), name)
    if site is None:
        return None
    # the type's own variant only (`match self`): `match self.kind` writes another enum's
    variant = display_variant((c.text for c in site.facts.conditions), fields=False)
    # the impl, when its trait is another than `Display` (`ColorDisplay for Error`): the
    # text is written by that trait's `fmt`, which the record names
    other = display_trait(node)
    facts = replace(
        site.facts,
        enclosing_type=owner,
        variant=variant,
        enclosing_fn=None,
        enclosing_impl=f"{other} for {owner}" if other else None,
    )
    return replace(site, facts=facts)


def _attr_site(node: Node, captures: dict[str, list[Node]], file: SourceFile) -> Site | None:
    literal = captures["attr.message"][0]
    message = Message(decode_rust_string(node_text(literal)), is_format=True)
    args_node = literal.parent
    if args_node is not None:
        rest = split_token_tree(args_node)[1:]
        message = Message(message.text, True, tuple(join_tokens(tokens) for tokens in rest))
    # the attribute's name: `error` (thiserror) or `snafu` (`#[snafu(display(..))]`)
    return _make_site("error_attr", node, file, message, node_text(captures["attr.name"][0]))


def _method_sites(node: Node, captures: dict[str, list[Node]], file: SourceFile) -> list[Site]:
    method = captures["method.name"][0]
    name = node_text(method)
    if METHOD_KINDS[name] == "expect" and _own_expect(node, file.source):
        return []
    argument = captures["method.arg"][0]
    if name in _LAZY_METHODS and argument.type in _NO_CLOSURE:
        # anyhow's `with_context` takes a closure: `.with_context("tool")` (uv's
        # `OperationDiagnostic::with_context`, a label it keeps) is the repository's own
        return []
    if argument.type == "closure_expression":  # every message it may return, not the tail only
        messages = closure_messages(argument)
    else:
        message = expression_message(argument)
        if message is None and argument.type == "identifier":
            message = local_message(node, node_text(argument))  # `.context(msg)`
        messages = [message] if message is not None else []
    # `.expect(..)` on a multi-line chain: the line of the method, not of the receiver.
    made = (_make_site(METHOD_KINDS[name], node, file, m, name, anchor=method) for m in messages)
    return [site for site in made if site is not None]


# The methods whose message a closure makes (anyhow's, eyre's); and arguments that are none
_LAZY_METHODS = frozenset(("with_context", "wrap_err_with"))
_NO_CLOSURE = frozenset(("string_literal", "raw_string_literal", "macro_invocation"))
_STD_HOLDER = re.compile(r"(?:Option|Result)\b")
_BORROW = re.compile(r"^(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)+")


def _own_expect(call: Node, source: bytes) -> bool:
    """Whether `x.expect("..")` is a method of the type a parameter declares, not std's:
    typst's `args.expect("lightness component")?` on `args: &mut Args` returns the user's
    error "missing argument: lightness component" (`Args::expect`); nothing panics. std's
    `expect` is `Option`'s and `Result`'s (their aliases end so: `SourceResult`,
    `io::Result`); a generic (`T`) or an undeclared receiver stays std's, and so does one
    whose value is not passed on by `?` (risingwave's `datum: DatumRef<'_>` is an alias of an
    `Option`: std's `expect` gives the value itself, rarely a `Result`)."""
    if call.parent is None or call.parent.type != "try_expression":
        return False
    function = call.child_by_field_name("function")
    receiver = function.child_by_field_name("value") if function is not None else None
    if receiver is None or receiver.type not in ("identifier", "self"):
        return False
    declared = _parameter_type(call, node_text(receiver), source)
    if declared is None:
        return False
    base = _BORROW.sub("", declared).split("<", 1)[0].rsplit("::", 1)[-1].strip()
    single = len(base) == 1 or base in ("Self", "impl", "dyn")  # a generic, or not a name
    return bool(base) and base[0].isupper() and not single and not _STD_HOLDER.search(base)


def _parameter_type(node: Node, name: str, source: bytes) -> str | None:
    """The type the enclosing fn's parameter `name` is declared with (`self`: its impl's
    type), or None when no parameter is so named."""
    function = node.parent
    while function is not None and function.type != "function_item":
        if function.type == "closure_expression":
            return None  # the closure's own parameters may shadow it
        function = function.parent
    if function is None:
        return None
    if name == "self":
        return impl_type(function)
    return dict(fn_signature(function, source)[1]).get(name)


# serde's `de::Error` constructors that take a field's name and write the message themselves
# (also by its trait's qualified path: alacritty's `<V::Error as Error>::duplicate_field("key")`
# read "key", reading 290)
_SERDE_FIELD = re.compile(r"\bError>?::(missing|duplicate)_field$")


def _ctor_site(
    pattern: int, node: Node, captures: dict[str, list[Node]], file: SourceFile
) -> Site | None:
    prefix = "ctor" if pattern == _CTOR else "errwrap"
    argument = captures[f"{prefix}.arg"][0]
    message = expression_message(argument)
    callee = node_text(captures[f"{prefix}.fn"][0])
    arguments = argument.parent
    if message is None and prefix == "errwrap" and argument.type == "call_expression":
        # `Err(internal("..")))`, `Err(RenderErrorReason::Other("..").into())`: the call carries it
        argument = _without_into(argument)
        function = argument.child_by_field_name("function")
        inner = argument.child_by_field_name("arguments")
        if (
            function is not None
            and function.type in ("identifier", "scoped_identifier")
            and not _CTOR_CALLEE.search(node_text(function))  # the ctor pattern's own site
            and inner is not None
            and inner.named_children
            and inner.named_children[0].type in _MESSAGE_ARGUMENTS
        ):
            message = expression_message(inner.named_children[0])
            callee, arguments = node_text(function), inner
            if message is not None:
                message = through_helper(node, callee, message)
    if message is None:
        return None
    if prefix == "ctor" and arguments is not None and arguments.named_children[:1] == [argument]:
        message = through_helper(node, callee, message)
    field = _SERDE_FIELD.search(callee)
    if field is not None and not message.is_format:
        # serde's `de::Error::missing_field("max_size")`: the argument is a field's name, the
        # message serde's own ("missing field `max_size`"; stop 54's reading: records whose
        # message was "max_size")
        message = Message(f"{field[1]} field `{message.text}`", False)
    if (
        message.is_format is False
        and " " not in message.text.strip()
        and arguments is not None
        and arguments.named_child_count > 1
    ):
        return None  # `catalog_id_not_found("table", id)`: a noun argument, not a message
    code, http = _code_of(callee)
    return _make_site("constructor", node, file, message, callee, error_code=code, http=http)


def _without_into(call: Node) -> Node:
    """`x.into()` -> `x`, for a call `x`."""
    function = call.child_by_field_name("function")
    if function is not None and function.type == "field_expression":
        field, value = function.child_by_field_name("field"), function.child_by_field_name("value")
        if field is not None and node_text(field) == "into" and value is not None:
            return value if value.type == "call_expression" else call
    return call


def _code_of(callee: str) -> tuple[str | None, int | None]:
    parts = callee.split("::")
    owner, member = (parts[-2], parts[-1]) if len(parts) >= 2 else ("", parts[-1])
    if owner == "Status" and member in GRPC_CODES:
        return member.upper(), None
    if owner.endswith("Code") and member[:1].isupper():
        return member, None
    return None, None


def _make_site(
    kind: SiteKind,
    node: Node,
    file: SourceFile,
    message: Message,
    macro: str,
    *,
    anchor: Node | None = None,
    error_code: str | None = None,
    http: int | None = None,
) -> Site | None:
    if not _has_words(message):
        return None
    start = (anchor or node).start_point
    facts = site_facts(node, file.source)
    return_type = facts.return_type
    if return_type and _BARE_ERROR.search(return_type) and _ANYHOW_ERROR.search(file.source):
        return_type = _BARE_ERROR.sub("anyhow::Error", return_type)
    if return_type and _BARE_RESULT.match(return_type) and _EYRE_RESULT.search(file.source):
        return_type = "eyre::" + return_type
    facts = replace(
        facts,
        return_type=return_type,
        snippet=statement_snippet(node) if kind not in TEXT_KINDS else None,
        call=enclosing_call(node),
        unsafe_fn=in_unsafe_fn(node),
        waited=waited_by(node),
        item=initializer_item(node),
        help=attached_help(node),
    )
    if kind in TEXT_KINDS and error_code is None and (facts.enclosing_type or "").endswith("Code"):
        error_code = facts.variant
    if error_code is None:
        error_code = _code_in_message(message.text)
    return Site(
        kind=kind,
        file_path=file.path,
        line=start.row + 1,
        column=start.column,
        message=message.text,
        is_format=message.is_format,
        pattern=(
            expect_pattern(message.text, is_format=message.is_format)
            if kind == "expect"
            else panic_pattern(macro, message.text, is_format=message.is_format)
        ),
        macro=macro,
        format_args=message.args,
        error_code=error_code,
        http_status=http,
        facts=facts,
    )


_CODE_PREFIX = re.compile(r"^\[?([A-Z]\d{4}|[0-9A-Z]{5}(?=:))\]?[: ]")


def _code_in_message(message: str) -> str | None:
    """`E0123: ...` or a SQLSTATE like `42P01: ...` leading the message."""
    match = _CODE_PREFIX.match(message)
    return match.group(1) if match else None


def _has_words(message: Message) -> bool:
    """A message of placeholders alone (`"{}"`) says nothing and matches everything."""
    return any(
        any(ch.isalpha() for ch in segment)
        for segment in literal_segments(message.text, is_format=message.is_format)
    )


def _type_alias(captures: dict[str, list[Node]]) -> TypeAlias | None:
    """`type XResult<T> = Result<T, XError>` (or `= std::result::Result<T, E = XError>`)."""
    target = captures["alias.type"][0]
    base = target.child_by_field_name("type")
    arguments = target.child_by_field_name("type_arguments")
    if base is None or arguments is None or not node_text(base).endswith("Result"):
        return None
    types = [c for c in arguments.named_children if c.type not in ("lifetime", "line_comment")]
    if len(types) < 2:
        return None
    error = node_text(types[1])
    params = captures["alias"][0].child_by_field_name("type_parameters")
    if params is not None:  # `type Result<T, E = MyError> = std::result::Result<T, E>`
        for param in params.named_children:
            name = param.child_by_field_name("name")
            default = param.child_by_field_name("default_type")
            if name is not None and default is not None and node_text(name) == error:
                error = node_text(default)
    return TypeAlias(name=node_text(captures["alias.name"][0]), error_type=error)
