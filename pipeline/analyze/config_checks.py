"""A configuration's own check: the values it refuses are the configuration's. Pure.

`impl QuotaConfig { fn validate(&self) .. }` refuses a setting a user wrote: "quota.max-
delay-duration must <= {}" is a configuration error, not the "Resource exhausted" its word
"quota" chose, nor quickwit's `GrpcConfig::validate` a "Connection failure" by "rpc"
(reading 241: tikv's `block-size` "by the word exceed"). A check is a configuration's when
its fn is named `validate..` or `check..` and its impl's type is named `..Config`,
`..Configuration` or `..Settings`.
"""

from __future__ import annotations

import re

from pipeline.analyze.static_code import impl_type
from pipeline.core.sitetypes import Site

_CONFIG_TYPE = re.compile(r"(?:Config|Configuration|Settings)$")
_CHECK_FN = re.compile(r"^(?:validate|check)(?:_\w+)?$")


def config_check(site: Site) -> str | None:
    """`QuotaConfig::validate` for a site in a configuration type's check; None otherwise."""
    facts = site.facts
    if not facts.enclosing_fn or not facts.enclosing_impl:
        return None
    owner = impl_type(facts.enclosing_impl)
    if not _CONFIG_TYPE.search(owner) or not _CHECK_FN.match(facts.enclosing_fn):
        return None
    return f"{owner}::{facts.enclosing_fn}"
