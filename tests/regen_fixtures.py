"""A small Rust repository whose edits exercise regeneration, and helpers to run the CLI on it.

    from regen_fixtures import BASE, rust_file, cli, regenerate, manifest, records
    repo = GitRepo.init(tmp_path / "src"); repo.commit(BASE)

Sites sit 45 lines apart behind filler, so an edit near one site never touches the
37-line window of another, and no window is clipped by the top of a file.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from llm_server import Reply, answer

from pipeline.cli import main

REPO = "acme/widgets"
GAP = 45  # lines between two sites: more than a window (37) apart
ERROR_RS = "pub type MetaResult<T> = std::result::Result<T, MetaError>;\n"


def filler(tag: str, n: int = GAP) -> list[str]:
    """`n` distinct lines of plain Rust, so windows differ from file to file."""
    return [f"const {tag.upper()}_{k}: u32 = {k};" for k in range(n)]


def site_fn(name: str, message: str, guard: str = "flag") -> list[str]:
    """A function with one `bail!` under an `if`."""
    return [
        f"/// Checks {name}.",
        f"pub fn {name}(id: u32, {guard}: bool) -> MetaResult<()> {{",
        f"    if {guard} {{",
        f'        bail!("{message}");',
        "    }",
        "    Ok(())",
        "}",
    ]


def rust_file(tag: str, fns: Sequence[tuple[str, str]], head: Sequence[str] = ()) -> str:
    """A file of `fns` (name, message), each behind GAP lines of filler, then a tail."""
    lines = ["use crate::error::MetaResult;", *head]
    for name, message in fns:
        lines += filler(f"{tag}_{name}") + site_fn(name, message)
    lines += filler(f"{tag}_tail")
    return "\n".join(lines) + "\n"


BARRIER = [
    ("inject", "cannot inject barrier {id} while paused"),
    ("collect", "barrier {id} was never injected"),
    ("resume", "cannot resume barrier {id} twice"),
]
CATALOG = [
    ("create_table", "table {id} already exists"),
    ("drop_table", "table {id} is still referenced"),
]
BASE: dict[str, str | bytes | None] = {
    "src/meta/src/error.rs": ERROR_RS,
    "src/meta/src/barrier.rs": rust_file("barrier", BARRIER),
    "src/meta/src/catalog.rs": rust_file("catalog", CATALOG),
}
BASE_SITES = len(BARRIER) + len(CATALOG)


def cli(*args: str | Path, env: Mapping[str, str] | None = None) -> Result:
    """Invoke the real click group in-process."""
    runner = CliRunner()
    return runner.invoke(main, [str(a) for a in args], env=dict(env or {}), catch_exceptions=False)


def extract(source: Path, out: Path, cache: Path, sha: str, *extra: str) -> Result:
    """`errdoc extract` of REPO at `sha`."""
    return cli("extract", "--repo", REPO, "--sha", sha, "--source", source, "--out", out,
               "--cache", cache, "--jobs", "1", *extra)  # fmt: skip


def regenerate(out: Path, cache: Path, ref: str = "main", *extra: str) -> Result:
    """`errdoc regenerate` of REPO (SOURCE remembered from the extraction)."""
    return cli("regenerate", "--repo", REPO, "--ref", ref, "--out", out, "--cache", cache,
               "--jobs", "1", *extra)  # fmt: skip


def dataset(out: Path) -> Path:
    """OUT/acme/widgets."""
    return out / "acme" / "widgets"


def manifest(out: Path) -> dict[str, Any]:
    """The published manifest."""
    data: dict[str, Any] = json.loads((dataset(out) / "manifest.json").read_text())
    return data


def records(out: Path) -> dict[str, dict[str, Any]]:
    """records/<id>.json by id, unwrapped."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted((dataset(out) / "records").glob("*.json")):
        found[path.stem] = json.loads(path.read_text())["record"]
    return found


def plain_answer(body: dict[str, Any]) -> Reply:
    """A valid answer with no backticked identifiers, so grounding never asks twice."""
    return Reply(
        content=json.dumps(
            answer(
                documentation="The operation is refused in this state.",
                triggerScenarios="The guard is true when the function runs.",
            )
        )
    )


@contextmanager
def llm_env(base_url: str) -> Iterator[None]:
    """OPENAI_* and MODEL pointing at the loopback server, for in-process runs."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPENAI_BASE_URL", base_url)
        patch.setenv("OPENAI_API_KEY", "test-key")
        patch.setenv("MODEL", "gpt-4o-mini")
        yield


def subprocess_env(base_url: str) -> dict[str, str]:
    """The environment of a `python -m pipeline` subprocess using the loopback server."""
    return {
        **os.environ,
        "OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": "test-key",
        "MODEL": "gpt-4o-mini",
    }


# --- the edits of a regeneration test ---------------------------------------------------------

Files = dict[str, str | bytes | None]
BARRIER_RS = "src/meta/src/barrier.rs"
CATALOG_RS = "src/meta/src/catalog.rs"
INJECT_FN = [
    "/// Checks inject.",
    "pub fn inject(id: u32, flag: bool) -> MetaResult<()> {",
    "    if flag {",
    '        bail!("cannot inject barrier {id} while paused");',
    "    }",
    "    Ok(())",
    "}",
]


def edit(path: str, old: str, new: str) -> Callable[[Files], Files]:
    """Replace `old` (which must occur once) in one file."""

    def apply(files: Files) -> Files:
        text = files[path]
        assert isinstance(text, str) and text.count(old) == 1
        return {**files, path: text.replace(old, new)}

    return apply


def line_shift(files: Files) -> Files:
    return {**files, BARRIER_RS: rust_file("barrier", BARRIER, head=["// a", "// b", "// c"])}


def move_inject(files: Files) -> Files:
    text = files[BARRIER_RS]
    assert isinstance(text, str)
    moved = {**files, BARRIER_RS: text.replace("\n".join(INJECT_FN) + "\n", "")}
    moved["src/meta/src/inject.rs"] = rust_file("inject", BARRIER[:1])
    return moved


def new_file(files: Files) -> Files:
    sink = [("open_sink", "sink {id} is not open"), ("close_sink", "sink {id} closed twice")]
    return {**files, "src/meta/src/sink.rs": rust_file("sink", sink)}


def delete_catalog(files: Files) -> Files:
    return {**files, CATALOG_RS: None}


def rename_catalog(files: Files) -> Files:
    return {**files, CATALOG_RS: None, "src/meta/src/storage/catalog.rs": files[CATALOG_RS]}


# name, edit, (added, removed, moved, changed, unchanged), model requests
CASES: list[tuple[str, Callable[[Files], Files], tuple[int, int, int, int, int], int]] = [
    ("line shifts only", line_shift, (0, 0, 0, 0, 5), 0),
    ("edited message", edit(BARRIER_RS, "while paused", "while the cluster is paused"),
     (0, 0, 0, 1, 4), 1),
    ("edited window", edit(BARRIER_RS, "BARRIER_INJECT_44: u32 = 44", "BARRIER_INJECT_44: u32 = 7"),
     (0, 0, 0, 1, 4), 1),
    ("removed site", edit(BARRIER_RS, 'bail!("cannot resume barrier {id} twice");', "return Ok(());"),
     (0, 1, 0, 0, 4), 0),
    ("moved site", move_inject, (0, 0, 1, 0, 4), 1),
    ("new file", new_file, (2, 0, 0, 0, 5), 2),
    ("deleted file", delete_catalog, (0, 2, 0, 0, 3), 0),
    ("renamed file", rename_catalog, (0, 0, 2, 0, 3), 0),
]  # fmt: skip
