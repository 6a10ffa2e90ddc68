"""The call graph of a repository: every fn of the index a node, every resolved call an edge.

A call is resolved by name, narrowed the way a reader would: `self.` inside an impl, a
typed field, parameter or `let`, `Type::f`, `use` imports, the same file, module and
crate, arity. Each edge says how it was resolved; a call that still names several fns
keeps at most `MAX_CANDIDATES` of them, marked ambiguous, and one that names more is
dropped rather than guessed.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any, get_args

from pipeline.core.index import (
    ARM_LINK,
    ASSOCIATED_CALL,
    CALLED_TYPE,
    FIELD_TYPE,
    FIELD_VALUE,
    ITEM_VALUE,
    LOOP_ITEM,
    VARIANT_VALUE,
    Call,
    Definition,
    FileIndex,
    Impl,
    Use,
)
from pipeline.core.reach import EntryKind, Resolution
from pipeline.languages import INDEX_VERSION
from pipeline.scan.context import _crate
from pipeline.scan.elements import element_of, iterated
from pipeline.scan.exports import module_files
from pipeline.scan.forked import balanced, map_forked, parts_wanted
from pipeline.scan.linkmemo import Key, Linked, LinkMemo, numbered, reusable, touched
from pipeline.scan.names import (
    ADAPTERS,
    HOLDER_ONLY_METHODS,
    OPTION_METHODS,
    STD_METHODS,
    STD_TYPES,
    crate_name,
    generic_parts,
    inner_type,
    module_of,
    relative_module,
    type_module,
)
from pipeline.scan.signatures import (
    generic_bounds,
    handled_message,
    is_rpc,
    return_text,
    returned_type,
    supertraits,
    tuple_fields,
    type_parameters,
)

MAX_CANDIDATES = 3
# At most this many edges fan out of one trait method's calls (its calls times its impls);
# past it (a repository, made or generated, with a trait of thousands of impls called from
# hundreds of places) its calls reach the declaration alone: the run stays bounded, and a
# path through "any of 3,000 impls" would say little.
MAX_DISPATCH = 20_000


# Edges and nodes are made anew at every link (risingwave: 75,000 edges, 23,600 fns) and
# never changed once made, but not `frozen`: a frozen dataclass's `__init__` sets each field
# through `object.__setattr__` (an edge 1.3-2.0 us, against 0.3 us so: 0.1-0.2 s of a link).
# `unsafe_hash`: hashed by value, as a frozen one is.
@dataclass(slots=True, unsafe_hash=True)
class Edge:
    """One resolved call: `caller` calls `callee` at `line` (node ids)."""

    caller: int
    callee: int
    line: int
    resolution: Resolution
    candidates: tuple[int, ...] = ()  # the other fns an ambiguous call may reach
    call: Call | None = None
    arm: str | None = None  # the dispatch arm the call sits in: `Statement::AlterX`


@dataclass(slots=True, unsafe_hash=True)
class Node:
    """A fn of the repository."""

    path: str
    definition: Definition
    module: str  # `stream::stream_manager` (+ inline modules)
    crate: str

    @property
    def label(self) -> str:
        d = self.definition
        if d.owner == "()" and d.trait:  # `impl Session for ()`: as the prose names it
            return f"<() as {d.trait}>::{d.name}"
        return f"{d.owner}::{d.name}" if d.owner else d.name


def derives_clap(definition: Definition) -> bool:
    """Whether an item's attributes derive clap's `Subcommand` or `Parser`."""
    return any("Subcommand" in a or "Parser" in a for a in definition.attrs)


@dataclass
class CallGraph:
    """Nodes, edges by callee, and entry points by node."""

    nodes: list[Node] = field(default_factory=list)
    callers: dict[int, list[Edge]] = field(default_factory=lambda: defaultdict(list))
    entries: dict[int, tuple[EntryKind, str]] = field(default_factory=dict)
    # a published library's front doors that the repository calls too: the way in of a walk
    # that finds no entry point (`callerpaths._walk`)
    front_doors: dict[int, tuple[EntryKind, str]] = field(default_factory=dict)
    # the fns code outside their crate can call: a library's `pub` fns its public modules
    # show, entry points or not (one the crate calls too is no entry, `entrypoints`)
    public_api: set[int] = field(default_factory=set)
    # a `pub`/`pub(crate)` fn's module that a private module on its path limits it to
    # (`Exports.seen_within`: "" for the crate's root), by node
    seen_within: dict[int, str] = field(default_factory=dict)
    # (crate, name) of the `pub` types code outside their crate cannot name
    # (`Exports.unnamed_types`)
    unnamed_types: frozenset[tuple[str, str]] = frozenset()
    by_file: dict[str, dict[int, int]] = field(default_factory=dict)  # path -> def index -> id
    indexes: Mapping[str, FileIndex] = field(default_factory=dict)
    clap_enums: frozenset[str] = frozenset()  # enums deriving clap's `Subcommand`/`Parser`
    subcommands: frozenset[str] = frozenset()  # clap builder `Command::new("x")` names
    named: dict[tuple[str, str], list[tuple[str, Definition]]] = field(default_factory=dict)
    derived: dict[Any, Any] = field(default_factory=dict)  # lookups others memoize per graph
    # each node's package (None: no manifest says), and the packages each package's code
    # can name (itself and its dependencies, transitively): which chains Rust can compile
    packages: list[str | None] = field(default_factory=list)
    reachable: dict[str, frozenset[str]] = field(default_factory=dict)
    # each node's program, where only one program can hold its code (`buildable.program_of`):
    # an example's or benchmark's root file, "!" and the kind of another program (a binary, a
    # build script, a test), "" for a library's code or one not known
    programs: list[str] = field(default_factory=list)
    dependency_tables: tuple[Any, ...] = ()  # the manifests' dependencies, for the walks' memo
    clap_packages: dict[str, tuple[str | None, ...]] = field(default_factory=dict)
    # what the link read and resolved (`linkmemo`), when asked; made when wanted (its cost is
    # kept off the way to the sites' paths)
    memo: Callable[[], LinkMemo] | None = None

    def enclosing(self, path: str, line: int) -> int | None:
        """The innermost fn of `path` that holds `line` (the last to start, among those
        that hold it; the first such in definition order on a tie)."""
        best: tuple[int, int] | None = None
        for start, end, node_id in self._spans(path):
            if start <= line <= end and (best is None or start >= best[0]):
                best = (start, node_id)
        return best[1] if best else None

    def _spans(self, path: str) -> list[tuple[int, int, int]]:
        """(start, end, node) of the file's fns, made once per file."""
        spans: dict[str, list[tuple[int, int, int]]] = self.derived.setdefault("spans", {})
        mine = spans.get(path)
        if mine is None:
            definitions = self.indexes[path].definitions if path in self.indexes else ()
            mine = spans[path] = [
                (definitions[i].line, definitions[i].end_line, n)
                for i, n in self.by_file.get(path, {}).items()
            ]
        return mine

    def keys(self) -> list[tuple[str, int]]:
        """Each fn's file and index in that file's definitions, by node id (what a
        `FileIndex`'s entries name it by, and what outlives the graph's numbering); made
        once per graph."""
        keys: list[tuple[str, int]] | None = self.derived.get("node keys")
        if keys is None:
            keys = self.derived["node keys"] = [("", 0)] * len(self.nodes)
            for path, ids in self.by_file.items():
                for index, node_id in ids.items():
                    keys[node_id] = (path, index)
        return keys

    def declared_in(self, node_id: int) -> int | None:
        """The fn in whose body the fn `node_id` is declared (`fn add(..) { fn parse(..) {..}
        .. }`: only code in that body can name it), or None for an item of a module or impl."""
        node = self.nodes[node_id]
        line, end = node.definition.line, node.definition.end_line
        around = [
            (start, other)
            for start, stop, other in self._spans(node.path)
            if other != node_id and start <= line and end <= stop and (start, stop) != (line, end)
        ]
        return max(around)[1] if around else None

    def crate_files(self, crate: str) -> list[str]:
        """The indexed files of a crate, sorted (grouped once per graph)."""
        if "crate files" not in self.derived:
            grouped: dict[str, list[str]] = {}
            for path in sorted(self.indexes):
                grouped.setdefault(_crate(path), []).append(path)
            self.derived["crate files"] = grouped
        files: list[str] = self.derived["crate files"].get(crate, [])
        return files

    def definitions(self, kind: str, name: str) -> list[tuple[str, Definition]]:
        """Every definition of a kind and name, as `(path, definition)`."""
        return self.named.get((kind, name), [])


class _Tables:
    """Lookup tables over the nodes, built once per graph."""

    def __init__(self, graph: CallGraph) -> None:
        self.free: dict[str, list[int]] = defaultdict(list)
        self.methods: dict[tuple[str, str], list[int]] = defaultdict(list)
        self.by_method_name: dict[str, list[int]] = defaultdict(list)
        self._with_self: dict[str, tuple[int, ...]] = {}  # `methods_named`, once per name
        self.traits_of: dict[str, set[str]] = defaultdict(set)
        self.fields: dict[tuple[str, str], str] = {}
        # (file, type, field) -> its written type: a file's own struct before another of its
        # name (hyper's http1 and http2 `SendRequest`s: http2's `self.dispatch` had taken
        # http1's `dispatch::Sender` for its `UnboundedSender`); `resolving`: the file whose
        # calls are being resolved (`_resolutions`)
        self.file_fields: dict[tuple[str, str, str], str] = {}
        self.resolving = ""
        self.rpc: dict[str, list[int]] = defaultdict(list)
        self.aliases: dict[str, str] = {}  # `type XRef = Arc<X>`: XRef -> X
        # the other way: X -> the aliases of it and their files (`type KeyBinding =
        # Binding<BindingKey>`)
        self.aliased_as: dict[str, list[tuple[str, str]]] = defaultdict(list)
        # (file, alias) -> the type as the alias writes it: `tokio_mpsc::Sender<TapPayload>`
        self._alias_values: dict[tuple[str, str], str] = {}
        # `type VectorWriter = HummockVectorWriter;` of each impl: what `S::VectorWriter` may be
        self.associated: dict[str, set[str]] = defaultdict(set)
        for node_id, node in enumerate(graph.nodes):
            d = node.definition
            if d.owner is None:
                self.free[d.name].append(node_id)
            else:
                self.methods[(d.owner, d.name)].append(node_id)
                self.by_method_name[d.name].append(node_id)
                if d.trait and d.trait != d.owner and is_rpc(d):
                    self.rpc[d.name].append(node_id)
        # Every name a call can resolve to: `_resolve` finds only fns, by name or method name,
        # and a fn a module re-exports under another name (`use tool::run::run as tool_run`)
        self.renamed = frozenset(
            use.alias for index in graph.indexes.values() for use in index.uses if use.renames()
        )
        self.known = frozenset(self.free) | frozenset(self.by_method_name) | self.renamed
        # A type of the repository's a `use` renames (tauri's `pub use rust::{Rust as
        # AppInterface}`): the name it had, when every such `use` of the new name says the
        # same one (`_methods_of`). Not another crate's (tikv's `use rocksdb::
        # CompactionJobInfo as RawCompactionJobInfo` is no `engine_traits::CompactionJobInfo`).
        self.crates = crate_dirs(graph)
        self.modules: dict[str, set[str]] = defaultdict(set)  # a crate's module names (`rust`)
        for path in graph.indexes:
            stem = path.rsplit("/", 2)
            self.modules[_crate(path)].add(stem[-2] if stem[-1] == "mod.rs" else stem[-1][:-3])
        originals: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for path, index in graph.indexes.items():
            for use in index.uses:
                if use.renames() and use.alias[:1].isupper():
                    first = use.path.split("::", 1)[0]
                    ours = _ours(self, first, path)
                    originals[use.alias].add(
                        (use.path.rsplit("::", 1)[-1], first) if ours else ("", first)
                    )
        self.renamed_types = {
            new: old.pop()
            for new, old in originals.items()
            if len(old) == 1 and "" not in {o for o, _ in old}
        }
        self.nodes = graph.nodes
        self._owner_modules: dict[str, set[str]] | None = None  # `owner_modules`, once
        self._named = graph.named
        self._indexes = graph.indexes
        self._handlers: dict[str, list[int]] | None = None  # `handlers`, once per graph
        self._parameters: dict[str, frozenset[str]] = {}  # `type_parameters`, once per struct
        self._returned: dict[str, str | None] = {}  # by `called`
        self._returns: dict[int, str] = {}  # by fn
        # The repository's traits: a receiver of such a type runs the method of an impl of it.
        # Not a std type's name: a parse that went wrong (risingwave's nightly trait alias
        # `pub trait F<'a> = FnOnce() -> ..;`) makes the next impl's fns a "trait `Box`"'s.
        self.traits = frozenset(
            node.definition.owner
            for node in graph.nodes
            if node.definition.owner
            and node.definition.owner == node.definition.trait
            and node.definition.owner not in STD_TYPES
        ) | frozenset(  # and those declaring no method (`trait LogicalPlanNode: ToStream + ..`)
            name for kind, name in graph.named if kind == "trait" and name not in STD_TYPES
        )
        # every type the index sees defined: a struct, enum, trait or alias of the repository
        self.defined = frozenset(
            name for kind, name in graph.named if kind in ("struct", "enum", "trait", "type")
        )
        # of those, the structs and enums no alias shares a name with
        self.concrete = frozenset(
            name for kind, name in graph.named if kind in ("struct", "enum")
        ) - frozenset(name for kind, name in graph.named if kind == "type")
        # `enum ExtractorImpl { Schema(Box<SchemaExtractor>), .. }`: -> {SchemaExtractor, ..}
        self.variant_types: dict[str, set[str]] = defaultdict(set)
        # `Login(login::Cmd)` of `enum Commands`: (Commands, Login) -> `login::Cmd`, as written
        self.variant_values: dict[tuple[str, str], str] = {}
        # `impl Deref for PlanRef { type Target = C::PlanRefDyn; }`: PlanRef -> PlanRefDyn
        self.deref: dict[str, str] = {}
        # `trait PlanNode: ToStream + ToBatch`: a `dyn PlanNode` has ToStream's methods too
        self.supers: dict[str, set[str]] = defaultdict(set)
        self.above: dict[str, tuple[list[str], tuple[Key, ...]]] = {}  # `_supertraits_of`
        # What the file being resolved looked up (`linkmemo`): a file whose lookups all give
        # what they gave in the previous link resolves as it did then.
        self.seen: set[Key] = set()
        for path, index in graph.indexes.items():
            for d in index.definitions:
                if d.kind == "trait":
                    self.supers[d.name].update(supertraits(d.signature))
                elif d.kind == "variant" and d.owner and d.signature.endswith(")"):
                    held = _VARIANT_VALUE.fullmatch(d.signature)
                    if held and "," not in held[1]:
                        self.variant_types[d.owner].add(inner_type(held[1]))
                        key = (d.owner, d.name)  # two enums of a name that disagree: neither
                        if self.variant_values.setdefault(key, held[1]) != held[1]:
                            self.variant_values[key] = ""
                elif d.kind == "type" and d.name == "Target" and d.trait == "Deref" and d.owner:
                    target = inner_type(d.value or "")
                    if self.deref.setdefault(d.owner, target) != target:
                        self.deref[d.owner] = ""  # two types of one name: neither
            for impl in index.impls:
                if impl.trait:
                    self.traits_of[impl.type].add(inner_type(impl.trait))
            for d in index.definitions:
                if d.kind == "field" and d.owner and d.value:
                    self.fields.setdefault((d.owner, d.name), d.value)
                    self.file_fields.setdefault((path, d.owner, d.name), d.value)
                elif d.kind == "struct" and "(" in d.signature:  # `self.0` of `S(pub T)`: a T
                    for at, written in enumerate(tuple_fields(d.signature)):
                        self.fields.setdefault((d.name, str(at)), written)
                elif d.kind == "type" and d.value and not d.owner:
                    self.aliases.setdefault(d.name, inner_type(d.value))
                    self._alias_values.setdefault((path, d.name), d.value)
                    if inner_type(d.value) != d.name:
                        self.aliased_as[inner_type(d.value)].append((d.name, path))
                elif d.kind == "type" and d.value and inner_type(d.value) != d.name:
                    self.associated[d.name].add(inner_type(d.value))
        # `struct Guarded<T>(T)` derefs to whatever T is: no type the repository names
        for owner, target in list(self.deref.items()):
            if any(
                re.search(rf"[<,]\s*{re.escape(target)}\b", d.signature)
                for _, d in graph.named.get(("struct", owner), [])
            ):
                self.deref[owner] = ""

    def handlers(self, message: str) -> list[int]:
        """The `handle` methods of the actors that take a message of this type (`impl
        Handler<M> for A`: actix, quickwit's actors), looked up."""
        self.seen.add(("h", message))
        if self._handlers is None:
            self._handlers = defaultdict(list)
            for node_id, node in enumerate(self.nodes):
                d = node.definition
                if d.name == "handle" and d.trait == "Handler" and d.owner:
                    impl = _impl_above(self._indexes[node.path], d)
                    handled = handled_message(impl.trait) if impl and impl.trait else None
                    if handled:
                        self._handlers[handled].append(node_id)
        return self._handlers.get(message, [])

    def type_parameters(self, struct: str) -> frozenset[str]:
        """The type parameters the structs of this name declare (`struct Poller<N, C, Handler>`)."""
        self.seen.add(("d", struct))
        found = self._parameters.get(struct)
        if found is None:
            found = self._parameters[struct] = frozenset().union(
                *(type_parameters(d.signature) for _, d in self._named.get(("struct", struct), []))
            )
        return found

    def field_type(self, owner: str, name: str, sure: bool = False) -> str | None:
        """The written type of a field of a type named `owner`: the resolving file's own
        struct's, else the first such struct's. With `sure`, only when no other struct of
        the name could be meant (risingwave's two `AggCall`s: `filter: Condition` and
        `filter: Option<BoxedExpression>`): the file's own, or the one struct so named."""
        own = self.file_fields.get((self.resolving, owner, name))
        if own is not None:
            return own
        if sure:
            self.seen.add(("d", owner))
            if len(self._named.get(("struct", owner), [])) != 1:
                return None
        return self.fields.get((owner, name))

    def owner_modules(self, owner: str) -> set[str]:
        """The modules of the repository's methods of types named `owner`."""
        if self._owner_modules is None:
            self._owner_modules = defaultdict(set)
            for node in self.nodes:
                if node.definition.owner:
                    self._owner_modules[node.definition.owner].add(node.module)
        return self._owner_modules.get(owner, set())

    def methods_named(self, name: str) -> tuple[int, ...]:
        """The methods (with `self`) of any type that have this name."""
        self.seen.add(("n", name))
        found = self._with_self.get(name)
        if found is None:
            found = self._with_self[name] = tuple(
                n for n in self.by_method_name.get(name, ()) if self.nodes[n].definition.has_self
            )
        return found

    def alias_value(self, path: str, name: str) -> str:
        """The type a `type name = ..` alias of the file `path` writes ("" when it has none):
        what the file itself says, so no other file's change is a link memo's to see."""
        return self._alias_values.get((path, name), "")

    def returned(self, called: str) -> str | None:
        """The type `let x = f(..)` or `let x = y.m(..)` gives x (`called`: `f`, `a::f`, `y.m`):
        what the repository's fns of that name return, `Result`/`Option`/`Box`.. unwrapped
        (`?` is taken as applied), `Self` their type; None when they do not agree or there is
        none or too many to say."""
        receiver, dot, name = called.rpartition(".")
        if not dot:
            name = called.rsplit("::", 1)[-1]
        self.seen.add(("n", name) if dot else ("f", name))
        if called not in self._returned:
            if dot:  # not `.unwrap()`, `.get(..)`: std's, whatever else is
                std = name in STD_METHODS or name in ADAPTERS
                named = [] if std else self.by_method_name.get(name, [])
            else:
                named = self.free.get(name, [])
            types = self._types_returned(named)
            if len(types) > 1 and receiver:  # `engine_state.get_decl`: `EngineState`'s
                last = receiver.rsplit(".", 1)[-1]
                types = self._types_returned(
                    [
                        n
                        for n in named
                        if last
                        in _names_of(
                            self.nodes[n].definition.owner, self.nodes[n].definition.trait
                        )[0]
                    ]
                )
            self._returned[called] = _agreed(types)
        return self._returned[called]

    def returned_by(self, found: Sequence[int], called_on: str | None = None) -> str | None:
        """What the fns `found` (a type's methods of one name) return, when they agree and
        it is no std type (`Self`: their type; `called_on`, the type named in the call, when
        given: a trait's default `fn new() -> Self` called as `T::new()` makes a `T`)."""
        return _agreed(self._types_returned(found, called_on))

    def written_by(self, found: Sequence[int]) -> str:
        """What the fns `found` return as their signatures write it, when they agree ("" if
        not, or too many to say)."""
        if len(found) > _RETURN_CANDIDATES:
            return ""
        texts = {return_text(self.nodes[n].definition.signature) for n in found}
        return texts.pop() if len(texts) == 1 else ""

    def _types_returned(self, named: Sequence[int], called_on: str | None = None) -> set[str]:
        types = set()
        for node_id in named if len(named) <= _RETURN_CANDIDATES else ():
            written = self._returns.get(node_id)
            if written is None:  # each fn's signature read once
                written = self._returns[node_id] = returned_type(
                    self.nodes[node_id].definition.signature
                )
            if written == "Self":
                written = called_on or self.nodes[node_id].definition.owner or ""
            types.add(written)
        return types


_RETURN_CANDIDATES = 16


def _agreed(types: set[str]) -> str | None:
    """The one type fns return, but a std type's name (`HashMap`, `Vec`): the repository's
    impls for it are not what its values' methods mostly are."""
    one = next(iter(types)) if len(types) == 1 else ""
    return one if one and one not in STD_TYPES else None


_VARIANT_VALUE = re.compile(r"\w+\((.*)\)", re.S)  # `Kafka(Box<KafkaSink>)`: one value


def link(
    indexes: Mapping[str, FileIndex],
    jobs: int | None = 1,
    dispatch_limit: int = MAX_DISPATCH,
    memo: MemoInput | None = None,
) -> CallGraph:
    """The nodes and edges of a repository's call graph (entry points: `entrypoints`);
    `jobs` processes resolve the calls (None: one per core); `dispatch_limit`: `_add_dispatch`.

    `memo`: each file's blob, and the previous link's memo with the old index of each path
    it read (None: none); the calls of files no change can reach are taken from it
    (`linkmemo`). The graph then gives the memo of this link (`CallGraph.memo`)."""
    graph = CallGraph(
        indexes=indexes,
        clap_enums=frozenset(
            d.name
            for index in indexes.values()
            for d in index.definitions
            if d.kind == "enum" and derives_clap(d)
        ),
        subcommands=frozenset(name for index in indexes.values() for name in _clap_names(index)),
    )
    keys: list[tuple[str, int]] = []  # node id -> (path, definition index)
    for path in sorted(indexes):
        for d in indexes[path].definitions:
            graph.named.setdefault((d.kind, d.name), []).append((path, d))
        module, crate = module_of(path), _crate(path)
        ids: dict[int, int] = {}
        for i, d in enumerate(indexes[path].definitions):
            if d.kind == "fn":
                ids[i] = len(graph.nodes)
                full = "::".join(p for p in (module, d.module) if p)
                graph.nodes.append(Node(path, d, full, crate))
                keys.append((path, i))
        graph.by_file[path] = ids
    tables = _Tables(graph)
    paths = sorted(indexes)
    if memo is not None:  # the blobs of the files linked (a filter may have left some out)
        memo = ({p: memo[0][p] for p in paths if p in memo[0]}, memo[1], memo[2])
    taken = _taken(graph, tables, memo, dispatch_limit) if memo is not None else {}
    todo = [path for path in paths if path not in taken]
    # Resolving is most of the work and reads only the graph: parts of the files in forks,
    # as even in calls as can be (a part is as long as its calls); the edges are added in
    # the files' order, whichever part resolved them.
    shares = balanced(
        todo, lambda p: len(indexes[p].calls), parts_wanted(jobs, len(todo), PARALLEL_FILES)
    )
    resolved = map_forked(
        lambda share: [_resolved_recorded(graph, tables, p, indexes[p]) for p in share], shares
    )
    by_path = {
        path: made
        for share, found in zip(shares, resolved, strict=True)
        for path, made in zip(share, found, strict=True)
    }
    for path in paths:
        calls = taken[path][0] if path in taken else by_path[path][0]
        _add_edges(graph, indexes[path], calls)
    _namesakes(graph)
    _add_dispatch(graph, tables, dispatch_limit)
    if memo is not None:
        blobs, previous = memo[0], memo[1]
        graph.memo = lambda: _memo_of(blobs, dispatch_limit, keys, previous, taken, by_path)
    return graph


# This link's blob of each file, the previous link's memo, and the index each path it read
# had then (by path; a path missing: not to be had).
MemoInput = tuple[Mapping[str, str], "LinkMemo | None", Mapping[str, FileIndex]]


# A file's resolutions taken from the previous link, what they looked up, and the memo's rows
# of them when they still hold as they are.
_Taken = tuple[list["_Resolved"], bytes, "tuple[Linked, ...] | None"]


def _taken(graph: CallGraph, tables: _Tables, memo: MemoInput, limit: int) -> dict[str, _Taken]:
    """The files whose calls resolve as the previous link resolved them, with them."""
    blobs, previous, old_indexes = memo
    if previous is None or previous.dispatch_limit != limit:
        return {}
    found = touched(
        previous,
        blobs,
        graph.indexes,
        old_indexes,
        lambda name: name in tables.known,
        lambda name, changed: any(
            graph.nodes[n].path not in changed
            for n in (*tables.free.get(name, ()), *tables.by_method_name.get(name, ()))
        ),
    )
    if found is None:
        return {}
    changed, keys, moves = found
    taken = {}
    for path in reusable(previous, changed, keys):
        renumbered = _renumbered(graph, path, previous.resolved[path], moves)
        if renumbered is not None:
            calls, moved = renumbered
            # the memo's rows stand as they are unless a callee moved
            taken[path] = (
                calls,
                previous.lookups[path],
                None if moved else previous.resolved[path],
            )
    return taken


def _renumbered(
    graph: CallGraph, path: str, rows: Any, moves: Mapping[str, Mapping[int, int]]
) -> tuple[list[_Resolved], bool] | None:
    """A file's resolutions from a memo with this graph's node ids (a callee in a changed
    file where its fn went), and whether any callee moved so; None when they do not name
    its nodes or a way of resolving (a memo of the wrong shape: the file is resolved)."""
    ids = graph.by_file
    mine = ids.get(path)
    if mine is None or not isinstance(rows, tuple):
        return None
    out: list[_Resolved] = []
    moved = False
    try:
        for call, caller, how, callees in rows:
            if how not in _RESOLUTIONS or type(call) is not int:
                return None
            found = []
            for p, i in callees:
                if p in moves:
                    i, moved = moves[p][i], True
                found.append(ids[p][i])
            out.append((call, mine[caller], how, tuple(found)))
    except (KeyError, TypeError, ValueError):
        return None
    return out, moved


_RESOLUTIONS = frozenset(get_args(Resolution))


def _memo_of(
    blobs: Mapping[str, str],
    limit: int,
    nodes: list[tuple[str, int]],
    previous: LinkMemo | None,
    taken: Mapping[str, _Taken],
    made: Mapping[str, tuple[list[_Resolved], frozenset[Key]]],
) -> LinkMemo:
    """This link's memo: each file's resolutions by node keys, and what they looked up."""
    resolved: dict[str, tuple[Linked, ...]] = {}
    for path, (calls, _, rows) in taken.items():
        if rows is not None:  # as the memo has them
            resolved[path] = rows
        else:
            resolved[path] = _linked(calls, nodes)
    for path, (calls, _) in made.items():
        resolved[path] = _linked(calls, nodes)
    resolved = {p: rows for p, rows in resolved.items() if p in blobs}
    keys, base, lookups = numbered(
        previous,
        {p: seen for p, (_, seen) in made.items() if p in resolved},
        {p: t[1] for p, t in taken.items() if p in resolved},
    )
    generation = previous.generation + 1 if previous is not None else 1
    since = {
        p: previous.since.get(p, 0) if previous is not None and p in taken else generation
        for p in resolved
    }
    return LinkMemo(
        INDEX_VERSION,
        limit,
        {p: blobs[p] for p in resolved},
        resolved,
        keys,
        base,
        lookups,
        generation,
        since,
    )


def _linked(calls: list[_Resolved], nodes: list[tuple[str, int]]) -> tuple[Linked, ...]:
    """Resolutions with their nodes named by (path, definition index)."""
    return tuple(
        (call, nodes[caller][1], how, tuple(nodes[n] for n in callees))
        for call, caller, how, callees in calls
    )


def _resolved_recorded(
    graph: CallGraph, tables: _Tables, path: str, index: FileIndex
) -> tuple[list[_Resolved], frozenset[Key]]:
    """`_resolutions` of one file, and the table keys they looked up."""
    tables.seen = set()
    calls = _resolutions(graph, tables, path, index)
    return calls, frozenset(tables.seen)


def _add_dispatch(graph: CallGraph, tables: _Tables, limit: int = MAX_DISPATCH) -> None:
    """A call of a trait's method on a value typed by the trait (a `dyn T`, an `impl T`, a
    `T`-bounded generic, `self` in T's own default method: resolved as `trait`) runs the
    method of whichever impl the value has: the call reaches each impl's method too, an edge
    resolved as `trait` on the same line. A concrete type's call that finds the trait's
    method (its default) or a call resolved by name alone is not fanned out. At most `limit`
    edges a declaration. Which trait an impl implements, when its name is declared more
    than once or only under another name: `_implemented`."""
    declared: dict[tuple[str, str], list[int]] = defaultdict(list)
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        if d.trait and d.owner == d.trait:
            declared[(d.trait, d.name)].append(node_id)
    implemented: dict[int, list[int]] = defaultdict(list)  # by declaration
    overriding: set[tuple[str, str, str]] = set()  # (type, trait, method) of impls' methods
    for node_id, node in enumerate(graph.nodes):
        d = node.definition
        if d.trait and d.owner and d.owner != d.trait:
            overriding.add((d.owner, d.trait.rsplit("::", 1)[-1], d.name))
            for declaration in _implemented(graph, tables, declared, node_id):
                implemented[declaration].append(node_id)
    for declarations in declared.values():
        for declaration in declarations:
            mine = implemented.get(declaration)
            if not mine:
                continue
            calls = [e for e in graph.callers.get(declaration, ()) if e.resolution == "trait"]
            if len(calls) * len(mine) > limit:  # not a concrete type's call, nor a guess
                continue
            counts = graph.derived.setdefault("impls", {})  # what a dispatched hop says
            for impl in mine:
                counts[impl] = len(mine)
            for edge in calls:
                default = _default_method(graph, edge)
                for impl in mine:
                    owner = graph.nodes[impl].definition.owner
                    if default is not None and (owner, *default) in overriding:
                        continue  # a type with its own method of the default's: not run
                    if impl != edge.caller:
                        graph.callers[impl].append(
                            Edge(edge.caller, impl, edge.line, "trait", edge.candidates,
                                 edge.call, edge.arm)
                        )  # fmt: skip


def _default_method(graph: CallGraph, edge: Edge) -> tuple[str, str] | None:
    """(trait, name) of the trait's default method `edge` calls from on `self`: only the
    impls whose types keep that default run its body, so only their methods are its callees
    (qdrant's default `VectorStorageRead::read_vectors` calls `self.get_vector(..)`, and the
    read-only dense storage, with a `read_vectors` of its own, was taken for one: stop 72's
    check of 30 paths); None for any other call."""
    d = graph.nodes[edge.caller].definition
    if d.trait is None or d.owner != d.trait or edge.call is None:
        return None
    return (d.trait.rsplit("::", 1)[-1], d.name) if edge.call.qualifier == "self" else None


def _implemented(
    graph: CallGraph,
    tables: _Tables,
    declared: Mapping[tuple[str, str], list[int]],
    impl: int,
) -> list[int]:
    """The declarations of the trait method an impl's method implements. One of its name:
    that one. Several (tikv's `tikv_util` declares a `Runnable` in `worker/pool.rs` and
    another in `worker/future.rs`), or a name only an import gives (`impl FutureRunnable<T>
    for Runner`, `worker/mod.rs` saying `pub use self::future::{Runnable as
    FutureRunnable}`): the one whose file the impl's `use` of the name leads to, through
    re-exports (`_trait_file`); else those of the impl's own crate, as before."""
    node = graph.nodes[impl]
    d = node.definition
    assert d.trait is not None
    # by the trait's name (a type named as its trait keeps the trait's path: `dist::Client`)
    named = declared.get((d.trait.rsplit("::", 1)[-1], d.name), [])
    if len(named) == 1:
        return named
    if not named and d.trait not in tables.renamed:
        return []
    impl_of = _impl_above(graph.indexes[node.path], d)  # as written: `grpc::SearchService`
    written = impl_of.trait if impl_of is not None and impl_of.trait else d.trait
    reached = _trait_file(graph, tables, node, written.split("<", 1)[0].strip())
    if reached is not None:
        path, name = reached
        found = [n for n in declared.get((name, d.name), []) if graph.nodes[n].path == path]
        if found:
            return found
    return [n for n in named if graph.nodes[n].crate == node.crate]


_REEXPORTS = 3  # the `use` chain `_trait_file` follows, past the impl's own file's


def _trait_file(graph: CallGraph, tables: _Tables, node: Node, name: str) -> tuple[str, str] | None:
    """The file a trait's name leads to from `node`'s file, and its name there: the file's
    own `use` of the name (`use tikv_util::worker::Runnable`), then each module file's that
    re-exports it (`worker/mod.rs`: `pub use pool::{Runnable, ..}`), until a file that
    declares a trait of the name. None when a `use` is not a file of the repository."""
    path, crate, module = node.path, node.crate, node.module
    *prefix, name = name.split("::")
    if prefix:  # `impl grpc::SearchService for ..`: the module its first name is imported as
        use = next((u for u in graph.indexes[path].uses if u.alias == prefix[0]), None)
        if use is not None and prefix[0] not in _RELATIVE:
            prefix = [*use.path.split("::"), *prefix[1:]]
    for _ in range(_REEXPORTS + 1):
        if prefix:
            found = _module_named(graph, tables, prefix, crate, module)
            if found is None:
                return None
            path, crate, module = found, _crate(found), module_of(found)
        if any(d.kind == "trait" and d.name == name for d in graph.indexes[path].definitions):
            return path, name
        use = next((u for u in graph.indexes[path].uses if u.alias == name), None)
        if use is None:
            return None
        *prefix, name = use.path.split("::")
        if not prefix:
            return None
    return None


def _module_named(
    graph: CallGraph, tables: _Tables, segments: Sequence[str], crate: str, module: str
) -> str | None:
    """The file of the module a path names from a module of a crate: `pool::X` in
    `worker/mod.rs` its child's (`self::pool`), else a crate's (`util::worker`,
    `other_crate::m`); a `crate::`/`self::`/`super::` path as it says."""
    glob = "::".join(segments)
    here = None if segments[0] in _RELATIVE else f"self::{glob}"
    return (here and _module_path(graph, tables, here, crate, module)) or _module_path(
        graph, tables, glob, crate, module
    )


PARALLEL_FILES = 400  # below, one process resolves every call
MAX_ARM_LINKS = 4  # the variants a call's chain of arms keeps, outermost first
# A call resolved: (its index in the file's calls, caller node, how, callee nodes).
_Resolved = tuple[int, int, Resolution, tuple[int, ...]]


def _add_edges(graph: CallGraph, index: FileIndex, resolved: list[_Resolved]) -> None:
    arms: dict[int, str] = {}
    # A call in nested arms dispatches on the outermost (`Statement::Drop(..) => match kind {
    # ObjectType::User => ..}`), the inner ones after it (`ARM_LINK`): rustup's
    # `RustupSubcmd::Target/TargetSubcmd::Add` is the command `target add` (`arm_entry`).
    for arm in sorted(index.arms, key=lambda a: a.line):
        pattern = _self_named(arm.pattern, index.definitions[arm.caller].owner)
        for call_index in arm.calls:
            outer = arms.get(call_index)
            chain = f"{outer}{ARM_LINK}{pattern}" if outer else pattern
            arms[call_index] = ARM_LINK.join(chain.split(ARM_LINK)[:MAX_ARM_LINKS])
    for call_index, caller, resolution, found in resolved:
        call = index.calls[call_index]
        callee, others = found[0], found[1:]
        edge = Edge(caller, callee, call.line, resolution, others, call, arms.get(call_index))
        graph.callers[callee].append(edge)
        for other in others:
            graph.callers[other].append(
                Edge(
                    caller,
                    other,
                    call.line,
                    resolution,
                    (callee, *[o for o in others if o != other]),
                    call,
                    edge.arm,
                )
            )


def _namesakes(graph: CallGraph) -> None:
    """The calls of a verb on a receiver named after its type (`switch.apply(..)`, "namesake"
    resolutions), kept as calls by name only for a fn no other call reaches: they find a
    caller where the records said "no caller found" (just's `Switch::apply`), and change no
    path the index had. just's `justfile.run(..)` in the `--command` arm of
    `Subcommand::execute` is a real call, but the shortest way to `Justfile::run` through
    it is one the run's values never take (recheck 316: 6 records' paths made false)."""
    for callee, edges in graph.callers.items():
        if not any(e.resolution == "namesake" for e in edges):
            continue
        alone = all(e.resolution == "namesake" for e in edges)
        graph.callers[callee] = [
            replace(e, resolution="name") if e.resolution == "namesake" else e
            for e in edges
            if alone or e.resolution != "namesake"
        ]


def _self_named(pattern: str, owner: str | None) -> str:
    """An arm's variants with `Self` named as the type of the impl whose fn matches:
    atuin's `impl Cmd { .. match self { Self::History(h) => h.run(..) } }` dispatches the
    subcommand `Cmd::History` (`arm_entry` reads the enum's name)."""
    if owner is None or "Self::" not in pattern:
        return pattern
    return ARM_LINK.join(
        owner + arm[len("Self") :] if arm.startswith("Self::") else arm
        for arm in pattern.split(ARM_LINK)
    )


def _resolutions(graph: CallGraph, tables: _Tables, path: str, index: FileIndex) -> list[_Resolved]:
    """The calls of one file that name fns of the graph, each once per caller, callee, line."""
    ids = graph.by_file[path]
    tables.resolving = path
    out: list[_Resolved] = []
    imports = {use.alias: use.path for use in index.uses if use.alias != "*"}
    globs = [use.path for use in index.uses if use.alias == "*"]
    # a name two `use`s bring in, each under its own `#[cfg(..)]` (rustup's `use unix::{..,
    # do_remove_from_path}` and `use windows::{..}`): a call of it is either's
    alternatives = _alternatives(index)
    lets: dict[int, dict[str, list[tuple[int, str]]]] = defaultdict(lambda: defaultdict(list))
    in_arms: dict[int, set[str]] = defaultdict(set)  # by caller: names arms bind
    for local in index.locals:
        bound = local.type
        if ASSOCIATED_CALL.fullmatch(bound):
            called = bound[len(CALLED_TYPE) :]
            caller = ids.get(local.caller)
            owner = graph.nodes[caller].definition.owner if caller is not None else None
            if called.startswith("Self::") and owner:
                # zoxide's `let mut fzf = Self::get_fzf()?`: what the impl's own fn returns
                # (a `FzfChild`), not a `Self`
                called = f"{owner}::{called[len('Self::') :]}"
            bound = _associated_value(tables, called)
            if _made_by_other_crate(tables, path, called, imports):
                # `let mut rt_builder = runtime::Builder::new_multi_thread()` under `use
                # tokio::{runtime, ..}`: tokio's builder, whose `.build()` is no `build` of
                # vector's own `topology::Builder` (reading 211)
                bound = _OUTSIDE
        elif bound.startswith(CALLED_TYPE) and _POINTER_MADE.search(bound + "()"):
            bound = "*const _"  # `let p = v.as_mut_ptr()`: a raw pointer (`_raw_pointer`)
        elif bound.startswith(CALLED_TYPE) and "." in bound:
            # a method's value: what the repository's methods of that name return, when they
            # agree; else no binding at all (`.fused()`, `.map_err(..)?`): the name keeps the
            # type it had (a parameter's, an earlier `let`'s). A fn's value (`<call>f`) is
            # typed where it is used (`_receiver_type`), or known to come from outside.
            caller = ids.get(local.caller)
            params = dict(graph.nodes[caller].definition.params) if caller is not None else {}
            # a std type's own method's value is not what the repository's methods of that
            # name return: no type from them (`let v = v.collect_vec()` keeps `v`'s)
            returned = (
                None
                if _std_value(tables, bound[len(CALLED_TYPE) :], params)
                else tables.returned(bound[len(CALLED_TYPE) :])
            )
            if returned and _foreign_made(
                tables,
                bound[len(CALLED_TYPE) :],
                returned,
                params,
                lets.get(local.caller, {}),
                local.line,
            ):
                returned = _OUTSIDE  # rustup's `let pb = bars.add(..)`, an indicatif bar
            if returned is None and not _typed_at_use(bound, local.name):
                # a new value of no type the index tells (`let build_root = ws.build_dir()`,
                # cargo's, re-bound below as a `PathBuf`): unknown from here on, not the
                # other binding's type; a value made of its own name's keeps the type it had
                receiver = bound[len(CALLED_TYPE) :].rpartition(".")[0]
                if not _made_of_other(receiver, local.name):
                    continue
                returned = ""
            bound = bound if returned is None else returned
        elif bound.startswith(VARIANT_VALUE):
            # an arm's binding: from the arm's line on, the next arm's binding of the name
            # replacing it ("": a value of no type the index knows, no earlier arm's)
            held = _variant_value(graph, tables, ids.get(local.caller), bound) or ""
            lets[local.caller][local.name].append((local.line - 1, held))
            if local.end:  # an `if let`'s, a `while let`'s: unbound after its block (risingwave's
                # `if let SnapshotBackfillUpstream::Buffer(upstream_buffer) = &upstream_buffer {
                # .. }` had typed the arm's `upstream_buffer` below it: paths read 82, 83)
                lets[local.caller][local.name].append((local.end, _BLOCK_END))
            in_arms[local.caller].add(local.name)
            continue
        elif bound.startswith(LOOP_ITEM):
            # a `for` loop's name, as an arm's: from the loop's line on (its body's calls on
            # that line too), up to its last line; typed where it is used (`_loop_value`). A
            # loop over its own name (`for (name, ty) in ty.iter()`) binds it from the next
            # line: the value iterated is the name's earlier value.
            bindings = lets[local.caller][local.name]
            own = _over_itself(bound, local.name)
            bindings.append((local.line if own else local.line - 1, bound))
            if local.end:
                bindings.append((local.end, _LOOP_END))
            in_arms[local.caller].add(local.name)
            continue
        lets[local.caller][local.name].append((local.line, bound))
        if local.end:  # a nested block's `let`: unbound after the block (`_in_scope`)
            lets[local.caller][local.name].append((local.end, _BLOCK_END))
    seen: set[tuple[int, int, int]] = set()
    # a fn's typed names, built once for all its calls; and the names it binds more than once
    # (or over a parameter), whose binding depends on where the call is
    scopes: dict[int, tuple[dict[str, str], dict[str, list[tuple[int, str]]]]] = {}
    for call_index, call in enumerate(index.calls):
        caller = ids.get(call.caller)
        if caller is None:
            continue
        if call.name not in tables.known and call.name not in _UNNAMED_CALLEES:  # no fn has
            # it (a send is an actor's `handle` when its message has one: actix's `do_send` is
            # not ours; `collect` runs a repository iterator's `next`)
            # (a name known before and now is looked up further by the resolution itself)
            tables.seen.add(("k", call.name))
            continue
        scope = scopes.get(caller)
        if scope is None:
            scope = scopes[caller] = _scope(
                graph.nodes[caller].definition,
                lets.get(call.caller, {}),
                in_arms.get(call.caller, set()),
                _impl_bounds(index, graph.nodes[caller].definition),
            )
        variables, rebound = scope
        if rebound and (call.name in rebound or call.qualifier.split(".", 1)[0] in rebound):
            variables = {**variables, **_bound_at(scope, call.line)}
        elif call.name in _CONVERSIONS and call.args:  # `let x = T::from(x)`: the `x` above
            variables = _typed_above(scope, lets.get(call.caller, {}), call.line)
        resolution, found = _resolve(
            graph, tables, caller, call, imports, variables, globs, alternatives
        )
        if not found:
            continue
        key = (caller, found[0], call.line)
        if key in seen:
            continue
        seen.add(key)
        out.append((call_index, caller, resolution, tuple(found)))
    return out


def _variant_value(graph: CallGraph, tables: _Tables, caller: int | None, bound: str) -> str | None:
    """The type an arm's binding of `E::V(x)` holds (`bound`: `<variant>E::V`), as the
    variant's definition writes it (`Login(login::Cmd)`: `login::Cmd`); `Self` is the type
    of the impl the arm's fn is in. None when no one variant of the name says."""
    enum, _, variant = bound[len(VARIANT_VALUE) :].rpartition("::")
    if enum == "Self":
        enum = graph.nodes[caller].definition.owner or "" if caller is not None else ""
    aliased = _alias(tables, enum)
    tables.seen.add(("v", aliased))
    return tables.variant_values.get((aliased, variant)) or None


def _impl_bounds(index: FileIndex, definition: Definition) -> dict[str, str]:
    """The bounded type parameters of the impl a method sits in (the nearest `impl` of its
    type above it in the file): `impl<E: SyncExpression> ..` -> {E: SyncExpression}."""
    impl = _impl_above(index, definition)
    return generic_bounds(impl.bounds) if impl is not None and impl.bounds else {}


def _impl_above(index: FileIndex, definition: Definition) -> Impl | None:
    """The impl a method sits in: the nearest `impl` of its type above it in the file."""
    owner = definition.owner
    above = [i for i in index.impls if i.line <= definition.line and i.type == owner]
    return max(above, key=lambda i: i.line) if owner and above else None


def _scope(
    definition: Definition,
    lets: Mapping[str, list[tuple[int, str]]],
    in_arms: Collection[str] = (),
    impl_bounds: Mapping[str, str] | None = None,
) -> tuple[dict[str, str], dict[str, list[tuple[int, str]]]]:
    """A fn's names with one type wherever they are used (its parameters, the names one `let`
    binds), and those bound more than once, over a parameter or by an arm (`in_arms`: not
    before its arm), with each binding's line.
    A parameter of a generic type bounded by a trait (`s: &S` with `S: Sink`, or the impl's
    `impl<E: SyncExpression> ..` for `e: E`) is the trait's."""
    variables = dict(definition.params)
    bounds = dict(impl_bounds or {})
    if "<" in definition.signature or " where " in definition.signature:
        bounds.update(generic_bounds(definition.signature))
    if bounds:
        for name, written in variables.items():
            bound = bounds.get(inner_type(written))
            if bound is not None:
                variables[name] = bound
        for name, bound in bounds.items():  # `S::new(..)`, `self.array: E`: the bound's
            variables.setdefault(name, bound)
    rebound: dict[str, list[tuple[int, str]]] = {}
    for name, bindings in lets.items():
        real = [b for b in bindings if b[1] != _BLOCK_END]
        if len(real) == 1 and name not in variables and len(real) < len(bindings):
            # one `let` in a nested block and no other binding the index sees: its name keeps
            # the type after the block, as before (tikv's `let config = TikvConfig::default()`
            # in an `if`, then `let mut config = matches..map_or_else(TikvConfig::default, ..)`
            # untyped); a parameter's or another `let`'s name gets its own back (`_in_scope`)
            bindings = real
        if len(bindings) == 1 and name not in variables and name not in in_arms:
            variables[name] = bindings[0][1]
        else:
            rebound[name] = sorted(bindings)
    return variables, rebound


def _typed_above(
    scope: tuple[dict[str, str], dict[str, list[tuple[int, str]]]],
    lets: Mapping[str, list[tuple[int, str]]],
    line: int,
) -> dict[str, str]:
    """A fn's typed names as a call at `line` sees them: a name one `let` binds only from the
    line after it (`let expression = ExpressionInternal::try_from(expression)?` converts the
    `expression` above, not itself), a rebound one as `_bound_at` says."""
    variables = {**scope[0], **_bound_at(scope, line)}
    for name, bindings in lets.items():
        if len(bindings) == 1 and bindings[0][0] >= line and variables.get(name) == bindings[0][1]:
            del variables[name]
    return variables


def _bound_at(
    scope: tuple[dict[str, str], dict[str, list[tuple[int, str]]]], line: int
) -> dict[str, str]:
    """The rebound names as a call at `line` sees them: the nearest `let` above it (a
    parameter before any; a block's end is not known, so a `let` in a closed block above
    still counts)."""
    variables, rebound = scope
    seen: dict[str, str] = {}
    for name, bindings in rebound.items():
        # above it: `let rhs = rhs.to_datum_ref();` calls the earlier `rhs`'s method
        above = _in_scope([type_text for at, type_text in bindings if at < line])
        if above:
            seen[name] = above[-1]
            earlier = above[-2] if len(above) > 1 else variables.get(name, "")
            if earlier and _over_itself(above[-1], name):  # `for ty in ty.iter()`
                seen[name] += _EARLIER + earlier
        elif name in variables:
            seen[name] = variables[name]
    return seen


# Where a `for` loop's name goes out of scope (`_in_scope`), among a name's bindings; and
# what joins a loop over its own name to the name's binding before it (`_loop_value`).
_LOOP_END = "<end>"
_BLOCK_END = "<block end>"
_EARLIER = "\x00"


def _over_itself(bound: str, name: str) -> bool:
    """Whether a `for` loop's name is bound over its own earlier value (`bound`:
    `<item1>ty.iter()` of `for (name, ty) in ty.iter()`)."""
    item = ITEM_VALUE.fullmatch(bound)
    return item is not None and not _made_of_other(item[2], name)


def _in_scope(above: list[str]) -> list[str]:
    """The bindings of a name above a line, in order, but those of loops and blocks ended
    above it: a loop's end unbinds the loop's name and every binding made after it (in its
    body); a nested block's end, its `let` (each such `let` has its own end, in order)."""
    if _LOOP_END not in above and _BLOCK_END not in above:
        return above
    stack: list[str] = []
    for type_text in above:
        if type_text == _BLOCK_END:
            if stack:
                stack.pop()
        elif type_text == _LOOP_END:
            while stack and not stack.pop().startswith(LOOP_ITEM):
                pass
        else:
            stack.append(type_text)
    return stack


def _resolve(
    graph: CallGraph,
    tables: _Tables,
    caller: int,
    call: Call,
    imports: Mapping[str, str],
    variables: Mapping[str, str],
    globs: Sequence[str] = (),
    alternatives: Mapping[str, tuple[str, ...]] | None = None,
) -> tuple[Resolution, list[int]]:
    node = graph.nodes[caller]
    owner = node.definition.owner
    name, qualifier = call.name, call.qualifier
    if call.kind == "loop":  # `for x in value`: the value's `next`, when the code types it
        typed = _receiver_type(tables, owner, qualifier, variables)
        return "iterator", _steps(graph, tables, typed[1], _LOOPED) if typed else []
    if call.kind == "method" and name in _SENDS and call.args:
        # `ctx.send_message(&mailbox, scratch)`, `addr.do_send(Ping { .. })`: the actor that
        # handles the message's type runs its `handle` (quickwit's pipeline of actors)
        for text in reversed(call.args):
            message = _argument_type(text, owner, variables)[0]
            bare = text.strip().lstrip("&").rsplit("::", 1)[-1]
            if message is None and bare[:1].isupper() and bare.isidentifier():
                tables.seen.add(("d", bare))
                message = bare if bare in tables.defined else None  # a unit struct: `Ping`
            if message and message[:1].isupper():
                handlers = tables.handlers(message)
                if handlers:
                    return "message", _to_actor(graph, tables, handlers, call, owner, variables)
                break
    if call.kind == "method" and _raw_pointer(qualifier, variables):
        # `b.as_ptr().add(n)`, `src.add(i)` after `let src = v.as_ptr()`: a pointer's own
        # method, never the repository's of the name (polars' `RowCountAndSize::add`)
        return "name", []
    if call.kind == "method":
        # a parameter whose written type another crate's path names (`client_builder: &mut
        # client::Builder` under `use hyper::{client, ..}`): of a type the repository never
        # defines, whatever of its own shares the name (vector's `topology::builder::Builder`)
        outside = _foreign_written(tables, node, qualifier, variables, imports)
        typed = None if outside else _receiver_type(tables, owner, qualifier, variables)
        if (
            typed is not None
            and name in OPTION_METHODS
            and _optional(tables, owner, qualifier, name, variables)
        ):
            # `self.resp_header().map(|h| h.version)` on an `Option<&ResponseHeader>`:
            # `Option::map`, not `ResponseHeader::map` (pingora, reading 127)
            return "type", []
        if typed is None and not outside:
            made = _made_outside(tables, qualifier, name, variables, imports)
            typed = ("type", made) if made else None
        if typed is not None:
            how, type_name = typed
            found = _methods_of(tables, type_name, name)
            imported = imports.get(type_name)  # `use risingwave_batch::executor::Executor`
            aliased = _alias(tables, type_name)
            tables.seen.add(("x", aliased))
            target = tables.deref.get(aliased)
            real = imported.rsplit("::", 1)[-1] if imported else type_name
            if not found and real != type_name:  # `use ConfigValue as CV`: a `CV` is one
                type_name, aliased = real, _alias(tables, real)
                found = _methods_of(tables, real, name)
                target = tables.deref.get(aliased)
            if not found and target:  # a wrapper's `Deref` target has it (`PlanRef` -> `dyn ..`)
                type_name, found = target, _methods_of(tables, target, name)
            if found and type_name in STD_TYPES and name in STD_METHODS:
                # a std type's own method of the name (`map.get(k)` on a `HashMap`): Rust takes
                # it before a trait's, so not the repository's `impl X for HashMap<..>`'s
                # (risingwave's `WithPropertiesExt::get` had every typed map's `get`)
                return "type", []
            if not found and name in _ITERATOR_DRIVERS:  # `iter.collect()`: its `next`
                stepped = _steps(graph, tables, type_name, _DRIVEN)
                if stepped:
                    return "iterator", stepped
            if not found:  # an enum of one trait's implementors, or a macro's type named after it
                declared = _variants_trait(graph, tables, type_name, name) or _named_trait(
                    graph, tables, type_name, name
                )
                if declared:
                    return "trait", declared
                # `tokio_postgres::Client` (what a fn of ours returns), a std type, a bare
                # type parameter: no inherent method of the repository's is its, only a
                # trait's the repository implements for it (risingwave's `client.prepare(..)`
                # went by name to `StarrocksTxnClient::prepare`)
                tables.seen.add(("d", aliased))
                outside = aliased not in tables.defined and not _maybe_holds(aliased)
            if found:
                found = _in_module_of(graph, found, variables.get(qualifier, ""))
                near = _from_crate(graph, tables, node, found, imported)
                if not _is_trait(tables, type_name):  # a trait's impls are anywhere
                    near = _from_module(graph, tables, node, near, imported)
                found = _narrow(graph, node, near, call) or _specializations(graph, near)
                found = _inherent_first(graph, found, node)
                if _declared(graph, tables, _alias(tables, type_name), found):
                    how = "trait"  # a `dyn T`, an `impl T`, an `S: T`, `self` in T's own fn
                return how, found
        tables.seen.add(("r", name))
        foreign = typed[1] if typed is not None and outside else None
        if name in tables.rpc and _stub_call(call, qualifier, foreign, variables):
            return "rpc", tables.rpc[name][:MAX_CANDIDATES]
        found = list(tables.methods_named(name))
        if name in STD_METHODS:
            # `switch.apply(..)` on a loop's `switch` the code does not type (just's
            # `Switch::apply`, reading 316): a verb no std type has, on a receiver named after
            # the one type of the caller's crate that has it, with as many arguments. Not another
            # crate's (greptimedb's every `builder.build()` is no `common_runtime::Builder`'s),
            # nor the caller itself: in `Builder::build`, `builder.build()` is tokio's
            named = _named_exactly(graph, qualifier, found) if name in OWN_VERBS else []
            named = [n for n in named if n != caller and graph.nodes[n].crate == node.crate]
            named = _fitting(graph, named, call)
            return "namesake", named if len(named) == 1 else []  # atuin's `Cmd::run`s: none
        if outside:  # only a blanket impl's (`impl<T: Send> Ext for T`) can be its; not an
            # adapter's name (`ReceiverStream::new(rx).boxed()` is futures' `StreamExt::boxed`)
            blanket = [n for n in found if _blanket(tables, graph.nodes[n].definition)]
            return "name", [] if name in ADAPTERS else blanket
        if qualifier.startswith("self.") and owner:  # another object than `self`: not its methods
            found = [n for n in found if graph.nodes[n].definition.owner != owner]
        declaration = _trait_of_one_impl(graph, found)
        if declaration is not None:
            return "trait", _fitting(graph, [declaration], call)
        found = _narrow(graph, node, _named_after(graph, qualifier, found), call, strict=True)
        found = _fitting(graph, found, call)
        if found and _outside_value(tables, qualifier, variables, node.path):  # a trait's
            found = [n for n in found if graph.nodes[n].definition.trait]
        return "name", found
    if call.kind == "path" and qualifier.startswith(FIELD_TYPE):
        # `GetOptions { format: s.parse()?, .. }`: the field's type's `from_str`
        struct, _, field_name = qualifier[len(FIELD_TYPE) :].rpartition(".")
        owner_type = _alias(tables, struct.rsplit("::", 1)[-1])
        tables.seen.add(("fd", owner_type, field_name))
        written = tables.field_type(owner_type, field_name, sure=True)
        held = inner_type(written) if written is not None else ""
        if not held[:1].isupper():
            return "type", []
        return "type", _narrow(graph, node, _methods_of(tables, _alias(tables, held), name), call)
    if call.kind == "path":
        last = qualifier.rsplit("::", 1)[-1].split("<", 1)[0]
        if last == "Self" and owner:
            found = _from_source(
                graph, tables, owner, _methods_of(tables, owner, name), call, variables
            )
            found = _narrow(graph, node, found, call) if found else []
            own: Resolution = "trait" if _declared(graph, tables, owner, found) else "self"
            return (own, found) if found else ("name", [])
        if last[:1].isupper():
            # `S::make()` with `S: Sink`: whichever impl S is. Not `Sink::run(&Update, ..)`
            # (its first argument says which impl: the trait's own fn, by its type).
            bound = variables.get(last)
            found = _methods_of(tables, bound or last, name)
            if not found and bound is None:
                found = _methods_of_aliases(graph, tables, last, name)
            found = _from_source(graph, tables, owner, found, call, variables)
            if bound is None and not _on_generic_self(graph, node, call):
                found = _by_first_argument(graph, tables, found, call, node, variables)
            found = _narrow(graph, node, found, call)
            dispatched = bound is not None and _declared(graph, tables, bound, found)
            if not dispatched and _on_generic_self(graph, node, call):
                # `SplitEnumerator::on_tick(self)` in `impl<T: SplitEnumerator> Any for T`:
                # `self` is a `T`, whichever impl it is (risingwave's enumerators' `on_tick`)
                dispatched = _declared(graph, tables, last, found)
            return ("trait" if dispatched else "type"), found
        return _module_call(graph, tables, node, call, imports)
    if name in variables and not variables[name].startswith(CALLED_TYPE):
        # a closure or a fn-typed parameter or `let`: not a fn of the index (`let x = x(..)`
        # names a value after the fn that makes it: the call is the fn's)
        return "name", []
    return _plain_call(graph, tables, node, call, imports, globs, alternatives or {})


# a call that makes a raw pointer, and pointer arithmetic on it (`x.as_mut_ptr().add(i)`)
_POINTER_MADE = re.compile(
    r"\.(?:as_ptr|as_mut_ptr|cast|cast_mut|cast_const)\(\)"
    r"(?:\.(?:add|sub|offset|wrapping_add|wrapping_sub|byte_add|byte_sub)\([^()]*\))*$"
)
# a generated gRPC client's type (tonic's `PointsClient<Channel>`), a stub's, what bounds one
# (quickwit's `T: tonic::client::GrpcService<..>`)
_CLIENT_TYPE = re.compile(r"(?i)client|stub|grpc")
_TYPE_PARAMETER = re.compile(r"[A-Z]\d*")


# crates whose clients speak HTTP, S3 or Redis, never a gRPC service of the repository's
_OTHER_CLIENTS = re.compile(
    r"^&?\s*(?:mut\s+)?(?:reqwest|hyper|hyper_util|ureq|surf|isahc|awc|object_store|redis|"
    r"aws_sdk_\w+|rusoto_\w+|azure_\w+|google_cloud_\w+|opendal)::"
)


def _stub_call(
    call: Call, qualifier: str, foreign: str | None, variables: Mapping[str, str]
) -> bool:
    """Whether a method call no type resolved may be a gRPC stub's, which runs the server's
    method of its name (`RPC`): its receiver is named a client, stub or `inner` (not
    `self`); not another crate's type that is no client (`foreign`: qdrant's `self.client:
    Box<dyn object_store::ObjectStore>`, reading 240), nor an HTTP or storage crate's client
    as written (`_other_client`); and it sends a request (`self.inner.get()` is a cell's),
    but for a client's call, which may open a stream (grpcio's `self.client.detect()`)."""
    lowered = qualifier.lower()
    client = "client" in lowered
    if qualifier == "self" or not (client or "inner" in qualifier or "stub" in qualifier):
        return False
    if (foreign is not None and _no_client(foreign, variables)) or _other_client(
        qualifier, variables
    ):
        return False
    return call.arity > 0 or client


def _other_client(qualifier: str, variables: Mapping[str, str]) -> bool:
    """Whether a receiver's written type is an HTTP, object-store or Redis crate's client
    (`client: &reqwest::Client`, qdrant's snapshot download, reading 240's recheck): its
    `get` is no gRPC call, whatever the receiver's name says."""
    return bool(_OTHER_CLIENTS.match(variables.get(qualifier.split(".", 1)[0], "")))


def _no_client(type_name: str, variables: Mapping[str, str]) -> bool:
    """Whether a receiver's type, another crate's, is no gRPC client: not named one, and no
    type parameter, which a client fills (quickwit's `self.inner: T` of its generated
    `..GrpcClientAdapter<..GrpcClient<T>>`)."""
    if _CLIENT_TYPE.search(type_name) or _TYPE_PARAMETER.fullmatch(type_name):
        return False
    return type_name not in variables  # a bounded type parameter (`T: GrpcService<..>`)


_POINTER_TYPE = re.compile(r"^\*\s*(?:const|mut)\b")


def _raw_pointer(receiver: str, variables: Mapping[str, str]) -> bool:
    """Whether a method's receiver is a raw pointer the code shows: a call that makes one
    (`x.as_ptr()`), or a name typed as one (`src: *const T`; `let p = x.as_mut_ptr()`, which
    `_resolutions` types so; `let p = r.start as *const i8`), or a copy of such a name (`let
    mut current = p`)."""
    receiver = receiver.strip()
    if receiver.startswith("(") and receiver.endswith(")"):
        receiver = receiver[1:-1].strip()
    if _POINTER_MADE.search(receiver):
        return True
    for _ in range(3):  # `let a = b; let b = c`: a copy of a copy
        bound = variables.get(receiver, "")
        if not bound.startswith(FIELD_VALUE) or not bound[len(FIELD_VALUE) :].isidentifier():
            return bool(_POINTER_TYPE.match(bound))
        receiver = bound[len(FIELD_VALUE) :]
    return False


def _on_generic_self(graph: CallGraph, node: Node, call: Call) -> bool:
    """Whether a path call passes `self` first in a blanket impl's method (`impl<T: Tr> X for
    T`: the owner a type parameter the impl declares)."""
    owner = node.definition.owner
    if owner is None or not call.args:
        return False
    if call.args[0].strip().lstrip("&").removeprefix("mut ").strip() != "self":
        return False
    impl = _impl_above(graph.indexes[node.path], node.definition)
    return impl is not None and owner in type_parameters(impl.bounds)


def _in_module_of(graph: CallGraph, found: list[int], written: str) -> list[int]:
    """Of same-named types' methods, those of the module a variable's type names (`cmd:
    login::Cmd`, an arm's `Commands::Login(cmd)` of `Login(login::Cmd)`): atuin's dozens of
    `Cmd::run`. All of them when the type names no module, or none of theirs."""
    named = len(found) > 1 and "::" in written and not written.startswith((CALLED_TYPE, "<"))
    module = type_module(written) if named else ""
    if not module:
        return found
    return [n for n in found if _module_ends(graph.nodes[n].module, [module])] or found


def _trait_of_one_impl(graph: CallGraph, found: Sequence[int]) -> int | None:
    """The trait's declaration when the only methods of the name are a trait's and its one
    impl's: whatever the receiver, the call runs that impl's method (or the trait's default),
    resolved as `trait` (the dispatch adds the impl's edge; the path names the trait method
    it was called as). quickwit's `self.0.root_list_fields(..)` on an `Arc<dyn SearchService>`
    read "`SearchServiceImpl::root_list_fields` (or `SearchService::root_list_fields`: the
    call is ambiguous)": the same two callees, now read as one call. Not with two impls or
    more: a receiver of unknown type stays a guess among them, never fanned out to all."""
    if len(found) != 2:
        return None
    first, second = (graph.nodes[n].definition for n in found)
    if first.trait is None or first.trait != second.trait:
        return None
    if (first.owner == first.trait) == (second.owner == second.trait):
        return None  # two declarations (two traits of one name), or two impls
    return found[0] if first.owner == first.trait else found[1]


_CONVERSIONS = frozenset(("from", "try_from"))
_NAME = re.compile(r"[A-Za-z_]\w*")
# A struct literal, as written (an argument is cut at 40 characters): `ZLua {}`,
# `import::Atuin { .. }`
STRUCT_LITERAL = re.compile(r"((?:\w+::)*[A-Z]\w*)\s*\{")


# `X::new(..)`, `X::default()`, `X::from(..)`, `X::with_capacity(..)`: a value of `X`
_CONSTRUCTED = re.compile(
    r"((?:\w+::)*[A-Z]\w*)(?:::<[^()]*>)?::(?:new|default|from|with_\w+)\s*\("
)


def _by_first_argument(
    graph: CallGraph,
    tables: _Tables,
    found: list[int],
    call: Call,
    node: Node,
    variables: Mapping[str, str],
) -> list[int]:
    """`Trait::f(x, ..)` of a trait's method that takes `self`: the impl for `x`'s type,
    where the code shows that type for certain (`self`, `X { .. }`, `X::new(..)`); none of
    the repository's when that type is none of its own (minijinja's `Deserializer::
    deserialize_any(SeqDeserializer::new(..), visitor)` runs serde's impl, not minijinja's
    `impl Deserializer for Value`, paths 112). All of them when the type is not shown, or
    is the repository's and no impl the index sees is for it (a derive's, a macro's)."""
    if not found or not call.args:
        return found
    definitions = [graph.nodes[n].definition for n in found]
    if not all(d.trait and d.has_self for d in definitions):
        return found
    argument = _bare(call.args[0])
    owner = node.definition.owner
    if argument == "self" and owner is not None and owner == node.definition.trait:
        return found  # a trait's own default fn: `self` is any of its implementors
    made = _CONSTRUCTED.match(argument)
    source, certain = (
        (inner_type(made[1]), True) if made else _argument_type(argument, owner, variables)
    )
    if source is None or not certain or source == "(":
        return found
    wanted = _alias(tables, source)
    fitting = [
        n
        for n, d in zip(found, definitions, strict=True)
        if _alias(tables, d.owner or "") == wanted
    ]
    if not fitting:  # the trait's own fn alone: the type's impl overrides it (risingwave's
        # `impl IcebergCreateTableArrowConvert { fn to_arrow_field(&self, ..) {
        # ToArrow::to_arrow_field(self, ..) } }` runs the impl's, not `ToArrow`'s default)
        traits = {d.trait for d in definitions}
        fitting = [
            n
            for n in _methods_of(tables, source, call.name)
            if graph.nodes[n].definition.trait in traits
        ]
    tables.seen.add(("d", source))
    if fitting or source in tables.defined:
        return fitting or found
    return []


def _from_source(
    graph: CallGraph,
    tables: _Tables,
    owner: str | None,
    found: list[int],
    call: Call,
    variables: Mapping[str, str],
) -> list[int]:
    """`T::try_from(x)` (or `x.try_into()` into a `T`) among `T`'s `From`/`TryFrom` impls:
    those whose source type is `x`'s where the code shows it (`self`, a typed name, a struct
    literal, a tuple); none when the type is certain (not a name's) and no impl the index
    sees takes it (the one that does is written by a macro: risingwave's `TryFrom<Decimal>
    for F64`); all of them when the argument's type is not known, is none of the
    repository's (a generic's `T`), or a candidate is no conversion impl."""
    if call.name not in _CONVERSIONS or not found or not call.args:
        return found
    source, certain = _argument_type(call.args[0], owner, variables)
    if source is None:
        return _by_reference(graph, found, call.args[0], variables)
    sources = [_converted_from(graph.nodes[n].definition) for n in found]
    if any(taken is None for taken in sources):
        return found
    wanted = _alias(tables, source)
    fitting = [
        n
        for n, taken in zip(found, sources, strict=True)
        if taken == source or (taken != "(" and _alias(tables, taken or "") == wanted)
    ]
    tables.seen.add(("d", source))
    if fitting or (certain and (source == "(" or source in tables.defined)):
        fitting = _same_path(graph, fitting, call.args[0], variables)
        return _by_reference(graph, fitting, call.args[0], variables)
    return found  # a name's type may be stale, a generic's or a foreign type: no evidence


def _same_path(
    graph: CallGraph, found: list[int], argument: str, variables: Mapping[str, str]
) -> list[int]:
    """Of `From` impls whose source types end in the same name, the one whose type is written
    with the same path as the argument's: gitui's `GixError` converts from 16 foreign types
    all named `Error` (`gix::status::Error`, `gix::worktree::open_index::Error`, ..), and
    `GixError::from(error)` with `error: gix::worktree::open_index::Error` is one of them, not
    16 candidates dropped as too many (reading 115). All of them when the argument's type is
    not written with a path, or no impl's is the same."""
    if len(found) < 2:
        return found
    name = _bare(argument)
    written = variables.get(name, "") if _NAME.fullmatch(name) else ""
    if "::" not in written:
        return found
    wanted = _written_type(written)
    same = [
        n
        for n in found
        if (params := graph.nodes[n].definition.params) and _written_type(params[0][1]) == wanted
    ]
    return same or found


def _bare(argument: str) -> str:
    """An argument's text without its borrow or dereference: `&mut x` -> `x`, `*id` -> `id`."""
    return argument.strip().lstrip("&*").removeprefix("mut ").strip()


def _written_type(text: str) -> str:
    """A type as written without its borrow, lifetime and spaces: `&'a mut x::Y` -> `x::Y`."""
    return "".join(_unborrowed(text).split()).removeprefix("::")


def _unborrowed(text: str) -> str:
    """A parameter's type without its borrow and lifetime: `&'a mut x::Y` -> `x::Y`."""
    text = text.strip().lstrip("&").strip()
    if text.startswith("'"):  # `&'a X`
        text = text.split(" ", 1)[-1]
    return text.removeprefix("mut ").strip()


def _by_reference(
    graph: CallGraph, found: list[int], argument: str, variables: Mapping[str, str]
) -> list[int]:
    """Of a type's `From<X>` and `From<&X>` impls, the one the argument's form takes: a
    borrow (`&x`, or a name typed `&X`) the `&X` one; a value a `to_..`/`into_..`/`clone`
    method makes (risingwave's `sst_info.to_protobuf().into()`) or a name typed `X`, the
    other. All of them when the argument says neither, or no impl fits."""
    if len(found) < 2:
        return found
    text = argument.strip()
    name = text.lstrip("&").removeprefix("mut ").strip()
    written = variables.get(name, "") if _NAME.fullmatch(name) else ""
    if text.startswith("&") or written.startswith("&"):
        borrowed = True
    elif (written and not written.startswith("<")) or _OWNED_CALL.search(text):
        borrowed = False
    else:
        return found
    taken = [
        n
        for n in found
        if (params := graph.nodes[n].definition.params)
        and params[0][1].strip().startswith("&") == borrowed
    ]
    return taken or found


# A value made by a method that, by Rust's naming conventions, returns an owned value.
_OWNED_CALL = re.compile(r"\.(?:to_\w+|into_\w+|clone|to_owned)\(\)\??$")


def _argument_type(
    text: str, owner: str | None, variables: Mapping[str, str]
) -> tuple[str | None, bool]:
    """The type of a call's argument where its text shows it, and whether for certain: `self`
    (the impl's), `Foo { .. }`, a tuple ("(") are; a name the fn types is not (a `let` the
    index does not type may have bound it anew); None for any other expression."""
    text = _bare(text)
    if text.startswith("("):
        return ("(" if "," in text else None), True
    if text == "self":
        return owner, True
    if _NAME.fullmatch(text):
        written = variables.get(text, "")
        typed = bool(written) and not written.startswith(CALLED_TYPE)
        return (inner_type(written) if typed else None), False
    literal = STRUCT_LITERAL.match(text)
    return (inner_type(literal[1]) if literal else None), True


def _converted_from(definition: Definition) -> str | None:
    """The source type of a `From::from`/`TryFrom::try_from` impl: its one parameter's type
    as written ("(" for a tuple); None for any other fn."""
    if definition.trait not in ("From", "TryFrom") or len(definition.params) != 1:
        return None
    param = _unborrowed(definition.params[0][1])
    return "(" if param.startswith("(") else inner_type(param)


def _declared(graph: CallGraph, tables: _Tables, type_name: str, found: Sequence[int]) -> bool:
    """Whether `type_name` is a trait of the repository (or an associated type impls make a
    trait object: `C::PlanRefDyn = dyn LogicalPlanNode`) and `found` its own declaration of
    the method, or a supertrait's (not a same-named struct's method): a call the trait's
    impls answer."""
    seen = tables.seen
    seen.add(("t", type_name))
    traits = [type_name] if type_name in tables.traits else []
    seen.add(("as", type_name))
    if not traits and type_name in tables.associated:
        seen.update(("t", t) for t in tables.associated[type_name])
        traits = sorted(t for t in tables.associated[type_name] if t in tables.traits)
    owners = {t for trait in traits for t in (trait, *_supertraits_of(tables, trait))}
    for n in found:
        d = graph.nodes[n].definition
        if d.owner == d.trait and d.owner in owners:
            return True
    return False


def _from_crate(
    graph: CallGraph,
    tables: _Tables,
    node: Node,
    found: list[int],
    imported: str | None,
    follow: bool = True,
) -> list[int]:
    """Of same-named types' methods in several crates, those of the crate the file's `use`
    names (`use risingwave_batch::executor::Executor`: batch's `Executor`, not stream's), one
    re-export followed (`use crate::executor::Executor` where `executor.rs` says `pub use
    risingwave_batch::executor::*`); all of them when the `use` names none of those crates,
    or there is no `use`."""
    if imported is None or len({graph.nodes[n].crate for n in found}) < 2:
        return found
    first = imported.split("::", 1)[0]
    if first not in _RELATIVE:
        return _of_crate(graph, found, first) or found
    mine = [n for n in found if graph.nodes[n].crate == node.crate]
    if mine or not follow:
        return mine or found
    module, _, name = imported.rpartition("::")
    path = _module_file(graph, tables, module, node) if module else None
    uses = _uses_of(tables, graph, path)
    named = [use.path for use in uses if use.alias == name]
    if named:
        return _from_crate(graph, tables, node, found, named[0], follow=False)
    globbed = {n for use in uses if use.alias == "*" for n in _of_crate(graph, found, use.path)}
    return [n for n in found if n in globbed] or found


def _from_module(
    graph: CallGraph,
    tables: _Tables,
    node: Node,
    found: list[int],
    imported: str | None,
) -> list[int]:
    """Of same-named types' methods in several files, those of the file of the module the
    `use` names (`use super::body::BodyWriter`: pingora's `v1::body`'s writer, not
    `subrequest::body`'s, reading 307), one re-export followed (`use super::BodyWriter` where
    that module says `pub use crate::v1::body::BodyWriter`); all of them when the module is
    no file of the repository, or neither it nor what it re-exports defines one of them."""
    if imported is None or "::" not in imported or len({graph.nodes[n].path for n in found}) < 2:
        return found
    first = imported.split("::", 1)[0]
    if first not in _RELATIVE:
        tables.seen.add(("crate", first))
        if first in _shared_crate_names(graph):
            return found  # sqlx's examples: two crates `accounts`, the `use` says not which
    seen_from = (node.crate, node.module)
    for _ in range(2):
        module, _, name = imported.rpartition("::")
        path = _module_path(graph, tables, module, *seen_from)
        if path is None:
            return found
        mine = [n for n in found if graph.nodes[n].path == path]
        if mine:
            return mine
        named = [use.path for use in _uses_of(tables, graph, path) if use.alias == name]
        if not named or "::" not in named[0]:
            return found
        imported, seen_from = named[0], (_crate(path), module_of(path))
    return found


def _shared_crate_names(graph: CallGraph) -> frozenset[str]:
    """The names code gives two crates of the repository or more (`crate_dirs` keeps one)."""
    shared: frozenset[str] | None = graph.derived.get("shared crate names")
    if shared is None:
        counts = Counter(crate_name(c) for c in {_crate(path) for path in graph.indexes})
        shared = graph.derived["shared crate names"] = frozenset(
            name for name, count in counts.items() if count > 1
        )
    return shared


def _of_crate(graph: CallGraph, found: list[int], path: str) -> list[int]:
    """The fns of `found` in the crate a path's first segment names: by the crate's directory
    name, or `<prefix>_<directory>` (`risingwave_batch` is `src/batch`)."""
    first = path.split("::", 1)[0]
    return [
        n
        for n in found
        if first == (named := crate_name(graph.nodes[n].crate)) or first.endswith("_" + named)
    ]


def _named_trait(graph: CallGraph, tables: _Tables, type_name: str, name: str) -> list[int]:
    """The declaration of trait T's method `name` when the receiver's type is one the index
    never sees defined (a macro writes it: risingwave's `SinkImpl` and the `match` that
    dispatches it) and is named after T (`SinkImpl`, `Sink`): `sink.validate()` runs one of
    T's impls. [] when no single such trait declares `name`."""
    tables.seen.add(("d", type_name))
    if type_name in tables.defined or type_name in STD_TYPES or not type_name[:1].isupper():
        return []
    tables.seen.add(("n", name))
    named = {
        d.trait
        for n in tables.by_method_name.get(name, [])
        if (d := graph.nodes[n].definition).trait
        and d.trait != type_name
        and d.trait in type_name
        and _is_trait(tables, d.trait)
    }
    return _declaration(graph, tables, named.pop(), name) if len(named) == 1 else []


def _variants_trait(graph: CallGraph, tables: _Tables, enum: str, name: str) -> list[int]:
    """The declaration of the trait method every method `name` of an enum's variants' values
    implements (`enum FilterKeyExtractorImpl { Schema(SchemaFilterKeyExtractor), .. }`, each
    an `impl FilterKeyExtractor`): the enum's impl, which a macro writes, runs one of them;
    [] when the variants' values have no such method or not all the same trait's."""
    aliased = _alias(tables, enum)
    tables.seen.add(("v", aliased))
    held = tables.variant_types.get(aliased)
    if not held:
        return []
    traits = set()
    for value_type in held:
        tables.seen.add(("m", value_type, name))
        for n in tables.methods.get((value_type, name), []):
            traits.add(graph.nodes[n].definition.trait)
    trait = traits.pop() if len(traits) == 1 else None
    if trait is None or not _is_trait(tables, trait):
        return []
    return _declaration(graph, tables, trait, name)


def _declaration(graph: CallGraph, tables: _Tables, trait: str | None, name: str) -> list[int]:
    """The trait's own declaration of its method `name` (not an impl's)."""
    tables.seen.add(("m", trait or "", name))
    return [
        n
        for n in tables.methods.get((trait or "", name), [])
        if graph.nodes[n].definition.owner == trait
    ]


def _associated_value(tables: _Tables, called: str) -> str:
    """The type `let x = T::f(..)` gives x (`called`: `T::f`, `a::T::f`): what T's fns `f`
    return (`Self`, `Result<Self>`: a `T`), when they agree; else `T` itself (a type of
    another crate, a constructor of the repository's that returns a std type)."""
    path, _, name = called.rpartition("::")
    owner = inner_type(path)
    return tables.returned_by(_methods_of(tables, owner, name), owner) or path


def _made_by_other_crate(
    tables: _Tables, path: str, called: str, imports: Mapping[str, str]
) -> bool:
    """Whether `let x = a::T::f(..)` (`called`: `a::T::f`) calls a fn of another crate's
    type: the type written with its module (`runtime::Builder`, not a bare `Builder`, which
    may be the file's own or a glob's), whose full path past the file's `use`s is no code of
    the repository's (`_other_crates`). Such a fn makes a value of its own crate (or a std
    holder of one): no type of the repository's, whatever of its own has the type's name."""
    written = called.rpartition("::")[0]
    head, _, rest = written.partition("::")
    if not rest or not head.isidentifier() or "<" in written:
        return False
    if _foreign(tables, rest.rsplit("::", 1)[-1]):
        # a name no type of the repository's has: the value keeps it, so that a trait of
        # the repository's implemented for it is found (neon's `impl JoinSetExt for
        # tokio::task::JoinSet<T>`: `pre_tasks.spawn_blocking_child(..)`)
        return False
    full = imports[head] + "::" + rest if head in imports else written
    return _other_crates(tables, path, full)


def _outside_value(tables: _Tables, receiver: str, variables: Mapping[str, str], path: str) -> bool:
    """Whether the receiver is a `let` holding what a fn returned that the repository does not
    define by any name (`let interval = tokio::time::interval(..)`): no inherent method of
    a repository type is its (meilisearch's `IndexScheduler::tick` for `interval.tick()`),
    only, perhaps, a trait's the repository implements for an outside type. A fn the
    repository defines somewhere, resolved or not, says nothing."""
    bound = variables.get(receiver.split(".", 1)[0], "")
    if not bound.startswith(CALLED_TYPE):
        return False
    called = bound[len(CALLED_TYPE) :]
    if "(" in called.rpartition(".")[0]:  # a chain's method's value: no outside fn's
        return False
    if called.rpartition(".")[2] in _GUARDS:  # a lock's guard, untyped: what it holds
        return False
    # a closure or fn value of the fn itself (`let chunk = write_txn_data(chunk)`) may well
    # return a repository type
    tables.seen.add(("k", called.rsplit("::", 1)[-1]))
    if called in variables:
        return False
    return called.rsplit("::", 1)[-1] not in tables.known or _other_crate_fn(tables, called, path)


def _other_crate_fn(tables: _Tables, called: str, path: str) -> bool:
    """Whether a call's path, as the file `path` writes it, is a free fn of another crate
    (`tokio::time::interval`: risingwave defines fns named `interval` too, and its election
    client's `ticker.tick()` read as its source manager's `tick`, reading 320); not std's,
    nor one whose value is what it is given or decodes (`serde_json::from_str`,
    `tokio::spawn`: `_PASSED_THROUGH`), nor a path through a type (`Foo::new`)."""
    if "::" not in called:
        return False
    first, *modules, name = called.split("::")
    if first in ("std", "core", "alloc") or name in _PASSED_THROUGH:
        return False
    if not first.isidentifier() or not first.islower() or not name[:1].islower():
        return False
    if any(not m.isidentifier() or not m.islower() for m in modules):
        return False
    return _another_crate(tables, first, path)


# Fns of other crates whose value is (or holds) what they are given or what they decode into
# a type the caller names: their `let` may hold a type of the repository's
_PASSED_THROUGH = frozenset(
    ("from_str", "from_slice", "from_value", "from_reader", "from_bytes", "from_utf8",
     "deserialize", "decode", "block_on", "block_in_place", "spawn_blocking", "spawn",
     "spawn_local", "timeout", "ready", "take", "replace", "swap", "identity", "scope",
     "select", "join", "try_join", "join_all", "try_join_all", "unbounded", "channel",
     "oneshot", "broadcast", "watch", "from_fn", "lazy", "once", "repeat", "iter", "pin")
)  # fmt: skip


def _made_outside(
    tables: _Tables,
    receiver: str,
    name: str,
    variables: Mapping[str, str],
    imports: Mapping[str, str],
) -> str | None:
    """The type of a receiver made by a fn of a type the repository never defines
    (rustup's `Registry::default()`, tracing_subscriber's): `_OUTSIDE`, a name no type has,
    so that `.with(layer)` on it is no `SettingsFile::with`; through that type's own methods
    too (`Registry::default().with(a).with(b)`). The type itself where the repository gives
    it the method `name` (lemmy's `impl Into<DbUrl> for Url`: `Url::parse(s)?.into()`), never
    a type named after one of its traits (cargo's serde_untagged `UntaggedEnumVisitor` is no
    `Visitor` of its own). None, unknown, where the value may be the repository's: a std
    type or a holder (`Arc::new(x)`, `Vec::from(..).pop()`), a type parameter, a std method
    or adapter in the chain (`.unwrap()`, `.into()`), a method the repository gives that
    type, a field; or where the repository gives another crate's type a method `name`."""
    segments = _segments(receiver)
    called = _path_call(segments[0]) if segments else None
    written = called[1] if called is not None else ""
    if not (written[:1].isupper() and written.isidentifier()) or written in variables:
        return None
    written = imports.get(written, written).rsplit("::", 1)[-1]
    if not _foreign(tables, written):  # a type of ours, or one a `use` renames (uv's `pub use
        return None  # version_files::DiscoveryOptions as VersionFileDiscoveryOptions`)
    if _given_outside(tables, name):  # `Command::new(..).args(..).output_ok()`: tauri's
        return written if len(segments) == 1 and _methods_of(tables, written, name) else None
    for segment in segments[1:]:
        method = segment.partition("(")[0]
        if segment == "await":
            continue
        if not segment.endswith(")") or method in STD_METHODS or method in ADAPTERS:
            return None
        if _methods_of(tables, written, method):  # a trait of ours implemented for it
            return None
    return _OUTSIDE


_OUTSIDE = "<outside>"


def _given_outside(tables: _Tables, name: str) -> bool:
    """Whether the repository gives a type of another crate a method of this name, not by a
    blanket impl (tauri's `impl CommandExt for Command`, tikv's `ResultExt for Result<T, E>`):
    a value another crate's fn made (`Command::new(..)`, `BucketName::try_from(..)`, a
    `Result`) may well be one."""
    for n in tables.methods_named(name):
        definition = tables.nodes[n].definition
        tables.seen.add(("d", definition.owner or ""))
        if definition.owner not in tables.defined and not _blanket(tables, definition):
            return True
    return False


def _named_after(graph: CallGraph, receiver: str, found: list[int]) -> list[int]:
    """Of the same-named methods, those of the type the receiver is named after, as a reader
    guesses (tikv's `self.ctx.coprocessor_host.on_raft_message(..)`: `CoprocessorHost`'s, not
    `PeerFsmDelegate`'s; `self.engine` -> `RocksEngine`); all of them when none is. A method's
    type or the trait it implements: `catalog_writer` names `CatalogWriter`'s impls
    (`CatalogWriterImpl`, a mock) as much as the trait's own declaration."""
    last = receiver.rsplit(".", 1)[-1]
    if len(found) < 2 or not last.isidentifier():
        return found
    names = [
        (n, _names_of(graph.nodes[n].definition.owner, graph.nodes[n].definition.trait))
        for n in found
    ]
    exact = [n for n, (whole, _) in names if last in whole]
    return exact or [n for n, (_, tails) in names if last in tails] or found


def _named_exactly(graph: CallGraph, receiver: str, found: list[int]) -> list[int]:
    """Of the same-named methods, those of the type or trait the receiver's last name is
    the whole snake_case name of (`switch` -> `Switch`); none when no type is so named."""
    last = receiver.rsplit(".", 1)[-1]
    return [
        n
        for n in found
        if last in _names_of(graph.nodes[n].definition.owner, graph.nodes[n].definition.trait)[0]
    ]


# Of `STD_METHODS`, the verbs no std type has a method of: other crates' (builders' `build`,
# runtimes' `run`), or the repository's own
OWN_VERBS = frozenset(
    ("build", "run", "start", "stop", "apply", "handle", "process", "execute", "update", "reset")
)


# A written type, past its references, `mut`, `dyn`/`impl` and generic arguments.
_WRITTEN_PATH = re.compile(r"^(?:&\s*(?:'\w+\s+)?(?:mut\s+)?)*(?:dyn\s+|impl\s+)?([A-Za-z_][\w:]*)")


# A channel's half, which derefs to nothing it carries: hyper's `tx: oneshot::Sender<..>`
# and `inner: mpsc::UnboundedSender<..>` had their `send` taken for hyper's own `Sender::send`
# (reading 122's recheck)
_CHANNEL_HALF = re.compile(
    r"(?:^|::)(?:mpsc|oneshot|broadcast|watch|crossbeam_channel|flume|async_channel)::\w+$"
)


def _foreign_written(
    tables: _Tables,
    node: Node,
    qualifier: str,
    variables: Mapping[str, str],
    imports: Mapping[str, str],
) -> bool:
    """Whether a method's receiver is a parameter (or a field of `self`) whose written type is
    another crate's: its full path (`client::Builder` under `use hyper::{client, ..}`: `hyper::client::
    Builder`) starts with no code of the repository's (`_ours`, a crate by its manifest's
    name) and names a module no type of the repository's of that name is in. A path of a
    crate alone (`risedev::MetaNodeService`: the manifest names a crate its directory does
    not) says nothing, nor one through a module of the name of one of the modules the
    repository's types of that name are in (a `pub use` re-exports)."""
    # a parameter's type as its signature writes it, generic arguments and all: a type of
    # another crate that takes none cannot deref to one of the repository's (a `let`'s
    # type, read off a method's value, has lost them: `OwnedRwLockReadGuard` of qdrant's
    # `read_owned()` derefs to its `ShardHolder`)
    bound = variables.get(qualifier, "") if qualifier.isidentifier() else ""
    if bound and (qualifier, bound) not in node.definition.params:
        return False
    owner = node.definition.owner
    field = qualifier[len("self.") :] if qualifier.startswith("self.") else ""
    of_field = bool(owner) and not bound and field.isidentifier()
    if of_field and owner:  # `self.tx`: its field's written type (`owner`: for the typing)
        aliased = _alias(tables, owner)
        tables.seen.add(("fd", aliased, field))
        bound = tables.field_type(aliased, field) or ""
    if not bound:
        return False
    written = _WRITTEN_PATH.match(bound) if not bound.startswith("<") else None
    if written is not None and "::" not in written[1] and written[1] not in imports:
        # `tap_tx: TapSender` beside `type TapSender = tokio_mpsc::Sender<TapPayload>`: the
        # alias's own written type, read with this file's `use`s (vector's tap, reading 211)
        aliased_as = tables.alias_value(node.path, written[1])
        written = _WRITTEN_PATH.match(aliased_as) if aliased_as else written
        bound = aliased_as or bound
    if written is None:
        return False
    head, _, rest = written[1].partition("::")
    if head in imports:
        full = imports[head] + (f"::{rest}" if rest else "")
    elif rest:
        full = written[1]
    else:
        return False  # a name of the file's own, or of a glob: the repository's, maybe
    if bound[written.end() :].lstrip().startswith("<") and not _CHANNEL_HALF.search(full):
        # `web::Data<SearchQueue>`, `Arc<T>`: a wrapper derefs to what it holds; not a
        # channel's half, by its full path (`timer_tx: Sender<Message>` under `use
        # tokio::sync::mpsc::Sender`: no `SenderAdapter::try_send`, reading 211)
        return False
    if of_field and not _CHANNEL_HALF.search(full):
        # a field only when it is a channel's half: a field's type is often an alias the
        # repository declares for another crate's path (risingwave's `inner:
        # BoxedAggregateFunction`, a `Box<dyn AggregateFunction>` of its own), which the
        # crate test below cannot tell apart (338 of its edges went, most of them right)
        return False
    return _other_crates(tables, node.path, full)


def _other_crates(tables: _Tables, path: str, full: str) -> bool:
    """Whether a type's full path (past the file's `use`s) in the file `path` starts with no
    code of the repository's (`_ours`, a crate by its manifest's name) and names a module no
    type of the repository's of that name is in. A path of a crate alone
    (`risedev::MetaNodeService`: the manifest names a crate its directory does not) says
    nothing, nor one through a module of the name of one of the modules the repository's
    types of that name are in (a `pub use` re-exports); nor std's, which `STD_TYPES` tells."""
    first, *modules, type_name = full.split("::")
    if not modules or first in ("Self", "std", "core", "alloc"):
        return False
    tables.seen.add(("o", type_name))  # the impls of the type (where its methods are)
    if not _another_crate(tables, first, path):
        return False
    # a module on the path may re-export the type (tikv's `server::MultiRaftServer` is
    # `server::node`'s): any of its names in a module of a type of the name is the type's
    named = set(modules)
    return not any(named & set(held.split("::")) for held in tables.owner_modules(type_name))


def _another_crate(tables: _Tables, first: str, path: str) -> bool:
    """Whether a path's first name, written in the file `path`, names no code of the
    repository's: not `crate`/`self`/`super`, none of its crates (by directory or by the
    manifest's prefixed name), no module of the file's crate. What the answer reads is kept
    for the link memo: the crate and the top module of the name."""
    tables.seen.update((("crate", first), ("mod", _crate(path), first)))
    return not (_ours(tables, first, path) or _prefixed_crate(tables, first))


@cache
def _prefixed_crate(tables: _Tables, first: str) -> bool:
    """Whether a path's first name is a crate of the repository's by the name its manifest
    gives it (`risingwave_meta` is `src/meta`), as `_of_crate` reads a path."""
    return any(first.endswith("_" + named) for named in tables.crates)


@cache  # a few thousand (type, trait) pairs, asked ~400,000 times a graph
def _ours(tables: _Tables, first: str, path: str) -> bool:
    """Whether a `use` path's first segment, in the file `path`, names the repository's code:
    `crate`/`self`/`super`, one of its crates, or a module of the file's crate (`rust::`
    beside `pub mod rust;`); not another crate (`rocksdb::`)."""
    return first in _RELATIVE or first in tables.crates or first in tables.modules[_crate(path)]


@cache  # a few thousand (type, trait) pairs, asked ~140,000 times a risingwave link
def _names_of(owner: str | None, trait: str | None) -> tuple[frozenset[str], frozenset[str]]:
    """The snake_case names of a method's type and trait (`CoprocessorHost` ->
    `coprocessor_host`), and their tails (`rocks_engine` -> `engine`)."""
    whole = frozenset(_CAMEL.sub("_", name).lower() for name in (owner, trait) if name)
    tails = frozenset(
        "_".join(parts[k:])
        for name in whole
        if len(parts := name.split("_")) > 1
        for k in range(1, len(parts))
    )
    return whole, tails


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _receiver_type(
    tables: _Tables,
    owner: str | None,
    qualifier: str,
    variables: Mapping[str, str],
    depth: int = 0,
) -> tuple[Resolution, str] | None:
    """The type of `self`, a typed variable, or a chain of fields and method calls off either
    (`x.a.b`, `self.input().schema()`, `Catalog::new(..).tables()`): a method call's value
    is what the type's methods of that name return, when they agree (`Self` the type)."""
    if qualifier == "self" and owner:
        return "self", owner
    literal = _STRUCT_LITERAL.match(qualifier) if "{" in qualifier else None
    if literal is not None:  # `WorkerStarter { id, .. }.start()` (greptimedb's mito2)
        tables.seen.add(("d", literal[1]))
        return ("type", literal[1]) if literal[1] in tables.defined else None
    pinned = _PINNED.fullmatch(qualifier) if "Pin::new" in qualifier else None
    if pinned is not None and depth < 3 and _segments(pinned[1]):  # (`a).b(c`: no chain)
        # `Pin::new(&mut self.conn).poll(cx)`: the conn's
        return _receiver_type(tables, owner, pinned[1], variables, depth + 1)
    segments = _segments(qualifier)
    if not segments:
        return None
    head, *rest = segments
    if head == "self" and owner:
        current = owner
    elif head.isidentifier() and variables.get(head, ""):
        bound = variables[head]
        if bound.startswith(CALLED_TYPE):  # a fn's value: what the fns of that name return
            called = bound[len(CALLED_TYPE) :]
            returned = tables.returned(called)
            if returned is None and depth < 3 and _typed_at_use(bound, head):
                returned = _chain_value(tables, owner, called, variables, depth)
            if returned is None:
                return None
            current = returned
        elif bound.startswith(FIELD_VALUE):  # `let session = &handler_args.session`
            chain = bound[len(FIELD_VALUE) :]
            typed = (
                _receiver_type(tables, owner, chain, variables, depth + 1) if depth < 3 else None
            )  # (`let a = a.b` rebinding `a` reads itself: no type, by the depth)
            if typed is None:
                return None
            current = typed[1]
        elif bound.startswith(LOOP_ITEM):  # a `for` loop's name: an element of what it iterates
            written = _loop_value(tables, owner, bound, variables, depth) if depth < 3 else None
            if written is None:
                return None
            current = inner_type(written)
            if current == "Self" and owner:
                current = owner
        else:
            current = inner_type(bound)
            if current == "Self" and owner:  # `transport: Arc<Self>`
                current = owner
    else:
        if head.startswith("Self::") and owner:  # zoxide's `Self::get_fzf()?.wait()?`
            head = f"{owner}::{head[len('Self::') :]}"
        made = _associated_call(tables, head, variables)
        if made is None:
            return None
        current = made
    for segment in rest:
        if segment.endswith(")"):  # a method call: `input()`, `get(&id)`
            name = segment[: segment.index("(")]
            if name in _SAME_VALUE:
                continue
            if segment == "take()" and not _methods_of(tables, current, name):
                continue  # `Option::take`: tikv's `self.cmd.take().unwrap()` is a `Command`
            if name in _LOCKS and not _methods_of(tables, current, name):
                continue  # `segment.write()` on an `Arc<RwLock<ReadOnlySegment>>`: its guard
            if current in STD_TYPES and name in STD_METHODS:
                return None  # a std type's own method (`self.map.iter()` on a `HashMap`): Rust
                # takes it before a repository trait's of the name, and its value is std's
            made = (
                _deref_target(tables, current)
                if name in _DEREFS
                else tables.returned_by(_methods_of(tables, current, name))
            )
            if made is None:
                return None
            current = made
        elif segment == "await":
            continue
        else:
            owner_type = _alias(tables, current)
            tables.seen.add(("fd", owner_type, segment))
            written = tables.field_type(owner_type, segment)
            if written is None and owner_type != current:
                # a struct an alias of another build shares the name of: tantivy's fst
                # `struct TermStreamer` and the sstable `type TermStreamer = Streamer<..>`
                # (`self.current_key` is the struct's `Vec<u8>`, not a stacker writer's by
                # name: reading 301)
                tables.seen.add(("fd", current, segment))
                written = tables.field_type(current, segment)
            if written is None:
                return None
            current = inner_type(written)
            if variables.get(current) and (
                _TYPE_PARAMETER.fullmatch(current) or current in tables.type_parameters(owner_type)
            ):  # `array: E` of `impl<E: SyncExpression>`; `handler: Handler` of `struct
                # Poller<N, C, Handler>` in `impl<.., Handler: PollHandler<N, C>>`: the bound's
                current = variables[current]
    return "type", current


# What an `Option`'s or a `Result`'s own methods keep of the value: its holder, unchanged
_KEEPS_HOLDER = frozenset(("as_ref", "as_mut", "as_deref", "as_deref_mut", "clone", "cloned",
                           "copied", "take"))  # fmt: skip
# `Option<T>`, `Result<T>`, `io::Result<T>`, `&Option<T>` as a signature or a field writes it
_OPTIONAL = re.compile(r"^&?\s*(?:'\w+\s+)?(?:mut\s+)?(?:\w+::)*(?:Option|Result)\s*<")


def _optional(
    tables: _Tables, owner: str | None, qualifier: str, name: str, variables: Mapping[str, str]
) -> bool:
    """Whether a receiver's value is an `Option` or a `Result` as the code writes it: a
    variable so typed, a field so declared (`self.response_header.as_ref()`), or a call of
    methods that all return one (`self.resp_header()`). A method of that name is then the
    holder's own, whatever the type inside has (`_receiver_type` sees through the holder,
    so that `x.unwrap().f()` is `T::f`). False when the code does not say."""
    if qualifier.rstrip().endswith("?"):  # `f()?`: what the `Result` held, not itself
        return False
    segments = list(_segments(qualifier))
    while len(segments) > 1 and segments[-1].partition("(")[0] in _KEEPS_HOLDER:
        segments.pop()
    if not segments:
        return False
    *prefix, last = segments
    if not prefix:
        # a name's type, as its parameter or `let` writes it, misses the `if let Some(left)
        # = left` that rebinds it to what it held (risingwave's `array_cat`: `left.iter()`
        # is `ListRef::iter`): only a method no held type would have is the holder's then
        if name not in HOLDER_ONLY_METHODS:
            return False
        bound = variables.get(last, "") if last.isidentifier() else ""
        special = bound.startswith((CALLED_TYPE, FIELD_VALUE, LOOP_ITEM))
        return not special and _OPTIONAL.match(bound) is not None
    typed = _receiver_type(tables, owner, ".".join(prefix), variables)
    if typed is None or last == "await":
        return False
    type_name = _alias(tables, typed[1])
    if last.endswith(")"):
        written = tables.written_by(_methods_of(tables, type_name, last.partition("(")[0]))
    else:
        tables.seen.add(("fd", type_name, last))
        written = tables.field_type(type_name, last, sure=True) or ""
    return _OPTIONAL.match(written) is not None


def _loop_value(
    tables: _Tables, owner: str | None, bound: str, variables: Mapping[str, str], depth: int
) -> str | None:
    """The type a `for` loop's name holds, as written (`bound`: `<item1>self.segments.iter()`,
    `ITEM_VALUE`): the value iterated typed as a receiver is up to its last field or method
    (a parameter's written type, a field's, what a method's signature returns), then the
    element (`elements`)."""
    bound, _, earlier = bound.partition(_EARLIER)
    item = ITEM_VALUE.fullmatch(bound)
    peeled = iterated(_segments(item[2]), item[1]) if item is not None else None
    if peeled is None or not peeled[0]:
        return None
    segments, part, want = peeled
    if earlier:  # a loop over its own name: the name's value before the loop
        variables = {**variables, segments[0]: earlier}
    if len(segments) == 1:  # a parameter or a typed `let`: no marker of the index's
        written = variables.get(segments[0], "")
    else:
        typed = _receiver_type(tables, owner, ".".join(segments[:-1]), variables, depth + 1)
        if typed is None:
            return None
        last = segments[-1]
        if last.endswith(")"):
            written = tables.written_by(_methods_of(tables, typed[1], last.partition("(")[0]))
        else:
            aliased = _alias(tables, typed[1])
            tables.seen.add(("fd", aliased, last))
            written = tables.field_type(aliased, last) or ""
    if not written or written.startswith("<"):
        return None
    return element_of(written, part, want)


def _std_value(tables: _Tables, called: str, variables: Mapping[str, str]) -> bool:
    """Whether `let x = y.m(..)` (`called`: `y.m`) holds a std type's own method's value: `y`
    a name `variables` type as a std type, or an alias of one (risingwave's `states: &mut
    BackfillStates`, a `HashMap`), that has no method `m` of the repository's. Its value is
    std's, not what the repository's methods of that name return (`EstimatedBTreeMap::
    extract_if`'s `ExtractIf`, whose `next` a loop over `states.extract_if(..)` had run)."""
    receiver, dot, name = called.rpartition(".")
    written = variables.get(receiver, "") if dot and receiver.isidentifier() else ""
    if not written or written.startswith("<"):  # a marker: a call's value, a field's, ..
        return False
    current = _alias(tables, inner_type(written))
    return current in STD_TYPES and not _methods_of(tables, current, name)


def _foreign_made(
    tables: _Tables,
    called: str,
    returned: str,
    params: Mapping[str, str],
    bindings: Mapping[str, list[tuple[int, str]]],
    line: int,
) -> bool:
    """Whether `let x = y.m(..)` (`called`: `y.m`), which the repository's methods named `m`
    say makes a `returned` of its own, holds another crate's value: `y` a parameter or an
    earlier `let` of a type the repository never defines (`_foreign`) that it gives no
    method `m`. Another crate's method makes none of the repository's types (rustup's
    `let pb = multi_progress_bars.add(ProgressBar::new(1))`, an indicatif `MultiProgress`:
    no `Components::add`'s `ComponentBuilder`, whose `finish` the bar's had run). A type
    the repository does not define either is kept as the guess it was (helix's
    `rope.slice(..)` is a `RopeSlice` whichever `slice` it is)."""
    receiver, dot, name = called.rpartition(".")
    if not dot or not receiver.isidentifier():
        return False
    tables.seen.add(("d", returned))
    if returned not in tables.defined:
        return False
    above = _in_scope([bound for at, bound in bindings.get(receiver, ()) if at < line])
    written = above[-1] if above else params.get(receiver, "")
    if not written or written.startswith("<"):  # a marker: a call's value, a field's, ..
        return False
    current = inner_type(written)  # (tauri's `Webview` is a struct, and elsewhere an alias)
    aliased = _alias(tables, current)
    return (
        _foreign(tables, current)
        and _foreign(tables, aliased)
        and not _methods_of(tables, aliased, name)
    )


def _foreign(tables: _Tables, type_name: str) -> bool:
    """Whether a type name is another crate's: no type of the repository's has it, nor does
    a `use .. as` rename one so; not a std type, a holder, `Self` or a type parameter."""
    if not (type_name[:1].isupper() and type_name.isidentifier()):
        return False
    if type_name in STD_TYPES or _maybe_holds(type_name):
        return False
    tables.seen.add(("d", type_name))
    tables.seen.add(("k", type_name))
    return type_name not in tables.defined and type_name not in tables.renamed


def _typed_at_use(bound: str, name: str) -> bool:
    """Whether `let name = <chain>.m(..)` (`bound`: `<call>session.env().meta_client`) is
    typed where `name` is used, as the receiver it is called on typed there, then `m`'s
    value: a chain with a call in it whose value no method name alone tells. Not a `let`
    of its own name's method (`let s = s.fused()`: the name keeps the type it had)."""
    receiver, _, method = bound[len(CALLED_TYPE) :].rpartition(".")
    # a chain with a call, `let dyn_t = self.deref()` (the `Deref` target), or a lock's
    # guard, which derefs to what the lock holds (greptimedb's `let mut inner =
    # self.inner.lock().await; inner.next()`: `Inner::next`, reading 230)
    return ("(" in receiver or method in _DEREFS or method in _GUARDS) and _made_of_other(
        receiver, name
    )


def _made_of_other(receiver: str, name: str) -> bool:
    """Whether a `let name = receiver.m(..)` makes a value of something other than `name`
    itself (`let s = s.fused()` does not)."""
    return bool(receiver) and _segments(receiver)[:1] != (name,)


def _chain_value(
    tables: _Tables, owner: str | None, called: str, variables: Mapping[str, str], depth: int
) -> str | None:
    """The value of `receiver.m(..)` (`called`: `receiver.m`): the receiver typed as a chain
    (`session.env()`: a `FrontendEnv`), then what that type's methods `m` return."""
    receiver, _, name = called.rpartition(".")
    typed = _receiver_type(tables, owner, receiver, variables, depth + 1)
    if typed is None:
        return None
    if name in _SAME_VALUE:
        return typed[1]
    if name in _DEREFS:
        return _deref_target(tables, typed[1])
    methods = _methods_of(tables, typed[1], name)
    if name in _GUARDS and not methods:
        # a lock's guard: what the lock holds, when a struct or enum of the repository's;
        # else (an alias, qdrant's `Collections`, a `BTreeMap` with `impl Checker for
        # Collections`; a std type) untyped, its methods found by name as before
        tables.seen.add(("d", typed[1]))
        return typed[1] if typed[1] in tables.concrete else None
    if name in _GUARDS and "(" not in receiver:
        # the repository's own `read()` (qdrant's `SharedShardHolder::read` ->
        # `RwLockReadGuard<'_, ShardHolder>`, neon's `layers.read(holder)`): what its guard
        # derefs to, the index does not tell; the name stays untyped, its methods found by
        # name, as before locks were typed
        return None
    return tables.returned_by(methods)


_DEREFS = frozenset(("deref", "deref_mut"))
# a receiver that is a struct's literal (`WorkerStarter { id: 1, }`, as the index keeps it)
_STRUCT_LITERAL = re.compile(r"([A-Z]\w*)\s*\{")


def _deref_target(tables: _Tables, type_name: str) -> str | None:
    """What `x.deref()` gives: the `Deref` target the repository's impl for x's type writes
    (risingwave's `PlanRef` -> `C::PlanRefDyn`, a `dyn` plan node: its methods dispatch)."""
    aliased = _alias(tables, type_name)
    tables.seen.add(("x", aliased))
    return tables.deref.get(aliased) or None


def _blanket(tables: _Tables, definition: Definition) -> bool:
    """Whether a method is a blanket impl's, for any type: `impl<T: Display> ToReport for T`
    (its type one capital letter, no type of the repository; nushell's `Du`, `Ls` are)."""
    owner = definition.owner or ""
    tables.seen.add(("d", owner))
    return len(owner) == 1 and owner.isupper() and owner not in tables.defined


def _maybe_holds(type_name: str) -> bool:
    """Whether a type the repository does not define may hold a value of one it does, or be
    one: a holder typed without its parameter (`let state = Arc::new(self.state)` is an
    `Arc`; actix's `web::Data<Dispatcher>`, axum's `State<S>`; a name ending in a holder's,
    parking_lot's `ArcRwLockReadGuard`, risingwave's `CatalogReadGuard` of a `Catalog`),
    `Self`, or a type parameter bounded where the index does not look (`F`, qdrant's
    `TStorage`). Not axum's `Path<T>`: std's `Path` would be taken for it."""
    return (
        type_name in _HOLDERS
        or type_name.endswith(_HOLDER_ENDS)
        or _TYPE_PARAMETER.fullmatch(type_name) is not None
    )


_HOLDERS = frozenset(
    ("Self", "Rc", "Weak", "Cow", "Pin", "Mutex", "ManuallyDrop", "Option", "Result", "Future",
     "JoinHandle", "Data", "Json", "Query", "Form", "Extension", "State", "Lazy", "ArcSwap")
)  # fmt: skip
_HOLDER_ENDS = ("Guard", "Ref", "RefMut", "Cell", "Lock", "Ptr", "Arc", "Box")
_TYPE_PARAMETER = re.compile(r"[A-Z][A-Za-z0-9]?|T[A-Z]\w*")


# A lock's methods whose value (a guard) derefs to the locked value: `inner_type` took the
# `RwLock`/`Mutex`/`RefCell` off the type already, so where that type has no method of the
# name, the call is the lock's, and what comes after is on the value.
# The methods of a lock whose value is a guard of what it holds (not `get_mut`, which a map's
# entry has too)
_GUARDS = frozenset(
    ("read", "write", "lock", "try_read", "try_write", "try_lock", "upgradable_read",
     "blocking_read", "blocking_write", "blocking_lock")
)  # fmt: skip
_LOCKS = frozenset(
    ("read", "write", "lock", "try_read", "try_write", "try_lock", "upgradable_read",
     "blocking_read", "blocking_write", "blocking_lock", "get_mut")
)  # fmt: skip


def _to_actor(
    graph: CallGraph,
    tables: _Tables,
    handlers: list[int],
    call: Call,
    owner: str | None,
    variables: Mapping[str, str],
) -> list[int]:
    """Of the actors that handle a message's type, the one its mailbox is for, where the code
    writes it (`source_mailbox: Mailbox<SourceActor>`, the receiver's or, for
    `ctx.send_message(&mailbox, msg)`, the first argument's), the sender's own for a message
    it sends itself (`_SELF_SENDS`); all of them otherwise."""
    if call.name in _SELF_SENDS:  # `ctx.schedule_self_msg(HEARTBEAT, Loop)`: the sender's own
        mine = [n for n in handlers if graph.nodes[n].definition.owner == owner]
        if mine:
            return mine[:MAX_CANDIDATES]
    texts = [call.qualifier, *(call.args[:1] if len(call.args) > 1 else ())]
    for text in texts:
        actor = _mailbox_actor(tables, owner, text, variables)
        mine = [n for n in handlers if graph.nodes[n].definition.owner == actor]
        if mine:
            return mine[:MAX_CANDIDATES]
    return handlers[:MAX_CANDIDATES]


def _mailbox_actor(
    tables: _Tables, owner: str | None, text: str, variables: Mapping[str, str]
) -> str | None:
    """The actor a mailbox's written type names (`Mailbox<SourceActor>`, `Addr<Pinger>`): of a
    name the fn types, or of a chain's last field."""
    segments = _segments(text.strip().lstrip("&").removeprefix("mut ").strip())
    if not segments or segments[-1].endswith(")"):
        return None
    if len(segments) == 1:
        written = variables.get(segments[0], "")
    else:
        typed = _receiver_type(tables, owner, ".".join(segments[:-1]), variables)
        if typed is None:
            return None
        holder = _alias(tables, typed[1])
        tables.seen.add(("fd", holder, segments[-1]))
        written = tables.field_type(holder, segments[-1]) or ""
    _, arguments = generic_parts(written.strip().lstrip("&").removeprefix("mut ").strip())
    return inner_type(arguments[0]) if len(arguments) == 1 else None


# What runs a value's items, by the trait it implements: a `for` loop (`_LOOPED`) its
# `Iterator::next`, else its `IntoIterator::into_iter`; a standard adapter or consumer
# (`_ITERATOR_DRIVERS`, `Iterator`'s and `StreamExt`'s) its `next`, a stream's `poll_next`.
_LOOPED = (("next", "Iterator"), ("into_iter", "IntoIterator"))
_ITERATOR_TYPE_NAMES = frozenset(
    ("Iter", "IterMut", "IntoIter", "Keys", "Values", "ValuesMut", "Drain", "Chain", "Map",
     "Filter", "FilterMap", "FlatMap", "Rev", "Zip", "Enumerate", "Peekable", "Skip", "Take",
     "Range", "Chars", "Lines", "Split", "Windows", "Chunks")
)  # fmt: skip
_DRIVEN = (("next", "Iterator"), ("poll_next", "Stream"))
_ITERATOR_DRIVERS = frozenset(
    ("next", "try_next", "map", "filter", "filter_map", "flat_map", "flatten", "collect",
     "try_collect", "for_each", "try_for_each", "count", "fold", "try_fold", "any", "all",
     "find", "find_map", "position", "last", "nth", "sum", "product", "min", "max",
     "min_by_key", "max_by_key", "zip", "chain", "enumerate", "take", "skip", "take_while",
     "skip_while", "peekable", "step_by", "inspect", "partition", "unzip", "cloned", "copied",
     "fuse", "scan", "buffered", "buffer_unordered")
)  # fmt: skip


def _steps(
    graph: CallGraph, tables: _Tables, type_name: str, traits: Sequence[tuple[str, str]]
) -> list[int]:
    """The methods of `type_name` that take its items (`_LOOPED`, `_DRIVEN`): the first of
    `traits`' (method, trait) pairs the type implements; none for a type not the
    repository's (a `Vec`'s `next` is the standard library's), nor one whose name std's and
    other crates' iterators have (`Iter`, `IntoIter`: qdrant's `payload.into_iter()` is
    serde_json's `IntoIter`, not its blob tracker's `Iter`), nor one the repository defines
    twice."""
    aliased = _alias(tables, type_name)
    if (
        aliased in _ITERATOR_TYPE_NAMES
        or len(graph.definitions("struct", aliased) + graph.definitions("enum", aliased)) > 1
    ):
        return []
    for method, trait in traits:
        found = [
            n for n in _methods_of(tables, aliased, method)
            if graph.nodes[n].definition.trait == trait and graph.nodes[n].definition.owner != trait
        ]  # fmt: skip
        if found:
            return found[:MAX_CANDIDATES]
    return []


# The methods that send a message to an actor, whose `Handler<M>::handle` then runs: its
# mailbox's (quickwit's `Mailbox`, actix's `Addr`), and an actor's to itself, whose handler
# is the sender's own impl (quickwit's `ActorContext`: a source's `Loop`, a heartbeat).
_SELF_SENDS = frozenset(("send_self_message", "try_send_self_message", "schedule_self_msg"))
_SENDS = frozenset(
    ("send_message", "send_message_with_high_priority", "try_send_message", "ask",
     "ask_for_res", "do_send", "try_send", "send", "tell", *_SELF_SENDS)
)  # fmt: skip
# Calls resolved though no fn of the repository has their name (`Tables.known`)
_UNNAMED_CALLEES = _SENDS | _ITERATOR_DRIVERS

# Methods whose value is, for a method call on it, the value they are called on (the
# wrappers `inner_type` takes off: `Option`, `Arc`, a reference).
# (`project`: pin-project's projection, whose fields are the struct's, pinned)
_SAME_VALUE = frozenset(
    ("clone", "as_ref", "as_mut", "borrow", "borrow_mut", "unwrap", "expect", "project",
     "project_ref")
)  # fmt: skip
# A value pinned where it is polled: hyper's `Connection::poll` is `Pin::new(&mut self.conn)
# .poll(cx)`, its dispatcher's (reading 122)
_PINNED = re.compile(
    r"(?:(?:std|core)::pin::)?Pin::new(?:_unchecked)?\(\s*(?:&\s*mut\s+)?\*?(.+)\)"
)


@lru_cache(maxsize=1 << 16)  # receivers repeat (`self.inner`, `self.catalog_reader.read_guard()`)
def _segments(qualifier: str) -> tuple[str, ...]:
    """A receiver's text split at its top-level dots, each `?` dropped: `self.a.get(x.y)?`
    -> (self, a, get(x.y)); () for a text the index cut short or that is not such a chain
    (a closure, a literal, a macro, an index)."""
    if "…" in qualifier or not qualifier:
        return ()
    if any(char in qualifier for char in "([{)]}"):
        cuts, depth = [], 0
        for at, char in enumerate(qualifier):
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
                if depth < 0:
                    return ()
            elif char == "." and depth == 0:
                cuts.append(at)
        if depth:
            return ()
        out = [
            qualifier[a + 1 : b] for a, b in zip([-1, *cuts], [*cuts, len(qualifier)], strict=True)
        ]
    else:  # `self.a.b`, most receivers: no bracket to skip
        out = qualifier.split(".")
    out = [segment.rstrip("?") for segment in out]
    for segment in out[1:]:  # each a field or a method call: `name` or `name(..)`; `0`
        name, paren, _ = segment.partition("(")
        if not (name.isidentifier() or (name.isdigit() and not paren)) or (
            paren and not segment.endswith(")")
        ):
            return ()
    return tuple(out)


def _associated_call(tables: _Tables, head: str, variables: Mapping[str, str]) -> str | None:
    """The type `Type::f(..)` gives (`Catalog::new(..)`: `Self`, so `Catalog`): what the
    type's fns of that name return, when they agree (a `T: Trait` parameter's type is the
    trait's); of `f(..)`, what the free fns of that name return."""
    called = _path_call(head)
    if called is None:
        return None
    path, last, name = called
    if not last[:1].isupper():  # `make_catalog(..)`, `catalog::open(..)`: a free fn's value
        return tables.returned(path) if path.replace("::", "").isidentifier() else None
    return tables.returned_by(_methods_of(tables, variables.get(last) or last, name))


def _path_call(head: str) -> tuple[str, str, str] | None:
    """A receiver's head read as a call by path, `a::Type::f(..)`: the path (`a::Type::f`),
    its last segment before the fn, generics off (`Type`; "" for `f(..)`), and the fn's
    name; None when the head is no such call."""
    if not head.endswith(")") or "(" not in head:
        return None
    path = head[: head.index("(")]
    qualifier, _, name = path.rpartition("::")
    return (
        (path, qualifier.rsplit("::", 1)[-1].split("<", 1)[0], name)
        if name.isidentifier()
        else None
    )


def _methods_of(tables: _Tables, type_name: str, name: str, projected: bool = True) -> list[int]:
    seen = tables.seen
    seen.add(("a", type_name))
    seen.add(("m", type_name, name))
    own = tables.methods.get((type_name, name))
    if not own:  # a type of the name with such a method is that type, whatever an alias says
        type_name = tables.aliases.get(type_name, type_name)  # (cargo's `enum Exec` and
        seen.add(("m", type_name, name))  # `type Exec = fn(..)`: `Exec::infer` is the enum's)
        own = tables.methods.get((type_name, name))
    if not own:  # `Rust as AppInterface`: a `Rust`; not a type of the name (uv's trait
        seen.add(("u", type_name))  # `DistributionMetadata`, and `Metadata as
        seen.add(("d", type_name))  # DistributionMetadata` elsewhere)
        renamed = tables.renamed_types.get(type_name)
        # (a trait's new name, `KvEngine as LocalEngine`, is read where the `use` is: its
        # impls are the dispatch's, `_resolve`)
        if (
            renamed is not None
            and type_name not in tables.defined
            and not _is_trait(tables, renamed[0])
        ):
            type_name, first = renamed
            seen.add(("crate", first))
            seen.add(("m", type_name, name))
            own = tables.methods.get((type_name, name))
    found = list(own or [])
    if not found:  # a trait's default method, or the trait object itself
        seen.add(("o", type_name))
        for trait in sorted(tables.traits_of.get(type_name, ())):
            seen.add(("m", trait, name))
            found.extend(tables.methods.get((trait, name), []))
    if not found and _is_trait(tables, type_name):  # a supertrait's, declared there
        for trait in _supertraits_of(tables, type_name):
            seen.add(("m", trait, name))
            found.extend(tables.methods.get((trait, name), []))
    if not found and projected:
        seen.add(("as", type_name))
        if type_name in tables.associated:
            # an associated type (`S::VectorWriter`): the impls' types, as candidates
            for target in sorted(tables.associated[type_name]):
                found.extend(_methods_of(tables, target, name, projected=False))
            found = list(dict.fromkeys(found))  # two impls' types with one supertrait
    return found


def _methods_of_aliases(graph: CallGraph, tables: _Tables, type_name: str, name: str) -> list[int]:
    """The methods `name` of the impls written for aliases of a struct or enum of the
    repository that has none of its own, each in the alias's file: `Binding::<T>::deserialize
    (value)` runs `impl Deserialize for KeyBinding`'s or `MouseBinding`'s (`type KeyBinding =
    Binding<BindingKey>`: alacritty's, reading 324), each a candidate of the call, whichever
    `T` is. Not a std type's (greptimedb's `type Batch = BTreeMap<..>` is no `BTreeMap::new`),
    nor an alias that is also a struct's or an enum's name (their methods may be that type's)."""
    tables.seen.add(("d", type_name))
    tables.seen.add(("ra", type_name))
    if type_name not in tables.concrete:
        return []
    found: list[int] = []
    for alias, path in tables.aliased_as.get(type_name, ()):
        tables.seen.add(("d", alias))
        tables.seen.add(("m", alias, name))
        if ("struct", alias) not in graph.named and ("enum", alias) not in graph.named:
            found.extend(
                n for n in tables.methods.get((alias, name), ()) if graph.nodes[n].path == path
            )
    return list(dict.fromkeys(found))


def _supertraits_of(tables: _Tables, trait: str) -> list[str]:
    """The repository's traits `trait` has as supertraits, theirs too, nearest first."""
    known = tables.above.get(trait)
    if known is None:
        seen, queue = {trait}, [trait]
        out: list[str] = []
        keys: list[Key] = []
        while queue:
            child = queue.pop(0)
            keys.append(("s", child))
            for parent in sorted(tables.supers.get(child, ())):
                keys.append(("t", parent))
                if parent not in seen and parent in tables.traits:
                    seen.add(parent)
                    out.append(parent)
                    queue.append(parent)
        known = tables.above[trait] = (out, tuple(keys))
    tables.seen.update(known[1])
    return known[0]


def _alias(tables: _Tables, name: str) -> str:
    """What a `type X = Y` alias names (`name` itself when it is none), looked up."""
    tables.seen.add(("a", name))
    return tables.aliases.get(name, name)


def _free(tables: _Tables, name: str) -> list[int]:
    """The free fns (no `self` type) of this name, looked up."""
    tables.seen.add(("f", name))
    return tables.free.get(name, [])


def _is_trait(tables: _Tables, name: str) -> bool:
    """Whether the repository declares a trait of this name, looked up."""
    tables.seen.add(("t", name))
    return name in tables.traits


def _uses_of(tables: _Tables, graph: CallGraph, path: str | None) -> tuple[Use, ...]:
    """The `use` declarations of another file of the repository, looked up."""
    if path is None:
        return ()
    tables.seen.add(("file", path))
    return graph.indexes[path].uses


def _module_call(
    graph: CallGraph, tables: _Tables, node: Node, call: Call, imports: Mapping[str, str]
) -> tuple[Resolution, list[int]]:
    segments = call.qualifier.split("::")
    how: Resolution = "local"
    if segments[0] in imports:
        segments = imports[segments[0]].split("::") + segments[1:]
        how = "import"
    if segments[0] in _STANDARD_CRATES:
        # `fs::create_dir_all(..)` under `use std::fs::{self, File}`: the standard library's,
        # never a fn of a module of the repository that is also named `fs` (sqlx-cli's `add`
        # went to `sqlx_core::fs::create_dir_all`, paths of stop 77)
        return how, []
    wanted = [s for s in segments if s not in ("crate", "self", "super")]
    named = _free(tables, call.name)
    # `engine::walk`: the crate named so (by its directory), at its root or below.
    crated = _of_named_crate(graph, named, wanted)
    if crated and len(wanted) > 1 and not _module_ends(graph.nodes[crated[0]].module, wanted):
        # `xtask::test::run` where no fn `run` of module `test` is in the index (a `test/`
        # directory the index leaves out): one below that module (a re-export), or one
        # its `use` brings in; never another module's `run` (meilisearch's xtask `main` went
        # to `bench::run` for `test::run`, reading 311)
        crated = [
            n for n in crated if f"::{wanted[-1]}::" in f"::{graph.nodes[n].module}::"
        ] or _named_by_use(graph, tables, node, call.name, segments, crated)
        return "import", _narrow(graph, node, crated, call)
    if crated:
        return "import", _narrow(graph, node, crated, call)
    # `a::b::f`: fns of module `..::a::b`, else of a module below `a::b` (re-exported by `pub use`).
    found = [n for n in named if _module_ends(graph.nodes[n].module, wanted)]
    if not found and wanted:
        found = [n for n in named if f"::{wanted[-1]}::" in f"::{graph.nodes[n].module}::"]
        how = "name" if how == "local" else how
    if len(found) > 1 and wanted:
        # `build::command` in tauri-cli's `lib.rs` (`mod build;`) is `crate::build::command`,
        # not `mobile::ios::build::command`: a path not imported is read from the caller's
        # module, as Rust reads it; else (a `pub use` between) the longest module suffix wins
        # (`risingwave_meta::stream::f`)
        here = _relative_module(call.qualifier.split("::"), node) if how == "local" else None
        found = _in_module(graph, found, node, here) or _by_suffix(graph, found, wanted)
    if len(found) > 1 and wanted:
        found = _named_by_use(graph, tables, node, call.name, segments, found) or found
    elif not found and wanted and call.name in tables.renamed:  # `commands::tool_run(..)`
        found = _named_by_use(graph, tables, node, call.name, segments, None)
    return how, _narrow(graph, node, found, call)


_STANDARD_CRATES = frozenset(("std", "core", "alloc"))


def _named_by_use(
    graph: CallGraph,
    tables: _Tables,
    node: Node,
    name: str,
    segments: Sequence[str],
    found: list[int] | None,
) -> list[int]:
    """Of same-named fns below the module a path names (`found`; None: any fn), the one that
    module's `use` re-exports under the name called: uv's `commands::run(..)` is
    `project::run::run`, as `commands/mod.rs` says `pub(crate) use project::run::run;`, and
    `commands::tool_run(..)` is `tool::run::run` (`use tool::run::run as tool_run;`). []
    when no `use` of the module file says."""
    path = _module_named(graph, tables, segments, node.crate, node.module)
    for use in _uses_of(tables, graph, path):
        if use.alias != name:
            continue
        *prefix, target = use.path.split("::")
        wanted = [s for s in prefix if s not in _RELATIVE]
        named = _free(tables, target)
        chosen = _by_suffix(graph, named, wanted) if wanted else named
        chosen = chosen if found is None else [n for n in chosen if n in found]
        if chosen:
            return chosen
    return []


def _of_named_crate(graph: CallGraph, named: list[int], wanted: list[str]) -> list[int]:
    """The fns of `named` in the crate `wanted` starts with (by its directory's name), those
    of the module it goes on to name first; none when it names no crate of theirs."""
    crated = [n for n in named if wanted and crate_name(graph.nodes[n].crate) == wanted[0]]
    within = [n for n in crated if _module_ends(graph.nodes[n].module, wanted[1:])]
    return within or crated


def _module_ends(module: str, wanted: list[str]) -> bool:
    return not wanted or module.split("::")[-1] == wanted[-1]


def _by_suffix(graph: CallGraph, found: list[int], wanted: list[str]) -> list[int]:
    def score(n: int) -> int:
        parts = graph.nodes[n].module.split("::")
        k = 0
        while k < min(len(parts), len(wanted)) and parts[-1 - k] == wanted[-1 - k]:
            k += 1
        return k

    best = max(score(n) for n in found)
    return [n for n in found if score(n) == best]


def _plain_call(
    graph: CallGraph,
    tables: _Tables,
    node: Node,
    call: Call,
    imports: Mapping[str, str],
    globs: Sequence[str],
    alternatives: Mapping[str, tuple[str, ...]],
) -> tuple[Resolution, list[int]]:
    found = _free(tables, call.name)
    if not found:
        return "name", []
    same_file = [n for n in found if graph.nodes[n].path == node.path]
    if same_file:
        return "local", _narrow(graph, node, same_file, call)
    imported = imports.get(call.name)
    if imported is not None:
        options = alternatives.get(call.name, (imported,))
        each = [_imported_fns(graph, tables, node, call, path) for path in options]
        named = [fns for fns in each if fns is not None]  # a `use` of a fn the index holds
        if named:
            return "import", list(dict.fromkeys(n for fns in named for n in fns))
    # Anything else is in scope only through a glob import (`use super::*`, `use a::b::*`):
    # a same-named fn elsewhere in the crate is not what a bare name calls.
    globbed = [n for n in found if any(_glob_reaches(g, node, graph.nodes[n]) for g in globs)]
    if not globbed:
        globbed = _reexported(graph, tables, node, call.name, globs)
    if not globbed and globs:
        globbed = _through_globs(graph, tables, node, call.name, globs, found)
    return "import", _narrow(graph, node, globbed, call)


def _imported_fns(
    graph: CallGraph, tables: _Tables, node: Node, call: Call, imported: str
) -> list[int] | None:
    """The fns a plain call of `call.name` names through its file's `use` of `imported`
    (`a::b::f`), or None: the index holds no fn of that name."""
    wanted = [s for s in imported.split("::")[:-1] if s not in ("crate", "self", "super")]
    target = imported.rsplit("::", 1)[-1]
    named = _free(tables, target)
    # `use zellij_server::start_server as start_server_impl`: the crate named so first
    # (by module suffix alone, the crate's root `start_server` tied with the caller's
    # own `commands::start_server`, which then called itself)
    crated = _of_named_crate(graph, named, wanted)
    if crated:
        return _narrow(graph, node, crated, call)
    # `use super::device_prompt` in tauri-cli's `mobile/android/dev.rs`: android's, not
    # `mobile::ios`'s: a `crate::`, `self::` or `super::` import names one module
    segments = imported.split("::")[:-1]
    if named and _other_crate_module(graph, tables, node, named, segments):
        return []  # `use axum::routing::post;`: `post(handler)` is axum's, not a fn of ours
    if named and segments and segments[0] in _RELATIVE:
        exact = _in_module(graph, named, node, _relative_module(segments, node))
        if exact:
            return _narrow(graph, node, exact, call)
    if named:
        return _narrow(graph, node, _by_suffix(graph, named, wanted) if wanted else named, call)
    return None


def _other_crate_module(
    graph: CallGraph, tables: _Tables, node: Node, named: list[int], segments: list[str]
) -> bool:
    """Whether a `use` path (`segments`: those before the fn's name) names a fn of another
    crate: its first segment is no crate or module of the repository's (`_ours`,
    `_prefixed_crate`; `crate`, `self` and `super` are its own) and none of the same-named
    fns `named` is in a module of a name it goes on to (`axum::routing`), or it is the
    standard library's. A path of a crate alone (`use mylib::f;`), or through a module of
    one of theirs (`risingwave_expr::expr::build_from_prost`, of `expr/build.rs` by `pub use
    build::*`: a manifest names the crate as its directory does not), says nothing."""
    if not segments or segments[0] in _RELATIVE:
        return False
    if segments[0] in _STANDARD_CRATES:
        return True
    first = segments[0]
    tables.seen.update((("crate", first), ("mod", _crate(node.path), first)))
    if len(segments) < 2 or _ours(tables, first, node.path) or _prefixed_crate(tables, first):
        return False
    modules = set(segments[1:])
    return not any(modules & set(graph.nodes[n].module.split("::")) for n in named)


def _alternatives(index: FileIndex) -> dict[str, tuple[str, ...]]:
    """The names a file's `use`s bring in from more than one path (each under its own
    `#[cfg(..)]`, or in two inline modules), with those paths in the file's order."""
    paths: dict[str, list[str]] = defaultdict(list)
    for use in index.uses:
        if use.alias != "*" and use.path not in paths[use.alias]:
            paths[use.alias].append(use.path)
    return {alias: tuple(found) for alias, found in paths.items() if len(found) > 1}


def _reexported(
    graph: CallGraph, tables: _Tables, caller: Node, name: str, globs: Sequence[str]
) -> list[int]:
    """Fns named `name` that a glob brings in through a `use` of the module it names:
    `use crate::executor::prelude::*` where `prelude.rs` says `pub use
    crate::executor::{expect_first_barrier, ..}`. One level, as a reader follows it."""
    found: list[int] = []
    for glob in globs:
        path = _module_file(graph, tables, glob, caller)
        for use in _uses_of(tables, graph, path):
            if use.alias != name:
                continue
            *segments, target = use.path.split("::")
            wanted = [s for s in segments if s not in ("crate", "self", "super")]
            named = _free(tables, target)
            found += _by_suffix(graph, named, wanted) if named and wanted else named
    return list(dict.fromkeys(found))


# How many globs deep a name is followed: foundry's `opcodes.rs` says `use super::*`, its
# `executor/mod.rs` `use super::{runtime::*, ..}`, and `runtime.rs` `pub(crate) use evm::*`
_GLOB_DEPTH = 4


def _through_globs(
    graph: CallGraph,
    tables: _Tables,
    caller: Node,
    name: str,
    globs: Sequence[str],
    found: Sequence[int],
) -> list[int]:
    """Fns named `name` that a chain of glob imports brings into the caller's file: a glob
    of a module that itself imports a module by a glob (or names the fn in a `use`), as
    rustc resolves them, up to `_GLOB_DEPTH` modules away. foundry's symbolic executor calls
    `ensure_jumpdest`, defined in `runtime/evm.rs`, through three globs; it had no caller
    (reading 323). `found`: the repository's free fns of that name."""
    start = [
        target
        for glob in globs
        if (target := _glob_target(graph, tables, glob, caller.crate, caller.module))
    ]
    seen, frontier = set(start), start
    reached: list[int] = []
    for _ in range(_GLOB_DEPTH):
        further = []
        for crate, module in frontier:
            path = graph.derived["module files"].get((crate, module))
            for use in _uses_of(tables, graph, path):
                if use.alias == name:  # `pub use evm::ensure_jumpdest;`
                    *segments, last = use.path.split("::")
                    wanted = [s for s in segments if s not in _RELATIVE]
                    named = _free(tables, last)
                    reached += _by_suffix(graph, named, wanted) if named and wanted else named
                elif use.alias == "*":
                    next_module = _glob_target(graph, tables, use.path, crate, module)
                    if next_module is not None and next_module not in seen:
                        seen.add(next_module)
                        further.append(next_module)
        frontier = further
    reached += [n for n in found if (graph.nodes[n].crate, graph.nodes[n].module) in seen]
    return list(dict.fromkeys(reached))


def _module_file(graph: CallGraph, tables: _Tables, glob: str, caller: Node) -> str | None:
    """The indexed file of the module a glob import names (`crate::a::b`, `super::b`,
    `other_crate::b`), or None when it is not a file of the repository."""
    return _module_path(graph, tables, glob, caller.crate, caller.module)


def _module_path(
    graph: CallGraph, tables: _Tables, glob: str, crate: str, module: str
) -> str | None:
    """`_module_file`, seen from a module of a crate."""
    target = _glob_target(graph, tables, glob, crate, module)
    found: str | None = graph.derived["module files"].get(target) if target else None
    return found


def _glob_target(
    graph: CallGraph, tables: _Tables, glob: str, crate: str, module: str
) -> tuple[str, str] | None:
    """The crate and module a `use` path names (`crate::a::b`, `super::b`, `other_crate::b`),
    seen from a module of a crate; None for a crate that is not the repository's."""
    if "module files" not in graph.derived:
        graph.derived["module files"] = module_files(graph.indexes)
    segments = glob.split("::")
    child = f"{module}::{glob}" if module else glob
    if segments[0] in _RELATIVE:
        module = relative_module(segments, module)
    elif (crate, child) in graph.derived["module files"]:
        # edition 2018's paths: `pub(crate) use evm::*;` in `runtime.rs` names its child
        # module `runtime::evm` (which `mod evm;` declares), before a crate of that name
        tables.seen.add(("mod", crate, child))
        return crate, child
    else:
        tables.seen.add(("crate", segments[0]))
        crates = crate_dirs(graph)
        if segments[0] not in crates:
            return None
        crate, module = crates[segments[0]], "::".join(segments[1:])
    tables.seen.add(("mod", crate, module))
    return crate, module


_RELATIVE = ("crate", "self", "super")


def crate_dirs(graph: CallGraph) -> dict[str, str]:
    """The repository's crates by the name code gives them: `cargo_util` ->
    `crates/cargo-util` (`_crate`'s key), once per graph."""
    crates: dict[str, str] | None = graph.derived.get("crate dirs")
    if crates is None:
        crates = graph.derived["crate dirs"] = {}
        for path in sorted(graph.indexes):
            crates.setdefault(crate_name(_crate(path)), _crate(path))
    return crates


def _relative_module(segments: Sequence[str], caller: Node) -> str:
    """The module a `crate::`, `self::` or `super::` path names, seen from the caller's."""
    return relative_module(segments, caller.module)


def _in_module(
    graph: CallGraph, found: Sequence[int], caller: Node, module: str | None
) -> list[int]:
    """The fns of `found` in `module` of the caller's crate (none for no module)."""
    return [
        n for n in found
        if graph.nodes[n].module == module and graph.nodes[n].crate == caller.crate
    ]  # fmt: skip


def _glob_reaches(glob: str, caller: Node, candidate: Node) -> bool:
    """Whether `use <glob>::*` in the caller's file brings the candidate's module in."""
    segments = glob.split("::")
    if segments[0] in _RELATIVE:
        return candidate.crate == caller.crate and candidate.module == _relative_module(
            segments, caller
        )
    rest = segments[1:] if crate_name(candidate.crate) == segments[0] else segments
    return candidate.module.split("::")[-len(rest) :] == rest if rest else not candidate.module


def _fitting(graph: CallGraph, found: list[int], call: Call) -> list[int]:
    """The methods a call by name alone can be, by its argument count: Rust has no default or
    variadic arguments, so nushell's `df.column(&name)` on a polars `DataFrame` is not
    `NuDataFrame::column(column, span)` (a wrong hop of stop 51's reading), cargo's
    `OpenOptions::new().create(true)` not `OnePasswordKeychain::create()`. Only ever fewer:
    a name with too many methods to guess among stays without an edge. A macro's tokens
    (a closure's `|a, b|` commas) and a fn passed by path do not count."""
    if call.arity < 0 or call.in_macro:
        return found
    return [n for n in found if len(graph.nodes[n].definition.params) == call.arity]


_SPECIALIZATIONS = 12  # impls of one trait for one generic type a typed call may reach


def _inherent_first(graph: CallGraph, found: Sequence[int], caller: Node) -> list[int]:
    """A typed call's methods, its type's inherent ones alone where it has both those and a
    trait's and the caller can see them (`pub`, or in its file): Rust takes an inherent
    method first. cargo's `self.config()` in `impl RegistryData for HttpRegistry`'s own
    `config` is `HttpRegistry::config`, the inherent one, not a call of itself through the
    trait (read "ambiguous", reading 149). neon's private `GCSBucket::head_object` is not
    what `lib.rs` calls: the trait's impl is (paths 151)."""
    inherent = [n for n in found if graph.nodes[n].definition.trait is None]
    seen = [
        n
        for n in inherent
        if graph.nodes[n].definition.public or graph.nodes[n].path == caller.path
    ]
    if seen and len(seen) < len(found):
        return seen
    hidden = set(inherent) - set(seen)  # a private one elsewhere: not the call's
    return [n for n in found if n not in hidden] or list(found)


def _specializations(graph: CallGraph, found: Sequence[int]) -> list[int]:
    """A typed call's methods, too many for `_narrow`, when they are one type's impls of
    one trait, each for other type arguments (risingwave's `impl CdcMonitor for
    DebeziumSplitEnumerator<Mysql>`, `<Postgres>`, `<SqlServer>` and the `default fn` of
    `impl<T> CdcMonitor for DebeziumSplitEnumerator<T>`): which runs depends on the type
    argument, so each may (up to `_SPECIALIZATIONS`); [] for any other set, and for impls
    in several files: those are same-named types of several modules, not one."""
    if not MAX_CANDIDATES < len(found) <= _SPECIALIZATIONS:
        return []
    definitions = [graph.nodes[n].definition for n in found]
    traits = {d.trait for d in definitions}
    owners = {d.owner for d in definitions}
    if len(traits) != 1 or None in traits or len(owners) != 1 or traits == owners:
        return []
    if len({graph.nodes[n].path for n in found}) != 1:  # tikv's four `Sender`s of four
        return []  # modules, each `impl Clone for Sender`, are four types
    # one trait as written: `Handler<Loop>` and `Handler<Spawn>` are two (quickwit's
    # `self.handle(Loop, ctx)` runs the one its argument's type picks)
    impls = {
        _impl_above(graph.indexes[graph.nodes[n].path], graph.nodes[n].definition) for n in found
    }
    written = {" ".join((i.trait or "").split()) for i in impls if i is not None}
    if None in impls or len(written) != 1:
        return []
    return sorted(found, key=lambda n: (graph.nodes[n].path, graph.nodes[n].definition.line))


def _narrow(
    graph: CallGraph, node: Node, found: Sequence[int], call: Call, strict: bool = False
) -> list[int]:
    """Candidates by arity, then nearest (same file, crate) first; [] when too many remain."""
    if call.arity >= 0 and len(found) > 1:
        fitting = [n for n in found if len(graph.nodes[n].definition.params) == call.arity]
        found = fitting or found
    if len(found) > 1 and call.args:
        found = _by_message(graph, found, call.args[0]) or found
    if len(found) > 1:
        for near in (
            [n for n in found if graph.nodes[n].path == node.path],
            [n for n in found if graph.nodes[n].crate == node.crate],
        ):
            if near:
                found = near
                break
    if len(found) > MAX_CANDIDATES or (strict and len(found) > MAX_CANDIDATES):
        return []
    return sorted(found, key=lambda n: (graph.nodes[n].path, graph.nodes[n].definition.line))


# a value whose type its text shows: a unit or tuple struct (`Loop`, `Shard(3)`), a struct
# literal (`Spawn { .. }`), a type's constructor (`Spawn::default()`), a variant (`Msg::A`)
_TYPED_VALUE = re.compile(
    r"([A-Z]\w*)(?:\s*\{.*\}|\(.*\)|::[a-z_]\w*\(.*\)|::[A-Z]\w*(?:\s*\{.*\}|\(.*\))?)?",
    re.S,
)


def _by_message(graph: CallGraph, found: Sequence[int], first: str) -> list[int]:
    """Of one trait's impls of a method (`impl Handler<Loop> for SourceActor`, `impl
    Handler<Spawn> ..`: quickwit's actors), those whose first parameter has the type the
    call's first argument shows: `self.handle(Loop, ctx)` is `Handler<Loop>`'s (reading 251:
    "the call is ambiguous" among every message's handler). [] when the argument shows no
    type, or no impl takes it."""
    typed = _TYPED_VALUE.fullmatch(first.strip())
    traits = {graph.nodes[n].definition.trait for n in found}
    if typed is None or len(traits) != 1 or None in traits:
        return []
    return [
        n
        for n in found
        if graph.nodes[n].definition.params
        and inner_type(graph.nodes[n].definition.params[0][1]) == typed[1]
    ]


def _clap_names(index: FileIndex) -> tuple[str, ...]:
    """The subcommand names a file's `Command::new("x")` and `.subcommand("x")` calls give,
    none where its `Command` is a process's (`use std::process::Command`) and it uses no
    clap: uv's build script runs `Command::new("git")`, and `ParsedUrl::try_from`'s `"git"
    =>` arm had become "subcommand `git`" (reading 147)."""
    process = any(u.alias == "Command" and "process::" in u.path for u in index.uses)
    if process and not any(u.path.split("::", 1)[0] == "clap" for u in index.uses):
        return ()
    return tuple(s.name for s in index.subcommands)
