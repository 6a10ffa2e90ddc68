"""Prompt v2: a shared prefix, a per-file block, the site with its caller paths, no gutter."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import bpe_openai
from llm_server import TAXONOMY, make_context

from pipeline.analyze import SiteContext
from pipeline.analyze.llm_prompt import SITE_MARKER, load_prompt, prompt_cache_key
from pipeline.analyze.taxonomy import load_taxonomy
from pipeline.core.reach import BuildStep, CallerPath, Dependency, Hop, Reach

FIXTURE = Path(__file__).parent / "fixtures" / "prompt_example.rs"
REACH = Reach(
    paths=(
        CallerPath(
            hops=(
                Hop(
                    "handle_alter_parallelism",
                    "src/frontend/src/handler/alter_parallelism.rs",
                    31,
                    "pub async fn handle_alter_parallelism(handler_args: HandlerArgs,"
                    "\n    obj_name: ObjectName) -> Result<RwPgResponse>",
                    doc="Handles `ALTER ... SET PARALLELISM`.\n\nMore text not needed.",
                    call_line=77,
                    also_at=(81, 90),
                ),
                Hop(
                    "DdlController::alter_parallelism",
                    "src/meta/src/rpc/ddl_controller.rs",
                    420,
                    "pub async fn alter_parallelism(&self, job_id: u32) -> MetaResult<()>",
                    call_line=433,
                    resolution="rpc",
                    candidates=("GlobalStreamManager::reschedule_streaming_job",),
                ),
            ),
            entry="statement",
            entry_label="SQL statement `ALTER TABLE ... SET PARALLELISM`",
        ),
    ),
    callers=2,
    dependencies=(
        Dependency(
            "deferred", "parameter", "deferred: bool", "src/meta/src/stream/x.rs", 12, "Skip."
        ),
    ),
    conversion="impl From<MetaError> for tonic::Status at src/meta/src/error.rs:120",
)


def site(i: int, file_path: str | None = None, kind: str = "bail") -> SiteContext:
    ctx = make_context(i)
    changed = {"kind": kind, **({"file_path": file_path} if file_path else {})}
    return dataclasses.replace(ctx, site=dataclasses.replace(ctx.site, **changed))


def test_prefix_is_byte_identical_across_sites_files_and_kinds() -> None:
    prompt, taxonomy = load_prompt(), load_taxonomy()
    contexts = [
        site(0),
        site(1, "src/a.rs"),
        site(2, "src/b.rs", "panic"),
        dataclasses.replace(site(3), reach=REACH),
    ]
    prefixes = {prompt.render(ctx, taxonomy)[0]["content"] for ctx in contexts}
    assert len(prefixes) == 1
    [prefix] = prefixes
    for ctx in contexts:
        assert ctx.site.message not in prefix and ctx.site.file_path not in prefix
    for c in taxonomy.values():  # every class with its title and definition
        first = " ".join(c.description.split()).split(". ")[0]
        assert f"- {c.slug}: {c.title}. {first}" in prefix
    for value in ("validation", "try-catch", "retry", "configuration", "upgrade", "fail-fast"):
        assert f"\n- {value}: " in prefix
    assert "broken internal invariant" in prefix and "at most 600" in prefix


def test_prefix_is_at_least_1024_tokens_of_a_real_tokenizer() -> None:
    prefix, _, _ = load_prompt().parts(site(0), load_taxonomy())
    assert len(bpe_openai.get_encoding("o200k_base").encode(prefix)) >= 1024


def test_file_block_is_shared_by_a_files_sites_and_comes_before_the_site() -> None:
    prompt = load_prompt()
    a1, a2, b = site(0, "src/meta/src/a.rs"), site(5, "src/meta/src/a.rs"), site(1, "src/b.rs")
    _, file_a1, site_a1 = prompt.parts(a1, TAXONOMY)
    _, file_a2, site_a2 = prompt.parts(a2, TAXONOMY)
    _, file_b, _ = prompt.parts(b, TAXONOMY)
    assert file_a1 == file_a2 != file_b and site_a1 != site_a2
    assert "File: src/meta/src/a.rs (crate `src/meta`)" in file_a1  # no manifest said
    named = dataclasses.replace(a1, module="risingwave_meta::a")  # Cargo.toml said
    assert (
        "File: src/meta/src/a.rs (module `risingwave_meta::a`)" in prompt.parts(named, TAXONOMY)[1]
    )
    user = prompt.render(a1, TAXONOMY)[1]["content"]
    assert user.startswith(file_a1 + "\n\n") and user.rstrip().endswith("</source>")
    key = prompt.cache_key(a1)
    assert key == prompt.cache_key(a2) != prompt.cache_key(b)
    assert key == prompt_cache_key(prompt.version, a1.repo, "src/meta/src/a.rs")


def test_caller_paths_hops_and_definitions_are_shown() -> None:
    user = load_prompt().render(dataclasses.replace(site(0), reach=REACH), TAXONOMY)[1]["content"]
    paths = user[user.index("## Caller paths") : user.index("## Source window")]
    assert "1. SQL statement `ALTER TABLE ... SET PARALLELISM`" in paths
    assert (
        "`handle_alter_parallelism` at src/frontend/src/handler/alter_parallelism.rs:31:"
        " `pub async fn handle_alter_parallelism(handler_args: HandlerArgs, obj_name:"
        " ObjectName) -> Result<RwPgResponse>`" in paths
    )
    assert "doc: Handles `ALTER ... SET PARALLELISM`.\n" in paths  # first paragraph only
    assert (
        "calls the next hop at src/frontend/src/handler/alter_parallelism.rs:77 (and at lines"
        " 81, 90 of the same file: which call leads on, the values there decide)"
    ) in paths
    assert "calls the next hop at src/meta/src/rpc/ddl_controller.rs:433\n" in paths
    assert "may also reach: `GlobalStreamManager::reschedule_streaming_job`" in paths
    assert (
        "- `deferred` (parameter, src/meta/src/stream/x.rs:12): `deferred: bool` - Skip." in paths
    )
    assert "Converted by: impl From<MetaError> for tonic::Status" in user
    # Entry point first, the enclosing function's hop last.
    assert paths.index("handle_alter_parallelism") < paths.index("DdlController")


def test_without_an_index_the_prompt_says_no_path_was_found() -> None:
    user = load_prompt().render(site(0), TAXONOMY)[1]["content"]
    assert "## Caller paths (entry point first)\n- none found\n" in user


def test_window_has_no_gutter_and_marks_the_thrown_line_once() -> None:
    ctx = site(0)
    user = load_prompt().render(ctx, TAXONOMY)[1]["content"]
    window = user.split("<source>\n", 1)[1].split("\n</source>", 1)[0]
    lines = window.split("\n")
    assert len(lines) == len(ctx.window.split("\n"))
    assert not [line for line in lines if re.match(r"^\s*>?\s*\d+\s*\|", line)]
    marked = [n for n, line in enumerate(lines, ctx.window_start) if line.endswith(SITE_MARKER)]
    assert marked == [ctx.site.line]
    end = ctx.window_start + len(lines) - 1
    assert f"## Source window (lines {ctx.window_start}-{end})" in user


def test_worked_example_is_the_fixture() -> None:
    prefix, _, _ = load_prompt().parts(site(0), TAXONOMY)
    shown = prefix.split("<source>\n", 1)[1].split("\n</source>", 1)[0]
    fixture = FIXTURE.read_text().split("\n")[35:44]
    indent = 4
    assert shown.replace(f" {SITE_MARKER}", "").split("\n") == [t[indent:] for t in fixture]
    assert f" {SITE_MARKER}" in shown.split("\n")[4]  # line 40 holds the bail!


def test_a_hop_an_earlier_path_showed_is_named_not_shown_again() -> None:
    first = REACH.paths[0]
    rpc = CallerPath(first.hops[1:], "rpc", "RPC `DdlService::alter_parallelism`")
    reach = dataclasses.replace(REACH, paths=(first, rpc))
    user = load_prompt().render(dataclasses.replace(site(0), reach=reach), TAXONOMY)[1]["content"]
    paths = user[user.index("## Caller paths") : user.index("## Source window")]
    second = paths[paths.index("2. RPC") :]
    assert "- `DdlController::alter_parallelism` (shown above)\n" in second
    assert "calls the next hop at src/meta/src/rpc/ddl_controller.rs:433" in second
    assert paths.count("pub async fn alter_parallelism(&self, job_id: u32)") == 1


def test_the_steps_above_the_site_are_said_as_what_did_not_hold() -> None:
    """An early exit above the site and a failing check above it hold the site's path too:
    the model reads each as a condition that did not hold, and which of the two it was."""
    from pipeline.core.model import Condition

    ctx = site(0)
    above = (
        Condition("exit", "cache.contains(&id)", 10, negated=True),
        Condition("ensure", "id.is_empty()", 12, negated=True),
        *ctx.site.facts.conditions,
    )
    facts = dataclasses.replace(ctx.site.facts, conditions=above)
    ctx = dataclasses.replace(ctx, site=dataclasses.replace(ctx.site, facts=facts))
    user = load_prompt().render(ctx, TAXONOMY)[1]["content"]
    assert "`cache.contains(&id)` does not hold (an early exit above, line 10)" in user
    assert "`id.is_empty()` does not hold (an earlier check that fails above, line 12)" in user


def test_a_static_s_initializer_is_said_to_run_where_the_static_is_used() -> None:
    reach = dataclasses.replace(REACH, initialized="SETTINGS", callers=2)
    user = load_prompt().render(dataclasses.replace(site(0), reach=reach), TAXONOMY)[1]["content"]
    assert (
        "The site is in the initializer of the static `SETTINGS`, which runs when the static is"
        " first used: these paths lead to the functions that use it (2 in all); the last hop's"
        " line is where it uses it."
    ) in user
    plain = load_prompt().render(dataclasses.replace(site(0), reach=REACH), TAXONOMY)[1]["content"]
    assert "initializer" not in plain


def test_the_code_that_answers_the_error_is_given_with_where_it_is() -> None:
    reach = dataclasses.replace(
        REACH, code="StatusCode::InvalidArguments", code_by="`Error::status_code` (src/e.rs:9)"
    )
    user = load_prompt().render(dataclasses.replace(site(0), reach=reach), TAXONOMY)[1]["content"]

    assert (
        "The repository's code answers this error with `StatusCode::InvalidArguments` "
        "(`Error::status_code` (src/e.rs:9))"
    ) in user
    plain = load_prompt().render(dataclasses.replace(site(0), reach=REACH), TAXONOMY)[1]["content"]
    assert "answers this error with" not in plain


def test_when_the_builder_builds_the_variant_is_given() -> None:
    steps = (BuildStep("if", "flag"), BuildStep("else", "value.is_none()", True))
    reach = dataclasses.replace(REACH, built="Error::FlagWithValue", built_when=steps)
    user = load_prompt().render(dataclasses.replace(site(0), reach=reach), TAXONOMY)[1]["content"]
    assert (
        "The first path's last hop builds it when `flag` is true and `value.is_none()` is false"
        " (else branch): say which input or state makes those hold, in the user's terms."
    ) in user
    built = dataclasses.replace(REACH, built="Error::FlagWithValue")
    plain = load_prompt().render(dataclasses.replace(site(0), reach=built), TAXONOMY)[1]["content"]
    assert "last hop builds it when" not in plain


def test_a_failpoint_s_site_says_the_failpoint_is_its_first_condition() -> None:
    """tikv's `fail_point!("create_storage_slowly", |_| ..)` (reading 326): the model reads
    that a test injects the error, as the static text says (`analyze/failpoints.py`)."""
    ctx = site(0)
    facts = dataclasses.replace(ctx.site.facts, failpoint="create_storage_slowly")
    injected = dataclasses.replace(ctx, site=dataclasses.replace(ctx.site, facts=facts))
    user = load_prompt().render(injected, TAXONOMY)[1]["content"]
    assert (
        "- the failpoint `create_storage_slowly` is configured to run its closure (`fail_point!` "
        "of the `fail` crate: only a build with its `failpoints` feature, in a test or under "
        "`FAILPOINTS`, runs it; no input makes it)\n"
    ) in user
    assert "failpoint" not in load_prompt().render(ctx, TAXONOMY)[1]["content"]
