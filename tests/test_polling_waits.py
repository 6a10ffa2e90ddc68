"""A panic past a loop that polls, sleeping between tries, and returns once what it waits
for holds: the wait ran out. tikv's `must_peer_state` read "Internal invariant violated",
"This is a bug", and "No `if` .. decides whether this site runs" (reading 241)."""

from __future__ import annotations

from site_fixtures import explained_all

from pipeline.languages.rust.sites import find_sites

CLUSTER = """\
pub struct Cluster;
impl Cluster {
    pub fn must_peer_state(&self, region_id: u64) {
        for _ in 0..100 {
            if self.state(region_id) == 1 {
                return;
            }
            sleep_ms(10);
        }
        panic!("[region {}] peer state still not reach tombstone", region_id);
    }
    pub fn must_region_exist(&self, region_id: u64) {
        let mut try_cnt = 0;
        loop {
            if self.state(region_id) == 2 {
                return;
            }
            if try_cnt > 250 {
                panic!("region {} does not exist after {} tries", region_id, try_cnt);
            }
            if self.state(region_id) == 9 {
                panic!("region {} answered with a broken state", region_id);
            }
            try_cnt += 1;
            sleep_ms(20);
        }
    }
    pub fn must_once(&self, region_id: u64) {
        for _ in 0..3 {
            if self.state(region_id) == 1 {
                return;
            }
        }
        panic!("region {} never answered one", region_id);
    }
    pub fn activate(&self, mut left: Vec<u64>) -> u64 {
        while !left.is_empty() {
            left.pop();
            if left.len() > 9 {
                return 0;
            }
            sleep_ms(250);
        }
        panic!("all shards replied but none said zero");
    }
    pub fn retry(&self, max: u64) -> u64 {
        for attempt in 0..max {
            if self.state(attempt) == 1 {
                return attempt;
            }
            sleep_ms(10);
        }
        panic!("retry loop should always return before this");
    }
    pub fn list(&self, max: u64) -> anyhow::Result<u64> {
        for trial in 0..max {
            if self.state(trial) == 1 {
                return Ok(trial);
            }
            if trial == max - 1 {
                return Err(anyhow::anyhow!("failed to list {max} times"));
            }
            sleep_ms(10);
        }
        panic!("MAX_RETRIES is not allowed to be 0");
    }
    fn state(&self, r: u64) -> u64 { r }
}
"""


def test_a_site_past_a_polling_loop_or_under_its_count_of_tries_is_after_a_wait() -> None:
    waited = {s.message: s.facts.waited for s in find_sites("src/c.rs", CLUSTER.encode()).sites}
    assert waited == {
        "[region {}] peer state still not reach tombstone": "for _ in 0..100",
        "region {} does not exist after {} tries": "loop",
        "region {} answered with a broken state": None,  # a try's own failure
        "region {} never answered one": None,  # no sleep between tries: no wait
        "all shards replied but none said zero": None,  # it waited until all came
        "retry loop should always return before this": "for attempt in 0..max",
        "MAX_RETRIES is not allowed to be 0": None,  # its last try returns the error
        "failed to list {max} times": None,  # the last try's own error, returned
    }


def test_a_wait_that_ran_out_is_a_timeout_not_a_bug() -> None:
    found = explained_all(CLUSTER)["[region {}] peer state still not reach tombstone"]
    assert "Class: Timeout." in found.documentation
    assert found.triggerScenarios.startswith(
        "`for _ in 0..100` tries again, sleeping between tries, and returns once what it waits"
        " for holds: this site runs when the wait ran out without it."
    )
    said = " ".join(found.solutions) + found.exampleFix
    assert "is a bug" not in said and "sleeping between tries" in said


def test_a_message_that_states_what_must_hold_keeps_its_class() -> None:
    # greptimedb's "retry loop should always return": the loop's last try returns
    found = explained_all(CLUSTER)["retry loop should always return before this"]
    assert "Class: Timeout." not in found.documentation
