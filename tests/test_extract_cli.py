"""`extract`, `validate` and `schema` through the real CLI, on real git repositories in tmp_path."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from gitrepo import GitRepo
from regen_fixtures import dataset, manifest

from pipeline.cli import main
from pipeline.dataset.previous import read_version
from pipeline.scan.context import record_id

REPO = "acme/widgets"
FIXTURES = Path(__file__).parent / "fixtures" / "rust"
ROOT = Path(__file__).parent.parent

ERROR_RS = "pub type MetaResult<T> = std::result::Result<T, MetaError>;\n"
RPC_RS = """\
use crate::error::MetaResult;

impl Barrier {
    /// Injects the initial barrier.
    pub fn inject(&self, job_id: u32, is_paused: bool) -> MetaResult<()> {
        if is_paused {
            bail!("should not pause when having snapshot backfill job {job_id}");
        }
        Ok(())
    }
}
"""
FILES: dict[str, str | bytes | None] = {
    "src/meta/src/error.rs": ERROR_RS,
    "src/meta/src/barrier/rpc.rs": RPC_RS,
    "src/common/src/bail.rs": (FIXTURES / "bail.rs").read_text(),
    "src/common/src/constructor.rs": (FIXTURES / "constructor.rs").read_text(),
    "src/common/src/testcode.rs": (FIXTURES / "testcode.rs").read_text(),
    "tests/integration.rs": 'fn t() { panic!("integration test panic"); }\n',
    "benches/bench.rs": 'fn b() { panic!("bench panic"); }\n',
    "README.md": "# widgets\n",
}
# bail.rs 3 + constructor.rs 5 + testcode.rs 2 + rpc.rs 1
EXPECTED_RECORDS = 11


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    r = GitRepo.init(tmp_path / "src")
    r.commit(FILES, message="first")
    return r


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return tmp_path / "out"


def cli(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def extract(source: Path, out: Path, sha: str = "main", *extra: str) -> Result:
    return cli("extract", "--repo", REPO, "--sha", sha, "--source", source, "--out", out, *extra)


def records(out: Path) -> dict[str, dict[str, Any]]:
    """Record by errorMessage (the fixtures keep messages unique)."""
    found: dict[str, dict[str, Any]] = {}
    for path in (dataset(out) / "records").glob("*.json"):
        record = json.loads(path.read_text())["record"]
        assert record["errorMessage"] not in found
        found[record["errorMessage"]] = record
    return found


def subprocess_cli(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def assert_one_line_error(stderr: str, *needles: str) -> None:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


# --- end to end ---------------------------------------------------------------------------------


def test_extract_end_to_end(repo: GitRepo, out: Path) -> None:
    result = extract(repo.path, out)
    assert result.exit_code == 0, result.stderr
    root = dataset(out)
    sha = repo.head()
    by_message = records(out)
    assert len(by_message) == EXPECTED_RECORDS
    seedlike = by_message["should not pause when having snapshot backfill job {job_id}"]
    assert seedlike["filePath"] == "src/meta/src/barrier/rpc.rs"
    assert seedlike["lineNumber"] == 7
    assert (seedlike["sourceCodeStart"], seedlike["sourceCodeEnd"]) == (1, 11)
    assert seedlike["githubUrl"] == (
        f"https://github.com/{REPO}/blob/{sha}/src/meta/src/barrier/rpc.rs#L1-L11"
    )
    assert seedlike["messagePattern"] == "should not pause when having snapshot backfill job (.+?)"
    assert seedlike["errorClass"] == "MetaError"  # alias declared in another file of the crate
    assert seedlike["analyzedSha"] == sha
    assert "integration test panic" not in by_message and "bench panic" not in by_message
    assert "in a test fn" not in by_message
    assert by_message["id two is invalid"]["errorCode"] == "INVALID_ARGUMENT"
    assert by_message["id two is invalid"]["errorType"] == "error_code"

    data = manifest(out)
    assert (data["repo"], data["sha"]) == (REPO, sha)
    assert set(data["records"]) == {r["id"] for r in by_message.values()}
    assert data["counts"]["records"] == EXPECTED_RECORDS
    assert data["counts"]["sitesByKind"] == {"bail": 4, "constructor": 5, "panic": 2}
    assert data["records"][seedlike["id"]]["kind"] == "bail"
    assert data["records"][seedlike["id"]]["analyzer"] == "static"
    version = data["datasetVersion"]
    for path in (root / "records").glob("*.json"):
        assert json.loads(path.read_text())["datasetVersion"] == version
    lines = (root / "records.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in lines] == sorted(data["records"])
    assert {r.id for r in read_version(root, version)} == set(data["records"])
    assert f"{EXPECTED_RECORDS} records" in result.stderr


def test_validate_passes_then_fails_on_a_corrupted_record(repo: GitRepo, out: Path) -> None:
    assert extract(repo.path, out).exit_code == 0
    ok = cli("validate", out)
    assert ok.exit_code == 0, ok.stderr
    assert f"ok: {EXPECTED_RECORDS} records valid" in ok.stdout

    victim = sorted((dataset(out) / "records").glob("*.json"))[0]
    body = json.loads(victim.read_text())
    body["record"]["lineNumber"] = 0
    body["record"]["severity"] = "catastrophic"
    victim.write_text(json.dumps(body))
    bad = cli("validate", out)
    assert bad.exit_code == 1
    assert victim.name in bad.stderr
    assert "severity" in bad.stderr and "lineNumber" in bad.stderr
    assert "2 problems" in bad.stderr


def test_validate_catches_a_window_that_does_not_hold_the_line(repo: GitRepo, out: Path) -> None:
    assert extract(repo.path, out).exit_code == 0
    victim = sorted((dataset(out) / "records").glob("*.json"))[0]
    body = json.loads(victim.read_text())
    body["record"]["sourceCodeEnd"] += 5
    victim.write_text(json.dumps(body))
    bad = cli("validate", out)
    assert bad.exit_code == 1
    assert "window bounds" in bad.stderr


def test_schema_prints_the_record_json_schema() -> None:
    result = cli("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert set(schema["required"]) == {"record", "datasetVersion"}
    record = schema["$defs"]["Record"]
    assert record["additionalProperties"] is False
    assert list(record["properties"])[:3] == ["id", "repo", "slug"]


# --- hostile and odd sources --------------------------------------------------------------------


def test_a_missing_blob_is_skipped_with_a_warning(repo: GitRepo, out: Path) -> None:
    repo.delete_loose_object(repo.blob_sha("src/common/src/bail.rs"))
    result = extract(repo.path, out)
    assert result.exit_code == 0, result.stderr
    assert "src/common/src/bail.rs" in result.stderr and "warning" in result.stderr
    counts = manifest(out)["counts"]
    assert counts["skippedByReason"] == {"missing-blob": 1}
    assert counts["filesSkipped"] == 1
    by_message = records(out)
    assert len(by_message) == EXPECTED_RECORDS - 3
    assert "two is not allowed" not in by_message
    assert "id one is reserved" in by_message


def test_a_bare_repo_with_no_config_file(repo: GitRepo, tmp_path: Path, out: Path) -> None:
    bare = repo.bare_copy(tmp_path / "mirror.git")
    (bare / "config").unlink()
    result = extract(bare, out, repo.head()[:10])
    assert result.exit_code == 0, result.stderr
    assert len(records(out)) == EXPECTED_RECORDS
    assert manifest(out)["sha"] == repo.head()


def test_a_symlink_in_the_tree_is_not_followed(repo: GitRepo, tmp_path: Path, out: Path) -> None:
    outside = tmp_path / "outside.rs"
    outside.write_text('fn f() { panic!("outside the repository"); }\n')
    os.symlink(outside, repo.path / "src" / "escape.rs")
    os.symlink("common/src/bail.rs", repo.path / "src" / "alias.rs")
    repo.commit(message="links")
    result = extract(repo.path, out)
    assert result.exit_code == 0, result.stderr
    assert manifest(out)["counts"]["skippedByReason"] == {"symlink": 2}
    paths = {r["filePath"] for r in records(out).values()}
    assert "src/escape.rs" not in paths and "src/alias.rs" not in paths
    assert "outside the repository" not in records(out)


def test_a_bad_sha_is_one_line_and_leaves_the_dataset_alone(repo: GitRepo, out: Path) -> None:
    assert extract(repo.path, out).exit_code == 0
    before = {p: p.read_bytes() for p in dataset(out).rglob("*") if p.is_file()}
    result = subprocess_cli(
        "extract", "--repo", REPO, "--sha", "deadbeef0", "--source", repo.path, "--out", out
    )
    assert result.returncode != 0
    assert_one_line_error(result.stderr, "deadbeef0")
    after = {p: p.read_bytes() for p in dataset(out).rglob("*") if p.is_file()}
    assert after == before


def test_a_nonexistent_source_is_one_line(tmp_path: Path, out: Path) -> None:
    result = subprocess_cli(
        "extract", "--repo", REPO, "--sha", "main", "--source", tmp_path / "nope", "--out", out
    )
    assert result.returncode != 0
    assert_one_line_error(result.stderr, "does not exist")
    assert not out.exists()


def test_a_repository_with_no_rust_files(tmp_path: Path, out: Path) -> None:
    empty = GitRepo.init(tmp_path / "docs")
    empty.commit({"README.md": "# nothing here\n", "src/main.py": "print('hi')\n"})
    result = extract(empty.path, out)
    assert result.exit_code == 0
    assert "no .rs files" in result.stderr
    assert not dataset(out).exists()


def test_invalid_utf8_and_a_syntax_error_keep_the_rest_of_the_file(
    tmp_path: Path, out: Path
) -> None:
    r = GitRepo.init(tmp_path / "odd")
    r.commit(
        {
            "src/latin1.rs": b'const A: &str = "caf\xe9";\nfn f() { bail!("latin1 file still yields"); }\n',
            "src/broken.rs": (
                'fn a() { bail!("before the broken fn"); }\n'
                "fn broken( {\n    let = ;\n}\n"
                'fn c() { bail!("after the broken fn"); }\n'
            ),
        }
    )
    result = extract(r.path, out)
    assert result.exit_code == 0, result.stderr
    by_message = records(out)
    assert set(by_message) == {
        "latin1 file still yields",
        "before the broken fn",
        "after the broken fn",
    }
    assert by_message["after the broken fn"]["lineNumber"] == 5
    assert "caf\ufffd" in by_message["latin1 file still yields"]["sourceCode"]
    assert cli("validate", out).exit_code == 0


@pytest.mark.parametrize(
    ("options", "paths"),
    [
        (["--include", "src/meta/**"], {"src/meta/src/barrier/rpc.rs"}),
        (
            ["--exclude", "src/meta/**,src/common/src/testcode.rs"],
            {"src/common/src/bail.rs", "src/common/src/constructor.rs"},
        ),
        (
            ["--include", "src/common/**", "--exclude", "**/bail.rs"],
            {"src/common/src/constructor.rs", "src/common/src/testcode.rs"},
        ),
    ],
)
def test_include_and_exclude(repo: GitRepo, out: Path, options: list[str], paths: set[str]) -> None:
    result = extract(repo.path, out, "main", *options)
    assert result.exit_code == 0, result.stderr
    assert {r["filePath"] for r in records(out).values()} == paths


def test_include_that_matches_nothing_is_a_clear_message(repo: GitRepo, out: Path) -> None:
    # an error, not a warning: a scheduled job with a stale --include must not pass unnoticed
    result = extract(repo.path, out, "main", "--include", "src/nowhere/**")
    assert result.exit_code == 1
    assert_one_line_error(result.stderr, "errdoc: error: --include src/nowhere/** matches no")
    assert not out.exists() or not any(out.rglob("records"))


# --- incremental runs ---------------------------------------------------------------------------


def test_a_second_commit_parses_only_changed_blobs(repo: GitRepo, out: Path) -> None:
    first = extract(repo.path, out)
    assert first.exit_code == 0
    assert manifest(out)["counts"]["filesParsed"] == 7  # every .rs blob: none cached yet
    repo.commit(
        {
            "src/meta/src/barrier/rpc.rs": "// moved down\n" + RPC_RS,
            "src/common/src/new.rs": 'fn n() { panic!("a new site"); }\n',
        }
    )
    assert extract(repo.path, out).exit_code == 0
    counts = manifest(out)["counts"]
    # The 6 unchanged blobs are carried over from the previous version: not even read.
    assert (counts["filesParsed"], counts["filesFromCache"], counts["filesCarried"]) == (2, 0, 6)
    moved = records(out)["should not pause when having snapshot backfill job {job_id}"]
    assert moved["lineNumber"] == 8
    assert "a new site" in records(out)


def test_a_rerun_keeps_timestamps_of_unchanged_records(repo: GitRepo, out: Path) -> None:
    assert extract(repo.path, out).exit_code == 0
    before = records(out)
    first_version = manifest(out)["datasetVersion"]
    assert extract(repo.path, out, "main", "--force").exit_code == 0
    after = records(out)
    assert manifest(out)["datasetVersion"] != first_version
    assert manifest(out)["counts"]["reused"] == EXPECTED_RECORDS
    for message, record in after.items():
        assert record["analyzedAt"] == before[message]["analyzedAt"]
        assert record["contentChangedAt"] == before[message]["contentChangedAt"]
        assert record == before[message]


def test_an_edited_site_gets_a_new_content_time_and_the_rest_keep_theirs(
    repo: GitRepo, out: Path
) -> None:
    assert extract(repo.path, out).exit_code == 0
    before = records(out)
    repo.commit({"src/meta/src/barrier/rpc.rs": RPC_RS.replace("is_paused {", "is_paused && x {")})
    assert extract(repo.path, out).exit_code == 0
    after = records(out)
    edited = "should not pause when having snapshot backfill job {job_id}"
    assert after[edited]["id"] == before[edited]["id"]
    assert after[edited]["contentChangedAt"] != before[edited]["contentChangedAt"]
    assert "is_paused && x" in after[edited]["triggerScenarios"]
    untouched = "id two is invalid"  # in another file, whose blob is unchanged (SPEC 7)
    assert after[untouched]["filePath"] != after[edited]["filePath"]
    assert after[untouched] == before[untouched]
    assert after[edited]["analyzedSha"] == repo.head() != before[untouched]["analyzedSha"]


def test_a_removed_site_is_retired_since_the_new_commit(repo: GitRepo, out: Path) -> None:
    assert extract(repo.path, out).exit_code == 0
    first_version = manifest(out)["datasetVersion"]
    gone = records(out)["two is not allowed"]
    bail_rs = (FIXTURES / "bail.rs").read_text().replace("two is not allowed", "{}")
    sha = repo.commit({"src/common/src/bail.rs": bail_rs})
    assert extract(repo.path, out).exit_code == 0
    data = manifest(out)
    assert gone["id"] not in data["records"]
    assert "two is not allowed" not in records(out)
    assert data["retired"][gone["id"]] == {
        "since": sha,
        "lastVersion": first_version,
        "errorMessage": "two is not allowed",
        "filePath": "src/common/src/bail.rs",
    }
    assert data["counts"]["retired"] == 1
    assert [v["sha"] for v in data["versions"]] == [repo.git("rev-parse", "HEAD~1"), sha]
    assert data["versions"][0]["datasetVersion"] == first_version


def test_sites_lists_what_extract_publishes_without_publishing(repo: GitRepo, out: Path) -> None:
    listed = cli("sites", "--repo", REPO, "--sha", "main", "--source", repo.path)
    assert listed.exit_code == 0, listed.output
    lines = [json.loads(line) for line in listed.stdout.splitlines()]
    assert len(lines) == EXPECTED_RECORDS
    assert not out.exists()
    rpc = next(s for s in lines if s["file"] == "src/meta/src/barrier/rpc.rs")
    assert rpc == {
        "id": record_id(
            REPO,
            "src/meta/src/barrier/rpc.rs",
            "should not pause when having snapshot backfill job (.+?)",
            0,
        ),
        "file": "src/meta/src/barrier/rpc.rs",
        "line": 7,  # the `bail!` line of RPC_RS
        "kind": "bail",
        "message": "should not pause when having snapshot backfill job {job_id}",
        "pattern": "should not pause when having snapshot backfill job (.+?)",
        "errorClass": "MetaError",
    }
    assert extract(repo.path, out).exit_code == 0
    assert {s["id"] for s in lines} == set(records_by_id(out))
    counted = cli("sites", "--repo", REPO, "--sha", "main", "--source", repo.path, "--count")
    counts = json.loads(counted.stdout)
    assert counts["records"] == EXPECTED_RECORDS
    assert counts["filesListed"] == len([p for p in FILES if p.endswith(".rs")])


def records_by_id(out: Path) -> set[str]:
    return {p.stem for p in (dataset(out) / "records").glob("*.json")}


def test_validate_rejects_a_code_field_that_is_not_rust(repo: GitRepo, out: Path) -> None:
    """Issue 11: every code field the extractor writes parses; `validate` checks that too."""
    assert extract(repo.path, out).exit_code == 0
    assert cli("validate", out).exit_code == 0
    victim = sorted((dataset(out) / "records").glob("*.json"))[0]
    body = json.loads(victim.read_text())
    body["record"]["validationCode"] = 'let ok = (let Some(start) = s.strip_prefix("start="));'
    body["record"]["exampleFix"] = "anyhow::ensure!("
    victim.write_text(json.dumps(body))
    bad = cli("validate", out)
    assert bad.exit_code == 1
    assert "validationCode is not valid rust code" in bad.stderr
    assert "exampleFix is not valid rust code" in bad.stderr
