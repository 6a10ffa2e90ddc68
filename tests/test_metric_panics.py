"""`register_int_counter!("name", "help").expect("failed to define a metric")`: prometheus's
`register_*!` macros give an `Err` only for a definition the registry refuses or a name it
holds already, the code's own definition: a bug, no step of the environment's. neon's 212
such records read "Operation failed" and "if that step depends on your environment or
input .. make it possible there" (reading 191)."""

from __future__ import annotations

import pytest
from site_fixtures import explained


@pytest.mark.parametrize(
    "call",
    [
        'register_int_counter!("compute_ctl_lfc_prewarms_total", "Total number of prewarms")',
        'metrics::register_histogram_vec!("scan_seconds", "Time spent", &["tenant"])',
        'register_int_counter_vec!(opts!("chat_tokens_total", "Tokens"), &["workspace"])',
    ],
)
def test_a_panic_on_registering_a_metric_is_a_bug_of_its_definition(call: str) -> None:
    explanation = explained(
        "pub static PREWARMS: Lazy<IntCounter> = Lazy::new(|| {\n"
        f'    {call}\n        .expect("failed to define a metric")\n}});\n'
    )

    assert explanation.backgroundTag == "internal-invariant"
    solutions = " ".join(explanation.solutions)
    assert "the registry refuses the metric's definition" in solutions
    assert "environment" not in solutions
    # a counter has no buckets to be out of order
    assert ("buckets out of order" in solutions) == ("histogram" in call)
    assert explanation.preventionTips[0].startswith("Register each metric once")
    assert explanation.exampleFix is not None
    assert "the registry refused this metric's definition" in explanation.exampleFix


def test_another_register_call_is_no_metric() -> None:
    # a signal handler, an allocation's state: whatever their own failures are
    explanation = explained(
        "fn f(handlers: &Handlers) {\n"
        '    handlers.register_unguarded(job).expect("failed to register a handler");\n}\n'
    )
    assert "registry refuses" not in " ".join(explanation.solutions)
