"""Which features of each package of a repository a build has on without being asked: the
package's `default` features, and those another package of the repository turns on where it
depends on it, followed through each `[features]` table. Pure.

A site under `#[cfg(feature = "yaml-serde")]` runs only in a build with that feature; whether
a default build of the repository's programs has it is in their manifests (atuin's
`yaml-serde`, which nothing turns on, read as an error users meet, reading 327). Counted as
on: a feature its package's `default` lists, or that a package of the repository asks for in
a plain (not optional) `[dependencies]` entry on it (`features = [..]`), or that an on
feature's `"x"`, `"dep/x"`, `"dep?/x"` turns on. Not counted: dev- and build-dependencies
(a test's or a build script's build) and features a build asks for (`--features`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any

from pipeline.languages.rust.cargo_deps import (
    dependency_package,
    dependency_tables,
    inherits,
    nearest,
    package_name,
    workspace_dependencies,
)

# a package's manifest directory -> each feature a build has on unasked -> why: "default",
# or the package that asks for it
FeaturesOn = dict[str, dict[str, str]]
_MOST_STEPS = 100_000  # a bound on the closure's work, whatever the manifests say


def features_on(documents: Mapping[str, dict[str, Any] | None]) -> FeaturesOn:
    """Each package's features (by its manifest's directory) a build of the repository has
    on unasked, each with why: "default" for its own `default` (or what that turns on), else
    the name of the package that asks for it. Packages by name: a name two manifests declare
    (bat's test fixture `tests/syntax-tests/source/TOML/Cargo.toml` is named `bat` too) is
    asked of both."""
    packages = _packages(documents)
    named: dict[str, list[str]] = {}
    for directory, package in packages.items():
        named.setdefault(package["name"], []).append(directory)
    inherited = {
        posixpath.dirname(path): workspace_dependencies(doc)
        for path, doc in documents.items()
        if doc is not None and isinstance(doc.get("workspace"), dict)
    }
    on: FeaturesOn = {directory: {} for directory in packages}
    # each package's own defaults first, so that what its `default` lists is said to be
    # that, not another package's asking; then what packages ask of each other
    first: list[tuple[str, str, str]] = [(d, "default", "default") for d in packages]
    todo: list[tuple[str, str, str]] = []
    for directory, package in sorted(packages.items()):
        workspace = nearest(inherited, directory, {})
        for key, spec in _plain_dependencies(package["document"]):
            spec, default = _resolved(key, spec, workspace)
            for target in named.get(dependency_package(key, spec), ()):
                if target == directory:
                    continue
                if default:
                    todo.append((target, "default", package["name"]))
                asked = spec.get("features", []) if isinstance(spec, dict) else []
                todo += [(target, f, package["name"]) for f in asked if isinstance(f, str)]
    steps = 0
    while (first or todo) and steps < _MOST_STEPS:
        steps += 1
        directory, feature, why = first.pop() if first else todo.pop()
        if feature in on[directory]:
            continue
        on[directory][feature] = why
        package = packages[directory]
        for item in package["features"].get(feature, ()):
            if not isinstance(item, str) or item.startswith("dep:"):
                continue
            dependency, slash, inner = item.partition("/")
            if not slash:
                (first if why == "default" else todo).append((directory, item, why))
                continue
            asker = package["name"] if why == "default" else why  # this one asks for it
            for target in named.get(package["renames"].get(dependency.rstrip("?"), ""), ()):
                todo.append((target, inner, asker))
    return on


def _packages(documents: Mapping[str, dict[str, Any] | None]) -> dict[str, dict[str, Any]]:
    """Each package by its manifest's directory: its name, document, `[features]` and its
    dependencies' keys -> package names."""
    out: dict[str, dict[str, Any]] = {}
    for path, document in documents.items():
        name = package_name(document)
        if name is None or document is None:
            continue
        features = document.get("features")
        renames = {
            key: dependency_package(key, spec)
            for table in _tables(document)
            for key, spec in table.items()
        }
        out[posixpath.dirname(path)] = {
            "name": name,
            "document": document,
            "features": features if isinstance(features, dict) else {},
            "renames": renames,
        }
    return out


def _tables(document: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The `[dependencies]` tables, the `[target.'cfg(..)']` ones included (no dev- or
    build-dependencies: a test's or a build script's build)."""
    return [table for view, table in dependency_tables(document) if not view]


def _plain_dependencies(document: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """The entries of `_tables` that are not `optional` (an optional one is on only where a
    feature turns it on)."""
    return [
        (key, spec)
        for table in _tables(document)
        for key, spec in table.items()
        if not (isinstance(spec, dict) and spec.get("optional") is True)
    ]


def _resolved(key: str, spec: Any, workspace: Mapping[str, Any]) -> tuple[Any, bool]:
    """An entry with `{ workspace = true }` read through the workspace's (its features
    added to the workspace entry's), and whether it keeps the default features."""
    if inherits(spec):
        shared = workspace.get(key, {})
        shared = shared if isinstance(shared, dict) else {}
        features = [*shared.get("features", []), *spec.get("features", [])]
        spec = {**shared, **{k: v for k, v in spec.items() if k != "workspace"}}
        spec["features"] = features
    if not isinstance(spec, dict):
        return spec, True
    default = spec.get("default-features", spec.get("default_features", True))
    return spec, default is not False
