"""What the repository index knows about one file: definitions, calls, imports, dispatch arms.

`Language.index_file(path, source) -> FileIndex` is pure (no IO); the scan stage
caches it per git blob and joins the files into a call graph. Lines are 1-based.

The per-item records are NamedTuples, not frozen dataclasses: a risingwave index holds
~400,000 of them, and a frozen dataclass costs ~8x as much to build and to unpickle
(3.5 s of a cold extract went into unpickling the workers' results).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, NamedTuple

DefKind = Literal["fn", "struct", "enum", "variant", "const", "static", "type", "trait", "field"]
# `loop`: a `for` loop over a value (`for chunk in iterator`), which runs the value's
# `Iterator::next` (its `IntoIterator::into_iter`): `qualifier` is the value, `name` "next"
CallKind = Literal["plain", "path", "method", "loop"]
# The order of a file's definitions: by kind, then in document order.
DEF_KINDS: tuple[DefKind, ...] = (
    "fn", "struct", "enum", "variant", "const", "static", "type", "trait", "field",
)  # fmt: skip


# A fn's attributes that tell users not to call it, which `Definition.attrs` keeps: the walks
# rank a way in through one after the others (sqlx's `#[deprecated]` `Query::fetch_many` led
# 5 records' paths, reading 308)
DISCOURAGED = re.compile(r"^(?:deprecated\b|doc\s*\(\s*hidden\s*\))")


class Definition(NamedTuple):
    """A named item of a file."""

    kind: DefKind
    name: str
    line: int
    end_line: int
    owner: str | None = None  # impl type of a method, enum of a variant, struct of a field
    trait: str | None = None  # the trait a method implements or declares
    signature: str = ""  # the item up to its body, whitespace collapsed
    doc: str | None = None
    public: bool = False  # `pub` (not `pub(crate)`/`pub(super)`)
    params: tuple[tuple[str, str], ...] = ()  # fn: (name, type) without `self`
    has_self: bool = False
    value: str | None = None  # const/static value, field type, alias target; a fn's lone literal
    module: str = ""  # inline `mod` path inside the file: `tests::util`
    attrs: tuple[str, ...] = ()  # attributes as written inside `#[...]`
    status_codes: tuple[str, ...] = ()  # fn: `StatusCode::X` names its body mentions
    # fn that names more than one: each match arm's variants that give one code, as
    # `Variant:CODE` (neon's `ApiError::into_response`: `NotFound:NOT_FOUND`), or
    # `Enum::Variant:CODE` for another enum's (qdrant's `HttpError` on its `StorageError`)
    status_arms: tuple[str, ...] = ()
    # a `from` fn of `impl From<A> for B`: each arm that takes variants of `A` to one of
    # another type, `A::V>B::W` (`index._variant_arms`)
    variant_arms: tuple[str, ...] = ()
    # fn: it prints an error with the errors it wraps (`e.chain()`, `{e:#}`, `.as_report()`;
    # a `fn main` that returns anyhow's, eyre's or miette's `Result`, which Rust prints with
    # `{:?}`): mdBook's `log_backtrace`, whose `Caused by:` lines its `main` shows
    shows_causes: bool = False
    # fn: its body names a backtrace or the hook it replaces (`Backtrace::capture`,
    # `take_hook`): as a panic hook, what it prints may hold one (`callerpaths.quiet_hook`)
    backtrace: bool = False


class Call(NamedTuple):
    """A call in the body of a fn (`caller` indexes `FileIndex.definitions`)."""

    name: str  # the called name: `f` of `a::f(..)`, `x.f(..)`
    kind: CallKind
    qualifier: str  # the path before `::` or the receiver expression, as written ("" if plain)
    line: int
    arity: int
    caller: int
    args: tuple[str, ...] = ()  # argument texts, each cut at 40 characters
    in_macro: bool = False
    tried: bool = False  # the operand of `?` (`f(x)?`, `f(x).await?`): its error is converted
    # its error goes no further: `f(x).ok()`, `.unwrap_or(..)`, `.is_err()`, `let _ = f(x)`,
    # `if let Ok(v) = f(x)`, `.map_err(|_| ..)` (`index._dropped`)
    dropped: bool = False
    # its caller reports the error and goes on: the logging macro, as written (`warn!`), of a
    # `match`/`if let Err`/`.unwrap_or_else` handler that neither returns nor passes it on
    # (`drops.logged_by`); "" otherwise
    logged: str = ""
    # the call, as written (`.try_set_fix(..)`), that a closure holding this one is handed to,
    # when the fn does not use what it returns: the error goes there, not to the fn's caller
    # (`drops.handed_to`); "" otherwise
    handed: str = ""
    # the innermost `if` around the call whose condition tests a plain name (`is_finalize`,
    # `!dry_run`, `opt.is_some()`, `mode == Mode::Fast`): its kind, "if" (the call is in its
    # block) or "else", and its text, joined by `GUARD_JOIN`; "" otherwise (`valueflow`)
    guard: str = ""
    # the turbofish's type arguments, as written (`Datetime` of `v.cast_to::<Datetime>()`);
    # "" for a call with none: which impl a `T::f()` in a generic callee runs (`buildable`)
    turbofish: str = ""
    # the method, as written (`` `.unwrap()` ``, `` `.expect("..")` ``), with which the caller
    # turns the error the call returns into a panic there (`drops.unwrapped_by`); "" otherwise
    unwrapped: str = ""


class Use(NamedTuple):
    """One name a `use` declaration brings in: `alias` stands for `path` (`*`: a glob)."""

    alias: str
    path: str
    line: int = 0  # of the `use` declaration

    def renames(self) -> bool:
        """Whether it brings its item in under another name (`use tool::run::run as
        tool_run`): a name calls may have that no definition has."""
        return self.alias != "*" and self.alias != self.path.rsplit("::", 1)[-1]


# `Local.type` of `let x = f(..)` whose type the code does not show: `<call>f`, the fn named
# (`<call>.m` for a method's value, `let x = y.m(..)`; `<call>T::f` for a type's associated
# fn, `let x = T::new(..)`: what it returns, mostly a `T`)
CALLED_TYPE = "<call>"
# `Call.guard`'s kind and condition text are joined so: "else\0is_finalize"
GUARD_JOIN = "\0"
# `<call>T::f`, `<call>a::T::f`, `<call>T::<U>::f` (not `<call>a::f`, a module's fn)
ASSOCIATED_CALL = re.compile(r"<call>(?:.*::)?[A-Z][^:]*::[a-z_]\w*", re.S)


# `Call.qualifier` of a conversion into a struct literal's field (`GetOptions { format:
# s.parse()?, .. }`: the field's type's `from_str`), `<field>GetOptions.format`, which the
# link reads off the struct's field
FIELD_TYPE = "<field>"


# `Local.type` of a match arm's one binding of a tuple variant (`Commands::Login(cmd) =>`):
# the type the variant holds, `<variant>Commands::Login`, which the link reads off the
# variant's definition (`Login(login::Cmd)`; `Self` is the arm's fn's impl type)
VARIANT_VALUE = "<variant>"


# `Local.type` of `let x = y.a.b` (`&y.a.b`, `y.a.b.clone()`): the value of a chain of
# fields off a named value, `<of>y.a.b`, which the link types as it types a receiver
FIELD_VALUE = "<of>"


# `Local.type` of a `for` loop's name: an element of the value iterated, which the link
# types as it types a receiver: `<item>self.shards` (`for shard in &self.shards`, `.iter()`
# and its like kept, the link reads them); `<item1>map` for the second of a pair (`for (_,
# v) in &map`: a map's value, an `.enumerate()`'s element), `<item0>` for the first.
LOOP_ITEM = "<item"

# Methods that change a `Result`'s or `Option`'s error side only: `T::f(..).map_err(E::from)`
# holds what `T::f(..)` holds (the index's typing of a `let`), and a `?` after them passes
# on the error of the call they are on (`callerpaths.failed_call`).
ERROR_SIDE_METHODS = frozenset(
    ("map_err", "context", "with_context", "wrap_err", "wrap_err_with", "inspect_err", "ok_or",
     "ok_or_else")
)  # fmt: skip

ITEM_VALUE = re.compile(rf"{LOOP_ITEM}([01]?)>(.*)", re.S)


class Local(NamedTuple):
    """A `let` in a fn whose type the code shows (`let x: T`, `let x = T::new(..)`), or the
    fn whose value it holds (`CALLED_TYPE`); or an arm's binding of a variant's value
    (`VARIANT_VALUE`, `line` the arm's)."""

    name: str
    type: str
    caller: int
    variant: str = ""  # `let c = Enum::Variant(..)` / `Enum::Variant { .. }`: `Enum::Variant`
    line: int = 0  # of the `let`: a call sees the nearest one above it of its name
    # the last line of a `for` loop (its name's scope), or of the block a `let` in a nested
    # block is in (0: the fn's own body): after it the name is unbound
    end: int = 0


# Joins the variants of a chain of arms, outermost first: a pattern that names another
# (`Commands::Pip(PipNamespace { command: PipCommand::Compile(..), .. })`), an arm in an arm.
ARM_LINK = "/"


class Arm(NamedTuple):
    """A `match` arm on an enum path (`Statement::AlterX { .. } =>`) and the calls it makes."""

    pattern: str  # `Statement::AlterX`; `Commands::Pip/PipCommand::Compile` (`ARM_LINK`)
    line: int
    caller: int
    calls: tuple[int, ...]  # indexes into `FileIndex.calls`


class Build(NamedTuple):
    """A value of an enum variant built in a fn: `E::V(..)`, `E::V { .. }`, `E::V` as a value
    (`Err(E::V)`, `.map_err(E::V)`): where an `#[error]` variant's error comes from; or of an
    error struct (`InvalidPatternError { .. }`: `variant` is "")."""

    enum: str  # the path's last segment before the variant, as written: `Error`, `Self`
    variant: str  # "" for a struct
    line: int
    caller: int
    # the conditions in the fn on the way to the build, outermost first, each (kind, text,
    # negated) as `Condition` has them: when the fn builds it
    # (and, of a `match` arm, the patterns of the arms tried before it, as `Condition.excluded`)
    when: tuple[tuple[str, str, bool] | tuple[str, str, bool, tuple[str, ...]], ...] = ()


class Scope(NamedTuple):
    """A call in a fn whose closure or async block runs apart from the fn's own unwinding:
    `catch_unwind(..)` gives a panic inside it back as an `Err`; `spawn_blocking(..)`,
    `tokio::spawn(..)`, `thread::spawn(..)` (a "task") and a `.spawn(..)`/`.spawn_scoped(..)`
    (a "thread", contained only when the fn joins its handle) run it on a thread or task of
    its own, whose panic ends that one alone. Lines are the call's, closure included."""

    kind: str  # "catch_unwind", "task" or "thread"
    call: str  # the called name, as written: `spawn_blocking`
    line: int
    end_line: int
    caller: int


class Route(NamedTuple):
    """An HTTP route registration or attribute: `.route("/x", get(handler))`, `#[get("/x")]`,
    or one an item's attribute lists, `"/x" => get(handler)`: then `owner` is that item, and
    a `SUB` route's handler the item whose routes sit under its path (`"/x" => sub(m::Api)`).
    A `CMD` route is a command table's registration, `Cmd { name: "x", fun: handler, .. }`:
    `path` the name users type, `owner` the table's struct. An `ARG` route is a clap-derived
    field's `#[arg(long, value_parser = f)]`: `path` the option as users type it (`--size`),
    `handler` the fn clap calls on its value, `owner` the field (`Opts::size`)."""

    method: str
    path: str
    handler: str
    line: int
    owner: str = ""


# A name users type a command by, as the string literal the code gives it (`"move"`, `"math
# stddev"`): a `CMD` route's, an impl's lone-literal `fn name`'s; no escape, no line break.
COMMAND_NAME = re.compile(r'"[^"\\\n]{1,40}"')


class Subcommand(NamedTuple):
    """A clap builder subcommand: `.subcommand(Command::new("x"))` (every one, as written)."""

    name: str
    line: int


class Impl(NamedTuple):
    """An `impl` block: `impl Trait for Type` (trait None for an inherent impl)."""

    type: str
    trait: str | None
    line: int
    # the impl's bounded type parameters as written: `<E: SyncExpression>`, a `where` clause
    bounds: str = ""


@dataclass(frozen=True, slots=True)
class FileIndex:
    """Everything the index learns from one file."""

    definitions: tuple[Definition, ...] = ()
    calls: tuple[Call, ...] = ()
    uses: tuple[Use, ...] = ()
    locals: tuple[Local, ...] = ()
    arms: tuple[Arm, ...] = ()
    routes: tuple[Route, ...] = ()
    impls: tuple[Impl, ...] = ()
    subcommands: tuple[Subcommand, ...] = ()
    builds: tuple[Build, ...] = ()
    scopes: tuple[Scope, ...] = ()
    # The modules the file declares test code (`#[cfg(test)] mod x;`): their files are not
    # in the call graph (their fns are nobody's way in; `test_module_paths`).
    test_modules: tuple[str, ...] = ()
    # The top-level modules it declares without a plain `pub` (`mod parser;`), and the lines
    # of its top-level `pub use`s: whether a `pub` fn is its crate's public API.
    private_modules: tuple[str, ...] = ()
    # Of those, the ones declared `pub(crate)` (`pub(crate) mod config;`): they hide an item
    # from code outside the crate, not from the rest of it (`Exports.seen_within`).
    crate_modules: tuple[str, ...] = ()
    public_uses: tuple[int, ...] = ()
    # The lines of the `pub use`s one level inside a public inline module the file opens at
    # its top level (`pub mod core { pub use super::desc::Desc; }`), with that module's name
    inline_uses: tuple[tuple[int, str], ...] = ()
    # The lines of its top-level `pub(crate) use`s: an item a private module hides is named
    # there by the rest of the crate (uv's `pub(crate) use auth::login::login as auth_login`
    # in `commands/mod.rs`: `Exports.seen_within`)
    crate_uses: tuple[int, ...] = ()
    # The upper-case names its `macro_rules!` bodies write (`macronames`): a variant a macro
    # builds is built where the macro is used (`builders.never_built`)
    macro_names: tuple[str, ...] = ()
    # Made from a parse without errors (of the file's items but its `#[cfg(test)]` ones):
    # only such an index is split by unit to index a later version (`index_file_after`).
    clean: bool = True
