"""The package layout shows the pipeline: stages import only stages below them (STYLE)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pipeline"

# In the order data flows; a module may import its own stage and the ones before it.
STAGES = ("core", "source", "languages", "scan", "analyze", "dataset", "versions", "publish")
TOP = len(STAGES)  # the CLI (`cli`, `commands`, `__main__`) sits above every stage


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def stage_of(module: str) -> int:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in STAGES:
        return STAGES.index(parts[1])
    return TOP if module != "pipeline" else -1  # `pipeline` itself holds only __version__


def imports_of(path: Path) -> set[str]:
    """Every `pipeline.*` module a file imports, at any depth (functions, TYPE_CHECKING)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("pipeline"))
        elif (
            isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pipeline")
        ):
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                is_module = (PACKAGE.parent / Path(*candidate.split("."))).with_suffix(".py")
                is_package = PACKAGE.parent / Path(*candidate.split(".")) / "__init__.py"
                found.add(candidate if is_module.exists() or is_package.exists() else node.module)
    return found


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
GRAPH = {name: imports_of(path) for name, path in MODULES.items()}


def test_every_module_belongs_to_a_stage_or_the_cli() -> None:
    top_level = {name for name, path in MODULES.items() if path.parent == PACKAGE}
    top_level -= {"pipeline"}
    assert top_level <= {"pipeline.cli", "pipeline.commands", "pipeline.__main__"}, top_level


# `pipeline` itself installs the finder of the index's compiled modules (`core.native`), so
# that no stage module is imported before it: its one import.
PACKAGE_IMPORTS = {"pipeline.core.native"}


def test_the_package_itself_imports_only_the_compiled_modules_finder() -> None:
    assert GRAPH["pipeline"] == PACKAGE_IMPORTS


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_a_later_stage(module: str) -> None:
    allowed = PACKAGE_IMPORTS if module == "pipeline" else set()
    later = sorted(i for i in GRAPH[module] - allowed if stage_of(i) > stage_of(module))
    assert later == [], f"{module} (stage {stage_of(module)}) imports {later}"


def test_no_import_cycles() -> None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(GRAPH.get(name, ())):
            if target not in GRAPH:
                continue
            if state.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(GRAPH):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from pipeline.publish.explain import explain_command\n")
    assert stage_of("pipeline.scan.pool") < max(stage_of(i) for i in imports_of(bad))


def test_the_scan_stage_reaches_rust_only_through_the_language_interface() -> None:
    scan = [name for name in GRAPH if name.startswith("pipeline.scan.")]
    assert scan
    for name in scan:
        assert not any(i.startswith("pipeline.languages.rust") for i in GRAPH[name]), name
