"""Static facts about a site from its syntax tree: where it is, and the conditions that reach it."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from tree_sitter import Node

from pipeline.core.index import Use
from pipeline.core.macros import in_force
from pipeline.core.sitetypes import EARLIER_STEPS, Condition, ConditionKind, Facts, Site
from pipeline.languages.rust.codecheck import rust_parser
from pipeline.languages.rust.drops import discarded_in, ignored_error
from pipeline.languages.rust.errorfields import cause_field, debug_only_fields
from pipeline.languages.rust.index_items import (
    ATTRIBUTE_SIBLINGS,
    DIVERGING_MACROS,
    attributes_before,
    flatten_use,
    leading,
    text_of,
)
from pipeline.languages.rust.logic import pattern_names
from pipeline.languages.rust.statefield import field_state

MAX_CONDITION_CHARS = 160
MAX_GUARDS = 3  # earlier `ensure!`/early-return guards of the same fn worth naming
_SPACES = re.compile(r"\s+")
_CHAIN_BREAK = re.compile(r"\n\s*\.(?=[A-Za-z_])")
# Check macros -> how many leading arguments are the check (`assert_eq!(a, b, ..)` checks
# `a == b`); the message, if any, follows them.
CHECK_OPERANDS = {
    "ensure": 1, "assert": 1, "debug_assert": 1,
    "assert_eq": 2, "assert_ne": 2, "debug_assert_eq": 2, "debug_assert_ne": 2,
}  # fmt: skip
_FN_TYPES = ("function_item", "function_signature_item")


def site_facts(node: Node, source: bytes) -> Facts:
    """Enclosing fn, impl, doc comment, return type and condition chain of the site at `node`.

    `source` (the file's bytes) only lets the guard search skip fns with no check in them.
    """
    function = _ancestor(node, _FN_TYPES)
    impl = _impl_of(function or node)
    chain = condition_chain(node, function, source)
    conditions = (*chain, *_option_tested(_receiver_failure(node, source), chain))
    facts = Facts(
        enclosing_fn=_field_text(function, "name"),
        enclosing_impl=_impl_name(impl),
        fn_doc=doc_comment(function) if function is not None else None,
        return_type=_own_types_written(_field_text(function, "return_type"), function)
        or _stream_items(function),
        conditions=conditions,
        receiver=_receiver(node),
        callee=_callee(node),
        generics=_type_parameters(function, impl),
        spawned=_spawned_in(node, function),
        parsed_by=_parsed_by(node, function),
        generated=_generated_by(node),
        discarded=discarded_in(node, function),
        gates=cfg_gates(node),
        ignored_error=ignored_error(node, function),
        rebound=rebound_parameters(node, function, conditions),
        unwrapped=_unwrapped(node),
        wrapped_in=_wrapped_in(node),
        reported_to=_reported_to(node),
    )
    if node.type == "attribute_item":
        facts = _with_error_type(facts, node)
    return facts


# Macros whose tokens are code a procedural macro writes out (`quote`'s and `syn`'s)
_QUOTING = frozenset(("quote", "quote_spanned", "parse_quote", "parse_quote_spanned"))


def _generated_by(node: Node) -> str | None:
    """The quoting macro, as `quote!`, whose tokens hold the site (the site's node, or the
    macro invocation a token tree's site is read from, `macrotrees`), within its fn; None
    for code the fn runs itself."""
    current: Node | None = node
    while current is not None and current.type not in _FN_TYPES:
        if current.type == "macro_invocation":
            name = (_field_text(current, "macro") or "").rsplit("::", 1)[-1]
            if name in _QUOTING:
                return f"{name}!"
        current = current.parent
    return None


def _impl_of(node: Node) -> Node | None:
    """The impl or trait block a fn (or a site in no fn) is declared in, if any."""
    # a fn declared in another fn's body is a free fn of that body, whatever impl is around
    # (cargo's `parse_option_bool` in `CliUnstable::add`, read as `CliUnstable::
    # parse_option_bool`, reading 183)
    impl = _ancestor(node, ("impl_item", "trait_item", "function_item"))
    return impl if impl is not None and impl.type != "function_item" else None


def with_field_state(site: Site, node: Node, source: bytes) -> Site:
    """`site`, its conditions final (an assertion's check added), with the one field of
    `self` they read alone, its setters and its getter (`statefield`), where they read one."""
    conditions = site.facts.conditions
    if not any("self" in c.text for c in conditions):
        return site
    state = field_state(conditions, _impl_of(_ancestor(node, _FN_TYPES) or node), source)
    if state is None:
        return site
    facts = replace(
        site.facts, state_field=state.field, state_setters=state.setters, state_getter=state.getter
    )
    return replace(site, facts=facts)


def _diverges(body: Node | None) -> bool:
    """Whether a match arm's body fails and never goes on past it (`_leaving`: a panic,
    `unimplemented!()`, a `bail!` of another error, a `return Err(..)`), alone or as its
    block's last statement; or its value is an `Err(..)` (quickwit's `validate_update`,
    whose `match` is the fn's value: `(current, new) if .. => Err(anyhow!(..))`, reading 172)."""
    last = _arm_value(body)
    if last is None:
        return False
    if last.type == "call_expression" and _ERR_VALUE.match(_node_text(last)):
        return True
    return _leaving(last) == "ensure"


def _arm_value(body: Node | None) -> Node | None:
    """What a match arm's body comes to: itself, or its block's last statement."""
    if body is not None and body.type == "block":
        return body.named_children[-1] if body.named_child_count else None
    return body


def _branch_fails(branch: Node | None) -> bool:
    """Whether the other branch of an `if` fails as well (`_diverges`): a block, or an
    `else if` all of whose branches fail, its `else` included (qdrant's `if
    status.is_server_error() { Err(..) } else if status.is_client_error() { Err(..) } else {
    Err(..) }`: no branch goes on)."""
    if branch is not None and branch.type == "else_clause":
        branch = branch.named_children[-1] if branch.named_child_count else None
    if branch is None:
        return False
    if branch.type == "if_expression":
        consequence = branch.child_by_field_name("consequence")
        alternative = branch.child_by_field_name("alternative")
        return _diverges(consequence) and _branch_fails(alternative)
    return _diverges(branch)


def _fails_later(arm: Node, own: list[str]) -> bool:
    """Whether an arm after `arm` fails too (`_diverges`), leaving out those whose gates
    exclude `arm`'s (`_exclusive`)."""
    later = arm.next_named_sibling
    while later is not None:
        if (
            later.type == "match_arm"
            and later.child_by_field_name("pattern") is not None
            and not (own and _exclusive(own, _own_gates(later)))
            and _diverges(later.child_by_field_name("value"))
        ):
            return True
        later = later.next_named_sibling
    return False


def rebound_parameters(
    node: Node, function: Node | None, conditions: Sequence[Condition]
) -> tuple[str, ...]:
    """The fn's parameters the conditions name that a `let` before the site binds again
    with another value (neon's `let key = clean_utf8(&Utf8PathBuf::from(key));`: the
    check `key.starts_with("..")` then reads a path, not the `&str` a caller passes,
    reading 138). A copy (`let key = key.clone();`, `.to_string()`) is the same value."""
    if function is None:
        return ()
    named = {word for c in conditions for word in _WORD.findall(c.text)}
    if node.type == "macro_invocation" and _ASSERTING.match(_field_text(node, "macro") or ""):
        # `assert!(!path.has_root(), ..)`: its own test, which the site's conditions get
        # after (ripgrep's `let mut path = self.strip(path.as_ref());` above it, reading 315)
        tokens = next((c for c in node.named_children if c.type == "token_tree"), None)
        named |= set(_WORD.findall(_node_text(tokens))) if tokens is not None else set()
    if not named:
        return ()
    parameters = function.child_by_field_name("parameters")
    wanted = {
        _node_text(pattern)
        for parameter in (parameters.named_children if parameters is not None else ())
        if parameter.type == "parameter"
        and (pattern := parameter.child_by_field_name("pattern")) is not None
        and pattern.type == "identifier"
    } & named
    found: list[str] = []
    child, parent = node, node.parent
    while wanted and parent is not None and parent != function:
        if parent.type == "block":
            for statement in parent.named_children:
                if statement.start_byte >= child.start_byte:
                    break
                if statement.type == "let_declaration":
                    for name in _rebinds(statement, wanted):
                        wanted.discard(name)
                        found.append(name)
        child, parent = parent, parent.parent
    return tuple(sorted(found))


_WORD = re.compile(r"[A-Za-z_]\w*")
# the macros whose first tokens are the site's own test (`assert!(cond, ..)`, `ensure!(..)`)
_ASSERTING = re.compile(r"(?:\w+::)*(?:(?:debug_)?assert(?:_eq|_ne)?|ensure)$")
# `let key = key;`, `key.clone()`, `key.to_string()`, `path.as_ref()`, `name.into()`: the
# value a caller passed, as it was (cargo's `write_atomic` takes `path.as_ref()` of its
# `P: AsRef<Path>`, tauri's `permission` the `.into()` of its `impl Into<String>`)
_SAME_VALUE = re.compile(
    r"[*&]?\s*(\w+)(?:\.(?:clone|to_string|to_owned|as_ref|as_str|as_path|borrow|into)\(\))?"
)


def _rebinds(statement: Node, wanted: set[str]) -> list[str]:
    """The wanted names a `let` binds to another value than the one of that name."""
    pattern = statement.child_by_field_name("pattern")
    if pattern is None:
        return []
    value = statement.child_by_field_name("value")
    same = _SAME_VALUE.fullmatch(_node_text(value)) if value is not None else None
    return [
        name
        for name in sorted(pattern_names(_node_text(pattern)) & wanted)
        if not (same is not None and same[1] == name)
    ]


def fn_conditions(node: Node, source: bytes) -> list[Condition]:
    """`condition_chain` from the fn that holds `node` (where an error value is built)."""
    return condition_chain(node, _ancestor(node, _FN_TYPES), source)


def condition_chain(node: Node, stop: Node | None, source: bytes) -> list[Condition]:
    """The `if`/`else`/`match`/`let-else`/closure conditions from `stop` down to `node`."""
    chain: list[Condition] = []
    child = node
    parent = node.parent
    while parent is not None and parent != stop:
        step = _condition_step(parent, child)
        if step is not None:
            chain.append(step)
        child, parent = parent, parent.parent
    # outermost first where two share a line (crates.io's `Ok(opt) => opt.ok_or_else(|| ..)`:
    # the arm binds `opt` before the closure reads it, reading 142)
    chain.reverse()
    if _may_have_guards(source, stop, node):
        chain.extend(_guards_before(node, stop))
    chain.sort(key=lambda c: (c.line, c.kind != "ensure"))
    return chain


def _condition_step(parent: Node, child: Node) -> Condition | None:
    kind = parent.type
    if kind == "if_expression":
        condition = parent.child_by_field_name("condition")
        consequence = parent.child_by_field_name("consequence")
        if condition is None or child == condition:
            return None
        step: ConditionKind = "if_let" if condition.type == "let_condition" else "if"
        negated = consequence is not None and child != consequence
        other = consequence if negated else parent.child_by_field_name("alternative")
        return Condition(
            "else" if negated else step,
            _clip(condition),
            _line(condition),
            negated,
            fails_later=_branch_fails(other),
        )
    if kind == "match_arm":
        pattern = parent.child_by_field_name("pattern")
        match = _ancestor(parent, ("match_expression",))
        value = match.child_by_field_name("value") if match is not None else None
        if pattern is None or child == pattern:
            return None
        scrutinee = f"match {_clip(value)}: " if value is not None else ""
        earlier = []  # the arms tried first: this one is taken only when none of them matched
        diverging = []  # of those, the ones that only panic or bail
        gated = []  # of those, the gate of each ("" for an arm every build has)
        own = _own_gates(parent)  # an arm's gates exclude another's only if it has some
        arm = parent.prev_named_sibling
        while arm is not None:
            arm_gates = _own_gates(arm) if arm.type == "match_arm" else []
            if (
                arm.type == "match_arm"
                and (arm_pattern := arm.child_by_field_name("pattern"))
                and not (own and _exclusive(own, arm_gates))
            ):
                earlier.append(_clip(arm_pattern))
                gated.append(" and ".join(g for g in arm_gates if g not in own))
                if _diverges(arm.child_by_field_name("value")):
                    diverging.append(earlier[-1])
            arm = arm.prev_named_sibling
        return Condition(
            "match_arm",
            f"{scrutinee}{_clip(pattern)} =>",
            _line(pattern),
            excluded=tuple(reversed(earlier)),
            diverging=tuple(reversed(diverging)),
            fails_later=_fails_later(parent, own),
            excluded_gates=tuple(reversed(gated)) if any(gated) else (),
        )
    if kind == "let_declaration" and child == parent.child_by_field_name("alternative"):
        pattern = parent.child_by_field_name("pattern")
        value = parent.child_by_field_name("value")
        text = f"let {_clip(pattern)} = {_clip(value)} did not match"
        return Condition("let_else", text, _line(parent), negated=True)
    if kind in ("while_expression", "for_expression", "loop_expression"):
        head = parent.child_by_field_name("condition") or parent.child_by_field_name("value")
        if kind == "for_expression" and child != parent.child_by_field_name("body"):
            # the iterable of a `for` is made once, before the first turn: not inside the
            # loop (mdBook's `for entry in fs::read_dir(dir).with_context(..)?`, reading 114)
            return None
        loop_kind: ConditionKind = "while" if kind == "while_expression" else "loop"
        return Condition(loop_kind, _clip(head) if head is not None else "loop", _line(parent))
    if kind == "closure_expression":
        call = _method_outcome(parent.parent, given=parent) or _read_value(parent)
        if call is not None:
            return Condition("closure", call, _line(parent))
    if kind == "arguments" and child.type != "closure_expression":
        # `x.ok_or(E::FieldNotFound(..))`: the error is built eagerly, but only a `None`
        # returns it
        call = _method_outcome(parent, eager=True, given=child)
        if call is not None:
            return Condition("closure", call, _line(child))
    return None


# An environment variable's read, whose `Result` a combinator's closure gets the value of.
# `.as_deref()`, `.as_ref()` keep its outcome (polars' `env::var("X").as_deref().map(|x| ..)`);
# an `.ok()` among them makes it an `Option`.
_ENV_READ = re.compile(
    r'^(?:(?:std::)?env::)?var(?:_os)?\(\s*"_*[A-Z][A-Z0-9_]*"\s*\)((?:\.(?:ok|as_deref|as_ref)\(\))*)$'
)
# The combinators whose closure runs on the value (at this argument), not on the error.
_ON_THE_VALUE = {"map": 0, "and_then": 0, "inspect": 0, "is_ok_and": 0, "is_some_and": 0,
                 "map_or": 1, "map_or_else": 1}  # fmt: skip


def _read_value(closure: Node) -> str | None:
    """`env::var("X").map_or(8, |v| ..)` -> "`env::var("X")` was Ok (map_or)", for the
    closure that gets the value: inside it the variable is set (and `v` is its value). Only
    an environment read, whose value is a `Result`: the same call on an iterator runs for
    each item, on nothing that was Ok."""
    arguments = closure.parent
    call = arguments.parent if arguments is not None else None
    if arguments is None or arguments.type != "arguments" or call is None:
        return None
    function = call.child_by_field_name("function")
    if function is None or function.type != "field_expression":
        return None
    at = _ON_THE_VALUE.get(_field_text(function, "field") or "")
    receiver = function.child_by_field_name("value")
    read = _ENV_READ.match(_clip(receiver)) if receiver is not None else None
    if at is None or read is None:
        return None
    if at >= arguments.named_child_count or arguments.named_children[at] != closure:
        return None
    got = "was Some" if ".ok()" in read.group(1) else "was Ok"  # `env::var("X").ok().map(|v| ..)`
    return f"{read.group()} {got} ({_field_text(function, 'field')})"


# The calls that run a closure or future as a task of its own: tokio's, std's, async-std's,
# smol's, a runtime handle's or a `JoinSet`'s `spawn`, `spawn_blocking`, `spawn_local`.
_SPAWNS = frozenset(("spawn", "spawn_blocking", "spawn_local"))


def _spawned_in(node: Node, function: Node | None) -> str | None:
    """The spawn call (as written: `tokio::spawn`, `self.runtime.spawn`) that the innermost
    closure or async block holding `node` is handed to, within `function`; None when none is
    (a closure run in place, `map_err(|e| ..)`, is part of its fn's own run). yazi's
    `tokio::spawn(async move { .. bail!(..) })` in `Rename::act`: the error is the task's
    output, not `act`'s (reading 107)."""
    for _, callee, name in _handed_over(node, function):
        return _clip(callee) if name in _SPAWNS and callee is not None else None
    return None


# clap's builder methods that take a closure checking an option's value (`validator`: clap
# 2 and 3). Not `try_map`: winnow's and nom's parser combinators have one too (risingwave's
# SQL parser read as clap's check)
_VALUE_CHECKS = frozenset(("value_parser", "validator", "validator_os"))


def _parsed_by(node: Node, function: Node | None) -> str | None:
    """The clap call (as written: `.value_parser(..)`) that a closure holding `node` is
    handed to, within `function`; None when none is (a closure of the check's own chain,
    `.and_then(|v| ..)`, runs inside it). bat's `--terminal-width`: `Arg::new("terminal-
    width").value_parser(|t: &str| { .. Err("terminal width cannot be zero".into()) })` in
    `build_app`, which returns a `Command`: clap runs the closure on the value given, prints
    "invalid value .." with its error and exits (reading 300)."""
    for kind, callee, name in _handed_over(node, function):
        method = callee is not None and callee.type == "field_expression"
        if kind == "closure_expression" and method and name in _VALUE_CHECKS:
            return f"`.{name}(..)`"
    return None


def _handed_over(
    node: Node, function: Node | None
) -> Iterator[tuple[str, Node | None, str | None]]:
    """Each closure or async block holding `node` within `function` that is not run in place
    (`runs_in_place`), innermost first: its kind, the callee of the call it is an argument of
    (None when it is none's), and that callee's name (a method's, or a path's last)."""
    current = node.parent
    while current is not None and current != function:
        if current.type == "closure_expression" and runs_in_place(current):
            current = current.parent
            continue
        if current.type in ("closure_expression", "async_block"):
            holder = current.parent
            call = holder.parent if holder is not None and holder.type == "arguments" else None
            callee = call.child_by_field_name("function") if call is not None else None
            if callee is not None and callee.type == "field_expression":
                name = _field_text(callee, "field")
            elif callee is not None and callee.type in ("scoped_identifier", "identifier"):
                name = _node_text(callee).rsplit("::", 1)[-1]
            else:
                name = None
            yield current.type, callee, name
        current = current.parent


def runs_in_place(closure: Node) -> bool:
    """Whether a closure is the argument of a method that runs it where it is called, when
    the value failed (`x.unwrap_or_else(|_| panic!(..))`, `map_err`, `ok_or_else`,
    `with_context`, `wrap_err_with`: a site in it runs when its fn does; not `map`, `spawn`,
    which run it later)."""
    return _method_outcome(closure.parent, given=closure) is not None


def _method_outcome(
    arguments: Node | None, eager: bool = False, given: Node | None = None
) -> str | None:
    """`x.ok_or_else(|| ..)` -> "`x` was None/Err (ok_or_else)", given the call's arguments
    and the argument `given` (a closure; with `eager`, an argument that is no closure, of
    the methods that take their error so: `x.ok_or(E)`, `x.map_or(Err(E), Ok)`).
    `map_or_else`/`map_or` run their first argument on a `None` or an `Err`, their second
    on the value (gitui's `x.map_or_else(|| Err(Error::Generic("invalid hunk")), Ok)`)."""
    call = arguments.parent if arguments is not None else None
    if call is None or call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    if function is not None and function.type == "generic_function":  # `x.map_or::<T, _>(..)`
        function = function.child_by_field_name("function")
    if function is None or function.type != "field_expression":
        return None
    method = _field_text(function, "field") or ""
    receiver = function.child_by_field_name("value")
    target = _clip(receiver) if receiver is not None else "the value"
    if method in _FIRST_ONLY:  # the first argument runs on a `None` or an `Err`
        if given is None or given != _first_argument(arguments):
            return None  # the second runs on the value
        if method == "map_or" and not eager:  # its first is a value, not a closure
            return None
        told = _closure_told(given)
        empty = told or (_empty_value(receiver) if receiver is not None else "None/Err")
        return f"{target} was {empty} ({method})"  # as std says, when it does
    if eager and method in ("context", "wrap_err"):
        # `index_html(..).context(anyhow!("No document for '{}'", ..))`: the error made for
        # the receiver's `None` or `Err` (rustup's `rustup doc std` read as always failing,
        # reading 280)
        empty = _empty_value(receiver) if receiver is not None else "None/Err"
        return f"{target} was {empty} ({method})"
    if method == "unwrap_or_else" and not eager:
        # `Option::unwrap_or_else` runs a closure of no parameter, `Result::unwrap_or_else`
        # one of the error: `usize::try_from(n).unwrap_or_else(|_| panic!(..))` is an `Err`
        # (risingwave's 157 such records read "was None/Err")
        told = _closure_told(given) if given is not None else None
        empty = told or (_empty_value(receiver) if receiver is not None else "None/Err")
        return f"{target} was {empty} ({method})"
    outcomes = {
        "ok_or_else": "was None",
        "ok_or": "was None",
        "map_err": "failed",
        "with_context": "failed",
        "wrap_err_with": "failed",
    }
    outcome = outcomes.get(method) if not eager or method == "ok_or" else None
    return f"{target} {outcome} ({method})" if outcome else None


_FIRST_ONLY = frozenset(("map_or_else", "map_or"))  # of two arguments, the first is the error's
# The conversions of std's traits by path, of one argument: `TryFrom::try_from`,
# `FromStr::from_str` and `TryInto::try_into` give a `Result`, whatever type they are of
_CONVERTING = frozenset(("try_from", "from_str", "try_into"))
# An `Option`'s and a `Result`'s methods that give one of the same kind, empty when it was
# (an iterator's same-named adapters give an iterator, which has no `expect` nor `context`)
_SAME_KIND = frozenset((
    "map", "and_then", "or_else", "cloned", "copied", "as_ref", "as_mut", "inspect", "filter",
))  # fmt: skip


def _closure_told(argument: Node) -> str | None:
    """What an `Option`'s or a `Result`'s value was when a closure that its `unwrap_or_else`
    or `map_or_else` runs in its place is of no parameter (`|| ..`: an `Option`'s `None`) or
    of one (`|e| ..`, `|_| ..`: a `Result`'s `Err`); None for any other argument."""
    if argument.type != "closure_expression":
        return None
    parameters = argument.child_by_field_name("parameters")
    # `|_|`'s `_` is no named node: every child but the bars, commas and comments counts
    count = (
        sum(1 for p in parameters.children if p.type not in ("|", ",") and "comment" not in p.type)
        if parameters is not None
        else 0
    )
    return "None" if count == 0 else "Err" if count == 1 else None


def _first_argument(arguments: Node | None) -> Node | None:
    named = [a for a in (arguments.named_children if arguments else ()) if "comment" not in a.type]
    return named[0] if named else None


def _may_have_guards(source: bytes, function: Node | None, node: Node) -> bool:
    """Whether the text between the fn's start and the site holds a check macro or an `if`
    at all."""
    start, end = (function.start_byte if function is not None else 0), node.start_byte
    return any(
        source.find(word, start, end) >= 0
        for word in (b"ensure", b"assert", b"if ", b"match ", b"else")
    )


def _guards_before(node: Node, function: Node | None) -> list[Condition]:
    """`ensure!(cond)` checks and early exits (`if cond { return ..; }`) earlier in the
    enclosing blocks: the site is reached only past them. The nearest `MAX_GUARDS` of those,
    and apart from them the nearest `MAX_GUARDS` of the `let .. else` and `match` ones
    (`_early_exit`), which would otherwise push the checks further up out (meilitool's
    version `match`es above its `current_version == target_version` exit)."""
    guards: list[Condition] = []
    counts = [0, 0]  # checks and `if`s; `let .. else` and `match`
    current: Node | None = node
    while current is not None and current != function and min(counts) < MAX_GUARDS:
        sibling = current.prev_named_sibling
        in_block = current.parent is not None and current.parent.type == "block"
        while sibling is not None and min(counts) < MAX_GUARDS:
            guard = _statement_macro(sibling) or (_early_exit(sibling) if in_block else None)
            kind = int(guard is not None and _is_pattern_guard(sibling))
            if guard is not None and counts[kind] < MAX_GUARDS:
                guards.append(guard)
                counts[kind] += 1
            sibling = sibling.prev_named_sibling
        current = current.parent
    return guards


def _is_pattern_guard(statement: Node) -> bool:
    """Whether a guard's statement is a `let` or a `match` (not an `if` or a check macro)."""
    target = _expression(statement)
    return statement.type == "let_declaration" or (
        target is not None and target.type == "match_expression"
    )


def _early_exit(statement: Node) -> Condition | None:
    """`if cond { ..; return x; }` with no `else`, whose block ends by leaving (`return`,
    `continue`, `break`, `bail!`, `panic!`): what follows it runs only when `cond` is false
    (`if let P = v`: when `v` does not match). Also a `let P = v else { return .. };` and a
    `match` some of whose arms leave (`_match_exit`)."""
    if statement.type == "let_declaration":
        return _let_exit(statement)
    target = _expression(statement)
    if target is not None and target.type == "match_expression":
        return _match_exit(target)
    if target is None or target.type != "if_expression":
        return None
    if target.child_by_field_name("alternative") is not None:
        return None
    condition = target.child_by_field_name("condition")
    block = target.child_by_field_name("consequence")
    last = block.named_children[-1] if block is not None and block.named_children else None
    kind = _leaving(last) if condition is not None and last is not None else None
    if condition is None or kind is None:
        return None
    return Condition(kind, _clip(condition), _line(condition), negated=True)


def _let_exit(declaration: Node) -> Condition | None:
    """What a `let` above the site says of reaching it: `let P = v else { return .. };` goes
    on only when `v` matches `P`; `let x = match v { .. };`, what its `match` says
    (`_match_exit`). rustup's `match Self::new(..) { Err(NotInstalled { .. }) => (), r =>
    return Ok(r?) }` above its error read "No `if`, `match` .. decides whether this site
    runs" (reading 312)."""
    value = declaration.child_by_field_name("value")
    if value is None:
        return None
    alternative = declaration.child_by_field_name("alternative")
    if alternative is not None:
        pattern = declaration.child_by_field_name("pattern")
        if pattern is None or pattern_names(_clip(pattern)):
            return None  # one that binds names: see `_match_exit`
        return Condition(
            "if_let",
            f"let {_clip(pattern)} = {_clip(value)}",
            _line(declaration),
            fails_later=_arm_leaving(alternative) == "ensure",
        )
    return _match_exit(value) if value.type == "match_expression" else None


def _match_exit(match: Node) -> Condition | None:
    """A `match` above the site some of whose arms leave (`_leaving`) and the others go on,
    none with a guard: the site is reached only when the value goes on. Said as an `if let`
    of the arms that go on where they come first (`let Ok(x) | Err(Missing) = v` matches),
    or as an early exit of the arms that leave where those come first (an `if let` of them
    whose block leaves, `_early_exit`); None where the two kinds of arm alternate, or none
    leaves, or all do. As with an `if`, one that fails (`return Err(..)`, `bail!`) is a
    premise of the site (`Condition.fails_later`, `checked_above`), and one that only leaves
    a step of the test that avoids it.

    Not a pattern that goes on binding names (`Ok(child) => child`, `let Some(x) = v else
    ..`): what the site's own checks then test of those names (`x.len() > 3`) no test from
    outside the fn can read (`logic._no_bound_names`), and its records said only "the check
    depends on what is passed" where they had said "the code goes on only when
    `x.len() <= 3`"; the `?` such a `match` mostly stands for is a premise anyway."""
    value = match.child_by_field_name("value")
    body = match.child_by_field_name("body")
    if value is None or body is None:
        return None
    arms: list[tuple[str, ConditionKind | None]] = []
    for arm in body.named_children:
        if arm.type != "match_arm":
            continue
        pattern = arm.child_by_field_name("pattern")
        if pattern is None or pattern.child_by_field_name("condition") is not None:
            return None  # a guard: the arms' patterns alone do not say which is taken
        arms.append((_clip(pattern), _arm_leaving(arm.child_by_field_name("value"))))
    kinds = [kind is not None for _, kind in arms]
    flips = sum(1 for a, b in itertools.pairwise(kinds) if a != b)
    if flips != 1:  # all alike, or alternating
        return None
    going = " | ".join(p for p, kind in arms if kind is None)
    leaving = [kind for _, kind in arms if kind is not None]
    if not kinds[0]:
        if pattern_names(going):
            return None  # names bound: see below
        # where every other arm fails, a premise of the site, as an earlier check is; where
        # one only leaves (`return Ok(..)`, `continue`), a step of the check that avoids it
        failing = all(k == "ensure" for k in leaving)
        text = f"let {going} = {_clip(value)}"
        return Condition("if_let", text, _line(match), fails_later=failing)
    taken = " | ".join(p for p, kind in arms if kind is not None)
    kind: ConditionKind = "ensure" if all(k == "ensure" for k in leaving) else "exit"
    return Condition(kind, f"let {taken} = {_clip(value)}", _line(match), negated=True)


def _arm_leaving(value: Node | None) -> ConditionKind | None:
    """`_leaving` of what a match arm's body comes to (`_arm_value`)."""
    last = _arm_value(value)
    return _leaving(last) if last is not None else None


def _leaving(statement: Node) -> ConditionKind | None:
    """What a block's last statement makes of its `if`: one that fails (`bail!`, `panic!`,
    .., `return Err(..)`) an earlier check, as an `ensure!(!cond)` is (a premise of the
    site, whose negation would not make the call succeed); one that leaves otherwise
    (`return`, `continue`, `break`) an early exit; None when it does not leave."""
    target = _expression(statement)
    if target is None:
        return None
    if target.type in ("continue_expression", "break_expression"):
        return "exit"
    if target.type == "return_expression":
        value = target.named_children[0] if target.named_child_count else None  # `return;`
        failing = value is not None and _ERR_VALUE.match(_node_text(value))
        return "ensure" if failing else "exit"
    if target.type == "macro_invocation":
        name = (_field_text(target, "macro") or "").rsplit("::", 1)[-1]
        own = in_force().get(name)  # the repository's: `polars_bail!`, not `polars_err!`
        fails = name in DIVERGING_MACROS or (own is not None and own.kind in ("bail", "panic"))
        return "ensure" if fails else None
    return None


def _expression(statement: Node) -> Node | None:
    """The expression a statement is (`x;` -> `x`), or the node itself."""
    return statement.named_child(0) if statement.type == "expression_statement" else statement


_ERR_VALUE = re.compile(r"(?:[\w:]*::)?Err\s*\(")  # `return Err(..)`, `Err(e.into())`


def _statement_macro(statement: Node) -> Condition | None:
    target = _expression(statement)
    if target is None or target.type != "macro_invocation":
        return None
    name = (_field_text(target, "macro") or "").rsplit("::", 1)[-1]
    operands = CHECK_OPERANDS.get(name)
    if operands is None or name.startswith("debug_"):
        # a `debug_assert!` above is no premise: a release build skips it (qdrant's
        # `debug_assert!(false, ..)` read "the earlier check `false` passed", reading 152)
        return None
    tree = next((c for c in target.children if c.type == "token_tree"), None)
    if tree is None:
        return None
    # Not `messages.split_token_tree`: this keeps comments (an operand's text may start or
    # end with one) and stops at the last operand.
    arguments: list[list[Node]] = [[]]
    for child in tree.children[1:-1]:
        if child.type == ",":
            if len(arguments) == operands:
                break
            arguments.append([])
        else:
            arguments[-1].append(child)
    if any(not tokens for tokens in arguments) or len(arguments) < operands:
        return None
    texts = [_squash(span_text(tree, tokens[0], tokens[-1])) for tokens in arguments]
    return Condition("ensure", _squash(check_text(name, texts)), _line(target))


def check_text(name: str, operands: Sequence[str]) -> str:
    """What a check macro checks, from its operands: `x`, or `a == b` (`a != b` for `*_ne`)."""
    if len(operands) == 1:
        return operands[0]
    return f"{operands[0]} {'!=' if name.endswith('_ne') else '=='} {operands[1]}"


def span_text(container: Node, first: Node, last: Node) -> str:
    """The source text from `first` to `last`, as written, from a node that contains both."""
    text = container.text or b""
    base = container.start_byte
    return text[first.start_byte - base : last.end_byte - base].decode("utf-8", errors="replace")


def doc_comment(item: Node) -> str | None:
    """The `///` or `/** */` doc comment above an item, attributes in between skipped (read
    by `index_items.leading`, with the item's attributes)."""
    return leading(item)[2]


def cfg_gates(node: Node) -> tuple[str, ...]:
    """The `#[cfg(..)]` predicates on `node` and on what holds it (items, variants, match
    arms, statements), outermost first, each once: a build where one does not hold has no
    such code. Test gates are left out (`cfg(test)`: test code, which the scan skips)."""
    found: list[str] = []
    current: Node | None = node
    while current is not None:
        for gate in reversed(_own_gates(current)):
            if gate not in found:
                found.append(gate)
        current = current.parent
    return tuple(reversed(found))


def _own_gates(node: Node) -> list[str]:
    """The `cfg` predicates of the attributes written on `node`: inside it (a match arm's)
    or before it (an item's, a variant's, a statement's: only where its parent holds such
    things, each step back costing the C library a walk from the parent's first child), in
    the order written."""
    if node.type == "match_arm":
        attributes = [c for c in node.named_children if c.type == "attribute_item"]
    else:
        parent = node.parent
        attributes = attributes_before(node) if parent and parent.type in _ATTRIBUTED_IN else []
    return [gate for attribute in attributes if (gate := gate_of(text_of(attribute)))]


def gate_of(attribute: str) -> str | None:
    """The predicate of a `#[cfg(..)]` attribute as `Facts.gates` writes it (blanks made
    one, none beside brackets, cut at `GATE_CHARS`); None for another attribute or a test
    gate (`cfg(test)`: test code, which the scan skips)."""
    text = _PAREN_SPACE.sub(r"\1", " ".join(attribute.split()))
    found = _CFG.fullmatch(text)
    if found is None or _TEST_GATE.search(found[1]):
        return None
    return _short_gate(found[1])


def _short_gate(predicate: str) -> str:
    """A long predicate (`any(feature = "azure", feature = "gcs", ..)`: sccache's twelve
    storage features) cut after its last whole argument within `GATE_CHARS`, its brackets
    closed: `any(feature = "azure", feature = "gcs", …)`."""
    if len(predicate) <= GATE_CHARS:
        return predicate
    head = predicate[:GATE_CHARS].rsplit(",", 1)[0]
    return head + ", …" + ")" * (head.count("(") - head.count(")"))


GATE_CHARS = 100
# What holds nodes that attributes may precede: items, statements, variants, fields
_ATTRIBUTED_IN = frozenset(
    ("source_file", "declaration_list", "block", "enum_variant_list", "field_declaration_list")
)
_PAREN_SPACE = re.compile(r"\s*([()])\s*")


def _exclusive(gates: Sequence[str], others: Sequence[str]) -> bool:
    """Whether no build has both: one side's gate is `not(..)` of one of the other's
    (`#[cfg(feature = "x")]` and `#[cfg(not(feature = "x"))]`: hickory's two `DS` arms, of
    which a build has one, reading 133)."""
    return any(a == f"not({b})" or b == f"not({a})" for a in gates for b in others)


_CFG = re.compile(r"#\[cfg\((.*)\)\]", re.S)
_TEST_GATE = re.compile(r"\btest\b")


def attributed_item(attribute: Node) -> Node | None:
    """The item an attribute (`#[error(..)]`) is on: the next one past its other attributes."""
    item = attribute.next_named_sibling
    while item is not None and item.type in ATTRIBUTE_SIBLINGS:
        item = item.next_named_sibling
    return item


def _with_error_type(facts: Facts, attribute: Node) -> Facts:
    """For `#[error(..)]`: the enum and variant (or struct) it describes."""
    item = attributed_item(attribute)
    if item is None:
        return facts
    if item.type == "enum_variant":
        enum = _ancestor(item, ("enum_item",))
        own = doc_comment(item)
        written = text_of(attribute)
        return Facts(
            enclosing_fn=None,
            enclosing_impl=None,
            enclosing_type=_field_text(enum, "name"),
            variant=_field_text(item, "name"),
            type_doc=own,
            # the enum's says what its variants share, or what most are: nextest's
            # `ExpectedError` "An error occurred in a program that nextest ran" had been quoted
            # as the doc of a variant of nextest's own failures (reading 131)
            enum_doc=doc_comment(enum) if own is None and enum is not None else None,
            gates=cfg_gates(item),
            fields=_fields(item),
            type_visibility=_visibility(enum),
            cause=cause_field(item, enum),
            debug_only=debug_only_fields(item, enum, written),
        )
    if item.type in ("struct_item", "enum_item"):
        return Facts(
            enclosing_type=_field_text(item, "name"),
            type_doc=doc_comment(item),
            gates=cfg_gates(item),
            fields=_fields(item),
            type_visibility=_visibility(item),
            cause=cause_field(item, item) if item.type == "struct_item" else None,
            debug_only=debug_only_fields(item, item, text_of(attribute)),
        )
    return facts


def _visibility(item: Node | None) -> str | None:
    """An item's visibility as written, spaces taken out (`pub`, `pub(crate)`), "" when it
    has none; None for no item."""
    if item is None:
        return None
    modifier = next((c for c in item.named_children if c.type == "visibility_modifier"), None)
    return "".join(_node_text(modifier).split()) if modifier is not None else ""


def _fields(item: Node) -> tuple[tuple[str, str], ...]:
    """A variant's or struct's fields as (name, type), whitespace collapsed; a tuple's
    named by position (`0`, `1`)."""
    body = item.child_by_field_name("body")
    if body is None:
        return ()
    if body.type == "ordered_field_declaration_list":
        types = body.children_by_field_name("type")
        return tuple((str(at), " ".join(_node_text(t).split())) for at, t in enumerate(types))
    if body.type != "field_declaration_list":
        return ()
    return tuple(
        (_node_text(name), " ".join(_node_text(kind).split()))
        for field in body.named_children
        if field.type == "field_declaration"
        and (name := field.child_by_field_name("name")) is not None
        and (kind := field.child_by_field_name("type")) is not None
    )


def _receiver(node: Node) -> str | None:
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is None or function.type != "field_expression":
        return None
    value = function.child_by_field_name("value")
    return _clip(value) if value is not None else None


def _wrapped_in(node: Node) -> str | None:
    """The `Type::Name` path of the call the site's value is an argument of
    (`ApiError::InternalServerError(anyhow!(..))`: neon's, whose variant gives the HTTP
    status, reading 138), or that a `.map_err(..)` right after the site's call maps its error
    with (`.context("..").map_err(ApiError::InternalServerError)`, neon's recheck of 138);
    None otherwise."""
    mapped = _mapped_by(node)
    if mapped is not None:
        return mapped
    arguments = node.parent
    call = arguments.parent if arguments is not None else None
    if arguments is None or arguments.type != "arguments" or call is None:
        return None
    function = call.child_by_field_name("function")
    if call.type != "call_expression" or function is None or function.type != "scoped_identifier":
        return None
    path = _node_text(function)
    return path if _TYPE_PATH.fullmatch(path) else None


_TYPE_PATH = re.compile(r"(?:\w+::)*[A-Z]\w*::\w+")


def _reported_to(node: Node) -> str | None:
    """The method call, as written (`` `working_set.error(..)` ``), that the site's value is
    handed to in a statement of its own: nushell's parser reports `working_set.error(ParseError::
    Expected(..))` and goes on, and the record said the fn "returns an error" (reading 182).
    Not a method that carries the value on (`map_err`, `ok_or`, `context`, ..); None
    otherwise."""
    arguments = node.parent
    call = arguments.parent if arguments is not None and arguments.type == "arguments" else None
    if call is None or call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    if function is None or function.type != "field_expression":
        return None
    method = _field_text(function, "field") or ""
    if method in _CARRIES_ON or method.startswith(("map", "and", "or", "unwrap", "ok")):
        return None
    held = call.parent
    if held is not None and held.type == "await_expression":
        held = held.parent
    receiver = function.child_by_field_name("value")
    written = " ".join(_node_text(receiver).split()) if receiver is not None else ""
    if held is None or held.type != "expression_statement" or not written or len(written) > 40:
        return None
    return f"`{written}.{method}(..)`"


# methods whose value is the error's way on, not where it ends (`x.map_err(..)?` is past)
_CARRIES_ON = frozenset(
    ("context", "with_context", "wrap_err", "into", "from", "set_source", "chain", "clone")
)


def _mapped_by(node: Node) -> str | None:
    """`ApiError::InternalServerError` of `<node>.map_err(ApiError::InternalServerError)`."""
    field = node.parent
    call = field.parent if field is not None else None
    if field is None or field.type != "field_expression" or call is None:
        return None
    if call.type != "call_expression" or _field_text(field, "field") != "map_err":
        return None
    arguments = call.child_by_field_name("arguments")
    given = arguments.named_children if arguments is not None else []
    if len(given) != 1 or given[0].type != "scoped_identifier":
        return None
    path = _node_text(given[0])
    return path if _TYPE_PATH.fullmatch(path) else None


def _unwrapped(node: Node) -> str | None:
    """`unwrap`/`expect` when a `.context(..)` call's result is unwrapped right after it
    (crates.io's `.build().context("Failed to initialize S3 code").unwrap()`: a panic,
    no returned error, reading 139); None otherwise."""
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is None or function.type != "field_expression":
        return None
    if _field_text(function, "field") not in _CONTEXT_METHODS:
        return None
    parent = node.parent
    if parent is None or parent.type != "field_expression":
        return None
    method = _field_text(parent, "field")
    return method if method in ("unwrap", "expect") else None


_CONTEXT_METHODS = frozenset(("context", "with_context", "wrap_err", "wrap_err_with"))


def _guarded(value: Node) -> str:
    """The receiver of `.expect(..)`/`.context(..)` as the call it guards: after the chain's
    last `?`, the steps before it written `…?` (crates.io's `self.repository.find_commit(
    self.head_oid()?)?.as_object().peel_to_tree().context("failed to find tree for HEAD")`
    guards `peel_to_tree()`: `find_commit` failing returns at its own `?`, reading 139)."""
    node: Node | None = value
    while node is not None and node.type != "try_expression":
        if node.type == "call_expression":
            node = node.child_by_field_name("function")
        elif node.type in ("field_expression", "generic_function"):
            node = node.child_by_field_name(
                "value" if node.type != "generic_function" else "function"
            )
        elif node.type == "await_expression":
            node = node.named_child(0)
        else:
            node = None
    if node is None or node == value:
        return _clip(value)  # `f(x)?.expect(..)`: what `?` gave is the value it guards
    after = (value.text or b"")[node.end_byte - value.start_byte :].decode("utf-8", "replace")
    return EARLIER_STEPS + _squash(after)


# Methods whose call is the error when their receiver holds no value (`None` or `Err`).
_FAILING_METHODS = frozenset(
    {"expect", "unwrap", "context", "with_context", "wrap_err", "wrap_err_with"}
)
# The receiver's own last call says which of the two it is, for std's common methods (each
# takes one argument at most: a call with more is a method of the repository's own). Not
# `strip_prefix`/`strip_suffix` (`Path`'s return a `Result`, `str`'s an `Option`: uv's
# `path.strip_prefix(root).expect(..)` read "gave no value (`None`)" and `.is_some()`) nor
# `to_str` (`HeaderValue::to_str` returns a `Result`).
# fmt: off
_OPTION_METHODS = frozenset((
    "get", "get_mut", "first", "last", "next", "next_back", "nth", "find", "find_map",
    "position", "rposition", "max", "min", "max_by_key", "min_by_key",
    "split_once", "rsplit_once", "parent", "file_name", "file_stem",
    "extension", "checked_add", "checked_sub", "checked_mul", "checked_div",
    "pop", "take", "remove", "last_mut", "first_mut", "peek", "char_indices", "chars_next",
    "as_deref", "upgrade",
    # `Any`'s (arrow's `array.as_any().downcast_ref::<Int64Array>()`); a `Result`'s `ok()`
    "downcast_ref", "downcast_mut", "ok",
    # a `VecDeque`'s, a `BTreeMap`'s and `BTreeSet`'s ends; an `Option` of an `Option`
    # flattened (an iterator's `flatten` has no `expect` nor `context`)
    "pop_front", "pop_back", "pop_first", "pop_last", "flatten",
    "checked_rem", "checked_pow", "checked_neg", "checked_shl", "checked_shr",
    # a JSON or TOML value's accessors (`serde_json::Value`, `toml::Value`): a `.context(..)`
    # on `as_str()` is on no `&str`, which has none (meilisearch's `as_u64()`, reading 145)
    "as_u64", "as_i64", "as_f64", "as_str", "as_bool", "as_array", "as_array_mut",
    "as_object", "as_object_mut", "as_table", "as_table_mut", "as_integer", "as_float",
))
# fmt: on
# fmt: off
# The standard library's (and tokio's same-named) fns by path, `std::` left out: what they
# return when they fail (`std::env::current_dir()` an `Err`; `env::var_os` a `None`)
_RESULT_FNS = frozenset((
    "env::current_dir", "env::current_exe", "env::var", "env::set_current_dir",
    "fs::read", "fs::read_to_string", "fs::write", "fs::create_dir", "fs::create_dir_all",
    "fs::remove_file", "fs::remove_dir", "fs::remove_dir_all", "fs::copy", "fs::rename",
    "fs::metadata", "fs::symlink_metadata", "fs::read_dir", "fs::canonicalize",
    "fs::read_link", "fs::hard_link", "fs::set_permissions", "File::open", "File::create",
    "fs::File::open", "fs::File::create", "str::from_utf8", "String::from_utf8",
    "net::TcpStream::connect", "TcpStream::connect", "net::TcpListener::bind",
    "TcpListener::bind",
    # common crates' fns that fail with an error, by the paths code writes them: serde's
    # formats, `regex`, `url`, `chrono`, `uuid` (neon's `serde_json::to_value(&config)` read
    # "was None/Err", reading 210)
    "serde_json::from_str", "serde_json::from_slice", "serde_json::from_value",
    "serde_json::from_reader", "serde_json::to_string", "serde_json::to_string_pretty",
    "serde_json::to_vec", "serde_json::to_vec_pretty", "serde_json::to_value",
    "serde_json::to_writer", "serde_json::to_writer_pretty", "toml::from_str", "toml::to_string",
    "toml::to_string_pretty", "serde_yaml::from_str", "serde_yaml::to_string",
    "Regex::new", "regex::Regex::new", "Url::parse", "url::Url::parse",
    "DateTime::parse_from_str", "DateTime::parse_from_rfc3339", "DateTime::parse_from_rfc2822",
    "NaiveDate::parse_from_str", "NaiveDateTime::parse_from_str", "NaiveTime::parse_from_str",
    "Uuid::parse_str", "uuid::Uuid::parse_str",
    # `.env` files' (sqlx's `dotenvy::var("DATABASE_URL")`), tokio's signal stream
    "dotenvy::var", "dotenv::var", "signal::unix::signal",
))
# chrono's constructors of a date, a time, an offset or a span that give an `Option`, by
# their names, which no other crate's share (activitypub's `ChronoDuration::try_seconds(
# ACTOR_REFETCH_INTERVAL_SECONDS)` read "was `None` or `Err`", reading 304)
_CHRONO_OPTIONS = frozenset((
    "try_weeks", "try_days", "try_hours", "try_minutes", "try_seconds", "try_milliseconds",
    "east_opt", "west_opt", "from_ymd_opt", "from_hms_opt", "from_hms_milli_opt",
    "from_hms_micro_opt", "from_hms_nano_opt", "from_timestamp_opt", "from_yo_opt",
))  # fmt: skip
_OPTION_FNS = frozenset((
    "env::var_os", "env::home_dir", "char::from_u32", "char::from_digit",
    # `NonZeroUsize::new(n)`: `None` for a zero
    *(f"{space}NonZero{kind}::new" for space in ("", "num::")
      for kind in ("U8", "U16", "U32", "U64", "U128", "Usize", "I8", "I16", "I32", "I64",
                   "I128", "Isize")),
))
_RESULT_METHODS = frozenset((
    "parse", "try_into", "try_from", "from_str", "from_utf8", "canonicalize",
    "read_to_string", "read_dir", "metadata", "create", "open", "write_all", "flush",
    "send", "recv", "try_recv", "join", "lock",
    # an `Option`'s made a `Result`: `opt.map(parse).transpose()` (neon's, reading 138)
    "transpose", "ok_or", "ok_or_else",
    # `SystemTime::now().duration_since(UNIX_EPOCH)` (an `Instant`'s gives no `Result`, so no
    # `.expect(..)` compiles on it)
    "duration_since",
    # std's files, sockets and processes (rustup's `file.sync_data()` read "returned `None` or
    # an error", reading 280); `elapsed` is `SystemTime`'s, an `Instant`'s has no `expect`
    "sync_data", "sync_all", "set_len", "read_exact", "read_to_end", "seek",
    "set_permissions", "local_addr", "peer_addr", "set_nonblocking", "try_wait", "output",
    "accept", "elapsed",
    # a child process's (cargo's `child.wait().context("credential process never started")`
    # read "returned `None` or an error", reading 302); a `Condvar`'s `wait` is a `Result` too
    "wait", "wait_with_output", "kill", "spawn",
    # a `Result`'s error made another (an `Option` has no `map_err`; a future's `TryFuture`
    # gives a future, which nothing here unwraps)
    "map_err",
))
# fmt: on


# "`az_id` was None/Err (expect)": a plain name (or field) the failure is of
_UNTOLD_NAME = re.compile(r"((?:self\.)?[a-z_]\w*(?:\.[a-z_]\w*)*) was None/Err \((\w+)\)")


def _option_tested(
    failed: tuple[Condition, ...], chain: Sequence[Condition]
) -> tuple[Condition, ...]:
    """A name's failure "None/Err" as `None` where a condition before it tests the name as an
    `Option` (`if az_id.is_none() { panic!(..) }` above `az_id.expect(..)`: neon's, reading
    262 read "was `None` or `Err`" of an `Option`)."""
    out = []
    for condition in failed:
        named = _UNTOLD_NAME.fullmatch(condition.text)
        if named is not None and any(_tests_option(c.text, named[1]) for c in chain):
            condition = replace(condition, text=f"{named[1]} was None ({named[2]})")
        out.append(condition)
    return tuple(out)


def _tests_option(text: str, name: str) -> bool:
    """Whether a condition's text tests `name` as an `Option`: `name.is_none()`,
    `name.is_some()`, `let Some(..) = name`."""
    escaped = re.escape(name)
    return bool(
        re.search(rf"(?<![\w.]){escaped}\s*\.\s*is_(?:none|some)\(\)", text)
        or re.search(rf"\blet\s+Some\s*\(.*\)\s*=\s*&?\s*{escaped}\s*$", text)
    )


def _receiver_failure(node: Node, source: bytes) -> tuple[Condition, ...]:
    """`recv.expect(..)`: the last step of the chain is its receiver holding no value.

    Written `recv was None (expect)` when the receiver's own last call is one std says
    returns an `Option` (`Err` for a `Result`), else `was None/Err`: the syntax tree does
    not type the receiver, so no check is made up for it.
    """
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is None or function.type != "field_expression":
        return ()
    method = _field_text(function, "field")
    value = function.child_by_field_name("value")
    if method not in _FAILING_METHODS or value is None or _is_error_value(_clip(value)):
        return ()  # `anyhow!(err).context(..)` wraps an error: no call failed here
    outcome = _empty_value(value, source)
    return (Condition("closure", f"{_guarded(value)} was {outcome} ({method})", _line(node)),)


# `anyhow!(err)`, `eyre::eyre!(..)`, `format_err!(..)`, or a value named as an error (`e`,
# `err`): what `.context(..)` is called on is then an error already, not a `Result`; so is
# an `Err(..)` built there (zellij's `Err::<(), _>(err).with_context(..)`: no call failed).
_ERROR_VALUE = re.compile(
    r"^(?:(?:anyhow|eyre)::)?(?:anyhow|eyre|format_err)!\s*[(\[{]|^(?:e|err|error|cause|source)$"
    r"|^Err(?:::<[^>]*>)?\s*\("
    # an error made there (`anyhow::Error::new(e).context(..)`: risingwave's MySQL parser;
    # `.context(..)` on a value, not a `Result`, is the error type's own, which cannot fail)
    r"|^(?:\w+::)*(?:Error|Report)::(?:new|msg|from)\s*\("
)


def _is_error_value(receiver: str) -> bool:
    """Whether the receiver of `.context(..)` is an error value (it wraps it), not a call
    that may have failed."""
    return bool(_ERROR_VALUE.match(receiver.strip()))


# A top-level `use` of std's or tokio's (`use std::fs::{self, OpenOptions, remove_file};`)
_STD_USE = re.compile(
    rb"^[ \t]*(?:pub(?:\([^)]*\))?\s+)?use\s+(?:std|tokio)::[^;{]*(?:\{[^;]*\})?;", re.M
)


def _std_import(source: bytes, name: str) -> str | None:
    """The path, `std::` or `tokio::` left out, that a `use` of the file brings `name` in by
    (`use std::fs::{self, remove_file}` -> `fs::remove_file`); None when none of std's or
    tokio's does."""
    word = re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")
    for found in _STD_USE.finditer(source):
        if not word.search(found[0]):
            continue
        tree = rust_parser().parse(found[0].strip())
        declaration = tree.root_node.named_child(0)
        argument = declaration.child_by_field_name("argument") if declaration else None
        uses: list[Use] = []
        if argument is not None:
            flatten_use(argument, "", uses, 0)
        for use in uses:
            if use.alias == name and "::" in use.path:
                return use.path.split("::", 1)[1]
    return None


def _empty_value(value: Node, source: bytes | None = None) -> str:
    """What `value` holds when it holds nothing: `None` or `Err` when std says, else both
    (a fn of the repository's says by its return type, which the index reads: `Reach`).
    With the file's `source`, a bare name a `use` of std's brings in is std's fn."""
    while value.type == "parenthesized_expression" and value.named_child(0) is not None:
        value = value.named_child(0)
    if value.type == "await_expression":  # `w.write_all(b).await`: what tokio's future gives
        return _awaited_value(value, source)
    if value.type == "macro_invocation":  # `register_gauge!(..)`: prometheus' `Result`
        macro = (_field_text(value, "macro") or "").rsplit("::", 1)[-1]
        # `write!(s, "{b:02x}")`: `fmt::Write`'s and `io::Write`'s, a `Result` either way
        written = _REGISTER_MACRO.fullmatch(macro) or macro in ("write", "writeln")
        return "Err" if written else "None/Err"
    if value.type == "identifier":
        bound, function = _binding_of(value)
        if bound is not None:
            # `let mut result = entry.unpack_in(parent).map_err(anyhow::Error::from);` ..
            # `result.with_context(..)`: what the `let` holds (cargo's read "None/Err", 319)
            return _empty_value(bound, source)
        if function is not None:  # no binding in the body: a parameter's, by its type
            return _parameter_outcome(function, _node_text(value))
    if value.type != "call_expression":
        return "None/Err"  # also `x?`: it unwraps a layer, the type is unknown
    function = value.child_by_field_name("function")
    if function is not None and function.type == "generic_function":
        typed = _COLLECTED.match(_node_text(function))
        if typed is not None:  # `.collect::<Result<_>>()`: what the turbofish says it makes
            return "None" if typed.group(1) == "Option" else "Err"
        function = function.child_by_field_name("function")
    path = _std_path(function, source)
    scoped = function is not None and function.type == "scoped_identifier"
    if scoped and path is not None and path.rsplit("::", 1)[-1] in _CHRONO_OPTIONS:
        return "None"  # whatever the type is imported as (`ChronoDuration::try_seconds`)
    arguments = value.child_by_field_name("arguments")
    given = [a for a in arguments.named_children if "comment" not in a.type] if arguments else []
    if path is not None:
        if path.rsplit("::", 1)[-1] in _CONVERTING and len(given) == 1:
            return "Err"  # `usize::try_from(n)`, `TryFrom::try_from(v)`, `Mode::from_str(s)`
        return "Err" if path in _RESULT_FNS else "None" if path in _OPTION_FNS else "None/Err"
    if function is None or function.type != "field_expression":
        return "None/Err"
    name = _field_text(function, "field")
    if len(given) > 1:  # std's take one at most: `pm.remove(&packages, dir)` is a Result
        return "None/Err"
    inner = function.child_by_field_name("value")
    if name in _SAME_KIND and inner is not None:
        # `n.checked_sub(m).map(PgMoney)`: an `Option`'s or a `Result`'s adapter gives one of
        # the same kind, empty when it was (sqlx's 60 such records read "was None/Err")
        return _empty_value(inner, source)
    if name in ("strip_prefix", "strip_suffix") and given and _str_pattern(given[0]):
        return "None"  # `url.strip_prefix("sparse+")`: a `str`'s (a `Path`'s gives an `Err`)
    return "None" if name in _OPTION_METHODS else "Err" if name in _RESULT_METHODS else "None/Err"


def _std_path(function: Node | None, source: bytes | None) -> str | None:
    """The path of a called fn, `std::` and `tokio::` left out: as written for a path
    (`tokio::fs::create_dir_all` -> `fs::create_dir_all`); for a bare name, the path a `use`
    of std's or tokio's brings it in by (`remove_file(p)` under `use std::fs::{self,
    remove_file}`: rustup's read "returned `None` or an error" once the call was no fn of its
    own); None for any other callee, or with no `source` to read `use`s in."""
    if function is not None and function.type == "scoped_identifier":
        return _node_text(function).removeprefix("std::").removeprefix("tokio::")
    if source is not None and function is not None and function.type == "identifier":
        return _std_import(source, _node_text(function))
    return None


def _parameter_outcome(function: Node, name: str) -> str:
    """What a parameter of a fn holds when it holds nothing, by its written type: "None" for
    an `Option`, "Err" for a `Result` (neither's alias), "None/Err" for any other or no such
    parameter (sqlx's `fn resolve(.., resolve: Option<..>)`)."""
    parameters = function.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters is not None else ():
        pattern = parameter.child_by_field_name("pattern")
        written = parameter.child_by_field_name("type")
        if parameter.type != "parameter" or pattern is None or written is None:
            continue
        if _node_text(pattern).removeprefix("mut ").strip() != name:
            continue
        head = _WRITTEN_HEAD.match(_node_text(written))
        kind = head.group(1) if head is not None else ""
        return "None" if kind == "Option" else "Err" if kind.endswith("Result") else "None/Err"
    return "None/Err"


# a written type's head, its path and references left out: `&mut Option<T>` -> `Option`,
# `io::Result<T>` -> `Result` (an alias named so is a `Result`'s, as the index reads it)
_WRITTEN_HEAD = re.compile(r"(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)?(?:\w+::)*(\w+)\s*(?:<|$)")


def _let_value(name: Node) -> Node | None:
    """The value of the nearest `let <name> = value;` above a bare name (`_binding_of`)."""
    return _binding_of(name)[0]


def _binding_of(name: Node) -> tuple[Node | None, Node | None]:
    """(the value of the nearest `let <name> = value;` above a bare name, within its fn or
    closure (a reassignment keeps the type), the fn when nothing in its body binds the name):
    neither when something between binds the name otherwise (a pattern of a `match` arm, `if
    let`, `for`, another `let`'s, a closure's parameters): the name may then hold anything."""
    text = _node_text(name)
    word = re.compile(rf"\b{re.escape(text)}\b")
    child, current = name, name.parent
    while current is not None and current.type != "function_item":
        if current.type == "closure_expression":
            parameters = current.child_by_field_name("parameters")
            if parameters is not None and word.search(_node_text(parameters)):
                return None, None
        pattern = current.child_by_field_name("pattern") if current.type in _BINDERS else None
        if pattern is not None and pattern != child and word.search(_node_text(pattern)):
            return None, None
        condition = current.child_by_field_name("condition") if current.type in _LETS else None
        if condition is not None and condition != child and _binds(condition, word):
            return None, None  # `if let Ok(held) = f(x) { <name> }`, `while let ..`
        if current.type == "block":
            for statement in reversed(current.named_children[: _index_in(current, child)]):
                if statement.type != "let_declaration":
                    continue
                bound = statement.child_by_field_name("pattern")
                written = _node_text(bound) if bound is not None else ""
                if written == text:
                    return statement.child_by_field_name("value"), None
                if word.search(written):
                    return None, None
        child, current = current, current.parent
    return None, current


def _index_in(parent: Node, child: Node) -> int:
    """The place of `child` among `parent`'s named children (their count when absent)."""
    for at, node in enumerate(parent.named_children):
        if node == child:
            return at
    return parent.named_child_count


def _binds(condition: Node, word: re.Pattern[str]) -> bool:
    """Whether an `if`'s or `while`'s condition binds the name by a `let` (`if let Ok(x) =
    ..`, a chain of them: `if let Some(a) = f() && let Ok(x) = g(a)`)."""
    lets = [condition] if condition.type == "let_condition" else condition.named_children
    return any(
        part.type == "let_condition"
        and (pattern := part.child_by_field_name("pattern")) is not None
        and word.search(_node_text(pattern)) is not None
        for part in lets
    )


# What binds names by a pattern field of its own, and by a `let` in its condition
_BINDERS = frozenset(("match_arm", "let_condition", "for_expression"))
_LETS = frozenset(("if_expression", "while_expression"))
# prometheus' (and its wrappers') registering macros: each gives a `Result` (neon's
# `register_int_counter!(..).expect(..)` read "was `None` or `Err`", reading 262)
_REGISTER_MACRO = re.compile(r"register_\w+")
# async methods whose future gives a `Result` (tokio's and futures' I/O, a semaphore's
# permit, a channel's send) or an `Option` (a stream's next item): by name,
# one argument at most, as std's are read
_AWAITED_RESULT = frozenset((
    "write_all", "flush", "shutdown", "read_exact", "read_to_end", "read_to_string",
    "sync_all", "sync_data", "acquire", "acquire_owned", "acquire_many", "acquire_many_owned",
    "connect", "bind", "accept", "send", "reserve", "reserve_owned", "wait", "wait_with_output",
))  # fmt: skip
_AWAITED_OPTION = frozenset(("next",))  # not `recv`: a broadcast receiver's is a `Result`
# tokio's fns by path (`tokio::` left out) whose future gives a `Result`: a task's join, a
# timeout's `Elapsed`, a signal's stream
_AWAITED_RESULT_FNS = frozenset((
    "task::spawn_blocking", "task::spawn", "spawn", "time::timeout", "signal::ctrl_c",
    "net::TcpListener::bind", "net::TcpStream::connect", "net::UnixListener::bind",
    "net::UnixStream::connect", "process::Command::output",
))  # fmt: skip


def _awaited_value(value: Node, source: bytes | None = None) -> str:
    """What an awaited call of a well-known async method or fn gives when it fails, as
    `_empty_value` says it; "None/Err" for any other awaited value."""
    inner = value.named_child(0)
    function = inner.child_by_field_name("function") if inner is not None else None
    if inner is None or inner.type != "call_expression" or function is None:
        return "None/Err"
    if function.type in ("scoped_identifier", "identifier"):
        # `tokio::fs::create_dir_all(p).await` as std's, `tokio::task::spawn_blocking(f)
        # .await` (a `JoinError`), `timeout(d, f).await` under `use tokio::time::timeout`
        path = _std_path(function, source) or ""
        return "Err" if path in _RESULT_FNS or path in _AWAITED_RESULT_FNS else "None/Err"
    if function.type != "field_expression":
        return "None/Err"
    arguments = inner.child_by_field_name("arguments")
    given = [a for a in arguments.named_children if "comment" not in a.type] if arguments else []
    name = _field_text(function, "field")
    if len(given) > 1:
        return "None/Err"
    return "Err" if name in _AWAITED_RESULT else "None" if name in _AWAITED_OPTION else "None/Err"


# a chain's last step whose turbofish names what it makes: `.collect::<Result<Vec<_>>>()`
_COLLECTED = re.compile(
    r".*\.(?:collect|sum|product)\s*::\s*<\s*(?:[\w:]+::)?(Result|Option)\b", re.S
)


def _str_pattern(argument: Node) -> bool:
    """A char, or a string literal no path would hold (no `/` nor `\\`): what only a `str`'s
    `strip_prefix` takes (`Path::strip_prefix("/tmp")` compiles too)."""
    if argument.type == "char_literal":
        return True
    text = _node_text(argument)
    return argument.type == "string_literal" and "/" not in text and "\\" not in text


def _callee(node: Node) -> str | None:
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is None or function.type == "field_expression":
        return None
    return _node_text(function)


def _type_parameters(*items: Node | None) -> str | None:
    """The names of the type parameters of `items` (a fn, its impl), space-separated: `D E`
    of `impl<E: de::Error> .. { fn f<D>(..) }`; None without any. Not lifetimes nor consts."""
    names = []
    for item in items:
        listed = item.child_by_field_name("type_parameters") if item is not None else None
        for parameter in listed.named_children if listed is not None else ():
            name = parameter.child_by_field_name("name")
            if parameter.type == "type_parameter" and name is not None:
                names.append(_node_text(name))
    return " ".join(names) or None


_SELF_TYPE = re.compile(r"\bSelf::([A-Za-z_][A-Za-z0-9_]*)\b")


def _own_types_written(return_type: str | None, function: Node | None) -> str | None:
    """`return_type` with each `Self::X` of a trait impl's own `type X = ..;` written out.

    `fn try_from(..) -> Result<Self, Self::Error>` in an impl saying `type Error = Status;`
    returns `Result<Self, Status>`: what a caller gets. A name the impl does not set (a
    trait's default method, an inherent impl) stays as written.
    """
    if not return_type or "Self::" not in return_type or function is None:
        return return_type
    body = function.parent
    impl = body.parent if body is not None and body.type == "declaration_list" else None
    if body is None or impl is None or impl.type != "impl_item":
        return return_type
    own: dict[str, str] = {}
    for item in body.named_children:
        value = item.child_by_field_name("type") if item.type == "type_item" else None
        name = _field_text(item, "name")
        if value is not None and name:
            own[name] = _squash(_node_text(value))
    return _SELF_TYPE.sub(lambda m: own.get(m.group(1), m.group(0)), return_type)


_TRY_STREAM = re.compile(r"#\[\s*(?:\w+::)*try_stream\s*\((?P<args>.*)\)\s*\]\s*$", re.S)


def _stream_items(function: Node | None) -> str | None:
    """What a `#[try_stream(ok = T, error = E)]` fn returns, which it declares nowhere else:
    `impl Stream<Item = Result<T, E>>` (futures-async-stream; risingwave's executors). Its
    `?` and `bail!` end the stream with an `E` item; a caller gets no `Result` of a call."""
    sibling = function.prev_named_sibling if function is not None else None
    while sibling is not None and sibling.type in ("attribute_item", "line_comment"):
        found = _TRY_STREAM.match(_node_text(sibling)) if sibling.type == "attribute_item" else None
        if found is not None:
            args = dict(
                (key.strip(), value.strip())
                for key, _, value in (part.partition("=") for part in _split_args(found["args"]))
            )
            if "ok" in args and "error" in args:
                return f"impl Stream<Item = Result<{args['ok']}, {args['error']}>>"
            return None
        sibling = sibling.prev_named_sibling
    return None


def _split_args(text: str) -> list[str]:
    """`boxed, ok = Vec<A, B>, error = E` -> its top-level comma-separated parts."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return [*parts, current]


def _impl_name(impl: Node | None) -> str | None:
    if impl is None:
        return None
    if impl.type == "trait_item":
        return _field_text(impl, "name")
    type_name = _field_text(impl, "type")
    trait = _field_text(impl, "trait")
    return f"{trait} for {type_name}" if trait else type_name


def _ancestor(node: Node, types: tuple[str, ...]) -> Node | None:
    current = node.parent
    while current is not None and current.type not in types:
        current = current.parent
    return current


def _field_text(node: Node | None, field: str) -> str | None:
    if node is None:
        return None
    child = node.child_by_field_name(field)
    return _node_text(child) if child is not None else None


def _node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def _squash(text: str) -> str:
    # `a\n    .b()` reads `a.b()` on one line, not `a .b()`
    text = _SPACES.sub(" ", _CHAIN_BREAK.sub(".", text)).strip()
    return text if len(text) <= MAX_CONDITION_CHARS else _middle_cut(text)


def _middle_cut(text: str) -> str:
    """A long condition's head and tail around a `…`: the tail is often what decides (the
    `&& self.state.is_paused()` of risingwave's let-chain), and a receiver's last call."""
    head = text[: MAX_CONDITION_CHARS * 3 // 5].rstrip()
    tail = text[len(text) - (MAX_CONDITION_CHARS - len(head) - 3) :]
    space = tail.find(" ")
    if 0 <= space < 24:  # start the tail at a word
        tail = tail[space + 1 :]
    return f"{head} … {tail.lstrip()}"


def _clip(node: Node | None) -> str:
    return _squash(_without_comments(node)) if node is not None else ""


def _without_comments(node: Node) -> str:
    """The node's text with its comments cut: squashed onto one line, a `//` would hide the rest."""
    text = node.text or b""
    if b"//" not in text and b"/*" not in text:
        return _node_text(node)
    cuts: list[tuple[int, int]] = []
    stack = [node]
    while stack:  # iterative: a deeply nested condition must not exhaust the recursion limit
        current = stack.pop()
        if current.type in ("line_comment", "block_comment"):
            cuts.append((current.start_byte - node.start_byte, current.end_byte - node.start_byte))
        else:
            stack.extend(current.children)
    for start, end in sorted(cuts, reverse=True):
        text = text[:start] + b" " + text[end:]
    return text.decode("utf-8", errors="replace")


def _line(node: Node) -> int:
    return node.start_point.row + 1
