"""Whether a `pub` fn is its crate's public API, as the crate's files declare it: not a
free fn when a module on its path is declared without a plain `pub` (`mod
parse_signatures;` in nushell's `nu-parser/src/lib.rs`) and no top-level `pub use` the
crate shows re-exports it (by its name, or a glob of a module on its path). A module whose
declaring file the index does not hold counts as public. A method is public where code
outside can hold its type: a `pub` type of a public module or re-exported, or one a public
fn gives its caller (its return type, what its callbacks are given; not its parameters',
which the caller holds already), or a `pub` field of such a type holds (through an alias
too), or a type the crate does not declare (a macro's). Pure."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping

from pipeline.core.index import Definition, FileIndex, Use
from pipeline.scan.context import _crate
from pipeline.scan.names import module_of, relative_module


def module_files(indexes: Mapping[str, FileIndex]) -> dict[tuple[str, str], str]:
    """The file of each module by (crate, module path): a crate's root is `lib.rs` before
    `main.rs`; of two files of one module, the first in path order."""
    files: dict[tuple[str, str], str] = {}
    for path in sorted(indexes):
        files.setdefault((_crate(path), module_of(path)), path)
    return files


_TYPE_KINDS = frozenset(("struct", "enum", "type", "trait"))


class Exports:
    """The crates' private modules and re-exports, read once per graph. A `pub use` counts
    where code outside the crate sees it: in a file of a public module, or of a module the
    crate's public files re-export whole (`pub use parser::*`). nushell's private `parser.rs`
    says `pub use crate::parse_signatures::{.., parse_row_condition, ..}`, but `lib.rs`
    re-exports only some of `parser`'s names, not that one."""

    def __init__(self, indexes: Mapping[str, FileIndex]) -> None:
        self._indexes = indexes
        self._files = module_files(indexes)  # (crate, module) -> its file
        self._names: dict[str, set[str]] = defaultdict(set)  # crate -> names re-exported
        # crate -> the modules globbed (`pub use self::client::*` in `ffi`: `ffi::client`)
        self._globs: dict[str, set[str]] = defaultdict(set)
        # crate -> a module globbed -> the modules whose files glob it
        self._globbed_by: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        self._root_names: dict[str, set[str]] = defaultdict(set)  # crate -> its root's `pub use`s
        # crate -> name -> the modules whose files re-export it by name (`pub use`), each
        # with the module the `use`'s path names it from (`_source_module`)
        self._where: dict[str, dict[str, list[tuple[str, str]]]] = defaultdict(
            lambda: defaultdict(list)
        )
        # (crate, module an item is in, its name) -> the modules whose files re-export it by
        # name within the crate (`pub use` or `pub(crate) use`): where the crate names it
        self._named_in: dict[tuple[str, str, str], list[str]] = defaultdict(list)
        # crate -> type name -> whether one of its types of the name is declared `pub`
        self._types: dict[str, dict[str, bool]] = defaultdict(dict)
        # crate -> type name -> the modules its `pub` declarations are in
        self._declared: dict[str, dict[str, list[str]]] = defaultdict(dict)
        # crate -> its `pub` fns: (the method's type or None, whether its module is public,
        # what of the signature gives the caller a value (`handed_out`), the names its file's
        # `use`s bring in from other crates): a type the public ones give reaches code
        # outside (`_visible`); its `pub` fields and aliases, as a method of their type
        self._fns: dict[str, list[tuple[str | None, bool, str, frozenset[str]]]]
        self._fns = defaultdict(list)
        self._seen_types: dict[tuple[str, str], bool] = {}
        self._leaked: dict[str, frozenset[str]] = {}  # crate -> types public fns name
        # crate -> a module re-exported whole by name -> the modules whose files do so
        self._modules_shown: dict[str, dict[str, list[str]]] = defaultdict(dict)
        hidden = []
        for path, index in sorted(indexes.items()):
            crate, module = _crate(path), module_of(path)
            types = self._types[crate]
            for d in index.definitions:
                if d.kind in _TYPE_KINDS and d.owner is None:
                    types[d.name] = types.get(d.name, False) or d.public
                    if d.public:
                        self._declared[crate].setdefault(d.name, []).append(
                            "::".join(p for p in (module, d.module) if p)
                        )
            open_module = self._open(crate, module)
            imported = self._from_other_crates(crate, module, index)
            self._fns[crate].extend(
                (d.owner, open_module, handed_out(d.signature), imported)
                for d in index.definitions
                if d.kind == "fn" and d.public
            )
            self._fns[crate].extend(  # a `pub` field of a type held outside holds its type
                (d.owner, False, d.value, imported)  # (meilisearch's `SearchContext`'s
                for d in index.definitions  # `word_interner: DedupInterner<String>`)
                if d.kind == "field" and d.owner and d.public and d.value
            )
            self._fns[crate].extend(  # an alias held outside holds what it names (qdrant's
                (d.name, False, d.value, imported)  # `SegmentReadViewFor` is a `SegmentReadView`)
                for d in index.definitions
                if d.kind == "type" and d.owner is None and d.public and d.value
            )
            for use in _crate_wide_uses(index):
                source = _source_module(module, use.path)
                self._named_in[(crate, source, use.path.rsplit("::", 1)[-1])].append(module)
            if index.public_uses:
                if open_module:
                    self._reexports(path)
                else:
                    hidden.append(path)
            if index.inline_uses and open_module:
                self._inline_reexports(path)
        for path in hidden:  # a private module the public files glob: its own `pub use`s
            if module_of(path) in self._globs[_crate(path)]:
                self._reexports(path)

    def _reexports(self, path: str) -> None:
        index, crate = self._indexes[path], _crate(path)
        lines = frozenset(index.public_uses)
        at_root = not module_of(path)
        for use in index.uses:
            if use.line in lines:
                if use.alias == "*":
                    globbed = _source_module(module_of(path), f"{use.path}::*")
                    self._globs[crate].add(globbed)
                    self._globbed_by[crate][globbed].append(module_of(path))
                else:
                    self._names[crate].add(use.alias)
                    module = module_of(path)
                    named = _source_module(module, f"{use.path}::*")
                    if (crate, named) in self._files and not use.renames():
                        # a module re-exported whole by name (tantivy's `pub use
                        # crate::core::json_utils;` of the private `core`): its `pub` items
                        # are the crate's API, as a glob's are (reading 301's recheck)
                        self._globs[crate].add(named)
                        self._modules_shown[crate].setdefault(named, []).append(module)
                    self._where[crate][use.alias].append((module, _source_module(module, use.path)))
                    if at_root:
                        self._root_names[crate].add(use.alias)

    def _inline_reexports(self, path: str) -> None:
        """The `pub use`s of the public inline modules a file of a public module opens
        (`pub mod core { pub use super::desc::Desc; }`): each names its item under that
        module (`core::Desc`)."""
        index, crate = self._indexes[path], _crate(path)
        inline = dict(index.inline_uses)
        for use in index.uses:
            holder = inline.get(use.line)
            if holder is None or use.alias == "*":
                continue
            module = "::".join(p for p in (module_of(path), holder) if p)
            self._names[crate].add(use.alias)
            self._where[crate][use.alias].append((module, _source_module(module, use.path)))

    def _visible(self, crate: str, type_name: str) -> bool:
        """Whether code outside the crate can hold a value of its `pub` type: declared in a
        public module, re-exported (by name, or a glob of its module), or named in the
        signature of a `pub` fn of a public module (qdrant's `Segment::with_view(f)` hands
        `f` a `SegmentReadView` of the private `read_view`). helix's `Registry` of the
        private `registry` module is none of these: its `pub fn register_hook` is no API."""
        known = self._seen_types.get((crate, type_name))
        if known is None:
            known = self._named(crate, type_name) or type_name in self._leaks(crate)
            self._seen_types[(crate, type_name)] = known
        return known

    def _named(self, crate: str, type_name: str) -> bool:
        """Whether code outside can name the type: a public module's, or re-exported."""
        modules = self._declared[crate].get(type_name)
        return (
            not modules  # a macro's type, or another crate's: nothing to say
            or any(self._open(crate, m) for m in modules)
            or type_name in self._names[crate]
            or any(self._globbed(crate, m) for m in modules)
        )

    def _globbed(self, crate: str, module: str) -> bool:
        """Whether a glob re-export (`pub use self::runner::*`) of a module on the path of
        `module` reaches it: that module itself, or one of its public submodules (by the
        glob's whole path: hyper's `ffi` globs its `client`, not `proto::h2::client`). Not a
        private one below it: vector's `runner::*` re-exports none of `runner`'s private `io`,
        whose `OutputEdge` read as public API (reading 106)."""
        segments = module.split("::") if module else []
        globs = self._globs[crate]
        for k in range(len(segments)):
            if "::".join(segments[: k + 1]) in globs and all(
                self._public_below(crate, segments[:j], segments[j])
                for j in range(k + 1, len(segments))
            ):
                return True
        return False

    def _public_below(self, crate: str, parent: list[str], segment: str) -> bool:
        """Whether the file of module `parent` declares its submodule `segment` public (or
        is not in the index: nothing to say)."""
        declaring = self._files.get((crate, "::".join(parent)))
        return declaring is None or segment not in self._indexes[declaring].private_modules

    def _leaks(self, crate: str) -> frozenset[str]:
        """The crate's hidden `pub` types that a public fn's signature names: a free fn of a
        public module's, or a method's of a type code outside holds, so far as such types
        lead (a few rounds: each may name another)."""
        found = self._leaked.get(crate)
        if found is not None:
            return found
        hidden = {t for t in self._declared[crate] if not self._named(crate, t)}
        words = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(hidden))) + r")\b")
        leaked: set[str] = set()
        for _ in range(4):
            before = len(leaked)
            for owner, open_module, signature, imported in self._fns[crate] if hidden else ():
                held = owner is None and open_module
                held = held or (owner is not None and (owner in leaked or owner not in hidden))
                if held:
                    leaked.update(name for name in words.findall(signature) if name not in imported)
            if len(leaked) == before:
                break
        self._leaked[crate] = found = frozenset(leaked)
        return found

    def _from_other_crates(self, crate: str, module: str, index: FileIndex) -> frozenset[str]:
        """The names a file's `use`s bring in from other crates: a signature's name of one of
        them is that crate's type, not a hidden one of this crate's of the same name
        (risingwave's frontend handlers take a `Query` of `risingwave_sqlparser::ast`, which
        had made the scheduler's private `Query`, and the types its methods name, public API:
        stop 82's check of 30 paths). A path of the crate's own (`crate::`, `self::`,
        `super::`, a module of it or of the file's, `use index::..` in `cache.rs`) may
        re-export the type from where it is declared: not judged here."""
        out = set()
        for use in index.uses:
            if use.alias == "*":
                continue
            first = use.path.split("::", 1)[0]
            child = f"{module}::{first}" if module else first
            if first in ("crate", "self", "super") or (crate, first) in self._files:
                continue
            if (crate, child) in self._files:
                continue
            out.add(use.alias)
        return frozenset(out)

    def unnamed_types(self) -> frozenset[tuple[str, str]]:
        """(crate, name) of each `pub` type code outside its crate cannot name: in a
        private module, and re-exported by no public one (uv's `ValidationError` of the
        private `metadata`, reading 180)."""
        return frozenset(
            (crate, name)
            for crate, declared in self._declared.items()
            for name in declared
            if not self._named(crate, name)
        )

    def _open(self, crate: str, module: str) -> bool:
        """Whether no module on the path (`a::b`; `` the crate's root) is declared private by
        the file declaring it."""
        return self._hidden_by(crate, module, outside=True) is None

    def seen_within(self, crate: str, module: str, name: str = "") -> str | None:
        """The module within which a `pub` item of `module` can be named when a private
        module on its path hides it: the parent of the innermost private one (`a::b` for
        `a::b::c` with `c` private in `a::b`; "" for the crate's root), or None when no
        module on the path is private (quickwit's `pub fn build_and_validate` in the private
        `node_config::serialize` read "its own crate", reading 172). A `pub(crate) mod` hides
        nothing within the crate (vector's `sinks::kafka::config`, reading 211), nor does a
        private one an item (`name`) that a module the rest of the crate sees re-exports
        (uv's `pub(crate) use auth::login::login as auth_login` in `commands`: `login` had
        read "only code in module `commands` calls", reading 272); the widest such."""
        hidden = self._hidden_by(crate, module, outside=False)
        if hidden is None or not name:
            return hidden
        for other in self._named_in.get((crate, module, name), ()):
            seen = self._hidden_by(crate, other, outside=False)
            if seen is None:
                return None
            if len(seen) < len(hidden) and hidden.startswith(seen):
                hidden = seen
        return hidden

    def _hidden_by(self, crate: str, module: str, *, outside: bool) -> str | None:
        """The parent of the innermost module on `module`'s path that its file declares
        private, for code outside the crate (`outside`) or within it; None when none is."""
        segments = module.split("::") if module else []
        for k in range(len(segments) - 1, -1, -1):
            declaring = self._files.get((crate, "::".join(segments[:k])))
            if declaring is None:
                continue
            index = self._indexes[declaring]
            hides = (
                index.private_modules
                if outside
                else (m for m in index.private_modules if m not in index.crate_modules)
            )
            if segments[k] in hides:
                return "::".join(segments[:k])
        return None

    def public(self, crate: str, module: str, definition: Definition) -> bool:
        """Whether a `pub` item of `module` (`a::b`, inline modules included) of `crate`
        can be named from outside the crate. A method, wherever its impl block sits, where
        code outside can hold its type (`_visible`); not a method of a type the crate
        declares only without a plain `pub` (lemmy's `pub(crate) struct SendRetryTask`: its
        `pub fn send_retry_loop` is no name outside the crate)."""
        if definition.owner is not None:
            owner = definition.owner
            return self._types[crate].get(owner, True) and self._visible(crate, owner)
        if self._open(crate, module):
            return True
        return definition.name in self._names[crate] or self._globbed(crate, module)

    def shown_module(self, crate: str, module: str, definition: Definition) -> str | None:
        """The module under which code outside names a `pub` item of a private `module`
        (a method by its type): the public module whose file re-exports it by name, the
        shortest such (axum-extra's `routing::Resource`, of the private `routing::
        resource`, reading 108). None when `module` is public, or no such `pub use` is."""
        types = self._declared[crate].get(definition.owner or "", ())
        if (
            len(types) == 1
            and types[0] != module
            and all(part.isidentifier() for part in types[0].split("::") if types[0])
            and self._open(crate, types[0])
        ):
            # a method of an impl in another module than its type's, a public one too: code
            # outside names it by the type's (qdrant's `ShardReplicaSet::restore_local_
            # replica_from` sits in `replica_set::snapshots`, which only imports the type,
            # reading 137); only where the crate declares one type of that name, in a file
            # that is a module (quickwit's `codegen/quickwit/quickwit.search.rs` is an
            # `include!` of `search`)
            return types[0]
        if self._open(crate, module):
            return None
        whole = self._shown_whole(crate, module)
        if whole is not None:
            return whole
        name = definition.owner or definition.name
        own = module in self._declared[crate].get(name, ())
        declared = [m for m in self._declared[crate].get(name, ()) if self._open(crate, m)]
        if definition.owner and declared and not own:
            return _shortest(declared)  # a method of an impl in a private child module (qdrant's)
        # by a `pub use` of this item: the ones whose path leads to its own module, if any
        # (tokio's `task::Builder` is `pub use builder::Builder` in `task`, not `runtime`'s)
        found = self._where[crate].get(name, [])
        globs = self._globbed_by[crate]
        holding = {module}  # the modules that hold the item: its own, and each re-exporting it
        # (by name, or by a glob of a module that holds it: risingwave's `iterator` says
        # `mod backward_user; pub use backward_user::*;`, yazi's `fs` `pub use file::*;`);
        # not a module whose globs bring in another item of the name too (polars' `prelude`
        # globs csv's and ipc's `BatchedWriter`: Rust lets neither be named there)
        others = [m for m in self._declared[crate].get(name, ()) if m != module]
        clashing = self._globbing(crate, others)
        while (
            grown := {
                *(m for m, source in found if source in holding),
                *(m for held in holding for m in globs.get(held, ()) if m not in clashing),
            }
            - holding
        ):
            holding |= grown
        exported = [m for m in holding - {module} if self._open(crate, m)] or [
            m for m, _ in found if self._open(crate, m)
        ]
        return _shortest(exported) if exported else None

    def _shown_whole(self, crate: str, module: str) -> str | None:
        """The path under which code outside names a private `module` that a public one
        re-exports whole by name, or a module it is in (`pub use crate::core::json_utils;`
        in tantivy's root: `core::json_utils` is `json_utils`); None when none does."""
        segments = module.split("::") if module else []
        for k in range(len(segments), 0, -1):
            shown_by = self._modules_shown[crate].get("::".join(segments[:k]), ())
            opened = sorted(m for m in shown_by if self._open(crate, m))
            if opened:
                return "::".join(p for p in (opened[0], *segments[k - 1 :]) if p)
        return None

    def _globbing(self, crate: str, modules: list[str]) -> set[str]:
        """The modules that glob any of `modules`, through globs of globs too."""
        globs, found = self._globbed_by[crate], set()
        todo = list(modules)
        while todo:
            for m in globs.get(todo.pop(), ()):
                if m not in found:
                    found.add(m)
                    todo.append(m)
        return found

    def at_root(self, crate: str, module: str, definition: Definition) -> bool:
        """Whether a `pub` free fn is named from the crate's root: declared in its root
        file outside any module (`typst::compile`), or re-exported by name there (`pub use
        crate::eval::eval;` in `typst-eval/src/lib.rs`). A crate's front door, which users
        of a published library call whatever else in the repository calls it too."""
        if definition.owner is not None or definition.kind != "fn":
            return False
        declared_at_root = not module and not definition.module
        return declared_at_root or definition.name in self._root_names[crate]


_CALLBACK = re.compile(r"\b(?:Fn|FnMut|FnOnce)\s*\(")


def handed_out(signature: str) -> str:
    """What of a fn's signature gives its caller a value: its return type (with what
    follows it, a `where` clause), and what the callbacks it takes are given (`impl
    Fn(&Stage)`); not its parameters' types, a value of which the caller must hold already.
    risingwave's `pub fn distribute_execute(.., query: Query, ..)` gave no code outside a
    `Query` of the private `scheduler`, whose methods, and the types they name, had read as
    public API (`SourceScanInfo::complete`: stops 82 and 83's checks of 30 paths)."""
    start = signature.find("fn ")
    if start < 0:
        return signature
    depth = 0
    for at in range(start, len(signature)):
        ch = signature[at]
        if ch == "<":
            depth += 1
        elif ch == ">" and signature[at - 1] != "-":
            depth -= 1
        elif ch == "(" and depth == 0:
            break
    else:
        return signature
    close = _closing(signature, at)
    if close < 0:
        return signature
    given = [
        signature[m.end() : end]
        for m in _CALLBACK.finditer(signature)
        if (end := _closing(signature, m.end() - 1)) > 0
    ]
    return " ".join((signature[close + 1 :], *given))


def _closing(text: str, opening: int) -> int:
    """Where the `)` that closes the `(` at `opening` stands; -1 when none does."""
    depth = 0
    for at in range(opening, len(text)):
        if text[at] == "(":
            depth += 1
        elif text[at] == ")":
            depth -= 1
            if depth == 0:
                return at
    return -1


def _crate_wide_uses(index: FileIndex) -> list[Use]:
    """A file's top-level `pub use`s and `pub(crate) use`s of one item each (no glob)."""
    lines = frozenset((*index.public_uses, *index.crate_uses))
    if not lines:
        return []
    return [u for u in index.uses if u.line in lines and u.alias != "*"]


def _source_module(module: str, path: str) -> str:
    """The module of this crate a `use` in `module` names its item from (`builder::Builder`
    in `task`: `task::builder`; `crate::a::B`: `a`; another crate's path reads as a child
    module's, which no item of this crate is in)."""
    segments = path.split("::")[:-1]
    return relative_module(segments, module) if segments else module


def _shortest(modules: list[str]) -> str:
    """The module of fewest segments (the root, `""`, first), then by name."""
    return min(modules, key=lambda m: (m.count("::") if m else -1, m))
