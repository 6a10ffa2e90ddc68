"""A panic on a lock that returned an error (`self.vmm.lock().expect("Poisoned lock")`) says
what such an error is: std's `lock()`, `read()` and `write()` fail only when another thread
panicked while holding the lock, so the first panic, printed before this one, is the error
to read. Not `try_lock()` (it also fails while the lock is held), nor a `read()` that runs
something else (xshell's `cmd.read()`). Where the workspace's root sets `panic = "abort"`
(firecracker's dev and release profiles), a build of those profiles never shows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo
from regen_fixtures import cli
from site_fixtures import explained

from pipeline.languages.rust.cargo_targets import crate_map


@pytest.mark.parametrize(
    ("statement", "call"),
    [
        ('self.vmm.lock().expect("Poisoned lock")', "self.vmm.lock()"),  # firecracker
        ('STATE.lock().expect("state")', "STATE.lock()"),
        ('self.options.read().expect("write-lock holder panicked")', "self.options.read()"),
        ('self.cache_lock.write().expect("cache")', "self.cache_lock.write()"),
        # firecracker's PutMMDS: a chain's lock, its message says poisoned
        (
            'self.vm.get_mmds().ok_or(E::NoMmds)?.lock().expect("Poisoned lock")',
            "self.vm.get_mmds().ok_or(E::NoMmds)?.lock()",
        ),
    ],
)
def test_a_panic_on_a_poisoned_lock_points_at_the_first_panic(statement: str, call: str) -> None:
    explanation = explained(
        f"impl S {{\n    fn f(&self) {{\n        let _g = {statement};\n    }}\n}}\n"
    )
    assert explanation.solutions[-2] == (
        f"`{call}` returns an error only when the lock is poisoned: another thread panicked "
        "while it held the lock. That first panic, printed before this message (its message "
        "and where it happened), is the error to read; this one only follows from it."
    )
    assert explanation.solutions[-1].startswith("Fix what the first panic says")
    assert not any("assumed" in s for s in explanation.solutions)
    assert explanation.exampleFix is not None
    assert explanation.exampleFix.endswith(
        f"// A panic here follows an earlier panic of a thread that held `{call}`'s lock: "
        "read that first one."
    )
    assert explanation.preventionTips[0] == (
        "Find and fix the first panic of the run; this one only follows from it."
    )


@pytest.mark.parametrize(
    "statement",
    [
        # tikv's `Cluster::stop_node` (reading 150)
        "match self.sim.write() {\n    Ok(mut sim) => sim.stop_node(id),\n"
        '    Err(_) => panic!("failed to acquire write lock."),\n}',
        'if let Err(e) = self.sim.write() {\n    panic!("sim lock: {e}");\n}',
    ],
)
def test_a_panic_in_the_err_arm_of_a_lock_points_at_the_first_panic(statement: str) -> None:
    """Not "Concurrency conflict" nor "one writer at a time": the lock's error is its
    poisoning, an earlier panic's."""
    explanation = explained(f"impl S {{\n    fn f(&self, id: u64) {{\n{statement}\n    }}\n}}\n")
    assert any(
        s.startswith("`self.sim.write()` returns an error only when the lock is poisoned")
        for s in explanation.solutions
    )
    assert explanation.backgroundTag == "internal-invariant"


@pytest.mark.parametrize(
    "statement",
    [
        'self.vmm.try_lock().expect("busy")',  # fails while held, too
        'cmd.read().expect("Failed to determine host triple")',  # xshell runs a command
        'make_lock().lock().expect("x")',  # not a name or a field
    ],
)
def test_other_calls_are_not_read_as_a_poisoned_lock(statement: str) -> None:
    explanation = explained(
        f"impl S {{\n    fn f(&self) {{\n        let _g = {statement};\n    }}\n}}\n"
    )
    assert "poisoned" not in " ".join(explanation.solutions)


def test_the_profiles_that_abort_are_read_at_the_workspace_root() -> None:
    manifests = {
        "Cargo.toml": b'[workspace]\nmembers = ["a"]\n\n[profile.release]\npanic = "abort"\n'
        b'[profile.dev]\npanic = "abort"\n[profile.bench]\ndebug = true\n',
        "a/Cargo.toml": b'[package]\nname = "a"\n',
        "tools/x/Cargo.toml": b'[package]\nname = "x"\n[profile.release]\npanic = "unwind"\n',
    }
    names = crate_map(manifests, ["a/src/lib.rs", "tools/x/src/main.rs"])
    assert names.aborting_profiles("a/src/lib.rs") == ("dev", "release")
    assert names.aborting_profiles("tools/x/src/main.rs") == ()  # a root of its own
    assert (
        crate_map({"Cargo.toml": b'[package]\nname = "b"\n'}, []).aborting_profiles("src/lib.rs")
        == ()
    )


def test_a_poisoned_lock_in_a_workspace_that_aborts_is_said_never_to_show(
    tmp_path: Path,
) -> None:
    repo = GitRepo.init(tmp_path / "src")
    sha = repo.commit(
        {
            "Cargo.toml": '[package]\nname = "vmm"\n\n[profile.release]\npanic = "abort"\n',
            "src/lib.rs": (
                "pub fn f(vmm: &std::sync::Mutex<u8>) {\n"
                '    let _g = vmm.lock().expect("Poisoned lock");\n}\n'
            ),
        }
    )
    out = tmp_path / "out"
    done = cli("extract", "--repo", "o/vmm", "--sha", sha, "--source", repo.path, "--out", out,
               "--cache", tmp_path / "cache", "--jobs", "1")  # fmt: skip
    assert done.exit_code == 0, done.output
    (record,) = map(json.loads, (out / "o" / "vmm" / "records.jsonl").read_text().splitlines())
    assert (
        "`vmm.lock()` returns an error only when the lock is poisoned: another thread panicked "
        'while it held the lock. This repository\'s workspace sets `panic = "abort"` in its '
        "`release` profile, so the programs it builds that way end at that first panic and "
        "never print this message; a build that unwinds (the default, and every test) prints "
        "it after the first panic, which comes before it and is the error to read."
    ) in record["solutions"]
    only = (
        "Only a build that unwinds on a panic gets here: this repository's workspace sets "
        '`panic = "abort"` in its `release` profile.'
    )
    assert only in record["triggerScenarios"]
    assert only in record["commonSituations"]
