"""The published dataset (SPEC 6): versions kept, and a crash never leaves it half-written."""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from pipeline.core.model import Provenance, Record
from pipeline.dataset.atomicdir import write_atomic
from pipeline.dataset.lock import LockedError, exclusive
from pipeline.dataset.previous import line_field, load_previous, read_manifest, read_version
from pipeline.dataset.store import Publication, StoreError, publish, record_json

ROOT = Path(__file__).parent.parent
REPO = "acme/big"
SHA1, SHA2 = "1" * 40, "2" * 40


def live_entries(parent: Path) -> list[str]:
    """What a reader sees beside the dataset: `.spare` (the previous tree, kept for the next
    publish to rewrite) and `.trash-*` (one being deleted) are out of every reader's way."""
    return sorted(
        p.name
        for p in parent.iterdir()
        if ".trash-" not in p.name and not p.name.endswith(".spare")
    )


def make_record(rid: str, message: str, sha: str = SHA1) -> Record:
    return Record.model_validate(
        {
            "id": rid, "repo": REPO, "slug": "s", "errorCode": None, "errorMessage": message,
            "messagePattern": message, "errorType": "exception", "errorClass": None,
            "httpStatus": None, "severity": "error", "filePath": "src/lib.rs", "lineNumber": 1,
            "sourceCode": "x", "sourceCodeStart": 1, "sourceCodeEnd": 1,
            "githubUrl": f"https://github.com/{REPO}/blob/{sha}/src/lib.rs#L1-L1",
            "documentation": "d", "triggerScenarios": "t", "commonSituations": "c",
            "solutions": [], "exampleFix": "", "handlingStrategy": "fail-fast",
            "validationCode": None, "typeGuard": None, "tryCatchPattern": None,
            "preventionTips": [], "tags": [], "backgroundTag": "internal-invariant",
            "analyzedSha": sha, "analyzedAt": "2026-01-01T00:00:00.000Z",
            "contentChangedAt": "2026-01-01T00:00:00.000Z", "schemaVersion": 2,
        }
    )  # fmt: skip


def publication(version: str, sha: str, records: list[Record]) -> Publication:
    provenance = {
        r.id: Provenance(analyzer="static", contentHash="h", kind="bail") for r in records
    }
    return Publication(REPO, sha, version, records, provenance, {"records": len(records)})


def assert_whole(root: Path) -> str:
    """records/, records.jsonl and manifest.json are one version: every file parses, each
    record file holds its records.jsonl line and a published version no newer than this one
    (the one that last wrote it, SPEC 7)."""
    manifest = json.loads((root / "manifest.json").read_text("utf-8"))
    version = manifest["datasetVersion"]
    published = {v["datasetVersion"] for v in manifest["versions"]}
    assert version in published
    jsonl = (root / "records.jsonl").read_text("utf-8").splitlines()
    lines = {(record := json.loads(line))["id"]: record for line in jsonl}
    ids = set()
    for path in (root / "records").glob("*.json"):
        body = json.loads(path.read_text("utf-8"))
        assert body["datasetVersion"] in published and body["datasetVersion"] <= version, path
        assert body["record"] == lines[body["record"]["id"]], path
        ids.add(body["record"]["id"])
    assert ids == set(manifest["records"]) == set(lines)
    return str(version)


# --- publish, versions, recover -----------------------------------------------------------------


def test_publish_twice_keeps_every_version_readable(tmp_path: Path) -> None:
    root = tmp_path / "acme" / "big"
    first = [make_record("a" * 16, "one"), make_record("b" * 16, "two")]
    publish(root, publication("2026-01-01T00:00:00.000Z", SHA1, first), None)
    previous = load_previous(root)
    assert previous is not None and set(previous.records) == {"a" * 16, "b" * 16}
    second = [make_record("c" * 16, "three", SHA2)]
    publish(root, publication("2026-01-02T00:00:00.000Z", SHA2, second), previous)

    assert assert_whole(root) == "2026-01-02T00:00:00.000Z"
    assert [p.name for p in (root / "records").iterdir()] == ["c" * 16 + ".json"]
    assert [r.id for r in read_version(root, "2026-01-01T00:00:00.000Z")] == ["a" * 16, "b" * 16]
    assert [r.id for r in read_version(root, "2026-01-02T00:00:00.000Z")] == ["c" * 16]
    raw = gzip.decompress((root / "versions" / "2026-01-02T00:00:00.000Z.jsonl.gz").read_bytes())
    assert json.loads(raw)["errorMessage"] == "three"
    manifest = read_manifest(root)
    assert [v["sha"] for v in manifest["versions"]] == [SHA1, SHA2]
    assert live_entries(root.parent) == ["big"]  # no staging left
    assert not list(root.glob(".*.tmp"))
    probe = tmp_path / "probe"
    probe.mkdir()
    assert root.stat().st_mode == probe.stat().st_mode  # not mkdtemp's 0700


def test_the_previous_tree_is_rewritten_in_place_by_the_next_publish(tmp_path: Path) -> None:
    """Creating files is the slow part of a publish: the tree two versions back is reused."""
    root = tmp_path / "acme" / "big"
    versions = ["2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z", "2026-01-03T00:00:00.000Z"]
    publish(root, publication(versions[0], SHA1, [make_record("a" * 16, "one")]), None)
    first_inode = (root / "records" / ("a" * 16 + ".json")).stat().st_ino
    publish(
        root,
        publication(versions[1], SHA2, [make_record("a" * 16, "two", SHA2)]),
        load_previous(root),
    )
    spare = tmp_path / "acme" / ".big.spare"
    assert (spare / "records" / ("a" * 16 + ".json")).stat().st_ino == first_inode
    third = [make_record("a" * 16, "three", SHA1), make_record("d" * 16, "new", SHA1)]
    publish(root, publication(versions[2], SHA1, third), load_previous(root))

    assert assert_whole(root) == versions[2]
    assert (root / "records" / ("a" * 16 + ".json")).stat().st_ino == first_inode
    assert (
        json.loads((root / "records" / ("a" * 16 + ".json")).read_text())["record"]["errorMessage"]
        == "three"
    )
    assert [
        v["datasetVersion"] for v in json.loads((root / "manifest.json").read_text())["versions"]
    ] == versions
    assert sorted(p.name for p in (root / "versions").iterdir()) == [
        f"{v}.jsonl.gz" for v in versions
    ]


def test_a_spare_file_linked_elsewhere_is_never_written_through(tmp_path: Path) -> None:
    root = tmp_path / "acme" / "big"
    publish(
        root, publication("2026-01-01T00:00:00.000Z", SHA1, [make_record("a" * 16, "one")]), None
    )
    publish(
        root,
        publication("2026-01-02T00:00:00.000Z", SHA2, [make_record("a" * 16, "two", SHA2)]),
        load_previous(root),
    )
    outside = tmp_path / "kept.json"
    os.link(tmp_path / "acme" / ".big.spare" / "records" / ("a" * 16 + ".json"), outside)
    before = outside.read_bytes()
    publish(
        root,
        publication("2026-01-03T00:00:00.000Z", SHA1, [make_record("a" * 16, "three")]),
        load_previous(root),
    )

    assert outside.read_bytes() == before
    assert (
        json.loads((root / "records" / ("a" * 16 + ".json")).read_text())["record"]["errorMessage"]
        == "three"
    )


def test_record_files_keep_the_seed_layout(tmp_path: Path) -> None:
    root = tmp_path / "acme" / "big"
    publish(root, publication("2026-01-01T00:00:00.000Z", SHA1, [make_record("a" * 16, "é")]), None)
    text = (root / "records" / ("a" * 16 + ".json")).read_text("utf-8")
    assert text.startswith('{"record":{"id":"aaaaaaaaaaaaaaaa","repo":"acme/big","slug"')
    assert text.rstrip().endswith('"datasetVersion":"2026-01-01T00:00:00.000Z"}')
    assert '"errorMessage":"é"' in text  # UTF-8, not \u escapes


def test_write_atomic_replaces_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "d" / "f.json"
    write_atomic(target, b"one")
    write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["f.json"]


def test_recover_puts_back_a_dataset_left_aside_and_drops_staging(tmp_path: Path) -> None:
    root = tmp_path / "acme" / "big"
    publish(root, publication("2026-01-01T00:00:00.000Z", SHA1, [make_record("a" * 16, "x")]), None)
    # What the two-rename fallback leaves if killed between its renames:
    os.rename(root, root.parent / ".big.staging-dead.old")
    (root.parent / ".big.staging-next").mkdir()
    previous = load_previous(root)
    assert previous is not None and previous.version == "2026-01-01T00:00:00.000Z"
    assert assert_whole(root) == "2026-01-01T00:00:00.000Z"
    assert live_entries(root.parent) == ["big"]


def test_publish_carries_other_files_of_the_dataset_over(tmp_path: Path) -> None:
    root = tmp_path / "acme" / "big"
    publish(root, publication("2026-01-01T00:00:00.000Z", SHA1, [make_record("a" * 16, "x")]), None)
    (root / "state").mkdir()
    (root / "state" / "journal.json").write_text("{}")
    publish(root, publication("2026-01-02T00:00:00.000Z", SHA2, []), load_previous(root))
    assert (root / "state" / "journal.json").read_text() == "{}"
    assert assert_whole(root) == "2026-01-02T00:00:00.000Z"
    assert len(list((root / "versions").iterdir())) == 2


def test_a_manifest_from_a_newer_errdoc_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "acme" / "big"
    publish(root, publication("2026-01-01T00:00:00.000Z", SHA1, [make_record("a" * 16, "x")]), None)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["format"] = 99
    (root / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(StoreError, match="upgrade errdoc"):
        read_manifest(root)


# --- crashes through the real CLI ---------------------------------------------------------------

FILES, FNS = 60, 12


def _module(index: int, generation: int) -> str:
    return "".join(
        f"pub fn f{j}(x: u32) -> anyhow::Result<()> {{\n"
        f"    if x > {j} {{\n"
        f'        bail!("gen {generation} module {index} check {j} failed for {{x}}");\n'
        "    }\n"
        "    Ok(())\n"
        "}\n"
        for j in range(FNS)
    )


def _commit_generation(repo: GitRepo, generation: int) -> str:
    return repo.commit({f"src/m{i % 8}/f{i}.rs": _module(i, generation) for i in range(FILES)})


def _extract(
    source: Path, out: Path, sha: str, cache: Path, *extra: str
) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ERRDOC_CACHE": str(cache)}
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline", "extract", "--repo", REPO, "--sha", sha,
         "--source", str(source), "--out", str(out), *extra],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


def test_a_kill_at_any_moment_leaves_one_whole_version(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    first = _commit_generation(repo, 1)
    second = _commit_generation(repo, 2)
    out = tmp_path / "out"
    root = out / "acme" / "big"

    started = time.monotonic()
    proc = _extract(repo.path, out, first, tmp_path / "cache-0")
    assert proc.wait(60) == 0, proc.stderr.read() if proc.stderr else b""
    duration = time.monotonic() - started
    versions = {assert_whole(root)}

    rng = random.Random()
    seed = rng.randrange(1 << 30)
    rng.seed(seed)
    for attempt in range(5):
        # a fresh cache each time, so that every attempt takes as long as the first
        proc = _extract(repo.path, out, second, tmp_path / f"cache-{attempt + 1}")
        delay = rng.uniform(0.2, 1.0) * duration
        try:
            proc.wait(delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
        if proc.stderr:
            proc.stderr.close()
        versions.add(assert_whole(root))  # the raw state, before any recovery
        sha = json.loads((root / "manifest.json").read_text())["sha"]
        assert sha in (first, second), f"seed {seed}"

    # --force: an attempt that finished already published `second`
    proc = _extract(repo.path, out, second, tmp_path / "cache-final", "--force")
    assert proc.wait(60) == 0, proc.stderr.read() if proc.stderr else b""
    assert assert_whole(root) not in versions
    data: dict[str, Any] = json.loads((root / "manifest.json").read_text())
    assert data["sha"] == second
    assert data["counts"]["records"] == FILES * FNS
    for entry in data["versions"]:
        assert read_version(root, entry["datasetVersion"])  # every published version readable
    assert live_entries(root.parent) == ["big"]  # no staging left


_CRASH = """
import os, signal, sys
import pipeline.dataset.atomicdir as atomicdir

point = sys.argv[1]
real_swap, real_rename = atomicdir.swap_in, os.rename
renames = []

def die():
    os.kill(os.getpid(), signal.SIGKILL)

def swap(staged, live):
    if point == "before-exchange":
        die()
    real_swap(staged, live)
    if point == "after-exchange":
        die()

def rename(a, b):
    renames.append(a)
    if point == "between-fallback-renames" and len(renames) == 2:
        die()
    real_rename(a, b)

atomicdir.swap_in = swap
if point == "between-fallback-renames":  # a kernel without renameat2
    atomicdir.exchange = lambda a, b: False
    atomicdir.os.rename = rename
from pipeline.cli import main
main(sys.argv[2:])
"""


@pytest.mark.parametrize("point", ["before-exchange", "after-exchange", "between-fallback-renames"])
def test_a_crash_at_each_step_of_publishing(tmp_path: Path, point: str) -> None:
    """Killed at each step that moves files into place, the dataset is one whole version."""
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({"src/lib.rs": 'fn f() -> anyhow::Result<()> { bail!("first message") }\n'})
    out = tmp_path / "out"
    args = ["extract", "--repo", REPO, "--sha", "main", "--source", str(repo.path),
            "--out", str(out)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, env=env, check=True)
    root = out / "acme" / "big"
    before = assert_whole(root)
    repo.commit({"src/lib.rs": 'fn f() -> anyhow::Result<()> { bail!("second message") }\n'})
    crashed = subprocess.run([sys.executable, "-c", _CRASH, point, *args], cwd=ROOT, env=env)
    assert crashed.returncode == -signal.SIGKILL
    previous = load_previous(root)  # what the next run sees, after its recovery
    assert previous is not None
    after = assert_whole(root)
    assert (after == before) == (point != "after-exchange")
    assert previous.version == after
    assert live_entries(root.parent) == ["big"]
    rerun = subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, env=env)
    assert rerun.returncode == 0
    assert "second message" in (root / "records.jsonl").read_text()


def test_the_writer_lock_survives_a_publish(tmp_path: Path) -> None:
    """Publishing exchanges the dataset directory; `.lock` must stay the inode the writer holds."""
    root = tmp_path / "acme" / "big"
    publish(root, publication("2026-01-01T00:00:00.000Z", SHA1, [make_record("a" * 16, "x")]), None)
    with exclusive(root / ".lock", str(root)):
        publish(root, publication("2026-01-02T00:00:00.000Z", SHA2, []), load_previous(root))
        with pytest.raises(LockedError), exclusive(root / ".lock", str(root)):
            pass


def test_a_killed_writer_s_lock_is_not_kept_by_its_parser_processes(tmp_path: Path) -> None:
    """The scan forks parser processes while the lock is held; they must not inherit it."""
    lock = tmp_path / ".lock"
    script = f"""
import os, sys, time
from pathlib import Path
from pipeline.dataset.lock import exclusive
ready, told = os.pipe()
with exclusive(Path({str(lock)!r}), "x"):
    if os.fork() == 0:  # a parser process, still busy when its parent dies
        os.write(told, b"1")  # the fork hooks have run: what they dropped is dropped
        time.sleep(30)
        os._exit(0)
    os.read(ready, 1)  # under load the child may not have run yet when the parent is killed
    print("locked", flush=True)
    time.sleep(30)
"""
    holder = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
        with pytest.raises(LockedError), exclusive(lock, "x"):
            pass
        holder.kill()
        holder.wait(10)
        with exclusive(lock, "x"):  # the child still runs, but holds no lock
            pass
    finally:
        os.killpg(holder.pid, signal.SIGKILL)


@pytest.mark.parametrize(
    "message",
    [
        "plain",
        "naïve café ☃",
        "tab\there\nnewline",
        "ctrl \x1b[31m red",
        'quote " and \\ slash /',
        "\u2028 sep",
    ],
)
def test_record_files_are_the_json_module_s_compact_form(tmp_path: Path, message: str) -> None:
    record = make_record("e" * 16, message)
    expected = json.dumps(
        {"record": record.model_dump(mode="json"), "datasetVersion": "2026-01-01T00:00:00.000Z"},
        ensure_ascii=False,
        separators=(",", ":"),
    )
    assert record_json(record, "2026-01-01T00:00:00.000Z") == (expected + "\n").encode("utf-8")


@pytest.mark.parametrize(
    "value",
    ["src/plain.rs", 'src/a "quoted" \\ path.rs', "src/é/ünï.rs", "tab\there", None],
)
def test_a_field_read_from_a_record_line_is_what_json_decoding_gives(value: str | None) -> None:
    line = json.dumps({"id": "a" * 16, "filePath": value, "x": 1}, separators=(",", ":"))
    assert line_field(line, "filePath") == value
    ascii_line = json.dumps({"id": "a" * 16, "filePath": value}, ensure_ascii=True)
    assert line_field(ascii_line.replace(": ", ":").replace(", ", ","), "filePath") == value


@pytest.mark.parametrize("value", [1, 978, 120000, -3])
def test_an_integer_field_read_from_a_record_line_is_the_integer(value: int) -> None:
    line = json.dumps(
        {"id": "a" * 16, "message": '"lineNumber":7', "lineNumber": value, "x": 1.5},
        separators=(",", ":"),
    )
    assert line_field(line, "lineNumber") == value
    # the quoted key inside the message is no key; a float is no field it reads
    with pytest.raises(StoreError):
        line_field(line.replace(f'"lineNumber":{value}', '"lineNumber":1.5'), "lineNumber")


def _children(pid: int) -> set[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return set()
    return {int(p) for p in text.split()}


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has ended; only its parent's reaping is left


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_a_killed_run_leaves_no_worker_process_behind(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = _commit_generation(repo, 1)
    proc = _extract(repo.path, tmp_path / "out", sha, tmp_path / "cache", "--jobs", "2")
    workers: set[int] = set()
    deadline = time.monotonic() + 30
    while not workers and proc.poll() is None and time.monotonic() < deadline:
        workers = {p for p in _children(proc.pid) if "pipeline" in _cmdline(p)}
        time.sleep(0.002)
    assert workers, "the run ended before its pool started"
    assert not _left_alive_after_kill(proc, workers)


def _left_alive_after_kill(proc: subprocess.Popen[bytes], pids: set[int]) -> list[int]:
    """SIGKILL the run, then the processes among `pids` still alive 10 s later."""
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    if proc.stderr:
        proc.stderr.close()
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_reach_json_is_valid_json_with_one_record_per_line() -> None:
    from pipeline.dataset.store import compact_json, reach_file

    def file_of(document: dict[str, Any]) -> bytes:
        head = {k: v for k, v in document.items() if k != "records"}
        return reach_file(head, {rid: compact_json(r) for rid, r in document["records"].items()})

    document = {"format": 1, "sha": "x", "records": {"b": {"p": [1]}, "a": {"q": "é\n"}}}
    body = file_of(document)
    assert json.loads(body) == document
    lines = body.decode().splitlines()
    assert lines[1:3] == ['"a":{"q":"é\\n"},', '"b":{"p":[1]}']  # sorted, one per line
    assert json.loads(file_of({"records": {}})) == {"records": {}}


def test_reach_json_given_later_is_taken_after_the_records_are_staged(tmp_path: Path) -> None:
    """The index child makes `reach.json` while the run stages the records: the document is
    asked for last, once; when it fails (the child died), the live dataset stays whole and
    no staging tree is left behind."""
    root = tmp_path / "acme" / "big"
    publish(
        root, publication("2026-01-01T00:00:00.000Z", SHA1, [make_record("a" * 16, "one")]), None
    )
    previous = load_previous(root)
    staged_when_asked: list[bool] = []

    def document() -> bytes:
        staging = [p for p in root.parent.iterdir() if ".staging-" in p.name]
        staged_when_asked.append(bool(staging) and (staging[0] / "records.jsonl").exists())
        return b'{"records":{}}\n'

    second = dataclasses.replace(
        publication("2026-01-02T00:00:00.000Z", SHA2, [make_record("c" * 16, "three", SHA2)]),
        reach=document,
    )
    publish(root, second, previous)
    assert staged_when_asked == [True]
    assert (root / "reach.json").read_bytes() == b'{"records":{}}\n'

    def died() -> bytes:
        raise RuntimeError("the repository index died (killed by signal 9)")

    before = (root / "manifest.json").read_bytes()
    third = dataclasses.replace(
        publication("2026-01-03T00:00:00.000Z", SHA2, [make_record("d" * 16, "four", SHA2)]),
        reach=died,
    )
    with pytest.raises(RuntimeError, match="index died"):
        publish(root, third, load_previous(root))
    assert (root / "manifest.json").read_bytes() == before
    assert assert_whole(root) == "2026-01-02T00:00:00.000Z"
    assert live_entries(root.parent) == ["big"]  # no staging left
    assert not (root / "versions" / "2026-01-03T00:00:00.000Z.jsonl.gz").exists()
