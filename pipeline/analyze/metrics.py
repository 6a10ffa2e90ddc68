"""A panic on registering a Prometheus metric: `register_int_counter!("name", "help")
.expect("failed to define a metric")`. prometheus's `register_*!` macros give an `Err` only
for a definition the registry refuses (a name or a label that is no Prometheus name, a
help that is empty, buckets not in order) or a name it holds already: the code's own
definition, so a bug, never the environment (neon's 212 and meilisearch's 26 such records
read "Operation failed" and "if that step depends on your environment .. make it possible
there", reading 191). Only what the code shows: the innermost condition is a call of such
a macro, written with or without its path. Pure."""

from __future__ import annotations

import re

from pipeline.analyze.guarded import guarded_call
from pipeline.core.sitetypes import Site

# `register_int_counter_vec!(`, `prometheus::register_histogram!(`, `metrics::register_..`:
# the prometheus crate's macros and the same names re-exported (neon's `metrics` crate)
_REGISTER = re.compile(
    r"^(?:\w+::)*(register_(?:int_|uint_)?(?:counter|gauge|histogram)\w*)!\s*[(\[{]"
)


def metric_advice(registering: str) -> str:
    """Why `registering!` (`registered_metric`) gave an `Err`: buckets only for a histogram's."""
    buckets = ", buckets out of order" if "histogram" in registering else ""
    return (
        "the registry refuses the metric's definition: a name or a label that is no "
        f"Prometheus name, an empty help{buckets}, or a name another metric registered "
        "already. The definition is the code's own, so this is a bug: report it upstream "
        "with the full message and the version you run."
    )


def registered_metric(site: Site) -> str | None:
    """The `register_*!` macro a panicking site's innermost condition called, when it gave
    an `Err`; None for any other site."""
    if site.kind not in ("expect", "panic", "unwrap"):
        return None
    call = guarded_call(site, ("Err", "None/Err"))
    found = _REGISTER.match(call) if call is not None else None
    return found[1] if found is not None else None
