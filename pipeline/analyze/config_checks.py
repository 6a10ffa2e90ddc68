"""A configuration's own check: the values it refuses are the configuration's. Pure.

`impl QuotaConfig { fn validate(&self) .. }` refuses a setting a user wrote: "quota.max-
delay-duration must <= {}" is a configuration error, not the "Resource exhausted" its word
"quota" chose, nor quickwit's `GrpcConfig::validate` a "Connection failure" by "rpc"
(reading 241: tikv's `block-size` "by the word exceed"). A check is a configuration's when
its fn is named `validate..` or `check..` and its impl's type is named `..Config`,
`..Configuration` or `..Settings`.

A message that names a setting by its dotted key (cargo's "`package.publish` requires
`package.version` be specified", quickwit's "`rest.max_connection_age_grace` requires
`rest.max_connection_age` to be set") refuses what a manifest or a configuration says: a
configuration error where no rule found another class (reading 250: "Operation failed",
with try-catch advice, for three of cargo's manifest checks).
"""

from __future__ import annotations

import re

from pipeline.analyze.static_code import impl_type
from pipeline.core.sitetypes import Site

_CONFIG_TYPE = re.compile(r"(?:Config|Configuration|Settings)$")
_CHECK_FN = re.compile(r"^(?:validate|check)(?:_\w+)?$")
# a setting's key in backticks: two or more lowercase words joined by dots
_SETTING_KEY = re.compile(r"`([a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)+)`")
# a dotted name that is no setting: a file's, a host's, a value's field in code
_NO_SETTING = re.compile(
    r"\.(?:rs|toml|json|lock|md|txt|ya?ml|py|pyi|cfg|ini|sh|so|dll|exe|git|com|org|io|net|"
    r"dev|html|js|ts|wasm|tar|gz|zip|log|sql|proto|pem|crt|key)$|^(?:self|std|crate|sys)\."
)
# a message that says a step failed (`Failed to resolve a `sys.prefix` ..`), not what a
# setting holds
_FAILED_STEP = re.compile(r"(?i)^\W*(?:error\W+)?(?:failed|could not|couldn't|unable|cannot)\b")


def config_check(site: Site) -> str | None:
    """`QuotaConfig::validate` for a site in a configuration type's check; None otherwise."""
    facts = site.facts
    if not facts.enclosing_fn or not facts.enclosing_impl:
        return None
    owner = impl_type(facts.enclosing_impl)
    if not _CONFIG_TYPE.search(owner) or not _CHECK_FN.match(facts.enclosing_fn):
        return None
    return f"{owner}::{facts.enclosing_fn}"


def names_a_setting(message: str) -> str | None:
    """The first setting a message names by its dotted key (`package.publish`), unless it says
    a step failed; None when it names none."""
    if _FAILED_STEP.match(message):
        return None
    for found in _SETTING_KEY.finditer(message):
        if not _NO_SETTING.search(found[1]):
            return found[1]
    return None
