"""Which caller chains a build can make: the needs a walk up the callers carries.

A walk from an error's fn up to the entry points (`callerpaths`) goes edge by edge; here
is what each edge asks of the chain above it. A package: a call into a package its caller
cannot name is a dispatch whose type some caller above must name (`cargo_deps` says which
package sees which). A type: a provided method's `self.f()`, a generic fn's `param.f()`,
runs one impl's `f`, and the caller above must give that impl's type where it says one.
A need is a string in a frozenset: a package's name, or `TYPED` and a slot and a type.
Pure: reads the graph, keeps what it computes in `graph.derived`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator
from functools import lru_cache
from typing import TypeVar

from pipeline.core.index import CALLED_TYPE, Definition, FileIndex, Local
from pipeline.scan.callgraph import STRUCT_LITERAL, CallGraph, Edge
from pipeline.scan.names import generic_parts, inner_type
from pipeline.scan.signatures import generic_bounds, returned_type

_T = TypeVar("_T")
NO_NEEDS: frozenset[str] = frozenset()
# A need on a type (not a package): `\0type:self=Disk` (the chain's `Self`), `\0type:1=Disk`
# (the fn's second parameter), the impl type a static dispatch below runs
TYPED = "\0type:"
_CALLED = CALLED_TYPE  # `<call>T::f`: a `let` of a call's value
# A need on a program: `\0program:examples/nop.rs`, an example's value the chain carries,
# which only that example's own code can have made
PROGRAM = "\0program:"
_OWN_PROGRAMS = ("example", "bench")  # programs of their own, beside a package's library
_OTHER_PROGRAMS = ("bin", "build", "test")


def program_of(kind: str | None, root: str | None) -> str:
    """A file's program, for `CallGraph.programs`: an example's or a benchmark's root file
    when the manifests say which one holds it, "!" and the kind of a binary's, a build
    script's or a test's code, "" for a library's code or code of no known target (a module
    several examples of one directory share)."""
    if kind in _OWN_PROGRAMS:
        return root or ""
    if kind in _OTHER_PROGRAMS:
        return f"!{kind}"
    return ""


def program_needs(graph: CallGraph, edge: Edge, below: frozenset[str]) -> frozenset[str] | None:
    """The program needs the chain holds once `edge`'s caller is on it: those of `below` (the
    rest of `below` is no program's), with the one `edge` makes; None when no build makes
    that chain.

    A call into an example's (or a benchmark's) code from code outside it is a dispatch on
    a value of that example's type (mdBook's `preprocess_book` runs `pre.run(..)` on a `dyn
    Preprocessor`), and only that example's code can have made the value: some caller above
    must be that example's, and the chain may pass only through library code to get there.
    `mdbook build` does not run the nop-preprocessor example's `Nop::run` (reading 309, 2
    F); that example's `main` does."""
    programs = graph.programs
    if not programs:
        return NO_NEEDS
    mine, theirs = programs[edge.caller], programs[edge.callee]
    wanted = [n for n in below if n.startswith(PROGRAM)] if below else []
    if theirs and not theirs.startswith("!") and mine != theirs:
        wanted.append(PROGRAM + theirs)
    held = []
    for need in wanted:
        if mine == need[len(PROGRAM) :]:
            continue  # made here: the example's own code
        if mine:
            return None  # another program's code: it holds no value of that example's
        held.append(need)
    return frozenset(held) if held else NO_NEEDS


def unmet_program(needs: frozenset[str]) -> bool:
    """Whether a chain still needs a caller in an example's own code (`program_needs`): an
    entry point of another program, or a library's, is no way in for it."""
    return any(n.startswith(PROGRAM) for n in needs)


def needs_above(graph: CallGraph, edge: Edge, below: frozenset[str]) -> frozenset[str] | None:
    """The packages a chain's caller side must still name, once `edge`'s caller is on it;
    None when no build can make that chain.

    A fn outside a trait impl (a free fn, an inherent method) is called only from packages
    that can name it: a call of one from a package that does not depend on its package is
    a name resolved wrongly (nushell's nu-glob calling std's `Path::to_path_buf`, taken for
    nu-path's, which nu-glob does not depend on); so is a call whose receiver's type the
    index does not know, resolved by its name alone (atuin-server's `tracing` `.init()`,
    taken for the AI client's `AiApp::init`). A trait impl's method may be called from
    anywhere its trait is known, through a `dyn` value made elsewhere (risingwave's batch
    executors read the frontend's system catalog through an `Arc<dyn SysCatalogReader>`):
    nothing is held, unless the call shows static dispatch (`_dispatch_slot`: `Self::f`
    in a trait's provided method, a generic's or an `impl Trait` parameter's). Then the
    value's type comes from further up: some caller above must name that package, and
    until one does each caller must be code that package depends on, that the type passes
    through. sqlx-core's `ProtocolDecode::decode` calls `Self::decode_with`, any of 14
    impls; sqlx-postgres's `Authentication::decode_body` calls it, and sqlx-postgres does
    not see sqlx-mysql, nor does sqlx-mysql depend on it: that chain is no way to MySQL's
    impl. An RPC's client does not depend on its server: nothing passes that hop by type.
    A fn of no known package holds nothing; every dependency table counts (`cargo_deps`).
    With nothing needed below (most of a walk's edges), the answer is the edge's alone: kept
    per edge."""
    if not below:
        known: dict[int, frozenset[str] | None] = graph.derived.setdefault("needs above", {})
        key = id(edge)  # the graph's edges live as long as it
        if key not in known:
            known[key] = _needs_above(graph, edge, below)
        return known[key]
    return _needs_above(graph, edge, below)


def _needs_above(graph: CallGraph, edge: Edge, below: frozenset[str]) -> frozenset[str] | None:
    if edge.resolution in ("rpc", "message", "iterator", "extractor"):  # a server's, an
        # actor's, an iterator's `next` (its `self` is the value iterated), a framework's
        # extractor: no type passes
        return NO_NEEDS
    held = program_needs(graph, edge, below)
    if held is None:
        return None
    typed = _typed_needs(graph, edge, below)
    if typed is None:
        return None
    typed = typed | held if held else typed
    packages = graph.packages
    if not packages:
        return typed
    mine, theirs = packages[edge.caller], packages[edge.callee]
    if mine is None:
        return typed
    sees = graph.reachable.get(mine, frozenset((mine,)))
    if theirs is not None and theirs not in sees:
        if edge.resolution == "name" or graph.nodes[edge.callee].definition.trait is None:
            return None
        if not _sees_trait(graph, edge.callee, sees):
            return None
        if _dispatch_slot(graph, edge) is not None:
            below = below | {theirs}
    kept = []
    for package in below:
        if package.startswith((TYPED, PROGRAM)):
            continue
        if package in sees:
            continue  # named here: where the value's type can come from
        if mine not in graph.reachable.get(package, ()):
            return None
        kept.append(package)
    return frozenset((*kept, *typed)) if kept or typed else NO_NEEDS


def _typed_needs(graph: CallGraph, edge: Edge, below: frozenset[str]) -> frozenset[str] | None:
    """The impl types the chain needs above `edge`'s caller (`TYPED` needs); None when the
    caller gives another.

    A provided method calling `self.f()` runs the impl of whatever `Self` is: a chain down to
    MySQL's `fetch_many` from sqlx's `Executor::execute_many` needs `Self` to be
    `MySqlConnection`, and a generic fn calling `rewriter.f()` needs its parameter to be of
    the impl's type (risingwave's `default_rewrite_expr(self, expr)`, called by
    `ParamRewriter`, is no way to `Substitute`'s `rewrite_input_ref`). Going up, a provided
    method of the same trait calling through `self` keeps the need; a caller that says the
    type (`self` in an impl of another type, a parameter or argument of a written type)
    meets it or refuses the chain; a generic parameter passed on moves the need to it;
    anything else (a local, an expression, a `dyn` value) drops it, unknown."""
    out: list[str] = []
    for need in below:
        if not need.startswith(TYPED):
            continue
        slot, _, wanted = need[len(TYPED) :].partition("=")
        given = _given_type(graph, edge, slot)
        if given is None:
            continue
        kind, value = given
        if kind == "type":
            if value != wanted:
                return None
        else:  # still generic above: the caller's `Self` or its parameter
            out.append(f"{TYPED}{value}={wanted}")
    found = dispatch_need(graph, edge)
    if found is not None:
        out.append(found)
    return frozenset(out)


def dispatch_need(graph: CallGraph, edge: Edge) -> str | None:
    """The `TYPED` need a static dispatch makes: `self` in a provided method, or a generic
    parameter of the caller, on the impl's type (None for any other call). Once an edge:
    the walks ask it of every edge they cross, risingwave's ~350,000 times."""
    known: dict[int, str | None] = graph.derived.setdefault("dispatch needs", {})
    key = id(edge)  # the graph's edges live as long as it
    if key not in known:
        known[key] = _made_dispatch_need(graph, edge)
    return known[key]


def _made_dispatch_need(graph: CallGraph, edge: Edge) -> str | None:
    callee = graph.nodes[edge.callee].definition
    if not callee.owner or not callee.trait or callee.owner == callee.trait:
        return None
    slot = _dispatch_slot(graph, edge)
    return None if slot in (None, "") else f"{TYPED}{slot}={type_name(callee.owner)}"


def _sees_trait(graph: CallGraph, impl: int, sees: frozenset[str]) -> bool:
    """Whether code that sees the packages `sees` can call the trait method `impl`
    implements through its trait: one of the packages that declare a trait of that name with
    that method is among them, or none of the repository's does (a trait of another
    crate's: `Iterator`, `Future`). A value of a type the caller cannot name may come to it
    from below, but the trait it is called through is one the caller's code links:
    risingwave's `ComputeClient::execute` calls tonic's `execute`, not risedev's
    `Task::execute`, a trait of a package `rpc_client` does not depend on (reading 320)."""
    definition = graph.nodes[impl].definition
    declared: dict[tuple[str, str], set[str | None]] | None = graph.derived.get("trait packages")
    if declared is None:  # (trait, method) -> the packages of its declarations, made once
        declared = graph.derived["trait packages"] = {}
        for node_id, node in enumerate(graph.nodes):
            if (d := node.definition).trait is not None and d.trait == d.owner:
                key = (_trait_name(d.trait), d.name)
                declared.setdefault(key, set()).add(graph.packages[node_id])
    packages = declared.get((_trait_name(definition.trait or ""), definition.name), set())
    return not packages or None in packages or not packages.isdisjoint(sees)


def _trait_name(written: str) -> str:
    """A trait as an impl writes it (`crate::task::Task`, `Executor<T>`), by its name."""
    return written.rsplit("::", 1)[-1].split("<", 1)[0].strip()


def _dispatch_slot(graph: CallGraph, edge: Edge) -> str | None:
    """Which of its caller's values picks the impl `edge`'s call runs, when the caller's own
    caller chooses its type: `self` (`self.f()`/`Self::f()` in a trait's provided method),
    a parameter's index (`x.f()`, `x` of a generic type or `impl Trait`), `<T>` (`T::f()`,
    a type parameter of the fn's own, which a caller's turbofish gives: `_turbofish_type`),
    "" (`T::f()`, one of its impl block's); None when the call is no static dispatch."""
    call = edge.call
    if call is None:
        return None
    caller = graph.nodes[edge.caller].definition
    if call.qualifier in ("self", "Self"):
        return "self" if caller.trait is not None and caller.owner == caller.trait else None
    generics = _generics(caller)
    if call.qualifier in generics:
        # `T::cast(v)` of `fn cast_to<T: Cast>`: a caller's turbofish gives `T`
        # (`v.cast_to::<Datetime>()`); a generic of the impl block, nothing here does
        return f"<{call.qualifier}>" if call.qualifier in own_type_params(caller.signature) else ""
    for at, (name, written) in enumerate(caller.params):
        if name == call.qualifier and _generic(written, generics):
            return str(at)
    return None


def _given_type(graph: CallGraph, edge: Edge, slot: str) -> tuple[str, str] | None:
    """What `edge`'s caller gives for the callee's `slot` (`self`, a parameter's index, or
    `<T>` a type parameter its turbofish gives):
    ("type", its base name), ("slot", the caller's own slot still generic), or None. Once
    an edge and slot, as `dispatch_need`."""
    known: dict[tuple[int, str], tuple[str, str] | None]
    known = graph.derived.setdefault("given types", {})
    key = (id(edge), slot)
    if key not in known:
        known[key] = _made_given_type(graph, edge, slot)
    return known[key]


def _made_given_type(graph: CallGraph, edge: Edge, slot: str) -> tuple[str, str] | None:
    call = edge.call
    if call is None:
        return None
    callee = graph.nodes[edge.callee].definition
    caller = graph.nodes[edge.caller].definition
    if slot.startswith("<"):
        return _turbofish_type(graph, edge, slot[1:-1])
    if slot == "self":
        if call.kind != "method" and not (call.kind == "path" and call.qualifier == "Self"):
            return None  # `Trait::f(x, ..)`: not followed
        text = "self" if call.kind == "path" else call.qualifier
    else:
        at = int(slot) + (call.kind == "path" and callee.has_self)  # `T::f(x, a)`: x is self
        if (call.kind == "method" and not callee.has_self) or at >= len(call.args):
            return None
        text = call.args[at]
    text = _argument(text)
    if text in ("self", "*self"):
        if caller.owner and caller.owner == caller.trait:
            return "slot", "self"
        return _known_type(graph, type_name(caller.owner)) if caller.owner else None
    generics = _generics(caller)
    for at, (name, written) in enumerate(caller.params):
        if name == text:
            if _generic(written, generics):
                return "slot", str(at)
            return _known_type(graph, inner_type(written))
    if _UNIT_VALUE.fullmatch(text):  # `load_universal(&MmapFs, ..)`: a unit struct's value
        return _known_type(graph, type_name(text))
    literal = STRUCT_LITERAL.match(text)
    if literal is not None:  # zoxide's `import::run(&import::ZLua {}, ..)`: a struct's value
        return _known_type(graph, type_name(literal[1]))
    bound = _local_type(graph, edge.caller, text, call.line)
    return _known_type(graph, bound) if bound else None


def _turbofish_type(graph: CallGraph, edge: Edge, param: str) -> tuple[str, str] | None:
    """What `edge`'s call gives its callee's type parameter `param` in its turbofish
    (`v.cast_to::<Datetime>()` gives `T` of `fn cast_to<T: Cast>` `Datetime`): ("type", its
    base name), ("slot", `<U>`) for a type parameter of the caller's own, or None (no
    turbofish: the type is inferred, or a type the repository does not define)."""
    call = edge.call
    if call is None or not call.turbofish:
        return None
    params = own_type_params(graph.nodes[edge.callee].definition.signature)
    given = [a for a in generic_parts(f"_<{call.turbofish}>")[1] if not a.startswith("'")]
    if param not in params or len(given) != len(params):
        return None
    written = given[params.index(param)]
    caller = graph.nodes[edge.caller].definition
    if written in own_type_params(caller.signature):
        return "slot", f"<{written}>"
    if written == "Self":
        if caller.owner and caller.owner == caller.trait:
            return "slot", "self"
        return ("type", type_name(caller.owner)) if caller.owner else None
    name = type_name(written)
    if not name or name == "_" or ("type", name) in graph.named:
        return None  # inferred (`::<_>`), or an alias (`type Pt = Point`): not judged
    # the type itself, whatever it derefs to or wherever it is declared (`f64` too): the
    # impl `T::f()` runs is `T`'s own (`_known_type` judges a receiver's method instead)
    return "type", name


@lru_cache(maxsize=1 << 12)
def own_type_params(signature: str) -> tuple[str, ...]:
    """A fn's own type and const parameters, in order, as a turbofish gives them: `fn
    cast_to<'a, T: Cast, const N: usize>(..)` -> (T, N); () without any. The generics end
    at the parameter list's `(`, after `fn `: influxdb's `pub(crate) async fn update<Op:
    CatalogOp>` had read as none (its `pub(` first), so `self.update::<RegisterNodeOp>(..)`
    reached `DeleteUserOp::prepare` (reading 323)."""
    at = signature.find("fn ")
    if at < 0:
        return ()
    head, depth = signature[at + 3 :], 0
    for end, char in enumerate(head):
        if char == "<":
            depth += 1
        elif char == ">" and head[end - 1] != "-":
            depth -= 1
        elif char == "(" and depth == 0:
            head = head[:end]
            break
    found = []
    for part in generic_parts(head)[1]:
        if part.startswith("'"):
            continue
        name = part.removeprefix("const ").split(":", 1)[0].split("=", 1)[0].strip()
        if name.isidentifier():
            found.append(name)
    return tuple(found)


# An argument that is a unit struct's value, as written: `MmapFs`, `fs::MmapFs` (an enum's
# variant or a const names no struct: `_known_type` says so)
_UNIT_VALUE = re.compile(r"(?:[A-Za-z_]\w*::)*[A-Z]\w*")


def _unit_values_of(graph: CallGraph, node_id: int) -> list[str]:
    """The names of the unit struct values and struct literals a fn passes as arguments
    (`_UNIT_VALUE`, `STRUCT_LITERAL`): what `_given_type` may read for it."""

    def unit_values(index: FileIndex) -> Iterator[tuple[int, str]]:
        for call in index.calls:
            for text in map(_argument, call.args):
                if _UNIT_VALUE.fullmatch(text):
                    yield call.caller, type_name(text)
                elif (literal := STRUCT_LITERAL.match(text)) is not None:
                    yield call.caller, type_name(literal[1])

    return _per_fn(graph, node_id, "unit values by fn", unit_values)


def _per_fn(
    graph: CallGraph,
    node_id: int,
    key: str,
    rows: Callable[[FileIndex], Iterable[tuple[int, _T]]],
) -> list[_T]:
    """What `rows` gives of the fn `node_id`'s file for that fn (each row with its fn's
    definition index), grouped by fn once per file and kept in the graph under `key`."""
    by_node: dict[int, list[_T]] = graph.derived.setdefault(key, {})
    if node_id not in by_node:
        path = graph.nodes[node_id].path
        fns = graph.by_file.get(path, {})  # definition index -> node id
        for fn in fns.values():
            by_node.setdefault(fn, [])
        index = graph.indexes.get(path)
        for caller, row in rows(index) if index is not None else ():
            holder = fns.get(caller)
            if holder is not None:
                by_node[holder].append(row)
    return by_node.get(node_id, [])


def _argument(text: str) -> str:
    """An argument's text without its borrow: `&mut x` -> `x`."""
    return text.removeprefix("&").removeprefix("mut ").strip()


def _local_type(graph: CallGraph, node_id: int, name: str, line: int) -> str | None:
    """The type of the caller's `let name` nearest above `line`, where it says one: written
    (`let c: PgConnection`), or the value of a type's own fn that returns `Self` or the type
    (`let listener = PgListener::connect_with(&pool).await?`); None otherwise."""
    found = [
        local for local in _locals_of(graph, node_id)
        if local.name == name and local.line <= line
    ]  # fmt: skip
    if not found:
        return None
    written = max(found, key=lambda local: local.line).type
    if written.startswith(_OWN_CALL):  # `let w = self.new_payload_writer()`
        owner = graph.nodes[node_id].definition.owner
        return (
            _own_method_type(graph, type_name(owner), written[len(_OWN_CALL) :]) if owner else None
        )
    return _let_type(graph, written)


_OWN_CALL = f"{_CALLED}self."


def _own_method_type(graph: CallGraph, owner: str, method: str) -> str | None:
    """The one type the `owner`'s methods named `method` return (`Self` is the owner):
    kinesis's `let mut payload_writer = self.new_payload_writer()` is a
    `KinesisSinkPayloadWriter`, whose `FormattedSink::write_chunk` then writes Kinesis's
    payloads, not Redis's. None when they return none, several, or a generic."""
    returned = _returns(graph).get((owner, method), set())
    if len(returned) != 1:
        return None
    (found,) = returned
    return owner if found == "Self" else (found if len(found) > 1 else None)


def _returns(graph: CallGraph) -> dict[tuple[str, str], set[str]]:
    """(type, fn) -> the types such fns' values have (`returned_type`), once per graph."""
    methods: dict[tuple[str, str], set[str]] | None = graph.derived.get("returns")
    if methods is None:
        methods = graph.derived["returns"] = {}
        for node in graph.nodes:
            d = node.definition
            if d.owner:
                methods.setdefault((type_name(d.owner), d.name), set()).add(
                    returned_type(d.signature)
                )
    return methods


def _let_type(graph: CallGraph, written: str) -> str | None:
    """`_local_type` of one `Local.type` text (kept per graph)."""
    typed: dict[str, str | None] = graph.derived.setdefault("let types", {})
    if written not in typed:
        typed[written] = _read_let_type(graph, written)
    return typed[written]


def _read_let_type(graph: CallGraph, written: str) -> str | None:
    if not written.startswith("<"):
        return inner_type(written)
    if not written.startswith(_CALLED) or "::" not in written:
        return None
    owner, _, fn = written[len(_CALLED) :].rpartition("::")
    owner = owner.rsplit("::", 1)[-1]
    if not owner[:1].isupper():
        return None
    return owner if _returns(graph).get((owner, fn), set()) & {"Self", owner} else None


def _locals_of(graph: CallGraph, node_id: int) -> list[Local]:
    """The `let`s of a fn, from its file's index (grouped once per file)."""
    return _per_fn(
        graph,
        node_id,
        "locals by fn",
        lambda index: ((local.caller, local) for local in index.locals),
    )


def _known_type(graph: CallGraph, name: str) -> tuple[str, str] | None:
    """("type", `name`) for a struct or enum the repository defines that derefs to nothing
    (a `PoolConnection` runs its target's methods too); else None: an alias, a generic of
    an impl block, another crate's type are not judged."""
    derefs = graph.derived.get("derefs")
    if derefs is None:
        derefs = graph.derived["derefs"] = {
            type_name(d.owner) for _, d in graph.named.get(("type", "Target"), ())
            if d.trait == "Deref" and d.owner
        }  # fmt: skip
    defined = ("struct", name) in graph.named or ("enum", name) in graph.named
    return ("type", name) if defined and name not in derefs else None


def type_facts(graph: CallGraph, node_id: int) -> tuple[bool | str, ...]:
    """What `_given_type` reads of the whole repository for the fn `node_id` as a caller:
    whether its impl's type, each parameter's and each unit struct value it passes are
    `_known_type`s. The walks' memo puts
    it in the fn's digest, so a struct defined or a `Deref` added elsewhere touches it.
    Only a fn that calls one a typed need can sit on (a provided method, a fn with a generic
    or `impl Trait` parameter) has facts: no other is asked (`_given_type`)."""
    if node_id not in _asked(graph):
        return ()
    d = graph.nodes[node_id].definition
    known: dict[str, bool] = graph.derived.setdefault("known types", {})  # by name
    written: dict[str, str] = graph.derived.setdefault("param types", {})  # as written -> name
    names = [type_name(d.owner)] if d.owner else []
    for _, text in d.params:
        name = written.get(text)
        if name is None:
            name = written[text] = inner_type(text)
        names.append(name)
    # a `let`'s type read through a fn of another file (`T::new(..)` returning `Self`; the
    # type an own method returns, `self.new_payload_writer()`: its name, which that fn says)
    lets = [local.type for local in _locals_of(graph, node_id) if local.type.startswith(_CALLED)]
    own = type_name(d.owner) if d.owner else ""
    mine = [_own_method_type(graph, own, t[len(_OWN_CALL) :]) or "" for t in lets
            if own and t.startswith(_OWN_CALL)]  # fmt: skip
    names += [_let_type(graph, t) or "" for t in lets if not t.startswith(_OWN_CALL)] + mine
    names += _unit_values_of(graph, node_id)  # `f(&MmapFs)`: whether `MmapFs` is a struct
    out: list[bool | str] = []
    for name in names:
        fact = known.get(name)
        if fact is None:
            fact = known[name] = bool(name) and _known_type(graph, name) is not None
        out.append(fact)
    return (*out, *mine)


def _asked(graph: CallGraph) -> set[int]:
    """The fns that call a provided method or a fn with a generic or `impl Trait`
    parameter: the callers `_given_type` may be asked about (found once per graph)."""
    asked: set[int] | None = graph.derived.get("asked for types")
    if asked is None:
        asked = graph.derived["asked for types"] = set()
        for callee, edges in graph.callers.items():
            d = graph.nodes[callee].definition
            generics = _generics(d)
            if (d.owner and d.owner == d.trait) or any(_generic(w, generics) for _, w in d.params):
                asked.update(e.caller for e in edges)
    return asked


def _generics(d: Definition) -> Collection[str]:
    """A fn's bounded type parameters (`signatures.generic_bounds`): `fn f<T: X>`, `where T:
    X` (an unbounded one calls no trait's method)."""
    return _bounded(d.signature)


@lru_cache(maxsize=1 << 15)  # a fn's signature, read for each edge a walk crosses
def _bounded(signature: str) -> frozenset[str]:
    return frozenset(generic_bounds(signature))


def _generic(written: str, generics: Collection[str]) -> bool:
    """Whether a parameter's type is one of the fn's generics or an `impl Trait`."""
    bare = written.lstrip("&").removeprefix("mut ").strip()
    return bare.startswith("impl ") or bare in generics


def type_name(owner: str) -> str:
    """A type's or trait's name without its path and generics: `store::Disk<'a>` -> `Disk`,
    `TryFrom<u8>` -> `TryFrom`."""
    return owner.split("<", 1)[0].rsplit("::", 1)[-1].strip()
