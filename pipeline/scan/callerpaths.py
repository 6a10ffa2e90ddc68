"""A site's `Reach` from the call graph: caller paths to entry points, condition sources,
the error type's user-facing conversion. Pure, over a built `CallGraph`."""

from __future__ import annotations

import functools
import posixpath
import re
from collections import defaultdict, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from http import HTTPStatus
from typing import Any, Literal, NamedTuple

from pipeline.core.index import (
    ARM_LINK,
    DISCOURAGED,
    ERROR_SIDE_METHODS,
    GUARD_JOIN,
    Build,
    Call,
    Definition,
    FileIndex,
    Scope,
)
from pipeline.core.reach import (
    ANYHOW_OR_ITSELF,
    ARM_BUILDERS,
    CONVERTED,
    GUARDING_METHODS,
    HOP_GUARD_JOIN,
    NOT_RETURNED,
    PATH_DEPTH,
    READ_INTO,
    ArmBuilt,
    Beyond,
    Builder,
    BuildPlace,
    BuildStep,
    CalleeBuild,
    CallerPath,
    Dependency,
    EntryKind,
    FailedCall,
    Handoff,
    Hop,
    Reach,
    ReadInto,
    build_step,
    parsed_option,
    visibility_scope,
)
from pipeline.core.sitetypes import TEXT_KINDS, Site
from pipeline.languages import language_of
from pipeline.scan.buildable import (
    NO_NEEDS,
    TYPED,
    dispatch_need,
    needs_above,
    type_name,
    unmet_program,
)
from pipeline.scan.builders import (
    Built,
    enum_builders,
    named_builders,
    never_built,
    struct_builders,
    variant_builders,
)
from pipeline.scan.callgraph import CallGraph, Edge, Node, crate_dirs
from pipeline.scan.context import SiteContext, _crate
from pipeline.scan.conversions import (
    fn_names,
    from_source,
    imported_from,
    meant,
    spelled_out,
    written_error,
)
from pipeline.scan.entrypoints import (
    EXPORTED,
    arm_entry,
    benchmark_subcommand,
    dead_arm,
    for_tests,
    nested_dispatch,
    test_support,
    tooling_program,
)
from pipeline.scan.errorcodes import elsewhere_arm_codes, made_code, own_arm_codes
from pipeline.scan.names import crate_name, generic_parts, inner_type
from pipeline.scan.signatures import return_text
from pipeline.scan.statics import static_at, static_users
from pipeline.scan.valueflow import (
    VALUE,
    arguments,
    arm_variants,
    guard_needs,
    pattern_variant,
    required_values,
    rules_out_above,
    ruling_argument,
    site_needs,
    value_needs,
    values_above,
)

MAX_DEPTH = PATH_DEPTH
MAX_PATHS = 3
MAX_VISITED = 4000  # nodes a search walks before it stops widening
_KIND_RANK: dict[EntryKind | None, int] = {
    "statement": 0, "cli": 0, "http": 0, "main": 0, "custom": 0, "rpc": 1, "pub-api": 2,
    "macro": 2, "example": 3, "build": 3, "bench": 3, None: 4,
}  # fmt: skip
# An entry point a walk found: the top fn, its entry, the arm's edge (None: the fn is the
# entry), and whether that arm's fn calls the same fn outside its arms too (`_also_unarmed`)
Found = tuple[int, tuple[EntryKind, str], Edge | None, bool]
_FIELD = re.compile(r"\bself\.(\w+)")
# a parameter's field: `options.ssl_mode` (not a method's call, a macro or a path)
_PARAM_FIELD = re.compile(r"(?<![.\w])([a-z_]\w*)\.([a-z_]\w*)\b(?!\s*(?:[(!]|::))")
_CONST = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\b")
_VARIANT = re.compile(r"\b([A-Z]\w*)::([A-Z]\w*)\b")
_IDENT = re.compile(r"(?<![.\w])([a-z_]\w*)\b(?!\s*[(!:])")
# The method a condition's outcome came through: "`key` was None/Err (context)" names the
# `.context(..)` call, not a parameter `context` (atuin's `handle_prune` has one)
_METHOD_NOTE = re.compile(r" \(`?[a-z_]+`?\)$")
_HTTP = {
    "OK": 200, "CREATED": 201, "ACCEPTED": 202, "NO_CONTENT": 204, "BAD_REQUEST": 400,
    "UNAUTHORIZED": 401, "FORBIDDEN": 403, "NOT_FOUND": 404, "METHOD_NOT_ALLOWED": 405,
    "CONFLICT": 409, "GONE": 410, "PAYLOAD_TOO_LARGE": 413, "UNPROCESSABLE_ENTITY": 422,
    "TOO_MANY_REQUESTS": 429, "INTERNAL_SERVER_ERROR": 500, "NOT_IMPLEMENTED": 501,
    "BAD_GATEWAY": 502, "SERVICE_UNAVAILABLE": 503, "GATEWAY_TIMEOUT": 504,
}  # fmt: skip


# The walks made so far: (whether the targets are a variant's builders, the walk's targets:
# a site's fn, or the fns that build the variant, sorted, and whether the walk follows a
# returned error: no call that drops it, `Call.dropped`) -> the paths it found, how many
# distinct callers the fn has (or how many fns build the variant), and how many entry
# points it found.
WalkKey = tuple[bool, tuple[int, ...], bool]
Walked = tuple[tuple[CallerPath, ...], int, int]
Walks = dict[WalkKey, Walked]


class SiteSpec(NamedTuple):
    """What a site's reach depends on: where it is, its error type, its conditions' texts."""

    record_id: str
    error_class: str | None
    path: str
    line: int
    conditions: tuple[str, ...]
    panics: bool = False  # a panic travels by no value: no caller drops it
    kinds: tuple[str, ...] = ()  # each condition's kind (`if`, `else`, ..), when known
    rebound: tuple[str, ...] = ()  # parameters a `let` binds again first (`Facts.rebound`)
    # what makes the error: the variant or fn it is built by (`ApiError::NotFound`,
    # `bad_request`), whose HTTP status the code may show (`made_status`)
    made_by: str | None = None
    # what the conditions need of the fn's parameters (`valueflow.site_needs`); None: read
    # from the conditions' texts alone (a carried record of a manifest that kept none)
    required: tuple[tuple[str, str], ...] | None = None


def spec_of(context: SiteContext) -> SiteSpec:
    """The part of a context its reach is computed from (a few strings: cheap to send)."""
    site = context.site
    texts = tuple(c.text for c in site.facts.conditions)
    kinds = tuple(c.kind for c in site.facts.conditions)
    panics = context.error_type == "panic"
    return SiteSpec(
        context.record_id, context.error_class, site.file_path, site.line, texts, panics, kinds,
        site.facts.rebound, made_by(site), tuple(sorted(site_needs(site).items())),
    )  # fmt: skip


def made_by(site: Site) -> str | None:
    """What makes a site's error (`SiteSpec.made_by`): the call it is an argument of, the
    constructor it is, or the variant whose text it is."""
    facts = site.facts
    if facts.wrapped_in:
        return facts.wrapped_in
    if site.kind == "constructor" and site.macro:
        return site.macro
    if site.kind in TEXT_KINDS and facts.enclosing_type and facts.variant:
        return f"{facts.enclosing_type}::{facts.variant}"
    return None


def reaches_of(
    specs: Iterable[SiteSpec],
    graph: CallGraph,
    memo: Walks | None = None,
) -> dict[str, Reach]:
    """Each site's reach by record id (None ones left out; paths computed once per fn, or
    set of builders, and kept in `memo`)."""
    memo = {} if memo is None else memo
    conversions: dict[tuple[str | None, str], tuple[str | None, int | None]] = {}
    undisplayed: dict[tuple[str | None, str], bool] = {}  # by file: what its `use`s name
    out: dict[str, Reach] = {}
    for spec in specs:
        # by file: of two types of the name in a crate, each file means its own
        key = (spec.error_class, spec.path)
        if key not in conversions:
            conversions[key] = user_conversion(graph, spec.error_class, spec.path)
        shown = (spec.error_class, spec.path)
        if shown not in undisplayed:
            undisplayed[shown] = no_display(graph, spec.error_class, spec.path)
        conversion = own = conversions[key]
        if conversion[1] is None and spec.made_by and not spec.panics:
            made = made_status(graph, spec.error_class, spec.made_by, spec.path)
            conversion = made if made[1] is not None else conversion
        reach = site_reach(
            graph, spec.path, spec.line, spec.conditions, conversion, memo, not spec.panics,
            dict(spec.required) if spec.required is not None
            else required_values(spec.kinds, spec.conditions, spec.rebound),
            spec.rebound,
        )  # fmt: skip
        through = conversion is not own and _THROUGH in (conversion[0] or "")
        if reach is not None and through and not _answered_over_http(reach):
            # a status another type gives it, or a conversion of it: only where a path comes
            # from an HTTP handler (qdrant's edge crate, which no server links, builds the
            # same `OperationError`s the REST API answers with 500, reading 200's recheck)
            reach = replace(reach, conversion=own[0], http_status=own[1])
        coded = None if spec.panics else made_code(graph, spec.error_class, spec.made_by, spec.path)
        if coded is not None:
            reach = replace(reach or Reach(), code=coded[0], code_by=coded[1])
        if reach is not None and spec.panics and (hook := aborting_hook(graph, spec.path)):
            reach = replace(reach, panic_hook=hook)
        if reach is not None and spec.panics and (caught := caught_on_path(graph, reach)):
            reach = replace(reach, caught_by=caught)
        if reach is not None and spec.panics and (quiet := quiet_hook(graph, reach)):
            reach = replace(reach, quiet_hook=quiet)
        if reach is not None and not spec.panics and (program := printed_by(graph, reach)):
            reach = replace(reach, printed_by=program)
        if reach is not None:
            out[spec.record_id] = replace(reach, no_display=True) if undisplayed[shown] else reach
    return out


_PROGRAM_ENTRIES = frozenset(("main", "cli", "example"))


def caught_on_path(graph: CallGraph, reach: Reach) -> str | None:
    """Where the best path calls its way down to a panic inside a `Scope` of the caller's
    (the one nearest the site): "`tick` calls `process_batch` inside `catch_unwind(..)` (f.rs:
    9), which gives the panic back to it as an `Err`"; a thread's only where the fn joins its
    handle after it. None when the path has no such call."""
    hops = reach.paths[0].hops if reach.paths else ()
    for at in range(len(hops) - 2, -1, -1):
        hop, below = hops[at], hops[at + 1]
        index = graph.indexes.get(hop.file_path)
        line = hop.call_line
        if index is None or line is None or not index.scopes:
            continue
        around = [
            s
            for s in index.scopes
            if s.line <= line <= s.end_line and index.definitions[s.caller].line == hop.line
        ]
        for scope in sorted(around, key=lambda s: s.end_line - s.line):
            if below.name.rsplit("::", 1)[-1] == scope.call:
                continue  # the path goes into the spawning fn itself (sqlx's own `spawn_blocking`)
            said = _scope_text(index, scope, hop.name, below.name, hop.file_path)
            if said is not None:
                return said
    return None


def _scope_text(index: FileIndex, scope: Scope, caller: str, callee: str, path: str) -> str | None:
    where = f"{path}:{scope.line}"
    if scope.kind == "catch_unwind":
        return (
            f"`{caller}` calls `{callee}` inside `catch_unwind(..)` ({where}), which gives the "
            "panic back to it as an `Err`"
        )
    if scope.kind == "task":
        return (
            f"`{caller}` runs `{callee}` in a task or thread of its own (`{scope.call}`, "
            f"{where}): the panic ends that one, and its handle gives an `Err` to whoever "
            "awaits or joins it"
        )
    joined = next(
        (
            c.line
            for c in index.calls
            if c.caller == scope.caller
            and c.name == "join"
            and c.arity == 0  # a handle's `join()`, not a path's or a slice's `join(x)`
            and c.line > scope.end_line
        ),
        None,
    )
    if joined is None:  # an unjoined scoped thread's panic comes back out of its scope
        return None
    return (
        f"`{caller}` runs `{callee}` on a thread of its own (`{scope.call}`, {where}) and "
        f"joins it at line {joined}: the panic ends that thread, and the join gives an `Err`"
    )


def printed_by(graph: CallGraph, reach: Reach) -> str | None:
    """The `fn main` of the program a returned error's best path starts in, as said ("The
    program's `main` (src/main.rs:18)"), when it prints an error with its causes (`Reach.printed_by`):
    the `main` itself (or a fn it calls, two calls deep) `shows_causes`. A subcommand's
    program is its crate's binary's (every `fn main` of the crate's binaries must); None
    otherwise."""
    mains = _mains_of(graph, reach)
    if not mains or not all(_prints_causes(graph, m) for m in mains):
        return None
    if len(mains) > 1:
        return f"Each `main` of its crate's {len(mains)} programs"
    main = graph.nodes[mains[0]]
    return f"The program's `main` ({main.path}:{main.definition.line})"


def _mains_of(graph: CallGraph, reach: Reach) -> list[int]:
    """The `fn main`s of the program a best path starts in: the entry's own, a subcommand's
    crate's binaries' (or an example's own `main` for its own subcommand); [] for a path
    that starts in no program."""
    best = reach.paths[0] if reach.paths else None
    if best is None or best.entry not in _PROGRAM_ENTRIES:
        return []
    if parsed_option(best) is not None:
        return []  # clap calls an option's parser, and prints its error itself
    top = graph.enclosing(best.hops[0].file_path, best.hops[0].line)
    if top is None:
        return []
    program = graph.programs[top] if graph.programs else ""
    if best.entry == "cli" and program and not program.startswith("!"):
        # a subcommand of an example's own (mdBook's nop-preprocessor): that example's
        # `main`, not its crate's binaries' (reading 309's last recheck: 2 F)
        return [i for i in _program_mains(graph) if graph.programs[i] == program]
    if best.entry == "cli":
        return _binary_mains(graph, graph.nodes[top].crate)
    return [top] if graph.nodes[top].definition.name == "main" else []


def quiet_hook(graph: CallGraph, reach: Reach) -> str | None:
    """The panic hook a fn of a panic's best path installs before it calls on down the path
    (meilisearch's `try_main`, `set_hook(Box::new(on_panic))` on line 98, then
    `setup_meilisearch` below), when it replaces Rust's default one (`panic::set_hook`) with
    a fn or closure whose body names no backtrace nor the hook it replaces
    (`Definition.backtrace`), as said (`Reach.quiet_hook`); None otherwise. Not a hook a fn
    off the path installs: mdBook's `serve` sets its own for `mdbook serve` alone."""
    hooks: dict[int, tuple[str, int]] | None = graph.derived.get("quiet hooks")
    if hooks is None:
        hooks = graph.derived["quiet hooks"] = _quiet_hooks(graph)
    if not hooks or not reach.paths:
        return None
    for hop in reach.paths[0].hops[:-1]:
        fn = graph.enclosing(hop.file_path, hop.line)
        hook = hooks.get(fn) if fn is not None else None
        if hook is not None and hop.call_line is not None and hook[1] < hop.call_line:
            return hook[0]
    return None


# `Box::new(on_panic)`: a hook given by its fn's name
_NAMED_HOOK = re.compile(r"Box::new\(\s*(?:[A-Za-z_]\w*::)*([A-Za-z_]\w*)\s*\)")


def _quiet_hooks(graph: CallGraph) -> dict[int, tuple[str, int]]:
    """Each fn that installs a panic hook printing no backtrace: the hook as `quiet_hook`
    says it, and the line it is installed on."""
    found: dict[int, tuple[str, int]] = {}
    for path in sorted(graph.indexes):
        index = graph.indexes[path]
        ids = graph.by_file.get(path, {})
        for setter in index.calls:
            if setter.name != "set_hook" or "panic" not in setter.qualifier:
                continue
            if not setter.args or setter.caller not in ids:
                continue
            installer = ids[setter.caller]
            named = _NAMED_HOOK.fullmatch(setter.args[0].strip())
            if named:
                hooks = [
                    (where, d)
                    for where, d in graph.definitions("fn", named[1])
                    if _crate(where) == _crate(path) and d.owner is None
                ]
                if len(hooks) == 1 and not hooks[0][1].backtrace:
                    where, hook = hooks[0]
                    found[installer] = (f"`{hook.name}` ({where}:{hook.line})", setter.line)
            elif "|" in setter.args[0] and not graph.nodes[installer].definition.backtrace:
                label = graph.nodes[installer].label
                found[installer] = (
                    f"the closure `{label}` gives it ({path}:{setter.line})",
                    setter.line,
                )
    return found


def _binary_mains(graph: CallGraph, crate: str) -> list[int]:
    """The `fn main`s of a crate's binaries (entry points of kind `main`: not a module's fn
    named `main`, cargo's `cli::main`, nor an example's)."""
    return [
        i
        for i in _program_mains(graph)
        if graph.entries[i][0] == "main" and graph.nodes[i].crate == crate
    ]


def _program_mains(graph: CallGraph) -> list[int]:
    """Every program's `fn main` (entry points of kind `main`, `example` or `bench`), once
    per graph."""
    mains: list[int] | None = graph.derived.get("mains")
    if mains is None:
        mains = graph.derived["mains"] = sorted(
            i for i, (kind, _) in graph.entries.items() if kind in ("main", "example", "bench")
        )
    return mains


def _prints_causes(graph: CallGraph, main: int) -> bool:
    """Whether `main`, or a fn it calls (two calls deep, resolved calls only), prints an
    error with its causes (`Definition.shows_causes`)."""
    return any(graph.nodes[n].definition.shows_causes for n in _within_calls(graph, main))


def _within_calls(graph: CallGraph, main: int) -> Iterable[int]:
    """`main`, then the fns it calls, then theirs (two calls deep, resolved calls only)."""
    called = graph.derived.get("called")
    if called is None:  # each fn's callees, once per graph
        called = graph.derived["called"] = {}
        for callee, edges in graph.callers.items():
            for edge in edges:
                if not edge.candidates and edge.resolution != "name":
                    called.setdefault(edge.caller, set()).add(callee)
    seen, frontier = {main}, [main]
    for _ in range(3):
        yield from frontier
        frontier = [c for n in frontier for c in called.get(n, ()) if c not in seen]
        seen.update(frontier)


# `std::panic::set_hook`, `panic::update_hook`; `std::process::abort()`, `process::exit(..)`
_HOOK_SETTERS = frozenset(("set_hook", "update_hook"))
_ENDERS = frozenset(("abort", "exit"))
_HOOK_LINES = 15  # in a `main`: how far below the setter's line an ender is in its closure


def aborting_hook(graph: CallGraph, site_path: str) -> str | None:
    """The fn of the repository that installs a panic hook ending the process, for a panic
    at `site_path`: it calls `panic::set_hook`/`update_hook` with a closure that calls
    `process::abort`/`exit` (in a `main`, within `_HOOK_LINES` of it: risingwave's `set_panic_hook`, a
    meta or compute node's panic ends the node, reading 305), as "`set_panic_hook`
    (path:line of the hook)". A program's own `main`/`try_main` installs it for its package
    only; a shared fn for any program that calls it, when code of the repository does. None
    when no fn does (a hook given a fn's name, `set_hook(Box::new(on_panic))`, is not read)."""
    hooks: list[tuple[str, str, bool]] | None = graph.derived.get("aborting hooks")
    if hooks is None:
        hooks = graph.derived["aborting hooks"] = _aborting_hooks(graph)
    for said, path, own in hooks:
        if not own or _crate(path) == _crate(site_path):
            return said
    return None


def _aborting_hooks(graph: CallGraph) -> list[tuple[str, str, bool]]:
    """(as said, its file, whether it is a program's own `main`) of each fn that installs a
    panic hook ending the process, by path."""
    found = []
    for path in sorted(graph.indexes):
        index = graph.indexes[path]
        ids = graph.by_file.get(path, {})
        for setter in index.calls:
            if setter.name not in _HOOK_SETTERS or "panic" not in setter.qualifier:
                continue
            if not setter.args or "|" not in setter.args[0] or setter.caller not in ids:
                continue  # the hook is a fn named elsewhere: not read
            node = graph.nodes[ids[setter.caller]]
            own = node.definition.name in ("main", "try_main")
            if not own and not graph.callers.get(ids[setter.caller]):
                # a shared fn no code of the repository calls installs nothing: influxdb's
                # `make_panics_fatal` had been said of every panic (reading 323)
                continue
            # (a fn that sets a hook is that hook's, whatever its length: tikv's aborts 54
            # lines below; a `main` does more, and may exit for other reasons)
            below = _HOOK_LINES if own else node.definition.end_line - setter.line
            ends = any(
                c.caller == setter.caller
                and c.name in _ENDERS
                and c.qualifier.rsplit("::", 1)[-1] == "process"
                and setter.line < c.line <= setter.line + below
                for c in index.calls
            )
            if ends:
                found.append((f"`{node.label}` ({path}:{setter.line})", path, own))
    return found


def _answered_over_http(reach: Reach) -> bool:
    """Whether one of the reach's paths comes from an HTTP route's handler."""
    return any(path.entry == "http" for path in reach.paths)


def attach(contexts: Sequence[SiteContext], graph: CallGraph) -> list[SiteContext]:
    """The contexts with their `reach` filled from the graph."""
    reaches = reaches_of((spec_of(c) for c in contexts), graph)
    return [replace(c, reach=reaches.get(c.record_id)) for c in contexts]


def site_reach(
    graph: CallGraph,
    path: str,
    line: int,
    conditions: Sequence[str] = (),
    conversion: tuple[str | None, int | None] = (None, None),
    memo: Walks | None = None,
    passed: bool = False,
    required: Mapping[str, str] | None = None,
    rebound: Sequence[str] = (),
) -> Reach | None:
    """How the site at `path:line` is reached, given its conditions' texts; None when it sits
    in no indexed fn and its error type has no conversion (an `#[error]` attribute).
    `passed`: the error is a value its callers pass on (not a panic), so a call that drops
    it (`Call.dropped`: `f(x).ok()`, `if let Ok(v) = f(x)`) is no way it reaches a user.
    `required`: what the conditions need of the fn's parameters (`required_values`): a
    caller that passes a literal ruling it out is no way in, while another caller is.
    `rebound`: parameters the fn binds again before the site (`Facts.rebound`): marked in
    the dependencies, and no literal a caller passes for them rules it out."""
    node_id = graph.enclosing(path, line)
    converted, status = conversion
    memo = {} if memo is None else memo
    if node_id is None or _writes_display(graph, node_id):
        # a variant's text (an `#[error]` attribute, a `Display::fmt`): no caller path leads
        # to it, the fns that build the variant do
        if node_id is None:
            built = built_reach(graph, path, line, memo, passed) or initializer_reach(
                graph, path, line, memo
            )
        else:
            built = _display_reach(graph, node_id, path, conditions, memo, passed)
        if built is not None:
            wrapped = hiding_wrapper(graph, path, built.built) if built.built else None
            marked = hops_marked(graph, built.paths, passed)
            return replace(
                built,
                paths=marked,
                conversion=converted,
                http_status=status,
                wrapped_by=wrapped,
                sourceless=sourceless(graph, node_id) if node_id is not None else None,
            )
        unbuilt = never_built(graph, path, line) if node_id is None else None
        if unbuilt is not None:
            # (the type's conversion still says how it would be answered: `httpStatus`)
            return Reach(conversion=converted, http_status=status, unbuilt=unbuilt)
        return None if converted is None else Reach(conversion=converted, http_status=status)
    values = value_needs(graph, node_id, required) if required else frozenset()
    paths, callers, entries = _fn_walked(graph, node_id, passed, memo)
    if rules_out_above(graph, node_id, values):  # a site's own walk: not kept in `memo`
        valued = fn_walk(graph, node_id, passed, values)
        if valued[0]:  # every way in ruled out: said as before, no claim that nothing reaches it
            paths, callers, entries = valued
    if not paths and not callers and _support(graph, node_id):
        # no caller, and its names say it is test support (influxdb's `iox_query::test`
        # mock `TestChunk`, whose panics read as a user's, reading 327): its path says so
        paths = (CallerPath((replace(_hop(graph, node_id, None, None), support=True),)),)
    paths = _further(graph, paths, memo, passed)
    armed = _own_arm_path(graph, node_id, conditions)
    if armed is not None:  # the statement or subcommand whose arm holds the site comes first
        paths = (armed, *(p for p in paths if p.entry_label != armed.entry_label))[:MAX_PATHS]
    paths = hops_marked(graph, paths, passed)
    return Reach(
        paths=paths,
        callers=callers,
        dependencies=dependencies(graph, conditions, node_id, paths, rebound),
        conversion=converted,
        http_status=status,
        entries=_more_than_named(entries, paths),
        dropped_by=(dropped := _dropped_by(graph, node_id) if passed and not paths else None),
        read_into=read_into(graph, node_id),
        logged=_logged_by(graph, node_id) if dropped else _logging_caller(graph, node_id, passed),
        internal=_internal(graph, node_id),
        guarded=_guarded_failure(graph, node_id, line, conditions),
        callee_builds=_callee_builds(graph, node_id, conditions),
        failed_call=_failed_call(graph, node_id, line, conditions),
    )


def _own_arm_path(graph: CallGraph, node_id: int, conditions: Sequence[str]) -> CallerPath | None:
    """A path of the site's fn alone, from the statement or subcommand whose arm of the
    fn's own dispatch holds the site (`arm_entry`), the outermost such arm: risingwave's
    `handle` bails in its `Statement::AlterView` arm ("SET CONFIG is only supported for
    materialized views"), reached from the statement `ALTER VIEW`, not only through the
    callers of `handle` (reading 202). A dispatch nested in another over the same enum
    (`nested_dispatch`) says the outer statement, or none if there are several."""
    for text in conditions:
        variants = arm_variants(text)
        if not variants or len(variants) != 1:
            continue
        entry = arm_entry(graph, variants[0], node_id)
        if entry is None or dead_arm(graph, variants[0], node_id):
            continue
        kind, label = entry
        if kind == "statement":
            outer = nested_dispatch(graph, node_id, variants[0])
            if len(outer) > 1:
                return None
            if outer:
                label = f"{label} inside `{next(iter(outer))}`"
        return CallerPath((_hop(graph, node_id, None, None),), kind, label)
    return None


# "`x.f(a)` was None/Err (context)": a guarded call whose outcome the syntax did not tell
_UNTOLD = re.compile(rf"(.*) was None/Err \((?:{'|'.join(GUARDING_METHODS)})\)$")
# the name of the call a receiver ends with: `self.check_stdout_trim()`, `run(s).await`
# (`x.f()?`: the `?` takes the outer `Result` off, the guard gets what it held)
_LAST_CALL = re.compile(
    r"(\w+)\s*(?:::\s*<[^<>]*>)?\s*\((?:[^()]|\([^()]*\))*\)(?:\s*\.await)?(\s*\?)?$"
)


def _guarded_failure(
    graph: CallGraph, node_id: int, line: int, conditions: Sequence[str]
) -> str | None:
    """What the call a site's `.expect(..)`/`.context(..)` guards gives when it fails, when
    its condition left it untold and the index resolved that call, near the site's line, to
    one fn of the repository: "Err" for a `Result`, "None" for an `Option` (`Reach.guarded`);
    a method no fn of the repository is named after is a dependency's (`_OUTSIDE`)."""
    untold = next((m for c in reversed(conditions) if (m := _UNTOLD.match(c))), None)
    chain = _FIELD_CHAIN.fullmatch(untold.group(1).strip()) if untold is not None else None
    if chain is not None:
        return _field_outcome(graph, node_id, chain.group(1), chain.group(2))
    called = _LAST_CALL.search(untold.group(1)) if untold is not None else None
    if called is None:
        return None
    callees = _callees(graph).get(node_id, ())
    found = {
        e.callee
        for e in callees
        if abs(e.line - line) <= 3
        and graph.nodes[e.callee].definition.name == called.group(1)
        and e.resolution in _TOLD_BY
    }
    if not found and untold is not None and called.group(1) not in fn_names(graph):
        return _outside_outcome(untold.group(1), called)
    if len(found) != 1 or any(e.candidates for e in callees if e.callee in found):
        return None
    returned = return_text(graph.nodes[found.pop()].definition.signature)
    if called.group(2):  # tantivy's `next_element::<V>()?.expect(..)`: an `Option` inside
        returned = _held_inside(returned) or ""
    head = _TYPE_HEAD.match(returned)
    if head is None:
        return None
    return (
        "Err" if head.group(1).endswith("Result") else "None" if head.group(1) == "Option" else None
    )


# `self.writer`, `self.frontend_selector.as_ref()`, `opts.node_id`: a chain of fields off the
# method's `self` or a parameter, as it is or through an `Option`'s or `Result`'s methods
# that keep its kind
_FIELD_CHAIN = re.compile(
    r"(self|[a-z_]\w*)((?:\s*\.\s*[a-z_]\w*)+)(?:\s*\.\s*(?:as_ref|as_mut|clone)\s*\(\s*\))*"
)


def _field_outcome(graph: CallGraph, node_id: int, head: str, fields: str) -> str | None:
    """What a chain of fields (`fields`: `.a.b`) off the fn's `self` or a parameter `head`
    holds when it holds nothing, by the last field's written type: "None" for an `Option`,
    "Err" for a `Result`; None when a type is another, or the structs of a name do not agree
    on a field (the fn's own file's struct first)."""
    node = graph.nodes[node_id]
    if head == "self":
        current = node.definition.owner
    else:  # a parameter's type (greptimedb's `opts.node_id` of `opts: &StandaloneOptions`)
        current = next((inner_type(t) for n, t in node.definition.params if n == head), None)
    written = ""
    for name in fields.replace(" ", "").strip(".").split("."):
        if not current:
            return None
        found = [(p, d) for p, d in graph.named.get(("field", name), []) if d.owner == current]
        own = {d.value or "" for p, d in found if p == node.path}
        types = own or {d.value or "" for _, d in found}
        if len(types) != 1:
            return None
        written = types.pop()
        current = inner_type(written)
    head_found = _TYPE_HEAD.match(written)
    kind = head_found.group(1) if head_found is not None else ""
    return "Err" if kind.endswith("Result") else "None" if kind == "Option" else None


# Well-known crates' methods by name, their arguments and whether awaited, and what they give
# when they fail: read only where no fn of the repository has the name, so that the call is
# a dependency's (clap's `matches.get_one::<T>("x")`, itertools' `it.exactly_one()`,
# reqwest's `response.json().await`, std's `RwLock::read()` and `HashMap::try_insert`;
# difftastic's, atuin's and greptimedb's records read "was None/Err", reading 325)
_OUTSIDE = {
    "get_one": ("None", True, False),
    "get_many": ("None", True, False),
    "get_raw": ("None", True, False),
    "value_of": ("None", True, False),
    "values_of": ("None", True, False),
    "exactly_one": ("Err", False, False),
    "at_most_one": ("Err", False, False),
    "try_insert": ("Err", True, False),
    "read": ("Err", False, False),
    "write": ("Err", False, False),
    "json": ("Err", False, True),
    "bytes": ("Err", False, True),
    "text": ("Err", False, True),
}


def _outside_outcome(guarded: str, called: re.Match[str]) -> str | None:
    """What a guarded method call (`called`: `_LAST_CALL`'s match in `guarded`) of a name no
    fn of the repository has gives when it fails, by `_OUTSIDE`: "None", "Err", or None when
    the name or its shape is not one it knows."""
    known = _OUTSIDE.get(called.group(1))
    if known is None or called.group(2) or not guarded[: called.start()].rstrip().endswith("."):
        return None  # `f(x)?.get_one(..)`'s value is not the call's, nor is a fn's
    outcome, given, awaited = known
    written = called.group(0)
    inside = written[written.index("(") + 1 : written.rindex(")")]
    if bool(inside.strip()) != given or written.rstrip().endswith(".await") != awaited:
        return None
    return outcome


# the call whose error the site wraps with its message, or panics with (`f(x).context(..)`,
# `.wrap_err(..)`, `.expect(..)`): the error printed after the message is that call's
_WRAPPED = re.compile(
    rf"(.*) (?:was None/Err|was Err|failed) \((?:{'|'.join(GUARDING_METHODS)})\)", re.S
)
_MOST_TRIED = 6  # `?` calls a `FailedCall` names; the rest are counted
# methods that change only a `Result`'s or an `Option`'s error side: the call they are on
# is the one whose error `?` passes on (futures' `err_into` too)
_ERROR_ADAPTERS = ERROR_SIDE_METHODS | {"err_into"}


def _failed_call(
    graph: CallGraph, node_id: int, line: int, conditions: Sequence[str]
) -> FailedCall | None:
    """The fn of the repository the site's innermost condition says failed, when the site
    wraps its error (`Reach.failed_call`): resolved near the site's line to one fn (as
    `_guarded_failure` does) that returns a `Result` and makes calls with `?`; None
    otherwise."""
    wrapped = _WRAPPED.fullmatch(conditions[-1].strip()) if conditions else None
    called = _LAST_CALL.search(wrapped.group(1)) if wrapped is not None else None
    if called is None or called.group(2):  # `f(x)?.expect(..)`: the value's, not the call's
        return None
    callee = _one_callee(graph, node_id, called.group(1), near=line)
    if callee is None:
        return None
    node = graph.nodes[callee]
    head = _TYPE_HEAD.match(return_text(node.definition.signature))
    index, ids = graph.indexes.get(node.path), graph.by_file.get(node.path)
    if head is None or not head.group(1).endswith("Result") or index is None or ids is None:
        return None
    texts = (_call_text(c) for c in index.calls if c.tried and ids.get(c.caller) == callee)
    tried = list(dict.fromkeys(t for t in texts if t))
    if not tried:
        return None
    return FailedCall(
        node.label, node.path, node.definition.line, tuple(tried[:_MOST_TRIED]),
        max(0, len(tried) - _MOST_TRIED),
    )  # fmt: skip


def _call_text(call: Call) -> str:
    """A call as a reader finds it in the code, short: `fs::create_dir_all(..)`,
    `config.build()`, `.try_deserialize()` (a long or broken receiver left out); of a
    method that changes only the error side (`f(x).map_err(..)?`, `.context(..)?`), the call
    it is on, when that is short (`f(x)`), else ""."""
    if call.kind == "method" and call.name in _ERROR_ADAPTERS:
        receiver = call.qualifier
        fits = receiver.endswith(")") and len(receiver) <= 48 and "…" not in receiver
        return receiver if fits and "\n" not in receiver else ""
    args = "(..)" if call.arity else "()"
    if call.kind == "path":
        return f"{call.qualifier}::{call.name}{args}"
    if call.kind == "method":
        short = call.qualifier if len(call.qualifier) <= 24 and "\n" not in call.qualifier else ""
        return f"{short}.{call.name}{args}"
    return f"{call.name}{args}"


# an arm over a value: `match find_builtin_cmd(&parts): Err(FindError::UnknownCommand(cmd)) =>`
_ARM_OVER = re.compile(r"match (.+?): (.+) =>", re.S)
# a closure run on a call's error: `validate(uri) failed (map_err)`
_ON_ERROR = re.compile(r"(.+) (?:failed|was Err) \((?:map_err|unwrap_or_else|or_else)\)", re.S)


def _callee_builds(
    graph: CallGraph, node_id: int, conditions: Sequence[str]
) -> tuple[CalleeBuild, ...]:
    """Where the fn whose error a `match` arm above the site takes builds the arm's variant,
    and when (`Reach.callee_builds`): an arm `Err(E::V ..) =>` of a `match` on a call, or
    an arm `E::V ..` of a `match` on the error a closure gets from a failed call
    (`f(x).map_err(|e| match e { .. })`). Only where the index resolved the call to one fn
    of the repository (as `_guarded_failure` does), that fn builds `V` at 1 to 3 places,
    and conditions there lead to each; () otherwise."""
    for i, text in enumerate(conditions):
        arm = _ARM_OVER.fullmatch(text.strip())
        if arm is None:
            continue
        subject, pattern = arm[1].strip(), arm[2].split(" if ")[0].strip()
        if pattern.startswith("Err(") and pattern.endswith(")"):
            call, variant = subject, pattern_variant(pattern[4:-1])
        elif i and _PLAIN_IDENT.fullmatch(subject) and (failed := _ON_ERROR.fullmatch(
            conditions[i - 1].strip()
        )):  # fmt: skip
            call, variant = failed[1].strip(), pattern_variant(pattern)
        else:
            continue
        called = _LAST_CALL.search(call)
        if variant is None or called is None or called.group(2):  # `f(x)?`: its `Ok` side
            continue
        callee = _one_callee(graph, node_id, called.group(1))
        found = _builds_in(graph, callee, variant) if callee is not None else ()
        if found:
            return found
    return ()


_PLAIN_IDENT = re.compile(r"[a-z_]\w*")


def _one_callee(graph: CallGraph, node_id: int, name: str, near: int | None = None) -> int | None:
    """The one fn of the repository the fn's calls of `name` (those within 3 lines of `near`,
    when given) reach, each resolved by more than the name (`_TOLD_BY`) and none ambiguous;
    None otherwise."""
    callees = [
        e
        for e in _callees(graph).get(node_id, ())
        if graph.nodes[e.callee].definition.name == name
        and (near is None or abs(e.line - near) <= 3)
    ]
    found = {e.callee for e in callees}
    if len(found) != 1 or any(e.candidates or e.resolution not in _TOLD_BY for e in callees):
        return None
    return found.pop()


_MOST_BUILDS = 3  # places of one variant a callee's builds name; more: none named
BUILT_ALSO = 3  # other places of the builder's build a variant's record names; more: none


def _builds_in(graph: CallGraph, node_id: int, variant: str) -> tuple[CalleeBuild, ...]:
    """The places the fn builds `variant` (`Enum::V`, or `V` of one enum), each with the
    conditions on the way there and the values of the consts they read; () when it builds
    it nowhere or at more than `_MOST_BUILDS` places, or some place has no condition before
    it (then the others do not tell when)."""
    node = graph.nodes[node_id]
    index = graph.indexes.get(node.path)
    if index is None:
        return ()
    enum, _, name = variant.rpartition("::")
    named = (b for b in index.builds if b.variant == name)
    builds = {(b.enum, b.line): b for b in _built_by(graph, node_id, named, enum)}
    if not builds or len(builds) > _MOST_BUILDS or not all(b.when for b in builds.values()):
        return ()
    found = []
    for build in builds.values():
        try:
            when = tuple(map(build_step, build.when))
        except KeyError:  # a cached index of another shape: nothing said
            return ()
        owner = node.definition.owner if build.enum == "Self" else build.enum
        variant_name = f"{owner}::{name}" if owner else name
        values = _const_values(graph, when, node_id)
        found.append(CalleeBuild(node.label, variant_name, node.path, build.line, when, values))
    return tuple(sorted(found, key=lambda b: b.line))


def _held_inside(returned: str) -> str | None:
    """What a `Result<T, E>` or an `Option<T>` holds, as written (`T`): the value `?` gives."""
    name, arguments = generic_parts(returned)
    last = name.rsplit("::", 1)[-1]
    held = last.endswith("Result") or last == "Option"
    return arguments[0] if held and arguments else None


_TYPE_HEAD = re.compile(r"(?:\w+::)*(\w+)")  # `anyhow::Result<T>` -> `Result`
# how a call must have been resolved for its fn's return type to tell: not by its name alone
# (vector's `encoder.encode(..)` on another crate's type was taken for a sink's)
_TOLD_BY = frozenset(("self", "local", "import", "type", "trait"))


def _callees(graph: CallGraph) -> dict[int, list[Edge]]:
    """Each fn's calls, by caller (the graph keeps them by callee), made once per graph."""
    made: dict[int, list[Edge]] | None = graph.derived.get("callees")
    if made is None:
        made = defaultdict(list)
        for edges in graph.callers.values():
            for edge in edges:
                made[edge.caller].append(edge)
        graph.derived["callees"] = made
    return made


def _internal(graph: CallGraph, node_id: int) -> str | None:
    """Where the code is that can call the fn, when only code in its crate can (`Reach.internal`):
    it is no library's public API (`public_api`, whether the crate calls it too or not), no
    entry point (a `main`, a command, a handler), nor a trait's method, which code calls
    through the trait wherever it sees the type (`.parse()` runs a `FromStr` impl). None
    otherwise."""
    outer = graph.declared_in(node_id)
    if outer is not None:  # cargo's `parse_option_bool` in `CliUnstable::add` (reading 183)
        return f"fn `{graph.nodes[outer].label}`"
    if node_id in graph.public_api or node_id in graph.entries:
        return None
    definition = graph.nodes[node_id].definition
    if definition.trait:
        return None
    scope = visibility_scope(definition.signature)
    within = graph.seen_within.get(node_id) if scope == "crate" else None
    return scope if not within else f"module `{within}`"


def _further(
    graph: CallGraph, paths: tuple[CallerPath, ...], memo: Walks, passed: bool
) -> tuple[CallerPath, ...]:
    """`paths`, a lone path the depth limit cut (no entry point in its `PATH_DEPTH` hops)
    told the way in above its top hop (`Beyond`): the best entry point of that fn's own walk,
    `PATH_DEPTH` calls more and no further (1,667 of 27,658 records of 26 repositories had
    "no entry point found within 8 calls" where one was a few calls further up: delta's
    `main` one call above `run_app`, readings 109-110)."""
    paths = _program_over_api(graph, paths)
    if len(paths) != 1 or paths[0].entry is not None or len(paths[0].hops) < MAX_DEPTH:
        return paths
    top = paths[0].hops[0]
    node_id = graph.enclosing(top.file_path, top.line)
    if node_id is None or not graph.callers.get(node_id):
        return paths  # no caller: the path ends there, not at the limit
    held = _needs_along(graph, paths[0])
    if held is None:
        return paths
    # the top hop's needs go on up: neon's `PostgresBackend::process_message` runs the
    # safekeeper's handler only where a caller gives one, not from the `proxy` binary,
    # which does not link the safekeeper (reading 191)
    walked = (
        fn_walk(graph, node_id, passed, held) if held else _fn_walked(graph, node_id, passed, memo)
    )[0]
    way = walked[0] if walked else None
    if way is None or way.entry is None or way.entry_label is None:
        return paths
    return (replace(paths[0], beyond=Beyond(way.entry, way.entry_label, len(way.hops) - 1)),)


def _program_over_api(graph: CallGraph, paths: tuple[CallerPath, ...]) -> tuple[CallerPath, ...]:
    """`paths`, the best of which starts at a library's public fn where the depth limit cut
    it, with the one program's `main` that calls that fn above it: just's `main` calls
    `just::run`, and its records read "users meet it through public API `just::run`" where
    a path one call shorter read "`just` (fn main)" (recheck 316: all 58 of just's public-API
    paths were cut so). Within the limit the walk itself finds the `main` and ranks it first;
    past it, one call further, as `Beyond` tells a lone path's way in."""
    best = paths[0] if paths else None
    if best is None or best.entry != "pub-api" or len(best.hops) < MAX_DEPTH:
        return paths
    top = best.hops[0]
    node_id = graph.enclosing(top.file_path, top.line)
    calls = graph.callers.get(node_id, ()) if node_id is not None else ()
    mains = {e.caller: e for e in calls if _entry_kind(graph, e.caller) == "main"}
    held = _needs_along(graph, best) if len(mains) == 1 else None
    if held is None:
        return paths
    (edge,) = mains.values()
    if needs_above(graph, edge, held) is None:  # a program that cannot link that library
        return paths
    kind, label = graph.entries[edge.caller]
    called = replace(top, resolution=edge.resolution)
    above = _hop(graph, edge.caller, None, edge)
    return (replace(best, hops=(above, called, *best.hops[1:]), entry=kind, entry_label=label),
            *paths[1:])  # fmt: skip


def _entry_kind(graph: CallGraph, node_id: int) -> EntryKind | None:
    entry = graph.entries.get(node_id)
    return entry[0] if entry is not None else None


def _needs_along(graph: CallGraph, path: CallerPath) -> frozenset[str] | None:
    """The needs (`buildable`: packages and `TYPED` slots) the walk carried to a path's top
    hop, made again edge by edge from its bottom; None when an edge is not found or refuses
    (the graph is not the one the path was found in)."""
    held = NO_NEEDS
    bottom = path.hops[-1]
    current = graph.enclosing(bottom.file_path, bottom.line)
    for hop in reversed(path.hops[:-1]):
        edge = _edge_into(graph, current, hop) if current is not None else None
        above = needs_above(graph, edge, held) if edge is not None else None
        if edge is None or above is None:
            return None
        held, current = above, edge.caller
    return held


def hops_marked(
    graph: CallGraph, paths: tuple[CallerPath, ...], passed: bool
) -> tuple[CallerPath, ...]:
    """`paths` with each hop marked with what the index keeps of its call of the next: the
    `if` around it (`Hop.guard`), and, of a returned error's paths (`passed`), how it
    unwraps the error (`Hop.unwraps`); the same tuple when no hop has either (the records
    of one fn share it), and once per tuple and kind of walk."""
    known: dict[tuple[int, bool], tuple[Any, ...]] = graph.derived.setdefault("marked", {})
    key = (id(paths), passed)
    found = known.get(key)
    if found is not None and found[0] is paths:
        return found[1]  # type: ignore[no-any-return]
    marked = tuple(_hops_marked(graph, path, passed) for path in paths)
    if all(m is p for m, p in zip(marked, paths, strict=True)):
        marked = paths
    known[key] = (paths, marked)  # the tuple held: its id is no other's while kept
    return marked


def _hops_marked(graph: CallGraph, path: CallerPath, passed: bool) -> CallerPath:
    hops = list(path.hops)
    for at in range(len(hops) - 1):
        below = graph.enclosing(hops[at + 1].file_path, hops[at + 1].line)
        edge = _edge_into(graph, below, hops[at]) if below is not None else None
        call = edge.call if edge is not None else None
        if call is None:
            continue
        unwraps = call.unwrapped if passed and call.unwrapped else None
        guard = call.guard.replace(GUARD_JOIN, HOP_GUARD_JOIN, 1) if call.guard else None
        if unwraps or guard:
            armed = arm_built(graph, path, at, guard) if guard else None
            hops[at] = replace(hops[at], unwraps=unwraps, guard=guard, arm_built=armed)
    if all(h is o for h, o in zip(hops, path.hops, strict=True)):
        return path
    return replace(path, hops=tuple(hops))


# A pattern whose enum a path names through a module or crate (`syn::Fields::Unnamed(..)`):
# which enum that is, a name does not say (surrealdb defines a `Fields::Unnamed` of its own)
_FOREIGN_PATH = re.compile(r"(?!(?:crate|self|super)::)[a-z_]\w*::")


def arm_built(graph: CallGraph, path: CallerPath, at: int, guard: str) -> ArmBuilt | None:
    """Of a path's hop `at` that calls the next one in a `match` arm on one enum variant
    (`Hop.guard` `match_arm: match batch: CatalogBatch::Restore(b) =>`), the fns that build
    that variant (`builders.enum_builders`: `Self::Restore(..)` in `impl CatalogBatch` is
    one), those on the path above the arm first (a path whose own caller builds the value
    holds), then by place; None when the arm takes another pattern (a bare variant,
    several, one named through a module), or nothing the index reads builds it (a value
    decoded from input, built by a macro)."""
    hop = path.hops[at]
    kind, _, condition = guard.partition(HOP_GUARD_JOIN)
    arm = condition.partition(": ")[2].removesuffix(" =>")
    named = pattern_variant(arm) if kind == "match_arm" else None
    if named is None or "::" not in named or _FOREIGN_PATH.match(arm.lstrip("&")):
        return None
    found = _arm_builders(graph, hop, arm, named)
    if found is None:
        return None
    variant, places = found
    above = {(h.file_path, h.name) for h in path.hops[: at + 1]}
    first = sorted(places, key=lambda b: (b.file_path, b.name) not in above)
    return ArmBuilt(variant, tuple(first[:ARM_BUILDERS]), len(places))


def _arm_builders(
    graph: CallGraph, hop: Hop, arm: str, named: str
) -> tuple[str, tuple[Builder, ...]] | None:
    """The variant an arm of `hop`'s fn takes (`Self` as the impl's type) and the fns that
    build it, by place; once per fn and arm."""
    known: dict[tuple[str, int, str], Any] = graph.derived.setdefault("arm_builders", {})
    key = (hop.file_path, hop.line, arm)
    if key in known:
        return known[key]  # type: ignore[no-any-return]
    enum, _, variant = named.partition("::")
    if enum == "Self":
        node_id = graph.enclosing(hop.file_path, hop.line)
        owner = graph.nodes[node_id].definition.owner if node_id is not None else None
        enum = owner or enum
    # not another crate's enum (`Either::Left`: every fn that builds any), nor one some fns
    # build by `?` from a `#[from]` type (not all by name)
    defined = any(d.owner == enum for _, d in graph.definitions("variant", variant))
    built = enum_builders(graph, hop.file_path, enum, variant) if defined else None
    if built is None or built.converts is not None:
        known[key] = None
        return None
    nodes = graph.nodes
    places = sorted(
        (Builder(nodes[n].label, nodes[n].path, line) for n, line in built.builders.items()),
        key=lambda b: (b.file_path, b.line),
    )
    known[key] = found = (built.variant, tuple(places))
    return found


_TYPE_WORD = re.compile(r"\b[A-Z]\w*")
_HOLDER_DEPTH = 4  # how many structs up `read_into` follows a field's holder
# a struct `read_into` goes no higher than: a settings file's or section's own type, which a
# program reads whole as well as inside another (foundry's `Config`, held by a chisel session)
_CONFIG_ROOT = re.compile(r"(?:Config|Configuration|Options|Opts|Settings|Manifest)$")


def read_into(graph: CallGraph, node_id: int) -> tuple[ReadInto, ...]:
    """Of a site's fn that is a method of a type's `Deserialize` impl, the struct fields of
    that type (`Option<T>`, `Vec<T>` too) that serde reads one for, by place (up to
    `READ_INTO`), each as a path up the structs that alone hold the one below (alacritty's
    `UiConfig.scrolling.history`, a config file's `scrolling.history`); () for any other fn,
    or a type no field of the repository holds (a request body read whole)."""
    d = graph.nodes[node_id].definition
    if d.owner is None or d.trait is None or type_name(d.trait) != "Deserialize":
        return ()
    crate = graph.nodes[node_id].crate
    found = sorted(_holding_fields(graph, type_name(d.owner), crate))
    said = []
    for path, field in found[:READ_INTO]:
        chain, holder = [field.name], field.owner or ""
        for _ in range(_HOLDER_DEPTH):
            if _CONFIG_ROOT.search(holder):
                break  # read whole in its own right too (foundry's `Config`, from foundry.toml)
            above = _holding_fields(graph, holder, _crate(path))
            if len(above) != 1:
                break
            chain.append(above[0][1].name)
            holder = above[0][1].owner or ""
        said.append(ReadInto(".".join([holder, *reversed(chain)]), path, field.line))
    return tuple(said)


def _holding_fields(graph: CallGraph, type_: str, crate: str) -> list[tuple[str, Definition]]:
    """The struct fields whose type names `type_` (by a word of it), those of `crate` when
    it has any; of other crates only when the repository declares one type so named."""
    table: dict[str, list[tuple[str, Definition]]] | None = graph.derived.get("fields_by_type")
    if table is None:
        table = graph.derived["fields_by_type"] = {}
        for path, index in graph.indexes.items():
            for field in index.definitions:
                if field.kind == "field" and field.value and field.owner:
                    for word in set(_TYPE_WORD.findall(field.value)):
                        table.setdefault(word, []).append((path, field))
    fields = [  # of a struct serde reads too; not a recursive type's
        f for f in table.get(type_, ()) if f[1].owner != type_ and _deserialized(graph, *f)
    ]
    mine = [f for f in fields if _crate(f[0]) == crate]
    declared = sum(len(graph.definitions(kind, type_)) for kind in ("struct", "enum", "type"))
    return mine or (fields if declared == 1 else [])


_DESERIALIZE_DERIVE = re.compile(r"^derive\(.*Deserialize\b")


def _deserialized(graph: CallGraph, path: str, field: Definition) -> bool:
    """Whether the struct that holds `field` derives `Deserialize` (serde's, or a derive so
    named: alacritty's `ConfigDeserialize`): a runtime struct that holds such a value
    (cargo's `BuildRunner`, a `PackageId`) is read from no input."""
    return any(
        p == path and any(_DESERIALIZE_DERIVE.match(a) for a in d.attrs)
        for p, d in graph.definitions("struct", field.owner or "")
    )


def _edge_into(graph: CallGraph, callee: int, hop: Hop) -> Edge | None:
    """The call of the fn `callee` that a path's `hop` makes at its `call_line`."""
    return next(
        (
            e
            for e in graph.callers.get(callee, ())
            if e.line == hop.call_line and _is_hop(graph.nodes[e.caller], hop)
        ),
        None,
    )


def _dropped_by(graph: CallGraph, node_id: int) -> int | None:
    """How many callers call the fn, when every call of it drops the error it returns
    (`_walk`'s `passed`: none leads on); None when some call passes it on, or none calls."""
    edges = graph.callers.get(node_id, ())
    if not edges or not all(_drops(e) for e in edges):
        return None
    return len({e.caller for e in edges})


def _drops(edge: Edge) -> bool:
    """Whether a call edge drops the error the callee returns (not a message to an actor:
    what its send returns is not the handler's)."""
    return (
        edge.call is not None
        and (edge.call.dropped or bool(edge.call.logged) or bool(edge.call.handed))
        and edge.resolution != "message"
    )


def _ruled_text(graph: CallGraph, edge: Edge, below: frozenset[str]) -> str:
    """A caller whose argument rules the site out, as a path's top hop says it:
    `` `flush` (src/common.rs:902) passes `"kv"` ``."""
    node = graph.nodes[edge.caller]
    argument = ruling_argument(graph, edge, below)
    passes = f" passes `{argument}`" if argument else ""
    return f"`{node.label}` ({node.path}:{edge.line}){passes}"


def _handled_text(graph: CallGraph, edge: Edge) -> str:
    """How a caller keeps the error its call returns, as a path's top hop says it:
    `` `Release::add_asset` (src/release.rs:120) logs it with `tracing::warn!` ``, or
    `` .. drops it``."""
    node = graph.nodes[edge.caller]
    how = "drops it"
    if edge.call and edge.call.logged:
        how = f"logs it with {edge.call.logged}"
    elif edge.call and edge.call.handed:
        how = f"hands it in a closure to {edge.call.handed}, ignoring what that returns"
    return f"`{node.label}` ({node.path}:{edge.line}) {how}"


def _logged_by(graph: CallGraph, node_id: int) -> str | None:
    """With every call of the fn dropping its error (`_dropped_by`): one caller that logs it
    and goes on, as the reach says it (`` `JournalIter::next` (src/journal.rs:120) logs it with
    `warn!` ``); None when none logs it."""
    edge = _keeping(graph, graph.callers.get(node_id, ()))
    logs = edge is not None and edge.call is not None and edge.call.logged
    return _handled_text(graph, edge) if logs and edge is not None else None


def _logging_caller(graph: CallGraph, node_id: int, passed: bool) -> str | None:
    """Of a fn whose returned error some callers pass on: one caller that only logs it and
    goes on, as `_logged_by` says it (alacritty's `imports`: `load_imports` logs it with
    `error!` at every start, while the path shown came from the `migrate` subcommand, reading
    290); None for a panic, or when no caller logs it."""
    if not passed:
        return None
    logging = [e for e in graph.callers.get(node_id, ()) if e.call is not None and e.call.logged]
    edge = _keeping(graph, logging)
    return _handled_text(graph, edge) if edge is not None else None


def _keeping(graph: CallGraph, edges: Iterable[Edge]) -> Edge | None:
    """The call a path names for its callers keeping the error: one that logs it before one
    that drops it, then the first by file and line."""
    return min(
        edges,
        key=lambda e: (not (e.call and e.call.logged), graph.nodes[e.caller].path, e.line),
        default=None,
    )


def _fn_walked(graph: CallGraph, node_id: int, passed: bool, memo: Walks) -> Walked:
    """`fn_walk`, once per fn and kind of walk: kept in `memo`."""
    key = (False, (node_id,), passed)
    known = memo.get(key)
    if known is None:
        known = memo[key] = fn_walk(graph, node_id, passed)
    return known


def fn_walk(
    graph: CallGraph, node_id: int, passed: bool = False, values: frozenset[str] = NO_NEEDS
) -> Walked:
    """A fn's walk as `Walks` keeps it: its paths, its distinct callers, the entry points
    found (`passed`: a returned error's walk, `site_reach`; `values`: what the site needs of
    the fn's parameters, `valueflow`)."""
    paths, entries = _walk(graph, [node_id], passed=passed, values=values)
    return paths, len({e.caller for e in graph.callers.get(node_id, ())}), entries


def hiding_wrapper(graph: CallGraph, path: str, built: str) -> str | None:
    """The `#[from]` variant that wraps the enum of `built` (`Enum::V`) of the site's crate,
    in any crate, and whose `#[error(..)]` text prints nothing of it, with that text: activitypub's
    `WebfingerResolveFailed(#[from] WebFingerError)`, `#[error("Failed to resolve actor via
    webfinger")]`. None when there is none, or more than one, or the enum is named `Error`
    (too many enums are: which one a `#[from] Error` wraps, its name does not say)."""
    enum = built.split("::", 1)[0]
    if enum == "Error":
        return None
    table: dict[tuple[str, str], list[str]] | None = graph.derived.get("hiding wrappers")
    if table is None:
        table = graph.derived["hiding wrappers"] = _hiding_wrappers(graph)
    found = table.get((_crate(path), enum), [])
    return found[0] if len(found) == 1 else None


def _hiding_wrappers(graph: CallGraph) -> dict[tuple[str, str], list[str]]:
    """(the crate of the enum a `#[from]` variant wraps, its name) -> those variants whose
    `#[error("..")]` prints none of its fields, each with its text."""
    table: dict[tuple[str, str], list[str]] = {}
    for path, index in graph.indexes.items():
        for d in index.definitions:
            if d.kind != "variant" or "#[from]" not in d.signature:
                continue
            said = next((a for a in d.attrs if a.startswith("error")), None)
            text = _ERROR_TEXT.match(said) if said is not None else None  # not `transparent`
            source = from_source(d)
            if text is None or source is None or language_of(path).placeholders(text[1]):
                continue  # (a text that prints a field shows what it wraps)
            spelled = spelled_out(graph, path, source).split("<", 1)[0].strip()
            home = _home_crate(graph, path, spelled)
            if home is not None:
                table.setdefault((home, type_name(spelled)), []).append(
                    f'`{d.owner}::{d.name}` ("{text[1]}")'
                )
    return table


def _home_crate(graph: CallGraph, path: str, spelled: str) -> str | None:
    """The crate (as `_crate` names it) of a type a file at `path` writes as `spelled`: the
    file's own for a bare name or a `crate::`/`self::`/`super::` path, the repository's crate
    a path names first (uv-distribution's `Metadata(#[from] uv_pypi_types::MetadataError)`
    wraps that crate's, not its own `MetadataError`), None for another repository's."""
    head, _, rest = spelled.partition("::")
    if not rest or head in ("crate", "self", "super"):
        return _crate(path)
    return crate_dirs(graph).get(head)


_ERROR_TEXT = re.compile(r'^error\(\s*"((?:[^"\\]|\\.)*)"\s*\)$')


def built_reach(
    graph: CallGraph, path: str, line: int, memo: Walks | None = None, passed: bool = False
) -> Reach | None:
    """The reach of an `#[error]` variant's site (`path:line`, an attribute of the variant):
    caller paths down to the fns that build `Enum::Variant`, the last hop's `call_line`
    where it builds it. None when the site is no variant's or nothing builds it."""
    found = variant_builders(graph, path, line)
    return _built_reach(graph, found, memo, passed) if found is not None else None


def initializer_reach(
    graph: CallGraph, path: str, line: int, memo: Walks | None = None
) -> Reach | None:
    """The reach of a site in a `static`'s initializer (`LazyLock::new(|| ..)`), which runs
    at the static's first use: caller paths down to the fns that use it (`statics`), the
    last hop's `call_line` where. None when the site is in no static or no fn uses it."""
    static = static_at(graph, path, line)
    users = static_users(graph, path, static) if static is not None else {}
    if static is None or not users:
        return None
    reach = _built_reach(graph, Built("", users), memo)
    return replace(reach, built=None, initialized=static.name, held_in=None)


def _display_reach(
    graph: CallGraph,
    node_id: int,
    path: str,
    conditions: Sequence[str],
    memo: Walks | None,
    passed: bool = False,
) -> Reach | None:
    """The reach of a `Display::fmt`'s text: from the builders of the variant its arm on
    `self` writes (None when no arm names one, or nothing builds it)."""
    owner = graph.nodes[node_id].definition.owner
    variant = language_of(path).display_variant(conditions)
    found = named_builders(graph, path, owner, variant) if owner and variant else None
    if found is None and owner and not variant and graph.definitions("struct", owner):
        found = struct_builders(graph, path, owner)  # `impl Display for InvalidPatternError`
    return _built_reach(graph, found, memo, passed) if found is not None else None


def sourceless(graph: CallGraph, node_id: int) -> bool | None:
    """Of a `Display` impl's `fmt`, True when its type's `impl Error` (in the same file)
    writes no `source()` (nor the old `cause()`): a value of it keeps no cause (alacritty's
    `impl std::error::Error for ShaderError {}`, told its causes were in its `source()`
    chain, reading 328); None when the file shows no such impl (a derive may write one)."""
    node = graph.nodes[node_id]
    index, owner = graph.indexes.get(node.path), node.definition.owner
    if index is None or owner is None:
        return None
    of = type_name(owner)
    if not any(
        i.trait and type_name(i.trait) == "Error" and type_name(i.type) == of for i in index.impls
    ):
        return None
    writes = any(
        d.kind == "fn"
        and d.name in ("source", "cause")
        and d.owner is not None
        and type_name(d.owner) == of
        and type_name(d.trait or "") == "Error"
        for d in index.definitions
    )
    return None if writes else True


def _writes_display(graph: CallGraph, node_id: int) -> bool:
    """Whether the fn is a `Display` impl's `fmt` (its `write!`s give an error's text)."""
    definition = graph.nodes[node_id].definition
    return definition.name == "fmt" and (definition.trait or "").endswith("Display")


def _built_reach(
    graph: CallGraph, found: Built, memo: Walks | None = None, passed: bool = False
) -> Reach:
    """The reach of a variant from its builders: paths down to them, the last hop's line
    where it is built."""
    variant, builders, converts = found
    memo = {} if memo is None else memo
    key = (True, tuple(sorted(builders)), passed)
    known = memo.get(key)
    if known is None:
        walked, entries = _walk(graph, key[1], lone=True, passed=passed)
        known = memo[key] = (walked, len(builders), entries)
    walked = known[0]
    values = _builder_needs(graph, variant, builders) if len(builders) == 1 else frozenset()
    if values and rules_out_above(graph, key[1][0], values):
        # tikv's `check_flashback_state` builds `FlashbackNotPrepared` under `.. &&
        # !skip_not_prepared`, which `validate_request` passes as `true` (reading 326): the
        # callers whose arguments rule it out are no way in, while another is left
        valued, valued_entries = _walk(graph, key[1], lone=True, passed=passed, values=values)
        if any(len(p.hops) > 1 or p.entry for p in valued):  # (none left: said as before)
            walked, known = valued, (valued, known[1], valued_entries)
    paths = _further(graph, walked, memo, passed)
    held = _held(graph, variant, builders)
    where = {
        (graph.nodes[n].path, graph.nodes[n].definition.line): at for n, at in builders.items()
    }
    placed = tuple(_built_at(p, where) for p in paths)
    when = _built_when(graph, variant, placed[0].hops[-1]) if placed else ()
    builder = (
        graph.enclosing(placed[0].hops[-1].file_path, placed[0].hops[-1].line) if when else None
    )
    also = _built_also(graph, variant, placed[0].hops[-1], builder) if when else ()
    steps = (*when, *(step for place in also for step in place.when))
    return Reach(
        paths=placed,
        built_when=when,
        built_values=_const_values(graph, steps, builder) if when else (),
        built_also=also,
        callers=len(builders),
        built=variant,
        entries=_more_than_named(known[2], paths),
        converts=converts,
        held_in=held[0],
        held_by=held[1],
        internal=_unnamed(graph, variant, builders)
        or _restricted(graph, held[0] or variant.split("::", 1)[0], builders),
    )


def _built_when(graph: CallGraph, variant: str, builder: Hop) -> tuple[BuildStep, ...]:
    """The conditions on the way to the build of `variant` (`Enum::V`, or a struct) where
    the `builder` hop builds it (`Build.when`): the build on that line of that variant, else
    the one build on it (a snafu selector's `XSnafu { .. }`); none when `?` converts it."""
    index = graph.indexes.get(builder.file_path)
    if index is None or builder.call_line is None:
        return ()
    here = [b for b in index.builds if b.line == builder.call_line]
    found = _builds_of(here, variant) or (here if len(here) == 1 else [])
    try:
        return tuple(map(build_step, found[0].when)) if found else ()
    except KeyError:  # a cached index of another shape: no conditions said
        return ()


def _built_also(
    graph: CallGraph, variant: str, builder: Hop, node_id: int | None
) -> tuple[BuildPlace, ...]:
    """The builder's other builds of `variant` than the one on its hop's call line, each with
    its conditions (`Reach.built_also`), in the order of their lines; () when there are more
    than `BUILT_ALSO` (then no few tell when) or one has no condition."""
    index = graph.indexes.get(builder.file_path)
    if index is None or node_id is None:
        return ()
    elsewhere = (b for b in _builds_of(index.builds, variant) if b.line != builder.call_line)
    others = _built_by(graph, node_id, elsewhere, variant.rpartition("::")[0])
    if not others or len(others) > BUILT_ALSO or not all(b.when for b in others):
        return ()
    try:
        return tuple(
            BuildPlace(b.line, tuple(map(build_step, b.when)))
            for b in sorted(others, key=lambda b: b.line)
        )
    except (KeyError, TypeError):  # a cached index of another shape: nothing said
        return ()


def _built_by(graph: CallGraph, node_id: int, builds: Iterable[Build], enum: str) -> list[Build]:
    """Of `builds` (of the fn's file), those the fn `node_id` makes, of `enum` (its last
    segment; `Self` read as the fn's impl type) when one is named."""
    node = graph.nodes[node_id]
    ids = graph.by_file.get(node.path) or {}
    enum = enum.rsplit("::", 1)[-1]
    owner = node.definition.owner
    return [
        b
        for b in builds
        if ids.get(b.caller) == node_id
        and (not enum or (owner if b.enum == "Self" else b.enum) == enum)
    ]


def _const_values(
    graph: CallGraph, steps: Sequence[BuildStep], node_id: int | None
) -> tuple[str, ...]:
    """The consts that `steps` (conditions in the fn `node_id` on the way to a build) name,
    in their texts and in the arms a catch-all arm follows, each once with its value as
    written (`MAX_PARAMETERS = 100_000`); the one the fn's body declares first (`_in_scope`)."""
    if node_id is None:
        return ()
    values: dict[str, str] = {}
    for step in steps:
        for text in (step.text, *step.excluded):
            for const in _CONST.findall(text):
                defined = _in_scope(graph, graph.definitions("const", const), node_id)
                if defined is not None and defined[1].value and const not in values:
                    values[const] = f"{const} = {defined[1].value}"
    return tuple(values.values())


def _builds_of(builds: Iterable[Build], variant: str) -> list[Build]:
    """Of `builds`, those of `variant` (`Enum::V` by its variant's name; a struct's, which
    has none, by the struct's)."""
    name = variant.rpartition("::")[2] if "::" in variant else ""  # a struct's: ""
    return [b for b in builds if b.variant == name and (b.variant or b.enum == variant)]


def _builder_needs(graph: CallGraph, variant: str, builders: Mapping[int, int]) -> frozenset[str]:
    """What the one fn that builds `variant`, at one place, needs of its parameters for the
    build to run, by the conditions on the way to it (`Build.when`, `required_values`);
    nothing when it builds it at more places (surrealdb's `get_tb_event`, under `if
    version.is_some()` and again in the `None` arm of its cache lookup)."""
    ((node_id, _),) = builders.items()
    node = graph.nodes[node_id]
    index = graph.indexes.get(node.path)
    own = [i for i, n in graph.by_file.get(node.path, {}).items() if n == node_id]
    found = [
        b for b in _builds_of(index.builds if index is not None else (), variant) if b.caller in own
    ]
    if len(found) != 1 or not found[0].when:
        return frozenset()
    steps = found[0].when
    required = required_values(
        [s[0] for s in steps],
        [s[1] for s in steps],
        excluded=[s[3] if len(s) > 3 else () for s in steps],
    )
    return value_needs(graph, node_id, required) if required else frozenset()


def _unnamed(graph: CallGraph, variant: str, builders: Mapping[int, int]) -> str | None:
    """ "crate" when the type of the variant (`Enum::V`, or the struct) is `pub` but code
    outside its crate cannot name it (`CallGraph.unnamed_types`), as its builders' crate
    declares it; None otherwise. A variant's text has no fn to call: `Reach.internal` says
    who can name the type to match on it."""
    owner = variant.split("::", 1)[0] if variant else ""
    crates = {graph.nodes[n].crate for n in builders}
    return "crate" if owner and any((c, owner) in graph.unnamed_types for c in crates) else None


def _restricted(graph: CallGraph, name: str, builders: Mapping[int, int]) -> str | None:
    """Where code can name the type `name` (the one callers hold: the variant's enum, or
    the type its builders return it in) when its own visibility is less than `pub`, as
    `Reach.internal` names it: just's `pub(crate) struct CompileError` holds every
    `CompileErrorKind`'s text, and its records offered handling code no other crate can
    write (reading 281). None for a `pub` type, a name of no struct or enum of the
    builders' crates, or several."""
    if not name[:1].isupper() or not name.isidentifier():
        return None  # `anyhow::Error`, `Box<E>`, "another error type"
    crates = {graph.nodes[n].crate for n in builders}
    found = [
        d
        for kind in ("struct", "enum")
        for path, d in graph.definitions(kind, name)
        if _crate(path) in crates
    ]
    if len(found) != 1 or _PLAIN_PUB.match(found[0].signature):
        return None
    return visibility_scope(found[0].signature)


_PLAIN_PUB = re.compile(r"pub\s")


def _held(
    graph: CallGraph, variant: str, builders: Mapping[int, int]
) -> tuple[str | None, str | None]:
    """`Reach.held_in` (and `held_by`): the type every fn that builds the variant returns it
    in, when it is not the enum. `anyhow::Error`; the enum boxed (pixi's `Result<(),
    Box<PlatformUnsat>>`, where a pattern on `PlatformUnsat`'s variants does not type-check,
    reading 132); or another type of the repository that wraps it (nextest's
    `ConfigParseError::new(.., ConfigParseErrorKind::UnknownTestGroups { .. })` in fns that
    return `Result<_, ConfigParseError>`, reading 131), with what gives the enum back where
    the code shows it: a method of that type (`kind()`) or its variant that holds the enum
    (`ShellError::Job`). (None, None) otherwise."""
    anyhow = [n for n in builders if _returns_anyhow(graph, n)]
    if len(anyhow) == len(builders):
        return _ANYHOW_ERROR, None
    enum = variant.rpartition("::")[0].rpartition("::")[2]
    boxed = f"Box<{enum}>"
    if not enum:
        return None, None
    if anyhow and all(_returns_itself(graph, n, enum) for n in builders if n not in anyhow):
        return ANYHOW_OR_ITSELF, None
    if builders and all(
        not return_text(graph.nodes[n].definition.signature).strip() for n in builders
    ):
        return NOT_RETURNED, None
    if builders and all(_collected(graph, n, line, variant) for n, line in builders.items()):
        return NOT_RETURNED, None
    returned = [_returned_error(graph, n) for n in builders]
    if _converted_on_return(graph, enum, builders, returned):
        return CONVERTED, None
    results = set(returned)
    if len(results) != 1:
        return None, None
    (error,) = results
    if error == boxed:
        return boxed, None
    wrapper = (error or "").rpartition("::")[2]
    if (
        not _WRAPPER_PATH.fullmatch(error or "")
        or (error or "").split("::", 1)[0] in _FOREIGN_CRATES
        or wrapper == enum
        or not _known_type(graph, wrapper)
    ):
        # no `Result`, an associated type (`Self::Error`), a generic or foreign type, the
        # enum under a path
        return None, None
    return wrapper, _accessor(graph, wrapper, enum) or _wrapping_variant(graph, wrapper, enum)


def _collected(graph: CallGraph, node_id: int, line: int, variant: str) -> bool:
    """Whether the fn builds the variant (first at `line`) as the argument of a method that
    keeps it and gives nothing back: a fn of the repository's that returns nothing (nushell's
    `working_set.error(ParseError::Expected(..))`, which collects the parser's errors: no fn
    returned them, yet their handling read `match result { Err(ParseError::..) }`, reading
    282; ruff's parser's `self.add_error(ParseErrorType::..)`). Not a method that makes the
    error it is given into another (just's `self.error(kind)`, which returns a
    `CompileError`), nor a `Vec`'s `push` (vector's `errors.push(ValidationError::..)`,
    returned together after), nor an argument that only holds the variant's name
    (`files.push(file.map_err(CompileError::SourceFiles)?)`: `?` returns it)."""
    name = variant.rsplit("::", 1)[-1]
    path, at = graph.keys()[node_id]
    index = graph.indexes.get(path)
    if index is None or not name:
        return False
    built = re.compile(rf"(?:\w+::)*{re.escape(name)}\b(?!\s*::)")
    calls = [
        c for c in index.calls
        if c.caller == at and c.kind == "method" and c.line <= line <= c.line + 2
        and any(built.match(a.strip()) for a in c.args)
    ]  # fmt: skip
    if not calls:
        return False
    out = _callees(graph).get(node_id, [])
    for call in calls:
        callees = [e for e in out if e.line == call.line]
        if callees and all(
            not return_text(graph.nodes[e.callee].definition.signature).strip() for e in callees
        ):
            return True
    return False


def _converted_on_return(
    graph: CallGraph, enum: str, builders: Mapping[int, int], results: Sequence[str | None]
) -> bool:
    """Whether no builder returns the `enum` as itself, as far as their signatures show:
    each returns a boxed trait object (`Box<dyn Error + ..>`), or a type the index does not
    resolve whose text does not name the enum either (`crate::Result<Healthcheck>`, a
    future): a `match` on `Err(Enum::V { .. })` does not type-check there (vector's
    `HealthcheckError::UnknownBucket { .. }.into()`, reading 231). A signature that names the
    enum, or resolves to it or to a wrapper, is the other rules'. `results`: each builder's
    `_returned_error`, in order."""
    for error, node_id in zip(results, builders, strict=True):
        if error is not None and not error.startswith("Box<dyn"):
            return False
        definition = graph.nodes[node_id].definition
        written = return_text(definition.signature)
        if error is None and (
            enum in written
            or (definition.owner == enum and _SELF_WORD.search(written))
            or ("Result" in written and enum in _result_alias_errors(graph))
        ):
            # names it, or `Self` in its own impl (`fn missing(..) -> Self`), or a `Result`
            # alias the index did not follow while one of the repository's holds the enum
            # (risingwave's `use risingwave_expr::Result`, of `ExprError`)
            return False
    return bool(builders)


def _result_alias_errors(graph: CallGraph) -> frozenset[str]:
    """The names written in the repository's `type ..Result<..> = ..` aliases: the error
    types an alias the index does not follow may stand for. Made once per graph."""
    found: frozenset[str] | None = graph.derived.get("result aliases")
    if found is None:
        found = graph.derived["result aliases"] = frozenset(
            name
            for index in graph.indexes.values()
            for d in index.definitions
            if d.kind == "type" and d.name.endswith("Result")
            # the signature holds a default (`type Result<T, E = ExprError> = ..`)
            for name in _NAME_WORD.findall(f"{d.signature} {d.value or ''}")
        )
    return found


_NAME_WORD = re.compile(r"[A-Za-z_]\w*")


_SELF_WORD = re.compile(r"\bSelf\b")


_WRAPPER = re.compile(r"[A-Z]\w*")
_WRAPPER_PATH = re.compile(r"(?:(?!Self::)\w+::)*[A-Z]\w*")


def _returned_error(graph: CallGraph, node_id: int) -> str | None:
    """The error type of a fn's `Result` (`conversions.written_error`: written out, or
    through an alias, just's `RunResult<'src, Value>` being `Result<Value, Error<'src>>`),
    its generic arguments left out but a `Box`'s."""
    node = graph.nodes[node_id]
    written = written_error(graph, node.definition.signature, node.path)
    return _bare_type(written) if written is not None else None


def _bare_type(text: str) -> str:
    """`Error<'a>` -> `Error`, `Box < E >` -> `Box<E>`: spaces out, a lone type's generics
    out, a `Box`'s path out."""
    written = "".join(text.split()).removeprefix("std::boxed::")
    return written if written.startswith("Box<") else written.split("<", 1)[0]


def _known_type(graph: CallGraph, name: str) -> bool:
    """Whether the repository defines a struct or an enum of the name."""
    return bool(graph.definitions("struct", name) or graph.definitions("enum", name))


_BORROWS_SELF = re.compile(r"\(\s*&\s*(?:'\w+\s+)?self\b")


def _accessor(graph: CallGraph, owner: str, enum: str) -> str | None:
    """The method of `owner` that takes only `&self` and returns the `enum` (or a reference
    to it): nextest's `ConfigParseError::kind(&self) -> &ConfigParseErrorKind`. None when
    there is none, or more than one."""
    found: dict[tuple[str, str], set[str]] | None = graph.derived.get("accessors")
    if found is None:
        found = graph.derived["accessors"] = {}
        for node in graph.nodes:
            definition = node.definition
            if definition.kind != "fn" or not definition.owner or definition.params:
                continue
            if (
                not definition.has_self
                or definition.trait
                or not _BORROWS_SELF.search(definition.signature)
            ):
                continue  # `into_error(self)` would move the error out of a match guard
            returned = return_text(definition.signature).removeprefix("&").strip()
            returned = re.sub(r"^'\w+\s+", "", returned).rpartition("::")[2]
            if _WRAPPER.fullmatch(returned):
                found.setdefault((definition.owner, returned), set()).add(definition.name)
    names = found.get((owner, enum), set())
    return f"{next(iter(names))}()" if len(names) == 1 else None


def _wrapping_variant(graph: CallGraph, owner: str, enum: str) -> str | None:
    """The variant of the enum `owner` whose one value is the `enum`, as a path:
    nushell's `ShellError::Job` of `Job(#[from] JobError)`, which `?` and `.into()` build
    from a `JobError`. None when there is none, or more than one."""
    found: dict[tuple[str, str], set[str]] | None = graph.derived.get("wrapping variants")
    if found is None:
        found = graph.derived["wrapping variants"] = {}
        for (kind, name), definitions in graph.named.items():
            if kind != "variant":
                continue
            for _, definition in definitions:
                held = _ONE_VALUE.fullmatch(_ATTRIBUTES.sub("", definition.signature))
                if held is not None and definition.owner:
                    inner = held[1].strip().rpartition("::")[2]
                    found.setdefault((definition.owner, inner), set()).add(name)
    names = found.get((owner, enum), set())
    return f"{owner}::{next(iter(names))}" if len(names) == 1 else None


_ATTRIBUTES = re.compile(r"#\[[^\]]*\]")
# `Job(JobError)`, `Job( JobError, )`: a tuple variant of one value, a plain path
_ONE_VALUE = re.compile(r"\w+\s*\(\s*((?:\w+::)*[A-Z]\w*)\s*,?\s*\)")


_ANYHOW_ERROR = "anyhow::Error"


def _returns_itself(graph: CallGraph, node_id: int, enum: str) -> bool:
    """Whether a fn returns the `enum` itself in its `Result`'s error (`-> Result<T, Error>`),
    or as its value (`impl From<reqwest::Error> for Error`'s `fn from(..) -> Self`)."""
    definition = graph.nodes[node_id].definition
    written = _bare_type(return_text(definition.signature).strip().removeprefix("crate::"))
    made = written == enum or (written == "Self" and definition.owner == enum)
    return made or _returned_error(graph, node_id) == enum


def _returns_anyhow(graph: CallGraph, node_id: int) -> bool:
    """Whether a fn returns anyhow's `Result`: `anyhow::Result<T>` (`::anyhow::Result<T>`),
    `Result<T, anyhow::Error>`, or a one-argument `Result<T>` / an `Error` its file's `use`
    takes from anyhow."""
    node = graph.nodes[node_id]
    name, arguments = generic_parts(return_text(node.definition.signature))
    name = name.removeprefix("::")
    if name == "anyhow::Result":
        return True
    if not name.endswith("Result") or not arguments:
        return False
    index = graph.indexes.get(node.path)
    imported = {use.alias: use.path for use in index.uses} if index is not None else {}
    if len(arguments) == 1:
        return name == "Result" and imported.get("Result") == "anyhow::Result"
    error = arguments[-1].strip().removeprefix("::")
    return error == "anyhow::Error" or imported.get(error) == "anyhow::Error"


def _more_than_named(entries: int, paths: Sequence[CallerPath]) -> int | None:
    """The count of entry points found, when the paths' labels name fewer (else None)."""
    named = sum(1 + p.entry_label.count(", ") + p.entry_label.count(" or ")
                for p in paths if p.entry_label)  # fmt: skip
    return entries if entries > named else None


def _built_at(path: CallerPath, where: dict[tuple[str, int], int]) -> CallerPath:
    """The path with its last hop's `call_line` the line where that fn builds the variant."""
    last = path.hops[-1]
    at = where.get((last.file_path, last.line))
    return replace(path, hops=(*path.hops[:-1], replace(last, call_line=at)))


def caller_paths(graph: CallGraph, target: int) -> tuple[CallerPath, ...]:
    """Up to MAX_PATHS shortest paths from entry points down to `target`, best first.

    A breadth-first walk up the callers: each node is reached once, by its shortest
    chain. An entry point ends a path but the walk goes on above an RPC method (its
    clients call it) and a public fn (others may call it); `main` ends it.
    """
    return _walk(graph, [target])[0]


def _walk(
    graph: CallGraph,
    targets: Sequence[int],
    lone: bool = False,
    passed: bool = False,
    values: frozenset[str] = NO_NEEDS,
) -> tuple[tuple[CallerPath, ...], int]:
    """`caller_paths` down to any of `targets` (the fns that build a variant: one walk
    from all of them, so the best paths are the best over all), and how many entry points
    it found. `lone`: with no entry point, a path of one target alone is kept (it says
    which fn builds the variant). `passed`: a returned error's walk goes up no call that
    drops it (`Call.dropped`). `values`: the targets' value needs (`valueflow`): a call
    whose arguments rule them out is not walked up, and a fn under a need is a state of
    its own, as under a `TYPED` one."""
    # A walk's states are its fns, and a fn again under other `_TYPED` needs (quickwit's
    # `build_tantivy_ast_call` runs `RangeQuery`'s impl when `Self` is one, and is called by
    # `QueryAst`'s impl, itself run by the same provided method with `Self` a `QueryAst`):
    # such a state has an id past the fns', and `real` its fn.
    real: dict[int, int] = {}
    states: dict[tuple[int, frozenset[str]], int] = {}

    def state(fn: int, need: frozenset[str]) -> int:
        if not need:
            return fn
        typed = frozenset(n for n in need if n.startswith(TYPED) or n.startswith(VALUE))
        if not typed:
            return fn
        key = (fn, typed)
        found_state = states.get(key)
        if found_state is None:
            found_state = states[key] = len(graph.nodes) + len(states)
            real[found_state] = fn
        return found_state

    # A target under value needs is a state of its own: the fn itself is left free for a
    # caller that meets them (risingwave's `convert_plan_node` passing `Some(..)` to itself)
    starts = [state(t, values) for t in targets] if values else list(targets)
    parent: dict[int, Edge | None] = dict.fromkeys(starts)
    depth = dict.fromkeys(starts, 0)
    needs: dict[int, frozenset[str]] = dict.fromkeys(starts, values)
    queue = deque(starts)
    found: list[Found] = []
    roots: list[int] = []
    handled: dict[int, list[Edge]] = {}  # a fn each of whose calls drops or logs the error
    ruled: dict[int, Edge] = {}  # a fn each of whose calls passes a value ruling the site out
    while queue and len(parent) < MAX_VISITED:
        node = queue.popleft()
        fn = real.get(node, node)
        entry = graph.entries.get(fn)
        if entry is not None and unmet_program(needs[node]):
            entry = None  # an example's value no code of this entry's program makes
        if entry is not None:
            found.append((node, entry, None, False))
            if entry[0] in ("main", "example", "build", "bench"):
                continue
        below = parent[node]
        edges = graph.callers.get(fn, [])
        if below is not None and below.arm is not None:  # came through a dispatch arm
            edges = [e for e in edges if not _other_variant(graph, below.arm, e)]
        if not edges and entry is None and not _support(graph, fn):
            # a fn nobody calls, but not one its doc or name says is for tests (risingwave's
            # `SessionImpl::run_statement`, "only used for test now"): test code calls it,
            # a user does not start there (reading 202)
            roots.append(node)
        if passed and edges and all(_drops(e) for e in edges):
            handled[node] = edges
        if depth[node] >= MAX_DEPTH - 1:
            continue
        valued = any(n.startswith(VALUE) for n in needs[node])
        plain = frozenset(n for n in needs[node] if not n.startswith(VALUE)) if valued else None
        untyped = not valued and not any(n.startswith(TYPED) for n in needs[node])
        ruling: list[Edge] = []
        taken = 0
        for edge in edges:
            if passed and _drops(edge):
                continue  # `f(x).ok()`: the error goes no further than this caller
            taken += 1
            held = values_above(graph, edge, needs[node]) if valued else NO_NEEDS
            if held is None:
                ruling.append(edge)
                continue  # `load(false)` where the site needs `details`: no way in
            if (
                untyped
                and edge.caller in parent
                and edge.arm is None
                and dispatch_need(graph, edge) is None
            ):
                continue  # a caller reached already, as the fn itself: no other state of it
            need = needs_above(graph, edge, needs[node] if plain is None else plain)
            if need is None:  # no build makes this chain: the types below cannot come here
                continue
            need = need | held if held else need
            guarded = guard_needs(graph, edge)  # the `if` around the call, on a parameter
            need = need | guarded if guarded else need
            caller = state(edge.caller, need)
            if edge.arm is None and caller in parent:
                continue
            kept = (
                edge
                if caller == edge.caller and node == fn
                else Edge(caller, node, edge.line, edge.resolution, edge.candidates, edge.call, edge.arm)
            )  # fmt: skip
            if edge.arm is not None:
                # A dispatch arm is an entry even when its fn was reached another way first;
                # not an arm that recurses into the chain below (ruff's
                # `validate_..._statements` calls itself for `Stmt::If`: no way in).
                if dead_arm(graph, edge.arm, edge.caller):
                    continue  # the subcommand matched above is another variant
                arm = arm_entry(graph, edge.arm, edge.caller)
                if arm is not None:
                    if not _below(parent, node, edge.caller, real):
                        found.append((caller, arm, kept, _also_unarmed(edges, edge)))
                    continue
            if caller in parent:
                continue
            parent[caller] = kept
            depth[caller] = depth[node] + 1
            needs[caller] = need
            queue.append(caller)
        if ruling and len(ruling) == taken:
            ruled[node] = ruling[0]
    paths = _best(graph, parent, found, real, needs=needs)
    if not paths and graph.front_doors:
        # no entry point: the outermost front door of a published library the walk passed
        # (typst's `typst::compile`, which its CLI calls too, 6 calls above an `expect` of
        # the evaluator whose other callers end past the 8 hops or at no entry)
        found = [
            (node, door, None, False)
            for node in parent
            if (door := graph.front_doors.get(real.get(node, node))) is not None
        ]
        paths = _best(graph, parent, found, real, outermost=True, needs=needs)
    if not paths:  # no entry point: the longest chain of callers there is
        # a fn nobody calls first, else the deepest fn the walk reached (the depth or the
        # visit bound cut it: its callers exist, the path just does not end at an entry);
        # of the deepest at the depth bound, one the bound cut before one whose callers all
        # keep the error or rule the site out: just's `Compiler::compile` is called by the
        # completer, which drops the error, and by `Subcommand::compile`, 3 calls below
        # `main`; the path through the completer said every caller stops it (reading 281)
        top = max(
            roots or depth,
            key=lambda n: (
                depth[n],
                depth[n] >= MAX_DEPTH - 1 and n not in handled and n not in ruled,
                -n,
            ),
        )
        if lone or top not in starts:
            path = _path(graph, top, parent, None, None, real, needs)
            if top in roots:  # no caller: say which trait's impl it is, if one
                path = _implementing(graph, path, real.get(top, top))
            elif top in handled:  # its callers keep the error: say which, and how
                keeping = _keeping(graph, handled[top])
                assert keeping is not None  # `handled` holds fns with calls
                hop = replace(path.hops[0], handled=_handled_text(graph, keeping))
                path = replace(path, hops=(hop, *path.hops[1:]))
            elif top in ruled:  # its callers pass values that rule the site out: say one
                hop = replace(path.hops[0], ruled_out=_ruled_text(graph, ruled[top], needs[top]))
                path = replace(path, hops=(hop, *path.hops[1:]))
            elif not graph.callers.get(real.get(top, top)) and _support(graph, real.get(top, top)):
                # no caller, as the test helpers `roots` leaves out: say what it is
                path = replace(path, hops=(replace(path.hops[0], support=True), *path.hops[1:]))
            paths = [path]
    return tuple(paths), len({entry for _, entry, _, _ in found})


def _support(graph: CallGraph, fn: int) -> bool:
    """Whether the fn is there for tests or benchmarks, by its doc, names or `cfg` (asked
    of every fn with no caller each walk meets: kept per graph)."""
    known: dict[int, bool] = graph.derived.setdefault("support", {})
    found = known.get(fn)
    if found is None:
        node = graph.nodes[fn]
        found = known[fn] = for_tests(node.definition) or test_support(node)
    return found


def _implementing(graph: CallGraph, path: CallerPath, fn: int) -> CallerPath:
    """The path with its top hop marked when the fn implements a trait's method (`Hop`'s
    `implements`: a `Drop`, a conversion, another crate's trait's callback)."""
    d = graph.nodes[fn].definition
    foreign = trait_declared_elsewhere(graph, fn)
    if foreign is None or not d.trait:
        return path
    trait = type_name(d.trait)
    top = replace(path.hops[0], implements=f"{trait}::{d.name}", foreign=foreign or None)
    return replace(path, hops=(top, *path.hops[1:]))


def trait_declared_elsewhere(graph: CallGraph, fn: int) -> bool | None:
    """For a trait impl's method, whether no file of the repository declares its trait (a
    fact of other files: the walks' memo digests it with the fn); None for any other fn."""
    d = graph.nodes[fn].definition
    if not d.trait or not d.owner or d.owner == d.trait:
        return None
    return ("trait", type_name(d.trait)) not in graph.named


def _also_unarmed(edges: list[Edge], armed: Edge) -> bool:
    """Whether the fn whose arm makes `armed` calls the same fn outside any arm too: bat's
    `run` calls `App::config` under `Some(("cache", m))` and under `_` (plain `bat FILE`),
    so the subcommand is one way in, not the way, and ranks after the way past `run`."""
    return any(e.caller == armed.caller and e.arm is None for e in edges)


def _below(parent: dict[int, Edge | None], node: int, wanted: int, real: dict[int, int]) -> bool:
    """Whether the fn `wanted` is `node`'s or on its chain down to the target (parent
    links; `real`: the fn of a state past the fns')."""
    current: int | None = node
    while current is not None:
        if real.get(current, current) == wanted:
            return True
        edge = parent.get(current)
        current = edge.callee if edge is not None else None
    return False


def _best(
    graph: CallGraph,
    parent: dict[int, Edge | None],
    found: list[Found],
    real: dict[int, int],
    outermost: bool = False,
    needs: Mapping[int, frozenset[str]] | None = None,
) -> list[CallerPath]:
    """The MAX_PATHS best of the paths found (entry kind, then an arm of a dispatch nested
    in another's over the same enum after the rest (`nested_dispatch`), then a dispatch arm
    whose fn calls the same fn outside its arms too after the rest, then fewer guessed hops, then
    shorter; in the order found on a tie), one per chain of functions: arms that call the
    same chain become one path naming them all (risingwave's `handle` sends
    `Statement::AlterTable`, `AlterIndex` and `AlterView` to the same
    `handle_alter_parallelism` chain: one path naming the three leaves room for a
    different way in). Ranked on the walk's parent links; only the kept become hops.
    `outermost`: longer first (a library's front doors: the one furthest out says most)."""
    ranked = []
    label = _labels(graph, "module labels").__getitem__
    plain = _labels(graph, "labels").__getitem__
    for top, entry, first, narrow in found:
        nodes, guesses = _chain(parent, top, first)
        # the entry by its name, the fns below it by their modules too: two programs' `main`
        # calling the same chain are one path naming both; one `main` whose arms call two
        # modules' `execute` is two paths
        chain = (plain(real.get(nodes[0], nodes[0])), *(label(real.get(n, n)) for n in nodes[1:]))
        outer = (
            nested_dispatch(graph, real.get(first.caller, first.caller), first.arm)
            if entry[0] == "statement" and first is not None and first.arm is not None
            else frozenset()
        )
        if len(outer) == 1:  # `EXPLAIN FETCH`: the statement the user gives is the outer one
            entry = (entry[0], f"{entry[1]} inside `{next(iter(outer))}`")
        length = -len(nodes) if outermost else len(nodes)
        kind = _KIND_RANK[entry[0]]
        if entry[0] == "custom" and real.get(top, top) in graph.derived.get(EXPORTED, ()):
            kind = _KIND_RANK["rpc"]  # another language's binding: after the program's own
        elif entry[0] == "cli" and benchmark_subcommand(entry[1]):
            kind = _KIND_RANK["bench"]  # `datanode scanbench`: after the product's commands
        elif entry[0] in ("main", "cli") and tooling_program(graph.nodes[real.get(top, top)].path):
            kind = _KIND_RANK["bench"]  # a fuzzing harness, an xtask: after the product's
        # a way in its own attributes tell users not to take (`#[deprecated]`, `#[doc(hidden)]`)
        shunned = any(
            DISCOURAGED.match(a) for a in graph.nodes[real.get(top, top)].definition.attrs
        )
        # an entry that names what the site's type is about (`create_sink` for
        # `ClickHouseSink::validate`) before one that reaches it from further off
        # (risingwave's sink checks led with the `create_source` RPC)
        off = not _names_the_site(entry[1], graph.nodes[real.get(nodes[-1], nodes[-1])])
        rank = (kind, shunned, bool(outer), narrow, guesses, off, length)
        own = (
            graph.nodes[real.get(top, top)].crate
            == graph.nodes[real.get(nodes[-1], nodes[-1])].crate
        )
        ranked.append((rank, chain, top, entry, first, own))
    ranked.sort(key=lambda item: item[0])
    kept: dict[tuple[str, ...], tuple[int, tuple[EntryKind, str], Edge | None]] = {}
    others: dict[tuple[str, ...], list[str]] = {}
    mine: dict[tuple[str, ...], tuple[tuple[int, bool, bool, bool, int, bool, int], bool]] = {}
    for rank, chain, top, entry, first, own in ranked:
        if chain not in kept:
            kept[chain], others[chain], mine[chain] = (top, entry, first), [], (rank, own)
        elif own and mine[chain] == (rank, False):
            # of programs that call one chain alike (nushell's plugins' `main`s, each calling
            # `serve_plugin`, which runs its commands' `examples()`), the one of the site's
            # own package is the path, the others named after it (reading 282's recheck: a
            # polars command's path began at another plugin's `main`)
            others[chain].insert(0, kept[chain][1][1])
            kept[chain], mine[chain] = (top, entry, first), (rank, True)
        elif entry[1] and entry[1] != kept[chain][1][1]:
            others[chain].append(entry[1])
    out = []
    for chain, (top, entry, first) in list(kept.items())[:MAX_PATHS]:
        path = _path(graph, top, parent, entry, first, real, needs)
        also = list(dict.fromkeys(others[chain]))
        if also and path.entry_label:
            path = CallerPath(path.hops, path.entry, merged_label([path.entry_label, *also]))
        out.append(path)
    return out


def _names_the_site(label: str, node: Node) -> bool:
    """Whether an entry's label names a word of what the site's fn is about: its impl
    type's (`sink` of `ClickHouseSink`), the words every entry or module may say left out
    (`statement`, `handler`, ..). Not its file's name: a verb there (`create` of
    greptimedb's `parser/create.rs`) put `SHOW CREATE VIEW`, which parses a view's stored
    text, before the parse endpoint (first version of this rule)."""
    about = _owner_words(node.definition.owner or "")
    return bool(about) and not about.isdisjoint(_label_words(label))


@functools.lru_cache(maxsize=1 << 14)
def _label_words(label: str) -> frozenset[str]:
    """The words of what an entry's label names: each name in it by its last segment
    (`create_sink` of `DdlService::create_sink`; a public API's crate and modules,
    `risingwave_ctl::cmd_impl::hummock::list_kv`, say where it lives, not what it does), a
    route by its literal segments (not `{index_uid}`)."""
    names = _NAME_IN_LABEL.findall(label)
    if names:
        return frozenset().union(*(_words(n.rsplit("::", 1)[-1]) for n in names))
    return _words(_ROUTE_PARAM.sub(" ", label))


_NAME_IN_LABEL = re.compile(r"`([^`]*)`")
_ROUTE_PARAM = re.compile(r"\{[^}]*\}")


@functools.lru_cache(maxsize=1 << 12)
def _owner_words(owner: str) -> frozenset[str]:
    return _words(owner.split("<", 1)[0].rsplit("::", 1)[-1]) - _COMMON_WORDS


@functools.lru_cache(maxsize=1 << 14)
def _words(text: str) -> frozenset[str]:
    """The lower-case words of names in `text`: `InfoStatement::Root` -> info, statement,
    root; `stream_manager` -> stream, manager."""
    return frozenset(w.lower() for w in _WORD.findall(text) if len(w) > 2)


_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_COMMON_WORDS = frozenset((
    "mod", "lib", "main", "statement", "statements", "stmt", "handler", "handlers", "handle",
    "command", "commands", "cmd", "service", "rpc", "api", "error", "errors", "impl", "util",
    "utils", "common", "types", "type", "core", "new", "run", "execute", "compute", "server",
    "client", "request", "response", "test", "tests", "manager", "builder", "config", "context",
))  # fmt: skip


def _labels(graph: CallGraph, kind: Literal["labels", "module labels"]) -> list[str]:
    """Each node's label by id (`execute`, `Engine::write`), or with its crate and module
    (`mdbook::cmd::build::execute`), made once per graph (a walk ranks its paths by them:
    ~160,000 for risingwave's records). The fns below an entry are told apart by module:
    mdBook's `cmd::build::execute`, `cmd::serve::execute` and `cmd::watch::execute` below
    its `main` are three chains, each its own path from its own subcommand, not one path
    through `build` named "`build`, `serve` or `watch`" (reading 116); one fn written twice
    under a `cfg` in one module is still one chain."""
    labels: list[str] | None = graph.derived.get(kind)
    if labels is None or len(labels) != len(graph.nodes):
        labels = graph.derived[kind] = [
            f"{node.crate}::{node.module}::{node.label}" if kind == "module labels" else node.label
            for node in graph.nodes
        ]
    return labels


def _chain(parent: dict[int, Edge | None], top: int, first: Edge | None) -> tuple[list[int], int]:
    """The fns from `top` down to the target as `_path` walks them, and how many of their
    calls were guessed (resolved by name alone, or ambiguous)."""
    nodes, guesses, node = [top], 0, top
    while True:
        edge = first if node == top and first is not None else parent.get(node)
        if edge is None or edge.callee == top:
            return nodes, guesses
        guesses += edge.resolution == "name" or bool(edge.candidates)
        node = edge.callee
        nodes.append(node)


def merged_label(labels: list[str]) -> str:
    """`statement `A``, `statement `B`` -> `statement `A` or `B``: one kind word, the names listed."""
    kind, _, _ = labels[0].partition(" `")
    names = [label[len(kind) + 1 :] for label in labels]
    if not all(label.startswith(kind + " `") for label in labels):
        names, kind = labels, ""
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
    return f"{kind} {listed}" if kind else listed


def _other_variant(graph: CallGraph, arm: str | None, edge: Edge) -> bool:
    """Whether a call into a fn that dispatches on `Enum::Variant` passes another variant.

    `run_command(DdlCommand::CreateDatabase(..))` never reaches the `DdlCommand::ReplaceJob`
    arm: a path through that arm does not go on through that call. Nor does
    `run_command(command)` after `let command = DdlCommand::CreateStreamingJob { .. };`.
    """
    if arm is None or "::" not in arm or edge.call is None:
        return False
    arm = arm.split(ARM_LINK, 1)[0]  # the outermost variant is what the fn dispatches on
    enum = arm.split("::", 1)[0] + "::"
    named = [a for a in edge.call.args if enum in a]
    if not named:
        bound = _bindings(graph, edge.caller)
        named = [bound[a] for a in edge.call.args if enum in bound.get(a, "")]
    return bool(named) and not any(arm in a for a in named)


def _bindings(graph: CallGraph, node_id: int) -> dict[str, str]:
    """The enum variants the `let`s of a fn bind (`let x = Enum::Variant(..)`), by name."""
    memo: dict[int, dict[str, str]] = graph.derived.setdefault("bindings", {})
    found = memo.get(node_id)
    if found is None:
        path = graph.nodes[node_id].path
        owners = graph.derived.get("def of node")
        if owners is None:
            owners = graph.derived["def of node"] = {
                n: i for ids in graph.by_file.values() for i, n in ids.items()
            }
        mine = owners[node_id]
        found = memo[node_id] = {
            local.name: local.variant
            for local in graph.indexes[path].locals
            if local.caller == mine and local.variant
        }
    return found


def _path(
    graph: CallGraph,
    top: int,
    parent: dict[int, Edge | None],
    entry: tuple[EntryKind, str] | None,
    first: Edge | None,
    real: dict[int, int],
    needs: Mapping[int, frozenset[str]] | None = None,
) -> CallerPath:
    """The hops from `top` down to the target, following the walk's parent edges (between
    the walk's states: `real` has the fn of each past the fns'; `needs`: the value needs
    the walk had at each state, which rule out a hop's other calls of the next)."""
    hops: list[Hop] = []
    ids: list[int] = []
    node: int | None = top
    incoming: Edge | None = None
    while node is not None:
        edge = parent.get(node)  # the edge from `node` down to the next hop
        if node == top and first is not None:  # a dispatch arm: its edge, not the walk's
            edge = first
        fn = real.get(node, node)
        hops.append(_hop(graph, fn, incoming, edge, _also_at(graph, fn, real, edge, needs)))
        ids.append(fn)
        incoming = edge
        node = edge.callee if edge is not None else None
        if node is not None and node == top:
            break
    hops = _told_apart(graph, ids, hops)
    return CallerPath(tuple(hops), entry[0] if entry else None, entry[1] if entry else None)


def _told_apart(graph: CallGraph, ids: Sequence[int], hops: list[Hop]) -> list[Hop]:
    """Hops of different fns that a path would name alike, each named with as much of its
    crate and module as tells them apart: polars' `misc::is_close` -> `is_close::is_close`,
    not `is_close` -> `is_close`, which reads as a fn calling itself."""
    by_name: dict[str, set[int]] = {}
    for node, hop in zip(ids, hops, strict=True):
        by_name.setdefault(hop.name, set()).add(node)
    named: dict[int, str] = {}
    for name, nodes in by_name.items():
        if len(nodes) > 1:
            named.update(_qualified(graph, sorted(nodes), name))
    if not named:
        return hops
    return [
        replace(hop, name=named[node]) if node in named else hop
        for node, hop in zip(ids, hops, strict=True)
    ]


def _qualified(graph: CallGraph, nodes: Sequence[int], name: str) -> dict[int, str]:
    """`name` of each of `nodes` after the shortest end of its `crate::module` path that no
    other of them shares; methods of one type in one module, by the trait each implements
    when that tells them apart (cargo's `HttpRegistry::config` and `<HttpRegistry as
    RegistryData>::config`); none when nothing does (`impl BitOr for T` and `impl
    BitOr<&T> for &T`)."""
    paths = {}
    for node in nodes:
        crate = graph.nodes[node].crate.rsplit("/", 1)[-1].replace("-", "_")
        module = graph.nodes[node].module
        paths[node] = [part for part in (crate, *module.split("::")) if part]
    for size in range(1, max(len(parts) for parts in paths.values()) + 1):
        ends = {node: "::".join(parts[-size:]) for node, parts in paths.items()}
        if len(set(ends.values())) == len(ends):
            return {node: f"{end}::{name}" for node, end in ends.items()}
    traits = {node: graph.nodes[node].definition.trait for node in nodes}
    if len(set(traits.values())) < len(traits):
        return {}
    return {
        node: f"<{d.owner} as {d.trait}>::{d.name}" if d.owner and d.trait else name
        for node in nodes
        for d in (graph.nodes[node].definition,)
    }


def _also_at(
    graph: CallGraph,
    fn: int,
    real: dict[int, int],
    outgoing: Edge | None,
    needs: Mapping[int, frozenset[str]] | None,
) -> tuple[int, ...]:
    """The other lines where `fn` calls the fn `outgoing` goes to, in order (`Hop.also_at`),
    but those whose arguments rule out what the walk needed below (`values_above`) and those
    resolved by name alone or ambiguous: pingora's `Self::Subrequest(s) =>
    s.write_proxy_tasks()` is the subrequest session's method, which the name matched to
    the v1 session's too (recheck 201)."""
    if outgoing is None:
        return ()
    callee = real.get(outgoing.callee, outgoing.callee)
    below = needs.get(outgoing.callee, NO_NEEDS) if needs is not None else NO_NEEDS
    valued = any(n.startswith(VALUE) for n in below)
    lines = {
        e.line
        for e in graph.callers.get(callee, ())
        if e.caller == fn and e.line != outgoing.line
        and e.resolution != "name" and not e.candidates
        and not (valued and values_above(graph, e, below) is None)
    }  # fmt: skip
    return tuple(sorted(lines))


def _hop(
    graph: CallGraph,
    node_id: int,
    incoming: Edge | None,
    outgoing: Edge | None,
    also_at: tuple[int, ...] = (),
) -> Hop:
    node = graph.nodes[node_id]
    d = node.definition
    dispatched = _dispatched(d, incoming)
    return Hop(
        name=node.label,
        file_path=node.path,
        line=d.line,
        signature=d.signature,
        doc=d.doc,
        call_line=outgoing.line if outgoing is not None else None,
        resolution=incoming.resolution if incoming is not None else None,
        candidates=_candidates(graph, node.label, incoming.candidates) if incoming else (),
        via=f"{d.trait}::{d.name}" if dispatched else None,
        impls=_impls(graph, node_id) if dispatched else None,
        also_at=also_at,
    )


def _impls(graph: CallGraph, node_id: int) -> int | None:
    """How many impls a dispatched call into `node_id` may run, when more than one."""
    count: int | None = graph.derived.get("impls", {}).get(node_id)
    return count if count is not None and count > 1 else None


def _dispatched(d: Definition, incoming: Edge | None) -> bool:
    """Whether the hop is an impl's method that a call of its trait's method runs."""
    return (
        incoming is not None
        and incoming.resolution == "trait"
        and bool(d.trait)
        and d.owner != d.trait
    )


def _candidates(graph: CallGraph, taken: str, others: Sequence[int]) -> tuple[str, ...]:
    """The other fns an ambiguous call may reach, by label; one whose label the hop or
    another candidate also has (`impl From<A> for X` and `impl From<B> for X` both give
    `X::from`) is told apart by its place: `X::from (src/x.rs:12)`."""
    labels = [graph.nodes[c].label for c in others]
    seen = [taken, *labels]
    return tuple(
        f"{label} ({graph.nodes[c].path}:{graph.nodes[c].definition.line})"
        if seen.count(label) > 1
        else label
        for c, label in zip(others, labels, strict=True)
    )


def dependencies(
    graph: CallGraph,
    conditions: Sequence[str],
    node_id: int,
    paths: Sequence[CallerPath],
    rebound: Sequence[str] = (),
) -> tuple[Dependency, ...]:
    """Where the condition chain's identifiers come from: params (marked when the fn binds
    them again before the site, `rebound`), fields, consts, variants."""
    node = graph.nodes[node_id]
    d = node.definition
    text = " ".join(_METHOD_NOTE.sub("", condition) for condition in conditions)
    out: dict[str, Dependency] = {}
    params = dict(d.params)
    for name in _IDENT.findall(text):
        if name in params and name not in out:
            out[name] = Dependency(
                name, "parameter", f"{name}: {params[name]}", node.path, d.line,
                passed=_handoffs(graph, node_id, name, paths),
                rebound=True if name in rebound else None,
            )  # fmt: skip
    for name in _FIELD.findall(text):
        found = _field(graph, node, name)
        if found is not None and f"self.{name}" not in out:
            out[f"self.{name}"] = _field_dependency(graph, f"self.{name}", *found)
    for held, name in _PARAM_FIELD.findall(text):
        if held not in params or f"{held}.{name}" in out:
            continue
        found = _param_field(graph, node, params[held], name)
        if found is not None:
            out[f"{held}.{name}"] = _field_dependency(graph, f"{held}.{name}", *found)
    for enum, variant in _VARIANT.findall(text):
        of_enum = [f for f in graph.definitions("variant", variant) if f[1].owner == enum]
        meant = _meant_by(graph, of_enum, node, enum)
        if meant is not None:
            path, found_variant = meant
            label = f"{enum}::{variant}"
            out.setdefault(
                label,
                Dependency(
                    label,
                    "variant",
                    found_variant.signature,
                    path,
                    found_variant.line,
                    found_variant.doc,
                ),
            )
    for name in _CONST.findall(text):
        for kind in ("const", "static"):
            defined = _in_scope(graph, graph.definitions(kind, name), node_id)
            if defined is not None:
                path, const = defined
                out.setdefault(
                    name,
                    Dependency(name, kind, const.signature, path, const.line, const.doc),
                )
                break
    return tuple(out.values())


def _field_dependency(graph: CallGraph, name: str, path: str, field: Definition) -> Dependency:
    """The field a condition reads as `name` (`self.x`, `options.x`), with its doc, its
    getter, its setter and the command-line option it is, when clap's derive makes one of it
    (foundry's `self.serve` of `#[arg(long)] serve: bool` is `--serve`, reading 323)."""
    return Dependency(
        name, "field", field.signature, path, field.line, field.doc,
        accessor=_field_getter(graph, path, field), setter=_field_setter(graph, path, field),
        option=language_of(path).field_option(field.name, field.attrs),
    )  # fmt: skip


def _handoffs(
    graph: CallGraph, node_id: int, name: str, paths: Sequence[CallerPath]
) -> tuple[Handoff, ...]:
    """The argument each caller of the best path passes for the parameter `name`, nearest
    first, while it passes one of its own parameters on."""
    d = graph.nodes[node_id].definition
    params = [p for p, _ in d.params]
    out: list[Handoff] = []
    if not paths or len(paths[0].hops) < 2:
        return ()
    hops = paths[0].hops
    current, position = node_id, params.index(name)
    for hop in reversed(hops[:-1]):
        edge = _edge_into(graph, current, hop)
        callee = graph.nodes[current].definition
        if edge is None or edge.call is None:
            break
        args = arguments(edge.call, callee)
        if position >= len(args):
            break
        argument = args[position]
        others = sum(
            1
            for e in graph.callers.get(current, ())
            if e.caller == edge.caller
            and e.line != edge.line
            and e.call is not None
            and position < len(passed := arguments(e.call, callee))
            and passed[position] != argument
        )
        out.append(Handoff(hop.name, argument, hop.file_path, edge.line, others or None))
        caller = graph.nodes[edge.caller].definition
        caller_params = [p for p, _ in caller.params]
        if argument not in caller_params:
            break
        current, position = edge.caller, caller_params.index(argument)
    return tuple(out)


def _is_hop(node: Node, hop: Hop) -> bool:
    """Whether `hop` is the fn `node` (two fns may call on the same line of their files)."""
    return node.path == hop.file_path and node.definition.line == hop.line


def _field(graph: CallGraph, node: Node, name: str) -> tuple[str, Definition] | None:
    """The field `self.name` of the method at `node` reads."""
    owner = node.definition.owner
    if owner is None:
        return None
    fields = [f for f in graph.definitions("field", name) if f[1].owner == owner]
    return _meant_by(graph, fields, node, owner)


def _param_field(
    graph: CallGraph, node: Node, written: str, name: str
) -> tuple[str, Definition] | None:
    """The field `name` of the parameter's type, `written` as the fn declares it (`options:
    &MySqlConnectOptions`: sqlx's `maybe_upgrade` reads `options.ssl_mode`, whose doc and
    setter tell a reader where the value comes from); None for a generic or `impl`/`dyn`
    type, or a field `_meant_by` does not single out."""
    bare = _held_value(written)
    if bare.startswith(("impl", "dyn")) or not bare[:1].isupper():
        return None
    owner = type_name(bare)
    fields = [f for f in graph.definitions("field", name) if f[1].owner == owner]
    return _meant_by(graph, fields, node, owner) if fields else None


def _field_setter(graph: CallGraph, path: str, field: Definition) -> str | None:
    """The `pub fn` of the field's type, in its crate, that a program sets the field with:
    a builder's method of the field's name taking one value and giving the type back (sqlx's
    `MySqlConnectOptions::ssl_mode(mut self, mode: MySqlSslMode) -> Self`), or a
    `set_<field>` taking one value; as `Type::method`, None when there is none. The value
    it takes is of the field's type (`Option<T>`'s a `T`, a `String`'s a `&str` or an `impl
    Into<String>`): bat's `pretty_printer::Input::kind(impl Into<String>)` sets no `kind:
    InputKind` (reading 310). Its body is not read."""
    if field.owner is None or not field.value:
        return None
    crate = _crate(path)
    owner = field.owner
    held = _set_value(field.value, option=True)
    for name, builder in ((field.name, True), (f"set_{field.name}", False)):
        for where, method in graph.definitions("fn", name):
            if not (
                method.owner == owner
                and method.public
                and method.has_self
                and len(method.params) == 1
                and _same_type_as(graph, where, path, owner, crate)
                and _set_value(method.params[0][1]) & held
            ):
                continue
            returned = type_name(_held_value(return_text(method.signature)))
            if not builder or returned in ("Self", owner):
                return f"{owner}::{name}"
    return None


def _same_type_as(graph: CallGraph, where: str, path: str, owner: str, crate: str) -> bool:
    """Whether a method of `owner` in file `where` is of the type declared in `path`: the
    same crate, and the same file when the crate declares two types of the name (bat's
    `input::Input` and `pretty_printer::Input`)."""
    if _crate(where) != crate:
        return False
    declared = [p for kind in ("struct", "enum") for p, _ in graph.definitions(kind, owner)]
    return where == path or sum(1 for p in declared if _crate(p) == crate) <= 1


# what a setter's value may be written as, for a field's type: `&str` for a `String`
_BORROWED = {"str": "String", "Path": "PathBuf", "OsStr": "OsString"}
_CONVERTED = re.compile(r"implInto<(.*)>|implAsRef<(.*)>")


def _set_value(written: str, option: bool = False) -> set[str]:
    """A type as the value a setter takes for it, spaces and references out: `impl
    Into<String>` and `&str` as `String`; with `option`, an `Option<T>` as itself or `T`."""
    held = _held_value(written)
    converted = _CONVERTED.fullmatch(held)
    if converted:
        held = converted.group(1) or converted.group(2)
    held = _BORROWED.get(held, held)
    values = {held}
    if option and held.startswith("Option<") and held.endswith(">"):
        inner = held[len("Option<") : -1]
        values.add(_BORROWED.get(inner, inner))
    return values


def _field_getter(graph: CallGraph, path: str, field: Definition) -> str | None:
    """The `pub fn` of the field's type, in its crate, named as the field (or `get_` and
    its name) and taking no argument but `self`, that gives any caller the field's value
    (pingora's `Http2Session::response_header()` of its private `response_header`, reading
    307; sqlx's `get_ssl_mode()`), "&" before its name when it lends it (`-> &Phase`, as
    `Facts.state_getter`); None when there is none, or the field is itself `pub`."""
    if field.public or field.owner is None or not field.value:
        return None
    crate = _crate(path)
    held = _held_value(field.value)
    for where, method in [
        *graph.definitions("fn", field.name),
        *graph.definitions("fn", f"get_{field.name}"),
    ]:
        if not (
            method.owner == field.owner
            and method.public
            and method.has_self
            and not method.params
            and _same_type_as(graph, where, path, field.owner, crate)
        ):
            continue
        returned = return_text(method.signature)
        if _held_value(returned) == held:
            return f"&{method.name}" if returned.lstrip().startswith("&") else method.name
    return None


# what a reference, a lifetime or `mut` adds to a type (and spaces)
_NOT_THE_VALUE = re.compile(r"&\s*(?:'\w+\s*)?(?:mut\s+)?|\s+")


def _held_value(written: str) -> str:
    """A type as the value it gives a check (`Option<Box<Header>>` and `Option<&Header>` are
    `Option<Header>`; cargo's `members()`, an iterator, is no `Vec<PathBuf>`): references,
    lifetimes, `mut` and `Box`/`Arc`/`Rc` left out, their closing `>` with them."""
    text = written
    for wrapper in ("Box", "Arc", "Rc"):
        while (at := text.find(f"{wrapper}<")) >= 0 and (at == 0 or not text[at - 1].isalnum()):
            depth, end = 0, at + len(wrapper)
            for end in range(at + len(wrapper), len(text)):
                depth += {"<": 1, ">": -1}.get(text[end], 0)
                if depth == 0:
                    break
            text = text[:at] + text[at + len(wrapper) + 1 : end] + text[end + 1 :]
    return _NOT_THE_VALUE.sub("", text)


def _meant_by(
    graph: CallGraph, found: list[tuple[str, Definition]], node: Node, type_name: str
) -> tuple[str, Definition] | None:
    """Which of `found` (members of types named `type_name`) the code of `node` means: the
    one in its file, else the one in its crate, else the one of the crate a `use` of its
    file names (`use risingwave_common::types::DataType`, then a glob), else one of a crate
    nested in its crate's directory, else the one there is; None while several are left,
    rather than a guess.

    vector's `vdev` declares a `Cli` per command: `self.release` in `run.rs`'s `impl Cli` is
    `run.rs`'s field ("in release mode"), not `build/vector.rs`'s ("Build with optimizations").
    """
    index = graph.indexes.get(node.path)
    uses = index.uses if index is not None else ()
    named = {u.path.split("::")[0] for u in uses if u.alias == type_name}
    globbed = {u.path.split("::")[0] for u in uses if u.alias == "*"}
    for group in (
        [f for f in found if f[0] == node.path],
        [f for f in found if _crate(f[0]) == node.crate],
        _best_named(found, named),
        _best_named(found, globbed),
        # a crate inside the node's crate's directory is one of its parts (`src/meta/model`,
        # `risingwave_meta_model`, of `src/meta`: whose files read it through `super::*`)
        [f for f in found if node.crate and f[0].startswith(node.crate + "/")],
        found,
    ):
        if group:
            return group[0] if len(group) == 1 else None
    return None


def _best_named(
    found: list[tuple[str, Definition]], roots: set[str]
) -> list[tuple[str, Definition]]:
    """Those of `found` whose crate a `use` path's first segment names best (`_named_by`)."""
    scored = [(max((_named_by(f[0], root) for root in roots), default=0), f) for f in found]
    best = max((score for score, _ in scored), default=0)
    return [f for score, f in scored if score and score == best]


def _named_by(path: str, root: str) -> int:
    """How much of the crate of `path` the name `root` spells: the longest tail of its
    directory (`src/meta/model` -> `meta_model`, `model`) that `root` is or ends with
    (`risingwave_meta_model`), in characters; 0 for none."""
    segments = _crate(path).replace("-", "_").split("/")
    for count in range(len(segments), 0, -1):
        tail = "_".join(segments[-count:])
        if tail and (root == tail or root.endswith("_" + tail)):
            return len(tail)
    return 0


def _in_scope(
    graph: CallGraph, found: list[tuple[str, Definition]], node_id: int
) -> tuple[str, Definition] | None:
    """The const or static a name in the fn's conditions means: one the fn's body declares
    first, none another fn's body declares (lemmy's two `static CACHE`s of util.rs, one in
    `get_actor_cached`, one in `get_latest_activity_id`: reading 128), then one of its own
    file (tokio's park.rs `const EMPTY: usize = 0`, not `io::Ready::EMPTY` of another file,
    reading 119), a free one before an impl's associated one, then the nearest by crate."""
    node = graph.nodes[node_id]
    found = [f for f in found if f[0] != node.path or _visible_in(graph, f[1], node_id)]
    own = [f for f in found if f[0] == node.path]
    inside = [f for f in own if node.definition.line <= f[1].line <= node.definition.end_line]
    if inside:
        return inside[0]
    if own:
        free = [f for f in own if f[1].owner is None]
        return (free or own)[0]
    free = [f for f in found if f[1].owner is None]
    return _nearest(free or found, node.crate)


def _visible_in(graph: CallGraph, item: Definition, node_id: int) -> bool:
    """Whether an item of the fn's file is in scope in its body: one no fn body declares, or
    one the body of this fn or of a fn around it declares (vector's `static PERCENT_REGEX` of
    the fn whose nested `impl Visitor` reads it)."""
    holder = graph.enclosing(graph.nodes[node_id].path, item.line)
    if holder is None:
        return True
    held = graph.nodes[holder].definition
    here = graph.nodes[node_id].definition
    return held.line <= here.line and here.end_line <= held.end_line


def _nearest(found: list[tuple[str, Definition]], crate: str) -> tuple[str, Definition] | None:
    if not found:
        return None
    same = [f for f in found if f[0].startswith(crate + "/")] if crate else []
    return (same or found)[0] if len(same or found) == 1 or same else None


# Error types of these crates are never a type the repository defines, whatever its name.
_FOREIGN_CRATES = frozenset({"anyhow", "eyre", "color_eyre", "std", "core", "alloc", "tonic"})


# Collections of another crate: no `Display` (typst's `SourceResult<T>` is a `Result<T,
# EcoVec<SourceDiagnostic>>`)
_COLLECTIONS = frozenset(
    ("Vec", "EcoVec", "SmallVec", "VecDeque", "HashMap", "BTreeMap", "HashSet", "BTreeSet",
     "IndexMap", "IndexSet", "Option")
)  # fmt: skip
# Derives that write a `Display` impl: thiserror's `Error` (also renamed: cargo's
# `ThisError`), derive_more's and strum's `Display`, snafu's `Snafu`, displaydoc's `Display`
_DISPLAY_DERIVES = re.compile(r"(?:Error|Display|Snafu)\b")


# generic arguments that are all lifetimes: `<'a>`, `<'src, 'run>`
_LIFETIMES_ONLY = re.compile(r"<\s*'\w+(?:\s*,\s*'\w+)*\s*>$")


def no_display(graph: CallGraph, error_class: str | None, site_path: str) -> bool:
    """Whether the error type prints no `Display` text the index can find: a collection of
    another crate (`EcoVec<SourceDiagnostic>`), or the struct or enum the site's file means
    by that name (`_named_here`) with neither an `impl Display for` it nor a derive that
    writes one (typst's `HintedString`). False when unknown: another crate's type, several
    of the name, a type the index holds nothing of."""
    if not error_class:
        return False
    head = " ".join(error_class.split()).lstrip("&").removeprefix("'static ").strip()
    head = _LIFETIMES_ONLY.sub("", head)  # just's `Error<'src>`: the type `Error`
    if head.split("<", 1)[0].rsplit("::", 1)[-1] in _COLLECTIONS:
        return True
    if "<" in head or "::" in head or head in ("str", "String"):
        return False
    home = _named_here(graph, head, site_path)
    if home is None:
        return False
    path, definition = home
    if any(a.startswith("derive") and _DISPLAY_DERIVES.search(a) for a in definition.attrs):
        return False
    return not any(
        impl.type == head and inner_type(impl.trait or "") == "Display"
        for file in graph.crate_files(_crate(path))
        for impl in graph.indexes[file].impls
    )


def _named_here(graph: CallGraph, name: str, site_path: str) -> tuple[str, Definition] | None:
    """The struct or enum `name` means in the site's file: the one its file declares, else
    the one of the crate its `use` names (`cargo::CliError`), else the one of the site's
    crate (typst's `HintedString`, named through a `HintedStrResult<T>` alias). None when
    the file takes the name from another crate (risingwave's `use tonic::Status`, beside an
    `enum Status` in a fn of the same crate), or several are meant."""
    defined = graph.definitions("enum", name) + graph.definitions("struct", name)
    index = graph.indexes.get(site_path)
    heads = {u.path.split("::", 1)[0] for u in (index.uses if index else ()) if u.alias == name}
    crate = _crate(site_path)
    ours = {crate_name(_crate(p)) for p, _ in defined}
    if heads - {"crate", "self", "super"} - ours:
        return None  # imported from another crate (a type of the name here sits in a fn)
    here = [(p, d) for p, d in defined if p == site_path]
    if here:
        return here[0] if len(here) == 1 else None
    named = ours & heads
    here = [
        (p, d) for p, d in defined
        if crate_name(_crate(p)) in named or (not named and _crate(p) == crate)
    ]  # fmt: skip
    return here[0] if len(here) == 1 else None


def user_conversion(
    graph: CallGraph, error_class: str | None, site_path: str
) -> tuple[str | None, int | None]:
    """How the error type reaches a user: `impl From<X> for Status`, `IntoResponse`, `status_code()`.

    The type is the struct or enum of that name in the site's crate, else the repository's
    only one; the orphan rule puts a foreign trait's impl for it in its own crate, so only
    that crate is searched. An HTTP status only when the code names exactly one `StatusCode`.
    """
    if not error_class or error_class.split("::", 1)[0] in _FOREIGN_CRATES:
        return None, None  # `anyhow::Error` is not the repository's own `Error`
    name = inner_type(error_class)
    defined = graph.definitions("enum", name) + graph.definitions("struct", name)
    crate = _crate(site_path)
    home = {_crate(path) for path, _ in defined if _crate(path) == crate} or {
        _crate(path) for path, _ in defined
    }
    if len(home) != 1:
        return None, None
    (crate,) = home
    files = graph.crate_files(crate)
    near = ""
    mine = [path for path, _ in defined if _crate(path) == crate]
    if len(mine) > 1:
        # two types of the name in the crate (greptimedb's cli has `import_v2::error::Error`
        # and `export_v2::error::Error`, each with its `status_code`): the conversion of the
        # one the site's file means (its own, the one a `use` names, or the one whose
        # module it imports from: risingwave's `use crate::hummock::error::Result`), read
        # beside it; none when the file says nothing of it (reading 230: FALSE)
        meant_file = meant(graph, site_path, name, mine) or imported_from(graph, site_path, mine)
        if meant_file is None:
            return None, None
        near = posixpath.dirname(meant_file)
        files = [path for path in files if posixpath.dirname(path) == near]
    key = ("conversion", crate, name, near)
    if key not in graph.derived:
        graph.derived[key] = _conversion_in(graph, files, name)
    found: tuple[str | None, int | None] = graph.derived[key]
    return found


def made_status(
    graph: CallGraph, error_class: str | None, made_by: str, site_path: str
) -> tuple[str | None, int | None]:
    """The HTTP status of the variant or fn that makes a site's error, where the code names
    one: a match arm of a fn of the type that gives the variant one `StatusCode` (neon's
    `ApiError::into_response`: `ApiError::NotFound(_) => .. StatusCode::NOT_FOUND`), or a
    fn of the repository whose body names one (crates.io's `bad_request`, which calls
    `custom(StatusCode::BAD_REQUEST, ..)`). (where, status); (None, None) when the code
    shows none, or more than one."""
    owner, _, name = made_by.rpartition("::")
    owner = owner.rpartition("::")[2]
    if owner and name[:1].isupper():  # a variant: the type's arms, or its conversions'
        if error_class is not None and inner_type(error_class) not in (owner, ""):
            return None, None  # the fn returns another type: it converts the variant
        return _variant_status(graph, owner, name, site_path)
    codes = {
        (path, d.line, d.status_codes[0])
        for path, d in graph.definitions("fn", name)
        if (d.owner or "") == owner and len(d.status_codes) == 1
    }
    if len(codes) == 1:
        ((path, line, code),) = codes
        status = _http_status(code)
        where = f"`{made_by}` ({path}:{line})"
        return (where, status) if status is not None else (None, None)
    # `CollectionError::bad_input(..)`: the one variant of its own type the fn builds
    variant = _built_variant(graph, owner, name)
    if variant is None or (error_class is not None and inner_type(error_class) != owner):
        return None, None
    return _variant_status(graph, owner, variant, site_path)


MAX_CONVERSIONS = 3  # `From` conversions followed from a variant to the one that has a status
_THROUGH = ", then "  # how a status through a conversion or another type's arms reads


def _variant_status(
    graph: CallGraph, owner: str, variant: str, site_path: str, depth: int = 0
) -> tuple[str | None, int | None]:
    """The HTTP status of `owner::variant`: an arm of a fn of its type that gives it one, or
    of another type's fn that matches on it (qdrant's `HttpError::status_code`, over its
    `StorageError`), or else the status of the variant each `From` conversion of it makes
    (`impl From<CollectionError> for StorageError`: `CollectionError::NotFound` ->
    `StorageError::NotFound`), when all agree. (where, status); (None, None) otherwise."""
    key = ("status arms", owner)
    if key not in graph.derived:
        graph.derived[key] = _status_arms_of(graph, owner, site_path)
    arms: dict[str, tuple[str, int]] = graph.derived[key]
    found = arms.get(variant)
    # another type's arms and a `From` impl name the enum by its name alone: only an enum
    # the repository declares once is surely the one they mean (not two crates' `Error`s)
    if found is not None or depth >= MAX_CONVERSIONS or len(graph.definitions("enum", owner)) != 1:
        return found if found is not None else (None, None)
    found = _matched_elsewhere(graph).get(f"{owner}::{variant}")
    if found is not None:  # another type's fn answers it (a conversion names the variant)
        return (f"`{owner}::{variant}`{_THROUGH}{found[0]}" if not depth else found[0]), found[1]
    made = {
        (into, by, _variant_status(graph, *_split_variant(into), site_path, depth + 1))
        for into, by in _conversions(graph).get(f"{owner}::{variant}", ())
    }
    statuses = {status for _, _, (_, status) in made}
    if len(statuses) != 1 or None in statuses:
        return None, None  # none, or conversions that disagree
    into, by, (where, status) = min(made)
    return f"`{owner}::{variant}` -> `{into}` ({by}){_THROUGH}{where}", status


def _split_variant(named: str) -> tuple[str, str]:
    """`B::W` -> (`B`, `W`)."""
    enum, _, variant = named.rpartition("::")
    return enum, variant


def _matched_elsewhere(graph: CallGraph) -> dict[str, tuple[str, int]]:
    """`Enum::Variant` -> (where, status) from the arms of fns of another type that match
    on that enum (`elsewhere_arm_codes`) whose code is an HTTP status, where they agree."""
    table: dict[str, tuple[str, int]] | None = graph.derived.get("status arms elsewhere")
    if table is not None:
        return table
    seen: dict[str, set[tuple[str, int]]] = {}
    for named, code, where in elsewhere_arm_codes(graph):
        status = arm_http_status(code)
        if status is not None:
            seen.setdefault(named, set()).add((where, status))
    table = {named: min(found) for named, found in seen.items() if len({s for _, s in found}) == 1}
    graph.derived["status arms elsewhere"] = table
    return table


def _conversions(graph: CallGraph) -> dict[str, set[tuple[str, str]]]:
    """`A::V` -> {(`B::W`, `impl From<A> for B` (where))}: what each `From` impl's `from`
    makes of a variant (`Definition.variant_arms`)."""
    table: dict[str, set[tuple[str, str]]] | None = graph.derived.get("variant conversions")
    if table is not None:
        return table
    table = {}
    for path, index in graph.indexes.items():
        for d in index.definitions:
            if d.kind != "fn" or not d.variant_arms or not d.owner or not d.trait:
                continue
            for arm in d.variant_arms:
                taken, _, made = arm.partition(">")
                by = f"impl From<{taken.split('::', 1)[0]}> for {d.owner} ({path}:{d.line})"
                enum, _, variant = made.rpartition("::")
                into = f"{d.owner if enum == 'Self' else enum}::{variant}"
                table.setdefault(taken, set()).add((into, by))
    graph.derived["variant conversions"] = table
    return table


def _built_variant(graph: CallGraph, owner: str, name: str) -> str | None:
    """The one variant of `owner` the fn `owner::name` builds (`Self::BadInput { .. }`,
    `CollectionError::BadInput { .. }`), when it is one fn that builds one."""
    found = [(p, d) for p, d in graph.definitions("fn", name) if (d.owner or "") == owner]
    if len(found) != 1:
        return None
    ((path, definition),) = found
    index = graph.indexes[path]
    at = index.definitions.index(definition)
    built = {
        b.variant
        for b in index.builds
        if b.caller == at and b.variant and b.enum in ("Self", owner)
    }
    return built.pop() if len(built) == 1 else None


def _status_arms_of(graph: CallGraph, owner: str, site_path: str) -> dict[str, tuple[str, int]]:
    """Variant -> (where, status) from the match arms of the type's fns (`own_arm_codes`)
    whose code is an HTTP status, the first where two give one."""
    out: dict[str, tuple[str, int]] = {}
    for variant, code, where in own_arm_codes(graph, owner, site_path):
        status = arm_http_status(code)
        if status is not None:
            out.setdefault(variant, (where, status))
    return out


def arm_http_status(code: str) -> int | None:
    """The HTTP status an arm's code (`Definition.status_arms`: `StatusCode.NOT_FOUND`)
    is, None for another code (greptimedb's `StatusCode.InvalidArguments`, tonic's
    `Code.NotFound`)."""
    kind, _, name = code.rpartition(".")
    return _http_status(name) if kind == "StatusCode" and name.isupper() else None


def _http_status(name: str) -> int | None:
    """`NOT_FOUND` -> 404: `http::StatusCode`'s constant names, as Python's `HTTPStatus`
    writes them where the two agree."""
    known = _HTTP.get(name)
    if known is not None:
        return known
    try:
        return int(HTTPStatus[name])
    except KeyError:
        return None


def _conversion_in(
    graph: CallGraph, files: Sequence[str], name: str
) -> tuple[str | None, int | None]:
    """`user_conversion` of the type `name`, read in `files` (its crate's, or the site's
    module's)."""
    for path in files:
        index = graph.indexes[path]
        for impl in index.impls:
            trait = impl.trait or ""
            if (
                trait.startswith("From<")
                and inner_type(trait[5:-1]) == name
                and impl.type == "Status"
            ):
                return f"impl {trait} for {impl.type} ({path}:{impl.line})", None
            if impl.type == name and inner_type(trait) == "IntoResponse":
                codes = _codes(index.definitions, name, "IntoResponse")
                status = _HTTP.get(codes[0]) if len(codes) == 1 else None
                return f"impl IntoResponse for {name} ({path}:{impl.line})", status
            if impl.type == name and inner_type(trait) == "ResponseError":
                # actix-web's: its `status_code` says the status, 500 where the impl writes
                # none and makes no response of its own (activitypub's example `impl
                # ResponseError for Error {}`, reading 304: `httpStatus` was null)
                written = {d.name: d for d in index.definitions if d.kind == "fn"
                           and d.owner == name and inner_type(d.trait or "") == "ResponseError"}  # fmt: skip
                codes = (
                    list(written["status_code"].status_codes) if "status_code" in written else []
                )
                status = (
                    _HTTP.get(codes[0])
                    if len(codes) == 1
                    else 500
                    if not written.keys() & {"status_code", "error_response"}
                    else None
                )
                return f"impl ResponseError for {name} ({path}:{impl.line})", status
    for path in files:
        for d in graph.indexes[path].definitions:
            if d.kind == "fn" and d.owner == name and d.name in ("status_code", "http_status"):
                codes = list(d.status_codes)
                status = _HTTP.get(codes[0]) if len(codes) == 1 else None
                return f"{name}::{d.name} ({path}:{d.line})", status
    return None, None


def _codes(definitions: Sequence[Definition], owner: str, trait: str) -> list[str]:
    return [
        code
        for d in definitions
        if d.kind == "fn" and d.owner == owner and inner_type(d.trait or "") == trait
        for code in d.status_codes
    ]
