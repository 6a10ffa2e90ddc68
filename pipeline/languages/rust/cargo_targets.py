"""What Cargo makes of a repository's files: each `Cargo.toml`'s package, its targets (the
library, binaries, examples, tests, benches, build script) and the crate and module every
`.rs` file belongs to.

The names a reader knows come from there, not from directories: ripgrep's
`crates/core/flags/defs.rs` is module `flags::defs` of the binary `rg` (its `[[bin]]`
says `path = "crates/core/main.rs"`), not `crates::core::flags::defs`; risingwave's
`src/meta/src/stream/x.rs` is `risingwave_meta::stream::x`. Cargo's rules: a `[lib]`,
`[[bin]]`, `[[example]]`, `[[test]]`, `[[bench]]` table's `path` and `name`, else the
conventional files (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs` and `src/bin/*/main.rs`,
`examples/`, `tests/`, `benches/` likewise, `build.rs`). A file belongs to the package of
the nearest manifest above it, and in it to the target whose root's directory is the
deepest one holding it (the library before a binary of the same directory; none when
several binaries, tests or examples share that directory and the file is none's root, whose
kind is still theirs). A module is
the file's path below that directory (`mod.rs` is its directory's module); `#[path]`
attributes are not followed. A manifest that does not parse, or names no package, adds
nothing: its files keep the names their directories suggest. Pure.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pipeline.languages.rust.cargo_deps import (
    PackageDependencies,
    dependencies_of,
    nearest,
    parsed_manifest,
)
from pipeline.languages.rust.cargo_features import FeaturesOn, features_on

TargetKind = Literal["lib", "bin", "example", "test", "bench", "build"]
MANIFEST = "Cargo.toml"
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,63}")
# (table, kind, conventional directory)
_TABLES: tuple[tuple[str, TargetKind, str], ...] = (
    ("bin", "bin", "src/bin"),
    ("example", "example", "examples"),
    ("test", "test", "tests"),
    ("bench", "bench", "benches"),
)
_VIEWS = {"example": "dev", "test": "dev", "bench": "dev", "build": "build"}
_ORDER: dict[TargetKind, int] = {
    "lib": 0, "bin": 1, "build": 2, "example": 3, "test": 4, "bench": 5,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Target:
    """One crate Cargo builds: its kind, its name as written and its root file."""

    kind: TargetKind
    name: str
    root: str  # the root file's path in the repository

    @property
    def crate(self) -> str:
        """The crate's name in Rust paths (`grep-index` -> `grep_index`)."""
        return self.name.replace("-", "_")


class CrateMap:
    """The targets of every package of one commit, by the directory of their root file."""

    def __init__(
        self,
        targets: Iterable[Target] = (),
        dependencies: PackageDependencies | None = None,
        aborting: Mapping[str, tuple[str, ...]] | None = None,
        features: FeaturesOn | None = None,
    ) -> None:
        self.targets = tuple(targets)
        self._features = features or {}  # `cargo_features.features_on`
        self.dependencies = dependencies or PackageDependencies({}, {})
        self._aborting = dict(aborting or {})
        by_directory: dict[str, list[Target]] = {}
        for target in self.targets:
            by_directory.setdefault(posixpath.dirname(target.root), []).append(target)
        # a directory's first target by kind; None when several share that kind (which of
        # `tests/a.rs` and `tests/b.rs` holds `tests/common/mod.rs` is a guess not made)
        self._by_directory: dict[str, Target | None] = {}
        # ..but the kind they share is known: firecracker's `examples/uffd/uffd_utils.rs`,
        # a module of three examples of that directory, is an example's code, no library's
        self._shared_kind: dict[str, TargetKind] = {}
        for directory, found in by_directory.items():
            first = min(_ORDER[t.kind] for t in found)
            best = [t for t in found if _ORDER[t.kind] == first]
            self._by_directory[directory] = best[0] if len(best) == 1 else None
            if len(best) > 1:
                self._shared_kind[directory] = best[0].kind
        self._roots = {t.root: t for t in self.targets}
        # each path's target, found once: the call graph asks for a node's file's kind per
        # node and per edge (risingwave: 30,000 asks of 2,700 files, each a walk up its
        # directories)
        self._of: dict[str, Target | None] = {}

    def target_of(self, path: str) -> Target | None:
        """The target `path` is compiled in (see the module's doc), if a manifest says."""
        try:
            return self._of[path]
        except KeyError:
            found = self._of[path] = self._target_of(path)
            return found

    def _target_of(self, path: str) -> Target | None:
        if path in self._roots:
            return self._roots[path]
        return nearest(self._by_directory, posixpath.dirname(path), None)

    def module_path(self, path: str) -> str | None:
        """`grep_index::index` for ripgrep's `crates/index/src/index.rs`; None where no
        manifest tells."""
        target = self.target_of(path)
        if target is None:
            return None
        if path == target.root:
            return target.crate
        relative = path[len(posixpath.dirname(target.root)) :].lstrip("/")
        parts = relative.removesuffix(".rs").split("/")
        if parts[-1] == "mod":
            parts.pop()
        return "::".join([target.crate, *parts])

    def binary_of(self, path: str) -> str | None:
        """The name a user runs the program whose `fn main` is in `path` by: a binary's or
        an example's name, when `path` is its root."""
        target = self._roots.get(path)
        return target.name if target is not None and target.kind in ("bin", "example") else None

    def build_script_of(self, path: str) -> str | None:
        """The package whose build script `path` is the root of (`build.rs` beside its
        manifest, or its `build = ".."`): Cargo runs its `fn main` while building it."""
        target = self._roots.get(path)
        if target is None or target.kind != "build":
            return None
        return self.dependencies.package_of(path)

    def target_kind(self, path: str) -> TargetKind | None:
        """The kind of target `path` is compiled in, if a manifest says: also where
        `target_of` cannot say which of a directory's targets of one kind holds it."""
        target = self.target_of(path)
        if target is not None:
            return target.kind
        # no target: the nearest directory with targets has several of a kind (its key in
        # `_shared_kind` too), or there is none
        return nearest(self._shared_kind, posixpath.dirname(path), None)

    def target_root(self, path: str) -> str | None:
        """The root file of the target `path` is compiled in (`target_of`), if one is known."""
        target = self.target_of(path)
        return target.root if target is not None else None

    def aborting_profiles(self, path: str) -> tuple[str, ...]:
        """The profiles whose builds of `path` abort on a panic (`panic = "abort"` at the
        root of the workspace that holds it: the nearest manifest above it with profiles)."""
        return nearest(self._aborting, posixpath.dirname(path), ())

    def package_of(self, path: str) -> str | None:
        """The package `path` belongs to (`cargo_deps`), if a manifest says: its name, or
        `name+dev` in an example, test or bench, `name+build` in a build script (the view
        of the package whose dependencies it sees)."""
        package = self.dependencies.package_of(path)
        if package is None:
            return None
        view = _VIEWS.get(self.target_kind(path) or "lib", "")
        return f"{package}+{view}" if view else package

    def feature_on(self, path: str, feature: str) -> str | None:
        """Why a build that asks for no feature has `feature` of the package `path` belongs
        to on (`cargo_features`): "default", or the package that turns it on; "" when none
        does; None when no manifest holds `path`."""
        if self.dependencies.package_of(path) is None:
            return None
        found = nearest(self._features, posixpath.dirname(path), None)
        return None if found is None else found.get(feature, "")

    def published(self, path: str) -> bool | None:
        """Whether the package `path` belongs to may be published (its manifest says no
        `publish = false` nor `publish = []`, nor inherits either); None when no manifest
        holds `path`."""
        package = self.dependencies.package_of(path)
        return None if package is None else package not in self.dependencies.unpublished

    def reachable_packages(self, package: str) -> frozenset[str]:
        """`package` (as `package_of` names it) and the repository's packages whose items
        its code can name, transitively."""
        name, _, view = package.partition("+")
        return self.dependencies.reachable(name, view) | {package}

    def dependency_table(self) -> tuple[tuple[str, str, tuple[str, ...], bool], ...]:
        """Every package's direct dependencies among the repository's, sorted."""
        return self.dependencies.table()

    def unreached(self, files: Iterable[str]) -> dict[str, tuple[tuple[str, str], ...]]:
        """The files of a package that no `mod x;` line can declare where Cargo looks for
        one (not a target's root, and no file stands where one that declares it would:
        the `mod.rs`, `lib.rs` or `main.rs` of its directory, a root there, or the file
        of its directory's own module, `a/b.rs` of `a/b/x.rs`; a `mod.rs` is its
        directory's module, declared from the directory above), each with what could still
        declare it in an inline module (`mod thrift { pub mod agent; }` in `src/lib.rs`
        for `src/thrift/agent.rs`): the files that stand so in a directory above, each
        with the name of the module it would have to open (`("src/lib.rs", "thrift")`).
        difftastic's `sample_files/slider_1.rs`, a copy of another project's code its
        tests diff, is no code of difftastic's: half its records were such fixtures
        (reading 325). A file no manifest holds is not judged."""
        present = set(files)
        root_directories = {posixpath.dirname(root) for root in self._roots}
        out: dict[str, tuple[tuple[str, str], ...]] = {}
        for path in present:
            if path in self._roots or self.dependencies.package_of(path) is None:
                continue
            directory, name = posixpath.split(path)
            if name == "mod.rs":
                directory = posixpath.dirname(directory)
            if directory in root_directories or _declarers(directory, present):
                continue
            inline: list[tuple[str, str]] = []
            while directory:
                directory, segment = posixpath.split(directory)
                declaring = _declarers(directory, present) + sorted(
                    root for root in self._roots if posixpath.dirname(root) == directory
                )
                inline += [(d, segment) for d in declaring]
            out[path] = tuple(dict.fromkeys(inline))
        return out


def _declarers(directory: str, present: set[str]) -> list[str]:
    """The files of `present` that declare the modules of `directory`'s files: its
    `mod.rs`, `lib.rs`, `main.rs`, and the file of its own module (`a/b.rs` of `a/b`)."""
    found = [posixpath.join(directory, f) for f in ("mod.rs", "lib.rs", "main.rs")]
    if directory:
        found.append(f"{directory}.rs")
    return [f for f in found if f in present]


def crate_map(manifests: Mapping[str, bytes], files: Iterable[str]) -> CrateMap:
    """The targets of the packages `manifests` (path -> bytes of each `Cargo.toml`) declare,
    the conventional ones found among `files` (the commit's `.rs` paths)."""
    present = _Files(files)
    documents = {path: parsed_manifest(data) for path, data in manifests.items()}  # once each
    targets: list[Target] = []
    for path in sorted(documents):
        targets += _document_targets(path, documents[path], present)
    return CrateMap(
        tuple(targets),
        dependencies_of(documents),
        aborting_profiles(documents),
        features_on(documents),
    )


def aborting_profiles(
    documents: Mapping[str, dict[str, Any] | None],
) -> dict[str, tuple[str, ...]]:
    """The profiles each workspace (or lone package) root sets `panic = "abort"` in, by the
    root's directory: `{"": ("dev", "release")}` for firecracker's; () for a root whose
    profiles do not. Cargo reads profiles at the root alone; a profile that only inherits
    one that aborts is not counted."""
    out: dict[str, tuple[str, ...]] = {}
    for path, document in documents.items():
        if document is None or not ("workspace" in document or "package" in document):
            continue
        profiles = document.get("profile")
        if not isinstance(profiles, dict):
            continue
        aborting = sorted(
            name
            for name, table in profiles.items()
            if isinstance(table, dict) and table.get("panic") == "abort"
        )
        out[posixpath.dirname(path)] = tuple(aborting)  # a root with profiles of its own
    return out


def package_targets(manifest_path: str, data: bytes, files: Iterable[str]) -> list[Target]:
    """The targets of one manifest; none when it does not parse or declares no package
    (a repository's manifest is untrusted: `a = [[[[..` nests past the stack)."""
    return _document_targets(manifest_path, parsed_manifest(data), files)


def _document_targets(
    manifest_path: str, document: dict[str, Any] | None, files: Iterable[str]
) -> list[Target]:
    """`package_targets` of a manifest already parsed (None: it did not parse)."""
    files = files if isinstance(files, _Files) else _Files(files)
    if document is None:
        return []
    package = document.get("package")
    name = _name(package.get("name")) if isinstance(package, dict) else None
    if not isinstance(package, dict) or name is None:
        return []
    base = posixpath.dirname(manifest_path)

    def at(relative: str) -> str:
        return posixpath.normpath(posixpath.join(base, relative))

    targets: list[Target] = []
    lib = document.get("lib")
    lib = lib if isinstance(lib, dict) else {}
    lib_root = _string(lib.get("path")) or "src/lib.rs"
    if at(lib_root) in files:
        targets.append(Target("lib", _name(lib.get("name")) or name, at(lib_root)))
    declared: set[str] = set()
    for table, kind, directory in _TABLES:
        for entry in _tables(document.get(table)):
            entry_name = _name(entry.get("name"))
            root = _string(entry.get("path"))
            if root is None and entry_name is not None:
                root = _conventional(
                    at, directory, entry_name, files, name if kind == "bin" else None
                )
            if entry_name is None and root is not None:
                entry_name = _name(posixpath.splitext(posixpath.basename(root))[0])
            if entry_name and root is not None and at(root) in files:
                targets.append(Target(kind, entry_name, at(root)))
                declared.add(at(root))
    if at("src/main.rs") in files and at("src/main.rs") not in declared:
        targets.append(Target("bin", name, at("src/main.rs")))
    for _, kind, directory in _TABLES:
        for root, found_name in _discovered(at(directory), files):
            if root not in declared:
                targets.append(Target(kind, found_name, root))
    build = package.get("build")
    build_root = build if isinstance(build, str) else "build.rs"
    if build is not False and at(build_root) in files:
        targets.append(Target("build", "build-script-build", at(build_root)))
    return targets


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _name(value: Any) -> str | None:
    """A package or target name as Cargo accepts one; anything else (a newline, markup, a
    page of text) names nothing."""
    return value if isinstance(value, str) and _NAME.fullmatch(value) else None


def _tables(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _conventional(
    at: Callable[[str], str], directory: str, name: str, files: _Files, package: str | None
) -> str | None:
    """Where Cargo looks for a target declared by name only."""
    candidates = [f"{directory}/{name}.rs", f"{directory}/{name}/main.rs"]
    if package is not None and name == package:
        candidates.insert(0, "src/main.rs")
    return next((c for c in candidates if at(c) in files), None)


def _discovered(directory: str, files: _Files) -> list[tuple[str, str]]:
    """`dir/x.rs` and `dir/x/main.rs` below `directory`: (root, target name)."""
    return [(root, name) for root, name in files.below.get(directory, []) if _name(name)]


class _Files(frozenset[str]):
    """The commit's `.rs` paths, with the target roots Cargo would discover in each
    directory (`dir/x.rs`, `dir/x/main.rs`) worked out once for all manifests."""

    below: dict[str, list[tuple[str, str]]]

    def __new__(cls, paths: Iterable[str]) -> _Files:
        made = super().__new__(cls, paths)
        made.below = {}
        for path in sorted(made):
            directory, name = posixpath.split(path)
            made.below.setdefault(directory, []).append((path, name.removesuffix(".rs")))
            parent, holder = posixpath.split(directory)
            if name == "main.rs" and holder:
                made.below.setdefault(parent, []).append((path, holder))
        return made
