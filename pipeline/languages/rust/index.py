"""The repository index of one Rust file: one parse (of its items but the `#[cfg(test)]`
ones), one query pass; a later version from the earlier one's index and a parse of what
changed (`indexunits`). Pure."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from importlib import resources

from tree_sitter import Node, Query, QueryCursor, Tree

from pipeline.core.brackets import first_outside_brackets, split_outside_brackets
from pipeline.core.index import (
    ARM_LINK,
    ASSOCIATED_CALL,
    CALLED_TYPE,
    COMMAND_NAME,
    DEF_KINDS,
    ERROR_SIDE_METHODS,
    FIELD_TYPE,
    FIELD_VALUE,
    GUARD_JOIN,
    LOOP_ITEM,
    VARIANT_VALUE,
    Arm,
    Build,
    Call,
    CallKind,
    Definition,
    DefKind,
    FileIndex,
    Impl,
    Local,
    Route,
    Scope,
    Subcommand,
    Use,
)
from pipeline.languages.rust.drops import (
    dropped_value,
    handed_to,
    held_value,
    logged_by,
    may_go_elsewhere,
    unwrapped_by,
)
from pipeline.languages.rust.facts import fn_conditions
from pipeline.languages.rust.index_items import (
    ARG_CHARS,
    DIVERGING_MACROS,
    ROUTE_ARROW,
    ROUTE_VERB,
    base_name,
    flatten_use,
    fn_signature,
    in_test,
    item_context,
    leading,
    short,
    text_of,
    token_arity,
    value_parsers,
    variant_of,
)
from pipeline.languages.rust.indexunits import free_fns, index_after
from pipeline.languages.rust.macroitems import macro_items, may_wrap_items
from pipeline.languages.rust.macronames import macro_rules_names
from pipeline.languages.rust.regions import parse_units_checked, product_units
from pipeline.languages.rust.sites import GRPC_CODES, LANGUAGE, parser
from pipeline.languages.rust.testcode import (
    declared_test_modules,
    file_is_test_only,
    is_test_path,
)
from pipeline.languages.rust.visibility import (
    crate_use_lines,
    inline_public_uses,
    module_privacy,
    public_use_lines,
)

CLOSURE = "<closure>"
# Test harness crates and helpers (`planner_test/`, `test_utils/`): their callers are not users.
_TEST_DIRECTORY = re.compile(
    r"(?:^|/)(?:[\w-]*[_-])?(?:tests?|test_utils?|testing)(?:[_-][\w-]*)?/"
)
# Bump when `index_file` may answer differently for the same bytes, or the cache stores it
# otherwise: it keys the index cache (23: marshal, not JSON; 24: a fn's every attribute;
# 25: a fn passed by path as an argument is a call; 26: a `cfg(feature = "test")` gate is
# test code; 27: a `cfg` is test code only when no build but a test compiles it; 28: an
# impl for `&'a T` is `T`'s; 29: a `build.rs` under the root's `src/` is a module; 30: a
# `let` keeps its type through error-side methods, a closure parameter of an `Option`/`Result`
# method has its receiver's; 31: a turbofish's type; 32: not `size_of::<T>`'s; 34: a
# variant in a `matches!` is a pattern, not built; 37: `test_util` is test support; 38: routes
# an item's attribute lists, `"/p" => get(h)`; 39: a fn whose body is one string literal
# keeps it as its `value`; 40: `let x: T = y.try_into()` calls `T::try_from`; 41: with `y`
# as its argument; 42: `#[utoipa::path(post, path = "/p")]` is a route; 43: an arm's
# pattern keeps the variants it names inside, `Commands::Pip/PipCommand::Compile`; 44:
# `let x = T::f(..)` keeps `f`, whose return type the link reads; 45: a clap field's
# `value_parser = f` is an `ARG` route; 46: an arm's binding of a tuple variant's value,
# `Commands::Login(cmd) =>`, is a local typed `<variant>Commands::Login`; a clap field's
# `#[arg(..)]` is kept, and a field of a type of its own an `ARG` route to `T::from_str`;
# 47: `let x: T = s.parse()` and `s.parse::<T>()` call `T::from_str`; 48: `E::V.into()`,
# an arm's `=> E::V` and a field's `kind: E::V` build the variant; 49: a call says whether
# `?` applies to it; 50: an item keeps its `#[thiserror_ext(..)]`; 51: an error struct's
# literal, `InvalidPatternError { .. }`, is a build of it; 52: `let x = a.b().c()` keeps
# the chain it calls `c` on, `<call>a.b().c`, which the link types as a receiver; 53: an
# arm's `Some(E::V(x))`, `Ok(..)`, `Err(..)` binds x as `E::V(x)` does; 54: an impl keeps
# its bounded type parameters, `impl<E: SyncExpression> ..`; 55: a `for` loop's names are
# locals typed by what they iterate; 56: a call with a turbofish in a macro's tokens,
# `dispatch!(.., { run_impl::<RocksEngine, API>(config) })`; 57: a file's private modules
# and `pub use` lines, `visibility`; 58: a fn path as a method's receiver is a call of it,
# `Parser::parse_statements.parse(parser)`; 59: a `let` in a nested block keeps the block's
# last line, `Local.end`; 60: a receiver chain too long to keep whole is kept with its calls'
# arguments elided, `Builder::new(..).build`; 61: `if let`, `while let` and `let .. else` bind
# a variant's one value as a dispatch arm does, `Ok(Ok(E::V(x)))` too; 62: a `for` loop is a
# call of kind `loop` of its value's `next`; 63: a test path's empty index is no blob's: a
# cache of 62 may hold one for a blob a product file has too; 64: a call whose error goes
# no further, `Call.dropped`); 65: a `match` that drops the error; 66: caller paths are one per
# chain of fns by module, not by name (mdBook's `cmd::build::execute`, `cmd::serve::execute`);
# 67: a `match` arm that only logs the error drops it, as `.unwrap_or_else(|_| ..)` does;
# 68: only one that logs it at debug or trace level (a `log::error!` is read by operators);
# 69: `T::from(x)` among `From` impls whose source types share a name, by the written path;
# 70: chains of paths keep the entry by its name (two programs' `main`s are one path); 71: a
# subcommand is named by its variant's `#[command(name = "..")]`; 72: `Self::f()` is typed by
# the impl's own `f` (`let x = Self::f()?`, `Self::f()?.g()`); 73: a struct literal passed to
# a generic or `impl Trait` parameter gives its type; 74: a condition's const is its own
# file's first, a free one before an impl's; 75: the items an item-level macro wraps are
# indexed (`macroitems`: tokio's `cfg_rt! { .. }`); 76: `Pin::new(&mut x).poll(cx)` is typed
# by `x`, pin-project's `project()` keeps the fields; a method of a foreign trait's impl on a
# public type is public API (`Connection` through `Future::poll`); 77: a caller passing a
# literal that rules the site out is no way in (`callerpaths.required_values`); 78: a
# channel's half of another crate is typed as that crate's (a field of `self` too), and a
# field of `self` by the resolving file's own struct of the name first; 79: a private
# module's item is named by a glob re-export of its module too (`pub use backward_user::*`);
# 113: what a site needs of its fn's parameters is carried up the callers' arguments, and
# variants matched or compared count (`valueflow`); 114: the way in above a cut path carries
# the needs the walk had at its top hop (`callerpaths._needs_along`); 115: a fn an attribute
# exports to another language is an entry point (`entrypoints.exported_to`); 116: a catch-all
# arm needs none of the variants of the arms before it (`valueflow._past_arms`); 117: a path
# from another language's binding ranks after the program's own commands (`EXPORTED`);
# 118: a hop names the other lines where it calls the next (`Hop.also_at`), and a call's
# `#[cfg(..)]` on an argument is no argument of its own (pingora's `S::start_service`);
# 119: a doc comment saying "only used for test" makes a `pub` fn no entry point, and no
# fn for tests tops a path with no entry point (`callerpaths._walk`'s roots); 120: a hop's
# other calls of the next leave out those a name alone matched (`callerpaths._also_at`);
# 121: an arm after a guarded arm of the same values needs the guard false (`valueflow`);
# 122: a site in an arm of its own fn's dispatch is reached from that statement or
# subcommand (`callerpaths._own_arm_path`); 123: a status arm keeps the enum it matches on
# when not `Self` (`StorageError::NotFound:NOT_FOUND`), and a `from` fn of a `From` impl the
# variant each arm makes of another (`Definition.variant_arms`): HTTP statuses through them;
# 124: a file's `pub(crate) mod`s (`FileIndex.crate_modules`) hide nothing within the crate;
# 125: `use a::b::{self, C}` imports `b` as `a::b` (it was `self`); 126: a caller's `let`
# of a variant, passed on, is that variant to the needs above (`valueflow._built_local`);
# 127: a `let` of another crate's type's constructor, and a channel's half written by alias
# or import, keep their crate's methods (`callgraph._made_by_other_crate`); 128: snafu
# context selectors are builds (`rust-index-snafu.scm`); 129-130: `FileIndex.macro_names`,
# `Reach.unbuilt`; 131-132: axum `.nest` prefixes (`_nested_under`), `SUB` routes of fns;
# 133-134: `Reach.held_in` "another error type" / "not returned", snafu's selector drops
# `Error`; 135: a conversion by the error type the site's file means; 136: a struct's
# literal and a lock's guard type a call; 137: a `macro_rules!` body read in linear time;
# 138: an arm's code of any code enum (`Reach.code`), bare variants under `use Error::*`;
# 139: test and benchmark support is no entry point, a benchmark subcommand ranks last;
# 140: a public API's name keeps the inline `mod`s around its fn; 141: a method of a
# `#[pymethods]` impl (the `pub` ones of a `#[wasm_bindgen]` one) keeps that attribute;
# 142: a `let` of a cast (`as *const i8`), a tuple's too, has the cast's type; 143: a
# struct's `#[pyclass]` kept, a Python export named as Python calls it; 144: its `#[new]` a
# constructor, its `#[staticmethod]` the class's; 145: a receiver of another crate's type
# that is no client makes no RPC hop; 146: nor one of an HTTP or storage crate's client, nor a
# call that sends no request; 147: an arm over a tuple of names needs each its variant;
# 148: a turbofish path's type without its arguments (`TikvServer::<E, F>::init` is `init`
# of `TikvServer`), a `let` of a field of a call's value no longer the name's earlier type;
# 149: one trait's impls of a method told apart by the type of the call's first argument;
# 150: a need of a string or integer literal (`"kv" =>`, `_ =>` after literal arms); 151:
# a default method's `self` call dispatches to the impls that keep the default only; 152:
# `Call.guard`, the `if` on a plain name around a call, a need of the walk up through it;
# 153: an arm of a `match` on a plain name too; 154: `FileIndex.crate_uses`, a fn a private
# module hides is seen where a crate-wide `use` re-exports it; 155: an actix route's path
# under the `web::scope("/p")`s that register it (`_scoped_under`); 156: a route's handler
# of another crate, the one its file imports; 157: a walk with no entry shows a chain the
# depth bound cut before one whose callers all keep the error; 158: `no_display` reads a
# type whose generic arguments are lifetimes alone (`Error<'src>`); 159: a parenthesized
# type (`&(impl Tr + ?Sized)`) is the type inside; 160: std's string conversions
# (`into_bytes`, `into_string`, ..) on a value of unknown type are std's; 161: a variant's
# `Reach.internal` names the scope of its type's restricted visibility (`pub(crate)`); 162:
# a method's module-only scope is its type's, which a re-export widens; 163: of programs
# calling one chain alike, the one of the site's own package begins the path; 164: a variant
# every builder hands to a method that keeps it (`working_set.error(E::V(..))`) is not returned;
# 165: a dispatch arm's variant inside `Some(..)` or `Ok(..)`; 166: a `From` source a `use`
# renames (`use toml::de::Error as TomlError`) is the type it names; serde_yaml's errors; 167:
# `Reach.logged` with paths: a caller of the site's fn that logs the error it passes on;
# 168: a handler that logs the error and returns another value logs it (`Call.logged`); 169:
# a field of a struct an alias of another build shares the name of is the struct's; 170: each
# variant's value a tuple pattern of an arm binds (`(E::A(a), E::A(b)) =>`); 171: a private
# module a public one re-exports whole by name (`pub use crate::core::json_utils;`); 172: a
# struct literal's field given `s.parse()?` calls the field's type's `from_str`; 173: the
# `pub use`s of a public inline module (`pub mod core { pub use super::desc::Desc; }`);
# actix-web's `impl ResponseError for E` is the error's conversion (500 by default); 174: a
# variant a `use` brings in by name and the code calls (`ParseFetchedObject(..)`) is built;
# 175: a `#[from]` variant's `#[error(..)]` (`Reach.wrapped_by`); 176: a panic's
# `Reach.panic_hook`, the repository's fn that installs a hook ending the process; 177: a
# `#[from]` wrapper is of the crate its path names (`uv_pypi_types::MetadataError`); 178: of
# same-named types in one crate, a value runs the methods of the one the `use` names; 179: a
# typed `let`'s conversion through `.ok()?`/`.unwrap_or(..)`, its error dropped; 180: a walk
# into an example's code needs a caller in that example (`buildable.program_needs`); 181: a
# private field's `pub fn` of its name (`Dependency.accessor`); 182: a fn's `#[deprecated]` and
# `#[doc(hidden)]` kept, a way in through one ranked after the others; 183:
# `Definition.shows_causes`, a fn that prints an error with its causes; 184: an example's own
# subcommand is printed by that example's `main` (`Reach.printed_by`); 185: a parameter's
# field the conditions read (`options.ssl_mode`), with a field's setter and `get_` getter;
# 186: a setter takes the field's type, of the type declared in its file when the crate has
# two of the name; a fuzzing harness or an xtask program ranks with benchmarks; 187:
# `FileIndex.scopes` (`catch_unwind`, a spawned task or thread) and `Reach.caught_by`; 188:
# a path call through a crate's module (`xtask::test::run`) is no other module's fn; 189: a
# thread's handle is joined by a `join()` of no argument (not a path's `join(x)`); 190:
# `Definition.backtrace`, and `Reach.quiet_hook` of a program's hook that prints none; 191:
# a variant built with fields in a macro's tokens (`bail!(E::V { .. })`) is a build; 192:
# `Call.turbofish`, and a generic's `T::f()` runs the impl of the type a caller's turbofish
# gives `T`; 193: a path call under `std`, `core` or `alloc` (`fs::create_dir_all` of `use
# std::fs::{self, ..}`) is no fn of the repository's; 194: of two ways in of one kind, the
# one whose label names a word of the site fn's impl type comes first; 195: a bare call a
# file's `use` names from another crate's module (`use axum::routing::post;`) or the
# standard library's is no fn of the repository's; `Reach.held_in` `ANYHOW_OR_ITSELF` of a
# variant some builders return in anyhow's `Result` and the others as the enum itself; 196: a
# variant's name written in a `match` arm's pattern is no build of it (`Reach.unbuilt`); 197:
# a unit variant before a `)` or `,` in a macro's tokens (`bail!(Error::NoGlobalBucket)`) is
# a build of it; 198: a verb no std type has (`apply`, `run`, ..) on a receiver the code does
# not type is the method of the type the receiver is named after (`switch.apply(..)`); 199:
# `Build.when`, the conditions on the way to a build of an error-named type; 200: a guarded
# `f()?`'s outcome is that of what `f`'s `Result` holds (`Reach.guarded`); a namesake call
# (198's) is kept only for a fn no other call reaches; 201: a public fn the one program's
# `main` calls, where the depth limit cut the best path, is entered from that `main`; 202:
# a free fn of the file passed by its bare name (`Binary(env)`) is a call on the caller's behalf;
# 203: a build in an `ensure!`'s tokens is made when its check fails (`Build.when`); 204: a
# trait's impl in a package the caller does not see is no callee unless it sees the trait's;
# 205: a call's value is held past the wrappers that keep a future's output
# (`.instrument_await(..)`, `drops.held_value`); 206: a `let` of another crate's free fn
# (`tokio::time::interval(..)`) holds no repository type, whatever fns the repository names so;
# 207: a changed file's index from its earlier one knows the free fns of the units it did not
# parse (202's passed names), and is made whole when the file's free fns changed; 208: a
# build's conditions tell a bare name's failure by its `let` (`facts._let_value`); 209: a
# free or path call named `spawn_..` given a closure or an async block runs it apart
# (`_scope_kind`); 210: a call whose caller unwraps the error it returns says how
# (`Call.unwrapped`); 211: a call under an `if` on a field keeps it as its guard, where no
# `if` on a plain name is around it (`_guard`); 212: a `match` arm of `Build.when` keeps the
# arms tried before it (what a catch-all arm's value matched none of).
INDEX_VERSION = "212"
# Macros whose tokens are a pattern: `E::V(..)` there tests a value, it builds none.
_PATTERN_MACROS = frozenset(("matches", "assert_matches", "debug_assert_matches"))

_KEYWORDS = frozenset(
    [
        "as",
        "async",
        "await",
        "break",
        "const",
        "continue",
        "crate",
        "else",
        "enum",
        "extern",
        "fn",
        "for",
        "if",
        "impl",
        "in",
        "let",
        "loop",
        "match",
        "mod",
        "move",
        "mut",
        "pub",
        "ref",
        "return",
        "self",
        "Self",
        "static",
        "struct",
        "super",
        "trait",
        "type",
        "unsafe",
        "use",
        "where",
        "while",
        "dyn",
        "Some",
        "Ok",
        "Err",
        "None",
        "Box",
        "Vec",
        "vec",
        "format",
        "println",
        "write",
        "writeln",
    ]
)
# (also inside `Some(..)`/`Ok(..)`: rustup's `Some(ShowSubcmd::ActiveToolchain { .. }) =>`
# under `RustupSubcmd::Show { subcmd, .. } => match subcmd`, reading 280)
_ENUM_ARM = re.compile(r"^\s*(?:&\s*)?(?:(?:Some|Ok)\s*\(\s*)?(?:(?:\w+::)*)([A-Z]\w*)::([A-Z]\w*)")
# `Commands::Login(cmd)`, `Self::Run(ref mut args)`: an arm that binds a variant's one value
_VARIANT_BINDING = re.compile(
    r"^\s*(?:&\s*)?(?:(?:\w+::)*)([A-Z]\w*)::([A-Z]\w*)\s*\(\s*(?:ref\s+)?(?:mut\s+)?"
    r"([a-z_]\w*)\s*\)\s*$"
)
# The same inside `Some(..)`, `Ok(..)`, `Err(..)`: `Some(Shard::QueueProxy(proxy))`
_WRAPS = ("Some", "Ok", "Err")
_WRAPPED_BINDING = re.compile(
    r"^\s*(?:(?:Some|Ok|Err)\s*\(\s*){1,2}(?:&\s*)?(?:(?:\w+::)*)([A-Z]\w*)::([A-Z]\w*)\s*\(\s*"
    r"(?:ref\s+)?(?:mut\s+)?([a-z_]\w*)\s*\)\s*\)\s*\)?\s*$"
)
_VARIANT_IN = re.compile(r"\b([A-Z]\w*)::([A-Z]\w*)\b")
_STRING_ARM = re.compile(r'^\s*(?:Some\s*\(\s*\(\s*)?"([\w.-]+)"')
# an impl block's attribute that exports its methods (`entrypoints.exported_to`)
# (not napi's `#[napi] impl`: each method it exports says `#[napi]` itself)
_EVERY_METHOD = re.compile(r"^(?:pyo3::)?pymethods\b")  # private ones too, not only `pub`
_EXPORTING_IMPL = re.compile(
    rf"{_EVERY_METHOD.pattern}|^(?:wasm_bindgen::prelude::)?wasm_bindgen\b(?!\s*=)"
)
_STATUS = re.compile(r"StatusCode::([A-Z][A-Z_]*)\b")  # HTTP's: `NOT_FOUND`, not `NotFound`
# the code an arm's value gives: an HTTP `StatusCode::NOT_FOUND`, a repository's own code
# enum's (greptimedb's `StatusCode::InvalidArguments`, meilisearch's `Code::IndexNotFound`),
# tonic's `Code::NotFound` or `Status::not_found(..)`
_CODE = re.compile(
    r"\b((?:Status|Error)?Code)::([A-Z]\w*)\b(?!\s*(?:::|\())"
    rf"|\b(Status)::({'|'.join(sorted(GRPC_CODES))})\s*\("
)
# the variants a match arm's pattern names: `ApiError::NotFound(_)`, `Self::Gone`
_ARM_VARIANT = re.compile(r"\b(Self|[A-Z]\w*)::([A-Z]\w*)")
# a bare variant a pattern names under `use Error::*;` (greptimedb's `status_code`):
# `InvalidSourceAndTargetRegion { .. }`, `RegionNotFound { .. } | TableNotFound { .. }`
_BARE_VARIANT = re.compile(r"(?<![\w:])([A-Z]\w*)\b(?!\s*::)")
_GLOB_USE = re.compile(r"\buse\s+(?:(?:crate|self|super|[a-z_]\w*)::)*([A-Z]\w*)::\*\s*;")


def _status_arms(body: Node, owner: str | None) -> tuple[str, ...]:
    """`Variant:CODE` for each variant a match arm of `body` names whose value gives one
    code (`_CODE`: neon's `ApiError::BadRequest(err) => .. StatusCode::BAD_REQUEST`), as
    `Enum::Variant:CODE` when the pattern names another enum than `Self` (qdrant's
    `HttpError::status_code`, a match on its `StorageError`: `StorageError::NotFound { .. }
    => StatusCode::NOT_FOUND`). CODE is the code as written, `.` for `::`
    (`StatusCode.NOT_FOUND`, `Code.IndexNotFound`, `Status.not_found`). Under a `use
    Owner::*;` of the fn's own type, a pattern's bare names are its variants."""
    found: dict[str, None] = {}
    text = text_of(body)
    glob = owner is not None and any(m[1] == owner for m in _GLOB_USE.finditer(text))
    for pattern, value in _arms_in(body):
        codes = {
            f"{m[1]}.{m[2]}" if m[1] else f"{m[3]}.{m[4]}" for m in _CODE.finditer(text_of(value))
        }
        if len(codes) != 1:
            continue
        (code,) = codes
        written = text_of(pattern)
        named = [v if e == "Self" else f"{e}::{v}" for e, v in _ARM_VARIANT.findall(written)]
        if glob and not named:
            named = [v for v in _BARE_VARIANT.findall(written) if v not in _WRAPPING]
        for variant in named:
            found[f"{variant}:{code}"] = None
    return tuple(found)


def _variant_arms(body: Node) -> tuple[str, ...]:
    """`A::V>B::W` for each arm of a `from` fn's `match` whose pattern names variants of one
    enum and whose value builds one variant of another (qdrant's `impl From<CollectionError>
    for StorageError`: `CollectionError::NotFound { .. } => StorageError::NotFound { .. }`):
    where a conversion takes each variant (`callerpaths.made_status`)."""
    found: dict[str, None] = {}
    for pattern, value in _arms_in(body):
        named = set(_ARM_VARIANT.findall(text_of(pattern)))
        built = {f"{e}::{v}" for e, v in _ARM_VARIANT.findall(text_of(value))}
        enums = {enum for enum, _variant in named}
        if len(built) != 1 or len(enums) != 1 or "Self" in enums:
            continue
        (target,) = built
        for enum, variant in sorted(named):
            if not target.startswith(f"{enum}::"):
                found[f"{enum}::{variant}>{target}"] = None
    return tuple(found)


def _span(node: Node) -> tuple[int, int]:
    """A node's bytes as `bytes.find`'s bounds."""
    return node.start_byte, node.end_byte


def _arms_in(body: Node) -> list[tuple[Node, Node]]:
    """The (pattern, value) of each match arm in `body`, nested ones too."""
    arms = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "match_arm":
            pattern = node.child_by_field_name("pattern")
            value = node.child_by_field_name("value")
            if pattern is not None and value is not None:
                arms.append((pattern, value))
        stack.extend(node.named_children)
    return arms


_ROUTE_ATTR = re.compile(r'^(get|post|put|delete|patch|head)\s*\(\s*"([^"]*)"')
# The OpenAPI document's route of a handler (`#[utoipa::path(post, tag = "x", path =
# "/analyze", ..)]`), whatever registers it: quickwit's warp filters pass their handlers by
# plain name (`.then(analyze_request)`), which no call edge follows. Strings skipped whole.
_DOCUMENTED_ROUTE = re.compile(
    r"^utoipa::path\s*\(\s*(get|post|put|delete|patch|head|options|trace)\s*,"
    r'(?:[^"]|"(?:[^"\\]|\\.)*")*?\bpath\s*=\s*"([^"]*)"'
)
_ROUTE_CALL = re.compile(r"\b(get|post|put|delete|patch|head|any)\s*\(\s*([\w:]+)\s*\)")
# actix-web: `web::get().to(handler)`, `web::post().to(SeqHandler(handler))`
_ROUTE_TO = re.compile(
    r"\b(get|post|put|delete|patch|head)\s*\(\s*\)\s*\.to\s*\(\s*(?:[A-Z]\w*\s*\(\s*)?([\w:]+)\s*\)"
)
_RESOURCE = re.compile(r'\bresource\s*\(\s*"([^"]*)"')
_SUBCOMMAND = re.compile(
    r'^(?:(?:\w+::)*(?:Command|App|SubCommand)::(?:new|with_name)\s*\()?\s*"([\w-]+)"'
)
_NAME_PATH = re.compile(r"[a-z_]\w{0,39}(?:\.[a-z_]\w{0,39}){0,2}")
# A `for` loop's name in its pattern (`segment`, `&x`, `ref mut x`, `mut x`), alone or in a
# pair (`(_, segment)`), and the longest value iterated it is typed from
_LOOP_NAME = re.compile(r"(?:&\s*)?(?:ref\s+)?(?:mut\s+)?([a-z_]\w*)")
_LOOP_VALUE_CHARS = 80


def _ensured(node: Node) -> str | None:
    """The check of the `ensure!` whose tokens build the error at `node`, as written
    (greptimedb's `ensure!(column_exists, ColumnNotFoundSnafu { .. })` builds it when
    `column_exists` is false; reading 318: the conditions said only the way to the check)."""
    current = node.parent
    while current is not None and current.type in ("token_tree", "arguments"):
        current = current.parent
    if current is None or current.type != "macro_invocation":
        return None
    macro = current.child_by_field_name("macro")
    name = text_of(macro).rsplit("::", 1)[-1] if macro is not None else ""
    tree = next((c for c in current.named_children if c.type == "token_tree"), None)
    if name != "ensure" or tree is None:
        return None
    inside = text_of(tree)[1:-1]
    at = first_outside_brackets(inside, ",")
    if at < 0 or not _ERROR_NAMED.search(inside[at:]):  # the check, then the error it builds
        return None
    if node.start_byte <= tree.start_byte + 1 + len(inside[:at].encode()):
        return None  # built in the check itself (`ensure!(f().context(XSnafu)?, ..)`)
    return " ".join(inside[:at].split()) or None


def _registers_route(call: Node) -> bool:
    """Whether a call hands a web framework its handler: it is, or is an argument of, a
    `.route(..)`, `.nest(..)`, `.service(..)` or `.to(..)` (`.route("/keys", post(create_key))`):
    the handler is an HTTP entry point of its own (`Route`), not a fn the router calls."""
    current: Node | None = call
    for _ in range(6):  # `get(index).post(create)` in `.route(..)`: five steps up
        if current is None:
            return False
        if current.type == "call_expression":
            function = current.child_by_field_name("function")
            field = function.child_by_field_name("field") if function is not None else None
            if field is not None and text_of(field) in _ROUTE_METHODS:
                return True
        current = current.parent
    return False


_ROUTE_METHODS = frozenset(("route", "nest", "service", "route_service", "nest_service", "to"))
# String literals and line comments: no names of the code (`"env" => Binary(env)`)
_UNSAID = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*')
# A step of `Build.when`: (kind, text, negated), a `match` arm's with the arms before it
When = tuple[str, str, bool] | tuple[str, str, bool, tuple[str, ...]]
# A type named as an error: its builds' conditions are kept (`Build.when`)
_ERROR_NAMED = re.compile(r"Err|Snafu")
_RECEIVER_SPACE = re.compile(r"\s+(?=[.?])|(?<=\.)\s+")
# A receiver the link types as a chain (`_receiver_type`): a name or a type's fn called,
# then fields and method calls, each call's arguments plain (no nested call, closure, block
# or string), at most 80 characters: `session.env()`, `Catalog::new(x).tables()`, `a.b(&c)?`.
_CALL_CHAIN = re.compile(
    r"(?=.{1,80}$)(?=.*\()[A-Za-z_][\w:]*(?:\([^(){}|\"\n]*\))?"
    r"(?:\??\.[a-z_]\w*(?:\([^(){}|\"\n]*\))?)*\??",
    re.S,
)


@cache
def _query(snafu: bool = False) -> Query:
    """`rust-index.scm`, with `rust-index-snafu.scm` for a file that says `Snafu`."""
    queries = resources.files("pipeline.languages.rust.queries")
    text = queries.joinpath("rust-index.scm").read_text("utf-8")
    if snafu:
        text += "\n" + queries.joinpath("rust-index-snafu.scm").read_text("utf-8")
    return Query(LANGUAGE, text)


def leaves_out(path: str) -> bool:
    """Whether the index leaves `path` out: test code by its directory, whatever it holds."""
    return is_test_path(path) or _TEST_DIRECTORY.search(path) is not None


def index_file(path: str, source: bytes) -> FileIndex:
    """Definitions, calls, imports, dispatch arms and routes of one file (test code left out).

    `clean` says the index came from a parse without errors of the file's items but its
    `#[cfg(test)]` ones: only such an index is split by unit (`index_file_after`)."""
    if leaves_out(path):
        return FileIndex(clean=False)
    tree, cut = _parse_product(source)
    if file_is_test_only(tree.root_node):
        return FileIndex(clean=False)
    index = _with_file_facts(index_tree(tree, source), source)
    return index if cut else replace(index, clean=False)


def index_file_after(
    path: str, source: bytes, old_source: bytes, old_index: FileIndex
) -> FileIndex:
    """`index_file(path, source)`, parsing only the units that changed since `old_source`
    (whose index is `old_index`): `indexunits`."""
    if leaves_out(path):
        return FileIndex(clean=False)
    found = index_after(source, old_source, old_index, index_tree)
    if found is None:
        return index_file(path, source)
    return _with_file_facts(found, source)


def _with_file_facts(index: FileIndex, source: bytes) -> FileIndex:
    """`index` with what the index reads of the file's whole text, whichever of its units
    were parsed: its test modules, its private modules, its `pub use` lines and the names
    its `macro_rules!` write."""
    private, crate_wide = module_privacy(source)
    return replace(
        index,
        test_modules=declared_test_modules(source),
        private_modules=private,
        crate_modules=crate_wide,
        public_uses=public_use_lines(source),
        inline_uses=inline_public_uses(source),
        crate_uses=crate_use_lines(source),
        macro_names=macro_rules_names(source),
    )


def index_tree(
    tree: Tree, source: bytes, free_elsewhere: frozenset[str] = frozenset()
) -> FileIndex:
    """The index of what `tree` parsed of `source` (all of it, or included ranges);
    `free_elsewhere`: the names of the file's free fns in what the tree did not parse (a
    fn passed by its bare name may be one of them: `passed_by_name`)."""
    # The binding's lists are not in document order (nor the same order twice): sorted, outer
    # nodes first, so that an index is a function of the bytes alone.
    captures = _captures(tree, source)
    builder = _Builder(source, free_elsewhere)
    for kind in DEF_KINDS:
        for node in captures.get(f"def.{kind}.node", []):
            builder.definition(kind, node)
    builder.finish_definitions()
    for node in captures.get("impl", []):
        builder.impl(node)
    for node in captures.get("use", []):
        builder.use(node)
    for node in captures.get("call", []):
        builder.call(node)
    for node in captures.get("mcall.plain", []):
        builder.macro_call(node, "plain")
    for node in captures.get("mcall.method", []):
        builder.macro_call(node, "method")
    for node in captures.get("mcall.path", []):
        builder.macro_call(node, "path")
    for node in captures.get("mcall.generic", []):
        builder.generic_macro_call(node)
    for node in captures.get("mbuild.unit", []):
        builder.macro_unit_build(node)
    builder.finish_calls()
    for node in captures.get("build", []):
        builder.build(node)
    for node in captures.get("let", []):
        builder.local(node)
    for node in captures.get("letvariant", []):
        builder.variant_let(node)
    for node in captures.get("loop", []):
        builder.loop_binding(node)
    for node in captures.get("combinator", []):
        builder.combinator_parameter(node)
    for node in captures.get("fieldconv", []):
        builder.field_conversion(node)
    builder.arms_of(captures.get("arm", []))
    builder.guards_of(captures.get("guard", []))
    for node in captures.get("registered", []):
        builder.registered(node)
    return builder.result(clean=not tree.root_node.has_error)


def _captures(tree: Tree, source: bytes) -> dict[str, list[Node]]:
    """The query's captures of `tree` and of the items its macros wrap (`macroitems`), each
    node from the one parse that owns its bytes, sorted."""
    wrapped = macro_items(tree, source, parser()) if may_wrap_items(source) else []
    query = _query(b"Snafu" in source)
    found: dict[str, list[Node]] = QueryCursor(query).captures(tree.root_node)
    if wrapped:
        found = {}
        for part in (None, *wrapped):
            root = tree.root_node if part is None else part.tree.root_node
            inner = [w for w in wrapped if w is not part and (part is None or part.holds(w))]
            for name, nodes in QueryCursor(query).captures(root).items():
                found.setdefault(name, []).extend(
                    node
                    for node in nodes
                    if (part is None or part.owns(node)) and not any(w.owns(node) for w in inner)
                )
    return {
        name: sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte))
        for name, nodes in found.items()
    }


# What prints an error with the errors it wraps: anyhow's and eyre's `chain()`, the alternate
# form `{:#}` (`{e:#}`), thiserror-ext's `as_report()`
_CAUSES_SHOWN = re.compile(rb"\.chain\(\)|\{\w*:#\}|\.as_report\(\)")
_CAUSE_NEEDLES = (b"chain()", b":#}", b"as_report")  # found in C first: most bodies hold none
# A `fn main` whose `Result` Rust prints with `{:?}`, which lists the causes of anyhow's,
# eyre's and miette's errors
_REPORTING_MAIN = re.compile(
    r"->\s*(?:anyhow|eyre|color_eyre|miette)::Result\b"
    r"|->\s*(?:std::result::)?Result<\s*\(\)\s*,\s*(?:anyhow::Error|eyre::Report|miette::Report)\s*>"
)


def _shows_causes(name: str, signature: str, source: bytes, start: int, end: int) -> bool:
    """Whether a fn (its body `source[start:end]`) prints an error with its causes
    (`Definition.shows_causes`); the body is searched in place, not copied."""
    if name == "main" and _REPORTING_MAIN.search(signature):
        return True
    return any(source.find(needle, start, end) >= 0 for needle in _CAUSE_NEEDLES) and bool(
        _CAUSES_SHOWN.search(source, start, end)
    )


def _lone_literal(body: Node | None) -> str | None:
    """The string literal a fn's body is, alone, as written (`fn name(&self) -> &str { "str
    join" }`): what a registry of commands calls one by (`entrypoints`). None for any other
    body, or a literal of over 80 characters (a text, not a name)."""
    if body is None or body.named_child_count != 1:
        return None
    only = body.named_child(0)
    if only is None or only.type != "string_literal" or only.end_byte - only.start_byte > 82:
        return None
    return text_of(only)


def _without_error_side(value: Node | None) -> Node | None:
    """A `let`'s value without `?`, `.await` and error-side methods (`ERROR_SIDE_METHODS`)."""
    while value is not None:
        if value.type in ("try_expression", "await_expression"):
            value = value.named_children[0] if value.named_children else None
            continue
        function = (
            value.child_by_field_name("function") if value.type == "call_expression" else None
        )
        if function is None or function.type != "field_expression":
            return value
        if text_of(function.child_by_field_name("field")) not in ERROR_SIDE_METHODS:
            return value
        value = function.child_by_field_name("value")
    return value


# `y.a`, `self.a.b`: a chain of fields off a name (no call, no index)
_FIELD_CHAIN = re.compile(r"[a-z_]\w{0,39}(?:\.[a-z_]\w{0,39}){0,3}")
# Methods whose value is, for a method called on it, the value they are called on
_SAME_VALUE = frozenset(("clone", "as_ref", "as_mut", "borrow", "borrow_mut"))


def _field_chain(value: Node, name: str) -> str:
    """The chain of fields a `let name` takes its value from: `&handler_args.session`,
    `self.catalog.clone()`, `y.a.b`; or the other named value it copies (`self.clone()`,
    `&config`, `y`); "" for any other value, and for `let x = x` (it keeps its type)."""
    while (inner := _kept_value(value)) is not None:
        value = inner
    if value.type not in ("identifier", "self", "field_expression"):
        return ""
    text = text_of(value)
    return text if text != name and _FIELD_CHAIN.fullmatch(text) else ""


# an arm's pattern that takes any value: `_`, a binding
_CATCH_ALL_ARM = re.compile(r"_|(?:ref\s+)?(?:mut\s+)?[a-z_]\w*")


def _field_of_call(value: Node) -> str:
    """`x.f().0`, `&mut x.f::<T>().name`: a field of a call's value, as written without its
    spaces; "" for any other value, and for one longer than a receiver is kept."""
    while (inner := _kept_value(value)) is not None:
        value = inner
    base = value.child_by_field_name("value") if value.type == "field_expression" else None
    if base is None or base.type not in ("call_expression", "try_expression"):
        return ""
    text = _RECEIVER_SPACE.sub("", text_of(value))
    return text if len(text) <= 120 and "{" not in text and "|" not in text else ""


def _kept_value(value: Node) -> Node | None:
    """What `&x` or a value-keeping call `x.clone()` holds: `x`; None for any other value."""
    if value.type == "reference_expression":
        return value.child_by_field_name("value")
    if value.type != "call_expression" or not _same_value_call(value):
        return None
    function = value.child_by_field_name("function")
    return function.child_by_field_name("value") if function is not None else None


def _same_value_call(call: Node) -> bool:
    """`x.clone()`, `x.as_ref()`: a call that gives the value it is called on."""
    function = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if function is None or function.type != "field_expression" or arguments is None:
        return False
    name = text_of(function.child_by_field_name("field"))
    return name in _SAME_VALUE and arguments.named_child_count == 0


_CHAIN_DEPTH = 8  # links of a receiver chain `_compact_chain` writes, at the most


def _compact_chain(node: Node, depth: int = 0) -> str | None:
    """A receiver chain too long to keep whole, its calls' arguments elided:
    `Builder::new(self.config, ..)\n.with(x)` -> `Builder::new(..).with(..)` (vector's
    topology `Builder::new(..).build()`, which rustfmt breaks over eight lines); None for
    any other shape (a closure, a literal, a macro, an index) or a longer chain."""
    if depth > _CHAIN_DEPTH:
        return None
    shape = node.type
    if shape in ("identifier", "self", "scoped_identifier", "field_identifier"):
        text = text_of(node)
        return text if len(text) <= 80 and "\n" not in text else None
    if shape == "call_expression":
        function = node.child_by_field_name("function")
        head = _compact_chain(function, depth + 1) if function is not None else None
        return f"{head}(..)" if head else None
    if shape == "field_expression":
        value, field = node.child_by_field_name("value"), node.child_by_field_name("field")
        head = _compact_chain(value, depth + 1) if value is not None else None
        return f"{head}.{text_of(field)}" if head and field is not None else None
    if shape in ("try_expression", "await_expression"):
        inner = node.named_children[0] if node.named_children else None
        head = _compact_chain(inner, depth + 1) if inner is not None else None
        suffix = "?" if shape == "try_expression" else ".await"
        return f"{head}{suffix}" if head else None
    return None


def _variant_binding(pattern: str) -> tuple[str, str] | None:
    """The name a pattern binds to a tuple variant's one value and its `Local` type:
    `Commands::Login(cmd)`, also inside `Some(..)`, `Ok(..)`, `Err(..)` (up to two deep) ->
    (`cmd`, `<variant>Commands::Login`); None for any other pattern, or a `_`."""
    bound = _VARIANT_BINDING.match(pattern) or (
        _WRAPPED_BINDING.match(pattern) if pattern.lstrip().startswith(_WRAPS) else None
    )
    if bound is None or bound[3] == "_":
        return None
    return bound[3], f"{VARIANT_VALUE}{bound[1]}::{bound[2]}"


def _variant_bindings(pattern: str) -> list[tuple[str, str]]:
    """`_variant_binding` of an arm's pattern, or of each element of a tuple pattern: tantivy's
    `match (self, other) { (R::Bucket(b1), R::Bucket(b2)) => b1.merge_fruits(b2), .. }`
    (`b1` holds the `Bucket`'s value: its `merge_fruits` had no caller, reading 301)."""
    one = _variant_binding(pattern)
    if one is not None:
        return [one]
    text = pattern.strip()
    if not (text.startswith("(") and text.endswith(")")) or "," not in text:
        return []
    parts = split_outside_brackets(text[1:-1], ",")
    return [bound for part in parts if (bound := _variant_binding(part)) is not None]


def _block_end(node: Node) -> int:
    """The last line of the block a `let` is in, when that block is not a fn's body (a loop's,
    an `if`'s, a closure's: vector's `for` body binds `let source = Arc::new(..)` over the
    parameter `source`, which the calls after the loop use again); 0 for a fn's body."""
    block = node.parent
    if block is None or block.type != "block":
        return 0
    holder = block.parent
    if holder is None or holder.type in ("function_item", "source_file"):
        return 0
    return block.end_point[0] + 1


def _past_turbofish(name: Node) -> Node | None:
    """The token tree after `name::<..>` in a macro's tokens (`>>` closes two), if any."""
    depth, token = 0, name.next_sibling.next_sibling if name.next_sibling else None
    while token is not None:
        depth += {"<": 1, ">": -1, ">>": -2}.get(token.type, 0)
        token = token.next_sibling
        if depth <= 0:
            return token if token is not None and token.type == "token_tree" else None
    return None


def _parse_product(source: bytes) -> tuple[Tree, bool]:
    """The file parsed without its top-level `#[cfg(test)]` items (~15% of risingwave's
    bytes: nothing in them is indexed), positions those of the whole file; the whole file
    when that parse shows errors (the cut was wrong). True with a parse of those items
    that shows no error."""
    return parse_units_checked(parser(), source, product_units(source))


_WRAPPING = frozenset(("Some", "Ok", "Err", "Box", "Rc", "Arc"))  # not the value's own type
# Fns whose turbofish names the type they tell of, not the type of their value
# (`size_of::<Foo>()` is a `usize`)
_OF_A_TYPE = frozenset(
    ("size_of", "size_of_val", "align_of", "align_of_val", "type_name", "type_name_of_val",
     "of", "needs_drop", "discriminant")
)  # fmt: skip
# `Option`/`Result` methods whose closure gets the value inside (`config.and_then(|c| ..)`).
# Not iterators' `map`/`filter`: a `let` typed by name is rarely an iterator, and then the
# parameter would be typed as the iterator (the link finds no method of it, no wrong one).
_INNER_VALUE = frozenset(
    ("and_then", "map", "inspect", "is_some_and", "is_ok_and", "is_none_or", "map_or",
     "map_or_else", "filter", "take_if")
)  # fmt: skip
# `x.try_into()` runs the target type's `TryFrom::try_from`, `x.into()` its `From::from`,
# `s.parse()` its `FromStr::from_str`.
_CONVERTS = {"try_into": "try_from", "into": "from", "parse": "from_str"}
# what follows a pattern's `{ .. }` in a `match` arm or a `let` (`_built` of a macro's tokens)
_PATTERN_END = frozenset(("=>", "=", "|", "if"))
_TURBOFISH_LONGEST = 80  # `Call.turbofish`, cut: a type longer than this names no one impl
# What drops a conversion's error and keeps its value's type (`.ok()` then `?`, a default)
_DROPS_KEEPS_VALUE = frozenset(("ok", "unwrap_or", "unwrap_or_default"))
_PLAIN_TYPE = re.compile(r"(?:(?:crate|self|super|[a-z_]\w*)::)*[A-Z]\w*")


def _variants(node: Node, depth: int = 0) -> list[str] | None:
    """The enum variants an expression builds: `E::V(..)` or `E::V {..}`, each branch of a
    `match` or `if`, a block's last expression; None when a branch builds anything else
    (a branch that returns or panics builds nothing)."""
    kind = node.type
    if kind == "call_expression":
        function = node.child_by_field_name("function")
        if function is None or function.type != "scoped_identifier":
            return None
        path = text_of(_path_of(function))
        name = text_of(function.child_by_field_name("name"))
        upper = base_name(path)[:1].isupper() and name[:1].isupper()
        return [f"{path}::{name}"] if upper else None
    if kind == "struct_expression":
        name = text_of(node.child_by_field_name("name"))
        return [name] if "::" in name else None
    if kind in ("return_expression", "break_expression", "continue_expression"):
        return []
    if kind == "macro_invocation":
        macro = text_of(node.child_by_field_name("macro")).rsplit("::", 1)[-1]
        return [] if macro in DIVERGING_MACROS else None
    if depth >= 4:
        return None
    branches: list[Node] = []
    if kind == "block":
        last = [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]
        branches = last[-1:]
    elif kind == "match_expression":
        body = node.child_by_field_name("body")
        arms = [c for c in body.named_children if c.type == "match_arm"] if body else []
        branches = [v for v in (a.child_by_field_name("value") for a in arms) if v is not None]
    elif kind == "if_expression":
        consequence = node.child_by_field_name("consequence")
        alternative = node.child_by_field_name("alternative")
        otherwise = alternative.named_children[-1:] if alternative is not None else []
        if consequence is None or not otherwise:  # no `else`: the value may be `()`
            return None
        branches = [consequence, *otherwise]
    found: list[str] = []
    for branch in branches:
        more = _variants(branch, depth + 1)
        if more is None:
            return None
        found += more
    return found if branches else None


# Macros whose tokens are code written for elsewhere (a proc macro's output): a call or a
# variant in them is not made by the fn that holds them (risingwave's `gen.rs` "built"
# `ExprError::Multiple` in a `quote!` of the function it generates).
_QUOTING = frozenset(("quote", "quote_spanned", "parse_quote", "parse_quote_spanned"))


def _pattern_in_tokens(node: Node, after: Node | None) -> bool:
    """Whether a variant a macro's tokens write at `node` is a pattern there, not a value
    built: in a pattern macro (`matches!`), or before `=>`, `=`, `|` or `if` (`after`: the
    token that follows its `( .. )` or `{ .. }`), a `match` or `let` the macro holds."""
    return _in_pattern_macro(node) or (after is not None and after.type in _PATTERN_END)


def _in_pattern_macro(node: Node) -> bool:
    """Whether a token is in the tokens of a `matches!` (`_PATTERN_MACROS`), however deep:
    `matches!(self.inner(), Inner::MetaError(..))` tests for the variant."""
    tree = node.parent
    while tree is not None and tree.type == "token_tree":
        bang = tree.prev_sibling
        name = bang.prev_sibling if bang is not None and bang.type == "!" else None
        if name is not None and text_of(name) in _PATTERN_MACROS:
            return True
        tree = tree.parent
    return False


def _quoted(node: Node) -> bool:
    parent = node.parent
    while parent is not None and parent.type == "token_tree":
        parent = parent.parent
    if parent is None or parent.type != "macro_invocation":
        return False
    return text_of(parent.child_by_field_name("macro")).rsplit("::", 1)[-1] in _QUOTING


def _path_of(scoped: Node) -> Node | None:
    """A path call's path, a turbofish's type without its arguments: `Server::<E, F>::init`
    is `init` of `Server`, as `Server::init` is."""
    path = scoped.child_by_field_name("path")
    if path is not None and path.type == "generic_type":
        return path.child_by_field_name("type")
    return path


def _called_type(function: Node | None) -> str:
    """What `let x = <call>` tells of x's type: `T::new(..)` what T's `new` returns (`<call>T::new`:
    the link reads it, a `T` when it cannot tell), `E::V(..)` an `E`, a
    tuple struct built (`Wrapper(..)`) a `Wrapper`; a fn's value (`tokio::time::interval(..)`)
    `<call>` and the fn, a method's (`state.get_decl(id)`) `<call>state.get_decl`: the link types
    x by what the repository's fns of that name return, or, defining none, knows x comes
    from outside before it guesses a method by name on x."""
    if function is not None and function.type == "generic_function":
        # `serde_json::from_value::<IcebergConfig>(..)`, `.parse::<Config>()`: the value is
        # the turbofish's one type, when it is a named type
        turbofish = function.child_by_field_name("type_arguments")
        named = turbofish.named_children if turbofish is not None else []
        function = function.child_by_field_name("function")
        called = text_of(function).rsplit("::", 1)[-1].rsplit(".", 1)[-1] if function else ""
        one = text_of(named[0]) if len(named) == 1 else ""
        if base_name(one)[:1].isupper() and called not in _OF_A_TYPE:
            return one
    if function is not None and function.type == "field_expression":  # `state.get_decl(id)`
        method = function.child_by_field_name("field")
        receiver = text_of(function.child_by_field_name("value"))
        # the receiver when a plain path of names (`engine_state`, `self.ctx`): the link
        # tells same-named methods apart by the type it is named after; or a chain of calls
        # it types as a receiver (`session.env().meta_client()`: `FrontendEnv`'s method)
        if not _NAME_PATH.fullmatch(receiver):
            receiver = _RECEIVER_SPACE.sub("", receiver) if len(receiver) <= 160 else ""
            receiver = receiver if _CALL_CHAIN.fullmatch(receiver) else ""
        return f"{CALLED_TYPE}{receiver}.{text_of(method)}" if method is not None else ""
    if function is None or function.type not in ("identifier", "scoped_identifier"):
        return ""
    if function.type == "scoped_identifier":
        path = text_of(_path_of(function))
        if base_name(path)[:1].isupper():
            # `T::f(..)`: what T's `f` returns, which the link reads (mostly a `T`; mdBook's
            # `MDBook::init` a `BookBuilder`); a variant built (`E::V(..)`) an `E`
            name = text_of(function.child_by_field_name("name"))
            return f"{CALLED_TYPE}{path}::{name}" if name[:1].islower() else path
    called = text_of(function)
    last = called.rsplit("::", 1)[-1]
    if last[:1].isupper():
        return "" if last in _WRAPPING else last
    return CALLED_TYPE + called


def _cast_type(cast: Node) -> str:
    """What `x as T` tells of its value's type: `T` (`v as *const i8`: a raw pointer's
    `.add(n)` is its own), but the type a box is made of when the cast only hides it behind
    a trait (`Box::new(BinaryMiniBlockEncoder::default()) as Box<dyn MiniBlockCompressor>`:
    its `compress` is that encoder's, lance's `FsstMiniBlockEncoder::compress`)."""
    value = inner = cast.child_by_field_name("value")
    while inner is not None and inner.type == "call_expression":
        given = _given(inner.child_by_field_name("arguments"))
        if text_of(inner.child_by_field_name("function")) not in _BOXES or len(given) != 1:
            break
        inner = given[0]
    if inner is not None and inner != value:
        if inner.type == "call_expression":
            made = _called_type(inner.child_by_field_name("function"))
            if made:
                return made
        elif inner.type == "struct_expression":
            return text_of(inner.child_by_field_name("name"))
    return text_of(cast.child_by_field_name("type"))


# what holds the value it is given, whose methods a `dyn` cast of it runs
_BOXES = frozenset(("Box::new", "Arc::new", "Rc::new", "std::sync::Arc::new"))


def _given(arguments: Node | None) -> list[Node]:
    """A call's arguments, as its `arguments` node holds them: comments and attributes left
    out (`f(self, #[cfg(unix)] fds)`: the attribute is no argument)."""
    if arguments is None:
        return []
    return [a for a in arguments.named_children if a.type not in _NOT_ARGUMENTS]


_NOT_ARGUMENTS = frozenset(("line_comment", "block_comment", "attribute_item"))


def _in_use(node: Node) -> bool:
    """Whether a name is part of a `use` declaration's path."""
    parent = node.parent
    while parent is not None and parent.type in ("scoped_identifier", "use_list", "use_as_clause",
                                                 "scoped_use_list", "use_wildcard"):  # fmt: skip
        parent = parent.parent
    return parent is not None and parent.type == "use_declaration"


_PLACEHOLDER = re.compile(r"\{([A-Z][A-Z0-9_]*)\}")
# How many `.nest(..)`s a route's path is looked for under (a cycle of `let`s cannot be)
_NEST_DEPTH = 8
_FORMATTED = re.compile(r'^&?\s*format!\s*\(\s*"([^"\\]*)"\s*(?:,[^)]*)?\)$', re.S)


def _path_literal(node: Node) -> str | None:
    """A route path as written: `"/admin"`, or the text of `&format!("/{V}/prom")` (its
    placeholders kept); None for anything else (a variable, a call)."""
    text = text_of(node)
    if node.type == "string_literal" and "\\" not in text:
        return text[1:-1]
    formatted = _FORMATTED.match(text)
    return formatted[1] if formatted else None


_SCOPE_DEPTH = 8  # the actix scopes a route's path is read under, at most


def _scoped_under(call: Node) -> str:
    """The paths of the actix-web `web::scope("/p")`s a route call is registered under,
    outermost first: the scope its own chain starts from (`web::scope("/feeds").route(..)`),
    then each scope whose chain takes that chain as an argument (`scope("/api/v4").service(
    scope("/site").route(..))`); "" when none. lemmy's feed routes read "GET /c/{name}.xml"
    for `/feeds/c/{name}.xml` (reading 270)."""
    prefix, node = "", call
    for _ in range(_SCOPE_DEPTH):
        top = node
        while (
            top.parent is not None
            and top.parent.type == "field_expression"
            and top.parent.child_by_field_name("value") == top
            and top.parent.parent is not None
            and top.parent.parent.type == "call_expression"
        ):
            top = top.parent.parent
        base = top
        while base.type == "call_expression":
            function = base.child_by_field_name("function")
            if function is None or function.type != "field_expression":
                break
            inner = function.child_by_field_name("value")
            if inner is None:
                break
            base = inner
        scoped = _scope_path(base)
        if scoped is not None:
            prefix = scoped + prefix
        holder = top.parent
        if holder is None or holder.type != "arguments" or holder.parent is None:
            break
        node = holder.parent
        if node.type != "call_expression":
            break
    return prefix


def _scope_path(node: Node) -> str | None:
    """The path of `web::scope("/p")` (`scope("/p")`, `actix_web::web::scope`); None for any
    other node."""
    if node.type != "call_expression":
        return None
    function = node.child_by_field_name("function")
    name = text_of(function)
    if function is None or name.rsplit("::", 1)[-1] != "scope":
        return None
    given = _given(node.child_by_field_name("arguments"))
    return _path_literal(given[0]) if len(given) == 1 else None


def _nest_path(outer: Node | None, arguments: Node, node: Node) -> str | None:
    """The path of `outer` when it is a `.nest("/p", <router>)` call whose router argument
    is `node`; None otherwise."""
    if outer is None or outer.type != "call_expression":
        return None
    function = outer.child_by_field_name("function")
    if function is None or function.type != "field_expression":
        return None
    if text_of(function.child_by_field_name("field")) != "nest":
        return None
    given = _given(arguments)
    if len(given) != 2 or given[1] != node:
        return None
    return _path_literal(given[0])


# What a panic hook that may print a backtrace names: one, or the default hook it keeps
_BACKTRACE_WORDS = (b"acktrace", b"take_hook", b"default_hook")
# The calls whose closure or async block runs apart from the caller's unwinding (`Scope`)
_SCOPE_CALLS = frozenset(("catch_unwind", "spawn", "spawn_blocking", "spawn_local", "spawn_scoped"))
_RUNNABLE = frozenset(("closure_expression", "async_block"))


def _on_a_field(condition: Node) -> bool:
    """Whether an `if`'s condition tests a field (`opts.list_details`, `!opts.full_path`)."""
    if condition.type == "unary_expression" and condition.named_child_count == 1:
        condition = condition.named_children[0]
    return condition.type == "field_expression"


def _scope_kind(name: str, qualifier: str, given: Sequence[Node]) -> str | None:
    """What a call of `_SCOPE_CALLS` given a closure or an async block (`AssertUnwindSafe(||
    ..)` too) makes of a panic inside it (`Scope.kind`); None without one. A `spawn` of
    tokio's, a task's or std's `thread` runs a task apart ("task"); any other `.spawn(..)`
    (a `thread::Builder`'s, a scope's) a "thread", contained only where the caller joins it."""
    runs = any(
        a.type in _RUNNABLE
        or (
            a.type == "call_expression"
            and any(c.type in _RUNNABLE for c in _given(a.child_by_field_name("arguments")))
        )
        for a in given
    )
    if not runs:
        return None
    if name not in _SCOPE_CALLS:
        # a fn named so, given what it runs: a wrapper of the repository's or a runtime's
        # (alacritty's `thread::spawn_named("PTY reader", move || ..)`, whose panic ends the
        # reader thread, not the window's code that started it: reading 324;
        # `common_runtime::spawn_global(async move { .. })`). Not a method (`s.spawn_fifo(..)`
        # of a rayon scope, which gives the panic back where the scope ends).
        return "task"
    if name == "catch_unwind":
        return "catch_unwind"
    if name == "spawn_blocking" or (
        name in ("spawn", "spawn_local")
        and qualifier.rsplit("::", 1)[-1] in ("tokio", "task", "thread")
    ):
        return "task"
    return "thread"


class _Builder:
    """Collects one file's index; calls are attributed to their innermost enclosing fn."""

    def __init__(self, source: bytes, free_elsewhere: frozenset[str] = frozenset()) -> None:
        self.source = source
        self.defs: list[Definition] = []
        self.fn_spans: list[tuple[int, int, int]] = []  # (start byte, end byte, def index)
        self.starts: list[int] = []
        self.calls: list[tuple[int, Call]] = []  # (start byte, call)
        self.call_starts: list[int] = []
        self.field_guarded: set[int] = set()  # calls whose `guard` is an `if` on a field
        self.uses: list[Use] = []
        self.locals: list[Local] = []
        self.arms: list[Arm] = []
        self.routes: list[Route] = []
        self.impls: list[Impl] = []
        self.subcommands: list[Subcommand] = []
        self.builds: list[tuple[int, Build]] = []  # (start byte, build)
        self.scopes: list[Scope] = []
        self.quoting = b"quote" in source  # may hold a `quote!` (`_quoted`)
        self.marked: dict[int, bool] = {}  # an item's node id: whether it is test code
        self.exports: dict[int, tuple[str, ...]] = {}  # an impl's node id: `exporting_impl`
        # a variant's name -> its enum's path, of the file's `use`s (`_imported_variant`)
        self.variant_imports: dict[str, str] | None = None
        self.free_fns: set[str] | None = None  # the names of the file's free fns (`passed_by_name`)
        self.free_elsewhere = free_elsewhere  # .. of those in units this parse left out

    def definition(self, kind: DefKind, node: Node) -> None:
        wraps = kind == "variant" and self.source.find(b"#[from]", *_span(node)) >= 0
        attrs, own_test, doc = leading(node, every=kind == "fn", error=wraps)
        owner, trait, module, test = item_context(node, kind, own_test, self.marked)
        if test:
            return
        name = text_of(node.child_by_field_name("name"))
        # `pub` comes first when written: attributes and comments are the item's siblings
        first = node.child(0)
        visibility = first if first is not None and first.type == "visibility_modifier" else None
        if kind == "fn" and owner is not None and trait is None:
            # every method of a `#[pymethods]` impl, the `pub` ones of a `#[wasm_bindgen]` one
            exported = self.exporting_impl(node)
            attrs = (
                *attrs,
                *(a for a in exported if visibility is not None or _EVERY_METHOD.match(a)),
            )
        signature, value, has_self = "", None, False
        traced = False
        params: tuple[tuple[str, str], ...] = ()
        codes: tuple[str, ...] = ()
        arms: tuple[str, ...] = ()
        mapped: tuple[str, ...] = ()
        causes = False
        if kind == "fn":
            signature, params, has_self = fn_signature(node, self.source)
            body = node.child_by_field_name("body")
            value = _lone_literal(body)
            causes = body is not None and _shows_causes(name, signature, self.source, *_span(body))
            traced = body is not None and any(
                self.source.find(word, *_span(body)) >= 0 for word in _BACKTRACE_WORDS
            )
            coded = body is not None and self.source.find(b"Code::", *_span(body)) >= 0
            if coded:
                codes = tuple(dict.fromkeys(_STATUS.findall(text_of(body))))
            if body is not None and (coded or self.source.find(b"Status::", *_span(body)) >= 0):
                arms = _status_arms(body, owner)
            if name == "from" and body is not None and (trait or "").startswith("From"):
                mapped = _variant_arms(body)
            for attr in attrs:
                route = _ROUTE_ATTR.match(attr) or _DOCUMENTED_ROUTE.match(attr)
                if route:
                    line = node.start_point[0] + 1
                    self.routes.append(Route(route[1].upper(), route[2], name, line))
        else:
            # up to the body, read from the file: `text_of(node)` would copy a whole enum or trait
            start, end = node.start_byte, node.end_byte
            brace = self.source.find(b"{", start, end)
            head = self.source[start : brace if brace >= 0 else end]
            signature = short(head.decode("utf-8", errors="replace"), 200)
            if kind in ("const", "static"):
                value = short(text_of(node.child_by_field_name("value")), 200)
            elif kind in ("field", "type"):
                value = text_of(node.child_by_field_name("type"))
        if any("=>" in attr for attr in attrs):
            attrs = self.listed_routes(name, attrs, node.start_point[0] + 1)
        if kind == "field" and attrs:
            line = node.start_point[0] + 1
            for option, parser in value_parsers(name, attrs, value or ""):
                declared = owner or variant_of(node)  # a subcommand variant's field
                field = f"{declared}::{name}" if declared else name
                self.routes.append(Route("ARG", option, parser, line, field))
        if kind == "fn":
            self.fn_spans.append((node.start_byte, node.end_byte, len(self.defs)))
        self.defs.append(
            Definition(
                kind=kind,
                name=name,
                line=node.start_point[0] + 1,
                end_line=node.end_point[0] + 1,
                owner=owner,
                trait=trait,
                signature=signature,
                doc=doc,
                public=visibility is not None and text_of(visibility) == "pub",
                params=params,
                has_self=has_self,
                value=value,
                module=module,
                attrs=attrs,
                status_codes=codes,
                status_arms=arms,
                variant_arms=mapped,
                shows_causes=causes,
                backtrace=traced,
            )
        )

    def exporting_impl(self, node: Node) -> tuple[str, ...]:
        """The attribute of the impl block a method is in that exports its methods to another
        language (pyo3's `#[pymethods]`, `#[wasm_bindgen]`: lance's
        `PyFullTextQuery::multi_match_query`, which Python calls; reading 232), once per
        impl; () for any other."""
        body = node.parent
        impl = body.parent if body is not None and body.type == "declaration_list" else None
        if impl is None or impl.type != "impl_item":
            return ()
        found = self.exports.get(impl.id)
        if found is None:
            found = self.exports[impl.id] = tuple(
                a for a in leading(impl, every=True)[0] if _EXPORTING_IMPL.match(a)
            )
        return found

    def listed_routes(self, name: str, attrs: tuple[str, ...], line: int) -> tuple[str, ...]:
        """The routes an item's attribute lists, `"/p" => get(h)`, `"/q" => sub(m::Api)`
        (`ROUTE_ARROW`), each owned by the item (whose place under another's `sub` prefixes
        its paths: `entrypoints`); the attributes but those, which the item keeps."""
        kept = []
        for attr in attrs:
            listed = [
                Route(method.upper(), path, handler, line, name)
                for path, registered in (ROUTE_ARROW.findall(attr) if "=>" in attr else [])
                for method, handler in ROUTE_VERB.findall(registered)
            ]
            self.routes += listed
            if not listed:
                kept.append(attr)
        return tuple(kept)

    def finish_definitions(self) -> None:
        self.fn_spans.sort()
        self.starts = [start for start, _, _ in self.fn_spans]

    def snippet(self, node: Node, limit: int = ARG_CHARS) -> str:
        """A node's text cut at `limit` characters, reading no more of the source than that."""
        start, stop = node.start_byte, node.end_byte
        end = stop if stop - start <= 3 * limit else start + 3 * limit
        text = self.source[start:end].decode("utf-8", errors="replace")
        if end == stop and len(text) <= limit and "\n" not in text:
            return text
        return short(text if end == stop else text + " …", limit)

    def caller(self, start: int, end: int) -> int:
        """The innermost fn that holds the byte range, or -1."""
        i = bisect_right(self.starts, start) - 1
        while i >= 0:
            s, e, index = self.fn_spans[i]
            if s <= start and end <= e:
                return index
            i -= 1
        return -1

    def impl(self, node: Node) -> None:
        written = node.child_by_field_name("type")
        trait = node.child_by_field_name("trait")
        if written is None or in_test(node):
            return
        # `impl<E: SyncExpression> Expression for Wrapper<E>`: what `self.inner: E` can do
        generics = node.child_by_field_name("type_parameters")
        where = next((c for c in node.named_children if c.type == "where_clause"), None)
        bounds = " ".join(text_of(part) for part in (generics, where) if part is not None)
        bounds = bounds if ":" in bounds and len(bounds) <= 400 else ""
        self.impls.append(
            Impl(
                base_name(text_of(written)),
                text_of(trait) or None,
                node.start_point[0] + 1,
                " ".join(bounds.split()),
            )
        )

    def use(self, node: Node) -> None:
        argument = node.child_by_field_name("argument")
        if argument is not None:
            flatten_use(argument, "", self.uses, node.start_point[0] + 1)

    def call(self, node: Node) -> None:
        function = node.child_by_field_name("function")
        turbofish = ""
        if function is not None and function.type == "generic_function":
            self.typed_conversion(node, function)
            written = function.child_by_field_name("type_arguments")
            if written is not None:
                turbofish = " ".join(text_of(written)[1:-1].split())[:_TURBOFISH_LONGEST]
            function = function.child_by_field_name("function")
        if function is None:
            return
        kind: CallKind
        named: Node | None = None  # a method's name: `.f`'s own line in `self\n.a\n.f(x)`
        receiver: Node | None = None
        shape = function.type
        if shape == "identifier":
            kind, name, qualifier = "plain", text_of(function), ""
        elif shape == "scoped_identifier":
            kind, name = "path", text_of(function.child_by_field_name("name"))
            qualifier = text_of(_path_of(function))
        elif shape == "field_expression":
            named = function.child_by_field_name("field")
            kind, name = "method", text_of(named)
            # `self\n    .field` as `self.field`: the receiver is matched as written
            value = receiver = function.child_by_field_name("value")
            qualifier = self.snippet(value, 80) if value else ""
            if " " in qualifier or "\n" in qualifier or "\t" in qualifier or "\r" in qualifier:
                qualifier = _RECEIVER_SPACE.sub("", qualifier)
            if "…" in qualifier and value is not None:  # `Builder::new(\n config, ..)\n.build()`
                qualifier = _compact_chain(value) or qualifier
        else:
            return
        arguments = node.child_by_field_name("arguments")
        given = _given(arguments)
        args = tuple([self.snippet(a) for a in given])
        line = (named or node).start_point[0] + 1
        if name in ("subcommand", "new", "with_name") and args:
            found = _SUBCOMMAND.match(args[0])
            clap = qualifier.endswith(("Command", "App")) and "process::" not in qualifier
            if found and (name == "subcommand" or clap):  # not `std::process::Command::new`
                self.subcommands.append(Subcommand(found[1], line))
        if kind == "method" and name in ("route", "nest") and arguments is not None:
            self.route_call(node, function, arguments, line)
        caller = self.caller(node.start_byte, node.end_byte)
        if caller >= 0:
            at = (named or node).start_byte  # document order is the order of the lines
            held = held_value(node)  # read once for the four questions below
            tried = held[1] is not None and held[1].type == "try_expression"
            dropped, logged, handed, unwrapped = False, "", "", ""
            if may_go_elsewhere(held):
                dropped = not tried and dropped_value(node, held)
                logged = (not tried and not dropped and logged_by(node, held)) or ""
                handed = (not dropped and not logged and handed_to(node, held)) or ""
                unwrapped = (not tried and not dropped and unwrapped_by(node, held)) or ""
            call = Call(
                name, kind, qualifier, line, len(args), caller, args, False, tried, dropped,
                logged, handed, turbofish=turbofish, unwrapped=unwrapped,
            )  # fmt: skip
            self.calls.append((at, call))
            if kind == "path":  # `E::V(..)`: a tuple variant built
                self._built(at, qualifier, name, line, caller, node)
            elif name[:1].isupper() and (imported := self._imported_variant(name)):
                # `use crate::error::Error::ParseFetchedObject;` .. `ParseFetchedObject(..)`
                self._built(at, imported, name, line, caller, node)
            routed: bool | None = None  # whether the call registers a route: asked once
            for argument in given:
                if argument.type == "scoped_identifier":
                    self.passed(argument, caller)
                elif argument.type == "identifier":
                    routed = _registers_route(node) if routed is None else routed
                    if not routed:
                        self.passed_by_name(argument, caller)
            if (name in _SCOPE_CALLS or (kind != "method" and name.startswith("spawn_"))) and (
                kind_of := _scope_kind(name, qualifier, given)
            ):
                end = node.end_point[0] + 1
                self.scopes.append(Scope(kind_of, name, node.start_point[0] + 1, end, caller))
            if receiver is not None:  # `Parser::parse_statements.parse(input)` (winnow, nom)
                self.passed(receiver, caller)

    def _imported_variant(self, name: str) -> str | None:
        """The enum's path when the file's `use` brings a variant in by this name (`use
        crate::error::Error::ParseFetchedObject;`: activitypub's `Err(ParseFetchedObject(e,
        url, ..))` built no `Error::ParseFetchedObject`, reading 304); None otherwise. The
        file's such `use`s are read once (every `Some(..)`, `Ok(..)` asks)."""
        if self.variant_imports is None:
            self.variant_imports = {}
            for use in self.uses:
                enum, _, variant = use.path.rpartition("::")
                if use.alias == variant and enum.rsplit("::", 1)[-1][:1].isupper():
                    self.variant_imports.setdefault(variant, enum)
        return self.variant_imports.get(name)

    def typed_conversion(self, node: Node, generic: Node) -> None:
        """`s.parse::<Mode>()` runs `Mode::from_str` (`x.try_into::<T>()` `T::try_from`): a
        path call of the turbofish's type, as `conversion` makes for a typed `let`."""
        function = generic.child_by_field_name("function")
        turbofish = generic.child_by_field_name("type_arguments")
        if function is None or function.type != "field_expression" or turbofish is None:
            return
        field = function.child_by_field_name("field")
        converts = _CONVERTS.get(text_of(field)) if field is not None else None
        named = turbofish.named_children
        if converts is None or field is None or len(named) != 1:
            return
        written = text_of(named[0])
        arguments = node.child_by_field_name("arguments")
        if arguments is None or arguments.named_child_count or not _PLAIN_TYPE.fullmatch(written):
            return
        caller = self.caller(node.start_byte, node.end_byte)
        if caller >= 0:
            self.conversion_call(converts, written, function, caller)

    def conversion_call(
        self, converts: str, written: str, method: Node, caller: int, dropped: bool = False
    ) -> None:
        """The path call `written::converts(receiver)` a conversion method makes, on the
        line of the method's name (`.try_into()`: `T::try_from`); `dropped`: its caller
        drops the error (`Call.dropped`)."""
        field = method.child_by_field_name("field")
        if field is None:
            return
        receiver = method.child_by_field_name("value")
        given = (self.snippet(receiver),) if receiver is not None else ()
        line = field.start_point[0] + 1
        call = Call(converts, "path", written, line, 1, caller, given, dropped=dropped)
        self.calls.append((field.start_byte, call))

    def passed(self, argument: Node, caller: int) -> None:
        """A fn passed by path as an argument (`.map(Self::from_proto)`,
        `parse_comma_separated(Parser::parse_identifier)`) or as a method's receiver, a parser
        combinator's (`Parser::parse_statements.parse(parser)`: winnow's `Parser` trait runs
        it): the callee calls it on the caller's behalf, a call of unknown arity on its line.
        Not a plain name (mostly a variable), not a variant or a const (`E::V`, `T::MAX`)."""
        if argument.type != "scoped_identifier":
            return
        name = text_of(argument.child_by_field_name("name"))
        if not name[:1].islower() and not name.startswith("_"):
            return
        qualifier = text_of(_path_of(argument))
        line = argument.start_point[0] + 1
        self.calls.append((argument.start_byte, Call(name, "path", qualifier, line, -1, caller)))

    def passed_by_name(self, argument: Node, caller: int) -> None:
        """A fn of this file's own module passed by its bare name (`"env" => Binary(env)` in
        just's table of functions, `.map(parse_line)`): as `passed`, a call on the caller's
        behalf, of unknown arity. Only a name a free fn of the file has, and that the caller's
        text above (its signature included) writes nowhere but as a call: a plain name is
        mostly a variable, and one a parameter, `let`, closure or pattern binds is that."""
        name = text_of(argument)
        if self.free_fns is None:
            self.free_fns = free_fns(self.defs) | self.free_elsewhere
        if name not in self.free_fns:
            return
        start = next(begin for begin, _, index in self.fn_spans if index == caller)
        text = self.source[start : argument.start_byte].decode("utf-8", errors="replace")
        above = _UNSAID.sub("", text)
        if re.search(rf"\b{re.escape(name)}\b(?!\s*\()", above):
            return
        line = argument.start_point[0] + 1
        self.calls.append((argument.start_byte, Call(name, "plain", "", line, -1, caller)))

    def _built(self, at: int, path: str, variant: str, line: int, caller: int, node: Node) -> None:
        enum = base_name(path)
        if variant[:1].isupper() and enum[:1].isupper() and not variant.isupper():
            when = self._when(node, enum, caller)
            self.builds.append((at, Build(enum, variant, line, caller, when)))

    def _when(self, node: Node, built: str, caller: int) -> tuple[When, ...]:
        """The conditions on the way to a build in its fn (`Build.when`), for an error's
        type as its name says (`Error`, `ErrorKind`, `SinkError`, a snafu selector; `Self`
        in such a type's impl): risingwave's 15,000 builds are mostly of values (`DataType`,
        `Column`), and reading every one's conditions cost 2-3 CPU-s of its index."""
        owner = self.defs[caller].owner if built == "Self" and caller >= 0 else built
        if owner is None or _ERROR_NAMED.search(owner) is None:
            return ()
        steps: list[When] = [
            (c.kind, c.text, c.negated, c.excluded)
            if c.kind == "match_arm" and c.excluded
            else (c.kind, c.text, c.negated)
            for c in fn_conditions(node, self.source)
        ]
        checked = _ensured(node)
        return (*steps, ("check_failed", checked, False)) if checked else tuple(steps)

    def build(self, node: Node) -> None:
        """`E::V { .. }` or `E::V` as a value (`rust-index.scm`'s `@build`); an error struct
        or a snafu context selector (`XSnafu { .. }`, `error::XSnafu`) as `Build(T, "")`."""
        named = node.child_by_field_name("name") if node.type == "struct_expression" else node
        if named is None:
            return
        if named.type == "scoped_type_identifier":  # `error::ListSchemasSnafu { catalog }`
            last = named.child_by_field_name("name")
            named = last if last is not None and text_of(last).endswith("Snafu") else named
        if named.type == "identifier" and _in_use(named):
            return  # `use crate::error::{ListCatalogsSnafu, ..}` in a fn's body
        caller = self.caller(node.start_byte, node.end_byte)
        if caller >= 0 and named.type in ("type_identifier", "identifier"):  # `Build(T, "")`
            line = node.start_point[0] + 1
            struct = text_of(named)
            built = Build(struct, "", line, caller, self._when(node, struct, caller))
            self.builds.append((node.start_byte, built))
            return
        if caller >= 0:
            path = text_of(named.child_by_field_name("path"))
            variant = text_of(named.child_by_field_name("name"))
            self._built(node.start_byte, path, variant, node.start_point[0] + 1, caller, node)

    def registered(self, named: Node) -> None:
        """`TypableCommand { name: "move", fun: move_buffer, .. }` outside any fn (a `const`
        or `static` table: helix's 100 typed commands): the fns its other fields name are
        registered under that name, a route of method `CMD` owned by the struct
        (`entrypoints`). Not in a fn, where `Foo { name: "x", count: n }` names a value."""
        fields, value = named.parent, named.child_by_field_name("value")
        table = fields.parent if fields is not None else None
        if fields is None or table is None or value is None or table.type != "struct_expression":
            return
        name = text_of(value)
        if not COMMAND_NAME.fullmatch(name) or self.caller(table.start_byte, table.end_byte) >= 0:
            return
        struct = base_name(text_of(table.child_by_field_name("name")))
        for field in fields.named_children:
            handler = field.child_by_field_name("value")
            if field.type != "field_initializer" or handler is None:
                continue
            if handler.type not in ("identifier", "scoped_identifier"):
                continue
            path = text_of(handler)
            last = path.rsplit("::", 1)[-1]
            if last[:1].islower() or last[:1] == "_":
                line = handler.start_point[0] + 1
                self.routes.append(Route("CMD", name[1:-1], path, line, struct))

    def route_call(self, call: Node, function: Node, arguments: Node, line: int) -> None:
        """`.route("/p", get(h))` (axum), `.route("/p", web::get().to(h))` and
        `web::resource("/p").route(web::post().to(Wrapper(h)))` (actix-web): read whole, not
        as the 40-character argument snippets; a path under the `.nest("/q", ..)`s its router
        is built in (`_nested_under`), owned by the fn that builds it. An axum `.nest("/q",
        f(..))` mounts what `f` builds under `/q`: a `SUB` route of that fn."""
        given = _given(arguments)
        full = [text_of(a) for a in given]
        caller = self.caller(call.start_byte, call.end_byte)
        owner = self.defs[caller].name if caller >= 0 else ""
        if text_of(function.child_by_field_name("field")) == "nest":
            mounted = _path_literal(given[0]) if len(given) == 2 else None
            made = given[1] if len(given) == 2 else None
            if mounted is not None and made is not None and made.type == "call_expression":
                mounted = self._with_consts(mounted)
                named = made.child_by_field_name("function")
                if named is not None and named.type in ("identifier", "scoped_identifier"):
                    under = self._nested_under(call) + mounted
                    fn = text_of(named).rsplit("::", 1)[-1]
                    self.routes.append(Route("SUB", under, fn, line, owner))
            return
        if len(full) >= 2 and full[0].startswith('"'):
            under, written = self._nested_under(call), full[0].strip('"')
            # axum's `.nest("/m", Router::new().route("/", h))` serves `/m`
            path = under if under and written == "/" else under + written
            registered = full[1]
        elif len(full) == 1:  # actix: the path is the resource's, when the chain shows it
            receiver = text_of(function.child_by_field_name("value"))
            resource = _RESOURCE.search(receiver)
            path, registered = (resource[1] if resource else ""), full[0]
        else:
            return
        path = _scoped_under(call) + path  # actix's `web::scope("/feeds").route(..)`
        for method, handler in _ROUTE_CALL.findall(registered) + _ROUTE_TO.findall(registered):
            self.routes.append(Route(method.upper(), path, handler, line, owner))

    def _nested_under(self, call: Node) -> str:
        """The paths of the axum `.nest("/p", <router>)` calls whose router `call` (a
        `.route(..)` or `.nest(..)`) is part of, outermost first, within its fn: written in
        the nest's argument (`.nest("/maintenance", Router::new().route("/status", ..))`), or
        in a `let` whose name a later `.nest` takes (`let admin = ..; Router::new().nest(
        "/admin", admin)`). A path made by `format!` keeps its placeholders; "" when none."""
        prefix = ""
        node, seen = call, 0
        while node.parent is not None and seen < _NEST_DEPTH:
            parent = node.parent
            if parent.type == "arguments":
                outer = parent.parent
                mounted = _nest_path(outer, parent, node)
                if mounted is not None:
                    prefix, seen = self._with_consts(mounted) + prefix, seen + 1
            elif parent.type == "let_declaration" and parent.child_by_field_name("value") == node:
                taken = self._nest_of_local(parent)
                if taken is None:
                    break
                outer, mounted = taken
                prefix, seen, parent = self._with_consts(mounted) + prefix, seen + 1, outer
            elif parent.type in ("function_item", "closure_expression"):
                break
            node = parent
        return prefix

    def _with_consts(self, path: str) -> str:
        """A `format!` path's `{NAME}` placeholders that name a `const` of this file whose
        value is a plain string, filled in (greptimedb's `HTTP_API_VERSION`, "v1")."""
        if "{" not in path:
            return path
        consts = {
            d.name: d.value[1:-1]
            for d in self.defs
            if d.kind == "const"
            and d.value
            and d.value.startswith('"')
            and d.value.endswith('"')
            and "\\" not in d.value
        }
        return _PLACEHOLDER.sub(lambda m: consts.get(m[1], m[0]), path)

    def _nest_of_local(self, let: Node) -> tuple[Node, str] | None:
        """The `.nest("/p", name)` call after `let name = <router>;` in the same block that
        mounts it, and its path."""
        pattern = let.child_by_field_name("pattern")
        block = let.parent
        if pattern is None or pattern.type != "identifier" or block is None:
            return None
        name = text_of(pattern)
        found = (
            re.compile(rb"\.nest\s*\(\s*[^,;]*,\s*" + re.escape(name.encode()) + rb"\s*\)").search(
                self.source, let.end_byte, block.end_byte
            )
            if name.encode() in self.source[let.end_byte : block.end_byte]
            else None
        )
        if found is None:
            return None
        at = self.source.find(b"nest", found.start(), found.end())
        named = block.descendant_for_byte_range(at, at + 4)
        called = named.parent.parent if named is not None and named.parent is not None else None
        arguments = called.child_by_field_name("arguments") if called is not None else None
        given = _given(arguments)
        if called is None or len(given) != 2 or text_of(given[1]) != name:
            return None
        mounted = _path_literal(given[0])
        return (called, mounted) if mounted is not None else None

    def generic_macro_call(self, node: Node) -> None:
        """`name::<..>(..)` in a macro's tokens: a call of `name` whose arguments follow the
        turbofish; plain, a method (`.name::<T>()`) or a path's (`a::name::<T>()`)."""
        previous = node.prev_sibling
        kind: CallKind = "plain"
        if previous is not None and previous.type == ".":
            kind = "method"
        elif previous is not None and previous.type == "::":
            kind = "path"
        self.macro_call(node, kind, _past_turbofish(node))

    def macro_call(self, node: Node, kind: CallKind, tree: Node | None = None) -> None:
        name = text_of(node)
        previous = node.prev_sibling
        if name in _KEYWORDS or (not name[:1].islower() and kind != "path"):
            return
        if kind == "plain" and previous is not None and previous.type in (".", "::", "fn"):
            return
        tree = tree or node.next_sibling
        if tree is None or tree.child_count == 0:
            return
        opener = tree.children[0].type
        if opener != "(" and not (opener == "{" and kind == "path"):
            return
        if self.quoting and _quoted(node):  # a proc macro's output: the generated code's calls
            return
        qualifier = ""
        if kind != "plain":
            before = previous.prev_sibling if previous is not None else None
            qualifier = text_of(before) if before is not None else ""
        caller = self.caller(node.start_byte, tree.end_byte)
        if caller < 0:
            return
        line = node.start_point[0] + 1
        if opener == "{":
            # `bail!(Error::InsertStatementIn { value })`: a variant built with fields, which is
            # no call (surrealdb's, reading 313: no builder, no path, and its handling matched
            # the enum on an `anyhow::Result`); not a pattern, in a pattern macro
            # (`matches!`) or before `=>`, `=`, `|` or `if` (a `match` or `let` a macro holds)
            if not _pattern_in_tokens(node, tree.next_sibling):
                self._built(node.start_byte, qualifier, name, line, caller, node)
            return
        call = Call(name, kind, qualifier, line, token_arity(tree), caller, in_macro=True)
        self.calls.append((node.start_byte, call))
        if kind == "path" and not _in_pattern_macro(node):  # `bail!(E::V(..))`
            self._built(node.start_byte, qualifier, name, line, caller, node)

    def macro_unit_build(self, node: Node) -> None:
        """`bail!(Error::ScriptingNotAllowed)`: a unit variant written as a value in a macro's
        tokens, before its `)` or `,` (surrealdb's 94 such `bail!`s had no builder, their
        records no path). Not in a pattern macro (`matches!(e, E::V)`) or a pattern its
        tokens hold (`Some(E::V) =>`, `= ..`), nor in a proc macro's output."""
        tree = node.parent
        after = tree.next_sibling if tree is not None else None
        if _pattern_in_tokens(node, after) or (self.quoting and _quoted(node)):
            return
        previous = node.prev_sibling
        before = previous.prev_sibling if previous is not None else None
        caller = self.caller(node.start_byte, node.end_byte)
        if before is not None and caller >= 0:
            line = node.start_point[0] + 1
            self._built(node.start_byte, text_of(before), text_of(node), line, caller, node)

    def finish_calls(self) -> None:
        self.calls.sort(key=lambda pair: pair[0])
        self.call_starts = [start for start, _ in self.calls]

    def local(self, node: Node) -> None:
        pattern = node.child_by_field_name("pattern")
        if pattern is not None and pattern.type == "tuple_pattern":
            self.cast_pair(node, pattern)
        if pattern is None or pattern.type != "identifier":
            return
        written = node.child_by_field_name("type")
        type_text = text_of(written) if written is not None else ""
        value = _without_error_side(node.child_by_field_name("value"))
        name = text_of(pattern)
        chain = _field_chain(value, name) if value is not None and not type_text else ""
        if chain:  # `let session = &handler_args.session`: typed as the link types the chain
            type_text = f"{FIELD_VALUE}{chain}"
        elif value is not None and not type_text and (field := _field_of_call(value)):
            # `let state = &mut state.downcast_mut::<State>().0`: a field of what a call gave,
            # no longer the parameter `state` was (risingwave's `ScalarWrapper::update` called
            # `append` of another crate's `AggregateState`); typed as the link types the chain
            type_text = f"{FIELD_VALUE}{field}"
        elif value is not None and value.type == "type_cast_expression":
            # (not over a fn of the name it calls: `let total = total().ceil() as usize`
            # binds `total` after the call, which stays the fn's, risingwave's compute node)
            if not re.search(rf"\b{re.escape(name)}\s*\(", text_of(value)):
                type_text = type_text or _cast_type(value)
        elif value is not None and value.type == "call_expression":
            type_text = type_text or _called_type(value.child_by_field_name("function"))
        elif value is not None and value.type == "struct_expression":
            type_text = type_text or text_of(value.child_by_field_name("name"))
        elif value is not None and value.type == "closure_expression" and not type_text:
            type_text = CLOSURE  # `handle(..)` then calls this closure, not a fn
        # the enum variants the value is built as (each branch's): what a dispatch arm takes
        built = _variants(value) if value is not None else None
        variant = "|".join(dict.fromkeys(built)) if built else ""
        type_text = type_text or (built[0].rsplit("::", 1)[0] if built else "")
        if not type_text:
            return
        caller = self.caller(node.start_byte, node.end_byte)
        if caller >= 0:
            line = node.start_point[0] + 1
            self.locals.append(
                Local(text_of(pattern), type_text, caller, variant, line, _block_end(node))
            )
            if written is not None and value is not None:
                self.conversion(text_of(written), value, caller)

    def cast_pair(self, node: Node, pattern: Node) -> None:
        """`let (ptr, end) = (r.start as *const i8, r.end as *const i8)`: each name that a
        cast gives its value has the cast's type (lance's `do_prefetch`, reading 232)."""
        value = node.child_by_field_name("value")
        if value is None or value.type != "tuple_expression" or node.child_by_field_name("type"):
            return
        names, values = pattern.named_children, value.named_children
        caller = self.caller(node.start_byte, node.end_byte)
        if len(names) != len(values) or caller < 0:
            return
        line = node.start_point[0] + 1
        for named, given in zip(names, values, strict=True):
            cast = _cast_type(given) if given.type == "type_cast_expression" else ""
            if named.type == "identifier" and cast:
                local = Local(text_of(named), cast, caller, "", line, _block_end(node))
                self.locals.append(local)

    def loop_binding(self, node: Node) -> None:
        """`for shard in &self.shards`, `for (_, segment) in segments.iter()`: the loop's names,
        each an element of the value iterated, or one of a pair's two (`ITEM_VALUE`)."""
        pattern, value = node.child_by_field_name("pattern"), node.child_by_field_name("value")
        caller = self.caller(node.start_byte, node.end_byte)
        if pattern is None or value is None or caller < 0:
            return
        if value.end_byte - value.start_byte > 2 * _LOOP_VALUE_CHARS:
            return
        iterated = _RECEIVER_SPACE.sub("", " ".join(text_of(value).split()))
        iterated = iterated.removeprefix("&").removeprefix("mut ").strip()
        if len(iterated) > _LOOP_VALUE_CHARS:
            return
        written = " ".join(text_of(pattern).split())
        one = _LOOP_NAME.fullmatch(written)
        names = [(one[1], "")] if one else []
        if not one and written.startswith("(") and written.endswith(")"):
            pair = [_LOOP_NAME.fullmatch(part.strip()) for part in written[1:-1].split(",")]
            if len(pair) == 2 and pair[0] and pair[1]:
                names = [(pair[0][1], "0"), (pair[1][1], "1")]
        line, end = node.start_point[0] + 1, node.end_point[0] + 1
        # the loop takes the value's items: its `next`, which the link finds by its type
        self.calls.append((value.start_byte, Call("next", "loop", iterated, line, 0, caller)))
        for name, part in names:
            if name != "_":
                self.locals.append(
                    Local(name, f"{LOOP_ITEM}{part}>{iterated}", caller, "", line, end)
                )

    def conversion(self, written: str, value: Node, caller: int) -> None:
        """`let c: PluginCommand = proto.try_into()?`: what `try_into` (`into`) runs is the
        written type's `try_from` (`from`), a path call `PluginCommand::try_from` on the
        method's line (zellij's 254 `PluginCommand::try_from` sites had no caller). Through
        `unwrap`/`expect` too, and through what drops its error and keeps its value (`let ty:
        DataType = decl.parse().ok()?`, `.unwrap_or(..)`: sqlx's `DataType::from_str`, whose
        callers both drop its error, had none, reading 308), the call then marked dropped;
        only a plain type path is written (no generics: `Vec<T>`'s `from` is the standard
        library's)."""
        dropped = False
        while value.type == "call_expression":
            function = value.child_by_field_name("function")
            if function is None or function.type != "field_expression":
                return
            field = function.child_by_field_name("field")
            method = text_of(field)
            if method in ("unwrap", "expect") or method in _DROPS_KEEPS_VALUE:
                inner = _without_error_side(function.child_by_field_name("value"))
                if inner is None:
                    return
                dropped = dropped or method in _DROPS_KEEPS_VALUE
                value = inner
                continue
            converts = _CONVERTS.get(method)
            arguments = value.child_by_field_name("arguments")
            if converts is None or field is None or arguments is None:
                return
            if arguments.named_child_count or not _PLAIN_TYPE.fullmatch(written):
                return
            self.conversion_call(converts, written, function, caller, dropped)
            return

    def field_conversion(self, node: Node) -> None:
        """`GetOptions { format: args.get_one::<String>("format").unwrap().parse()?, .. }`:
        the `parse` runs the field's type's `from_str` (`try_into` its `try_from`), a path
        call of `<field>GetOptions.format` the link types off the struct (cargo's
        `ConfigFormat::from_str` had no caller, reading 302)."""
        field = node.child_by_field_name("field")
        tried = node.child_by_field_name("value")
        literal = node.parent.parent if node.parent is not None else None
        call = tried.named_child(0) if tried is not None else None
        if field is None or call is None or literal is None or literal.type != "struct_expression":
            return
        function = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        name = literal.child_by_field_name("name")
        if function is None or arguments is None or arguments.named_child_count or name is None:
            return
        converts = _CONVERTS.get(text_of(function.child_by_field_name("field")))
        struct = text_of(name)
        caller = self.caller(node.start_byte, node.end_byte)
        if converts is None or caller < 0 or not _PLAIN_TYPE.fullmatch(struct):
            return
        self.conversion_call(converts, f"{FIELD_TYPE}{struct}.{text_of(field)}", function, caller)

    def combinator_parameter(self, node: Node) -> None:
        """`config.and_then(|config| config.subcommand.run())`: the parameter holds the value
        inside `config`, typed as the nearest `let config` above (just's `run`: `Config`)."""
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None:
            return
        method = text_of(function.child_by_field_name("field"))
        receiver = text_of(function.child_by_field_name("value"))
        closure = next(c for c in arguments.named_children if c.type == "closure_expression")
        parameters = closure.child_by_field_name("parameters")
        if method not in _INNER_VALUE or parameters is None:
            return
        caller = self.caller(node.start_byte, node.end_byte)
        line = node.start_point[0] + 1
        above = [
            local
            for local in self.locals
            if local.name == receiver and local.caller == caller and local.line <= line
        ]
        if caller < 0 or not above:
            return
        known = max(above, key=lambda local: local.line)
        if known.type == CLOSURE or (
            known.type.startswith(CALLED_TYPE) and not ASSOCIATED_CALL.fullmatch(known.type)
        ):
            # what a fn returns, unwrapped by the link: not the inside of it; but `T::f(..)`'s
            # value (mostly a `T`, a `Result<T>`) and its inside are typed alike, as they were
            return
        name = text_of(parameters.named_children[0])
        self.locals.append(Local(name, known.type, caller, known.variant, line))

    def variant_let(self, node: Node) -> None:
        """`if let Ok(Ok(E::V(inner))) = x {..}`, `while let Some(E::V(x)) = ..`, `let
        E::V(x) = y else {..}`: the name holds the variant's value, as in a dispatch arm
        (lemmy's outbox: `inner.verify(data)` is the `CreateOrUpdatePage` a variant holds),
        in the `if`'s or loop's block; after a `let .. else`, to its block's end."""
        pattern = node.child_by_field_name("pattern")
        bound = _variant_binding(text_of(pattern)) if pattern is not None else None
        caller = self.caller(node.start_byte, node.end_byte) if bound else -1
        if bound is None or caller < 0:
            return
        if node.type == "let_declaration":
            end = _block_end(node)
        else:
            holder = node.parent
            if holder is not None and holder.type == "let_chain":
                holder = holder.parent
            field = {"if_expression": "consequence", "while_expression": "body"}
            body = (
                holder.child_by_field_name(field[holder.type])
                if holder is not None and holder.type in field
                else None
            )
            if body is None:
                return
            end = body.end_point[0] + 1
        name, held = bound
        self.locals.append(Local(name, held, caller, "", node.start_point[0] + 1, end))

    def guards_of(self, nodes: list[Node]) -> None:
        """Each call in a branch of an `if` on a plain name, or in an arm of a `match` on one
        (`guard` captures, outer ones first), keeps the innermost such branch's kind and
        condition (`Call.guard`)."""
        for node in nodes:
            if node.type == "match_expression":
                self._arm_guards(node)
                continue
            tested = node.child_by_field_name("condition")
            condition = " ".join(text_of(tested).split())
            if len(condition) > 120:
                continue
            named = tested is not None and not _on_a_field(tested)
            for kind, branch in (
                ("if", node.child_by_field_name("consequence")),
                ("else", node.child_by_field_name("alternative")),
            ):
                if branch is None:
                    continue
                self._guard(branch, f"{kind}{GUARD_JOIN}{condition}", named)

    def _arm_guards(self, node: Node) -> None:
        """`match mode { Mode::Fast => f(), .. }`: each arm's calls, guarded by the arm as a
        site's condition writes it (`match mode: Mode::Fast =>`); not a catch-all arm (what it
        needs depends on the arms before it) nor a guarded one."""
        value = " ".join(text_of(node.child_by_field_name("value")).split())
        body = node.child_by_field_name("body")
        for arm in body.named_children if body is not None else ():
            pattern = arm.child_by_field_name("pattern")
            written = " ".join(text_of(pattern).split())
            if arm.type != "match_arm" or not written or _CATCH_ALL_ARM.fullmatch(written):
                continue
            if " if " in f" {written} " or len(written) > 120:
                continue
            branch = arm.child_by_field_name("value")
            if branch is not None:
                self._guard(branch, f"match_arm{GUARD_JOIN}match {value}: {written} =>")

    def _guard(self, branch: Node, guard: str, named: bool = True) -> None:
        """Each call inside `branch` keeps `guard` (an inner one, set later, replaces it);
        one on a field (not `named`) only where no `if` on a plain name is around the call:
        a walk's need of the name stays (`valueflow.guard_needs`)."""
        lo = bisect_right(self.call_starts, branch.start_byte - 1)
        hi = bisect_right(self.call_starts, branch.end_byte - 1)
        for at in range(lo, hi):
            start, call = self.calls[at]
            if not named and call.guard and at not in self.field_guarded:
                continue
            self.calls[at] = (start, call._replace(guard=guard))
            if named:
                self.field_guarded.discard(at)
            else:
                self.field_guarded.add(at)

    def arms_of(self, nodes: list[Node]) -> None:
        """Dispatch arms, and the fns an arm names without calling (`"build" => build::exec`)."""
        found: list[tuple[str, Node, Node, int]] = []
        for node in nodes:
            pattern = text_of(node.child_by_field_name("pattern"))
            enum = _ENUM_ARM.match(pattern)
            label = None
            if enum:  # and the variants it names inside, outermost first (not of alternatives)
                inside = _VARIANT_IN.finditer(pattern, enum.end()) if "|" not in pattern else ()
                label = ARM_LINK.join([f"{m[1]}::{m[2]}" for m in (enum, *inside)][:3])
            if label is None:
                string = _STRING_ARM.match(pattern)
                label = f'"{string[1]}"' if string else None
            value = node.child_by_field_name("value")
            caller = self.caller(node.start_byte, node.end_byte)
            if value is None or caller < 0:
                continue
            # `cmd.run()` in the arm: the variant's value's; also inside `Some(..)`, `Ok(..)`
            # (qdrant's `Some(Shard::QueueProxy(proxy)) => proxy.transfer_all_missed_updates()`)
            for name, held in _variant_bindings(pattern):
                self.locals.append(Local(name, held, caller, "", node.start_point[0] + 1))
            if label is None:
                continue
            found.append((label, node, value, caller))
            if value.type in ("identifier", "scoped_identifier"):
                line = value.start_point[0] + 1
                if value.type == "identifier":
                    call = Call(text_of(value), "plain", "", line, -1, caller)
                else:
                    name = text_of(value.child_by_field_name("name"))
                    qualifier = text_of(_path_of(value))
                    call = Call(name, "path", qualifier, line, -1, caller)
                self.calls.append((value.start_byte, call))
        self.finish_calls()
        for label, node, value, caller in found:
            lo = bisect_right(self.call_starts, value.start_byte - 1)
            hi = bisect_right(self.call_starts, value.end_byte - 1)
            if hi > lo:
                line = node.start_point[0] + 1
                self.arms.append(Arm(label, line, caller, tuple(range(lo, hi))))

    def result(self, clean: bool) -> FileIndex:
        return FileIndex(
            definitions=tuple(self.defs),
            calls=tuple(call for _, call in self.calls),
            uses=tuple(self.uses),
            locals=tuple(sorted(self.locals, key=lambda local: local.line)),  # a closure's too
            arms=tuple(self.arms),
            # by line (stable): attribute and `.route(..)` registrations as they stand
            routes=tuple(sorted(self.routes, key=lambda route: route.line)),
            impls=tuple(self.impls),
            subcommands=tuple(self.subcommands),
            builds=tuple(build for _, build in sorted(self.builds, key=lambda pair: pair[0])),
            scopes=tuple(self.scopes),
            clean=clean,
        )
