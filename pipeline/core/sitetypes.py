"""The syntax-tree side of the data handed between stages: plain frozen dataclasses.

`Site` and `FileScan` come out of `Language.find_sites` (pure, no IO). Nothing here
needs pydantic, so listing sites (`errdoc sites`) never imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

SiteKind = Literal[
    "bail",
    "anyhow",
    "ensure",
    "format_err",
    "eyre",
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
    "assert",
    "error_attr",
    "display",
    "expect",
    "context",
    "constructor",
]
# The kinds that define an error's text without raising it: a thiserror `#[error(..)]`
# attribute, a literal an error type's hand-written `Display` impl writes. The code that
# builds the value decides when it occurs.
TEXT_KINDS = frozenset(("error_attr", "display"))
ErrorType = Literal["exception", "panic", "error_code"]
Severity = Literal["critical", "error", "warning"]
HandlingStrategy = Literal[
    "validation", "try-catch", "retry", "configuration", "upgrade", "fail-fast"
]
ConditionKind = Literal[
    "if",
    "else",
    "match_arm",
    "let_else",
    "if_let",
    "while",
    "ensure",
    "closure",
    "loop",
    "check_failed",
    "exit",  # an early exit above the site, not taken: `if x.is_empty() { return Ok(()); }`
]


# `Facts.item` of a site in a `macro_rules!` body: the prefix of the macro's name
MACRO_RULES = "macro_rules! "
# `Facts.item` of a site in a macro invoked where an item goes, whose body is no items
# (typst's `cast! { Binding, v: Alignment => .. }`): the prefix of `cast! { Binding`
MACRO_INVOCATION = "invocation "


# How a condition writes the steps of a call chain before its last `?`, which return their
# own errors there: `…?.as_object().peel_to_tree() was None/Err (context)` (`Facts`)
EARLIER_STEPS = "\u2026?"


@dataclass(frozen=True, slots=True)
class Condition:
    """One step of the path of conditions that leads to a site, outermost first."""

    kind: ConditionKind
    text: str  # the condition as written (`self.state.is_paused()`, `Some(x) =>`)
    line: int  # 1-based
    negated: bool = False  # True for an `else` branch: the condition did NOT hold
    excluded: tuple[str, ...] = ()  # a match arm: the patterns of the arms tried before it
    # of those, the arms whose body fails (`"ws" => unimplemented!()`, a `bail!`, a
    # `return Err(..)`): a value they match does not get past the `match` either
    diverging: tuple[str, ...] = ()
    # a match arm: an arm after it fails as well (`_ => bail!(..)`), so a value this arm does
    # not match need not get past the `match` (sccache's `Err(e) =>` before `_ =>
    # "unexpected response"`, reading 170); an `if` or `else`: the other branch fails too; a
    # `let .. else` or a `match` above the site (`if_let`): what does not match fails
    fails_later: bool = False
    # a match arm: the `#[cfg(..)]` gate of each arm in `excluded` ("" for an arm every build
    # has), or () when none has one: lance's `#[cfg(feature = "tokenizer-lindera")] s if
    # s.starts_with("lindera/") =>` takes its values only in the builds with that feature
    excluded_gates: tuple[str, ...] = ()


def value_name(type_name: str) -> str:
    """The name `Facts.call` gives a value of a type it calls a method on: the type's last
    segment in snake case (`RustOutputsRewriter` -> `rust_outputs_rewriter`), or `value`
    where that is no plain name."""
    name = _CAMEL_STEP.sub("_", type_name.rsplit("::", 1)[-1]).lower()
    return name if name.isidentifier() and name not in _NO_VALUE_NAMES else "value"


_CAMEL_STEP = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NO_VALUE_NAMES = frozenset(("self", "type", "match", "mod"))


def call_parameters(call: str | None) -> list[str]:
    """The arguments a call of a site's fn passes, as `Facts.call` writes it
    (`worker.inject(job_id, paused)` -> `job_id`, `paused`); none when it is not known."""
    if not call or "(" not in call:
        return []
    inside = call.split("(", 1)[1].rsplit(")", 1)[0]
    return [p.strip() for p in inside.split(",") if p.strip()]


def checked_above(condition: Condition) -> bool:
    """An `if c { bail!(..) }` above the site (`c` false): an earlier check that passed, a
    premise of the site as an `ensure!` is, not a step into it."""
    return condition.kind == "ensure" and condition.negated


@dataclass(frozen=True, slots=True)
class Facts:
    """What the syntax tree says about the code around a site."""

    enclosing_fn: str | None = None
    enclosing_impl: str | None = (
        None  # `impl Foo` / `impl Trait for Foo` -> "Foo" / "Trait for Foo"
    )
    fn_doc: str | None = None  # the doc comment of the enclosing fn, `///` stripped
    return_type: str | None = None  # the enclosing fn's return type as written
    conditions: tuple[Condition, ...] = ()
    enclosing_type: str | None = None  # for `#[error]`: the enum or struct
    variant: str | None = None  # for `#[error]` on a variant
    type_doc: str | None = None  # doc comment on that enum/struct/variant
    receiver: str | None = None  # `.expect`/`.context`: the expression it is called on
    callee: str | None = (
        None  # constructor: `ErrorCode::InvalidParameter`, `Status::invalid_argument`
    )
    snippet: str | None = None  # the whole statement the site is part of, dedented
    call: str | None = None  # a call of the enclosing fn as a caller writes it, if it has one
    # the `static`/`const` whose initializer holds the site; `macro_rules! m` for a macro's
    # body; `invocation cast! { Binding` for an item-level macro's (`MACRO_INVOCATION`)
    item: str | None = None
    help: str | None = None  # the help the error carries (`.with_help("..")`, `help: ..`)
    # the type parameters of the enclosing fn and impl, space-separated (`D E`): a return
    # type's `D::Error` is then the caller's choice, no type of the repository's
    generics: str | None = None
    # the spawn a closure or async block that holds the site is handed to (`tokio::spawn`,
    # `self.runtime.spawn`): its error is that task's output, not the fn's
    spawned: str | None = None
    # what drops the error within the fn, when the site makes it in a closure of a chain that
    # ends so (`.unwrap_or_else(|_| ..)`, `.ok()`): no caller gets it (`drops.discarded_in`)
    discarded: str | None = None
    # the `#[cfg(..)]` predicates of the items, arms and statements around the site, outermost
    # first, as written (`not(feature = "__dnssec")`, `windows`): builds where one does not
    # hold have no such code (`facts.cfg_gates`); test gates left out (test code is skipped)
    gates: tuple[str, ...] = ()
    # for a variant with no doc comment of its own: its enum's, said to be the enum's
    enum_doc: str | None = None
    # the closure the site makes its error in, ignoring the error it is given, as written
    # (`` `.map_err(|_e| ..)` ``): the message keeps nothing of it (`drops.ignored_error`)
    ignored_error: str | None = None
    # for `#[error(..)]`: the fields of its variant or struct, (name, type as written), a
    # tuple's named `0`, `1`, ..: what each placeholder of the text prints
    fields: tuple[tuple[str, str], ...] = ()
    # the enclosing fn's parameters its conditions name that a `let` before the site binds
    # to another value (`let key = clean_utf8(..key..)`): the check reads no caller's value
    rebound: tuple[str, ...] = ()
    # a `.context(..)` whose result is unwrapped right there (`.context("..").unwrap()`): the
    # method that panics on it (`unwrap`, `expect`); the error reaches no caller
    unwrapped: str | None = None
    # the path of the call whose argument the site's value is, when it reads as a variant or
    # an associated fn of a type (`ApiError::BadRequest(anyhow!(..))`): what wraps it
    wrapped_in: str | None = None
    # for `#[error]`: the visibility of its enum or struct as written (`pub`, `pub(crate)`,
    # "" for none); code that cannot name the type cannot match on it
    type_visibility: str | None = None
    # the method call, as written, a statement hands the site's value to (`` `working_set.
    # error(..)` ``): the error is reported there, not returned by this expression
    reported_to: str | None = None
    # the one field of `self` every condition on the way to the site reads, when they read
    # nothing else (`self.phase`): the fns of its impl that assign it, with the value when it
    # is short ("" when not), and the impl's `pub fn` that returns it (`statefield`)
    state_field: str | None = None
    state_setters: tuple[tuple[str, str], ...] = ()
    state_getter: str | None = None
    # the enclosing fn is an `unsafe fn`: a caller calls it in an `unsafe` block (qdrant's
    # `score_4bit_internal_sse` called bare in a snippet was E0133, reading 240)
    unsafe_fn: bool = False
    # the polling loop the site comes after, or sits in under a test of its tries, that
    # sleeps between tries and returns once what it waits for holds (`for _ in 0..100`):
    # past it the wait ran out (tikv's `must_peer_state`, reading 241; `polling.waited_by`)
    waited: str | None = None
    # the call, as written, that a closure holding the site is handed to when that is a
    # command-line parser's check of a value (clap's `.value_parser(|s| ..)`): the parser
    # runs it on what a user gives for the option, prints its error and exits (bat's
    # "terminal width cannot be zero" read "`build_app` returns `Err`", reading 300)
    parsed_by: str | None = None
    # the quoting macro (`quote!`) whose tokens hold the site: a procedural macro's output,
    # code the macro writes into the crate that uses it, where it runs; the macro's own fn
    # never produces the error (sqlx's derived `Decode`'s "invalid value {:?} for enum {}"
    # read "returned as the using crate compiles", reading 308)
    generated: str | None = None
    # the name of the `fail_point!` (the `fail` crate's) whose closure holds the site: a
    # failure a test injects, in a build with the `failpoints` feature only (tikv's
    # `Err(Error::ErrorWrapper(String::from("failpoint")))`, reading 326)
    failpoint: str | None = None
    # for `#[error(..)]`: the field its type's `source()` returns (`#[source]`, `#[from]`, a
    # field named `source`), "" when none is (tikv's `ErrorWrapper(String)` keeps no cause,
    # reading 326), None when the code does not say (`errorfields.cause_field`)
    cause: str | None = None
    # .. and the fields its message does not print but its derived `Debug` does
    debug_only: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Site:
    """A place in one file where the code produces an error message a user can see."""

    kind: SiteKind
    file_path: str
    line: int  # 1-based line of the macro or call start
    column: int  # 0-based byte column
    message: str  # the format string as written, escapes decoded, placeholders kept
    is_format: bool  # False for `.expect("..")`-style literals, whose braces are literal
    pattern: str  # `messagePattern`: the regex every rendering of `message` fullmatches
    macro: (
        str  # the macro or method as written (`anyhow::bail`, `expect`, `Status::invalid_argument`)
    )
    format_args: tuple[str, ...] = ()
    error_code: str | None = None
    http_status: int | None = None
    facts: Facts = field(default_factory=Facts)
    window: str = ""  # source lines line-18 .. line+18, clipped to the file, joined by "\n"
    window_start: int = 1  # 1-based line of the window's first line


@dataclass(frozen=True, slots=True)
class TypeAlias:
    """`type MetaResult<T> = Result<T, MetaError>`: name -> the error type."""

    name: str
    error_type: str
    line: int = field(default=0, compare=False)  # 1-based; where it is declared, for `unitscan`


# modules a file declares, each with the `cfg` predicates on its `mod x;` line
ModuleLines = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class FileScan:
    """Everything `find_sites` learns from one file."""

    sites: tuple[Site, ...]
    aliases: tuple[TypeAlias, ...] = ()
    parse_errors: int = 0  # 1 when tree-sitter had to recover from a syntax error
    uses_anyhow_result: bool = False  # `use anyhow::Result` (or `{.., Result}`): bare `Result<T>`
    # the module path its `use` takes `Result` from (`lance_core`, `crate::error`), if any
    result_from: str | None = None
    # the error macros (`bail`, `ensure`, ..) it imports from no anyhow or eyre crate:
    # `use risingwave_common::bail;` is the repository's own, whose error is not anyhow's
    own_macros: tuple[str, ...] = ()
    # .. and those it imports from anyhow or eyre (`use anyhow::{bail, ensure};`)
    anyhow_macros: tuple[str, ...] = ()
    # modules it declares `#[cfg(test)] mod x;` (`./unit/x.rs`: its `#[path]`): test code
    test_modules: tuple[str, ...] = ()
    # its `#![cfg(..)]` predicates (`modulegates.file_gates`), and the modules it declares
    # with those on their `mod x;` lines (every module when it has the former): which builds
    # compile those files (`Language.module_gates`)
    file_gates: tuple[str, ...] = ()
    gated_modules: ModuleLines = ()


def placed(site: Site, shift: int, path: str, window: str, window_start: int) -> Site:
    """`site` moved down `shift` lines (its conditions too), at `path`, with its window.

    Built field by field: `dataclasses.replace` costs as much as the rest of a cached unit.
    """
    facts = site.facts
    if facts.conditions and shift:
        moved = tuple(
            Condition(
                c.kind,
                c.text,
                c.line + shift,
                c.negated,
                c.excluded,
                c.diverging,
                c.fails_later,
                c.excluded_gates,
            )
            for c in facts.conditions
        )
        facts = Facts(
            facts.enclosing_fn, facts.enclosing_impl, facts.fn_doc, facts.return_type, moved,
            facts.enclosing_type, facts.variant, facts.type_doc, facts.receiver, facts.callee,
            facts.snippet, facts.call, facts.item, facts.help, facts.generics, facts.spawned,
            facts.discarded, facts.gates, facts.enum_doc, facts.ignored_error, facts.fields,
            facts.rebound, facts.unwrapped, facts.wrapped_in, facts.type_visibility,
            facts.reported_to, facts.state_field, facts.state_setters, facts.state_getter,
            facts.unsafe_fn, facts.waited, facts.parsed_by, facts.generated, facts.failpoint,
            facts.cause, facts.debug_only,
        )  # fmt: skip
    return Site(
        site.kind, path, site.line + shift, site.column, site.message, site.is_format,
        site.pattern, site.macro, site.format_args, site.error_code, site.http_status, facts,
        window, window_start,
    )  # fmt: skip
