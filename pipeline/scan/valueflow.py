"""What a site's conditions need of its fn's parameters, carried up the callers' arguments.

A caller whose literal argument rules the site out is no way in: `to_json(id, false)` where
`if details` leads to the site, `None` where `if let Some(v) = opt` does, `Mode::Fast` where
the site is in the `Mode::Strict =>` arm of `match mode`. A caller that passes its own
parameter on (`load(details)`, `&mode`) hands the need to its own callers, up the walk:
`list_groups` -> `render(false)` -> `to_json(.., details)` is no way to the site either
(readings 180-183: "paths that cannot reach the site with the values they carry").

Only what the code shows for certain: a flag tested alone, an option tested, a plain
parameter matched against or compared with enum variants (`==`, `!=`, `matches!`), and an
argument that is such a literal or the caller's parameter as written. Anything else drops
the need (unknown), never the path. Pure.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Mapping, Sequence

from pipeline.core.brackets import first_outside_brackets, split_outside_brackets
from pipeline.core.index import GUARD_JOIN, Call, Definition
from pipeline.core.reach import PATH_DEPTH
from pipeline.core.sitetypes import Site
from pipeline.scan.callgraph import CallGraph, Edge

# A walk's need of a parameter's value (`buildable`'s needs are packages and `TYPED` slots):
# `VALUE + "details=true"`, `VALUE + "mode=in:Mode::Strict"`.
VALUE = "\0value:"
# How far up `rules_out_above` follows a need: the walk's own depth, few states.
_CHECK_STATES = 400

# What a condition needs of a plain name, by the condition's kind: held (`if`), or not
# (`else`, an early exit not taken, the check of an `assert!`/`ensure!` that fails: pingora's
# `disable(NoCacheReason::DeclinedToUpstream)` never fails `assert!(reason !=
# NoCacheReason::NeverEnabled)`, reading 322). `details`, `!details`, `opt.is_some()`.
_FLAG = re.compile(r"(!?)\s*\*?([a-z_][a-z0-9_]*)")
_OPTION_TEST = re.compile(r"([a-z_][a-z0-9_]*)\.is_(some|none)\(\)")
_SOME_BOUND = re.compile(r"let\s+Some\s*\(.*\)\s*=\s*&?\s*([a-z_][a-z0-9_]*)", re.S)
_HELD = {"if": True, "else": False, "exit": False, "if_let": True, "check_failed": False}
# `mode == Mode::Strict`, `Mode::Strict != mode`
_COMPARED = re.compile(
    r"(?:&|\*)?([a-z_]\w*)\s*(==|!=)\s*(.+)|(.+?)\s*(==|!=)\s*(?:&|\*)?([a-z_]\w*)"
)
_MATCHES = re.compile(r"(!?)\s*matches!\s*\(\s*(?:&|\*)?([a-z_]\w*)\s*,\s*(.+)\)", re.S)
_ARM = re.compile(r"match (?:&|\*)?([a-z_]\w*): (.+) =>", re.S)
_ANY_ARM = re.compile(r"match .+?: (.+) =>", re.S)  # an arm over any value
# an arm over a tuple of values: `match (a, b): (Some(_), None) =>`
_TUPLE_ARM = re.compile(r"match \(([^()]*)\): \((.*)\) =>", re.S)
_PLAIN_NAME = re.compile(r"(?:&\s*|\*)?([a-z_]\w*)")
_IF_LET = re.compile(r"let\s+(.+?)\s*=\s*(?:&|\*)?([a-z_]\w*)", re.S)
_LET_ELSE = re.compile(r"let (.+) = (?:&|\*)?([a-z_]\w*) did not match", re.S)
# A variant as a pattern or an argument: `Mode::Strict`, `Kind::Dir(..)`, `Some(x)`, `None`
_VARIANT = re.compile(r"&?\s*((?:[A-Za-z_]\w*::)*)([A-Z]\w*)\s*(?:\(.*\)|\{.*\})?", re.S)
_CAMEL = re.compile(r"[A-Z](?:[a-z0-9]\w*)?")  # a variant's name, not a `CONST`'s
_BOUND_NAME = re.compile(r"(?<![\w:.])([a-z_]\w*)\b(?!\s*[(:!])")
_CATCH_ALL = re.compile(r"_|[a-z_]\w*")  # `_ =>`, `other =>`
# a variant's payload that takes any value: none, `(_)`, `(x, ..)`, `{ .. }`
_ANY_PAYLOAD = re.compile(
    r"\s*(?:\(\s*(?:(?:ref\s+)?(?:mut\s+)?[a-z_]\w*|\.\.)"
    r"(?:\s*,\s*(?:(?:ref\s+)?(?:mut\s+)?[a-z_]\w*|\.\.))*\s*,?\s*\)|\{\s*(?:\.\.)?\s*\})?\s*"
)
_PASSED_ON = re.compile(r"(?:&\s*(?:mut\s+)?|\*)?([a-z_]\w*)(?:\.clone\(\))?")


def site_needs(site: Site) -> dict[str, str]:
    """`required_values` of a site's conditions, the arms each `match` arm comes after
    included: what a record's provenance keeps (`needs`) for its reach when it is carried."""
    conditions = site.facts.conditions
    return required_values(
        [c.kind for c in conditions],
        [c.text for c in conditions],
        site.facts.rebound,
        [c.excluded for c in conditions],
    )


def required_values(
    kinds: Sequence[str],
    conditions: Sequence[str],
    rebound: Sequence[str] = (),
    excluded: Sequence[Sequence[str]] = (),
) -> dict[str, str]:
    """What the conditions need of plain names for the site to be reached: `true`/`false`
    for a flag tested alone, `Some` (not `None`) or `None` for an option, `in:V|W` or
    `out:V|W` for a value matched or compared with variants; only conditions whose kind
    says whether they held (`if`, `if let`, `else`, an early exit not taken, a `match` arm,
    a `let .. else`). A name a pattern of an earlier condition binds again (`if let
    Some(mode) = mode`), or the fn binds again first (`rebound`), needs nothing of what a
    caller passes. `excluded`: each condition's arms tried before it (`Condition.excluded`):
    a catch-all arm (`_ =>`, a binding) is `out:` the variants they match."""
    out: dict[str, str] = {}
    bound: set[str] = set(rebound)
    for at, (kind, raw) in enumerate(zip(kinds, conditions, strict=False)):
        text = raw.strip()
        found = _needed(kind, text)
        if found is None and kind == "match_arm" and at < len(excluded):
            found = _past_arms(text, excluded[at])
        if found is not None and found[0] not in bound:
            out.setdefault(found[0], found[1])
        if found is None and kind in ("if", "if_let"):
            # `if !in_flashback && is_flashback && !skip_not_prepared`: each part held (tikv's
            # `validate_request` passes `skip_not_prepared = true`, reading 326)
            for part in _conjuncts(text):
                held = _needed(kind, part)
                if held is not None and held[0] not in bound:
                    out.setdefault(held[0], held[1])
        if found is None and kind == "match_arm":
            for name, need in _tuple_needs(text):
                if name not in bound:
                    out.setdefault(name, need)
        if kind == "match_arm" and at < len(excluded):
            for name, value in _guards_failed(text, excluded[at]):
                if name not in bound:
                    out.setdefault(name, value)
        bound |= _bound_by(kind, text)
    return out


def _conjuncts(text: str) -> list[str]:
    """The parts of a condition joined by `&&` outside brackets, each stripped; none when it
    has no `&&` there, or an `||` there (then no part need hold)."""
    if first_outside_brackets(text, "||") >= 0:
        return []
    parts = split_outside_brackets(text, "&&")
    return parts if len(parts) > 1 else []


def _needed(kind: str, text: str) -> tuple[str, str] | None:
    """The name a condition tests and the value it needs of it, when it says so plainly."""
    if kind == "match_arm":
        arm = _ARM.fullmatch(text)
        need = _arm_need(arm[2]) if arm is not None else None
        return (arm[1], need) if arm is not None and need is not None else None
    if kind == "let_else":
        let = _LET_ELSE.fullmatch(text)
        variants = _variants(let[1]) if let is not None else None
        return (let[2], "out:" + "|".join(variants)) if let is not None and variants else None
    held = _HELD.get(kind)
    if held is None:
        return None
    if kind == "if_let":
        return _let_need(text, matched=True)
    if not held and text.startswith("let "):
        # the `else` of `if let Some(context) = block_context`: `block_context` is `None`
        # (foundry's replay under it had been reached through a call passing `Some(..)`,
        # reading 323); of `if let Mode::A = mode`, none of the pattern's variants
        return _let_need(text, matched=False)
    flag = _FLAG.fullmatch(text)
    if flag is not None and flag[2] not in ("true", "false", "self"):
        return flag[2], "true" if held != bool(flag[1]) else "false"
    option = _OPTION_TEST.fullmatch(text)
    if option is not None:
        return option[1], "Some" if held == (option[2] == "some") else "None"
    return _compared(text, held)


def _let_need(text: str, matched: bool) -> tuple[str, str] | None:
    """What an `if let`'s pattern needs of the plain name it tests, where the pattern
    `matched` or did not: `Some`/`None` of `let Some(v) = name`, else `in:`/`out:` its
    variants."""
    bound = _SOME_BOUND.fullmatch(text)
    if bound is not None:
        return bound[1], "Some" if matched else "None"
    let = _IF_LET.fullmatch(text)
    variants = _variants(let[1]) if let is not None else None
    if let is None or not variants:
        return None
    return let[2], ("in:" if matched else "out:") + "|".join(variants)


def _compared(text: str, held: bool) -> tuple[str, str] | None:
    """`mode == Mode::Strict` (held: `in`, not held: `out`), `!=`, `matches!(mode, ..)`."""
    found = _MATCHES.fullmatch(text)
    if found is not None:
        variants = _variants(found[3], literals=True)
        inside = held != bool(found[1])
        return (found[2], ("in:" if inside else "out:") + "|".join(variants)) if variants else None
    compared = _COMPARED.fullmatch(text)
    if compared is None:
        return None
    name, operator, other = (
        compared.group(1, 2, 3) if compared[1] is not None else compared.group(6, 5, 4)
    )
    variants = _variants(other.strip(), literals=True)
    if not variants or len(variants) != 1:
        return None
    inside = held == (operator == "==")
    return name, ("in:" if inside else "out:") + variants[0]


def _past_arms(text: str, earlier: Sequence[str]) -> tuple[str, str] | None:
    """What a catch-all arm (`match mode: _ =>`, `other =>`) needs of the matched value: none
    of the variants the arms before it match (`out:`); None when one of those arms matches
    anything but variants, or none is unguarded (a guarded arm lets its variants on)."""
    arm = _ARM.fullmatch(text)
    if arm is None or not _CATCH_ALL.fullmatch(arm[2].strip()):
        return None
    variants: list[str] = []
    for pattern in earlier:
        if " if " in f" {pattern} ":
            continue
        found = _variants(pattern, literals=True)
        if found is None:
            return None
        variants += found
    return (arm[1], "out:" + "|".join(variants)) if variants else None


def _guards_failed(text: str, earlier: Sequence[str]) -> list[tuple[str, str]]:
    """What the guards of the arms before a `match` arm need of plain names, where such an
    arm's pattern takes every value this one does: its guard did not hold. risingwave's
    `Reconnecting(_) if !poll_reconnect => continue` before `Reconnecting(handle) =>`: the
    site's arm is taken only with `poll_reconnect` true (reading 202), which
    `next_response`'s `false` rules out."""
    arm = _ARM.fullmatch(text)
    if arm is None:
        return []
    mine = _variants(arm[2].split(" if ")[0])
    out = []
    for pattern in earlier:
        head, guarded, guard = pattern.partition(" if ")
        if not guarded or not _takes_all(head.strip(), mine):
            continue
        need = _needed("else", guard.strip())
        if need is not None and need[0] not in _BOUND_NAME.findall(head):
            out.append(need)
    return out


def _takes_all(pattern: str, variants: list[str] | None) -> bool:
    """Whether an arm's pattern takes every value of `variants` (an arm's, None for a
    catch-all): `_` and a binding take all; `V(_)`, `V(x, ..)`, `V { .. }` all of `V`."""
    if _CATCH_ALL.fullmatch(pattern):
        return True
    if variants is None or len(variants) != 1 or _variant(pattern) != variants[0]:
        return False
    found = _VARIANT.fullmatch(pattern)
    payload = pattern[found.end(2) :] if found is not None else ""
    return _ANY_PAYLOAD.fullmatch(payload) is not None


def _tuple_needs(text: str) -> list[tuple[str, str]]:
    """What an arm over a tuple of names needs of each (`match (shard_id, shard_key):
    (Some(_), Some(_)) =>`: both `in:Some`; qdrant's `search_batch` passes `None` for the
    first, reading 240): an element's own `_arm_need`; none for `_` or a binding there, nor
    for a guarded arm or an or-pattern of tuples."""
    found = _TUPLE_ARM.fullmatch(text)
    if found is None or " if " in f" {found[2]} ":
        return []
    names = [n for n in split_outside_brackets(found[1], ",") if n]
    patterns = [p for p in split_outside_brackets(found[2], ",") if p]
    if len(names) != len(patterns) or first_outside_brackets(found[2], "|") >= 0:
        return []
    out = []
    for name, pattern in zip(names, patterns, strict=True):
        plain = _PLAIN_NAME.fullmatch(name)
        need = (
            _arm_need(pattern) if plain is not None and not _CATCH_ALL.fullmatch(pattern) else None
        )
        if plain is not None and need is not None:
            out.append((plain[1], need))
    return out


def _arm_need(pattern: str) -> str | None:
    """What a `match` arm's pattern needs of the matched value: `in:` its variants; None
    for a guarded arm (its guard decides too), a binding or `_` (see `excluded`), or a
    pattern of anything but variants."""
    if " if " in f" {pattern} ":
        return None
    variants = _variants(pattern, literals=True)
    return "in:" + "|".join(variants) if variants else None


def arm_variants(text: str) -> list[str] | None:
    """The variants a `match` arm condition's pattern names, its guard left aside, whatever
    it matches (`match stmt: Statement::AlterView { .. } =>`, `match self.kind: ..`)."""
    arm = _ANY_ARM.fullmatch(text.strip())
    return _variants(arm[1].split(" if ")[0]) if arm is not None else None


def _variants(pattern: str, literals: bool = False) -> list[str] | None:
    """The variants a pattern's alternatives name (`Mode::A | Mode::B(..)` -> both); None
    unless every alternative is a variant (`literals`: or a plain string or integer literal,
    `"kv" | "raft"`, a value a need can name as it names a variant)."""
    out = []
    for alternative in split_outside_brackets(pattern.strip(), "|"):
        variant = _variant(alternative) or (_literal(alternative) if literals else None)
        if variant is None:
            return None
        out.append(variant)
    return out or None


# a literal a need can name: a string of no `|`, quote or escape in it, a plain integer
_LITERAL = re.compile(r'"[^"|\\:=]*"|-?[0-9][0-9_]*')


def _literal(text: str) -> str | None:
    """`"kv"`, `0`: a literal a `match` arm or a comparison names, as written; None else."""
    text = text.strip()
    return text if _LITERAL.fullmatch(text) else None


def pattern_variant(pattern: str) -> str | None:
    """The one variant a pattern names (`FindError::UnknownCommand(cmd)` ->
    `FindError::UnknownCommand`, a bare `UnknownCommand { .. }` -> `UnknownCommand`); None
    for alternatives, a binding or anything else."""
    found = _variants(pattern)
    return found[0] if found is not None and len(found) == 1 else None


def _variant(text: str) -> str | None:
    """`Mode::Strict` of `&Mode::Strict`, `Mode::Strict(..)`, `Mode::Strict { .. }`; None for
    anything else (a binding, a call of a fn, a `CONST`)."""
    found = _VARIANT.fullmatch(text.strip())
    if found is None or not _CAMEL.fullmatch(found[2]):
        return None
    segments = found[1].split("::")[:-1]
    enum = segments[-1] if segments else ""
    return f"{enum}::{found[2]}" if enum else found[2]


def _bound_by(kind: str, text: str) -> set[str]:
    """The names a condition's pattern binds (`if let Some(mode) = ..`, an arm's `Ok(v) =>`)."""
    if kind == "if_let":
        let = _IF_LET.fullmatch(text)
        return set(_BOUND_NAME.findall(let[1])) if let is not None else set()
    if kind == "match_arm":
        arm = _ARM.fullmatch(text)
        pattern = arm[2] if arm is not None else text.removesuffix("=>")
        return set(_BOUND_NAME.findall(pattern.split(" if ")[0]))
    return set()


def verdict(argument: str, value: str) -> bool | None:
    """Whether an argument is the value a need asks for: True (it meets it), False (it
    contradicts it), None when it is no literal the need can be told by (a name, a call, a
    variant of another enum or written otherwise: `_same`)."""
    if value in ("true", "false"):
        return argument == value if argument in ("true", "false") else None
    given = _variant(argument) or _literal(argument)
    if given is None:
        return None
    if value in ("Some", "None"):
        return given == value if given in ("Some", "None") else None
    side, _, listed = value.partition(":")
    told = [_same(given, v) for v in listed.split("|")]
    if any(t is None for t in told):
        return None  # not comparable: the types differ from what the names say
    return any(told) if side == "in" else not any(told)


def _same(given: str, wanted: str) -> bool | None:
    """Whether two variants are one (`Mode::A`, `Self::A`, `A`); None when they cannot be
    told apart by name: one is written with its enum and the other not, or the enums
    differ (then the value is converted on the way: no claim)."""
    if (_literal(given) is None) != (_literal(wanted) is None):
        return None  # a literal and a variant: a conversion on the way, no claim
    enum, _, name = given.rpartition("::")
    other, _, other_name = wanted.rpartition("::")
    if bool(enum) != bool(other):
        return None
    if enum and other and enum != other and "Self" not in (enum, other):
        return None
    return name == other_name


def guard_needs(graph: CallGraph, edge: Edge) -> frozenset[str]:
    """What the `if` around an edge's call needs of its caller's parameters (`Call.guard`):
    quickwit's `compute_merge_ops(is_finalize)` calls `operations()` only `else`, so a walk
    up through that call needs `is_finalize` false, which `send_merge_ops(true)` rules out
    (recheck 251). None of a name the caller binds again (a `let`, an arm, a loop)."""
    call = edge.call
    if call is None or not call.guard:
        return frozenset()
    known: dict[int, frozenset[str]] = graph.derived.setdefault("guard needs", {})
    key = id(edge)  # the graph's edges live as long as it
    found = known.get(key)
    if found is None:
        found = known[key] = _guard_needs(graph, edge, call.guard)
    return found


def _guard_needs(graph: CallGraph, edge: Edge, guard: str) -> frozenset[str]:
    kind, _, text = guard.partition(GUARD_JOIN)
    found = _needed(kind, text)
    if found is None:
        return frozenset()
    name, value = found
    caller = graph.nodes[edge.caller]
    if name not in {p for p, _ in caller.definition.params}:
        return frozenset()
    if name in _bound_names(graph, edge.caller):
        return frozenset()  # bound again in the fn: not the value passed
    return frozenset((f"{VALUE}{name}={value}",))


def _bound_names(graph: CallGraph, fn: int) -> frozenset[str]:
    """The names the fn's `let`s, arms and loops bind, read off its file's index once per
    graph and fn (every walk through a guarded call asks)."""
    known: dict[int, frozenset[str]] = graph.derived.setdefault("bound names", {})
    found = known.get(fn)
    if found is None:
        index = graph.indexes.get(graph.nodes[fn].path)
        at = graph.keys()[fn][1]
        locals_ = index.locals if index is not None else ()
        found = known[fn] = frozenset(local.name for local in locals_ if local.caller == at)
    return found


def value_needs(graph: CallGraph, node_id: int, required: Mapping[str, str]) -> frozenset[str]:
    """The walk's needs of the fn's parameters, from what its site requires."""
    params = {p for p, _ in graph.nodes[node_id].definition.params}
    return frozenset(f"{VALUE}{name}={value}" for name, value in required.items() if name in params)


def arguments(call: Call, callee: Definition) -> tuple[str, ...]:
    """A call's arguments, one per parameter of the fn `callee` (`params`, no `self`): a
    method called by its path passes its receiver first (pingora's `S::start_service(self,
    fds, ..)`: `fds` is the second argument, not the first; reading 201)."""
    args = call.args
    if callee.has_self and call.kind == "path" and len(args) == len(callee.params) + 1:
        return args[1:]
    return args


def values_above(graph: CallGraph, edge: Edge, below: frozenset[str]) -> frozenset[str] | None:
    """The value needs of `edge`'s caller, given its callee's (`below`, other needs ignored):
    None when an argument of the call rules the callee's needs out; a need met by a literal
    is gone, one the caller's own parameter is passed for is that parameter's now, and any
    other argument (or a call whose arguments are not one per parameter) drops it."""
    if edge.call is None:
        return frozenset()
    known: dict[tuple[int, frozenset[str]], frozenset[str] | None]
    known = graph.derived.setdefault("values above", {})
    key = (id(edge), below)  # the graph's edges live as long as it
    if key in known:
        return known[key]
    found = known[key] = _values_above(graph, edge, below)
    return found


def _values_above(graph: CallGraph, edge: Edge, below: frozenset[str]) -> frozenset[str] | None:
    mine: set[str] | None = None
    out: list[str] = []
    for value, argument, _, told in _argument_verdicts(graph, edge, below):
        if told is False:  # a literal that rules the callee's need out
            return None
        if told:  # one that meets it: no need above
            continue
        passed = _PASSED_ON.fullmatch(argument)
        if passed is None:
            continue
        if mine is None:
            mine = {p for p, _ in graph.nodes[edge.caller].definition.params}
        if passed[1] in mine:  # a fn passing it on to itself keeps it: the same state
            out.append(f"{VALUE}{passed[1]}={value}")
    return frozenset(out)


def ruling_argument(graph: CallGraph, edge: Edge, below: frozenset[str]) -> str | None:
    """The argument of `edge`'s call that rules its callee's value needs out (`"kv"`, for
    `name` out of `"kv"|"raft"`), as written; None when none does."""
    verdicts = _argument_verdicts(graph, edge, below)
    return next((shown for _, _, shown, told in verdicts if told is False), None)


def _argument_verdicts(
    graph: CallGraph, edge: Edge, below: frozenset[str]
) -> Iterator[tuple[str, str, str, bool | None]]:
    """For each value need of `below` on a parameter of `edge`'s callee, in order: the value
    needed, the argument the call passes for it, that argument as it is judged (the variant
    a `let` built for it, else itself), and whether it meets the need (`verdict`). Nothing
    when the call's arguments are not one per parameter."""
    if edge.call is None:
        return
    callee = graph.nodes[edge.callee].definition
    params = [p for p, _ in callee.params]
    args = arguments(edge.call, callee)
    if len(args) != len(params):
        return
    for need in sorted(below):
        if not need.startswith(VALUE):
            continue
        name, _, value = need[len(VALUE) :].partition("=")
        if name not in params:
            continue
        argument = args[params.index(name)].strip()
        told, shown = verdict(argument, value), argument
        if told is None and (built := _built_local(graph, edge, argument)) is not None:
            # `let stream_job = StreamingJob::Source(..); create_streaming_job(stream_job)`:
            # the variant the caller built, as if written at the call (risingwave's
            # `create_source` never reaches the `StreamingJob::Sink` arm, reading 202)
            told, shown = verdict(built, value), built
        yield value, argument, shown, told


def _built_local(graph: CallGraph, edge: Edge, argument: str) -> str | None:
    """The variant a caller's `let` built for a plain name it passes (`Enum::Variant`), when
    the fn binds that name once, above the call's line, in its own body (not in a block
    that ends before the call); None otherwise, or for a name the caller was given."""
    passed = _PASSED_ON.fullmatch(argument)
    if passed is None:
        return None
    caller = graph.nodes[edge.caller]
    if passed[1] in {p for p, _ in caller.definition.params}:
        return None
    index = graph.indexes.get(caller.path)
    if index is None:
        return None
    at = graph.keys()[edge.caller][1]
    bound = [local for local in index.locals if local.caller == at and local.name == passed[1]]
    if len(bound) != 1:
        return None  # bound again (a `match` arm, a shadowing `let`): not told here
    (local,) = bound
    if not local.variant or local.line > edge.line or (local.end and local.end < edge.line):
        return None
    return local.variant


def rules_out_above(graph: CallGraph, node_id: int, needs: frozenset[str]) -> bool:
    """Whether some call on the way up from the fn rules its value needs out (`values_above`
    None): if none does, the walk with them is the plain walk, kept once per fn."""
    if not needs:
        return False
    queue = deque([(node_id, needs, 0)])
    seen = {(node_id, needs)}
    while queue and len(seen) < _CHECK_STATES:
        fn, held, depth = queue.popleft()
        for edge in graph.callers.get(fn, ()):
            above = values_above(graph, edge, held)
            if above is None:
                return True
            state = (edge.caller, above)
            if above and depth + 1 < PATH_DEPTH and state not in seen:
                seen.add(state)
                queue.append((edge.caller, above, depth + 1))
    return False
