"""Version files as deltas with snapshots (SPEC 7): every version rebuilt exactly; pruning; no-op runs."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from gitrepo import GitRepo
from regen_fixtures import REPO, cli, dataset, extract, manifest, regenerate, rust_file

from pipeline.dataset import history
from pipeline.dataset.previous import read_version


def tree(step: int) -> dict[str, str | bytes | None]:
    """The repository after `step` edits: sites come and go, windows and messages change,
    a file moves back and forth, and every fourth step rewrites most messages."""
    fns = [(f"check_{k}", f"check {k} failed for {{id}}") for k in range(6)]
    fns += [(f"added_{k}", f"step {k} added {{id}}") for k in range(step) if k % 3 == 0]
    if step % 4 == 3:
        fns = [(name, f"{message} (round {step})") for name, message in fns]
    pool = [("offline", "shard {id} is offline"), ("busy", f"shard {{id}} busy ({step % 2})")]
    pool_path = "src/meta/src/pool.rs" if step % 5 < 3 else "src/meta/src/shards/pool.rs"
    head = [f"// revision {step // 2}"]
    return {
        "src/meta/src/error.rs": "pub type MetaResult<T> = std::result::Result<T, MetaError>;\n",
        "src/meta/src/checks.rs": rust_file("checks", fns, head=head),
        pool_path: rust_file("pool", pool),
        "src/meta/src/stable.rs": rust_file("stable", [("stable", "stable {id} never changes")]),
    }


def jsonl_of(out: Path) -> str:
    return (dataset(out) / "records.jsonl").read_text()


def files_of(out: Path) -> dict[str, str]:
    """versions/ by version name: `snapshot` or `delta`."""
    found = {}
    for path in (dataset(out) / "versions").iterdir():
        if path.name.endswith(history.DELTA):
            found[path.name.removesuffix(history.DELTA)] = "delta"
        else:
            found[path.name.removesuffix(history.SNAPSHOT)] = "snapshot"
    return found


def test_every_version_of_a_20_step_history_is_rebuilt_as_published(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history, "SNAPSHOT_EVERY", 8)  # several snapshots in 21 versions
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(tree(0))
    out = tmp_path / "out"
    assert extract(repo.path, out, tmp_path / "cache", "main").exit_code == 0
    published = {manifest(out)["datasetVersion"]: jsonl_of(out)}
    for step in range(1, 21):
        repo.commit(tree(step), message=f"step {step}")
        result = regenerate(out, tmp_path / "cache")
        assert result.exit_code == 0, result.output
        published[manifest(out)["datasetVersion"]] = jsonl_of(out)

    assert len(published) == 21
    kinds = files_of(out)
    assert set(kinds) == set(published)
    entries = manifest(out)["versions"]
    assert [e["datasetVersion"] for e in entries] == list(published)
    assert all(e["chain"] < 8 for e in entries)
    # snapshots: the first, every 8th in a chain, and steps that rewrote most records
    snapshots = [v for v in published if kinds[v] == "snapshot"]
    assert 3 <= len(snapshots) < 21 and next(iter(published)) in snapshots
    delta_bytes = sum(
        (dataset(out) / "versions" / f"{v}{history.DELTA}").stat().st_size
        for v in published
        if kinds[v] == "delta"
    )
    snapshot_bytes = max(
        (dataset(out) / "versions" / f"{v}{history.SNAPSHOT}").stat().st_size for v in snapshots
    )
    assert delta_bytes / (21 - len(snapshots)) < snapshot_bytes / 2  # a delta holds the change

    for version, text in published.items():
        assert history.jsonl(history.rebuild(dataset(out), version)).decode() == text
        assert [r.id for r in read_version(dataset(out), version)] == [
            json.loads(line)["id"] for line in text.splitlines()
        ]
    # diffs read versions through the same rebuild
    first, last = next(iter(published)), list(published)[-1]
    result = cli("diff", first, last, "--out", out, "--repo", REPO, "--format", "json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)["summary"]
    first_n, last_n = len(published[first].splitlines()), len(published[last].splitlines())
    kept = summary["moved"] + summary["changed"] + summary["unchanged"]
    assert summary["added"] + kept == last_n and summary["removed"] + kept == first_n


def test_keep_versions_prunes_the_oldest_and_keeps_the_rest_rebuildable(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(tree(0))
    out = tmp_path / "out"
    assert extract(repo.path, out, tmp_path / "cache", "main").exit_code == 0
    published = {manifest(out)["datasetVersion"]: jsonl_of(out)}
    for step in (1, 2, 4, 5, 6):
        repo.commit(tree(step))
        assert regenerate(out, tmp_path / "cache", "main", "--keep-versions", "3").exit_code == 0
        published[manifest(out)["datasetVersion"]] = jsonl_of(out)

    kept = list(published)[-3:]
    assert [e["datasetVersion"] for e in manifest(out)["versions"]] == kept
    assert set(files_of(out)) == set(kept) and files_of(out)[kept[0]] == "snapshot"
    for version in kept:
        assert history.jsonl(history.rebuild(dataset(out), version)).decode() == published[version]
    assert cli("diff", "previous", "latest", "--out", out).exit_code == 0


def written(out: Path) -> dict[str, tuple[int, int]]:
    """Every file of the dataset but the writers' lock: inode and mtime."""
    return {
        str(p): (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in dataset(out).rglob("*")
        if p.name != ".lock"
    }


def test_a_run_at_the_current_commit_publishes_nothing_unless_forced(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(tree(0))
    out, cache = tmp_path / "out", tmp_path / "cache"
    assert extract(repo.path, out, cache, "main").exit_code == 0
    before = written(out)
    version = manifest(out)["datasetVersion"]

    again = extract(repo.path, out, cache, "main")
    assert again.exit_code == 0
    assert f"already at {repo.head()[:10]}" in again.output and "nothing published" in again.output
    regenerated = regenerate(out, cache)
    assert regenerated.exit_code == 0 and "nothing to do" in regenerated.output
    assert written(out) == before

    forced = extract(repo.path, out, cache, "main", "--force")
    assert forced.exit_code == 0
    assert manifest(out)["datasetVersion"] != version
    assert len(manifest(out)["versions"]) == 2
    assert files_of(out)[manifest(out)["datasetVersion"]] == "delta"
    body = gzip.decompress(
        (
            dataset(out) / "versions" / f"{manifest(out)['datasetVersion']}{history.DELTA}"
        ).read_bytes()
    )
    assert json.loads(body.splitlines()[0]) == {"base": version, "removed": []}
    assert body.count(b"\n") == 1  # nothing changed: the header alone

    regenerated = regenerate(out, cache, "main", "--force")
    assert regenerated.exit_code == 0 and len(manifest(out)["versions"]) == 3


def test_regenerate_all_passes_keep_versions_on(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repos = tmp_path / "repos.toml"
    repos.write_text(f'[[repo]]\nname = "{REPO}"\nsource = "{repo.path}"\n')
    for step in range(4):
        repo.commit(tree(step))
        result = cli("regenerate-all", "--repos", repos, "--out", tmp_path / "out",
                     "--cache", tmp_path / "cache", "--jobs", "1", "--keep-versions", "2")  # fmt: skip
        assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    assert len(manifest(out)["versions"]) == 2 and len(files_of(out)) == 2


def test_keep_versions_1_leaves_one_snapshot_of_the_current_version(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit(tree(0))
    out = tmp_path / "out"
    assert extract(repo.path, out, tmp_path / "cache", "main").exit_code == 0
    repo.commit(tree(1))
    assert regenerate(out, tmp_path / "cache").exit_code == 0
    repo.commit(tree(2))
    assert regenerate(out, tmp_path / "cache", "main", "--keep-versions", "1").exit_code == 0

    current = manifest(out)["datasetVersion"]
    assert files_of(out) == {current: "snapshot"}
    assert manifest(out)["versions"][0]["chain"] == 0
    assert history.jsonl(history.rebuild(dataset(out), current)).decode() == jsonl_of(out)
