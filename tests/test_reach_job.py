"""The index runs beside the run in a child process (`pipeline/dataset/reachjob.py`).

What a user sees is what an index in the run's own process gave: the same records and
`reach.json`; a failure of the child is the run's one-line error, the dataset untouched;
no index process outlives a run, killed or not.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from gitrepo import GitRepo
from test_store import _children, _cmdline, _left_alive_after_kill

from pipeline.analyze.static import explain
from pipeline.core.reach import Reach, reach_to_json
from pipeline.dataset.extract import run_extract
from pipeline.dataset.reachjob import IndexFailed, ReachJob, Unlisted
from pipeline.languages import INDEX_VERSION
from pipeline.scan.callerpaths import attach, spec_of
from pipeline.scan.callgraph import MAX_DISPATCH, CallGraph
from pipeline.scan.collect import ExtractRequest, build_contexts, locate, scan_entries
from pipeline.scan.linkmemo import load_memo, memo_path
from pipeline.scan.reachstage import index_graph
from pipeline.source.repository import TreeEntry, list_files

ROOT = Path(__file__).parent.parent
REPO = "acme/svc"

FILES = 40


def _source(index: int) -> str:
    """A module whose fns call the next module's (a chain to `main`), each with a site."""
    callee = f"crate::m{index + 1}::step" if index + 1 < FILES else "finish"
    return (
        f"pub fn step(x: u32) -> anyhow::Result<()> {{\n"
        f"    if x > {index} {{\n"
        f'        anyhow::bail!("step {index} refused {{x}}");\n'
        "    }\n"
        f"    {callee}(x)\n"
        "}\n"
        "fn finish(x: u32) -> anyhow::Result<()> {\n"
        f'    anyhow::ensure!(x != 7, "seven in module {index}");\n'
        "    Ok(())\n"
        "}\n"
    )


def _repo(path: Path) -> tuple[GitRepo, str]:
    repo = GitRepo.init(path)
    files = {f"src/m{i}.rs": _source(i) for i in range(FILES)}
    files["src/main.rs"] = "".join(f"mod m{i};\n" for i in range(FILES)) + (
        "fn main() -> anyhow::Result<()> {\n    m0::step(3)\n}\n"
    )
    return repo, repo.commit(files)


def _request(tmp_path: Path, repo: GitRepo, sha: str) -> ExtractRequest:
    return ExtractRequest(
        repo=REPO, rev=sha, out=tmp_path / "out", cache_dir=tmp_path / "cache",
        source=str(repo.path),
    )  # fmt: skip


def _cli(*args: str, cache: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ERRDOC_CACHE": str(cache)}
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline", *args],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip


@pytest.mark.parametrize("in_place", [False, True], ids=["sent", "written-in-place"])
def test_the_child_gives_the_reach_and_reach_json_an_in_process_index_gives(
    tmp_path: Path, in_place: bool
) -> None:
    """`reach.json` comes as bytes, or, told where, the child writes it there itself and
    sends none (the run's staged directory: 21 MB on risingwave not piped)."""
    repo, sha = _repo(tmp_path / "src")
    request = _request(tmp_path, repo, sha)
    git_dir, _, listing = locate(request, None)
    scanned = scan_entries(request, git_dir, listing)
    contexts = build_contexts(REPO, sha, scanned, None, ())
    assert len(contexts) == 2 * FILES
    into = tmp_path / "staged" / "reach.json" if in_place else None
    if into is not None:
        into.parent.mkdir()

    job = ReachJob.start(git_dir, listing.entries, tmp_path / "cache-child", 2)
    assert job is not None
    try:
        job.send([spec_of(c) for c in contexts], [], sha, into)
        reached = job.wait()
        sent = reached.document()
    finally:
        job.close()
    assert (sent is None) == in_place
    document = json.loads(into.read_bytes() if into is not None else sent or b"")
    graph = index_graph(git_dir, listing.entries, tmp_path / "cache-here", 1)
    assert graph is not None
    here = attach(contexts, graph)

    assert {c.record_id: c.reach for c in here if c.reach} == reached.reaches
    assert document["sha"] == sha and document["index"] == INDEX_VERSION
    assert document["records"] == {
        c.record_id: reach_to_json(c.reach) for c in here if c.reach is not None
    }
    # module 2's refusal is reached from `main` through modules 0 and 1
    refusal = next(c for c in here if "step 2 refused" in c.site.message)
    assert refusal.reach is not None and refusal.reach.paths[0].entry == "main"
    hops = [(h.name, h.file_path) for h in refusal.reach.paths[0].hops]
    assert hops == [("main", "src/main.rs"), ("m0::step", "src/m0.rs"),
                    ("m1::step", "src/m1.rs"), ("m2::step", "src/m2.rs")]  # fmt: skip


def test_a_child_told_only_the_commit_lists_its_files_itself(tmp_path: Path) -> None:
    """Started before the run has listed anything (`Unlisted`), the child indexes every
    source file but the excluded ones, as the run's own listing would give it: the same
    paths as a child given the entries, a path through an excluded module gone."""
    repo, sha = _repo(tmp_path / "src")
    request = _request(tmp_path, repo, sha)
    git_dir, _, listing = locate(request, None)
    contexts = build_contexts(REPO, sha, scan_entries(request, git_dir, listing), None, ())
    specs = [spec_of(c) for c in contexts]

    def reaches(entries: Sequence[TreeEntry] | Unlisted, cache: str) -> dict[str, Reach]:
        job = ReachJob.start(git_dir, entries, tmp_path / cache, 2)
        assert job is not None
        try:
            job.send(specs, [], sha)
            return dict(job.wait().reaches)
        finally:
            job.close()

    given = reaches(listing.entries, "cache-given")
    assert reaches(Unlisted(sha), "cache-unlisted") == given
    refusal = next(c.record_id for c in contexts if "step 2 refused" in c.site.message)
    assert [h.name for h in given[refusal].paths[0].hops] == [
        "main", "m0::step", "m1::step", "m2::step"
    ]  # fmt: skip
    # without module 1, module 2's refusal has no path left to `main`
    without = reaches(Unlisted(sha, ("src/m1.rs",)), "cache-excluded")
    assert given[refusal].paths and not without[refusal].paths


def test_an_index_child_that_dies_is_one_clear_error(tmp_path: Path) -> None:
    repo, sha = _repo(tmp_path / "src")
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    job = ReachJob.start(repo.git_dir, listing.entries, tmp_path / "cache", 1)
    assert job is not None
    try:
        # nothing sent: the child, graph built, waits for the sites; it is killed there
        os.kill(job._process.pid, signal.SIGKILL)
        with pytest.raises(IndexFailed, match=r"index died.*ERRDOC_NO_INDEX=1"):
            job.wait()
    finally:
        job.close()


def test_an_index_that_fails_fails_the_run_in_one_line_and_keeps_the_dataset(
    tmp_path: Path,
) -> None:
    repo, sha = _repo(tmp_path / "src")
    out, cache = tmp_path / "out", tmp_path / "cache"
    first = _cli("extract", "--repo", REPO, "--sha", sha, "--source", str(repo.path),
                 "--out", str(out), cache=cache)  # fmt: skip
    assert first.wait(120) == 0
    manifest = (out / REPO / "manifest.json").read_bytes()
    # the index's cache is unusable (a directory where its database goes): the child's
    # error comes back to the run, which says it in one line and publishes nothing
    for stale in cache.glob("index-v*.sqlite*"):
        stale.unlink()
    (cache / f"index-v{INDEX_VERSION}.sqlite").mkdir()
    second = _cli("extract", "--repo", REPO, "--sha", sha, "--source", str(repo.path),
                  "--out", str(out), "--force", cache=cache)  # fmt: skip
    assert second.wait(120) == 1
    assert second.stderr is not None
    lines = second.stderr.read().decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("errdoc: error: cannot use the cache")
    assert (out / REPO / "manifest.json").read_bytes() == manifest
    # the next version's directory, staged while the index ran, is gone with the run
    assert not list((out / REPO).parent.glob(".*staging*"))


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            text = Path(f"/proc/{current}/task/{current}/children").read_text()
        except OSError:
            continue
        for child in map(int, text.split()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_a_killed_run_leaves_no_index_process_behind(tmp_path: Path) -> None:
    repo, sha = _repo(tmp_path / "src")
    proc = _cli("extract", "--repo", REPO, "--sha", sha, "--source", str(repo.path),
                "--out", str(tmp_path / "out"), "--jobs", "2", cache=tmp_path / "cache")  # fmt: skip
    seen: set[int] = set()
    deadline = time.monotonic() + 30
    # the index child and its pool: grandchildren of the run that are Python processes
    while proc.poll() is None and time.monotonic() < deadline:
        family = _descendants(proc.pid)
        seen |= family
        if any(p not in _children(proc.pid) and "pipeline" in _cmdline(p) for p in family):
            break
        time.sleep(0.002)
    assert proc.poll() is None, "the run ended before its index pool started"
    assert not _left_alive_after_kill(proc, seen)


def test_static_text_made_before_the_reach_came_is_the_text_made_with_it(
    tmp_path: Path,
) -> None:
    """The run explains while the index finishes and adds the reach's sentences after."""
    repo, sha = _repo(tmp_path / "src")
    request = _request(tmp_path, repo, sha)
    result = run_extract(request)
    records = {
        r["id"]: r
        for r in map(json.loads, (result.root / "records.jsonl").read_text().splitlines())
    }
    git_dir, _, listing = locate(request, None)
    contexts = build_contexts(REPO, sha, scan_entries(request, git_dir, listing), None, ())
    graph = index_graph(git_dir, listing.entries, tmp_path / "cache-here", 1)
    assert graph is not None
    named_main = from_main = 0
    for context in attach(contexts, graph):
        made = explain(context)
        record = records[context.record_id]
        assert record["triggerScenarios"] == made.triggerScenarios
        assert record["commonSituations"] == made.commonSituations
        named_main += "(fn main)" in record["triggerScenarios"]
        paths = context.reach.paths if context.reach else ()
        beyond = paths[0].beyond if paths else None
        from_main += bool(paths) and "main" in (paths[0].entry, beyond and beyond.entry)
    # the sentences are there, not equal by being absent: each path from `main` is named
    # (or, past the depth limit, the way in from `main` further up)
    assert named_main == from_main > 0


def test_paths_found_in_parallel_parts_are_the_paths_found_in_one(tmp_path: Path) -> None:
    from pipeline.dataset.reachjob import _reaches_in_parts, _rows_in_parts, _rows_of

    repo, sha = _repo(tmp_path / "src")
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    request = _request(tmp_path, repo, sha)
    contexts = build_contexts(REPO, sha, scan_entries(request, repo.git_dir, listing), None, ())
    graph = index_graph(repo.git_dir, listing.entries, tmp_path / "cache", 1)
    assert graph is not None
    specs = [spec_of(c) for c in contexts]
    alone = _rows_of(graph, specs, {})
    reaches = {c.record_id: c.reach for c in attach(contexts, graph) if c.reach is not None}
    assert len(alone) == len(reaches) == len(specs)
    assert alone == {rid: json_text(reach_to_json(reach)) for rid, reach in reaches.items()}
    half = dict(list(reaches.items())[: len(reaches) // 2])  # found already: only encoded
    rest = [spec for spec in specs if spec.record_id not in half]
    for parts in (2, 3):
        assert _rows_in_parts(graph, specs, parts, minimum=0) == alone
        assert _rows_in_parts(graph, rest, parts, half, minimum=0) == alone
        assert _reaches_in_parts(graph, specs, parts, minimum=0) == reaches


def json_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_calls_resolved_in_parallel_parts_make_the_graph_one_process_makes(
    tmp_path: Path,
) -> None:
    from pipeline.scan import callgraph
    from pipeline.scan.entrypoints import build_graph
    from pipeline.scan.indexcache import index_entries

    repo, sha = _repo(tmp_path / "src")
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    indexes = index_entries(repo.git_dir, listing.entries, tmp_path / "cache", jobs=1)
    alone = build_graph(indexes, jobs=1)
    edges = {k: v for k, v in alone.callers.items() if v}
    assert sum(len(v) for v in edges.values()) >= FILES  # every module's step is called
    limit = callgraph.PARALLEL_FILES
    try:
        callgraph.PARALLEL_FILES = 0  # the 41 files of this repository in 2 and 3 parts
        for jobs in (2, 3):
            parted = build_graph(indexes, jobs=jobs)
            assert {k: v for k, v in parted.callers.items() if v} == edges
            assert parted.entries == alone.entries
    finally:
        callgraph.PARALLEL_FILES = limit


def test_parts_are_even_in_weight_and_keep_their_order() -> None:
    from pipeline.scan.forked import balanced

    weights = {"a": 90, "b": 10, "c": 10, "d": 40, "e": 40, "f": 5}
    shares = balanced(list(weights), weights.__getitem__, 2)
    assert shares == [["a", "c"], ["b", "d", "e", "f"]]  # 100 and 95, not 110 against 85
    assert balanced(["x"], lambda _: 1, 3) == [["x"]]  # never an empty part
    # shares that already weigh something: as many as given, the light one filled first
    assert balanced(["x", "y"], lambda _: 1, 2, [5, 0]) == [[], ["x", "y"]]
    assert sorted(x for share in balanced(list(weights), lambda _: 0, 3) for x in share) == sorted(
        weights
    )


def test_with_one_job_the_index_waits_for_the_run_s_sites(tmp_path: Path) -> None:
    """`--jobs 1` is one thing at a time: the child reads nothing before the run has scanned."""
    repo, sha = _repo(tmp_path / "src")
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    cache = tmp_path / "cache"
    job = ReachJob.start(repo.git_dir, listing.entries, cache, 1)
    assert job is not None
    try:
        time.sleep(1.0)  # time enough to index 41 small files, had it started
        assert not list(cache.glob("index-v*.sqlite"))
        job.send([], [], sha)
        reached = job.wait()
        document = reached.document()
    finally:
        job.close()
    assert list(cache.glob("index-v*.sqlite")) and reached.reaches == {}
    assert json.loads(document)["records"] == {}


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
def test_the_child_keeps_its_link_before_it_is_done_and_close_leaves_its_teardown_to_a_thread(
    tmp_path: Path,
) -> None:
    """The link memo is kept before the child says it is done, so a run that took the
    document and ends at once leaves it for the next run: a first run's once the document
    is sent (a fork beside its paths copies the pages they touch), a later run's by a fork
    beside its paths. A
    done child has only its exit left (freeing a large index took the run 0.15 s): `close`
    returns without waiting for it, and a thread reaps it."""
    repo, sha = _repo(tmp_path / "src")
    listing = list_files(repo.git_dir, sha, suffixes=(".rs",))
    cache = tmp_path / "cache"
    job = ReachJob.start(repo.git_dir, listing.entries, cache, 2, repo=REPO)
    assert job is not None
    try:
        job.send([], [], sha)
        assert job.wait().document() is not None
    finally:
        job.close()
    assert job._finished.is_set()
    memo = load_memo(memo_path(cache, REPO, INDEX_VERSION), INDEX_VERSION, MAX_DISPATCH)
    assert memo is not None and memo.blobs == {e.path: e.blob_sha for e in listing.entries}
    pid, deadline = job._process.pid, time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.01)  # a zombie stays in /proc until it is reaped
    assert not Path(f"/proc/{pid}").exists()
    from pipeline.dataset.reachjob import _link_saver

    assert _link_saver(cache, REPO, CallGraph())[1]  # the next run keeps it beside its paths
    assert not _link_saver(tmp_path / "elsewhere", REPO, CallGraph())[1]


def test_work_kept_for_a_later_run_takes_only_the_cpu_this_run_leaves_idle(
    tmp_path: Path,
) -> None:
    """The memos a run keeps for the next one (its link, its walks) are written by forks at
    the lowest priority: on a busy machine they wait for idle CPU instead of slowing the
    paths and the explaining this run waits for. Other forks run at the run's priority."""
    from pipeline.dataset.reachjob import _keeping
    from pipeline.scan.forked import start_forked

    def niceness_into(path: Path) -> Callable[[], None]:
        return lambda: path.write_text(str(os.nice(0)))

    own = os.nice(0)
    wait_for_kept = _keeping(niceness_into(tmp_path / "kept"), jobs=2)  # as the child keeps
    plain = start_forked(niceness_into(tmp_path / "plain"))
    wait_for_kept()
    plain.join(10)
    assert int((tmp_path / "kept").read_text()) == 19
    assert int((tmp_path / "plain").read_text()) == own
