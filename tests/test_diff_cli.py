"""`errdoc diff`: every kind of OLD/NEW argument, the formats, the exit codes, the errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from diff_fixtures import NEW_SHA, OLD_SHA, REPO, V1, V2, fixture_pair, write_dataset, write_version

from pipeline.versions.diff_cli import diff_command, nearest

V0 = "2026-09-01T00:00:00.000Z"
SUMMARY = {"added": 1, "removed": 1, "moved": 1, "changed": 2, "unchanged": 2}


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """OUT with one repository and three versions: V0 (= V1's records), V1, V2 (current)."""
    old, new = fixture_pair()
    write_dataset(tmp_path / "out", {V0: (OLD_SHA, old), V1: (OLD_SHA, old), V2: (NEW_SHA, new)})
    return tmp_path / "out"


def run(out: Path, *args: str) -> Result:
    return CliRunner().invoke(diff_command, [*args, "--out", str(out)])


def summary(result: Result) -> dict[str, int]:
    assert result.exit_code == 0, result.output
    doc: dict[str, dict[str, int]] = json.loads(result.output)
    return doc["summary"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (V1, V2),  # datasetVersion strings, the only repository under OUT
        ("2026-09-14", "2026-09-2"),  # unique prefixes
        ("previous", "latest"),
        ("{out}/" + REPO + f"/versions/{V1}.jsonl.gz", "{out}/" + REPO),  # version file, directory
        (V1, "{out}/" + REPO + f"/versions/{V2}.jsonl.gz"),
    ],
)
def test_each_kind_of_side(out: Path, old: str, new: str) -> None:
    result = run(out, old.format(out=out), new.format(out=out), "--format", "json")
    assert summary(result) == SUMMARY


def test_sides_carry_sha_and_version(out: Path) -> None:
    doc = json.loads(
        run(out, f"{out}/{REPO}/versions/{V1}.jsonl.gz", "latest", "--format", "json").output
    )
    assert (doc["old"]["sha"], doc["old"]["datasetVersion"]) == (OLD_SHA, V1)
    assert doc["new"] == {"label": V2, "sha": NEW_SHA, "datasetVersion": V2}


def test_plain_jsonl_and_record_files(tmp_path: Path) -> None:
    old, new = fixture_pair()
    plain = tmp_path / "old.jsonl"
    plain.write_text("".join(r.model_dump_json() + "\n" for r in old))
    root = write_dataset(tmp_path / "out", {V2: (NEW_SHA, new)}, jsonl=False)
    assert not (root / "records.jsonl").exists()
    assert summary(run(tmp_path / "out", str(plain), str(root), "--format", "json")) == SUMMARY


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ((V0, V1), 0),  # same records: no differences
        ((V0, V1, "--exit-code"), 0),
        ((V1, V2), 0),  # differences, but exit codes were not asked for
        ((V1, V2, "--exit-code"), 1),
        (("latest", "latest", "--exit-code"), 0),
        (("nowhere", V2, "--exit-code"), 2),  # trouble beats differences
    ],
)
def test_exit_codes(out: Path, args: tuple[str, ...], code: int) -> None:
    assert run(out, *args).exit_code == code


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_formats(out: Path, fmt: str) -> None:
    result = run(out, V1, V2, "--format", fmt)
    assert result.exit_code == 0, result.output
    first = {
        "text": "errdoc diff risingwavelabs/risingwave ",
        "json": "{",
        "markdown": "## Dataset diff:",
    }[fmt]
    assert result.output.startswith(first)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("2026-09-15T00:00:00.000Z", V2),
            f"unknown version '2026-09-15T00:00:00.000Z' of {REPO}; nearest: {V0}, {V1}, {V2}",
        ),
        (
            ("2026-09", V2),
            f"ambiguous version prefix '2026-09' of {REPO}; nearest: {V0}, {V1}, {V2}",
        ),
        (("v1", V2), f"unknown version 'v1' of {REPO}; nearest:"),
        (("missing/dir", V2), "no such file or directory: missing/dir"),
        ((V1, V2, "--repo", "acme/db"), "no dataset for acme/db under"),
        ((V1, V2, "--repo", "../etc"), "--repo must be owner/name"),
    ],
)
def test_errors_are_one_line_and_exit_2(out: Path, args: tuple[str, ...], message: str) -> None:
    result = run(out, *args)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and message in result.output
    assert "Traceback" not in result.output


def test_several_repositories_need_repo(out: Path) -> None:
    old, _ = fixture_pair()
    write_dataset(out, {V1: (OLD_SHA, old)}, repo="acme/db")
    result = run(out, V1, V2)
    assert result.exit_code == 2
    assert f"holds several repositories (acme/db, {REPO}); pass --repo owner/name" in result.output
    assert summary(run(out, V1, V2, "--repo", REPO, "--format", "json")) == SUMMARY


def test_previous_needs_two_versions(tmp_path: Path) -> None:
    write_dataset(tmp_path / "out", {V1: (OLD_SHA, fixture_pair()[0])})
    result = run(tmp_path / "out", "previous", "latest")
    assert (
        result.exit_code == 2
        and f"{REPO} has no 'previous' version (published: {V1})" in result.output
    )


def test_empty_out_says_what_to_do(tmp_path: Path) -> None:
    result = run(tmp_path / "nothing", V1, V2)
    assert result.exit_code == 2 and "no dataset under" in result.output


def test_a_corrupt_version_is_named_with_its_line(out: Path, tmp_path: Path) -> None:
    old, _ = fixture_pair()
    bad = write_version(tmp_path / "bad.jsonl.gz", old)
    bad.write_bytes(bad.read_bytes()[:-12])  # truncated gzip
    broken = tmp_path / "broken.jsonl"
    broken.write_text(old[0].model_dump_json() + "\n" + '{"id": "nope"}\n')
    assert "cannot read" in run(out, str(bad), V2).output
    result = run(out, str(broken), V2)
    assert result.exit_code == 2 and f"{broken}:2: not a schemaVersion 2 record" in result.output


def test_a_repeated_id_is_reported_not_raised(out: Path, tmp_path: Path) -> None:
    old, _ = fixture_pair()
    twice = tmp_path / "twice.jsonl"
    twice.write_text(old[0].model_dump_json() + "\n" + old[0].model_dump_json() + "\n")
    result = run(out, str(twice), V2)
    assert result.exit_code == 2 and "appears twice" in result.output


@pytest.mark.parametrize(
    ("spec", "k", "expected"),
    [
        ("2026-09-13", 3, [V0, V1, V2]),
        ("2026-09-20", 2, [V1, V2]),  # closest in time, listed oldest first
        ("2026-09-02T00:00:00Z", 1, [V0]),
        ("2026-09-21T08:00", 1, [V2]),  # no zone: read as UTC
        ("2026-09-14T16:17:12.679", 1, [V1]),
    ],
)
def test_nearest_versions(spec: str, k: int, expected: list[str]) -> None:
    assert nearest(spec, [V0, V1, V2], k=k) == expected


def test_registered_on_the_main_group() -> None:
    from pipeline.cli import main

    assert main.get_command(None, "diff") is diff_command  # type: ignore[arg-type]
