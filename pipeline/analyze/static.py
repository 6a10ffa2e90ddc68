"""The offline analyzer: explanations built only from what the syntax tree shows.

Every sentence names something taken from the code (the fn, its doc comment, the
conditions, the receiver, the message's placeholders) or from the failure-class
taxonomy; where the tree says nothing, the text says so instead of guessing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Literal

from pipeline.analyze import Analysis, SiteContext
from pipeline.analyze.accessors import ASSUMPTION_TIP, callers_to_fix, recommented, unblamed
from pipeline.analyze.arguments import missing_argument
from pipeline.analyze.clock import clock_before_epoch
from pipeline.analyze.condition_text import describe
from pipeline.analyze.config_checks import config_check, names_a_setting
from pipeline.analyze.crate_only import (
    catch_for_the_crate,
    catch_for_the_namers,
    checked_within_the_crate,
    crate_only,
    passed_within_the_crate,
)
from pipeline.analyze.documented import (
    assertion_macro,
    documented_error,
    documented_panic,
    states_the_state,
)
from pipeline.analyze.environment import set_variable
from pipeline.analyze.failpoints import failpoint_explanation
from pipeline.analyze.fixed_input import fixed_input, fixed_input_note
from pipeline.analyze.generated import generated_explanation
from pipeline.analyze.guarded import guarded_call
from pipeline.analyze.guarded_reach import told_outcome
from pipeline.analyze.homedirs import missing_directory
from pipeline.analyze.locks import poisoned_lock, unwinding_only
from pipeline.analyze.metrics import registered_metric
from pipeline.analyze.nonempty import nonempty_checked_above
from pipeline.analyze.private_fields import check_for_the_module
from pipeline.analyze.programs import started_program
from pipeline.analyze.python_catch import python_catch
from pipeline.analyze.reach_text import builders_solution, situation_sentence, trigger_sentence
from pipeline.analyze.reclass import reclassed
from pipeline.analyze.state_calls import state_comment, state_panic, through_getter
from pipeline.analyze.static_advice import (
    PASSED_LEAD,
    PASSED_TAIL,
    RETURNED_LEAD,
    causeless_tips,
    doc_summary,
    dropped_cause_tips,
    ends_in_a_failed_call,
    is_guard,
    option_checked_above,
    own_type_tips,
    placeholder_comment,
    prevention,
    printed_quietly,
    printed_whole,
    refusing_checks,
    solutions,
    unwrapping,
)
from pipeline.analyze.static_code import (
    a_type,
    boxed_catch,
    caller_check,
    compile_time_const,
    constructed,
    constructor_kind,
    conversion,
    converting,
    debug_assertion,
    documented_invariant,
    either_catch,
    example_fix,
    exited_above,
    failed_fs_step,
    failed_thread_step,
    failure_worded,
    fatal_failure,
    held_catch,
    message_needle,
    owns_a_bug,
    parsed_text,
    platform_stub,
    printed_values,
    refused_inputs,
    reported_to,
    says_it_is_a_bug,
    text_catch,
    text_owner,
    try_catch,
    type_guard,
    unit_stub,
    validation,
    waited_out,
    where,
    wrapped_catch,
    wraps_an_error,
)
from pipeline.analyze.status_class import reclass_to
from pipeline.analyze.taxonomy import (
    CONFIGURATION,
    FALLBACK,
    INTERNAL_INVARIANT,
    INVALID_ARGUMENT,
    INVALID_STATE,
    IO_ERROR,
    NOT_FOUND,
    NOT_IMPLEMENTED,
    OUT_OF_RANGE,
    PARSE_ERROR,
    RESOURCE_EXHAUSTED,
    Classification,
    bound_check,
    classify_explained,
    classify_step,
    load_taxonomy,
    without_status_words,
)
from pipeline.analyze.unbuilt import unbuilt_explanation
from pipeline.analyze.utf8paths import non_utf8_path
from pipeline.analyze.value_sets import listed_values
from pipeline.analyze.verdicts import authors_verdict
from pipeline.analyze.wrapped_source import source_class
from pipeline.core.cachefile import source_digest
from pipeline.core.model import Condition, Explanation, HandlingStrategy, Site
from pipeline.core.reach import (
    ANYHOW_OR_ITSELF,
    CONVERTED,
    NOT_RETURNED,
    Reach,
    handoff_text,
    parsed_option,
    visibility_scope,
)
from pipeline.core.sitetypes import EARLIER_STEPS, TEXT_KINDS, call_parameters
from pipeline.scan.builders import selector_name
from pipeline.scan.context import error_type
from pipeline.scan.names import inner_type

# The version of what the analyzer writes, kept in each record's provenance: a record
# explained by another is explained again (`carry.explanation_reusable`). The label moves by
# hand when the wording changes on purpose; the digest of the analyzer's code and classes
# moves with any edit, so that an edit that forgot the label (a class rule, a reach
# sentence) leaves no regenerated dataset explained by the code before it. A re-explained
# record whose text comes out the same keeps its timestamps and file (`assemble`).
_LABEL = "static-241"


def _static_version() -> str:
    here = Path(__file__).parent
    digest = source_digest([*sorted(here.glob("*.py")), here.parent / "data" / "taxonomy.toml"])
    return f"{_LABEL}.{digest}" if digest else _LABEL


STATIC_VERSION = _static_version()

_STRATEGY_BY_CLASS: dict[str, HandlingStrategy] = {
    "configuration-error": "configuration",
    "timeout": "retry",
    "connection-failure": "retry",
    "resource-exhausted": "retry",
    "concurrency-conflict": "retry",
    "version-incompatibility": "upgrade",
    "invalid-argument": "validation",
    "not-found": "validation",
    "already-exists": "validation",
    "invalid-state-transition": "validation",
    "permission-denied": "configuration",
    "unauthenticated": "configuration",
}
_VERB = {
    "bail": "returns early with `bail!`",
    "anyhow": "builds an error with `anyhow!`",
    "ensure": "fails an `ensure!` check",
    "format_err": "builds an error with `format_err!`",
    "eyre": "builds an error with `eyre!`",
    "panic": "panics with `panic!`",
    "unreachable": "hits `unreachable!`, a branch its authors believed impossible",
    "todo": "hits `todo!`: the branch is not written yet",
    "unimplemented": "hits `unimplemented!`: the case is not supported",
    "assert": "fails an assertion",
    "expect": "panics in `.expect(..)`",
    "context": "adds this context to an error from a call that failed",
    "constructor": "returns an error built by",
    "error_attr": "formats this variant with `#[error(..)]`",
    "display": "formats this variant in its `Display` impl",
}
# A constructor that is an enum variant or a tuple struct (`E::V`, `Custom`), not a fn
# (`not_found`, `Error::msg`) nor the `Err` itself
_VARIANT_BUILT = re.compile(r"(?:^|::)(?!(?:Err|Ok|Some)$)[A-Z][A-Za-z0-9]*$")
_OWN_MACRO_VERB = {
    "bail": "returns early with `{}`",
    "ensure": "fails a `{}` check",
    "constructor": "returns an error built by `{}`",
    "panic": "panics with `{}`",
}


class StaticAnalyzer:
    """Explains sites from syntax-tree facts alone; never fails, never calls out.

    `prepared` holds explanations made before the index answered (`explain_apart`): the
    run explains while the index child finishes, and adds each site's reach here."""

    name: Literal["static"] = "static"

    def __init__(self, prepared: Mapping[str, Explanation] | None = None) -> None:
        self.prepared = prepared or {}

    def analyze(self, contexts: Sequence[SiteContext]) -> Iterator[Analysis]:
        """One `ok` analysis per context, in order."""
        for context in contexts:
            apart = self.prepared.get(context.record_id) or explain_apart(context)
            yield Analysis(
                record_id=context.record_id,
                content_hash=context.content_hash,
                explanation=with_reach(
                    apart, context.reach, context.sha, context.site, context.error_class
                ),
                analyzer="static",
                prompt_version=STATIC_VERSION,
            )


def explain(context: SiteContext) -> Explanation:
    """The static explanation of one site."""
    return with_reach(
        explain_apart(context), context.reach, context.sha, context.site, context.error_class
    )


# HTTP statuses of a request the server refused as it was: 4xx but a timeout's (408), a
# conflict that may clear (409), a lock (423), a rate limit (429)
_REJECTED = frozenset(range(400, 500)) - {408, 409, 423, 429}


# classes of an input the code refused: checking it first is what prevents them
_INPUT_CLASSES = frozenset((PARSE_ERROR, INVALID_ARGUMENT, OUT_OF_RANGE, "type-mismatch"))


def carried_value(built: str, *, display: bool = True) -> str:
    """What the documentation says of a message that is a value of a variant it builds
    (`ParseError::Expected("..")`): its type's `Display` shows it, or, where the index finds
    none (`Reach.no_display`), its `Debug` form does."""
    if display:
        return (
            f" This text is a value the error carries: what a user reads is `{built}`'s own"
            " message (its `Display`), which may put words around it."
        )
    return (
        f" This text is a value the error carries: its type writes no `Display` text that the"
        f" index finds, so it shows where `{built}`'s `Debug` form (`{{:?}}`) is printed, or"
        " where code reads the value out of it."
    )


def _returns_built(site: Site, error_class: str | None) -> bool:
    """Whether a constructor site's fn returns the type it builds (its error class, aliases
    resolved: qdrant's `GpuResult<Self>` is a `GpuError`), not wrapped in another first:
    `Reach.no_display` tells of that class (quickwit's `ElasticsearchError::from(SearchError::
    InvalidArgument(..))` is not a `SearchError`)."""
    if site.kind != "constructor" or site.facts.wrapped_in or "::" not in (site.macro or ""):
        return False
    owner = site.macro.rsplit("::", 1)[0].rsplit("::", 1)[-1]
    return inner_type(error_class or "") == owner


def with_reach(
    apart: Explanation,
    reach: Reach | None,
    sha: str,
    site: Site | None = None,
    error_class: str | None = None,
) -> Explanation:
    """`_with_reach`; of a site inside `quote!`, told of the code a macro writes there
    (`generated`): its checks, callers and values are the generated code's, not its fn's."""
    told = _with_reach(apart, reach, sha, site, error_class)
    option = _parsed_by_clap(reach)
    if option and site is not None and site.kind not in TEXT_KINDS and error_type(site) != "panic":
        told = told.model_copy(
            update={
                "documentation": f"{told.documentation} {_clap_prints(option)}",
                "tryCatchPattern": None,
                "handlingStrategy": "validation",
            }
        )
    if site is not None and site.facts.generated:
        return generated_explanation(told, site, reach, sha)
    if site is not None and site.facts.failpoint:
        return failpoint_explanation(told, site, reach, sha)
    # a program that prints the error with its causes says what they are for (`printed_whole`),
    # which stays true of an error with none: it is the last one printed
    printed = reach is not None and bool(reach.printed_by)
    if site is not None and site.facts.ignored_error and not printed:
        tips = dropped_cause_tips(told.preventionTips, site.facts.ignored_error)
        told = told.model_copy(update={"preventionTips": tips})
    if site is not None and site.kind in TEXT_KINDS and not _held_by_anyhow(reach):
        tips = own_type_tips(told.preventionTips)
        if site.facts.cause == "" and site.facts.enclosing_type and not printed:
            tips = causeless_tips(
                tips, text_owner(site), site.facts.debug_only, bool(site.facts.fields)
            )
        elif reach is not None and reach.sourceless and not printed:
            tips = causeless_tips(
                tips, text_owner(site), (), True, "its `impl Error` writes no `source()`"
            )
        told = told.model_copy(update={"preventionTips": tips})
    if reach is not None and reach.printed_by:
        fixes, tips = printed_whole(told.solutions, told.preventionTips, reach.printed_by)
        told = told.model_copy(update={"solutions": fixes, "preventionTips": tips})
    if reach is not None and reach.quiet_hook:
        told = told.model_copy(
            update={"solutions": printed_quietly(told.solutions, reach.quiet_hook)}
        )
    return told


def _held_by_anyhow(reach: Reach | None) -> bool:
    """Whether callers hold the type's error in an anyhow one (`Reach.held_in`), whose
    `{:#}` prints its causes."""
    return reach is not None and "anyhow" in (reach.held_in or "")


def _with_reach(
    apart: Explanation,
    reach: Reach | None,
    sha: str,
    site: Site | None = None,
    error_class: str | None = None,
) -> Explanation:
    """An explanation of `explain_apart` with the index's sentences added (issue 10), dated:
    they hold at `sha` (`reach_text`). With the `site`, an error type's handling is fitted
    to what its builders return (`Reach.held_in`: callers hold it in an `anyhow::Error`);
    `error_class` (the site's, aliases resolved) is what `Reach.no_display` tells of."""
    if reach is not None and reach.unbuilt and site is not None and site.kind in TEXT_KINDS:
        selector = selector_name(site.facts.variant or "") if site.macro == "snafu" else None
        return unbuilt_explanation(apart, reach.unbuilt, sha, selector)  # nothing else holds
    if reach is not None and reach.held_in and site is not None and site.kind in TEXT_KINDS:
        if reach.held_in == NOT_RETURNED:  # no builder returns it: no caller matches it
            held = None
            said = apart.commonSituations.replace(
                _returned_situation(site),
                f"When code builds a `{text_owner(site)}` (no fn that builds it returns it: "
                "it is logged, dropped or handed on there)",
                1,
            )
            # no caller catches it: of an input the code refused, what is left is checking
            # that input (nushell's parse errors, which `working_set.error(..)` collects,
            # read "try-catch", reading 282's recheck); a failure of the run's own is left
            handling = apart.handlingStrategy
            refused = handling == "try-catch" and apart.backgroundTag in _INPUT_CLASSES
            apart = apart.model_copy(
                update={
                    "commonSituations": said,
                    "handlingStrategy": "validation" if refused else handling,
                }
            )
        elif reach.held_in == CONVERTED:  # given back as another type: matched by its text
            held = text_catch(site)
        elif reach.held_in.startswith("Box<"):
            held = boxed_catch(apart.tryCatchPattern, site)
        elif reach.held_in == "anyhow::Error":
            held = held_catch(site)
        elif reach.held_in == ANYHOW_OR_ITSELF:
            held = either_catch(apart.tryCatchPattern, site)
        else:  # another type wraps the enum: matched through its accessor, or not at all
            held = wrapped_catch(apart.tryCatchPattern, site, reach.held_by)
        apart = apart.model_copy(update={"tryCatchPattern": held})
    if site is not None and site.kind in TEXT_KINDS and (scope := _naming_scope(site, reach)):
        # uv's `pub(crate) enum GitInfoError`, its `ValidationError` of a private module that
        # no public one re-exports: the match compiles only there (reading 180)
        held = catch_for_the_namers(
            apart.tryCatchPattern, site.facts.enclosing_type, scope, _holder(site, reach)
        )
        apart = apart.model_copy(update={"tryCatchPattern": held})
    if (
        reach is not None
        and reach.no_display
        and site is not None
        and _returns_built(site, error_class)
    ):
        # no `Display` to put words around it: its `Debug` shows it (qdrant's `GpuError`,
        # `#[derive(Debug)]` alone, read "what a user reads is .. its `Display`", reading 200)
        said = apart.documentation.replace(
            carried_value(site.macro), carried_value(site.macro, display=False)
        )
        apart = apart.model_copy(update={"documentation": said})
    if reach is not None and reach.no_display and apart.tryCatchPattern:
        # no `Display` to call: the error's `Debug` holds the text (typst's diagnostics)
        shown = apart.tryCatchPattern.replace("e.to_string()", 'format!("{e:?}")')
        apart = apart.model_copy(update={"tryCatchPattern": shown})
    apart = told_outcome(apart, reach)  # what the index says the guarded call gave
    if apart.validationCode or apart.typeGuard:  # private fields: for code in their module
        apart = apart.model_copy(
            update={
                "validationCode": check_for_the_module(apart.validationCode, reach),
                "typeGuard": check_for_the_module(apart.typeGuard, reach),
            }
        )
    only_crate = (
        site is not None
        and site.kind not in TEXT_KINDS
        and crate_only(reach)
        and not _trait_method(site)
    )
    callers = (
        callers_to_fix(site, reach, where(site))
        if site is not None and not _trait_method(site)
        else None
    )
    if callers is not None:
        # it panics by design, or asserts what its caller passes: the caller's to meet, not
        # a bug of its own (readings 160, 201)
        lead, comment, tip = callers
        apart = apart.model_copy(
            update={
                "solutions": unblamed(apart.solutions, lead),
                "exampleFix": recommented(apart.exampleFix, comment),
                "preventionTips": [tip if t == ASSUMPTION_TIP else t for t in apart.preventionTips],
            }
        )
        if apart.backgroundTag == INTERNAL_INVARIANT:  # the caller's value, not its assumption
            apart = reclassed(apart, INVALID_ARGUMENT)
    coded = reclass_to(reach.code, apart.backgroundTag) if reach is not None else None
    if coded is not None and reach is not None:
        # the code its type answers it with says another class than the message's words
        # (greptimedb's "Invalid source and target region", `StatusCode::InvalidArguments`,
        # read "Parse error" by its words: reading 230)
        apart = reclassed(apart, coded, by=f"its code `{reach.code}` in {reach.code_by}")
        if apart.handlingStrategy == "retry" and _STRATEGY_BY_CLASS.get(coded) != "retry":
            # "Too many partitions" answered `InvalidArguments`: the same call fails again
            apart = apart.model_copy(update={"handlingStrategy": "try-catch"})
    if site is not None and (caught := python_catch(site, reach, message_needle(site))) is not None:
        # the fn is itself what Python calls (`#[pymethods]`): its caller's `try`/`except`,
        # not a Rust `match` no code writes (reading 232)
        apart = apart.model_copy(update={"tryCatchPattern": caught})
        only_crate = False
    if only_crate and reach is not None and site is not None and apart.tryCatchPattern:
        # no code outside the crate can write that call: said for whom it is (reading 163);
        # and none at all where every caller there keeps the error already (ruff's fix
        # builders, handed to `try_set_fix`: recheck 160)
        held = (
            None
            if _stopped_by_callers(reach) or _program_only(reach)
            else catch_for_the_crate(apart.tryCatchPattern, where(site), reach)
        )
        apart = apart.model_copy(update={"tryCatchPattern": held})
    generated = site is not None and bool(site.facts.generated)  # run, not expanded
    if (
        reach is not None
        and reach.paths
        and all(p.entry == "macro" for p in reach.paths)
        and not generated
    ):
        # met only as a procedural macro expands: a compile error of the crate that uses
        # it, no `Result` any program holds (sqlx's `query!` makes it a `compile_error!`)
        strategy = apart.handlingStrategy
        apart = apart.model_copy(
            update={
                "tryCatchPattern": None,
                "handlingStrategy": "fail-fast" if strategy == "try-catch" else strategy,
            }
        )
    if reach is not None and _UNWINDS in apart.documentation and not generated:
        # (the code a macro writes panics in the program that runs it: `_UNWINDS` holds)
        apart = apart.model_copy(
            update={"documentation": apart.documentation.replace(_UNWINDS, _panic_end(reach))}
        )
    status = (site.http_status if site is not None else None) or (
        reach.http_status if reach is not None else None
    )
    if apart.handlingStrategy == "retry" and status in _REJECTED:
        # the code answers with a client error: the same request fails the same way again
        # (crates.io's `bad_request("too many invites for this request - maximum 10")` read
        # "retry" by its class's words, reading 142)
        apart = apart.model_copy(update={"handlingStrategy": "validation"})
    fixed = site is not None and fixed_input(site) is not None
    # an assertion of what the code holds true (not a `panic!` the code raises on a state it
    # tests: "engine is read-only" is met by whoever writes to one)
    assumed = (
        site is not None
        and site.kind in ("unreachable", "expect", "assert")
        and apart.backgroundTag == "internal-invariant"
    )
    # a check above the site leaves first as the code stands: runs reach its fn, not it
    never = site is not None and (
        exited_above(site.facts.conditions) is not None
        or option_checked_above(site) is not None
        or nonempty_checked_above(site) is not None
    )
    trigger, situation = (
        trigger_sentence(reach, sha, never),
        situation_sentence(reach, sha, fixed, assumed, never),
    )
    if site is not None and site.facts.discarded and error_type(site) != "panic":
        situation = None  # the fn drops it: no user meets it, whatever calls the fn
    built = builders_solution(reach, sha)
    stopped = (
        _stopped_by_callers(reach)
        if site is None or (error_type(site) != "panic" and not _trait_method(site))
        else None
    )
    if not trigger and not situation and not built and not stopped and not only_crate:
        return _unpassed(apart)
    fixes = apart.solutions
    if stopped:
        # every caller drops or logs it and goes on: nothing a user ran fails by it, where
        # "correct that and try again" read as if it did (uv's `MissingHead`, reading 147);
        # the advice stays for a log line, or a caller the index missed (reading 137's
        # `FrameBounds::validate`, called with `?` from another crate)
        fixes = [
            f"Every caller the index found stops this error and goes on ({stopped}): through "
            "them, nothing a user ran fails by it. What follows matters only where it shows in "
            "a log, or comes through a caller the index missed.",
            *fixes,
        ]
    if built:  # the builders the index found, instead of "find it in your logs"
        fixes = [RETURNED_LEAD + built if s.startswith(RETURNED_LEAD) else s for s in fixes]
    option = _parsed_option(reach)
    if option:  # what is passed is what the user typed for the option
        fixes = [_given_to(option, s) for s in fixes]
    if site is None or not _trait_method(site):  # code the index does not see calls those
        fixes = [_passed_literally(s, reach) or s for s in fixes]
    if site is not None and not assumed and not owns_a_bug(site):  # no fix to a bug's value
        fixes = _with_setters(fixes, reach, _deciding(site))
        fixes = _with_options(fixes, reach, site)
    tips = apart.preventionTips
    if only_crate:  # its callers pass the values, not a reader (readings 160-163, 202)
        scope = reach.internal if reach is not None else None
        fixes = [passed_within_the_crate(s, scope) for s in fixes]
        fn = where(site) if site is not None else "it"
        passed = site is None or _reads_what_callers_give(site)
        rewritten = (checked_within_the_crate(t, fn, scope, passed) for t in tips)
        tips = [t for t in rewritten if t is not None]
    return _unpassed(
        apart.model_copy(
            update={
                "triggerScenarios": _with(apart.triggerScenarios, trigger),
                "commonSituations": _with(apart.commonSituations, situation),
                "solutions": fixes,
                "preventionTips": tips,
            }
        )
    )


def _reads_what_callers_give(site: Site) -> bool:
    """Whether the site's checks may read a value its fn's callers give it: a parameter
    or `self` they name (each one `inputs_read` finds is), or one its body uses above the
    site (`let splits = id.split(':')`, then `splits.len() < 2`). False only where the window
    shows the fn's whole body above the site and no parameter in it (starship's
    `gen_presets_hook(file)` lists a directory, checks its paths, and writes `file` after)."""
    conditions = site.facts.conditions
    if not site.facts.call:
        return True  # its parameters are not known
    params = [*call_parameters(site.facts.call), "self"]  # a handle's values too (`ctx`)
    words = [re.compile(rf"\b{re.escape(p)}\b") for p in params]
    if any(w.search(c.text) for c in conditions for w in words):
        return True
    lines = site.window.split("\n")
    above = lines[: max(site.line - site.window_start, 0)]
    name = (site.facts.enclosing_fn or "").rsplit("::", 1)[-1]
    header = re.compile(rf"\bfn\s+{re.escape(name)}\b") if name else None
    starts = [i for i, line in enumerate(above) if header is not None and header.search(line)]
    if not starts:
        return True  # the fn begins above the window: what its body reads is not seen
    body = "\n".join(above[starts[-1] + 1 :])
    return any(w.search(body) for w in words)


def _unpassed(apart: Explanation) -> Explanation:
    """`apart` without its class's "before passing them" tip where the code's own
    assumption broke (`ASSUMPTION_TIP`, which no caller's value replaced: `callers_to_fix`):
    no value a reader passes decides it, and its solutions say it is a bug to report
    (greptimedb's "size pass and encode pass disagree: cursor out of bounds (encoder bug)",
    reading 230). A tip the crate-only advice rewrote stays (its callers in the repository
    pass the values); so does an "invalid" value's guessed tip (greptimedb's "Invalid binding
    address '{tokio_console_addr}'" is a setting's)."""
    tips = apart.preventionTips
    if ASSUMPTION_TIP not in tips:
        return apart
    taxonomy = load_taxonomy()
    raw = {taxonomy[OUT_OF_RANGE].prevention, taxonomy[INVALID_ARGUMENT].prevention}
    guessed = f'If it is a case of "{taxonomy[OUT_OF_RANGE].title}"'
    kept = [t for t in tips if t not in raw and not t.startswith(guessed)]
    return apart if kept == tips else apart.model_copy(update={"preventionTips": kept})


# Classes a message's words may suggest that an error of a `FromStr` parse is not
# Classes a failed parse of a text is not: no file, peer, lock or resource was involved
UNSUPPORTED = "unsupported-operation"
TIMEOUT = "timeout"
_NOT_OF_PARSING = frozenset(
    ("io-error", "operation-failed", "connection-failure", "concurrency-conflict",
     "resource-exhausted", "timeout", "already-exists", "permission-denied")
)  # fmt: skip
_NOT_OF_TEXT = frozenset(
    ("timeout", "resource-exhausted", "invalid-state-transition", "operation-failed")
)


def _reads_input(site: Site) -> bool:
    """Whether the site's fn converts an input it is given: a `FromStr`, `Deserialize` or
    `TryFrom` impl's, or a serde `Visitor`'s `visit_*`."""
    found = conversion(site)
    return found is not None and found.trait in ("FromStr", "Deserialize", "TryFrom", "Visitor")


def _parses_text(site: Site) -> bool:
    """Whether the site's fn is a `FromStr` impl's `from_str`: its error refuses the text."""
    found = conversion(site)
    return found is not None and found.trait == "FromStr"


def _holder(site: Site, reach: Reach | None) -> str | None:
    """The type callers get a variant's text in, when the index says only some of the code
    can name it (`Reach.internal` of its builders): the variant's own type, or the type of
    the repository its builders return it in; None when held in an `anyhow::Error`, a `Box`,
    another type or nothing returned (code anywhere may meet those)."""
    if reach is None or reach.internal is None or not reach.built:
        return None
    held = reach.held_in
    if held is None:
        return site.facts.enclosing_type
    return held if held.isidentifier() and held[:1].isupper() else None


def _naming_scope(site: Site, reach: Reach | None) -> str | None:
    """Where code can name the error type of a variant's text (as `Reach.internal` names
    it), when code outside its crate cannot: by its visibility (`Facts.type_visibility`),
    else by the index (`Reach.internal` of a variant's text, `Exports.unnamed_types`)."""
    visibility = site.facts.type_visibility
    if visibility is not None and visibility != "pub":
        return visibility_scope(visibility)
    # the index's, for an enum's variant, or for the type of a `Display` impl the index
    # found built (an error struct's `pub`, read off its `#[error]`, is read as it was)
    if reach is None or (site.facts.variant is None and (visibility or not reach.built)):
        return None
    return reach.internal


def _trait_method(site: Site) -> bool:
    """Whether the site's fn implements a trait's method (`impl FromStr for Clipboard`):
    code the index does not see calls it too (`.parse()`, serde, clap's value parsers), so
    the callers it found do not say what every caller does (zellij's `Clipboard::from_str`)."""
    return " for " in (site.facts.enclosing_impl or "")


def _program_only(reach: Reach) -> bool:
    """Whether every path the index found to an entry point starts in a program (its `main`,
    a subcommand, a request, a statement: `_PROGRAM_ENTRIES`), none where other code calls
    in (a library's public API, a Python function pyo3 exports): a `match` on the
    crate-only fn's result is then code only the program's own authors could write, and its
    user, who runs the program, has no call to wrap (cargo's `exec` of `cargo package`,
    risingwave's `check_data_type_compatibility` of the SQL Server sink: readings 319, 320).
    False with no path to an entry point, or with more entry points found than the paths
    name (`Reach.entries`: a public one may be among those not shown, ranked after a
    program's): who calls it then is not known."""
    entries = [path.entry for path in reach.paths if path.entry]
    return bool(entries) and set(entries) <= _PROGRAM_ENTRIES and reach.entries is None


# The entry points that are a program's own way in: a library's public API, a macro's
# expansion and a custom entry (a Python function pyo3 exports, a `repos.toml` pattern) are
# calls other code makes
_PROGRAM_ENTRIES = frozenset(
    ("main", "cli", "rpc", "http", "statement", "example", "build", "bench")
)


def _stopped_by_callers(reach: Reach | None) -> str | None:
    """How one caller keeps the error, when every path the index found ends at a fn whose
    callers all drop or log it and go on, and none reaches an entry point (`Hop.handled`)."""
    if reach is None:
        return None
    if not reach.paths and reach.dropped_by:  # the callers of the site's own fn keep it
        if reach.logged:
            return reach.logged
        return "its one caller drops it" if reach.dropped_by == 1 else "its callers drop it"
    if not reach.paths or any(path.entry or not path.hops[0].handled for path in reach.paths):
        return None
    return reach.paths[0].hops[0].handled


# a fn's signature that code outside its crate can call it by (not `pub(crate)`)
_PUBLIC_FN = re.compile(r"pub\s+(?:const\s+|async\s+|unsafe\s+|extern\s+\S+\s+)*fn\b")


def _passed_literally(solution: str, reach: Reach | None) -> str | None:
    """ "The check depends on what is passed to `f` (`x`, `y`): pass values the check
    accepts." said again where `f` has one caller, which passes a literal for some of them,
    and no code outside its crate calls it: cargo's `prepare_context(.., true)` from its one
    caller `report_timings` left no value to pass (reading 149). None otherwise."""
    if reach is None or reach.callers != 1 or not reach.paths:
        return None
    if not (solution.startswith(PASSED_LEAD) and solution.endswith(PASSED_TAIL)):
        return None
    if _PUBLIC_FN.match(reach.paths[0].hops[-1].signature or ""):
        return None
    fn, _, inputs = solution[len(PASSED_LEAD) : -len(PASSED_TAIL)].partition(" (")
    items = _INPUT_ITEM.findall(inputs.removesuffix(")"))
    passed = {
        d.name: d.passed[0]
        for d in reach.dependencies
        if d.passed and not d.rebound and not d.passed[0].others
    }
    literal = {
        name: passed[name]
        for _, name in items
        if name in passed and _LITERAL_ARGUMENT.fullmatch(passed[name].argument.strip())
    }
    if not literal:
        return None
    said = "; ".join(handoff_text(h) for h in literal.values())
    others = [item for item, name in items if name not in literal]
    if not others:
        return (
            f"The check reads what the one caller of {fn} passes, a literal ({said}): no "
            "value of a caller's to change; the rest of the check decides."
        )
    names = ", ".join(f"`{name}`" for name in literal)
    return (
        f"{PASSED_LEAD}{fn} ({', '.join(others)}){PASSED_TAIL} Its one caller passes a "
        f"literal for {names} ({said}): no value to change there."
    )


def _deciding(site: Site) -> str:
    """The text of the site's checks that refuse (`refusing_checks`): the last, and those
    before it that held (a `match` arm taken, an `if` true), but those that only found a
    value (`let Some(schema) = self.schema.as_ref()` matched: tantivy's "cannot be combined
    with sort_by_field" is no matter of the schema). Not one that did not hold on the way
    (greptimedb's `self.primary_key() > other.primary_key()` is false before the timestamps
    are compared)."""
    checks = refusing_checks(site)
    return " ".join(
        c.text
        for at, c in enumerate(checks)
        if at == len(checks) - 1
        or not (c.negated or (c.kind == "if_let" and _FOUND_VALUE.match(c.text)))
    )


# an `if let` that only finds a value: `let Some(x) = ..`, `Ok(x) = ..`
_FOUND_VALUE = re.compile(r"\s*(?:let\s+)?(?:Some|Ok)\s*\(")


def _with_options(fixes: list[str], reach: Reach | None, site: Site) -> list[str]:
    """`fixes` and, where the site's refusing checks (`_deciding`) read fields that are
    command-line options (`Dependency.option`), what to look at on the command line:
    foundry's `forge doc` checks `self.serve`, the `--serve` flag; its advice had been "make
    sure `!doc_args.serve`" of a private field (reading 323). Not where the site is a
    call's failure, to which the options only led."""
    if ends_in_a_failed_call(site):
        return fixes
    checked = _deciding(site)
    read = [
        (d.name, d.option)
        for d in (reach.dependencies if reach is not None else ())
        if d.option and _reads(checked, d.name)
    ]
    if not read:
        return fixes
    said = ", ".join(f"`{name}` is the option `{option}`" for name, option in read)
    return [
        *fixes,
        f"What the command was given on its command line decides this ({said}): the values "
        "passed there are where to look first.",
    ]


def _reads(checked: str, name: str) -> bool:
    """Whether the checks' text reads `name` (`self.serve`), not a longer name around it."""
    return re.search(rf"(?<![\w.]){re.escape(name)}\b", checked) is not None


def _with_setters(fixes: list[str], reach: Reach | None, checked: str) -> list[str]:
    """`fixes` with, after the "depends on what is passed" one (else last), the method that
    sets each field a refusing check reads (`Dependency.setter`; `checked`, the checks'
    text): sqlx's `maybe_upgrade` reads `options.ssl_mode`, which a program chooses with
    `MySqlConnectOptions::ssl_mode(..)`. Not a field that only chose the way to a call that
    failed (mdBook's `if self.copy_theme`, before the copy that failed)."""
    own = reach.paths[0].hops[-1].name if reach is not None and reach.paths else None
    set_by = [
        d
        for d in (reach.dependencies if reach is not None else ())
        if d.setter
        and d.setter != own  # cargo's `set_values` refuses a second call: no other place
        and _reads(checked, d.name)
        # already told (`state_panic`: "`visibility` is set by `set_visibility`")
        and not any(f"`{d.setter.rsplit('::', 1)[-1]}`" in fix for fix in fixes)
    ]
    if not set_by:
        return fixes
    said = "; ".join(f"`{d.setter}(..)` sets `{d.name}`" for d in set_by[:3])
    line = (
        f"{said}, which the check reads: where a program calls "
        f"{'it' if len(set_by) == 1 else 'them'} is one place the value is chosen."
    )
    at = next((i + 1 for i, s in enumerate(fixes) if s.startswith(PASSED_LEAD)), len(fixes))
    return [*fixes[:at], line, *fixes[at:]]


# a literal argument: a string, a character, a bool or a number (not `0..n`, which the
# number form of `fixed_input.LITERAL` takes for one)
_LITERAL_ARGUMENT = re.compile(
    r'&?\s*(?:b?"(?:[^"\\]|\\.)*"|b?\'(?:[^\'\\]|\\.)\'|true|false|'
    r"-?\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?(?:_?(?:[iu](?:8|16|32|64|128|size)|f32|f64))?)"
)
# an input of the "depends on what is passed" sentence: `name`, maybe with a note after it
_INPUT_ITEM = re.compile(r"(`([^`]+)`(?: \([^()]*\))?)")


def _parsed_by_clap(reach: Reach | None) -> str | None:
    """The option (or argument) clap parses with the site's fn, when every path the index
    found starts at such a parser (fd's `SizeFilter::from_string`, `value_parser` of
    `--size`: reading 325): clap calls it, and prints the error it returns."""
    options = [parsed_option(p) for p in reach.paths] if reach is not None else []
    return options[0] if options and all(options) else None


def _clap_prints(option: str) -> str:
    """What becomes of an error an option's value parser returns (`_parsed_by_clap`)."""
    return (
        f"clap runs it on the value a user gives for {option}; when it returns this error, "
        "clap prints it as why that value is invalid (`error: invalid value .. for ..`) and "
        "exits with status 2: no code of the program gets it."
    )


def _parsed_option(reach: Reach | None) -> str | None:
    """The option (or argument) whose value the site's fn parses itself, when its best path
    is that entry alone: xh's `Timeout::from_str` is `--timeout`'s parser."""
    best = reach.paths[0] if reach is not None and reach.paths else None
    return parsed_option(best) if best is not None and len(best.hops) == 1 else None


def _given_to(option: str, solution: str) -> str:
    """ "The check depends on what is passed to `f` (`x`): .." said of the option's value."""
    if not (solution.startswith(PASSED_LEAD) and solution.endswith(PASSED_TAIL)):
        return solution
    parser, _, inputs = solution[len(PASSED_LEAD) : -len(PASSED_TAIL)].partition(" (")
    return (
        f"The check depends on the value given to {option}, which {parser} gets as "
        f"{inputs.removesuffix(')')}: give one the check accepts."
    )


def explain_apart(context: SiteContext) -> Explanation:
    """The static explanation of one site but what its reach adds: nothing else reads it."""
    if context.site.kind in TEXT_KINDS and context.site.facts.conditions:
        # a `Display` impl's `match self` says which variant it writes, not when the error
        # occurs: the code that builds the value decides that (its reach says where)
        site = context.site
        context = replace(context, site=replace(site, facts=replace(site.facts, conditions=())))
    site = context.site
    conditions = list(site.facts.conditions)
    facts = site.facts
    names = [n for n in (site.error_code, facts.variant, facts.enclosing_type, facts.callee) if n]
    # what leads into the site classes it, not the early exits and checks passed above it
    # (`if certs.is_empty() { bail!(..) }` says nothing of a private key that is not usable)
    # (nor the test of an `if` whose else branch it is: `preprocessor_names.is_empty()` was
    # false, and says nothing of mdBook's "Cyclic dependency detected in preprocessors",
    # reading 114)
    # (nor an `assert!`/`ensure!` above that held: lemmy's `debug_assert!(!inbox_urls.
    # is_empty())` gave "by the word \"empty\"": Invalid argument to a missing actor row,
    # reading 128)
    leading = [c.text for c in conditions if c.kind not in ("exit", "else", "ensure")]
    # .. the word `status` where the checks read a response's or a process's status
    worded = without_status_words(
        leading, (text for c in conditions for text in (c.text, *c.excluded))
    )
    found = classify_explained(site.message, site.kind, worded, names, path=site.file_path)
    failure_class = found.slug
    wrapped = source_class(site) if site.kind in TEXT_KINDS else None
    if wrapped is not None and failure_class in (IO_ERROR, PARSE_ERROR, FALLBACK):
        # the source it prints failed so, whatever verb leads the message (just's "failed to
        # read cache entry at `{}`: {source}", a `serde_json::Error`: no I/O error, 281)
        failure_class = wrapped
    if found.guessed and failure_class != INTERNAL_INVARIANT and says_it_is_a_bug(site):
        # its message or its authors' help calls it the program's own bug: nushell's
        # "Internal YAML Parser Error" with `.with_help("This is most likely a bug. Please
        # report it.")` read "by the words "parser", "yaml": Parse error" (reading 182)
        failure_class = INTERNAL_INVARIANT
    check = validation(context)
    if failure_class == INTERNAL_INVARIANT and refused_inputs(context, check):
        # a panic on what the caller passed is no broken invariant of the code's own
        failure_class = INVALID_ARGUMENT
    elif failure_class == INTERNAL_INVARIANT and fatal_failure(site):
        # `panic!("Failed to claim terminal: {}", err)`: a failure made fatal, classed by
        # its words as any error is (the generic class when they name none)
        found = classify_explained(site.message, "bail", worded, names, path=site.file_path)
        failure_class = found.slug
    elif failure_class == INTERNAL_INVARIANT and failure_worded(site):
        # `.expect("Failed to open file")`: the step it names failed, classed by the
        # message's verb alone (the call it guards, `thread::Builder::new().spawn(..)`,
        # names no failure, nor does the step's object)
        failure_class = classify_step(site.message, path=site.file_path, conditions=leading)
    if context.error_type == "panic" and poisoned_lock(site) is not None:
        # a lock's error is its poisoning, an earlier panic's: no conflict of writers
        # (tikv's "failed to acquire write lock." read Concurrency conflict, reading 150)
        failure_class = INTERNAL_INVARIANT
    if fixed_input(site) is not None:
        # `Regex::new(r"..").expect("cannot build regex")`: only the literal can be wrong,
        # a bug of the code's whatever step the message names (vector's vdev read
        # "Operation failed")
        failure_class = INTERNAL_INVARIANT
    if missing_directory(site) is not None:
        # `dirs::home_dir().expect(..)`, `let Some(d) = dirs::cache_dir() else { bail!(..) }`:
        # the environment names no home directory, whatever the message's words say
        failure_class = CONFIGURATION
    documented = documented_panic(site)
    if failure_class == INTERNAL_INVARIANT and documented is not None:
        # the fn's `# Panics` section states when (a caller broke a rule of its API): on a
        # value it passes, or on the state it calls in (pingora's "already started encoding")
        failure_class = INVALID_STATE if states_the_state(site, documented) else INVALID_ARGUMENT
    elif failure_class == INTERNAL_INVARIANT and assertion_macro(site) is not None:
        # an assertion macro's body: its user's assertion failed where it is used
        failure_class = INVALID_ARGUMENT
    elif failure_class in (INTERNAL_INVARIANT, NOT_IMPLEMENTED) and unit_stub(site) is not None:
        # a method of `impl Trait for ()` that only panics: `()` holds the place of a real
        # `Trait`, which does not support it (pingora's `impl Session for ()`)
        failure_class = UNSUPPORTED
    elif failure_class == INTERNAL_INVARIANT and state_panic(site):
        # a panic on the state of the method's `self` that the impl's fns move on: the
        # calls made before it, no assumption of its own (pingora's `HttpCache` phases)
        failure_class = INVALID_STATE
    if (
        failure_class in (INTERNAL_INVARIANT, NOT_IMPLEMENTED) or context.error_type != "panic"
    ) and platform_stub(site):
        # a stub that panics on every run of the targets its gate picks: those targets are
        # not supported, no assumption of the code's broke (neon's non-Linux `main`)
        failure_class = UNSUPPORTED
    if failure_class == INTERNAL_INVARIANT and missing_argument(site) is not None:
        # `std::env::args().nth(1).expect("USAGE: ..")`: run without the argument it reads
        failure_class = INVALID_ARGUMENT
    if failure_class == INTERNAL_INVARIANT and failed_fs_step(site):
        # `create_dir_all(path).expect("should create")`: the file system's step failed
        failure_class = IO_ERROR
    if failure_class in _NOT_OF_PARSING and parsed_text(site) is not None:
        # `Url::parse(..).context("cannot create direct url")`: what failed is the parse of
        # a text, whatever step the message names (pixi's "create" read as an I/O error,
        # with disk-space tips, reading 132)
        failure_class = PARSE_ERROR
    if failure_class in (INTERNAL_INVARIANT, FALLBACK, PARSE_ERROR) and non_utf8_path(site):
        # `home.to_str().expect(..)`: a path that is not UTF-8, a name on the machine or a
        # path given, no bug of the code's and no text parsed (cargo's, reading 140)
        failure_class = INVALID_ARGUMENT
    if failure_class in (INTERNAL_INVARIANT, FALLBACK) and clock_before_epoch(site):
        # `duration_since(UNIX_EPOCH).expect(..)`: the machine's clock is set before 1970; a
        # step that failed on its machine, no setting of the program's (a Configuration error
        # sent bottom's reader to its config file, reading 124's recheck)
        failure_class = FALLBACK
    if failure_class == FALLBACK and registered_metric(site) is not None:
        # `register_int_counter!(..).expect(..)`: the registry refused the code's own
        # definition of a metric, a bug; no step of the environment's (neon's, reading 191)
        failure_class = INTERNAL_INVARIANT
    if failure_class in (INTERNAL_INVARIANT, FALLBACK) and started_program(site) is not None:
        # `Command::new("npm").status().expect(..)`: the program could not be started (not
        # installed, not on `PATH`); one that ran and failed is an `Ok` with its status
        failure_class = NOT_FOUND
    if failed_thread_step(site) and failure_class in (INTERNAL_INVARIANT, FALLBACK):
        # `thread::Builder::new().spawn(f).expect(..)`: the system refused a thread
        failure_class = RESOURCE_EXHAUSTED
    if failure_class in _NOT_OF_TEXT and context.error_type != "panic" and _parses_text(site):
        # a `FromStr` error is the text's: xh's `Timeout::from_str` "Connection timeout is
        # too big" and "..must be non negative" refuse what was typed for `--timeout`; no
        # resource ran out, no time limit passed
        failure_class = INVALID_ARGUMENT
    elif failure_class == RESOURCE_EXHAUSTED and _reads_input(site) and bound_check(leading):
        # a value being read (a `Deserialize` impl's, a serde `Visitor`'s) over a bound the
        # code holds: out of range, no resource run out (alacritty's "exceeded maximum
        # scrolling history" of `lines > MAX_SCROLLBACK_LINES` read "retry", reading 324)
        failure_class = OUT_OF_RANGE
    if failure_class == INTERNAL_INVARIANT and set_variable(conditions) is not None:
        # a panic on a path that needs an environment variable set is on its value
        # (`if let Ok(t) = env::var("X") { t.parse().expect(..) }`): the environment's
        failure_class = CONFIGURATION
    if waited_out(site) and (failure_class in (INTERNAL_INVARIANT, FALLBACK) or found.guessed):
        # past a loop that polls, sleeping between tries, and returns once what it waits
        # for holds: the wait ran out (tikv's `must_peer_state`, reading 241), no broken
        # invariant and no class its words chose
        failure_class = TIMEOUT
    if failure_class == FALLBACK and names_a_setting(site.message) is not None:
        # "`package.publish` requires `package.version` be specified": a manifest's or a
        # configuration's keys refused, not an operation that failed (cargo, reading 250)
        failure_class = CONFIGURATION
    if failure_class == FALLBACK and documented_error(site) is not None:
        # the fn's doc says it returns an error when a parameter is so: the caller's value
        # (rust-prometheus' `exponential_buckets`, reading 303)
        failure_class = INVALID_ARGUMENT
    if failure_class == FALLBACK and site.facts.parsed_by and context.error_type != "panic":
        # clap's check of an option's value refuses what the user typed (bat's "terminal
        # width cannot be zero", reading 300)
        failure_class = INVALID_ARGUMENT
    if failure_class not in (INTERNAL_INVARIANT, CONFIGURATION) and config_check(site):
        # `QuotaConfig::validate`: what it refuses is a setting the user wrote, whatever
        # class the message's words chose ("quota": Resource exhausted; reading 241)
        failure_class = CONFIGURATION
    if failure_class == NOT_FOUND and found.guessed and listed_values(conditions) is not None:
        # `_ => bail!("unknown base tokenizer {}", name)` after `"simple" =>`, `"raw" =>`: a
        # value none of those the code lists, no thing missing to create (reading 232)
        failure_class = INVALID_ARGUMENT
    named_kind = constructor_kind(site)
    if named_kind is not None:
        # `SymbolicError::Unsupported(..)`: the variant says what the error is, which neither
        # the message's words ("out-of-bounds") nor the bound it checks outweigh: the engine
        # does not handle that case (foundry's symbolic RETURNDATACOPY, reading 328)
        failure_class = UNSUPPORTED if named_kind == "unsupported" else NOT_IMPLEMENTED
    if documented_invariant(site) is not None and (found.guessed or failure_class == FALLBACK):
        # `DataFusionError::Internal(..)`: its library's error for a broken invariant, which no
        # single word of the message outweighs (influxdb's encoder, reading 327)
        failure_class = INTERNAL_INVARIANT
    verdict = authors_verdict(site) if context.error_type != "panic" else None
    if verdict is not None:
        # its authors' comment says the state cannot come about ("So it should not be
        # possible to get this error"): no caller's value to correct (qdrant, reading 144)
        failure_class = INTERNAL_INVARIANT
    # words that chose the class, when single keywords did and no rule after them moved it:
    # the class is said to be theirs, its tip is given as an "if", and its strategy is the
    # class's only where the code shows it (a check to validate against), never "retry" a
    # range check of a setting's nor "upgrade" two settings that conflict (readings 106-108)
    guess = found if found.guessed and found.slug == failure_class else None
    strategy: HandlingStrategy = _STRATEGY_BY_CLASS.get(failure_class, "try-catch")
    if context.error_type == "panic":
        strategy = "fail-fast"
    elif site.facts.parsed_by:  # clap refuses the value and exits: nothing to catch
        strategy = "validation"
    elif guess is not None and not (strategy == "validation" and check is not None):
        strategy = "try-catch"
    return Explanation(
        documentation=_sentence(_documentation(context, failure_class, guess))
        + _verdict_sentence(verdict, site.facts.type_doc),
        triggerScenarios=_unwinding(
            context, _with(_trigger_waited(site, conditions), _gated(site, context.features_on))
        ),
        commonSituations=_unwinding(context, _situations(context, failure_class)),
        solutions=[_sentence(s) for s in solutions(context, check, failure_class)],
        exampleFix=_state_fix(
            site,
            example_fix(
                context, check, guard=is_guard(context, conditions), failure_class=failure_class
            ),
        ),
        handlingStrategy=strategy,
        validationCode=through_getter(caller_check(site, check), site),
        typeGuard=through_getter(type_guard(context), site),
        tryCatchPattern=try_catch(context),
        preventionTips=[_sentence(s) for s in prevention(context, check, failure_class, guess)],
        tags=_tags(context, failure_class),
        backgroundTag=failure_class,
    )


def _state_fix(site: Site, example: str) -> str:
    """The exampleFix of a panic on its `self`'s state, or of a placeholder's method
    (`unit_stub`), with the comment that says so."""
    if state_panic(site):
        return recommented(example, state_comment(site))
    if (trait := unit_stub(site)) is not None:
        return recommented(example, placeholder_comment(trait))
    return example


def _verdict_sentence(verdict: str | None, doc: str | None) -> str:
    """' Its authors\' comment at it says: "..".', unless the doc comment quoted before
    holds it (an `#[error]` variant's `///`)."""
    if verdict is None or (doc and verdict in doc):
        return ""
    return f' Its authors\' comment at it says: "{verdict}"' + (
        "" if verdict.endswith((".", "!", "?")) else "."
    )


def _unwinding(context: SiteContext, text: str) -> str:
    """`text`, and where the site is a poisoned lock in a workspace whose profiles abort on
    a panic, that only a build that unwinds gets there (`locks.unwinding_only`)."""
    if context.aborts and poisoned_lock(context.site) is not None:
        return f"{text} {unwinding_only(context.aborts)}"
    return text


def _sentence(text: str) -> str:
    """`text` with a capital first letter: a sentence may lead with `where(site)`, "the
    top-level code of `x.rs`" (typst's `cast!` blocks hold no fn)."""
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def _with(text: str, sentence: str | None) -> str:
    """`text`, and the index's sentence after it when there is one (issue 10)."""
    return f"{text} {sentence}" if sentence else text


def _trigger_waited(site: Site, conditions: Sequence[Condition]) -> str:
    """`_trigger`, and what a polling loop before the site says (`Facts.waited`): the wait
    ran out. With no condition of its own, the loop is what decides (tikv's
    `must_peer_state` read "No `if` .. decides whether this site runs", reading 241)."""
    said = _trigger(site, conditions)
    if not (head := waited_out(site)):
        return said
    waited = (
        f"`{head}` tries again, sleeping between tries, and returns once what it waits for "
        "holds: this site runs when the wait ran out without it."
    )
    return waited if not conditions else f"{said} {waited}"


def _class_sentence(failure_class: str, guess: Classification | None) -> str:
    """ " Class: Timeout.", or whose words chose it: ' Class, by the word "exceeded":
    Resource exhausted.', ' Class, by the word "status" in the checks that lead here: ..'
    (vector's "Delivery error": the word is not the message's, reading 106's recheck)."""
    title = load_taxonomy()[failure_class].title
    if guess is None:
        return f" Class: {title}."
    words = ", ".join(f'"{w}"' for w in guess.hits)
    where = " in the checks that lead here" if guess.source == "conditions" else ""
    return f" Class, by the word{'s' if len(guess.hits) > 1 else ''} {words}{where}: {title}."


def _documentation(context: SiteContext, failure_class: str, guess: Classification | None) -> str:
    site = context.site
    facts = site.facts
    title = _class_sentence(failure_class, guess)
    if site.kind in TEXT_KINDS:
        source = _attribute(site) if site.kind == "error_attr" else f"its `{_trait(site)}` impl"
        if facts.variant:  # a variant is no type: it is one case of its enum's
            text = (
                f"`{facts.enclosing_type}::{facts.variant}` is a variant of the error type "
                f'`{facts.enclosing_type}`; its message ({source}) reads "{site.message}".'
            )
        else:
            text = (
                f"`{facts.enclosing_type}` is an error type whose message ({source}) reads "
                f'"{site.message}".'
            )
        if facts.type_doc:
            text += f' Its doc comment says: "{doc_summary(facts.type_doc)}"'
        elif facts.enum_doc:  # said to be the enum's: it may not fit this variant
            text += (
                f" The variant has no doc comment; the enum `{facts.enclosing_type}`'s says: "
                f'"{doc_summary(facts.enum_doc)}"'
            )
        return text + title
    verb = _VERB[site.kind]
    if site.macro.endswith("!"):  # the repository's own error macro (`polars_bail!`)
        verb = _OWN_MACRO_VERB.get(site.kind, verb).format(site.macro)
    elif site.kind == "constructor":  # `Err("..")` builds nothing but the `Err` itself
        verb = (
            "returns `Err` with this message" if site.macro == "Err" else f"{verb} `{site.macro}`"
        )
    if wraps_an_error(site):
        verb = f"wraps the error `{facts.receiver}` in this message"
    if (reported := reported_to(site)) is not None:
        # `working_set.error(ParseError::Expected(..));`: reported there, not returned
        made = f"`{site.macro}`" if site.kind == "constructor" else f"`{site.macro}!`"
        verb = f"hands an error built by {made} to {reported}"
    text = f"{where(site)} {verb} in `{site.file_path}`."
    if reported is not None:
        # not "not returned": qdrant's `errors.add(.., ValidationError::new(..)); Err(errors)`
        text += " The code goes on after that call."
    if facts.spawned and context.error_type != "panic":
        # yazi's `bail!` in `tokio::spawn(async move { .. })` of `Rename::act` (reading 107)
        text = (
            f"A task that {where(site)} starts with `{facts.spawned}` {verb} in "
            f"`{site.file_path}`. The error is made inside that task, not by {where(site)} "
            f"itself: it reaches the caller of {where(site)} only through the task (its handle "
            "awaited and the error passed on, or a channel it sends the error on)."
        )
    if facts.parsed_by and context.error_type != "panic":
        # bat's `--terminal-width` check in `build_app`, which returns a `Command` (reading 300)
        text = (
            f"{where(site)} hands a check of an option's value to clap ({facts.parsed_by}), "
            f"and that check {verb} in `{site.file_path}`. clap runs it on the value a user "
            "gives for the option; when it fails, clap prints this message as why the value is "
            "invalid and exits: no caller of "
            f"{where(site)} gets it."
        )
    if facts.discarded and context.error_type != "panic" and not facts.spawned:
        # sccache's `normpath`: `.map_err(|_| io::Error::other(..))` in a chain that ends
        # `.unwrap_or_else(|_| ..)` (reading 126): the fn returns no such error
        text = (
            f"{where(site)} makes this error in a closure in `{site.file_path}`, and drops it "
            f"there: the chain it is made in ends in {facts.discarded}, which keeps nothing of "
            f"it, so no caller of {where(site)} gets it and no user reads it."
        )
    if site.kind == "constructor" and _VARIANT_BUILT.search(site.macro or ""):
        # `ParseError::Expected("valid variable name")` shows as "Parse mismatch: expected
        # valid variable name.": the literal is a value of the variant, not all its text
        text += carried_value(site.macro)
    if site.kind in ("expect", "context") and facts.receiver and not wraps_an_error(site):
        # the steps after the chain's last `?`, where it has one (`…?.peel_to_tree()`)
        after = guarded_call(site, ("Err", "None", "None/Err")) or ""
        guarded = after if after.startswith(EARLIER_STEPS) else facts.receiver
        outcome = _guarded_outcome(site, guarded)
        if guarded.endswith("?") and outcome in _EITHER:
            # `read(pool).await?.context(..)`: the call's own error left at its `?`, without
            # this message; the value after it holds nothing (lemmy's "apub site not found"
            # read as a database error, reading 162)
            text += (
                f" What `{guarded}` gave after its `?` was `None` or an error: an error of "
                "the call itself leaves at that `?`, without this message."
            )
        elif (nonempty := nonempty_checked_above(site)) is not None:
            # `!to_export.is_empty()` above `to_export.iter().next().expect(..)`: not "was
            # `None`" beside the check that says it holds an item (reading 322)
            text += (
                f" It fails only if `{nonempty.collection}` is empty, which `{nonempty.check}` "
                f"above rules out: `{nonempty.item}` gives an item here."
            )
        elif "(" not in guarded and (above := option_checked_above(site)) is not None:
            # neon's `az_id.expect("Checked above")` after `if az_id.is_none() { panic!(..) }`:
            # not "was `None`" beside "`az_id.is_none()` is false" (recheck 262)
            text += (
                f" It fails only if `{guarded}` is `None`, which `{above}` above already "
                "stops, with its own message."
            )
        elif "(" not in guarded:  # a value, not a call (sccache's `dist_compile_cmd`)
            held = _HELD.get(outcome, outcome)
            text += f" The value it guards, `{guarded}`, {held}."
        else:
            text += f" The call it guards, `{guarded}`, {outcome}."
        if facts.unwrapped is not None:
            # crates.io's `.context("Failed to initialize S3 code").unwrap()` (reading 139)
            text += (
                f" The {unwrapping(facts.unwrapped)} right after it panics on that error: the panic"
                " message holds this message and its causes (the error's `Debug` form), after"
                + (
                    ' "called `Result::unwrap()` on an `Err` value: ".'
                    if facts.unwrapped == "unwrap"
                    else " the `.expect(..)`'s own message."
                )
            )
        if guarded.startswith(EARLIER_STEPS):
            text += (
                " The steps before its `?` ran first: one that failed returned there, at its"
                " `?`, with the error it gave."
            )
        if (fixed := fixed_input(site)) is not None:
            text += fixed_input_note(fixed)
    if facts.fn_doc:
        text += f' The function\'s doc comment says: "{doc_summary(facts.fn_doc)}"'
    if context.error_type == "panic" and (constant := compile_time_const(site)) is not None:
        text += (
            f" It is in the initializer of `const {constant}`, which the compiler evaluates: it"
            " fails the build with this message, never a run."
        )
    elif context.error_type == "panic":
        text += _UNWINDS
    if debug_assertion(site):
        text += (
            f" `{site.macro}!` checks only where debug assertions are on (debug builds and"
            " tests): a release build goes on past it."
        )
    return text + title


# A panic is no returned `Err`, but "returns no error" was false where a caller catches it
# and the user meets an error value (a failed task, an HTTP 500: reading 311, a search run by
# `spawn_blocking` whose call the index does not follow through a `dyn` trait): said as what
# holds whoever runs the code.
_NO_ERR = " A panic is no `Err` the caller can handle with `?`:"
_UNWINDS = (
    f"{_NO_ERR} it unwinds the thread or task it runs in. A `catch_unwind(..)` around it, or"
    " the handle of that thread or task (its `join()`, an awaited `JoinHandle`), gives it back"
    " there as an error value; where nothing"
    " does, that thread or task ends, and the whole process with it when it is the main thread,"
    ' a panic hook exits, or the build sets `panic = "abort"`.'
)


def _panic_end(reach: Reach) -> str:
    """What a panic's documentation says it ends, where its reach tells more than `_UNWINDS`:
    met only as a procedural macro expands, the using crate's build (the compiler catches it,
    whatever `panic` the build sets: rust-prometheus' `make_static_metric!`, reading 303); only
    in a build script, its package's build (its `build.rs`, 303's recheck); where the
    repository installs a hook that ends the process, the process (risingwave's, 305)."""
    if reach.paths and all(p.entry == "macro" for p in reach.paths):
        return _MACRO_PANIC
    if reach.paths and all(p.entry == "build" for p in reach.paths):
        return _BUILD_PANIC
    if reach.panic_hook:
        return (
            f"{_NO_ERR} {reach.panic_hook} installs a panic hook that ends the process"
            " (`process::abort`/`exit`), so in a program that installs it this panic can end the"
            " whole process, not only the current thread or task."
        )
    if reach.caught_by:  # meilisearch's batch thread makes a failed task of it (reading 311)
        return (
            f"{_NO_ERR} it unwinds the thread or task it runs in. On the first caller path,"
            f' {reach.caught_by}, and the process goes on unless the build sets `panic = "abort"`.'
        )
    return _UNWINDS


_BUILD_PANIC = (
    ' A panic in a build script stops no program: Cargo reports "failed to run custom build'
    ' command" with this message, and the package fails to build.'
)
_MACRO_PANIC = (
    " A panic while a procedural macro expands stops no program: the compiler reports it"
    ' ("proc macro panicked", with this message), and the crate that uses the macro fails to'
    " build."
)


def _returned_situation(site: Site) -> str:
    """How a type's text's situation opens (`with_reach` rewords it where no builder
    returns the value)."""
    return f"When code returns a `{text_owner(site)}`"


def _attribute(site: Site) -> str:
    """The attribute an `error_attr` site's text is written in, as the code writes it:
    thiserror's `#[error(..)]` or snafu's `#[snafu(display(..))]` (`Site.macro`)."""
    return "`#[snafu(display(..))]`" if site.macro == "snafu" else "`#[error(..)]`"


def _trait(site: Site) -> str:
    """The formatting trait whose `fmt` writes a `display` site's text: `Display`, or the
    impl's own (just's `ColorDisplay`, which its `Error` has instead of a `Display`)."""
    impl = site.facts.enclosing_impl or ""
    return impl.partition(" for ")[0] if site.kind == "display" and " for " in impl else "Display"


def _trigger(site: Site, conditions: Sequence[Condition]) -> str:
    place = where(site)
    if site.kind in TEXT_KINDS:
        owner = text_owner(site)
        only = (
            "attribute only defines"
            if site.kind == "error_attr"
            else f"`{_trait(site)}` impl only writes"
        )
        return (
            f"Whenever a `{owner}` value is formatted with `{_trait(site)}`: returned to a caller "
            f"who prints it, logged, or wrapped as the cause of another error. The {only} the "
            f"text; the code that constructs `{owner}` decides when that happens."
        )
    if not conditions:
        # not "no `if` .. encloses this site": an `if` whose branches both make the error
        # (`sites._either_branch`) encloses it, and decides only how it is built (reading 148)
        return (
            f"No `if`, `match`, `let ... else` or `ensure!` inside {place} decides whether "
            f"this site runs: it runs each time {place} gets this far, past any early return "
            "(`?`, `return`) above it."
        )
    steps = [f"{i}. {describe(c)}" for i, c in enumerate(conditions, 1)]
    if option_checked_above(site) is not None:  # its `None` is what the check above stops
        steps[-1] += " (the check above stops a `None` first: as the code stands, never)"
    elif (nonempty := nonempty_checked_above(site)) is not None:
        steps[-1] += (
            f" (`{nonempty.check}` above says `{nonempty.collection}` holds an item: as the "
            "code stands, never)"
        )
    elif (arm := exited_above(conditions)) is not None:  # the exit above left on its pattern
        steps[arm] += " (the exit above leaves on it first: as the code stands, never)"
    elif fixed_input(site) is not None:  # no run differs (nushell's examples, recheck 282)
        steps[-1] += " (given only fixed values: on every run that gets here, or on none)"
    steps.append(f"{len(steps) + 1}. `{site.macro}` produces the error")
    if site.facts.unwrapped is not None:
        steps.append(f"{len(steps) + 1}. {unwrapping(site.facts.unwrapped)} panics on it")
    return f"In {place}: " + "; ".join(steps) + "."


def _gated(site: Site, features_on: Sequence[tuple[str, str]] = ()) -> str | None:
    """Which builds have the site's code, when `#[cfg(..)]` attributes around it say
    (hickory's `DS` arm exists only without its `__dnssec` feature, nextest's Windows-only
    panic; readings 131, 133), else None; and whether a build that asks for no feature has
    the features they need on (`SiteContext.features_on`: atuin's `yaml-serde`, which no
    manifest turns on, read as an error users meet, reading 327)."""
    gates = site.facts.gates
    if not gates:
        return None
    written = " and ".join(f"`#[cfg({gate})]`" for gate in gates)
    text = f"Only builds where {written} {'holds' if len(gates) == 1 else 'hold'} have this code"
    features = [m[1] for gate in gates if (m := _WITHOUT_FEATURE.fullmatch(gate))]
    if features:
        named = ", ".join(f"`{f}`" for f in features)
        text += f": a build with the feature {named} does not get here"
    elif "debug_assertions" in gates:
        text += ": debug builds, not release builds"
    elif "not(debug_assertions)" in gates:
        text += ": release builds, not debug builds"
    return text + "." + "".join(f" {_feature_on_text(f, why)}" for f, why in features_on)


def _feature_on_text(feature: str, why: str) -> str:
    """ "`sync` is one of its package's default features.": whether a build that asks for
    no feature has it (`cargo_features`)."""
    if why == "default":
        return f"`{feature}` is one of its package's default features."
    if why:
        return f"`{feature}` is on where `{why}`, a package of the repository, depends on it."
    return (
        f"No manifest of the repository turns `{feature}` on unasked (it is not one of its "
        "package's default features, and no package of the repository that depends on it "
        f"asks for it): only a build that asks for it (`--features {feature}`, or a feature "
        "that turns it on) has this code."
    )


# `not(feature = "x")`: the code exists only while the feature is off
_WITHOUT_FEATURE = re.compile(r'not\(feature\s*=\s*"([^"]+)"\)')


# what `_guarded_outcome` says of a call, said of a value (reading 170: "The call it
# guards, `dist_compile_cmd`, returned .." of a local `Option`)
_HELD = {
    "gave no value (`None`)": "was `None`",
    "returned an error": "was an `Err`",
    "returned `None` or an error": "was `None` or an `Err`",
}
# what `_guarded_outcome` says when the tree does not tell `None` from an error
_EITHER = ("was `None` or `Err`", "returned `None` or an error")


def _guarded_outcome(site: Site, guarded: str) -> str:
    """What the call an `.expect(..)`/`.context(..)` guards (`guarded`: its receiver, or the
    steps after its last `?`) gave, as its condition says: no value when std's call returns
    an `Option` (xh's `s.split_once(':')` "returned an error" before), an error for a
    `Result`, either when the tree does not tell."""
    step = f"{guarded} "
    said = next(
        (
            c.text[len(step) :]
            for c in reversed(site.facts.conditions)
            if c.kind == "closure" and c.text.startswith(step)
        ),
        "",
    )
    if said.startswith("was None ("):
        return "gave no value (`None`)"
    if said.startswith(("was Err (", "failed (")):
        return "returned an error"
    return "was `None` or `Err`" if site.kind == "expect" else "returned `None` or an error"


def _situations(context: SiteContext, failure_class: str) -> str:
    site = context.site
    area = context.module or _module(site.file_path)
    title = load_taxonomy()[failure_class].title
    name = site.facts.enclosing_fn
    found = conversion(site)
    made = constructed(site)
    if site.kind in TEXT_KINDS and site.facts.enclosing_type:
        # the type only declares the text: no code "in" its module runs when it is returned
        text = f"{_returned_situation(site)} (declared in `{area}`) and it is printed"
    elif found is not None:  # "While text is parsed into `Version` (`Version::from_str`, in ..)"
        text = f"While {converting(found)} ({where(site)}, in `{area}`)"
    elif made is not None:  # "While a `Segment` is created (`Segment::new`, in ..)"
        text = f"While {a_type(made)} is created ({where(site)}, in `{area}`)"
    elif name:
        doing = " ".join(part for part in name.split("_") if part)
        text = f'While the code in `{area}` is doing "{doing}" ({where(site)})'
    else:
        text = f"While code in `{area}` runs"
    text += f'; the message reads as a case of "{title}"'
    names = printed_values(site)
    if names:
        # what the values are the message says, not this sentence: a bound, two timestamps
        # or an error's text "tell which object it was" only sometimes (reading 181)
        text += f", and it prints the value(s) involved ({names})"
    return text + "."


def _tags(context: SiteContext, failure_class: str) -> list[str]:
    """The crate and first module (as Cargo names them: `rg`, `flags`; not `crates`,
    `core`), the kind of site and the failure class."""
    parts = (
        context.module.split("::")
        if context.module
        else [
            p
            for p in context.site.file_path.removesuffix(".rs").split("/")
            if p not in ("src", "lib", "mod")
        ]
    )
    tags = [*parts[:2], context.site.kind.replace("_", "-"), failure_class]
    seen: list[str] = []
    for tag in tags:
        tag = tag.lower().replace("_", "-")
        if tag and tag not in seen:
            seen.append(tag)
    return seen


def _module(path: str) -> str:
    """The module a file's directories suggest, where no build manifest says:
    `src/meta/src/stream/mod.rs` -> `meta::stream`."""
    parts = [p for p in path.removesuffix(".rs").split("/") if p not in ("src", "mod", "lib")]
    return "::".join(parts) or path
