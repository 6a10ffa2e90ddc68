"""Where an error value goes no further than the fn that holds it: a call's value given to
a method that keeps nothing of its error (`.ok()`, `.unwrap_or(..)`, `.map_err(|_| ..)`),
bound to `_`, tested by `if let Ok(..)`, or matched by arms that bind nothing of it. The index
marks such calls (`Call.dropped`); the scan marks an error made in a closure whose chain ends
so (`Facts.discarded`). Pure."""

from __future__ import annotations

import re

from tree_sitter import Node

from pipeline.languages.rust.index_items import text_of

Held = tuple[Node, Node | None]  # a call's value as its caller holds it, and what holds that

# `Result` methods whose value keeps nothing of the error: a caller that calls them on a
# call's value has seen the error go no further (`.ok()`, `.unwrap_or(..)`, `.is_err()`).
# Not `unwrap_or_else`, whose closure gets the error (and CLIs print it there and exit).
_DROPPING = frozenset(("ok", "is_ok", "is_err", "unwrap_or", "unwrap_or_default", "or"))
# the same with a closure that ignores what it is given: `.map_err(|_| Error::Other)`,
# `.unwrap_or_else(|_| default())` (starship's `time`: the error is replaced, reading 113)
_REPLACING = frozenset(("map_err", "or_else", "unwrap_or_else", "map_or_else"))


def dropped_value(node: Node, held: Held | None = None) -> bool:
    """Whether a call's error (if it returns one) goes no further than its caller (`dropped_by`)."""
    return dropped_by(node, held) is not None


def dropped_by(node: Node, held: Held | None = None) -> str | None:
    """What drops a call's error (if it returns one), as a reader sees it, or None when it
    may go further than its caller: its value (through an `.await`) given to a method that
    keeps nothing of the error (`` `.ok()` ``, `` `.unwrap_or_else(|_| ..)` ``), bound to `_`,
    tested by `if let Ok(..)`, `while let Ok(..)` or `let Ok(..) = .. else` (typst's
    autocomplete: `if let Ok(modified) = symbol.clone().modified((), modifier)`), or matched by
    arms that bind nothing of the error (`_match_drops`). A user never reads a message that
    took such a way; a panic's does not travel by value and is no one's to drop
    (`callerpaths`: only a returned error's walk leaves these edges out)."""
    value, parent = held or held_value(node)
    if parent is None:
        return None
    if parent.type == "field_expression" and parent.child_by_field_name("value") == value:
        called = _method_on(parent)
        if called is None:
            return None
        method, closure = called
        if method in _DROPPING:
            return f"`.{method}({'..' if closure is not None else ''})`"
        if method in _REPLACING and closure is not None and _ignores_argument(closure):
            return f"`.{method}(|_| ..)`"
        return None
    if parent.type == "let_declaration" and parent.child_by_field_name("value") == value:
        # `let _ = f(x);`, and `let Ok(v) = f(x) else { .. }`, whose `else` sees no error
        pattern = parent.child_by_field_name("pattern")
        pattern_text = text_of(pattern) if pattern is not None else ""
        if pattern_text == "_":
            return "`let _ = ..`"
        let_else = parent.child_by_field_name("alternative") is not None
        return "`let Ok(..) = .. else`" if let_else and pattern_text.startswith("Ok(") else None
    if parent.type == "let_condition" and parent.child_by_field_name("value") == value:
        pattern = parent.child_by_field_name("pattern")
        return "`if let Ok(..) = ..`" if pattern and text_of(pattern).startswith("Ok(") else None
    if parent.type == "match_expression" and parent.child_by_field_name("value") == value:
        return "a `match` whose arms keep none of it" if _match_drops(parent) else None
    return None


# What can hold a call's value (`held_value`: past an `.await`) where `dropped_by`, `logged_by` or
# `handed_to` finds something: a method on it, a `let`, an `if let`, a `match`, a `?`, a
# block or closure it ends. Under any other (an argument, a statement, a field's value: two
# calls in five) all three find nothing, and the index asks none of them.
_HOLDERS = frozenset(
    ("field_expression", "let_declaration", "let_condition", "match_expression",
     "try_expression", "block", "closure_expression")
)  # fmt: skip


def may_go_elsewhere(held: Held) -> bool:
    """False when `dropped_by`, `logged_by`, `handed_to` and `unwrapped_by` are all None for a call by what
    holds its value alone (`held`, as `held_value` gives it: `_HOLDERS`); True when they must
    be asked."""
    parent = held[1]
    return parent is not None and parent.type in _HOLDERS


# Methods of a future whose output is the future's own: tracing's `.instrument(span)` and
# `.in_current_span()`, await-tree's `.instrument_await("..")` (800 calls in risingwave:
# `match self.enumerator.on_tick().instrument_await("on_tick").await { Err(e) => { error!(..)
# } }` logs the error and goes on, and the records said users meet it: reading 320)
_SAME_OUTPUT = frozenset(
    ("instrument", "in_current_span", "instrument_await", "verbose_instrument_await")
)


def held_value(node: Node) -> Held:
    """A call's value as its caller holds it (past the wrappers of `_SAME_OUTPUT` and an
    `.await`), and what holds that."""
    value, parent = node, node.parent
    while (
        parent is not None
        and parent.type == "field_expression"
        and parent.parent is not None
        and parent.parent.type == "call_expression"
        and text_of(parent.child_by_field_name("field")) in _SAME_OUTPUT
    ):
        value, parent = parent.parent, parent.parent.parent
    if parent is not None and parent.type == "await_expression":
        value, parent = parent, parent.parent
    return value, parent


def _method_on(field: Node) -> tuple[str, Node | None] | None:
    """The method a `value.method(..)` field expression calls, and its first argument; None
    when the field is not called."""
    called = field.parent
    if called is None or called.type != "call_expression":
        return None
    arguments = called.child_by_field_name("arguments")
    first = arguments.named_children[0] if arguments and arguments.named_children else None
    return text_of(field.child_by_field_name("field")), first


def _match_drops(match: Node) -> bool:
    """Whether a `match` on a call's value keeps nothing of its error: every arm's pattern is
    `Ok(..)`, `Err(_)` or `_`, or `Err(e)` with an arm that only logs `e` at debug or trace level (`_only_logs`), one
    of them not `Ok` (minijinja's `match parse_expr(..) { Ok(expr) => .., Err(_) =>
    HashSet::new() }`: its error never reaches a user, reading 111; starship's
    `is_readonly_dir`: `Err(e) => { log::debug!(".. {e}"); false }`, reading 113). Any other
    arm on the error (`Err(e) => return Err(e)`, `e => ..`, a pattern on its value) may pass
    it on."""
    body = match.child_by_field_name("body")
    arms = [c for c in body.named_children if c.type == "match_arm"] if body is not None else []
    dropping = False
    for arm in arms:
        pattern = arm.child_by_field_name("pattern")
        written = pattern.child(0) if pattern is not None else None  # the guard is apart
        text = "".join(text_of(written).split())
        if text.startswith("Ok("):
            continue
        bound = _ERR_BINDING.fullmatch(text)
        if text not in ("Err(_)", "_") and (bound is None or not _only_logs(arm, bound[1])):
            return False
        dropping = True
    return dropping


_ERR_BINDING = re.compile(r"Err\(([a-z_]\w*)\)")
# Macros that log a value at a level a default build or run does not show, and give nothing
# back (`log::debug!`, `tracing::trace!`). Not `warn!`/`error!`/`info!` nor `eprintln!`: a
# server's operator reads those (qdrant's `log::error!("Can't initialize GPU devices manager:
# {err}")` is how its error reaches them).
_QUIET_LOGGING = frozenset(("trace", "debug"))


def _only_logs(arm: Node, name: str) -> bool:
    """Whether a match arm does nothing with the error bound to `name` but log it at a quiet
    level: each statement of its block a `debug!` or `trace!`, and its value (the block's last expression)
    free of `name`, of a `return`, a `?` and a panic."""
    value = arm.child_by_field_name("value")
    if value is None:
        return False
    statements = value.named_children if value.type == "block" else [value]
    for statement in statements:
        if statement.type in ("line_comment", "block_comment"):
            continue
        inner = (
            statement.named_children[0] if statement.type == "expression_statement" else statement
        )
        if inner.type == "macro_invocation":
            macro = inner.child_by_field_name("macro")
            if text_of(macro).rsplit("::", 1)[-1] in _QUIET_LOGGING:
                continue
            return False
        if statement is not statements[-1] or statement.type == "expression_statement":
            return False
        if re.search(rf"\b{name}\b|\breturn\b|\?|!", text_of(statement)):
            return False
    return True


def _ignores_argument(closure: Node) -> bool:
    """`|_| ..`: a closure whose one parameter is `_`."""
    if closure.type != "closure_expression":
        return False
    parameters = closure.child_by_field_name("parameters")
    return parameters is not None and "".join(text_of(parameters).split()) == "|_|"


# A chain's methods that take a closure whose error becomes the chain's: `.map_err(|_|
# io::Error::other(..))`, `.and_then(|v| .. Err(..))`, `.ok_or_else(|| ..)`, `.or_else(..)`
_ERROR_FROM_CLOSURE = frozenset(("map_err", "and_then", "ok_or_else", "or_else"))
# and those that pass the chain's error on unchanged or wrapped (anyhow's and eyre's contexts)
_PASSES_ON = frozenset(
    ("map", "and_then", "map_err", "or_else", "inspect", "inspect_err", "context",
     "with_context", "wrap_err", "wrap_err_with")
)  # fmt: skip


def discarded_in(node: Node, function: Node | None) -> str | None:
    """What drops an error a site makes in a closure of a chain within its own fn, as
    written (`.unwrap_or_else(|_| ..)`, `.ok()`, `let _ =`), or None. sccache's `normpath`
    makes `io::Error::other("Error converting string")` in a `map_err(|_| ..)` whose chain
    is the value of an `and_then(|handle| ..)` closure, whose chain ends `.unwrap_or_else(|_|
    path.replace('\\', "/"))`: the fn returns a `String`, and no caller ever sees the error
    (reading 126, FALSE "normpath returns an error"). None when the site is in no such
    closure, or a chain passes its error on."""
    start: Node = node
    for _ in range(4):  # closures in closures
        closure = _closure_around(start, function)
        if closure is None:
            return None
        holder = closure.parent
        call = holder.parent if holder is not None and holder.type == "arguments" else None
        allowed = _ERROR_FROM_CLOSURE
        while True:
            if call is None or call.type != "call_expression":
                return None
            callee = call.child_by_field_name("function")
            if callee is None or callee.type != "field_expression":
                return None
            if text_of(callee.child_by_field_name("field")) not in allowed:
                return None
            dropped = dropped_by(call)
            if dropped is not None:
                return dropped
            parent = call.parent
            if parent is None or parent.type != "field_expression":
                break
            call, allowed = parent.parent, _PASSES_ON
        if not _closure_value(call):
            return None
        start = call
    return None


def ignored_error(node: Node, function: Node | None) -> str | None:
    """The closure, as written (`` `.map_err(|_e| ..)` ``), that a site makes its error in
    while ignoring the error it is given (its parameter `_` or `_name`): the site's message
    replaces that error and keeps nothing of it (hickory's SOA `.try_into().map_err(|_e|
    ParseError::from("retry outside i32 range"))`, reading 133's recheck); None otherwise."""
    closure = _closure_around(node, function)
    if closure is None:
        return _ignoring_arm(node, function)
    holder = closure.parent
    if holder is None or holder.type != "arguments":
        return None
    if holder.named_children[:1] != [closure]:  # `map_or_else`'s error closure comes first
        return None
    field = holder.parent.child_by_field_name("function") if holder.parent else None
    called = _method_on(field) if field is not None and field.type == "field_expression" else None
    parameter = text_of(closure.child_by_field_name("parameters")).strip("| ")
    if called is None or called[0] not in _GIVEN_THE_ERROR or not parameter.startswith("_"):
        return None
    return f"`.{called[0]}(|{parameter}| ..)`"


def _ignoring_arm(node: Node, function: Node | None) -> str | None:
    """`` `Err(_) =>` ``: the innermost `match` arm around the site, when its pattern is an
    `Err` that binds nothing of the error (uv's `match installed_tools.get_tool_receipt(name)
    { .., Err(_) => return Err(anyhow!("`{}` is missing a valid receipt; ..")) }`, reading
    180: there is no error underneath to read); None otherwise."""
    current = node.parent
    while current is not None and current != function:
        if current.type in ("closure_expression", "async_block", "function_item"):
            return None
        if current.type == "match_arm":
            pattern = current.child_by_field_name("pattern")
            written = "".join(text_of(pattern.child(0) if pattern is not None else None).split())
            if node.start_byte < (pattern.end_byte if pattern is not None else 0):
                return None
            found = _IGNORED_ERR.fullmatch(written)
            return f"`{written} =>`" if found is not None else None
        current = current.parent
    return None


_IGNORED_ERR = re.compile(r"(?:[\w:]*::)?Err\((?:_\w*|\.\.)\)")


# Methods whose first closure gets the error of the value they are called on
_GIVEN_THE_ERROR = frozenset(("map_err", "or_else", "unwrap_or_else", "map_or_else"))


def _closure_around(node: Node, function: Node | None) -> Node | None:
    """The innermost closure that holds `node` within `function` (None past an async block
    or a nested fn: what they make is no value of the chain around)."""
    current = node.parent
    while current is not None and current != function:
        if current.type == "closure_expression":
            return current
        if current.type in ("async_block", "function_item"):
            return None
        current = current.parent
    return None


def _closure_value(node: Node) -> bool:
    """Whether an expression is what its closure returns: the closure's body, or its block's
    last expression."""
    parent = node.parent
    if parent is not None and parent.type == "closure_expression":
        return True
    if parent is None or parent.type != "block" or parent.parent is None:
        return False
    named = [c for c in parent.named_children if c.type not in ("line_comment", "block_comment")]
    return parent.parent.type == "closure_expression" and bool(named) and named[-1] == node


def handed_to(node: Node, held: Held | None = None) -> str | None:
    """The call, as written (`` `.try_set_fix(..)` ``), that a closure holding a call is
    handed to, when the call's error leaves the closure (by `?`, or as its value) and the fn
    does not use what that call returns (a statement of its own): the error goes there, not
    to the fn's caller. ruff's rules hand their fix builders to `diagnostic.try_set_fix(||
    ..)`, which logs the error at debug level and goes on; the records said users meet it
    (reading 160). None otherwise. The error may go on through a chain that passes it on
    first (`remove_member(..).map(|edit| ..)`, `.context(..)`)."""
    value, parent = held or held_value(node)
    while parent is not None and parent.type == "field_expression":
        # the field's name alone first: most chains go on by `.unwrap()`, `.await`, `.len()`
        if text_of(parent.child_by_field_name("field")) not in _PASSES_ON:
            break
        called = parent.parent
        if called is None or called.type != "call_expression":
            break
        value, parent = held_value(called)
    if parent is not None and parent.type == "try_expression":
        closure = _closure_around(parent, None)
    else:
        while parent is not None and parent.type == "block" and _last_in(parent) == value:
            holder = parent.parent
            if holder is None or holder.type != "async_block":
                break  # a closure's block: `_closure_value` reads it
            value, parent = holder, holder.parent
        closure = value.parent if _closure_value(value) else None
        if closure is not None and closure.type == "block":
            closure = closure.parent
    if closure is None or closure.parent is None or closure.parent.type != "arguments":
        return None
    call = closure.parent.parent
    if call is None or call.type != "call_expression":
        return None
    _, statement = held_value(call)
    if statement is None or statement.type != "expression_statement":
        return None
    function = call.child_by_field_name("function")
    if function is not None and function.type == "field_expression":
        method = text_of(function.child_by_field_name("field"))
        if method.startswith("spawn"):
            # a task set's `spawn*`: the fn may join it later and pass the error on (neon's
            # `pre_tasks.spawn_blocking_child(move || this.prepare_pgdata(&cs))`)
            return None
        return f"`.{method}(..)`"
    return f"`{text_of(function)}(..)`" if function is not None else None


def _last_in(block: Node) -> Node | None:
    """A block's last expression, its value when it has no `;` after it."""
    named = [c for c in block.named_children if c.type not in ("line_comment", "block_comment")]
    return named[-1] if named and named[-1].type != "expression_statement" else None


# Macros that write a line to a log and give nothing back. Not `eprintln!`: sccache's `main`
# prints a command's error so (`Err(e) => { eprintln!("sccache: error: {}", e); 2 }`, the
# exit status): that is how its user reads it
_LOGGING = frozenset(("trace", "debug", "info", "warn", "error", "event"))
# What makes a handler pass the failure on or end the run: it is no "logs and goes on"
# (a `return` of another value goes on without the error: alacritty's `load_imports` logs a
# bad `import` and returns an empty table, reading 290; a `return` of the error itself is
# the error going somewhere, `_logs_and_goes_on`)
_ENDS_OR_PASSES = re.compile(
    r"\?|\bErr\s*\(|\b(?:panic|unreachable|todo|unimplemented|bail|ensure|assert\w*)!"
    r"|\bexit\s*\(|\babort\s*\("
)


# `Result` methods that end the caller's run with a panic on an `Err`, printing the error's
# `Debug` form (`called `Result::unwrap()` on an `Err` value: ..`, `<msg>: ..`)
_PANICKING = frozenset(("unwrap", "expect"))
_EXPECT_SHOWN = 60  # an `.expect(..)` message longer than this is cut


def unwrapped_by(node: Node, held: Held | None = None) -> str | None:
    """The method, as written, with which a call's caller turns the error the call returns
    into a panic there (`` `.unwrap()` ``, `` `.expect("readback is valid")` ``), or None.
    The walk goes on up (the panic unwinds the callers, and its message prints the error's
    `Debug` form); what a user reads is that panic, not a returned error (atuin's
    `Record::encrypt` calls `encrypt_sync(..).unwrap()`: reading 324)."""
    value, parent = held or held_value(node)
    if parent is None or parent.type != "field_expression":
        return None
    if parent.child_by_field_name("value") != value:
        return None
    called = _method_on(parent)
    if called is None or called[0] not in _PANICKING:
        return None
    method, message = called
    if method == "unwrap":
        return "`.unwrap()`"
    shown = text_of(message) if message is not None else ".."
    if len(shown) > _EXPECT_SHOWN or "\n" in shown or "`" in shown:
        shown = ".."
    return f"`.expect({shown})`"


def logged_by(node: Node, held: Held | None = None) -> str | None:
    """The logging macro with which a call's caller reports the error the call returns and
    goes on, as written (`` `warn!` ``), or None: a `match` whose error arms log it (`Err(e)
    => { warn!(".. {e}"); None }`), an `if let Err(e) = f(x) { error!(..) }`, or an
    `.unwrap_or_else(|e| { warn!(..); default })`, none of them returning, passing on, building
    another `Err` or ending the process. hickory's `JournalIter::next` logs a journal's bad
    record and ends the iteration, and pixi's `find_unsatisfiable_targets` logs at `info` and
    solves again (readings 132, 133): their users never meet the error as a failure, only as
    a log line. At debug or trace level alone it is dropped (`dropped_by`), not logged."""
    value, parent = held or held_value(node)
    if parent is None:
        return None
    if parent.type == "field_expression" and parent.child_by_field_name("value") == value:
        called = _method_on(parent)
        if called is None or called[0] != "unwrap_or_else":
            return None
        closure = called[1]
        if closure is None or closure.type != "closure_expression":
            return None
        parameters = text_of(closure.child_by_field_name("parameters")).strip("| ")
        return _logs_and_goes_on(closure.child_by_field_name("body"), parameters)
    if parent.type == "let_condition" and parent.child_by_field_name("value") == value:
        pattern = parent.child_by_field_name("pattern")
        holder = parent.parent
        if pattern is None or not text_of(pattern).startswith("Err(") or holder is None:
            return None
        if holder.type != "if_expression" or holder.child_by_field_name("alternative") is not None:
            return None
        return _logs_and_goes_on(
            holder.child_by_field_name("consequence"), _bound(text_of(pattern))
        )
    if parent.type == "match_expression" and parent.child_by_field_name("value") == value:
        return _arms_log(parent)
    return None


def _arms_log(match: Node) -> str | None:
    """The logging macro of a `match` on a call's value whose every arm on the error logs it
    and goes on (`_logs_and_goes_on`), the others `Ok(..)`; None otherwise."""
    body = match.child_by_field_name("body")
    arms = [c for c in body.named_children if c.type == "match_arm"] if body is not None else []
    logged: str | None = None
    for arm in arms:
        pattern = arm.child_by_field_name("pattern")
        written = "".join(text_of(pattern.child(0) if pattern is not None else None).split())
        if written.startswith("Ok("):
            continue
        if not (written.startswith("Err(") or written == "_"):
            return None
        macro = _logs_and_goes_on(arm.child_by_field_name("value"), _bound(written))
        if macro is None:
            return None
        logged = logged or macro
    return logged


def _bound(pattern: str) -> str:
    """The name an error pattern binds (`Err(e)` -> `e`; "" for `Err(_)`, `_`, a variant)."""
    found = _ERR_BINDING.fullmatch("".join(pattern.split()))
    return found[1] if found is not None else ""


def _logs_and_goes_on(body: Node | None, error: str = "") -> str | None:
    """The first logging macro a handler's body calls (`` `tracing::warn!` ``), when it
    calls one at a level above debug, nothing in it returns, passes the error on, builds
    another `Err` or ends the process, and the error bound to `error` goes nowhere but into
    the log (tikv's `Err(e) => { info!(..); Ok(make_response(StatusCode::INTERNAL_SERVER_ERROR,
    e)) }` sends it to the user in the response); None otherwise."""
    if body is None or _ENDS_OR_PASSES.search(text_of(body)):
        return None
    found: str | None = None
    quiet = True
    rest: list[str] = []  # the text of what is no logging macro
    stack = [body]
    while stack:
        current = stack.pop()
        if current.type == "macro_invocation":
            name = text_of(current.child_by_field_name("macro"))
            level = name.rsplit("::", 1)[-1]
            if level in _LOGGING:
                found = found or name
                quiet = quiet and level in _QUIET_LOGGING
                continue
        if not current.named_children:
            rest.append(text_of(current))
            continue
        stack.extend(reversed(current.named_children))
    if error and error != "_" and re.search(rf"\b{re.escape(error)}\b", " ".join(rest)):
        return None
    return None if found is None or quiet else f"`{found}!`"
