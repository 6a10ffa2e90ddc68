"""Option defaults from `errdoc.toml` or `[tool.errdoc]` in `pyproject.toml` (as ruff reads its own).

    [tool.errdoc]               # or, in errdoc.toml, the same keys at the top level
    out = "data"                # applies to every command with an --out option
    analyzer = "llm"
    [tool.errdoc.extract]       # only for `errdoc extract`
    include = ["src/meta/**"]

Keys are option names (`out`, `cache`, `include`, `dry-run` or `dry_run`); the command
line wins over the file, the file over the built-in default. The file is looked for in
the working directory and its parents, the nearest one first; `errdoc.toml` wins over
`pyproject.toml` in one directory, and a pyproject.toml without `[tool.errdoc]` is passed.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class ConfigError(Exception):
    """A configuration file errdoc cannot use; the message names it."""


@dataclass(frozen=True)
class Config:
    """The table found and where: shared keys and per-command tables."""

    path: Path | None
    table: Mapping[str, Any]

    def for_command(self, command: str, names: Mapping[str, str]) -> dict[str, Any]:
        """Defaults of one command, keyed by its parameter names (`names`: key -> param)."""
        out: dict[str, Any] = {}
        sub = self.table.get(command)
        layers = [{k: v for k, v in self.table.items() if not isinstance(v, dict)}]
        if isinstance(sub, dict):
            unknown = sorted(k for k in sub if k.replace("_", "-") not in names)
            if unknown:
                raise ConfigError(f"{self.path}: `errdoc {command}` has no option {unknown[0]!r}")
            layers.append(sub)
        for layer in layers:
            for key, value in layer.items():
                param = names.get(key.replace("_", "-"))
                if param is not None:
                    out[param] = value
        return out


def _table(path: Path) -> Mapping[str, Any] | None:
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    if path.name == "errdoc.toml":
        return doc
    tool = doc.get("tool")
    table = tool.get("errdoc") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.errdoc] must be a table")
    return table


def load_config(start: Path, parents: Iterable[Path] | None = None) -> Config:
    """The nearest errdoc.toml or pyproject.toml with [tool.errdoc], from `start` upwards."""
    for folder in parents if parents is not None else [start, *start.parents]:
        for name in ("errdoc.toml", "pyproject.toml"):
            path = folder / name
            if path.is_file():
                table = _table(path)
                if table is not None:
                    return Config(path, table)
    return Config(None, {})
