"""How a user reaches a site: caller paths to entry points and what its conditions depend on.

The contract between the repository index (built in the scan stage) and everything
that explains or shows a site: the static analyzer, the model's prompt, the page's
"How you get here" section and `explain --json`. Pure data; no tree-sitter here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from pipeline.core.sitetypes import ConditionKind

# How a call edge was resolved, most certain first; `name` is a bare-name match.
# `conversion`: a `?` calls `impl From<S> for E`'s `from`, which no code names.
# `namesake`: the link's own, never in a graph it gives (`callgraph._namesakes`)
Resolution = Literal[
    "self", "local", "import", "type", "trait", "rpc", "name", "conversion", "message",
    "iterator", "extractor", "namesake",
]  # fmt: skip
EntryKind = Literal[
    "main",
    "cli",
    "rpc",
    "http",
    "statement",
    "pub-api",
    "macro",
    "custom",
    "example",
    "build",
    "bench",
]


@dataclass(frozen=True, slots=True)
class Hop:
    """One function on a caller path."""

    name: str  # as a reader knows it: `DdlController::alter_backfill_parallelism`
    file_path: str
    line: int  # 1-based line of its definition
    signature: str  # `pub async fn alter_backfill_parallelism(&self, ...) -> MetaResult<()>`
    doc: str | None = None  # its doc comment, `///` stripped
    # where it calls the next hop (None for the last hop, but where a builder builds `built`)
    call_line: int | None = None
    resolution: Resolution | None = None  # how the call from the previous hop was resolved
    candidates: tuple[str, ...] = ()  # other functions that call may reach when ambiguous
    # the trait method the previous hop calls, which runs this impl's (`resolution` "trait":
    # on a `dyn Sink`, an `impl Sink`, an `S: Sink`): `Sink::validate`
    via: str | None = None
    impls: int | None = None  # with `via`: how many impls' methods that call may run, if 2+
    # the top hop of a path with no entry point, a trait impl's method no call reaches:
    # the trait's method it implements (`TryFrom::try_from`), and whether another crate
    # declares the trait (its code calls it)
    implements: str | None = None
    foreign: bool | None = None
    # the top hop of a path with no entry point, each of whose callers keeps the error the
    # hop returns (`Call.dropped`, `Call.logged`): one of them, and how (`` `X::f`
    # (src/x.rs:12) logs it with `warn!` ``)
    handled: str | None = None
    # the top hop of a path with no entry point, a fn no code the index reads calls whose
    # names say it is test or benchmark support (`entrypoints.test_support`, `for_tests`:
    # ruff's `ruff_benchmark::..::RealWorldProject::setup`, tikv's `TestStorageBuilder`)
    support: bool | None = None
    # the other lines where it calls the next hop, when it calls it more than once (`call_line`
    # is the first): which of them the path takes, the values there decide (risingwave's
    # `create_plan_fragment` calls `convert_plan_node` at lines 220, 227 and 236, and only
    # the last two pass the stages the site needs)
    also_at: tuple[int, ...] = ()
    # the top hop of a path with no entry point, each of whose callers passes a value that
    # rules the site out (`valueflow`): one of them, and what it passes (`` `flush`
    # (src/common.rs:902) passes `"kv"` ``)
    ruled_out: str | None = None
    # of a returned error's path: how this hop turns the error the next hop returns into a
    # panic (`Call.unwrapped`: `` `.unwrap()` ``, `` `.expect("..")` ``); the hops above it
    # meet a panic, whose message prints the error's `Debug` form
    unwraps: str | None = None
    # the innermost `if` (or `match` arm) around this hop's call of the next, as the index
    # keeps it (`Call.guard`): its kind and its condition, `if: opts.list_details`,
    # `else: opts.full_path`, `match_arm: match mode: Mode::Fast =>`
    guard: str | None = None
    # with a `match` arm `guard` on an enum's variant: the fns that build that variant, where
    # the value the arm takes comes from (`ArmBuilt`)
    arm_built: ArmBuilt | None = None


@dataclass(frozen=True, slots=True)
class Builder:
    """A fn that builds a value, and the first line where it does."""

    name: str  # its label: `CatalogBatch::restore`
    file_path: str
    line: int


@dataclass(frozen=True, slots=True)
class ArmBuilt:
    """The fns that build the enum variant a hop's `match` arm takes (influxdb's
    `apply_catalog_batch` calls `apply_restore_batch` only in the arm
    `CatalogBatch::Restore(..)`, and only `CatalogBatch::restore` builds one: reading 327 read
    its paths from `commit` as if any batch took that arm)."""

    variant: str  # `CatalogBatch::Restore`
    builders: tuple[Builder, ...]  # the first `ARM_BUILDERS`, by file and line
    count: int  # how many fns build it in all


# How many of the fns that build an arm's variant a hop names (`ArmBuilt.builders`).
ARM_BUILDERS = 3


# How an option's or argument's value parser (`value_parser = f`) is labelled as an entry
# point (`entrypoints`): clap calls it, and prints the error it returns itself.
VALUE_PARSER_LABELS = ("option `", "argument `")
# How `Hop.guard` joins the `if`'s (or arm's) kind and its condition.
HOP_GUARD_JOIN = ": "


def parsed_option(path: CallerPath) -> str | None:
    """The option (or argument) a path starts at when its top hop is that option's value
    parser, as labelled (`option `--size` (`Opts::size`)`); None otherwise."""
    label = path.entry_label or ""
    return label if path.entry == "cli" and label.startswith(VALUE_PARSER_LABELS) else None


def guard_parts(guard: str) -> tuple[str, str]:
    """A `Hop.guard`'s kind (`if`, `else`, `match_arm`) and condition."""
    kind, _, condition = guard.partition(HOP_GUARD_JOIN)
    return kind, condition


# The most hops a caller path holds, the site's fn included (`callerpaths` walks no higher).
PATH_DEPTH = 8


@dataclass(frozen=True, slots=True)
class Beyond:
    """The way in above a path the depth limit cut: the entry point a walk from the path's
    top hop reaches within `PATH_DEPTH` more calls, and how many calls above that hop."""

    entry: EntryKind
    entry_label: str
    calls: int  # from the entry point's fn down to the cut path's top hop


@dataclass(frozen=True, slots=True)
class CallerPath:
    """A path from an entry point down to the function that holds the site."""

    hops: tuple[Hop, ...]  # entry point first, the site's enclosing function last
    entry: EntryKind | None = None  # None: no entry point was reached within the depth limit
    entry_label: str | None = (
        None  # `SQL statement ALTER ... SET BACKFILL_PARALLELISM`, `risectl meta pause`
    )
    # with no entry point and `PATH_DEPTH` hops (the limit cut it): the way in further up
    beyond: Beyond | None = None


@dataclass(frozen=True, slots=True)
class BuildStep:
    """One condition on the way to where a builder builds `Reach.built`, as the site's own
    conditions are (`sitetypes.Condition`): `if` `value.is_some()`, not negated."""

    kind: ConditionKind  # `if`, `else`, `match_arm`, `let_else`, `ensure`, `exit`, ..
    text: str  # as written: `parameter.flag || parameter.value.is_some()`
    negated: bool = False
    excluded: tuple[str, ...] = ()  # a `match` arm's: the arms tried before it


_CONDITION_KINDS = frozenset(get_args(ConditionKind))


@dataclass(frozen=True, slots=True)
class FailedCall:
    """The fn of the repository whose error a site wraps or guards (`f(x).context("..")`,
    `.map_err(..)`, `.expect(..)`), and the calls it passes errors on from with `?`: the
    cause printed after the site's message is one of theirs, or a check of its own (atuin's
    `Settings::new().wrap_err("could not load server settings")`, reading 324: the record
    said only that the call returned an error)."""

    callee: str  # the fn's label: `Settings::new`
    file_path: str
    line: int  # of its definition
    tried: tuple[str, ...] = ()  # its `?` calls as written, short: `fs::create_dir_all(..)`
    more: int = 0  # how many more `?` calls it makes than `tried` names


@dataclass(frozen=True, slots=True)
class BuildPlace:
    """Another place the best path's builder builds `Reach.built`, with the conditions on
    the way there: influxdb's `validate_db_name` builds `InvalidChar` for a character of
    more than one byte and again for one of a name's other ASCII characters (reading 327:
    the record said the first alone)."""

    line: int
    when: tuple[BuildStep, ...] = ()  # outermost first


@dataclass(frozen=True, slots=True)
class CalleeBuild:
    """Where the fn whose error a site's `match` arm takes builds the variant the arm names,
    with the conditions in that fn on the way there: cargo's `Err(FindError::UnknownCommand(
    cmd)) =>` of `match find_builtin_cmd(..)` is taken when `find_builtin_cmd` builds it;
    foundry's `LogoURITooLong =>` of `validate_tip20_logo_uri(..).map_err(|err| match err
    {..})` when that fn finds the URI longer than `TIP20_MAX_LOGO_URI_BYTES` (reading 323: the
    records had named the call and the arm, not what decides it one call deeper)."""

    callee: str  # the fn's label: `validate_tip20_logo_uri`, `Parser::expect_keyword`
    variant: str  # as the index has it: `Tip20LogoUriValidationError::LogoURITooLong`
    file_path: str
    line: int  # where the fn builds it
    when: tuple[BuildStep, ...] = ()  # outermost first
    # the consts those conditions read, with their values as written: "MAX_BYTES = 256"
    values: tuple[str, ...] = ()


def build_step(data: Mapping[str, Any] | Sequence[Any]) -> BuildStep:
    """A `BuildStep` from its JSON object or an index's `(kind, text, negated)` (a `match`
    arm's with the arms before it, `excluded`); KeyError for a kind no condition has (the
    data is not trusted: `condition_text` reads the kind)."""
    if isinstance(data, Mapping):
        kind, text, negated = data["kind"], data["text"], data.get("negated", False)
        excluded = data.get("excluded", ())
    else:
        if len(data) not in (3, 4):
            raise TypeError(f"not a condition of 3 or 4 parts: {len(data)}")
        kind, text, negated = data[0], data[1], data[2]
        excluded = data[3] if len(data) > 3 else ()
    if kind not in _CONDITION_KINDS:
        raise KeyError(f"not a condition's kind: {kind!r}")
    arms = tuple(str(a) for a in excluded) if isinstance(excluded, list | tuple) else ()
    return BuildStep(kind, str(text), bool(negated), arms)


@dataclass(frozen=True, slots=True)
class Handoff:
    """A caller on the best path passing a parameter's value on: `validate` passes `name`."""

    caller: str  # the hop's name: `validate`
    argument: str  # as written there (cut at 40 characters): `&name`
    file_path: str
    line: int  # of the call
    # the caller's other calls of the fn that pass something else there (nushell's
    # `read_ext` calls `make_date(.., 0)` once and `make_date(secs, nanos)` twice, reading
    # 182): the argument is one call's, not all
    others: int | None = None


@dataclass(frozen=True, slots=True)
class Dependency:
    """Where an identifier of the condition chain comes from."""

    name: str  # as it appears in the condition: `deferred`, `self.conf.auth_enabled`
    kind: Literal["parameter", "field", "const", "static", "variant", "local"]
    text: str  # the definition as written: `pub const MAX: usize = 64`, `name: &str`
    file_path: str | None = None
    line: int | None = None
    doc: str | None = None
    # a parameter's: what each caller up the best path passes for it, nearest first
    passed: tuple[Handoff, ...] = ()
    # a parameter the fn binds again with a `let` before the site (`Facts.rebound`): the
    # conditions read what the fn made of it (neon's `let key = clean_utf8(..)`)
    rebound: bool | None = None
    # a field's: the `pub fn` of its type, of its name and no argument, that gives it to any
    # caller (pingora's private `response_header` and `pub fn response_header(&self)`), "&"
    # before its name when it returns a reference (`&phase`)
    accessor: str | None = None
    # a field's: the `pub fn` of its type that a program sets it with, `Type::method`: a
    # builder's method of its name (sqlx's `MySqlConnectOptions::ssl_mode`) or `set_<name>`
    setter: str | None = None
    # a field's: the command-line option clap's derive makes of it (`--serve`, `<PATH>`)
    option: str | None = None


# a restricted `pub`: `pub(crate)`, `pub(super)`, `pub(self)`, `pub(in a::b)`
_RESTRICTED = re.compile(r"pub\s*\(\s*(crate|super|self|in\s+[\w:]+)\s*\)")


def visibility_scope(written: str) -> str:
    """The code an item's visibility, as written at its start (a signature, or the modifier
    alone), lets use it, as `Reach.internal` names it: "module" for a private item (and
    `pub(self)`), "parent module" for `pub(super)`, "module `a::b`" for `pub(in a::b)`,
    "crate" for `pub(crate)` or a plain `pub` (whose reach beyond its crate the index
    decides)."""
    written = written.lstrip()
    if not written.startswith("pub"):
        return "module"
    restricted = _RESTRICTED.match(written)
    if restricted is None:
        return "crate"
    scope = restricted.group(1)
    if scope.startswith("in"):
        return f"module `{scope[2:].strip()}`"
    return {"crate": "crate", "super": "parent module", "self": "module"}[scope]


def handoff_text(handoff: Handoff, to: str | None = None) -> str:
    """`` `validate` passes `&name` (src/lib.rs:12) ``; with `to`, the fn it passes it to
    (a handoff further up the path: `` `run` passes `name` to `validate` (..) ``)."""
    given = f" to `{to}`" if to else ""
    place = f"({handoff.file_path}:{handoff.line})"
    said = f"`{handoff.caller}` passes `{handoff.argument}`{given} {place}"
    if handoff.others:
        calls = "call" if handoff.others == 1 else "calls"
        said += f" and something else at {handoff.others} other {calls}"
    return said


@dataclass(frozen=True, slots=True)
class Reach:
    """Everything the index knows about how a site is reached."""

    paths: tuple[CallerPath, ...] = ()  # best first, at most 3
    callers: int = 0  # distinct direct callers of the enclosing function
    dependencies: tuple[Dependency, ...] = ()
    conversion: str | None = None  # `impl From<MetaError> for tonic::Status` at file:line
    http_status: int | None = None  # only when the conversion shows one
    # An `#[error]` variant's site sits in no fn: its paths lead to the fns that build
    # `Enum::Variant` (`callers` counts them), and the last hop's `call_line` is where.
    built: str | None = None
    # how many entry points the walk found within `PATH_DEPTH` calls, when more than the
    # paths name (cargo's manifest parsing: 39 subcommands; the paths show 3 of them)
    entries: int | None = None
    # a `#[from]` variant some of whose builders are a `?` on a call that fails with this
    # type (`std::io::Error`): thiserror's `From` impl builds it there, no code names it
    converts: str | None = None
    # A site in a `static`'s initializer (`LazyLock::new(|| ..)`) sits in no fn: it runs at
    # the static's first use, so its paths lead to the fns that use the static (`callers`
    # counts them), and the last hop's `call_line` is where.
    initialized: str | None = None
    # The type a caller holds a built variant's error in, when the code shows it is not the
    # enum's: "anyhow::Error" when every fn that builds it returns anyhow's `Result` (rustup's
    # `.with_context(|| RustupError::ReadingDirectory { .. })` in `utils::read_dir`): a
    # `match` on `Err(RustupError::ReadingDirectory { .. })` would not compile there.
    held_in: str | None = None
    # with a `held_in` that wraps the enum: what gives the enum back, the method of that
    # type that returns it (nextest's `ConfigParseError` around a `ConfigParseErrorKind`:
    # "kind()") or its variant that holds it (nushell's `ShellError` around a `JobError`:
    # "ShellError::Job")
    held_by: str | None = None
    # A returned error whose every caller the index found drops it (`f(x).ok()`, `if let
    # Ok(v) = f(x)`, `let _ = f(x)`; `Call.dropped`): how many callers, when no path leads on
    dropped_by: int | None = None
    # with `dropped_by`: a caller that reports the error in a log line and goes on, as said
    # (`` `JournalIter::next` (src/journal.rs:120) logs it with `warn!` ``; `Call.logged`);
    # with `paths` (other callers pass the returned error on): one caller that logs it so
    logged: str | None = None
    # True when the error type prints no `Display` text the index can find: a collection
    # (typst's `EcoVec<SourceDiagnostic>`), or a type of the repository with no `impl Display`
    # nor a derive that writes one (typst's `HintedString`): `e.to_string()` does not compile
    no_display: bool | None = None
    # Where the code that can call the site's fn is, when that is not outside its crate:
    # "module" (a private fn), "parent module" (`pub(super)`), "crate" (`pub(crate)`, or a
    # `pub` fn no public module shows), "module `a::b`" (`pub(in a::b)`). It is then no entry
    # point (not the public API of a library, no `main`, command, handler or dispatch) nor a
    # trait's method (called through the trait wherever its type is seen). A match on its
    # result, or "pass values the check accepts", is for that code; a user meets the error
    # through the callers above (cargo's `validate_profile_override`, reading 163; quickwit's
    # private fns read "its own crate", reading 172)
    internal: str | None = None
    # What the call an `.expect(..)`/`.context(..)` guards gives when it fails, where the
    # syntax did not tell ("`x` was None/Err") and the index resolved it to one fn of the
    # repository: "Err" when it returns a `Result` (a type whose name ends so), "None" an
    # `Option` (sccache's `find_ldd_libraries(&obj_path)`, reading 170)
    guarded: str | None = None
    # A variant's text (`#[error]`, `#[snafu(display)]`) whose `Enum::Variant` no code the
    # index reads builds (`builders.never_built`): no run of the commit's code prints it
    # (vector's `#[allow(dead_code)] UnsupportedEndpoint`, reading 231)
    unbuilt: str | None = None
    # The code the repository's own code answers the site's variant with (`errorcodes`):
    # `StatusCode::InvalidArguments`, `Code::IndexNotFound`, `Status::not_found(..)`, and
    # the fn whose arm gives it, "`Error::status_code` (src/mito2/src/error.rs:1398)"
    code: str | None = None
    code_by: str | None = None
    # A variant another error's `#[from]` variant wraps, whose own text does not print it:
    # that variant and its text (`` `Error::WebfingerResolveFailed` ("Failed to resolve actor
    # via webfinger") ``): where `?` converts it, users read that text, this one only in the
    # error's causes (activitypub's `WebFingerError::WrongDomain`, reading 304)
    wrapped_by: str | None = None
    # for a panic: a fn of the repository that installs a panic hook which aborts the
    # process (`std::panic::set_hook`/`update_hook` and `process::abort()` in one fn), as
    # said: "`set_panic_hook` (src/utils/runtime/src/panic_hook.rs:24)" (risingwave's,
    # reading 305: "unwinds the current thread" of a node the hook ends)
    panic_hook: str | None = None
    # for a panic: where the best path runs the way down to it apart from the caller's own
    # unwinding (`Scope`), as said: "`tick` calls `process_batch` inside `catch_unwind(..)`
    # (src/scheduler.rs:210), which gives the panic back to it as an `Err`" (meilisearch's
    # batch thread makes a failed task of it, reading 311: "returns no error" was false)
    caught_by: str | None = None
    # for a panic whose best path starts in a program that installs a panic hook (its `main`,
    # or a fn it calls, two calls deep) which replaces Rust's default one and names no
    # backtrace: that hook, as said: "`on_panic` (crates/meilisearch/src/main.rs:73)"
    # (meilisearch's logs the message and its place only; reading 311: `RUST_BACKTRACE=1`
    # advice there was useless)
    quiet_hook: str | None = None
    # a returned error whose best path starts in a program (its `main`, a subcommand, an
    # example): that program's `fn main` where it, or a fn it calls (two calls deep), prints
    # an error with its causes (`Definition.shows_causes`), as said: "The program's `main`
    # (src/main.rs:18)", "Each `main` of its crate's 3 programs" (mdBook's `log_backtrace` writes each cause on a `Caused by:` line,
    # reading 309: "print the error with `{:#}`" was moot)
    printed_by: str | None = None
    # for a `built` variant: the conditions in the builder of the best path on the way to
    # its build there, outermost first (just's `Switch::apply` builds `FlagWithValue` when
    # `parameter.flag || parameter.value.is_some()` and `value.is_some()`; reading 316: the
    # records had said "the code that builds it decides when" and no more)
    built_when: tuple[BuildStep, ...] = ()
    # the consts `built_when` names (in its steps and the arms a catch-all arm follows), each
    # with its value as written: `MAX_PARAMETERS = 100_000` (hyperfine's, a const local to
    # `RangeStep::new`: "Parameter range is too large" named it and not its value, reading 326)
    built_values: tuple[str, ...] = ()
    # the builder's other places of that build (up to `BUILT_ALSO`), each with its conditions
    built_also: tuple[BuildPlace, ...] = ()
    # a site under a `match` arm that takes one variant of a call's error: each place the fn
    # the call runs (one the index resolved) builds it, up to 3, and when (`CalleeBuild`)
    callee_builds: tuple[CalleeBuild, ...] = ()
    # a site that wraps or guards a call of one fn of the repository: that fn and the calls it
    # passes errors on from with `?` (`FailedCall`)
    failed_call: FailedCall | None = None
    # a site in a type's `Deserialize` impl: the struct fields serde reads one for, each as
    # a path from the outermost struct that alone holds it (`ReadInto`)
    read_into: tuple[ReadInto, ...] = ()
    # a site in a `Display` impl of a type whose `impl Error` writes no `source()`: its value
    # keeps no cause (`callerpaths.sourceless`); None when the code does not say
    sourceless: bool | None = None


@dataclass(frozen=True, slots=True)
class ReadInto:
    """A struct field whose value a type's `Deserialize` impl reads (alacritty's
    `ScrollingHistory`, the field `history` of `Scrolling`, itself the field `scrolling` of
    `UiConfig`: the config key `scrolling.history`, which reading 328 found unnamed)."""

    path: (
        str  # `UiConfig.scrolling.history`: each struct that alone holds the next, outermost first
    )
    file_path: str  # of the last field
    line: int


# How many fields `Reach.read_into` names.
READ_INTO = 3


# `Reach.held_in` of a variant its builders give back as no type the index can name: a
# `Box<dyn Error>`, or a `Result` alias of another crate's (vector's `crate::Result<T>`, a
# `vector_common` alias of `Result<T, Box<dyn Error + ..>>`)
CONVERTED = "another error type"
# `Reach.held_in` of a variant whose every builder returns nothing: it logs it, drops it or
# hands it on (vector's `Lua::hook_init` logs `RuntimeErrorHooksInit` with `error!`;
# nushell's parser gives its `ParseError`s to the working set), no `Result` holds it
NOT_RETURNED = "not returned"
# `Reach.held_in` of a variant some of whose builders return anyhow's `Result` and the others
# the enum itself (surrealdb's `Error::Http`: `bail!(Error::Http(..))` in fns of
# `anyhow::Result`, and `impl From<reqwest::Error> for Error`): a caller holds it in either
ANYHOW_OR_ITSELF = "anyhow::Error or the enum itself"

# The methods whose call guards another's outcome, the site being that call: what
# `Reach.guarded` tells of ("`x.f(a)` was None/Err (context)")
GUARDING_METHODS = ("expect", "context", "with_context", "wrap_err", "wrap_err_with")


# The JSON form of a `Reach` (the dataset's `reach.json`): fields by name, empty ones left out.
def reach_to_json(reach: Reach) -> dict[str, Any]:
    """A JSON-able dict of a reach, None and empty-list fields left out."""
    pruned: dict[str, Any] = _json(reach)
    return pruned


_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def reach_json_text(reach: Reach, shared: dict[int, tuple[Any, str]] | None = None) -> str:
    """`reach_to_json` as compact JSON text, UTF-8 kept (a row of `reach.json`).

    `shared` (one dict for many calls) converts and encodes a `paths` tuple once: the
    records of one fn share their paths' tuple (half of risingwave's 6,344 records)."""
    fields = []
    for name in _FIELDS[Reach]:
        value = getattr(reach, name)
        if value is None or value == ():
            continue
        held = shared.get(id(value)) if shared is not None and name == "paths" else None
        if held is None:
            held = (value, _ENCODE(_json(value)))
            if shared is not None and name == "paths":  # kept with the tuple: its id stays its own
                shared[id(value)] = held
        fields.append(f'"{name}":{held[1]}')
    return "{" + ",".join(fields) + "}"


def reach_from_json(data: Mapping[str, Any]) -> Reach:
    """The inverse of `reach_to_json`; raises KeyError/TypeError on a malformed entry."""
    paths = tuple(
        CallerPath(
            hops=tuple(
                Hop(
                    **{
                        **hop,
                        "candidates": tuple(hop.get("candidates", ())),
                        "also_at": tuple(hop.get("also_at", ())),
                        "arm_built": _arm_built(hop.get("arm_built")),
                    }
                )
                for hop in path["hops"]
            ),
            entry=path.get("entry"),
            entry_label=path.get("entry_label"),
            beyond=Beyond(**path["beyond"]) if path.get("beyond") else None,
        )
        for path in data.get("paths", ())
    )
    return Reach(
        paths=paths,
        callers=int(data.get("callers", 0)),
        dependencies=tuple(
            Dependency(**{**d, "passed": tuple(Handoff(**h) for h in d.get("passed", ()))})
            for d in data.get("dependencies", ())
        ),
        conversion=data.get("conversion"),
        http_status=data.get("http_status"),
        built=data.get("built"),
        entries=data.get("entries"),
        converts=data.get("converts"),
        initialized=data.get("initialized"),
        held_in=data.get("held_in"),
        held_by=data.get("held_by"),
        dropped_by=data.get("dropped_by"),
        logged=data.get("logged"),
        no_display=data.get("no_display"),
        internal=data.get("internal"),
        guarded=data.get("guarded"),
        unbuilt=data.get("unbuilt"),
        code=data.get("code"),
        code_by=data.get("code_by"),
        wrapped_by=data.get("wrapped_by"),
        panic_hook=data.get("panic_hook"),
        caught_by=data.get("caught_by"),
        quiet_hook=data.get("quiet_hook"),
        printed_by=data.get("printed_by"),
        built_when=tuple(map(build_step, data.get("built_when", ()))),
        built_values=tuple(str(v) for v in data.get("built_values", ())),
        built_also=tuple(
            BuildPlace(int(p["line"]), tuple(map(build_step, p.get("when", ()))))
            for p in data.get("built_also", ())
        ),
        callee_builds=tuple(map(_callee_build, data.get("callee_builds", ()))),
        failed_call=_failed_call(data.get("failed_call")),
        sourceless=data.get("sourceless"),
        read_into=tuple(
            ReadInto(str(r["path"]), str(r["file_path"]), int(r["line"]))
            for r in data.get("read_into", ())
        ),
    )


def _failed_call(data: Mapping[str, Any] | None) -> FailedCall | None:
    """A `FailedCall` from its JSON object (None for none); KeyError/TypeError/ValueError on
    a malformed one."""
    if not data:
        return None
    return FailedCall(
        callee=str(data["callee"]),
        file_path=str(data["file_path"]),
        line=int(data["line"]),
        tried=tuple(str(t) for t in data.get("tried", ())),
        more=int(data.get("more", 0)),
    )


def _arm_built(data: Mapping[str, Any] | None) -> ArmBuilt | None:
    """An `ArmBuilt` from its JSON object (None for none); KeyError/TypeError/ValueError on a
    malformed one."""
    if not data:
        return None
    return ArmBuilt(
        variant=str(data["variant"]),
        builders=tuple(
            Builder(str(b["name"]), str(b["file_path"]), int(b["line"]))
            for b in data.get("builders", ())
        ),
        count=int(data["count"]),
    )


def _callee_build(data: Mapping[str, Any]) -> CalleeBuild:
    """A `CalleeBuild` from its JSON object; KeyError/TypeError/ValueError on a malformed one."""
    return CalleeBuild(
        callee=str(data["callee"]),
        variant=str(data["variant"]),
        file_path=str(data["file_path"]),
        line=int(data["line"]),
        when=tuple(map(build_step, data.get("when", ()))),
        values=tuple(str(v) for v in data.get("values", ())),
    )


def _json(value: Any) -> Any:
    # By hand, not `dataclasses.asdict`: asdict deep-copies every leaf, and a run converts
    # every record's reach (6,000 on risingwave: 0.5 s of a regeneration with asdict). A
    # leaf (a str, an int) is taken as it is, not passed to a call of its own.
    names = _FIELDS.get(type(value))
    if names is not None:
        out = {}
        for name in names:
            v = getattr(value, name)
            if v is None or v == () or v == []:
                continue
            out[name] = _json(v) if type(v) in _NESTED else v
        return out
    if isinstance(value, list | tuple):
        return [_json(v) if type(v) in _NESTED else v for v in value]
    return value


_FIELDS: dict[type, tuple[str, ...]] = {
    kind: tuple(f.name for f in fields(kind))
    for kind in (
        Hop,
        Builder,
        ArmBuilt,
        Beyond,
        CallerPath,
        Handoff,
        Dependency,
        BuildStep,
        BuildPlace,
        CalleeBuild,
        FailedCall,
        ReadInto,
        Reach,
    )
}
_NESTED = frozenset((*_FIELDS, tuple, list))  # what `_json` converts; the rest are leaves


def _pickled_by_fields(kind: type) -> None:
    """Pickle `kind` as its constructor and field values: a run's reaches go to the run from
    its index child (6,000 on risingwave, 0.36 s pickled and loaded with the slots
    dataclass' own state protocol, 0.22 s this way)."""
    names = _FIELDS[kind]

    def reduce(self: Any) -> tuple[type, tuple[Any, ...]]:
        return kind, tuple(getattr(self, name) for name in names)

    kind.__reduce__ = reduce  # type: ignore[assignment,method-assign]


for _kind in _FIELDS:
    _pickled_by_fields(_kind)


# What a fn no code the index reads calls is, when its names say so (`Hop.support`)
SUPPORT_NOTE = (
    "by its name or its module's it is test or benchmark support, which tests and benchmarks "
    "(left out of the index) call, not a user's way in"
)


def no_entry_note(path: CallerPath, *, named: bool = True) -> str:
    """Why a path names no entry point: the walk's depth ran out, or its top has no caller
    the index resolves (registered in a table, called through a pointer or a macro, from
    test code, or from outside the repository)."""
    if len(path.hops) >= PATH_DEPTH and path.beyond is not None:
        way, outer = path.beyond, path.hops[0].name
        calls = "one call" if way.calls == 1 else f"{way.calls} calls"
        return (
            f"no entry point within {len(path.hops)} calls; {calls} further up, `{outer}` is "
            f"reached from {way.entry_label}"
        )
    if len(path.hops) >= PATH_DEPTH:
        return f"no entry point within {len(path.hops)} calls, where the search stops"
    top = path.hops[0]
    of = f" of `{top.name}`" if named else ""
    if top.handled:
        # "the index found": a caller it missed may pass the error on (risingwave's frontend
        # binder calls `FrameBounds::validate` with `?` from another crate, reading 137)
        return (
            f"every caller{of} the index found stops the error it returns there, passing "
            f"none on: {top.handled} and goes on"
        )
    if top.ruled_out:
        # tikv's metrics flusher passes `"kv"` and `"raft"` to the fn whose `unexpected =>`
        # arm panics: not "no caller found" (stop 72's check of 30 paths)
        return (
            f"every caller{of} the index found passes a value that rules the site out "
            f"({top.ruled_out}), so none of them reaches it"
        )
    if top.implements:
        return f"no caller{of} found: {_implemented(top, top.implements)}"
    if top.support:
        return f"no caller{of} found in the code the index reads: {SUPPORT_NOTE}"
    # test code is no caller the index keeps: a helper "for use in tests" had none (vector's
    # `VectorSink::run_events`, recheck 161)
    return (
        f"no caller{of} found: it may be registered in a table, called through a pointer or a "
        "macro, from test code (which the index leaves out), or from outside the repository"
    )


# std's conversion traits: how code runs an impl's method without naming it
_CONVERTED = {"From": "`.into()`, `?` or `{0}::from(..)`", "TryFrom": "`.try_into()` or "
              "`{0}::try_from(..)`", "FromStr": "`.parse()` or `{0}::from_str(..)`"}  # fmt: skip


def _implemented(top: Hop, implements: str) -> str:
    """What runs a trait impl's method that no call of the repository reaches."""
    trait = implements.split("::", 1)[0]
    owner = top.name.rsplit("::", 1)[0] if "::" in top.name else top.name
    if trait == "Drop":
        return f"it runs when a `{owner}` value is dropped"
    if trait in _CONVERTED:
        ways = _CONVERTED[trait].format(owner)
        return (
            f"it implements `{implements}`, which runs where a value is converted into "
            f"`{owner}` ({ways}), and the index resolves no such conversion (not one whose "
            "target type only inference tells)"
        )
    if top.foreign:
        return (
            f"it implements `{implements}` of a trait another crate declares, whose code calls it"
        )
    return f"it implements `{implements}`, and no call through `{trait}` that the index resolves reaches it"
