"""The scheduled job: repos.toml validation, one failure among three, the job lock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from llm_server import FakeOpenAI, status
from regen_fixtures import BASE, BASE_SITES, cli, llm_env, plain_answer

from pipeline.dataset.lock import exclusive
from pipeline.versions.schedule import LOCK_NAME, ConfigError, RepoEntry, load_repos, parse_repos

NAMES = ("acme/one", "acme/two", "acme/three")


def toml_tables(tables: list[dict[str, Any]]) -> str:
    """repos.toml text for these tables (strings and lists of strings only)."""
    out = []
    for table in tables:
        out.append("[[repo]]")
        out += [f"{key} = {json.dumps(value)}" for key, value in table.items()]
        out.append("")
    return "\n".join(out)


def test_a_valid_file_gives_entries_with_defaults(tmp_path: Path) -> None:
    path = tmp_path / "repos.toml"
    path.write_text(
        toml_tables(
            [
                {"name": "acme/one"},
                {"name": "acme/two", "ref": "v2", "source": "/srv/two.git",
                 "include": ["src/meta/**"], "exclude": ["src/meta/gen/**"],
                 "analyzer": "llm", "model": "gpt-4o-mini"},
            ]
        )
    )  # fmt: skip
    assert load_repos(path) == [
        RepoEntry("acme/one"),
        RepoEntry("acme/two", "v2", "/srv/two.git", ("src/meta/**",), ("src/meta/gen/**",),
                  "llm", "gpt-4o-mini"),
    ]  # fmt: skip


# repos.toml content, the start of the one-line error after "repos.toml: "
INVALID = [
    ("", "no [[repo]] tables"),
    ("[repo]\nname = 'acme/one'\n", "no [[repo]] tables"),
    ("title = 'x'\n[[repo]]\nname = 'acme/one'\n", "unknown top-level key 'title'"),
    ("[[repo]]\nref = 'main'\n", "[[repo]] #1: key 'name' is required"),
    ("[[repo]]\nname = 'acme'\n", "[[repo]] #1 (acme): key 'name' must be owner/name"),
    ("[[repo]]\nname = 'acme/..'\n", "[[repo]] #1 (acme/..): key 'name' must be owner/name"),
    ("[[repo]]\nname = 'acme/one'\n[[repo]]\nname = 'acme/two'\nrefs = 'main'\n",
     "[[repo]] #2 (acme/two): unknown key 'refs'"),
    ("[[repo]]\nname = 'acme/one'\nref = 3\n", "[[repo]] #1 (acme/one): key 'ref' must be a non-empty string"),
    ("[[repo]]\nname = 'acme/one'\ninclude = 'src/**'\n",
     "[[repo]] #1 (acme/one): key 'include' must be a list of glob strings"),
    ("[[repo]]\nname = 'acme/one'\nanalyzer = 'gpt'\n",
     "[[repo]] #1 (acme/one): key 'analyzer' must be one of static, llm"),
    ("[[repo]]\nname = 'acme/one'\n[[repo]]\nname = 'acme/one'\n",
     "[[repo]] #2: name 'acme/one' is listed twice"),
    ("[[repo]\nname = 'acme/one'\n", "not valid TOML"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "error"), INVALID)
def test_an_invalid_file_is_one_line_naming_table_and_key(
    tmp_path: Path, text: str, error: str
) -> None:
    path = tmp_path / "repos.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as raised:
        load_repos(path)
    assert str(raised.value).startswith(f"{path}: {error}")
    assert "\n" not in str(raised.value)


def test_the_cli_reports_a_config_error_in_one_line(tmp_path: Path) -> None:
    result = cli("regenerate-all", "--repos", tmp_path / "missing.toml", "--out", tmp_path / "out")
    assert result.exit_code == 1
    missing = tmp_path / "missing.toml"
    assert result.output == (
        f"errdoc: error: {missing}: not found; create it with `cp repos.example.toml {missing}` "
        "and edit its [[repo]] tables (or pass --repos / REPOS=)\n"
    )
    assert not (tmp_path / "out").exists() and not missing.exists()


def test_parse_accepts_the_shipped_example() -> None:
    example = Path(__file__).parent.parent / "repos.example.toml"
    entries = load_repos(example)
    assert entries and all("/" in e.name for e in entries)
    assert parse_repos({"repo": [{"name": "a/b"}]}, "x") == [RepoEntry("a/b")]


@pytest.fixture
def sources(tmp_path: Path) -> dict[str, GitRepo]:
    repos = {}
    for name in NAMES:
        repo = GitRepo.init(tmp_path / name.replace("/", "-"))
        repo.commit(BASE)
        repos[name] = repo
    return repos


def run_all(tmp_path: Path, tables: list[dict[str, Any]], *extra: str) -> Any:
    path = tmp_path / "repos.toml"
    path.write_text(toml_tables(tables))
    return cli("regenerate-all", "--repos", path, "--out", tmp_path / "out",
               "--cache", tmp_path / "cache", "--jobs", "1", *extra)  # fmt: skip


def published_sha(tmp_path: Path, name: str) -> str | None:
    path = tmp_path / "out" / name / "manifest.json"
    return json.loads(path.read_text())["sha"] if path.exists() else None


def test_every_repository_regenerates_and_the_next_run_pays_for_the_change(
    tmp_path: Path, sources: dict[str, GitRepo]
) -> None:
    tables = [{"name": name, "source": str(repo.path)} for name, repo in sources.items()]
    first = run_all(tmp_path, tables)
    assert first.exit_code == 0, first.output
    assert all(published_sha(tmp_path, n) == sources[n].head() for n in NAMES)
    assert f"+{BASE_SITES} -0 ~0 moved 0" in first.output
    old = sources["acme/two"].head()
    new = sources["acme/two"].commit({"src/meta/src/catalog.rs": None})

    second = run_all(tmp_path, tables)

    assert second.exit_code == 0, second.output
    assert f"acme/two: {old[:10]}..{new[:10]} +0 -2 ~0 moved 0, unchanged 3" in second.output
    assert "acme/one: already at" in second.output
    assert second.output.splitlines()[-1].startswith(
        "regenerate-all: 3 of 3 repositories regenerated, 0 failed"
    )


# what is wrong with the second repository, the reason its summary line gives
FAILURES = [
    ("bad source", {"source": "/nonexistent/repo.git"}, "/nonexistent/repo.git"),
    ("bad ref", {"ref": "no-such-branch"}, "no-such-branch"),
    ("nothing to extract", {"include": ["docs/**"]}, "--include docs/** matches no source file"),
    ("model failure", {"analyzer": "llm"}, "the model failed for 5 sites"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "broken", "reason"), FAILURES, ids=[f[0] for f in FAILURES])
def test_one_failing_repository_does_not_stop_the_others(
    tmp_path: Path, sources: dict[str, GitRepo], name: str, broken: dict[str, Any], reason: str
) -> None:
    tables: list[dict[str, Any]] = [
        {"name": name, "source": str(repo.path)} for name, repo in sources.items()
    ]
    tables[1].update(broken)
    with FakeOpenAI() as server, llm_env(server.base_url):
        server.responder = lambda body: status(400)
        result = run_all(tmp_path, tables)

    assert result.exit_code == 1
    lines = result.output.splitlines()
    failed = [line for line in lines if line.startswith("acme/two: FAILED: ")]
    assert len(failed) == 1 and reason in failed[0]
    assert lines[-1].startswith("regenerate-all: 2 of 3 repositories regenerated, 1 failed")
    assert published_sha(tmp_path, "acme/one") == sources["acme/one"].head()
    assert published_sha(tmp_path, "acme/three") == sources["acme/three"].head()
    assert "Traceback" not in result.output


def test_allow_failures_forgives_only_model_failures(
    tmp_path: Path, sources: dict[str, GitRepo]
) -> None:
    tables: list[dict[str, Any]] = [
        {"name": "acme/one", "source": str(sources["acme/one"].path), "analyzer": "llm"}
    ]
    with FakeOpenAI() as server, llm_env(server.base_url):
        server.responder = lambda body: status(400)
        assert run_all(tmp_path, tables, "--allow-failures").exit_code == 0
        tables.append({"name": "acme/two", "source": "/nonexistent"})
        assert run_all(tmp_path, tables, "--allow-failures").exit_code == 1


def test_llm_entries_report_requests_and_cost(tmp_path: Path, sources: dict[str, GitRepo]) -> None:
    tables: list[dict[str, Any]] = [
        {"name": "acme/one", "source": str(sources["acme/one"].path), "analyzer": "llm"}
    ]
    with FakeOpenAI() as server, llm_env(server.base_url):
        server.responder = plain_answer
        result = run_all(tmp_path, tables)
    assert result.exit_code == 0, result.output
    assert f"model requests {BASE_SITES}, $" in result.output
    assert len(server.requests) == BASE_SITES


def test_a_second_run_fails_at_once_and_touches_nothing(
    tmp_path: Path, sources: dict[str, GitRepo]
) -> None:
    out = tmp_path / "out"
    tables = [{"name": name, "source": str(repo.path)} for name, repo in sources.items()]
    with exclusive(out / LOCK_NAME, "test"):
        result = run_all(tmp_path, tables)
    assert result.exit_code == 1
    assert result.output.startswith("errdoc: error: another errdoc run (pid ")
    assert len(result.output.splitlines()) == 1
    assert [p.name for p in out.iterdir()] == [LOCK_NAME]
    assert not (tmp_path / "cache").exists()
