"""The CLI by the conventions of gh, ruff and llm: JSON reports, quiet pipes, one error style."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from gitrepo import GitRepo
from render_fixtures import seed_dataset

from pipeline.cli import COMMANDS, main

ROOT = Path(__file__).parent.parent
RS = 'fn f(x: u32) -> anyhow::Result<()> { anyhow::bail!("job {x} failed to start"); }\n'


def run(
    *args: str | Path, cwd: Path = ROOT, stdout: int | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *map(str, args)],
        cwd=cwd, env=env, stdout=stdout if stdout is not None else subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, timeout=120,
    )  # fmt: skip


@pytest.fixture
def source(tmp_path: Path) -> Path:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({f"src/m{n}.rs": RS.replace("job", f"job{n}") for n in range(3)})
    return repo.path


def _closed_pipe() -> int:
    """A pipe whose reader is gone, as after `| head -1` has read its line."""
    r, w = os.pipe()
    os.close(r)
    return w


@pytest.mark.parametrize(
    "args",
    [
        ["schema"],
        ["--help"],
        ["explain", "--out", "{out}", "should not pause when having snapshot backfill job 1"],
    ],
)
def test_a_closed_pipe_ends_quietly_with_status_0(tmp_path: Path, args: list[str]) -> None:
    seed_dataset(tmp_path / "out")
    w = _closed_pipe()
    try:
        done = run(*[a.replace("{out}", str(tmp_path / "out")) for a in args], stdout=w)
    finally:
        os.close(w)
    assert (done.returncode, done.stderr) == (0, "")


def test_sites_into_a_closed_pipe(source: Path, tmp_path: Path) -> None:
    w = _closed_pipe()
    try:
        done = run("sites", "--repo", "o/n", "--sha", "HEAD", "--source", source, "--cache",
                   tmp_path / "c", stdout=w)  # fmt: skip
    finally:
        os.close(w)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["explain", "--nope"], "No such option '--nope'"),
        (["extract", "--repo", "o/n"], "Missing option '--sha'"),
        (["explain", "--out", "/nonexistent/out", "x"], "no dataset under /nonexistent/out"),
        (["render", "--out", "/nonexistent/out"], "no dataset under /nonexistent/out"),
        (["nosuchcommand"], "No such command 'nosuchcommand'"),
    ],
)
def test_one_error_style(args: list[str], needle: str) -> None:
    done = run(*args)
    assert done.returncode in (1, 2)
    first = done.stderr.splitlines()[0]
    assert first.startswith("errdoc: error: ") and needle in first, done.stderr
    assert "Error:" not in done.stderr and "Traceback" not in done.stderr


def test_render_under_a_file_is_one_line(tmp_path: Path) -> None:
    seed_dataset(tmp_path / "out")
    (tmp_path / "file").write_text("x")
    done = run("render", "--out", tmp_path / "out", "--site", tmp_path / "file" / "site")
    assert done.returncode == 1
    assert (
        done.stderr
        == f"errdoc: error: cannot write the site: {tmp_path / 'file'} is a file, not a directory\n"
    )


def test_every_option_has_help_and_every_summary_is_whole() -> None:
    ctx = click.Context(main)
    for name in COMMANDS:
        command = main.get_command(ctx, name)  # type: ignore[attr-defined]
        assert command is not None and command.help, name
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"errdoc {name} {param.opts[0]} has no help"
    text = CliRunner().invoke(main, ["--help"], terminal_width=80).output
    assert "..." not in text.split("Commands:")[1]
    for name in COMMANDS:
        command = main.get_command(ctx, name)  # type: ignore[attr-defined]
        summary = " ".join(command.get_short_help_str(10_000).split())
        assert summary in " ".join(text.split()), name


def test_json_reports(source: Path, tmp_path: Path) -> None:
    out, site = tmp_path / "out", tmp_path / "site"
    cache = ["--cache", str(tmp_path / "cache")]
    done = run("extract", "--repo", "o/n", "--sha", "HEAD", "--source", source, "--out", out,
               *cache, "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["published"] and report["counts"]["records"] == 3 and len(report["sha"]) == 40
    again = run("regenerate", "--repo", "o/n", "--ref", "HEAD", "--out", out, *cache, "--json")
    assert again.returncode == 0, again.stderr
    regen = json.loads(again.stdout)
    assert regen["repo"] == "o/n" and regen["newSha"] == report["sha"]
    valid = json.loads(run("validate", out, "--json").stdout)
    assert valid == {"ok": True, "checked": 3, "problems": []}
    rendered = run("render", "--out", out, "--site", site, "--json")
    assert json.loads(rendered.stdout) == {
        "repositories": 1, "pages": 3, "retiredPages": 0, "apiFiles": 3, "site": str(site),
    }  # fmt: skip
    assert rendered.stderr == ""  # no progress bar: stderr is no terminal
    (tmp_path / "repos.toml").write_text(
        f'[[repo]]\nname = "o/n"\nsource = "{source}"\nref = "HEAD"\n'
    )
    everything = run(
        "regenerate-all", "--repos", tmp_path / "repos.toml", "--out", out, *cache, "--json"
    )
    doc = json.loads(everything.stdout)
    assert doc["ok"] and doc["repositories"][0]["name"] == "o/n", everything.stderr


def test_render_shows_a_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    seed_dataset(tmp_path / "out")
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "render", "--out", str(tmp_path / "out"),
         "--site", str(tmp_path / "site")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=slave,
    )  # fmt: skip
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    out = proc.communicate(timeout=60)[0].decode()
    os.close(master)
    assert proc.returncode == 0
    assert b"pages [" in seen and b"2/2" in seen
    assert out.startswith("rendered 2 pages (0 retired) and 2 API files for 1 repository into")


def test_defaults_from_errdoc_toml_and_pyproject(tmp_path: Path) -> None:
    seed_dataset(tmp_path / "data")
    text = "should not pause when having snapshot backfill job 7"
    (tmp_path / "errdoc.toml").write_text('out = "data"\n[explain]\nlimit = 1\n')
    done = run("explain", "--json", text, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)) == 1
    (tmp_path / "errdoc.toml").unlink()
    (tmp_path / "pyproject.toml").write_text('[tool.errdoc]\nout = "data"\n')
    sub = tmp_path / "deeper"
    sub.mkdir()
    assert run("explain", text, cwd=sub).returncode == 1  # "data" is relative to the cwd
    assert run("explain", text, cwd=tmp_path).returncode == 0
    assert run("explain", "--out", "elsewhere", text, cwd=tmp_path).returncode == 1  # flag wins
    (tmp_path / "pyproject.toml").write_text("[tool.errdoc.explain]\nlimt = 1\n")
    bad = run("explain", text, cwd=tmp_path)
    assert bad.returncode == 1
    assert bad.stderr.startswith("errdoc: error: ") and "has no option 'limt'" in bad.stderr


def test_license_is_an_spdx_string() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "Apache-2.0"
