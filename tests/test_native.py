"""The index's compiled modules (`pipeline.core.native`): a mypyc build is used only while the
package's sources are the ones it was built from, and then all of it is.

A small package is compiled here with the same build (`nativebuild.build`, real mypyc and
a real C compiler) and imported in fresh interpreters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.core import native
from pipeline.core.nativebuild import build

ROOT = Path(__file__).resolve().parents[1]

FAST = '''
from speedy.twice import TIMES


def double(n: int) -> int:
    """Twice n."""
    return TIMES * n
'''
COMPILED = ("speedy.fast", "speedy.twice")


def _package(tmp: Path) -> Path:
    package = tmp / "speedy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "fast.py").write_text(FAST)
    (package / "twice.py").write_text("from typing import Final\n\nTIMES: Final = 2\n")
    (package / "plain.py").write_text("VALUE = 1\n")
    return package


def _copied(directory: Path, copy: Path) -> Path:
    for file in directory.rglob("*"):
        if file.is_file():
            target = copy / file.relative_to(directory)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(file.read_bytes())
    return copy


def _imported(package: Path, directory: Path, env: dict[str, str] | None = None) -> str:
    """Where a fresh interpreter imports `speedy.fast` from, `native`'s finder put first on
    `sys.meta_path` when the build in `directory` is usable for `package`."""
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from pipeline.core import native
        files = native.usable_build(Path({str(directory)!r}), Path({str(package)!r}),
                                    {COMPILED!r})
        if files is not None and __import__("os").environ.get("ERRDOC_PURE") != "1":
            sys.meta_path.insert(0, native._Finder(files))
        import speedy.fast
        assert speedy.fast.double(21) == 42
        print(speedy.fast.__file__)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=package.parent,
        env={**_without_pure(), "PYTHONPATH": f"{package.parent}{os.pathsep}{ROOT}", **(env or {})},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def _without_pure() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name != "ERRDOC_PURE"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("native")
    package = _package(tmp)
    directory = tmp / "compiled"
    build(package, directory, COMPILED, ROOT / "pyproject.toml")
    return package, directory


def test_a_build_of_the_current_sources_is_what_gets_imported(built: tuple[Path, Path]) -> None:
    package, directory = built
    manifest = json.loads((directory / native.MANIFEST).read_text())
    assert manifest["digest"] == native.source_digest(package)
    assert manifest["tag"] == native.interpreter_tag()
    where = _imported(package, directory)
    assert where.endswith(".so") and where.startswith(str(directory))


def test_pure_python_when_turned_off(built: tuple[Path, Path]) -> None:
    package, directory = built
    assert _imported(package, directory, {"ERRDOC_PURE": "1"}) == str(package / "fast.py")


def test_any_edit_of_the_package_leaves_the_whole_build_unused(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    package, directory = built
    copy = tmp_path / "speedy"
    copy.mkdir()
    for file in package.iterdir():
        (copy / file.name).write_bytes(file.read_bytes())
    assert native.usable_build(directory, copy, COMPILED) is not None
    # a module that was not compiled: its constants may have been copied into the C
    (copy / "plain.py").write_text("VALUE = 2\n")
    assert native.usable_build(directory, copy, COMPILED) is None
    assert _imported(copy, directory) == str(copy / "fast.py")


def test_a_build_for_another_interpreter_or_missing_files_is_unused(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    package, directory = built
    manifest = json.loads((directory / native.MANIFEST).read_text())
    other = tmp_path / "other"
    other.mkdir()
    (other / native.MANIFEST).write_text(json.dumps({**manifest, "tag": "cpython-27 .so"}))
    assert native.usable_build(other, package, COMPILED) is None
    # the manifest names files this directory does not hold
    (other / native.MANIFEST).write_text(json.dumps(manifest))
    assert native.usable_build(other, package, COMPILED) is None
    # a module asked for that the build did not compile
    assert native.usable_build(directory, package, (*COMPILED, "speedy.plain")) is None
    (other / native.MANIFEST).write_text("{not json")
    assert native.usable_build(other, package, COMPILED) is None


def test_the_digest_reads_every_module_but_the_build(tmp_path: Path) -> None:
    package = _package(tmp_path)
    before = native.source_digest(package)
    (package / "_native").mkdir()
    (package / "_native" / "stray.py").write_text("x = 1\n")
    assert native.source_digest(package) == before
    (package / "sub").mkdir()
    (package / "sub" / "deep.py").write_text("")
    assert native.source_digest(package) != before


def test_a_failed_build_leaves_the_previous_one(built: tuple[Path, Path], tmp_path: Path) -> None:
    package, directory = built
    copy = _copied(directory, tmp_path / "compiled")
    (package.parent / "broken").mkdir(exist_ok=True)
    broken = package.parent / "broken" / "speedy"
    broken.mkdir(exist_ok=True)
    (broken / "__init__.py").write_text("")
    (broken / "fast.py").write_text("def double(n: int) -> int:\n    return 'no'\n")
    (broken / "twice.py").write_text("TIMES = 2\n")
    with pytest.raises(RuntimeError, match=r"(?i)incompatible return value"):
        build(broken, copy, COMPILED, ROOT / "pyproject.toml")
    assert json.loads((copy / native.MANIFEST).read_text()) == json.loads(
        (directory / native.MANIFEST).read_text()
    )


def test_this_checkout_runs_the_compiled_index_when_its_build_is_current() -> None:
    """What `make` builds (`python -m pipeline.core.nativebuild`) is in use in a fresh run of
    errdoc exactly when it was made from these sources."""
    script = "import pipeline.scan.callgraph as m, pipeline.core.native as n; print(m.__file__)"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    compiled = native.usable_build() is not None and os.environ.get("ERRDOC_PURE") != "1"
    assert done.stdout.strip().endswith(".so") == compiled
    import pipeline.scan.callgraph  # noqa: F401  (this process: the same)

    assert native.in_use() == compiled


def test_a_truncated_build_is_not_used(built: tuple[Path, Path], tmp_path: Path) -> None:
    """A build cut short (a disk filled mid-copy, say): mapping it would kill the process."""
    package, directory = built
    copy = _copied(directory, tmp_path / "compiled")
    files = native.usable_build(copy, package, COMPILED)
    assert files is not None
    (shared,) = set(files) - set(COMPILED)
    files[shared].write_bytes(files[shared].read_bytes()[:4096])
    assert native.usable_build(copy, package, COMPILED) is None


def test_a_build_whose_shared_library_does_not_load_is_not_used(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    """Whole but not loadable (overwritten, or linked against another Python): the modules
    run as Python instead of failing on their first import."""
    package, directory = built
    copy = _copied(directory, tmp_path / "compiled")
    files = native.usable_build(copy, package, COMPILED)
    assert files is not None
    (shared,) = set(files) - set(COMPILED)
    files[shared].write_bytes(bytes(files[shared].stat().st_size))  # zeros: no ELF header
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from pipeline.core import native
        files = native.usable_build(Path({str(copy)!r}), Path({str(package)!r}), {COMPILED!r})
        print(native.use_build(files, {COMPILED!r}))
        import speedy.fast
        print(speedy.fast.__file__)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=package.parent,
        env={**_without_pure(), "PYTHONPATH": f"{package.parent}{os.pathsep}{ROOT}"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["False", str(package / "fast.py")]


def test_the_build_command_explains_itself_and_refuses_what_it_does_not_know() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pipeline.core.nativebuild", *args],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip

    helped = run("--help")
    assert helped.returncode == 0 and "mypyc" in helped.stdout and "--check" in helped.stdout
    wrong = run("--fast")
    assert wrong.returncode == 2 and wrong.stderr.startswith("error: unknown arguments")
    checked = run("--check")
    assert checked.returncode == (0 if native.usable_build() is not None else 1)
