"""Which packages of a repository each package's code can name: its manifest's
dependencies on the repository's own packages, followed transitively.

A caller path through generic code must be one Rust can compile: sqlx-core's
`ProtocolDecode::decode` calls `Self::decode_with`, which any of 14 impls may be, but a
call of it from sqlx-postgres cannot be MySQL's (sqlx-postgres does not depend on
sqlx-mysql, so no MySQL type can reach it from there). This module says who sees whom.

A package's library and binaries name what `[dependencies]` lists; its examples, tests
and benches what `[dev-dependencies]` adds, its build script `[build-dependencies]` (each
table also under `[target.'cfg(..)']`): a view of the package, `name+dev` or `name+build`.
Optional or not, whatever the features: more than a build uses, never less, so that a
path is only ever refused for a dependency that no manifest declares. Dependencies of
dependencies count as Cargo links them: the plain view (a dev-dependency's own
dev-dependencies are no one else's). A dependency is a package by its `package = ".."`
when renamed, and `{ workspace = true }` takes the workspace's entry of that key (the
nearest manifest above with a `[workspace]` table). A `path` dependency on a package the
repository does not hold (qdrant's examples depend on a `qdrant-edge` made by a script,
which re-exports its packages) may re-export any of them: that view sees every package,
as does whatever depends on it. A file belongs to the package of the
nearest manifest above it that declares one. A manifest that does not parse adds nothing,
so its files have no package and nothing is refused for them. Pure.
"""

from __future__ import annotations

import posixpath
import tomllib
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

MAX_MANIFEST_BYTES = 1_000_000
# the view of a package each table is for: "" its library's and binaries'
_V = TypeVar("_V")
_D = TypeVar("_D")
_TABLES = {"dependencies": "", "dev-dependencies": "dev", "build-dependencies": "build",
           "dev_dependencies": "dev", "build_dependencies": "build"}  # fmt: skip


class PackageDependencies:
    """The repository's packages by directory, and what each view of each depends on."""

    def __init__(
        self,
        packages: Mapping[str, str],
        depends: Mapping[tuple[str, str], Iterable[str]],
        by_path: Mapping[tuple[str, str], Iterable[str]] | None = None,
        unpublished: Iterable[str] = (),
    ) -> None:
        """`depends`: each (package, view)'s dependencies by package name; `by_path`: those
        of them given by a `path`, wherever they lie; `unpublished`: the packages whose
        manifest says `publish = false` (or `[]`, or inherits either)."""
        self._packages = dict(packages)  # manifest directory -> package name
        self.unpublished = frozenset(unpublished)
        known = set(self._packages.values())
        # (package, view) -> its direct dependencies among the repository's packages
        self._depends = {k: frozenset(d for d in deps if d in known) for k, deps in depends.items()}
        # views with a path dependency the repository does not hold: they may see anything
        self._open = {k for k, deps in (by_path or {}).items() if not known.issuperset(deps)}
        self._all = frozenset(known)
        self._reachable: dict[tuple[str, str], frozenset[str]] = {}
        self._of: dict[str, str | None] = {}

    def package_of(self, path: str) -> str | None:
        """The package whose manifest is nearest above `path`; None when none declares one."""
        try:
            return self._of[path]
        except KeyError:
            directory = posixpath.dirname(path)
            while directory not in self._packages and directory:
                directory = posixpath.dirname(directory)
            found = self._of[path] = self._packages.get(directory)
            return found

    def reachable(self, package: str, view: str = "") -> frozenset[str]:
        """`package` and every package of the repository its `view` (`""`, `"dev"`,
        `"build"`) depends on, transitively."""
        found = self._reachable.get((package, view))
        if found is None:
            views = [(package, ""), (package, view)] if view else [(package, "")]
            first = {d for v in views for d in self._depends.get(v, ())}
            is_open = any(v in self._open for v in views)
            seen, todo = {package, *first}, list(first)
            while todo:
                holder = (todo.pop(), "")
                is_open = is_open or holder in self._open
                for dependency in self._depends.get(holder, ()):
                    if dependency not in seen:
                        seen.add(dependency)
                        todo.append(dependency)
            found = frozenset(self._all | {package} if is_open else seen)
            self._reachable[(package, view)] = found
        return found

    def table(self) -> tuple[tuple[str, str, tuple[str, ...], bool], ...]:
        """Every package view's direct dependencies and whether it sees every package,
        sorted: what a memo of walks is keyed by."""
        return tuple(
            sorted(
                (p, v, tuple(sorted(d)), (p, v) in self._open)
                for (p, v), d in self._depends.items()
            )
        )


def package_dependencies(manifests: Mapping[str, bytes]) -> PackageDependencies:
    """The packages and dependencies `manifests` (path -> bytes of each `Cargo.toml`) declare."""
    return dependencies_of({path: parsed_manifest(data) for path, data in manifests.items()})


def dependencies_of(documents: Mapping[str, dict[str, Any] | None]) -> PackageDependencies:
    """`package_dependencies` of manifests already parsed (`parsed_manifest`: None for one
    that does not parse)."""
    workspaces = {
        posixpath.dirname(path): workspace_dependencies(doc)
        for path, doc in documents.items()
        if doc is not None and isinstance(doc.get("workspace"), dict)
    }
    publish = {
        posixpath.dirname(path): _workspace_publish(doc)
        for path, doc in documents.items()
        if doc is not None and isinstance(doc.get("workspace"), dict)
    }
    packages: dict[str, str] = {}
    unpublished: set[str] = set()
    depends: dict[tuple[str, str], set[str]] = {}
    by_path: dict[tuple[str, str], set[str]] = {}  # whether the repository holds them: below
    for path, document in sorted(documents.items()):
        name = package_name(document)
        if document is None or name is None:
            continue
        package = document["package"]
        directory = posixpath.dirname(path)
        packages[directory] = name
        said = package.get("publish", True)
        if inherits(said):
            said = nearest(publish, directory, {})
        if said is False or said == []:
            unpublished.add(name)
        inherited = nearest(workspaces, directory, {})
        for view, table in dependency_tables(document):
            found = depends.setdefault((name, view), set())
            for key, spec in table.items():
                spec = inherited.get(key, spec) if inherits(spec) else spec
                depended = dependency_package(key, spec)
                found.add(depended)
                if isinstance(spec, dict) and isinstance(spec.get("path"), str):
                    by_path.setdefault((name, view), set()).add(depended)
    return PackageDependencies(packages, depends, by_path, unpublished)


def package_name(document: Mapping[str, Any] | None) -> str | None:
    """The `[package]` name a manifest declares; None for a workspace's or a manifest that
    names none."""
    package = document.get("package") if document is not None else None
    name = package.get("name") if isinstance(package, dict) else None
    return name if isinstance(name, str) and name else None


def parsed_manifest(data: bytes) -> dict[str, Any] | None:
    """A manifest's TOML document; None for one too large or that does not parse."""
    if len(data) > MAX_MANIFEST_BYTES:
        return None
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None  # untrusted: a manifest that does not parse names no dependency


def dependency_tables(document: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """(view, table) of every dependency table, the `[target.'cfg(..)']` ones included."""
    holders = [document]
    targets = document.get("target")
    if isinstance(targets, dict):
        holders += [t for t in targets.values() if isinstance(t, dict)]
    return [
        (view, h[name]) for h in holders for name, view in _TABLES.items()
        if isinstance(h.get(name), dict)
    ]  # fmt: skip


def workspace_dependencies(document: Mapping[str, Any]) -> dict[str, Any]:
    """A `[workspace.dependencies]` table: key -> what a member's `{ workspace = true }`
    of that key stands for."""
    table = document["workspace"].get("dependencies")
    return dict(table) if isinstance(table, dict) else {}


def _workspace_publish(document: Mapping[str, Any]) -> Any:
    """What a member's `publish = { workspace = true }` stands for: `[workspace.package]`'s
    `publish`, else True (Cargo's default)."""
    table = document["workspace"].get("package")
    return table.get("publish", True) if isinstance(table, dict) else True


def inherits(spec: Any) -> bool:
    return isinstance(spec, dict) and spec.get("workspace") is True


def dependency_package(key: str, spec: Any) -> str:
    if isinstance(spec, dict):
        renamed = spec.get("package")
        if isinstance(renamed, str) and renamed:
            return renamed
    return key


def nearest(table: Mapping[str, _V], directory: str, default: _D) -> _V | _D:
    """The value `table` holds for `directory` or the nearest directory above it that it
    has (a workspace's, a target's), else `default`."""
    while True:
        if directory in table:
            return table[directory]
        if not directory:
            return default
        directory = posixpath.dirname(directory)
