"""A panic on a lock that returned an error (`self.vmm.lock().expect("Poisoned lock")`) says
what such an error is: std's `lock()`, `read()` and `write()` fail only when another thread
panicked while holding the lock, so the first panic, printed before this one, is the error
to read. Not `try_lock()` (it also fails while the lock is held), nor a `read()` that runs
something else (xshell's `cmd.read()`)."""

from __future__ import annotations

import pytest
from site_fixtures import explained


@pytest.mark.parametrize(
    ("statement", "call"),
    [
        ('self.vmm.lock().expect("Poisoned lock")', "self.vmm.lock()"),  # firecracker
        ('STATE.lock().expect("state")', "STATE.lock()"),
        ('self.options.read().expect("write-lock holder panicked")', "self.options.read()"),
        ('self.cache_lock.write().expect("cache")', "self.cache_lock.write()"),
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
