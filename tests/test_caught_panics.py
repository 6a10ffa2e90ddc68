"""A panic the way down to which runs inside `catch_unwind`, a spawned task, or a thread its
caller joins does not end the caller: meilisearch's batch thread makes a failed task of
it, and its records said "a panic returns no error" (reading 311, 4 F). The index keeps
such calls (`FileIndex.scopes`); the reach names the one on the best path nearest the
panic (`Reach.caught_by`), and the documentation says what becomes of the panic there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_reach import committed_and_extracted

JOBS = """\
pub fn run(jobs: Vec<u32>) -> u32 {
    match std::panic::catch_unwind(|| process(&jobs)) {
        Ok(n) => n,
        Err(_) => 0,
    }
}

fn process(jobs: &[u32]) -> u32 {
    if jobs.is_empty() {
        panic!("no jobs to process");
    }
    jobs.len() as u32
}

pub async fn search(q: String) -> Result<usize, tokio::task::JoinError> {
    tokio::task::spawn_blocking(move || perform(&q)).await
}

fn perform(q: &str) -> usize {
    q.find('x').expect("the query holds an x")
}

pub fn tick(jobs: Vec<u32>) {
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .spawn_scoped(s, || batch(&jobs))
            .unwrap();
        let _ = handle.join();
    });
}

fn batch(jobs: &[u32]) -> u32 {
    assert!(jobs.len() < 100, "the batch is too large");
    1
}

pub fn untied(jobs: Vec<u32>) -> String {
    std::thread::scope(|s| {
        s.spawn(|| lonely(&jobs));
    });
    ["a", "b"].join(",")
}

fn lonely(jobs: &[u32]) -> u32 {
    assert!(jobs.len() > 1, "a lonely job");
    1
}

pub fn start(q: String) {
    thread::spawn_named("reader", move || read_all(&q));
    thread::spawn_daemon(q.len());
}

fn read_all(q: &str) -> usize {
    q.find('y').expect("the reader's query holds a y")
}

pub mod thread {
    pub fn spawn_named<F: FnOnce() -> usize + Send + 'static>(name: &str, f: F) {
        let _ = std::thread::Builder::new().name(name.into()).spawn(f);
    }
    pub fn spawn_daemon(n: usize) {
        crate::count(n);
    }
}

pub fn count(n: usize) -> usize {
    assert!(n < 9, "too many daemons");
    n
}
"""


def _extracted(tmp_path: Path, message: str) -> tuple[dict[str, Any], dict[str, Any]]:
    files = {"Cargo.toml": '[package]\nname = "jobs"\n', "src/lib.rs": JOBS}
    _, record = committed_and_extracted(files, "o/jobs", tmp_path, message)
    reach = json.loads((tmp_path / "out" / "o" / "jobs" / "reach.json").read_text())
    return record, reach["records"][record["id"]]


def test_a_panic_under_catch_unwind_comes_back_as_an_err(tmp_path: Path) -> None:
    record, reach = _extracted(tmp_path, "no jobs to process")
    assert reach["caught_by"] == (
        "`run` calls `process` inside `catch_unwind(..)` (src/lib.rs:2), which gives the "
        "panic back to it as an `Err`"
    )
    assert (
        "A panic is no `Err` the caller can handle with `?`: it unwinds the thread or task it "
        "runs in. On the first caller path, `run` calls `process` inside "
        "`catch_unwind(..)` (src/lib.rs:2), which gives the panic back to it as an `Err`, "
        'and the process goes on unless the build sets `panic = "abort"`.'
    ) in record["documentation"]
    assert "that thread or task ends" not in record["documentation"]


def test_a_panic_in_a_spawned_task_ends_that_task(tmp_path: Path) -> None:
    _, reach = _extracted(tmp_path, "the query holds an x")
    assert reach["caught_by"] == (
        "`search` runs `perform` in a task or thread of its own (`spawn_blocking`, "
        "src/lib.rs:16): the panic ends that one, and its handle gives an `Err` to whoever "
        "awaits or joins it"
    )


def test_a_thread_its_caller_joins_gives_the_panic_to_the_join(tmp_path: Path) -> None:
    _, reach = _extracted(tmp_path, "the batch is too large")
    assert reach["caught_by"] == (
        "`tick` runs `batch` on a thread of its own (`spawn_scoped`, src/lib.rs:25) and "
        "joins it at line 28: the panic ends that thread, and the join gives an `Err`"
    )


def test_a_scoped_thread_nobody_joins_catches_nothing(tmp_path: Path) -> None:
    # `std::thread::scope` panics in turn when a thread it joins itself panicked; a
    # slice's `join(",")` after it is no handle's
    record, reach = _extracted(tmp_path, "a lonely job")
    assert "caught_by" not in reach
    assert (
        "A panic is no `Err` the caller can handle with `?`: it unwinds the thread or task it "
        "runs in. A `catch_unwind(..)` around it, or the handle of that thread or task (its "
        "`join()`, an awaited `JoinHandle`), gives it back there as an error value; where "
        "nothing does, that thread or task ends, and the whole process with it when it is the "
        'main thread, a panic hook exits, or the build sets `panic = "abort"`.'
    ) in record["documentation"]


def test_a_fn_of_the_repository_named_spawn_given_a_closure_runs_it_apart(tmp_path: Path) -> None:
    # alacritty's `thread::spawn_named("PTY reader", move || ..)`: the panic ends the reader
    # thread, not the code that started it (reading 324)
    _, reach = _extracted(tmp_path, "the reader's query holds a y")
    assert reach["caught_by"] == (
        "`start` runs `read_all` in a task or thread of its own (`spawn_named`, "
        "src/lib.rs:50): the panic ends that one, and its handle gives an `Err` to whoever "
        "awaits or joins it"
    )


def test_a_fn_named_spawn_given_no_closure_runs_nothing_apart(tmp_path: Path) -> None:
    _, reach = _extracted(tmp_path, "too many daemons")
    assert "caught_by" not in reach
    assert [hop["name"] for hop in reach["paths"][0]["hops"]][:2] == ["start", "spawn_daemon"]
