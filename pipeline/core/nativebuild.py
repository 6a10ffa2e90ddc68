"""`python -m pipeline.core.nativebuild [--check]`: compile the index's modules (`native.MODULES`)
with mypyc into `pipeline/_native/`, which `native.install` then uses while the sources are
the ones compiled. `make` runs it after installing (and again when a module changes); a
machine without a C compiler keeps running the same modules as Python, and is told so.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from pipeline.core.native import (
    BUILD_DIR,
    MANIFEST,
    MODULES,
    PACKAGE,
    interpreter_tag,
    source_digest,
    usable_build,
)

# Run in a child with the build's scratch directory as its working directory: setuptools
# reads no `pyproject.toml` there (the project's asks for a newer setuptools than a venv has).
_COMPILE = """
import sys
from mypyc.build import mypycify
from setuptools import setup
config, out, temp, *paths = sys.argv[1:]
modules = mypycify(["--config-file", config, *paths], target_dir=temp, opt_level="3", multi_file=True)
setup(
    name="errdoc-native",
    ext_modules=modules,
    script_args=["-q", "build_ext", "--build-lib", out, "--build-temp", temp, "--parallel", "2"],
)
"""


def build(
    package: Path = PACKAGE,
    directory: Path = BUILD_DIR,
    modules: Sequence[str] = MODULES,
    config: Path | None = None,
) -> Path:
    """Compile `modules` of `package` (mypy's settings from `config`, by default the
    project's `pyproject.toml`) and replace the build in `directory` with the new one (made
    beside it, then renamed in: an interrupted or failed build leaves the old one, or none).
    Returns the manifest; raises `RuntimeError` with the compiler's last lines if it fails."""
    digest = source_digest(package)  # of the sources compiled: an edit meanwhile unuses it
    config = config or package.parent / "pyproject.toml"
    paths = [str(package.joinpath(*name.split(".")[1:]).with_suffix(".py")) for name in modules]
    scratch = Path(tempfile.mkdtemp(prefix="_native-", dir=directory.parent))
    try:
        out, temp = scratch / "lib", scratch / "temp"
        done = subprocess.run(
            [sys.executable, "-c", _COMPILE, str(config), str(out), str(temp),
             *paths],
            cwd=scratch, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            last = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise RuntimeError(" / ".join(last) or f"status {done.returncode}")
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        files = {}
        for file in sorted(out.rglob(f"*{suffix}")):
            relative = file.relative_to(out)
            name = relative.as_posix()[: -len(suffix)].replace("/", ".")
            files[name] = relative.as_posix()
        missing = set(modules) - set(files)
        if missing:
            raise RuntimeError(f"the build made no module for {', '.join(sorted(missing))}")
        sizes = {name: (out / file).stat().st_size for name, file in files.items()}
        manifest = {"digest": digest, "tag": interpreter_tag(), "files": files, "sizes": sizes}
        (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True), "utf-8")
        old = directory.with_name(f"{directory.name}.old-{os.getpid()}")
        if directory.exists():
            directory.rename(old)
        out.rename(directory)
        shutil.rmtree(old, ignore_errors=True)
        return directory / MANIFEST
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m pipeline.core.nativebuild [--check]`: build the compiled modules (or say whether the
    build is usable); a build that fails leaves the pure Python in use and says why."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--check"]:
        usable = usable_build() is not None
        print("compiled index modules: " + ("in use" if usable else "not built for these sources"))
        return 0 if usable else 1
    if args in (["-h"], ["--help"]):
        print(__doc__.strip())
        print("\n  --check  say whether a build of these sources is in use (status 1: not)")
        return 0
    if args:
        print(
            "error: unknown arguments; usage: python -m pipeline.core.nativebuild [--check]",
            file=sys.stderr,
        )
        return 2
    started = time.monotonic()
    try:
        build()
    except (RuntimeError, OSError) as exc:
        print(
            f"warning: the index's modules were not compiled ({exc}); errdoc runs them as "
            "Python (slower index). Needs a C compiler and the Python headers.",
            file=sys.stderr,
        )
        return 1
    print(
        f"compiled the index's {len(MODULES)} modules with mypyc "
        f"({time.monotonic() - started:.0f} s)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
