"""Whether a `pub` fn is its crate's public API, as the crate's files declare it: not a
free fn when a module on its path is declared without a plain `pub` (`mod
parse_signatures;` in nushell's `nu-parser/src/lib.rs`) and no top-level `pub use` the
crate shows re-exports it (by its name, or a glob of a module on its path). A module whose
declaring file the index does not hold counts as public; so does every method of a type the
crate declares `pub` (or does not declare: a macro's). Pure."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from pipeline.core.index import Definition, FileIndex
from pipeline.scan.context import _crate
from pipeline.scan.names import module_of


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
        self._globs: dict[str, set[str]] = defaultdict(set)  # crate -> modules globbed
        # crate -> type name -> whether one of its types of the name is declared `pub`
        self._types: dict[str, dict[str, bool]] = defaultdict(dict)
        hidden = []
        for path, index in sorted(indexes.items()):
            types = self._types[_crate(path)]
            for d in index.definitions:
                if d.kind in _TYPE_KINDS and d.owner is None:
                    types[d.name] = types.get(d.name, False) or d.public
            if index.public_uses:
                if self._open(_crate(path), module_of(path)):
                    self._reexports(path)
                else:
                    hidden.append(path)
        for path in hidden:  # a private module the public files glob: its own `pub use`s
            if module_of(path).rsplit("::", 1)[-1] in self._globs[_crate(path)]:
                self._reexports(path)

    def _reexports(self, path: str) -> None:
        index, crate = self._indexes[path], _crate(path)
        lines = frozenset(index.public_uses)
        for use in index.uses:
            if use.line in lines:
                if use.alias == "*":
                    self._globs[crate].add(use.path.rsplit("::", 1)[-1])
                else:
                    self._names[crate].add(use.alias)

    def _open(self, crate: str, module: str) -> bool:
        """Whether no module on the path (`a::b`; `` the crate's root) is declared private by
        the file declaring it."""
        segments = module.split("::") if module else []
        for k, segment in enumerate(segments):
            declaring = self._files.get((crate, "::".join(segments[:k])))
            if declaring is not None and segment in self._indexes[declaring].private_modules:
                return False
        return True

    def public(self, crate: str, module: str, definition: Definition) -> bool:
        """Whether a `pub` item of `module` (`a::b`, inline modules included) of `crate`
        can be named from outside the crate. A method counts as public whatever its
        module: a `pub` type of a private module still reaches code outside through a
        public signature (qdrant's `Segment::with_view(f)` hands `f` a `SegmentReadView`
        of the private `read_view`), and its impl blocks may sit anywhere; but not a method
        of a type the crate declares only without a plain `pub` (lemmy's `pub(crate) struct
        SendRetryTask`: its `pub fn send_retry_loop` is no name outside the crate)."""
        if definition.owner is not None:
            return self._types[crate].get(definition.owner, True)
        if self._open(crate, module):
            return True
        globbed = not self._globs[crate].isdisjoint(module.split("::"))
        return definition.name in self._names[crate] or globbed
