"""The index's hot modules compiled to C with mypyc, used only where built from these sources.

The index (per-file pass, link, walks) is the part of a run that is pure Python over large
structures; mypyc compiles its modules (`MODULES`, typed as `mypy --strict` checks them) to C
extensions, which `make` builds into `pipeline/_native/` (`python -m pipeline.core.nativebuild`; the
build needs a C compiler and the Python headers, and a machine without them runs the same
Python). Measured on risingwave (stop 81): the per-file pass 11.5 -> 10.4 CPU-s, the link
4.5-5.0 -> 3.0-3.3 s, the walks 3.6 -> 2.5 s, each in one process.

A build is used only when it was made from exactly the package's current sources: its
manifest keeps the digest of every `.py` file of the package (`source_digest`) and the
interpreter's tag, and `install` (run by `import pipeline`) puts a finder for the compiled
modules first on `sys.meta_path` only when both match. Any edit to any module (a compiled
one, or one whose constants mypyc may have copied in) leaves the whole build unused until
it is made again, so a stale build is never run; the modules of one build call each other
directly in C, so they are used all together or not at all. `ERRDOC_PURE=1` turns it off.

Only modules that only the index runs are compiled: the scan and the explaining run the
same Python either way, so the index's cost is measured against an unchanged run without it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent.parent  # `pipeline`
BUILD_DIR = PACKAGE / "_native"
MANIFEST = "manifest.json"

# The index's modules, none of which the scan or the explaining runs.
MODULES = (
    "pipeline.languages.rust.index",
    "pipeline.languages.rust.drops",
    "pipeline.languages.rust.indexunits",
    "pipeline.languages.rust.visibility",
    "pipeline.languages.rust.macroitems",
    "pipeline.scan.callgraph",
    "pipeline.scan.callerpaths",
    "pipeline.scan.buildable",
    "pipeline.scan.valueflow",
    "pipeline.scan.entrypoints",
    "pipeline.scan.conversions",
    "pipeline.scan.signatures",
    "pipeline.scan.linkmemo",
    "pipeline.scan.reachmemo",
    "pipeline.scan.exports",
)


def source_digest(package: Path = PACKAGE) -> str:
    """The sha256 of every `.py` file under `package`, by relative path (the build's own
    directory left out)."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if relative.startswith("_native"):
            continue
        digest.update(relative.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def interpreter_tag() -> str:
    """What a compiled module is built for: the interpreter and its extension suffix."""
    return f"{sys.implementation.cache_tag} {importlib.machinery.EXTENSION_SUFFIXES[0]}"


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules of one build (and the library they share) by full name."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def usable_build(
    directory: Path = BUILD_DIR, package: Path = PACKAGE, modules: Sequence[str] = MODULES
) -> dict[str, Path] | None:
    """The compiled modules of the build in `directory` by full name, when it was made from
    `package`'s current sources for this interpreter, holds each of `modules` and all its
    files are there at the sizes it made them; else None."""
    try:
        manifest = json.loads((directory / MANIFEST).read_text("utf-8"))
        files = {str(name): directory / str(file) for name, file in manifest["files"].items()}
        sizes = {str(name): int(size) for name, size in manifest["sizes"].items()}
        if manifest["tag"] != interpreter_tag() or set(modules) - set(files):
            return None
        # each file whole: a truncated shared library kills the process that maps it (SIGBUS)
        if any(file.stat().st_size != sizes.get(name) for name, file in files.items()):
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if manifest.get("digest") != source_digest(package):
        return None
    return files


def install() -> bool:
    """Put the build's finder first on `sys.meta_path` if it is usable (and not turned off by
    `ERRDOC_PURE=1`); whether the compiled modules will be imported. Once per process."""
    if any(isinstance(finder, _Finder) for finder in sys.meta_path):
        return True
    if os.environ.get("ERRDOC_PURE") == "1" or not (BUILD_DIR / MANIFEST).is_file():
        return False
    files = usable_build()
    return files is not None and use_build(files)


def use_build(files: dict[str, Path], modules: Sequence[str] = MODULES) -> bool:
    """Put a finder of `files` first on `sys.meta_path`, once the library the compiled
    modules share loads (a build that does not, truncated or linked against another Python,
    is not used: the modules then run as Python, rather than failing on first import)."""
    finder = _Finder(files)
    sys.meta_path.insert(0, finder)
    try:
        for name in sorted(set(files) - set(modules)):
            importlib.import_module(name)
    except (ImportError, OSError):
        sys.meta_path.remove(finder)
        return False
    return True


def in_use() -> bool:
    """Whether this process runs the compiled modules (`pipeline.scan.callgraph` as one)."""
    module = sys.modules.get("pipeline.scan.callgraph")
    return module is not None and not str(getattr(module, "__file__", "")).endswith(".py")
