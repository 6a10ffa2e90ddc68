"""A repository written by an attacker: deep nesting, pathological patterns, names
(issue 16: 2, 3, 8). Real git repositories, the real CLI."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import CliRunner
from gitrepo import GitRepo
from render_fixtures import seed_doc, write_dataset

from pipeline.cli import main
from pipeline.core.model import Record
from pipeline.core.patterns import MAX_PATTERN_CHARS, pattern_problem
from pipeline.dataset.validate import validate_out
from pipeline.publish.explain import ErrorIndex

ROOT = Path(__file__).resolve().parent.parent
REPO = "evil/repo"


def _cli(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _nested(depth: int, bails: int) -> str:
    lines = ["fn deep(x: i32) -> anyhow::Result<()> {"]
    for i in range(depth):
        lines.append(f"if x > {i} {{")
        if i % max(1, depth // bails) == 0:
            lines.append(f'anyhow::bail!("deep level {i} failed");')
    return "\n".join([*lines, "}" * depth, "Ok(())", "}", ""])


OK_RS = 'fn ok() -> anyhow::Result<()> {\n    anyhow::bail!("the shallow file still counts");\n}\n'


def _records(out: Path, repo: str = REPO) -> list[dict[str, Any]]:
    return [
        json.loads(p.read_text())["record"] for p in sorted((out / repo / "records").glob("*.json"))
    ]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("depth, bails", [(2_000, 300), (10_000, 10)])
def test_a_deeply_nested_file_is_skipped_with_a_reason(
    tmp_path: Path, depth: int, bails: int
) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({"src/deep.rs": _nested(depth, bails), "src/ok.rs": OK_RS})
    out = tmp_path / "out"
    started = time.monotonic()
    done = _cli("extract", "--repo", REPO, "--sha", "main", "--source", repo.path, "--out", out)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert elapsed < 60, elapsed
    assert "src/deep.rs: nested" in done.stderr and "skipped" in done.stderr, done.stderr
    messages = [r["errorMessage"] for r in _records(out)]
    assert messages == ["the shallow file still counts"]


def test_nesting_below_the_bound_is_scanned_whole(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({"src/deep.rs": _nested(100, 5)})
    out = tmp_path / "out"
    done = _cli("extract", "--repo", REPO, "--sha", "main", "--source", repo.path, "--out", out)
    assert done.returncode == 0, done.stderr
    assert len(_records(out)) == 5


# A message of 50 placeholders makes `x(.+?) x(.+?) ... end`: exponential for `re`.
MANY = " ".join(["x{}"] * 50) + " end"
LINE = "x " * 23  # 46 characters, no `end`


@pytest.mark.timeout(120)
def test_a_pathological_message_from_a_repository_explains_in_time(tmp_path: Path) -> None:
    source = 'fn f(a: i32) -> anyhow::Result<()> {\n    anyhow::bail!("' + MANY + '", '
    source += ", ".join(["a"] * 50) + ");\n}\n"
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({"src/lib.rs": source})
    out = tmp_path / "out"
    done = _cli("extract", "--repo", REPO, "--sha", "main", "--source", repo.path, "--out", out)
    assert done.returncode == 0, done.stderr
    (record,) = _records(out)
    assert record["messagePattern"].count("(.+?)") == 50
    started = time.monotonic()
    miss = _cli("explain", "--out", out, LINE, timeout=60)
    assert miss.returncode == 1 and "no record matches" in miss.stderr
    hit = _cli("explain", "--out", out, " ".join(["x1"] * 50) + " end", timeout=60)
    assert hit.returncode == 0 and record["id"] in hit.stdout, hit.stdout
    assert time.monotonic() - started < 20


PATHOLOGICAL = [
    ("boom (a+)+$", "boom " + "a" * 40 + "!"),
    ("boom (a|a)*$", "boom " + "a" * 40 + "!"),
    ("boom (.*a){12}", "boom " + "a" * 40),
    ("boom " + " ".join(["x(.+?)"] * 50) + " end", "boom " + LINE),
    ("boom ((a*)*)*b", "boom " + "a" * 40),
]


def _body(pattern: str, n: int) -> dict[str, Any]:
    base = seed_doc("f16c5768bcd8aade")["record"]
    return base | {"id": f"{n:016x}", "repo": REPO, "messagePattern": pattern}


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "pattern, line", PATHOLOGICAL, ids=[str(n) for n in range(len(PATHOLOGICAL))]
)
def test_a_pathological_pattern_in_a_dataset_never_hangs_explain(
    tmp_path: Path, pattern: str, line: str
) -> None:
    index = ErrorIndex([Record.model_validate(_body(pattern, 1))])
    started = time.monotonic()
    index.search(line)
    assert time.monotonic() - started < 0.5


@pytest.mark.parametrize(
    "pattern, problem",
    [
        (r"boom (a+)\1", "linear-time"),
        (r"boom (?=a)a", "linear-time"),
        (r"boom (?<=a)a", "linear-time"),
        ("boom " + "a" * MAX_PATTERN_CHARS, "longer than"),
        ("boom (a", "does not compile"),
        ("boom " + "(" * 5000 + ")" * 5000, ""),
    ],
)
def test_validate_refuses_what_explain_would_not_run(
    tmp_path: Path, pattern: str, problem: str
) -> None:
    reason = pattern_problem(pattern)
    assert reason is not None and problem in reason
    out = tmp_path / "out"
    write_dataset(out, REPO, [_body(pattern, 1)])
    _, problems = validate_out(out)
    assert any("messagePattern" in p and problem in p for p in problems), problems


def test_validate_accepts_the_pipelines_own_patterns(tmp_path: Path) -> None:
    for pattern in [r"boom (.+?) at (.+?)\.", r"a\ b\-c\#\&\~ \(x\) \{\} é 中", "x(.+?) " * 50]:
        assert pattern_problem(pattern) is None, pattern


def test_explain_still_finds_by_a_linear_pattern(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_dataset(out, REPO, [_body(r"cannot open (.+?): permission denied", 1)])
    result = CliRunner().invoke(
        main, ["explain", "--out", str(out), "Error: cannot open /etc/x: permission denied"]
    )
    assert result.exit_code == 0 and "0000000000000001" in result.output, result.output


def test_a_failed_fetch_of_another_url_never_publishes_the_first_urls_objects(
    tmp_path: Path,
) -> None:
    first = GitRepo.init(tmp_path / "first")
    first.commit({"src/lib.rs": OK_RS})
    other = GitRepo.init(tmp_path / "other")
    other.commit({"src/lib.rs": 'fn o() { panic!("the other repository"); }\n'})
    cache, out = tmp_path / "cache", tmp_path / "out"
    args = ["extract", "--repo", REPO, "--sha", "main", "--out", out, "--cache", cache]
    done = _cli(*args, "--source", f"file://{first.path}")
    assert done.returncode == 0, done.stderr
    shutil.rmtree(other.path / ".git")  # the second URL cannot be fetched
    done = _cli(*args, "--source", f"file://{other.path}")
    assert done.returncode != 0 and "could not clone" in done.stderr, done.stderr
    assert [r["errorMessage"] for r in _records(out)] == ["the shallow file still counts"]


@pytest.mark.parametrize(
    "name", [".good.staging-keep", ".good.trash-keep", ".good.spare", "..", ".a.b"]
)
def test_a_name_shaped_like_errdocs_own_directories_is_refused(tmp_path: Path, name: str) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({"src/lib.rs": OK_RS})
    out = tmp_path / "out"
    done = _cli(
        "extract", "--repo", f"o/{name}", "--sha", "main", "--source", repo.path, "--out", out
    )
    assert done.returncode != 0 and "errdoc: error:" in done.stderr, done.stderr
    assert not (out / "o" / name).exists()


def test_an_org_dot_github_dataset_is_extracted_rendered_validated_and_explained(
    tmp_path: Path,
) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({"src/lib.rs": OK_RS})
    out, site = tmp_path / "out", tmp_path / "site"
    for name in (".github", "good"):
        done = _cli(
            "extract", "--repo", f"o/{name}", "--sha", "main", "--source", repo.path, "--out", out
        )
        assert done.returncode == 0, done.stderr
    assert len(_records(out, "o/.github")) == 1 and len(_records(out, "o/good")) == 1
    assert _cli("validate", out).returncode == 0
    assert _cli("render", "--out", out, "--site", site).returncode == 0
    assert (site / "o" / ".github" / "index.html").is_file()
    repos = json.loads((site / "api" / "repos.json").read_text())
    assert sorted(r["repo"] for r in repos) == ["o/.github", "o/good"]
    found = _cli("explain", "--out", out, "--json", "the shallow file still counts")
    assert sorted(m["repo"] for m in json.loads(found.stdout)) == ["o/.github", "o/good"]


def test_github_url_is_percent_encoded(tmp_path: Path) -> None:
    path = "src/a#b c?d%e\u202eevil\nx.rs"
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit({path: OK_RS})
    out = tmp_path / "out"
    done = _cli("extract", "--repo", REPO, "--sha", "main", "--source", repo.path, "--out", out)
    assert done.returncode == 0, done.stderr
    (record,) = _records(out)
    url = record["githubUrl"]
    assert record["filePath"] == path
    assert url.isascii() and not any(c.isspace() for c in url) and url.count("#") == 1, url
    prefix = f"https://github.com/{REPO}/blob/{sha}/"
    where, _, lines = url.partition("#")
    assert where.startswith(prefix) and unquote(where.removeprefix(prefix)) == path
    assert lines == "L1-L3"
