"""What a reader is told of a site in a `fail_point!`'s closure: a failure a test injects.
Pure.

The `fail` crate's `fail_point!("name", |arg| ..)` runs its closure, and returns what it
gives, only in a build with the crate's `failpoints` feature, and only while the failpoint
`name` is configured (`FAILPOINTS=name=return(..)` in the environment, `fail::cfg(..)` in a
test); any other build compiles the macro to nothing. tikv's `StoragePool::create` holds
`Err(Error::ErrorWrapper(String::from("failpoint")))` so: its record named six RPC entry
points a user "meets it through" (reading 326, F). The site's own fn and its callers are
where the failpoint sits; what decides the error is the failpoint's configuration.
"""

from __future__ import annotations

from pipeline.analyze.reach_text import commit_label, path_text
from pipeline.analyze.static_code import where
from pipeline.core.model import Explanation
from pipeline.core.reach import Reach
from pipeline.core.sitetypes import Site


def failpoint_explanation(
    apart: Explanation, site: Site, reach: Reach | None, sha: str
) -> Explanation:
    """`apart` told as the failure the failpoint `site.facts.failpoint` injects."""
    name = site.facts.failpoint or "?"
    fn = where(site)
    configured = f'`FAILPOINTS={name}=return` in the environment, or `fail::cfg("{name}", ..)`'
    lead = (
        f"This error is injected by the failpoint `{name}` (`fail_point!` in {fn}, "
        f"`{site.file_path}`): the `fail` crate runs the closure that makes it only in a build "
        "with its `failpoints` feature, while that failpoint is configured; any other build "
        "compiles `fail_point!` to nothing, and no input makes it."
    )
    trigger = (
        f"It occurs only when the failpoint `{name}` is configured to run its closure "
        f"({configured} in a test), in a build with the `failpoints` feature, and the code "
        f"reaches the `fail_point!` in {fn}."
    )
    best = reach.paths[0] if reach is not None and reach.paths else None
    if best is not None:
        trigger += f" {commit_label(sha)} that code is reached from {path_text(best)}."
    solutions = [
        f"This is a failure injected for a test, not a fault of the program nor of its input: "
        f"unconfigure the failpoint `{name}` (take it out of `FAILPOINTS`, or "
        f'`fail::remove("{name}")`), or run a build without the `failpoints` feature.',
        f"Where a test configures `{name}`, it checks how the code handles this failure: "
        "what it expects is in that test.",
    ]
    return apart.model_copy(
        update={
            "documentation": f"{lead} {apart.documentation}".strip(),
            "triggerScenarios": trigger,
            "commonSituations": (
                f"When a test (or `FAILPOINTS`) configures the failpoint `{name}` to inject a "
                "failure; never in a build without the `failpoints` feature."
            ),
            "solutions": solutions,
            "exampleFix": (
                f"# Injected by the failpoint `{name}`: run without it\n"
                f"env -u FAILPOINTS <command>   # or build without the `failpoints` feature"
            ),
            "validationCode": None,
            "typeGuard": None,
            "tryCatchPattern": None,
            "preventionTips": [
                "Build release binaries without the `failpoints` feature, and configure "
                "failpoints only in the tests that inject them."
            ],
        }
    )
