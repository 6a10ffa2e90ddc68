"""REF defaults to the source's default branch; errors name what the user set; logs say things once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gitrepo import GitRepo
from regen_fixtures import BARRIER_RS, BASE, REPO, cli, dataset, extract

ROOT = Path(__file__).resolve().parent.parent


def published_sha(out: Path) -> str:
    sha: str = json.loads((dataset(out) / "manifest.json").read_text())["sha"]
    return sha


def test_regenerate_follows_the_default_branch_whatever_its_name(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src", branch="master")
    repo.commit(BASE)
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "master").exit_code == 0
    newer = repo.commit({**BASE, BARRIER_RS: "// moved down\n" + str(BASE[BARRIER_RS])})

    result = cli("regenerate", "--repo", REPO, "--out", out, "--cache", cache, "--jobs", "1")

    assert result.exit_code == 0, result.output
    assert published_sha(out) == newer


def test_a_wrong_ref_is_named_as_the_option_the_user_set(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src", branch="master")
    repo.commit(BASE)
    out = tmp_path / "out"
    assert extract(repo.path, out, tmp_path / "cache", "master").exit_code == 0

    result = cli("regenerate", "--repo", REPO, "--ref", "main", "--out", out)

    assert result.exit_code != 0
    assert "REF (--ref) 'main' is not a commit" in result.output
    assert "SHA" not in result.output
    bad = cli("extract", "--repo", REPO, "--sha", "nope", "--source", repo.path, "--out", out)
    assert bad.exit_code != 0 and "SHA (--sha) 'nope' is not a commit" in bad.output


def test_regenerate_all_logs_each_summary_line_once(tmp_path: Path) -> None:
    good = GitRepo.init(tmp_path / "good", branch="master")
    good.commit(BASE)
    bad = GitRepo.init(tmp_path / "bad")
    bad.commit(BASE)
    repos = tmp_path / "repos.toml"
    repos.write_text(
        f'[[repo]]\nname = "acme/good"\nsource = "{good.path}"\n\n'
        f'[[repo]]\nname = "acme/bad"\nsource = "{bad.path}"\nref = "trunk"\n'
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ERRDOC_CACHE": str(tmp_path / "cache")}
    # as the documented cron line runs it: both streams into one log
    run = subprocess.run(
        [sys.executable, "-m", "pipeline", "regenerate-all", "--repos", str(repos),
         "--out", str(tmp_path / "out"), "--jobs", "1"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120,
    )  # fmt: skip

    assert run.returncode == 1
    log = run.stdout.splitlines()
    good_lines = [line for line in log if line.startswith("acme/good:")]
    bad_lines = [line for line in log if "acme/bad:" in line and "FAILED" in line]
    assert len(good_lines) == 1 and "+5 -0" in good_lines[0]
    assert len(bad_lines) == 1 and "acme/bad's ref 'trunk' is not a commit" in bad_lines[0]
    assert sum(line.startswith("regenerate-all:") for line in log) == 1
    assert len(log) == len(set(log))
