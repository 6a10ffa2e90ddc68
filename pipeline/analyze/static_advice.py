"""The offline analyzer's advice: solutions and prevention tips, said to the person who meets the error.

First what that person controls (the values the message prints, what they pass in,
configuration), then what the code requires. A check that guards security or a limit
is never advised away: the advice is to pass it. A panic is a broken invariant: what
the code assumed, and how to report it; a panic whose check reads the fn's parameters
(`panic!` in `if flag.contains(' ')`, `assert!(n > 0)`) refuses what a caller passed,
which is the reader's own call when they call that fn (a library's public API), and the
repository's bug when its own code passes it: the advice says both, as the code cannot
say which.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from pipeline.analyze import SiteContext
from pipeline.analyze.accessors import ASSUMPTION_TIP
from pipeline.analyze.arguments import missing_argument
from pipeline.analyze.clock import CLOCK_ADVICE, clock_before_epoch
from pipeline.analyze.documented import assertion_macro, documented_panic, panics_section
from pipeline.analyze.environment import (
    environment_advice,
    environment_reads,
    set_by_cargo,
    set_variable,
    without_reads,
)
from pipeline.analyze.fixed_input import fixed_input
from pipeline.analyze.fs_steps import fs_step_tip, process_step_tip
from pipeline.analyze.homedirs import directory_advice, directory_tip, missing_directory
from pipeline.analyze.locks import poisoned_lock, profiles_named
from pipeline.analyze.message_advice import advice_in, has_placeholders
from pipeline.analyze.metrics import metric_advice, registered_metric
from pipeline.analyze.nonempty import nonempty_checked_above
from pipeline.analyze.programs import path_program, program_advice, started_program
from pipeline.analyze.state_calls import state_panic, state_solutions, state_tip
from pipeline.analyze.static_code import (
    STRING_LITERAL,
    as_caller,
    builds_its_return,
    caller_can_test,
    cause_slot,
    check_test,
    checked_inputs,
    compile_time_const,
    conversion,
    converted_arm,
    converted_inputs,
    debug_only,
    empty_option,
    failed_fs_step,
    failed_thread_step,
    failure_worded,
    fatal_failure,
    in_build_script,
    inputs_read,
    is_validator,
    misuse_worded,
    names_a_step,
    owns_a_bug,
    platform_stub,
    printed_values,
    refused_conversion,
    refused_inputs,
    unit_stub,
    waited_out,
    where,
)
from pipeline.analyze.taxonomy import FALLBACK, Classification, load_taxonomy
from pipeline.analyze.utf8paths import UTF8_ADVICE, non_utf8_path
from pipeline.analyze.value_sets import catch_all
from pipeline.analyze.verdicts import authors_verdict
from pipeline.core.model import Condition
from pipeline.core.sitetypes import TEXT_KINDS, Site, call_parameters, checked_above
from pipeline.languages import language_of

# Words of a condition that mark it as a guard nobody should be told to switch off: the
# identifiers of the check, split at `_`, `.` and case (`auth_enabled`, `max_size`).
_GUARD_WORDS = frozenset(
    [
        "auth",
        "authn",
        "authz",
        "authenticate",
        "authenticated",
        "authentication",
        "authorize",
        "authorized",
        "authorization",
        "permission",
        "permissions",
        "privilege",
        "privileges",
        "acl",
        "acls",
        "tls",
        "ssl",
        "cert",
        "certs",
        "certificate",
        "certificates",
        "secure",
        "security",
        "secret",
        "secrets",
        "password",
        "passwords",
        "credential",
        "credentials",
        "token",
        "tokens",
        "signature",
        "signatures",
        "verify",
        "verified",
        "verification",  # polars' `POLARS_SKIP_DSL_HASH_VERIFICATION`: no way around it
        "checksum",
        "checksums",
        "integrity",
        "quota",
        "quotas",
        "limit",
        "limits",
        "max",
        "maximum",
        "superuser",
        "owner",
        "readonly",
    ]
)
_IDENTIFIER_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
# Not `args`: a command's arguments are what its caller passed (helix's typed commands),
# which the inputs line names.
# not a macro (`cfg!(unix)`, `env!("X")`: the build's, no setting) nor a module (`config::x`)
_CONFIG_WORDS = re.compile(r"\b(?:conf|config|cfg|opts|options|settings|env)\b(?!\s*(?:!|::))")
_ENV_VAR = re.compile(r"\benv::var(?:_os)?\([^()]*\)")
_PATH_BEFORE = re.compile(r"(?:[A-Za-z_]\w*(?:\(\))?\.)*$")
_PATH_AFTER = re.compile(r"(?:\(\))?(?:\.(?:r#)?[A-Za-z_]\w*(?![\w(#]))*")


def _setting(text: str) -> str | None:
    """The configuration a condition reads, as written (`self.config.streaming.x`,
    `env::var("X")`), or None. Linear: the path is grown from the word outwards, at most
    200 characters before it (a hostile `a.a.a..` chain cost quadratic time in one regex)."""
    env = _ENV_VAR.search(text)
    if env is not None:
        return env.group()
    word = _CONFIG_WORDS.search(text)
    if word is None:
        return None
    window = text[max(0, word.start() - 200) : word.start()]
    before = _PATH_BEFORE.search(window)
    after = _PATH_AFTER.match(text, word.end())
    start = before.group() if before is not None else ""
    return start + word.group() + (after.group() if after is not None else "")


_REPORT_UNLESS_ADVISED = (
    "If that advice does not fit your case, this is a bug: report it upstream with the full "
    "message, the backtrace (`RUST_BACKTRACE=1`) and the version you run."
)
_REPORT_UNLESS_CAUSED = (
    "If that error is not one your environment or input causes (a missing file, a "
    "permission, no terminal), this is a bug: report it upstream with the full message, the "
    "backtrace (`RUST_BACKTRACE=1`) and the version you run."
)
_MISUSED = (
    "The message says how the code must be called (in which order, how often, on what), "
    "and the calls that led here broke that: if your code makes them, change it as the "
    "message says."
)
_REPORT_IF_OURS = (
    "If the backtrace (`RUST_BACKTRACE=1`) shows the repository's own code making those "
    "calls, it is a bug there: report it upstream with the full message and the version you run."
)
_REPORT_UNLESS_FAILED = (
    "If that step does not depend on your environment or input, this is a bug: report it "
    "upstream with the full message, the backtrace (`RUST_BACKTRACE=1`) and the version you run."
)
# `.context("..").unwrap()`: the panic prints the error it got (`Facts.unwrapped`)
_UNWRAPPED_CAUSE = (
    "The panic message prints the error the call gave, with its causes: they say what "
    "failed beneath this step; start there."
)
_REPORT = (
    "This is a bug, not something to fix in your input: report it upstream with the full "
    "message, the backtrace (`RUST_BACKTRACE=1`) and the version you run."
)
# A panic whose message says what the user's manifest or configuration lacks (tauri's
# "Cargo project does not have a version": the class is the message's, `taxonomy_rules`):
# the reader's to add, not a bug to report (the audit of stop 53 read it as false).
_CONFIGURED = (
    "The message names what your manifest or configuration lacks: add it there (or correct "
    "the value it has), then run again."
)
_REPORT_IF_CONFIGURED = (
    "If it is there and valid, this is a bug: report it upstream with the full message, the "
    "backtrace (`RUST_BACKTRACE=1`) and the version you run."
)
# `todo!`/`unimplemented!`: a case the authors left out, no broken assumption (uv's
# "Only Windows and Unix are supported" read "This is a bug, not something to fix in your
# input"): what the reader can change is to stay out of that case.
_NOT_YET = (
    "Stay out of that case: take another option, input or platform that the code "
    "handles; to ask for it, tell upstream the full message and what you were doing."
)


# The conditions that check something; not a loop's iterable, a closure's call, nor the
# failed call of an `.expect()`/`.context()` (meilisearch's `read_txn_without_tls()` failing
# is no TLS check).
_CHECKS = frozenset(
    ("if", "else", "match_arm", "let_else", "if_let", "while", "ensure", "check_failed", "exit")
)


def is_guard(context: SiteContext, conditions: Sequence[Condition]) -> bool:
    """Whether a check on the path guards security or a limit (by its identifiers)."""
    del context  # the conditions are what the advice would negate; the message is not
    words = _words_of([c for c in conditions if c.kind in _CHECKS and not checked_above(c)])
    return not words.isdisjoint(_GUARD_WORDS) or any(pair <= words for pair in _GUARD_PAIRS)


def _was_none(site: Site) -> bool:
    """Whether the site's `.context(..)` is on a value its condition says was `None` (`Facts`
    knows std's `Option` methods: ruff's `tokenizer.find(..).context(..)`): no cause is kept
    under it, and "print the error with `{:#}`" shows nothing more (reading 160)."""
    method = site.macro.rsplit("::", 1)[-1].rsplit(".", 1)[-1]
    return any(
        c.kind == "closure" and " was None (" in c.text and c.text.endswith(f"({method})")
        for c in site.facts.conditions
    )


def _trust_check(conditions: Sequence[Condition]) -> bool:
    """Whether a step on the path checks what to trust (a host key, a certificate, a
    signature, a checksum): its input swapped for another one is no fix."""
    words = _words_of([c for c in conditions if not checked_above(c)])  # no check passed
    return not words.isdisjoint(_TRUST_WORDS) or any(pair <= words for pair in _GUARD_PAIRS)


def _words_of(conditions: Sequence[Condition]) -> set[str]:
    """The identifiers' parts the conditions are written with, lowercase (`HostKeyHasChanged`
    -> host, key, has, changed)."""
    return {w.lower() for c in conditions for w in _IDENTIFIER_PART.findall(c.text)}


_TRUST_WORDS = frozenset(
    ("tls", "ssl", "cert", "certs", "certificate", "certificates", "signature", "signatures",
     "verify", "verified", "verification", "checksum", "checksums", "integrity", "fingerprint")
)  # fmt: skip


# words that guard security together, not alone: cargo's `check_ssh_known_hosts(..)` arm
# `Err(KnownHostError::HostKeyHasChanged { .. })`, a possible man-in-the-middle, read "pass
# another `config_known_hosts`" (reading 149)
_GUARD_PAIRS = (frozenset(("host", "key")), frozenset(("known", "hosts")))


# The classes whose error refuses what it was given: the values a message prints name what
# to correct. Elsewhere (a download that failed, a timeout) they say what it was about.
_REFUSALS = frozenset(
    (
        "not-implemented", "unsupported-operation", "unauthenticated", "permission-denied",
        "not-found", "already-exists", "invalid-state-transition", "out-of-range",
        "version-incompatibility", "schema-mismatch", "type-mismatch", "parse-error",
        "configuration-error", "invalid-argument",
    )
)  # fmt: skip


# An `#[error]` variant's solution opens so: the code that builds it decides when it is
# returned. Its reach, where the index finds the builders, names them instead of the logs
# (`reach_text.builders_solution`).
RETURNED_LEAD = "The code that returns this error decides when: "


def _deciding_inputs(context: SiteContext, checks: Sequence[Condition]) -> list[str]:
    """The fn's parameters the checks read (`inputs_read`), but one that only a check
    above that passed reads (an `if c { bail!(..) }` above, `checked_above`) while the
    deciding checks read locals the window shows bound from other values: atuin's
    `!settings.logged_in()` above `new_password.is_empty()`, where `let new_password =
    self.new_password.clone().unwrap_or_else(|| prompt(..))`, read "depends on what is passed
    (`settings`)" (reading 324). A local whose binding the window does not show, or one
    bound from that parameter (`let output = compile(source)`), keeps it."""
    facts = context.site.facts
    every = inputs_read(facts.call, checks, facts.rebound)
    deciding = [c for c in checks if not checked_above(c)]
    if not deciding or len(deciding) == len(checks):
        return every
    own = inputs_read(facts.call, deciding, facts.rebound)
    if own == every:
        return every
    read = {
        name for c in deciding for name in _LOCAL_READ.findall(STRING_LITERAL.sub('""', c.text))
    }
    named = {shown: shown.strip("`").split("`")[0] for shown in every}  # "`x` (as ..)" -> x
    params = set(named.values())
    return [
        shown
        for shown, name in named.items()
        if shown in own
        or any(_bound_from(context.window, local, name, params) for local in read - params)
    ]


# a name a condition reads as a variable: not a field, a method, a path segment or a macro
_LOCAL_READ = re.compile(r"(?<![\w.:])([a-z_]\w*)\b(?!\s*(?:\(|!(?!=))|::)")


def _bound_from(window: str, local: str, parameter: str, params: set[str], depth: int = 3) -> bool:
    """Whether `local` may hold what `parameter` was: the window binds it (`let local =
    ..;`) from a value that reads the parameter, or a local bound so (`let it =
    args.iter(); let col = f(it.next())`, up to `depth` bindings), or a name whose binding
    the window does not show; or the window does not show where `local` is bound."""
    inits = [
        m.group(1)
        for m in re.finditer(rf"\blet\s+(?:mut\s+)?{re.escape(local)}\b[^=;]*=(.*?);", window, re.S)
    ]
    if not inits:
        return local not in _KEYWORDS  # bound out of sight (a pattern, a closure): may be it
    for init in inits:
        for name in set(_LOCAL_READ.findall(STRING_LITERAL.sub('""', init))):
            if name == parameter:
                return True
            if name in _KEYWORDS or name in params or name == local:
                continue
            if depth == 0 or _bound_from(window, name, parameter, params, depth - 1):
                return True
    return False


_KEYWORDS = frozenset(
    ("self", "true", "false", "mut", "ref", "let", "in", "as", "if", "else", "match")
)


# "The check depends on what is passed to `f` (`x`): pass values the check accepts."
PASSED_LEAD = "The check depends on what is passed to "
# not "pass values the check accepts": the caller often does not choose them (a plugin SDK's
# protobuf payload, a pane's geometry, a router's method: readings 191-192, 21 M)
PASSED_TAIL = (
    ": the values its caller passes decide it, and where they come from (an input, a "
    "setting, or the program's own state) is what to change."
)


# How a `.context(..)` error shows the error it wraps, by the type it makes: anyhow's (and
# eyre's) `Caused by:` lines, or miette's report, which draws the chain under the message
# (pixi's `miette::Result`, reading 132: "anyhow's `Caused by:` lines" was not what it prints)
# Sentences of the advice below that `crate_only` and `guarded_reach` say again, told more
# of by the index: a panic's caller's advice, a hedge on what a guarded call gave
CALLER_ADVICE = (
    "passes: if your code calls it, pass values the check accepts; if the backtrace "
    "(`RUST_BACKTRACE=1`) shows the repository's own code passing them, report that upstream"
)
CONVERT_ADVICE = (
    "passes: if your code calls it, pass a value that converts; if the backtrace "
    "(`RUST_BACKTRACE=1`) shows the repository's own code passing it, report that upstream"
)
NEVER_EITHER = "(never `None` nor an `Err`)"
CAUSE_KEPT_LEAD = (
    "The error that failed, if there was one, is kept as this one's cause (a `.context()` on "
    "an `Option` that was `None` keeps none): "
)
# the advice that ends each `_CAUSE_KEPT` text, where the reader has the message alone
# (`printed_whole` takes it back where the program prints the causes)
_SEEING_ALONE = {
    "anyhow::Error": " Seeing this message alone, print the error with `{:#}` to read it.",
    "eyre::Report": " Seeing this message alone, print the report with `{:?}` to read it.",
    "miette::Report": " Seeing this message alone, print the report with `{:?}` to read it.",
}
# `CAUSE_KEPT_LEAD` where the code tells that the call failed (`guarded_reach`)
CAUSE_KEPT_TOLD = "The error that failed is kept as this one's cause: "
# how each error type shows its causes, between the lead and `_SEEING_ALONE`
_CAUSE_HOW = {
    "anyhow::Error": (
        "`{:?}` of the error (what a `main` that returns it prints) lists it under this "
        "message (anyhow's `Caused by:` lines), `{:#}` after a colon, and `{}` leaves it "
        "out."
    ),
    "eyre::Report": (
        "`{:?}` of the report (what a `main` that returns it prints) lists it under this "
        "message (eyre's `Caused by:` lines), and `{}` leaves it out."
    ),
    "miette::Report": (
        "miette's report (`{:?}` of the error, what a `main` that returns a "
        "`miette::Result` prints) draws it under this message, and `{}` leaves it out."
    ),
}
# eyre's other names of its `Report` (atuin's `Result<Router, eyre::Error>` had been told of
# "anyhow's `Caused by:` lines", reading 327)
_CAUSE_ALIASES = {"eyre::Error": "eyre::Report", "eyre::ErrReport": "eyre::Report"}
_CAUSE_KEPT = {
    kind: CAUSE_KEPT_LEAD + how + _SEEING_ALONE[kind] for kind, how in _CAUSE_HOW.items()
}
# each lead, as said inside `printed_whole`'s sentence
_KEPT_SAID = {
    CAUSE_KEPT_LEAD: (
        "the error that failed, if there was one, is kept as this one's cause; a "
        "`.context()` on an `Option` that was `None` keeps none"
    ),
    CAUSE_KEPT_TOLD: "the error that failed is kept as this one's cause",
}
_LOG_WHOLE = "Log an error whole, with its causes"


def own_type_tips(tips: list[str]) -> list[str]:
    """`tips` for an error type's own text (`#[error]`, `Display`), which no anyhow or eyre
    error holds: the tip to log it whole says where this type keeps its causes, not how
    anyhow and eyre print theirs (greptimedb's snafu errors, just's own `Error`: the `{:#}`
    advice read as another ecosystem's, reading 318)."""
    return [_OWN_LOG_WHOLE if t.startswith(_LOG_WHOLE + " (anyhow") else t for t in tips]


_OWN_LOG_WHOLE = (
    "Log an error whole, with its causes (this type keeps them in its `source()` chain, which "
    "`{}` does not print): together they name what to fix before the next run."
)


def causeless_tips(
    tips: list[str],
    name: str,
    debug_only: tuple[str, ...],
    has_fields: bool,
    why: str | None = None,
) -> list[str]:
    """`tips` for an error type's own text where its value keeps no cause (`Facts.cause` is
    ""): the tip to log it whole "with its causes" says there are none, and names the fields
    its message leaves out that its derived `Debug` prints (tikv's `ErrorWrapper(String)`,
    "a general error wrapper", whose tip said its `source()` chain held them, reading 326);
    `why`: another reason than its fields (its `impl Error` writes no `source()`)."""
    why = why or ("no field of it is its `source()`" if has_fields else "it has no fields")
    if debug_only:
        listed = ", ".join(f"`{f}`" for f in debug_only)
        what, them = ("field", "it") if len(debug_only) == 1 else ("fields", "them")
        tip = (
            f"`{name}` keeps no cause ({why}), and its message leaves out its {what} "
            f"{listed}: log it with `{{:?}}` (its derived `Debug` prints {them}) where it is "
            "handled, with what was being done then; together they name what to fix before "
            "the next run."
        )
    else:
        tip = f"`{name}` keeps no cause ({why}): no error under it says more. {_LOG_THE_INPUT}"
    return _in_place_of_logging_whole(tips, tip)


def dropped_cause_tips(tips: list[str], dropped: str) -> list[str]:
    """`tips` for a site that makes its error in place of another and keeps nothing of it
    (`Facts.ignored_error`: `` `.map_err(|_| ..)` ``, `` `Err(_) =>` ``): no tip to log it
    "with its causes", of which it has none (tikv's `write_datum_payload_json`, whose
    solution said so and whose tip said the opposite, reading 326)."""
    tip = (
        f"This error keeps nothing of the one it replaces ({dropped} drops it): no cause "
        f"under it says why that failed. {_LOG_THE_INPUT}"
    )
    return _in_place_of_logging_whole(tips, tip)


# what to log of an error that has no causes to log
_LOG_THE_INPUT = (
    "Log, where it is handled, what was being done and with which input; that names what to "
    "fix before the next run."
)


def _in_place_of_logging_whole(tips: list[str], tip: str) -> list[str]:
    """`tips` with `tip` where one said to log the error whole, with its causes."""
    return [tip if t.startswith(_LOG_WHOLE) else t for t in tips]


def printed_whole(
    solutions: list[str], tips: list[str], printed_by: str
) -> tuple[list[str], list[str]]:
    """`solutions` and `tips` where the program the error ends in prints it with its causes
    (`Reach.printed_by`): no "print the error with `{:#}`" for a reader who already sees
    them, nor a tip to log it whole (mdBook's `main` writes each cause on a `Caused by:`
    line through `log_backtrace`, reading 309: 13 of 20 records said otherwise)."""
    # where each cause shows depends on the form it prints (rustup's `report_error` writes
    # `{:#}`, all on this line; `{:?}` of a `main`'s error, on lines of their own: "the
    # lines under this message" was false of rustup's, reading 312)
    told = (
        "read the causes it prints with this message (on the lines under it, or after it on "
        "the same line, each after a colon); the last one is where it began."
    )
    whole = {
        lead + how + _SEEING_ALONE[kind]: (
            f"{printed_by} prints the error with its causes ({said}): {told}"
        )
        for kind, how in _CAUSE_HOW.items()
        for lead, said in _KEPT_SAID.items()
    }  # no `{:?}` and `{:#}` to a reader who sees what they print (mdBook's, reading 309)
    fixed = [whole.get(s) or s for s in solutions]
    for alone in _SEEING_ALONE.values():
        fixed = [
            s.replace(alone, f" {printed_by} prints the error with its causes: {told}")
            for s in fixed
        ]
    kept = [t for t in tips if not t.startswith(_LOG_WHOLE)]
    if not kept and tips:  # the tip to log it whole was the only one (fd's 12 of 24, 325)
        kept = [
            f"{printed_by} prints this error with its causes: what the last of them names (a "
            "file, a value, a service) is what to set right before the next run."
        ]
    return fixed, kept


def printed_quietly(solutions: list[str], hook: str) -> list[str]:
    """`solutions` where the program replaced Rust's panic hook with one that prints no
    backtrace (`Reach.quiet_hook`): none asks for "the backtrace (`RUST_BACKTRACE=1`)" in a
    report, and the last says why (meilisearch's `on_panic` logs the message and its place,
    reading 311); as they are when none gives such advice."""
    if not any("RUST_BACKTRACE" in s for s in solutions):
        return solutions
    said = (
        f"This program replaces Rust's panic hook with {hook}, which names no backtrace: "
        "`RUST_BACKTRACE=1` adds nothing to what it prints, so the message and the place it "
        "names are what there is to report."
    )
    return [*(s.replace(_REPORT_WITH_BACKTRACE, _REPORT_WITHOUT) for s in solutions), said]


_REPORT_WITH_BACKTRACE = "the full message, the backtrace (`RUST_BACKTRACE=1`) and the version"
_REPORT_WITHOUT = "the full message and the version"


def solutions(
    context: SiteContext, check: str | None, failure_class: str | None = None
) -> list[str]:
    """Fixes, most likely first: what the message itself advises before anything else
    (`failure_class`: the site's, which says whether its printed values were refused)."""
    site = context.site
    facts = site.facts
    if facts.discarded and context.error_type != "panic" and not facts.spawned:
        return [
            f"Nothing to handle: {where(site)} drops this error where it makes it "
            f"({facts.discarded}) and goes on with another value. Look here only when that "
            "value is not what you expected."
        ]
    conditions = facts.conditions
    told = message_advice(site)
    out: list[str] = [told] if told else []
    guard = is_guard(context, conditions)
    variables = environment_reads(conditions)
    # what the environment must hold, before what the code does with it (a panic on
    # `env::var("X").expect(..)` is an unset variable, not a bug)
    environment_first, environment_later = environment_advice(
        variables, guard, in_build_script(context)
    )
    out.extend(environment_first)
    directory = missing_directory(site)
    if directory is not None and context.error_type != "panic":
        out.append(directory_advice(*directory))
    if context.error_type == "panic" and (constant := compile_time_const(site)) is not None:
        return [
            *out,
            f"This panic is in the initializer of `const {constant}`, which the compiler "
            "evaluates: it can only fail the build, with this message in a compile error, "
            "never a run. A build that fails so has constants that disagree with what it "
            "checks: fix them where they are set.",
        ]
    if context.error_type == "panic" and (nonempty := nonempty_checked_above(site)) is not None:
        # surrealdb's `ensure!`d `values.len() == 1` then `values.into_iter().next()
        # .expect("values verified non-empty")`: "this time it did not" (reading 322)
        return [
            *out,
            f"This panic does not come about as the code stands: `{nonempty.check}` above "
            f"says `{nonempty.collection}` holds an item when `{nonempty.item}` runs. If it "
            "shows, the code between the two changed it: report it upstream with the full "
            "message and the version you run.",
        ]
    if context.error_type == "panic" and (above := option_checked_above(site)) is not None:
        # neon's `if az_id.is_none() { panic!(..) }` then `az_id.expect("Checked above")`:
        # not "`az_id.is_none()` is false; `az_id` was None" (reading 262, contradictory)
        return [
            *out,
            f"This panic does not come about as the code stands: `{above}` above already "
            "stops the code, with its own message, when the value is `None`. If it shows, "
            "report it upstream with the full message and the version you run.",
        ]
    if context.error_type == "panic":
        inputs = checked_inputs(context, check)
        if inputs and check is not None:
            return [
                *out,
                f"{where(site)} goes on only when `{check_test(check)}`, and "
                f"{debug_only(site, 'panics otherwise')}: it refuses the values it was given.",
                f"The check reads {', '.join(inputs)}, which the caller of {where(site)} "
                f"{CALLER_ADVICE} with the full message and the version you run.",
            ]
        converted = refused_conversion(context, check)
        if converted is not None:
            return [
                *out,
                f"{where(site)} panics when `{converted}` fails: it refuses the value it was "
                "given, which the message may print.",
                f"The value comes from {', '.join(converted_inputs(context))}, which the "
                f"caller of {where(site)} {CONVERT_ADVICE} with the full message and the "
                "version you run.",
            ]
        if facts.unwrapped is not None:
            return [*out, _assumption(context), _UNWRAPPED_CAUSE, _REPORT_UNLESS_CAUSED]
        documented = documented_panic(site)
        if documented is not None:
            return [*out, _documented(site, documented), _REPORT_IF_OURS]
        asserted = assertion_macro(site)
        if asserted is not None:
            return [*out, _asserted(asserted)]
        if misuse_worded(site):
            return [*out, _MISUSED, _REPORT_IF_OURS]
        if state_panic(site):
            return [*out, *state_solutions(site)]
        if (trait := unit_stub(site)) is not None:
            return [*out, _placeholder(site, trait), _REPORT_IF_PLACED]
        argument = missing_argument(site)
        if argument is not None:
            return [*out, _run_without(site, argument)]
        if directory is not None:
            return [*out, directory_advice(*directory)]
        lock = poisoned_lock(site)
        if lock is not None:
            return [*out, _poisoned(lock, context.aborts), _REPORT_FIRST]
        cause = fatal_failure(site)
        if cause is not None:
            # `Err(e) => panic!("Cannot bind to {}:{}: {e}")`: the code chose to stop on an
            # error it got, no path it assumed could not be taken (lemmy's, reading 128)
            return [*out, _underneath(cause), _REPORT_UNLESS_CAUSED]
        if clock_before_epoch(site):
            return [*out, f"It panics here (`{site.macro}`) when {CLOCK_ADVICE}"]
        if (registering := registered_metric(site)) is not None:
            return [
                *out,
                f"It panics here (`{site.macro}`) when `{registering}!` gives an `Err`: {metric_advice(registering)}",
            ]
        if (path := non_utf8_path(site)) is not None:
            return [*out, f"It panics here (`{site.macro}`, on `{path}`) when {UTF8_ADVICE}"]
        program = started_program(site)
        if program is not None:
            return [*out, f"It panics here (`{site.macro}`) when {program_advice(program)}"]
        if failed_thread_step(site):
            return [*out, _threads_refused(site), _REPORT_UNLESS_FAILED]
        if failure_worded(site):
            return [*out, _stopped(site), _assumption(context), _REPORT_UNLESS_FAILED]
        if failed_fs_step(site):
            return [*out, _fs_stopped(site), _REPORT_UNLESS_FAILED]
        stub = platform_stub(site)
        if stub is not None:
            return [*out, _platform_only(site, stub)]
        if site.kind in ("todo", "unimplemented"):
            return [*out, _assumption(context), _NOT_YET]
        if head := waited_out(site):  # a wait that ran out: what it waited for never came
            return [*out, _gave_up(site, head)]
        if failure_class == "configuration-error" and not variables:
            return [*out, _CONFIGURED, _assumption(context), _REPORT_IF_CONFIGURED]
        return [*out, _assumption(context), _REPORT_UNLESS_ADVISED if out else _REPORT]
    if (gate := platform_stub(site)) is not None:  # before what the message's words advise
        out.append(_platform_only(site, gate, panics=False))
    if facts.help and not (told and facts.help in told):  # the authors' words come first
        out.append(f'Its authors\' help for this error: "{facts.help}"')
    verdict = authors_verdict(site)
    if verdict is not None:
        out.append(
            f'Its authors\' comment says this should not come about ("{verdict}"): if it '
            "shows, an assumption of the code's did not hold; report it upstream with the "
            "full message and what led to it."
        )
    if site.kind == "context" and not empty_option(facts.receiver) and not _was_none(site):
        kind = _CAUSE_ALIASES.get(context.error_class or "", context.error_class or "")
        out.append(_CAUSE_KEPT.get(kind, _CAUSE_KEPT["anyhow::Error"]))
    cause = cause_slot(site)
    if cause is not None:
        out.append(_underneath(cause))
    out.extend(environment_later)  # after the failed step: a path the environment chose
    names = printed_values(site) if not _only_in_advice(site) else ""
    if names:  # for a download, a write, a connection that failed, nothing was refused
        refused = (failure_class is None or failure_class in _REFUSALS) and not owns_a_bug(site)
        out.append(
            f"Look at the value(s) the message prints ({names}): "
            + (
                # not "they name the input that was rejected": uv's `{1}` prints the
                # extensions it accepts, a `{env_var}` the way around (reading 147)
                "they show what it is about (the value refused, or what it expected); where "
                "one is a value you gave, correct that and try again."
                if refused
                else "they say which input or object the failure is about; check that one first."
            )
        )
    # A parameter a check reads is one to correct; one a failed call was given (`send(x)`
    # was Err) may be why it failed, or not: a channel closes whatever it is sent.
    after = _after_failed_call(conditions)  # what came before only led to a failed call
    checks = [c for c in after if _failed_call(c) is None]
    inputs = _deciding_inputs(context, _without_reads(checks))
    mapped = builds_its_return(site)  # its conditions choose which error, not whether
    made_from = conversion(site)
    if mapped and made_from is not None and made_from.trait == "From" and made_from.source:
        arm = converted_arm(site)
        out.append(
            f"{where(site)} converts a `{made_from.source}` into this error"
            + (f" (its `{arm}` arm)" if arm else "")
            + f"; it refuses nothing itself. Where that `{made_from.source}` is made decides "
            "when this shows, and what it refuses there says what to change."
        )
    if inputs and verdict is None and not mapped:  # none makes what cannot come about
        out.append(f"{PASSED_LEAD}{where(site)} ({', '.join(inputs)}){PASSED_TAIL}")
    if not _trust_check(conditions):  # "pass another" trust input is the way around it
        out.extend(_given_to_failed_calls(site, conditions, inputs))
    # a setting a failing step reads, not one of a check above that passed (risingwave's
    # `config.r#type` beside the `commit_checkpoint_interval == 0` that fails, reading 146)
    setting = next(
        (
            found
            for c in conditions
            if not checked_above(c) and (found := _setting_of(c)) is not None
        ),
        None,
    )
    if variables and setting is not None and _ENV_VAR.fullmatch(setting):
        setting = None  # named above, as a variable
    if setting is not None and not guard:  # never "review `conf.auth_enabled`"
        out.append(_setting_advice(setting))
    if guard:  # never the way around it (`check`), even when it only led to a failed call
        # a check that only chose the way to a call that failed refused nothing: "Failed to
        # read CA certificate" is no deliberate check for `let Some(cert) = &self.ca_cert`
        if is_guard(context, after):
            out.append(
                "This is a deliberate check (access, a limit or validation): meet it with "
                "valid input, credentials or permissions, or ask the operator; do not switch "
                "it off."
            )
    elif check is not None:
        out.append(f"The code goes on only when `{check_test(check)}`.")
    if (built := _build_dependent_arms(site, conditions)) is not None:
        out.append(built)
    if site.kind in TEXT_KINDS:
        out.append(
            f"{RETURNED_LEAD}find the operation that returned {where(site)} in your logs or "
            "call chain."
        )
    if not out:
        out.append(_last_resort(site, conditions, failure_class))
    return out


def _gave_up(site: Site, head: str) -> str:
    """A panic past a polling loop (`head`, `waited_out`): no assumption broke, the wait ran
    out (tikv's `must_peer_state`, reading 241)."""
    return (
        f"{where(site)} polls (`{head}`), sleeping between tries, and panics "
        "when what it waits for has not come by the last try: find why it did not come (the "
        "backtrace shows who waited, the message what for), or wait longer where that is a "
        "slow machine's doing."
    )


def _build_dependent_arms(site: Site, conditions: Sequence[Condition]) -> str | None:
    """What a `match` lets past to its catch-all arm depends on the build when an earlier
    arm is under `#[cfg(..)]`: the values it takes come here in the builds without it
    (lance's `#[cfg(feature = "tokenizer-lindera")] s if s.starts_with("lindera/") =>`
    before `_ => Err(..)`). None for another site, or when every earlier arm is in every
    build."""
    arm = conditions[-1] if conditions else None
    if arm is None or not any(arm.excluded_gates) or not catch_all(arm):
        return None
    gates = dict(zip(arm.excluded, arm.excluded_gates, strict=False))
    passing = [p for p in arm.excluded if p not in arm.diverging]
    without_bindings = language_of(site.file_path).test_pattern
    by_gate: dict[str, list[str]] = {}
    for pattern in passing:
        if gates.get(pattern):
            by_gate.setdefault(gates[pattern], []).append(f"`{without_bindings(pattern)}`")
    if not by_gate:
        return None
    said = "; ".join(
        f"{'the arm' if len(arms) == 1 else 'the arms'} {', '.join(arms[:4])}"
        f"{', ..' if len(arms) > 4 else ''} only where `#[cfg({gate})]` holds"
        for gate, arms in list(by_gate.items())[:3]
    )
    every = [f"`{without_bindings(p)}`" for p in passing if not gates.get(p)]
    kept = ", ".join(every[:6]) + (", .." if len(every) > 6 else "")
    many = len(by_gate) > 1 or any(len(arms) > 1 for arms in by_gate.values())
    return (
        f"Which values get past the `match` depends on how the crate was built: it has "
        f"{said}{'; ..' if len(by_gate) > 3 else ''}; a build without "
        f"{'them' if many else 'it'} brings those values here too"
        + (f" (every build takes {kept})." if kept else ".")
    )


def _held_test(
    site: Site, conditions: Sequence[Condition], failure_class: str | None = None
) -> str | None:
    """A site whose last condition is an `if` test the code states but that no check can be
    written of (it reads a name a pattern bound): the test it returns this error under.
    nushell's `unlet` refuses `$nu`, `$env` and `$in` under `var_id == &NU_VARIABLE_ID ||
    ..` on the arm's `var_id`, which read "Find out what `DeleteVar::run` was doing when it
    returned this error". None for another last condition, or a test of over 90 characters
    (the trigger scenario states it). So for a `match` arm of a simple pattern: "`self.peek()`
    matches none of the arms before it", "`data_iter.next()` is `None`". An access check
    (`failure_class`) is met as its message asks, never said to be changed ("current user
    cannot be dropped" asks for no rights)."""
    last = conditions[-1] if conditions else None
    held = _held(last) if last is not None else None
    if held is None:
        return None
    if failure_class in _ACCESS:
        return (
            f"{where(site)} returns this error when {held}: a deliberate access check; meet "
            "what its message asks, do not switch it off."
        )
    return (
        f"{where(site)} returns this error when {held}: find which input or state makes it "
        "so, and change that."
    )


def _held(last: Condition) -> str | None:
    """What held for a site's last condition, as `_held_test` says it: "`x > 3` is true",
    "`let P = v` does not match", "`iter.next()` is `None`", "`self.peek()` matches none of
    the arms before it (..)"; None for another kind, or a text too long to quote."""
    arm = _ARM.fullmatch(last.text) if last.kind == "match_arm" else None
    if arm is not None and len(arm["value"]) <= 80:
        value, pattern = arm["value"], arm["pattern"]
        if pattern != "_" and (not pattern[:1].islower() or "(" in pattern or "::" in pattern):
            return f"`{value}` is `{pattern}`"
        gates = dict(zip(last.excluded, last.excluded_gates, strict=False))
        # an arm only some builds have says so: in the others its values come here too
        shown = [*last.excluded[:4], *(p for p in last.excluded[4:] if gates.get(p))]
        tried = ", ".join(
            f"`{p}`" + (f" (only where `#[cfg({gates[p]})]` holds)" if gates.get(p) else "")
            for p in shown
        )
        more = ", .." if len(shown) < len(last.excluded) else ""
        return f"`{value}` matches none of the arms before it" + (
            f" ({tried}{more})" if tried else ""
        )
    if last.kind == "let_else" and len(last.text) <= 90:  # `let Some(v) = f(x) else { .. }`
        return f"`{last.text.removesuffix(' did not match')}` does not match"
    if last.kind not in ("if", "else") or len(last.text) > 90:
        return None
    if last.text.startswith("let "):  # `if let P = v { .. } else { <site> }`
        return f"`{last.text}` does not match" if last.kind == "else" else f"`{last.text}` matches"
    return f"`{last.text}` is {'true' if last.kind == 'if' else 'false'}"


_ACCESS = frozenset(("permission-denied", "unauthenticated"))
# `match <value>: <pattern> =>` of a simple pattern: `_`, `None`, `Some(_)`, `Token::Comma`
_ARM = re.compile(r"match (?P<value>.+): (?P<pattern>[A-Za-z_][\w:]*(?:\([\w, ]*\))?) =>")


def _failed_step(site: Site, conditions: Sequence[Condition]) -> str | None:
    """A site whose last step is a call that returned an error the site turns into this one
    (`f(x)` failed (`map_err`)), or a `None` it does (`f(x)` was None (`ok_or_else`)): that
    call is where to look, not the fn around it (nushell's `polars drop`,
    `df.drop(&col.item).map_err(..)`, read "Find out what `command` was doing when it
    returned this error"). None for any other site."""
    last = conditions[-1] if conditions else None
    failed = _failed_call(last) if last is not None and last.kind == "closure" else None
    if last is None or failed is None or failed[1] not in ("Err", "None", "None/Err"):
        return None
    step = failed[0].strip("`")
    if "(" not in step and not step.endswith(".await"):  # a call, or an awaited receive
        return None
    method = last.text.rpartition(" (")[2].rstrip(")").strip("`")
    named = f"`{step}`" if len(step) <= 60 else f"the call before its `.{method}(..)`"
    if failed[1] == "None":  # `users.get_by_name(name).ok_or_else(..)`: nothing to return
        return (
            f"{where(site)} returns this error when {named} gives no value: `{method}` makes "
            "that this error. Find out why it gives none here: what it looks up, computes or "
            "was given."
        )
    if failed[1] == "None/Err":  # `.context(..)` on a value whose type the code does not show
        return (
            f"{where(site)} returns this error when {named} fails or gives no value: "
            f"`{method}` makes that this error. Find out which, and why, with your input or "
            "environment: where it failed, its error is printed under this message."
        )
    if method in ("map_err", "or_else") and (
        site.facts.ignored_error or _DISCARDED.search(site.facts.snippet or "")
    ):
        # fd's `builder.build().map_err(|_| anyhow!("Mismatch in exclude patterns"))`: the
        # call's error is dropped, no message carries it (reading 117)
        return (
            f"{where(site)} returns this error when {named} fails: `{method}(|_| ..)` puts "
            "this one in place of that call's error and drops it, so no message says why. "
            "Find out why that call fails with your input or environment."
        )
    return (
        f"{where(site)} returns this error when {named} fails: `{method}` makes that call's "
        "error this one. Find out why that call fails with your input or environment; its "
        "error, where this message carries it, says why."
    )


# `.map_err(|_| ..)`, `.or_else(|_| ..)`: a closure that ignores the error it is given
_DISCARDED = re.compile(r"\.\s*(?:map_err|or_else)\s*\(\s*(?:move\s*)?\|\s*_\s*(?::[^|]*)?\|")


# What a conversion is given, as a solution names it: the thing, and one of them
_CONVERTED = {"FromStr": ("text", "text"), "TryFrom": ("value", "a value")}


def _last_resort(
    site: Site, conditions: Sequence[Condition] = (), failure_class: str | None = None
) -> str:
    """The one solution of a site the code tells nothing more of: the step its message
    names, if it opens with one ("failed to open {}"), else only where to look. Not its
    class's generic fix: the class of a message the code says so little of is the
    likeliest to be wrong ("too many segments on URL" is no load to reduce), and a generic
    fix would say so with confidence. A call that failed, or an `if` test, when the
    conditions end with one, is named (`_failed_step`, `_held_test`), after a conversion's
    refusal."""
    found = conversion(site)
    # its error is how the type rejects what it is made from; not `From`'s: it cannot fail,
    # its site is a panic or an error value it maps another one to
    if found is not None and found.trait != "From":
        given, kind = _CONVERTED.get(found.trait, ("input", "input"))
        return (
            f"Correct the {given} that becomes `{found.target}`: {where(site)} returns this "
            f"error for {kind} it does not accept."
        )
    failed = _failed_step(site, conditions) or _held_test(site, conditions, failure_class)
    if failed is not None:
        return failed
    if names_a_step(site):
        return f"Find out what {where(site)} was doing: the error text names the failed step."
    return f"Find out what {where(site)} was doing when it returned this error."


# the last call of a step and what it is given: `.get_mut(idx)`, `.snapshot_by_id(id)`
_LAST_CALL = re.compile(r"\.\s*\w+\s*(?:::<[^>]*>)?\(([^()]+)\)\s*$")


def _looked_up(step: str, given: Sequence[str]) -> str | None:
    """What a lookup that found nothing was asked for, when no parameter named in `given`
    (`` `target` ``) is in it: the key its fn made itself (`idx`)."""
    found = _LAST_CALL.search(step)
    if found is None:
        return None
    key = found[1].strip()
    if any(re.search(rf"\b{re.escape(g.strip('`'))}\b", key) for g in given):
        return None
    return key


# a method call on a chain of fields off a name, and what it is given: `cx.editor.loader.load(
# theme_name)`, `tokenizer_manager.get(name)`, `&mut self.x.f(a)?`
_METHOD_ON_NAME = re.compile(
    r"^[&*\s]*(?:mut\s+)?(\w+)(?:\s*\.\s*\w+)*\s*\.\s*\w+\s*(?:::<[^>]*>)?"
    r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)(?:\s*\.await)?\s*\??$",
    re.S,
)


def _service_of(step: str, given: str) -> bool:
    """Whether a parameter (`given`, backticked) is only the object a call of `step` that
    returned an error works on, the call given other values: `cx.editor.theme_loader.load(theme_name)` loads
    `theme_name`, and `cx` is no value of it (helix's `theme`, quickwit's
    `tokenizer_manager.get(name)`: "was given `cx`" sent readers 251-252 to the wrong value)."""
    name = given.strip("`").split("`", 1)[0]
    found = _METHOD_ON_NAME.match(step)
    if found is None or found[1] != name or not found[2].strip():
        return False
    return re.search(rf"\b{re.escape(name)}\b", found[2]) is None


def _given_to_failed_calls(
    site: Site, conditions: Sequence[Condition], checked: Sequence[str]
) -> list[str]:
    """What to say of the parameters of the site's fn that a call which failed was given
    (`_failed_call`: `x.get(id)` was None, `send(msg)` was Err), but those a check reads
    (`checked`, said already)."""
    out = []
    for condition in conditions:
        failed = _failed_call(condition)
        if failed is None:
            continue
        step, outcome = failed
        read = [
            i
            for i in inputs_read(site.facts.call, _without_reads([condition]), site.facts.rebound)
            if i not in checked
        ]
        key = _looked_up(step, read) if outcome == "None" and read else None
        # (a lookup's receiver is what it looks in: "gave nothing for `inferred`" holds)
        serves = outcome != "None"
        given = [i for i in read if not (serves and _service_of(step, i))]
        if not given:
            continue
        named = f"`{step}`" if len(step) <= 60 else "The call that failed"
        values = ", ".join(given)
        if given == [f"`{step}`"]:  # the parameter itself held nothing: no call was made
            held = {"None": "None", "Err": "an error"}.get(outcome, "None or an error")
            out.append(
                f"{named} was {held} as the caller of {where(site)} passed it: pass one "
                "that holds a value."
            )
        elif key is not None:
            # `target.filters.get_mut(idx)` with `target` passed and `idx` the fn's own:
            # not "gave nothing for `target`" (risingwave's level index, reading 146)
            out.append(
                f"{named} found nothing for `{key}` in {values}, which the caller of "
                f"{where(site)} passes: {values} lacks that entry, or `{key}` names none."
            )
        elif outcome == "None":  # an `Option`: nothing there for what it was given
            out.append(
                f"{named} gave nothing for {values}, which the caller of {where(site)} "
                "passes: pass one it gives a value for."
            )
        elif outcome == "None/Err" and condition.text.endswith(("(map_or)", "(map_or_else)")):
            # a value mapped, or its default taken: the code does not say which of `None` or
            # an error (sqlx's `value.num_nanoseconds()` is `None` for a duration too long,
            # no error underneath to read: reading 107's recheck)
            out.append(
                f"{named} gave no value (`None` or an error) for {values}, which the caller of "
                f"{where(site)} passes: pass one it accepts; an error underneath, where there "
                "is one, says why."
            )
        elif _WRITE.search(step):  # the bytes written are never what a write refuses
            out.append(
                f"{named} failed to write what it was given: the cause is the system's (a "
                "full disk, a quota, a closed pipe or connection), not the data; the error "
                "underneath says which."
            )
        elif (dropped := site.facts.ignored_error) is not None:
            # hickory's SOA `.try_into().map_err(|_e| ParseError::from("retry outside i32
            # range"))`: no error underneath is kept to read (reading 133's recheck)
            out.append(
                f"{named} was given {values}, which the caller of {where(site)} passes. The "
                f"code keeps none of its error ({dropped}), so this message is all it tells: "
                "check that value against what the call accepts."
            )
        else:
            refused = "one of them" if len(given) > 1 else "it"  # not "one of" one value
            out.append(
                f"{named} was given {values}, which the caller of {where(site)} passes: if "
                f"the error underneath says it refused {refused}, where that value comes from "
                "is what to change; else the failure is the call's own."
            )
        checked = [*checked, *given]
    return out


# A call that writes bytes to a file, a pipe or a socket (starship's `temp_file.write_all(
# text.as_bytes())`): it fails on where it writes, never on what ("pass another" text was
# the audit's misleading advice). Not a bare `write(..)`: an Arrow or Parquet writer's
# refuses a batch of another schema.
_WRITE = re.compile(
    r"\.(?:write_all|write_fmt|flush|sync_all|sync_data)\((?:[^()]|\([^()]*\))*\)(?:\.await)?\??$"
)


# `match self.values.set(v): Err(_) =>`, `let None = x.get(id)`: the arm or branch a call's
# failure takes (its scrutinee a call: `match lines: None =>` checks a value).
_FAILED_ARM = re.compile(r"^match (?P<step>.+\)(?:\.await)?\??): (?P<outcome>Err|None)\b.*=>$")
_FAILED_LET = re.compile(r"^let (?P<outcome>Err|None)\b.*? = (?P<step>.+\)(?:\.await)?\??)$")


def _setting_advice(setting: str) -> str:
    """What to review of a setting a check reads. An `options`/`opts` value may be a
    command-line flag as well as a setting (cargo's `options.filter` is `--example`/`--bin`,
    read as configuration in reading 140), or what a client sent (neon's `options` of a
    Postgres startup packet, reading 141): where it came from is not said."""
    if _OPTIONS_WORD.search(setting) and not _SETTINGS_WORD.search(setting):
        return f"The check reads an option (`{setting}`): review the value given for it."
    return f"The check reads configuration (`{setting}`): review that setting."


_OPTIONS_WORD = re.compile(r"\b(?:opts|options)\b")
_SETTINGS_WORD = re.compile(r"\b(?:conf|config|cfg|settings)\b")


def _setting_of(condition: Condition) -> str | None:
    """The configuration a condition reads (`_setting`). Of a call that failed, a setting it
    was given (`parse(&opts.format)`: that value may be what it refused) or one it is called
    on (`config.version.clone()`), not a whole configuration it was given (tauri's
    `copy_icon_files(settings, &dir)` was Err read "The check reads configuration
    (`settings`)": the copy failed)."""
    found = _setting(condition.text)
    failed = _failed_call(condition)
    if found is None or failed is None or "(" not in failed[0]:
        return found
    if _CONFIG_WORDS.fullmatch(found.rsplit(".", 1)[-1]):  # the whole of it
        return _setting(failed[0].partition("(")[0] + "(")
    return found


def ends_in_a_failed_call(site: Site) -> bool:
    """Whether the site's last step is a call that failed or gave no value (`f(x)` failed
    (`map_err`), `f(x)` was None (`ok_or`)): the site is that call's failure, and what led
    to the call only chose the way (`_failed_call`)."""
    last = site.facts.conditions[-1] if site.facts.conditions else None
    return last is not None and last.kind == "closure" and _failed_call(last) is not None


def refusing_checks(site: Site) -> list[Condition]:
    """The site's conditions that refuse something: those after the last call that failed
    (`_after_failed_call`), not themselves a failed call or a value that was None."""
    return [c for c in _after_failed_call(site.facts.conditions) if _failed_call(c) is None]


def _after_failed_call(conditions: Sequence[Condition]) -> Sequence[Condition]:
    """The conditions after the last call that failed (`f(x)` was Err: `_failed_call`), all
    of them when none did. Those before it chose the way to that call; they refused nothing
    (cargo's `for .. in ar_files { match contents { OnDisk(path) => File::open(&path)
    .with_context(..)? } }` read "The check depends on what is passed to `tar` (`ar_files`):
    pass values the check accepts"). A value that was None (`param` was None) is no call."""
    last = -1
    for at, condition in enumerate(conditions):
        failed = _failed_call(condition)
        if failed is not None and "(" in failed[0]:
            last = at
    return conditions[last + 1 :]


def _failed_call(condition: Condition) -> tuple[str, str] | None:
    """The call whose failure a condition is, and how it failed (`Err`, `None`, or
    `None/Err` when the code does not say), or None when it checks something instead."""
    if condition.kind == "closure":
        # `f(x) failed (map_err)`: an `Err` (`with_context`: an `Err` or a `None`)
        step, marker, method = condition.text.rpartition(" failed (")
        if marker and step:
            return (step, "None/Err" if method.startswith("with_context") else "Err")
        step, _, outcome = condition.text.rpartition(" was ")
        outcome = outcome.split(" ", 1)[0]
        # `env::var("X") was Ok (map_or)`: the closure got its value; nothing failed
        return (step, outcome) if step and outcome not in ("Ok", "Some") else None
    if condition.negated:
        return None
    pattern = {"match_arm": _FAILED_ARM, "if_let": _FAILED_LET}.get(condition.kind)
    found = pattern.match(condition.text) if pattern is not None else None
    return (found["step"], found["outcome"]) if found is not None else None


def _without_reads(conditions: Sequence[Condition]) -> list[Condition]:
    """The conditions as the code reads its inputs: `p.var("X")` reads a variable, not `p`."""
    return [replace(c, text=without_reads(c.text)) for c in conditions]


def _stopped(site: Site) -> str:
    """A panic whose message says a step failed (`failure_worded`)."""
    return (
        f"It panics here (`{site.macro}`) when a step fails, and the message names "
        "it: if that step depends on your environment or input (a file, a directory, a "
        "permission, a terminal, a service), make it possible there and run again."
    )


def _fs_stopped(site: Site) -> str:
    """A panic on a call of the file system's that failed (`failed_fs_step`)."""
    last = site.facts.conditions[-1].text if site.facts.conditions else ""
    call = re.split(r" (?:was|failed) ", last, maxsplit=1)[0]
    shown = f"`{call}`" if call and len(call) <= 80 else "the file-system call"
    return (
        f"It panics here (`{site.macro}`) when {shown} fails: that depends on the "
        "file system it runs on (the path, its permissions, free space); make it possible "
        "there and run again."
    )


def _poisoned(lock: str, aborts: Sequence[str] = ()) -> str:
    """A panic on a lock that returned an error (`poisoned_lock`); `aborts`: the profiles
    whose builds abort on a panic, which then never show it (firecracker's dev and
    release, reading 110)."""
    said = (
        f"`{lock}` returns an error only when the lock is poisoned: another thread panicked "
        "while it held the lock."
    )
    if not aborts:
        return (
            f"{said} That first panic, printed before this message (its message and where it "
            "happened), is the error to read; this one only follows from it."
        )
    # Said of the programs this workspace builds: a library others build (tauri's) takes
    # their profiles, which unwind unless they say otherwise.
    return (
        f'{said} This repository\'s workspace sets `panic = "abort"` in its '
        f"{profiles_named(aborts)}, so the programs it builds that way end at that first "
        "panic and never print this message; a build that unwinds (the default, and every "
        "test) prints it after the first panic, which comes before it and is the error to read."
    )


_REPORT_FIRST = (
    "Fix what the first panic says, or report that one upstream with its backtrace "
    "(`RUST_BACKTRACE=1`) and the version you run."
)


def _asserted(name: str) -> str:
    """A panic in the body of an assertion macro (`assertion_macro`)."""
    return (
        f"`{name}!` is an assertion its users write in their own code (a test): it panics "
        "there when the value it is given is not what it asserts, and the message prints that "
        "value. Fix the code under test, or the assertion, where it is used."
    )


def _documented(site: Site, section: str) -> str:
    """A panic its fn's `# Panics` section states (`documented_panic`)."""
    states = "when it panics" if panics_section(site) else "a rule for its callers"
    return (
        f'The docs of {where(site)} state {states}: "{section}" A call that breaks that '
        "rule gets this panic: if your code makes it, check the condition before the call."
    )


def _run_without(site: Site, argument: str) -> str:
    """A panic on a command-line argument the program was run without (`missing_argument`)."""
    return (
        f"It panics here (`{site.macro}`) when the program runs with fewer command-line "
        f"arguments than it reads: `{argument}` found none. Run it again with the arguments "
        "it expects (its usage, or the message, names them)."
    )


def _platform_only(site: Site, gate: str, *, panics: bool = True) -> str:
    """A panic, or an error, that is all its code does on the targets a `#[cfg(..)]` picks
    (`platform_stub`)."""
    does = "panics" if panics else "returns this error"
    return (
        f"Only builds where `#[cfg({gate})]` holds have this code, and {where(site)} {does} "
        "there each time it gets this far: those targets are not supported. Build and run "
        "it for a target where that gate does not hold."
    )


def _placeholder(site: Site, trait: str) -> str:
    """A panic that is all a method of `impl Trait for ()` does (`unit_stub`)."""
    return (
        f"{where(site)} is a placeholder: `impl {trait} for ()` lets `()` stand where a "
        f"`{trait}` is expected, and this method of it only panics (`{site.macro.rstrip('!')}!`). It runs "
        f"only when code gives `()` as its `{trait}` and then calls it: give a type that "
        f"implements `{trait}` for real there."
    )


def placeholder_comment(trait: str) -> str:
    """The exampleFix's last comment for a placeholder's method (`unit_stub`)."""
    return (
        f"// A panic here means `()` was given as a `{trait}` and this method called: give a "
        f"type that implements `{trait}` for real."
    )


_REPORT_IF_PLACED = (
    "If the backtrace (`RUST_BACKTRACE=1`) shows the repository's own code giving `()` there, "
    "it is a bug there: report it upstream with the full message and the version you run."
)


def _threads_refused(site: Site) -> str:
    """A panic on the start of a thread or runtime that failed (`failed_thread_step`)."""
    return (
        f"It panics here (`{site.macro}`) when the system refuses to start a thread "
        "(or a runtime's threads): a limit on processes or threads (`ulimit -u`, a "
        "container's pids limit) or the memory for its stack. Raise the limit or free "
        "resources, then run again."
    )


def _underneath(cause: str) -> str:
    return (
        f"The message prints the error underneath ({cause}): it says what failed beneath this "
        "step; start there."
    )


def _only_in_advice(site: Site) -> bool:
    """Whether every value the message prints is what its advice says to run or use ("Run
    `{}` to authenticate uv with pyx", "use '{}' instead", "kill it manually with {}"): a
    command or a suggestion, no rejected input."""
    if not site.is_format:
        return False
    every = language_of(site.file_path).placeholders(site.message)
    advised = [
        slot
        for advice in advice_in(site.message)
        for slot in _ADVISED_SLOT.findall(advice.replace("{{", "").replace("}}", ""))
    ]
    return bool(every) and len(advised) == len(every)


# A placeholder that is what to run or use: right after the verb (or "with"), quoted or not.
_ADVISED_SLOT = re.compile(
    r"\b(?:run|use|try|execute|install|call|pass|with)\s+[`'\"]?(\{[^{}]*\})", re.IGNORECASE
)


def message_advice(site: Site) -> str | None:
    """The solution that quotes what the message tells its reader to do, if it does."""
    advice = advice_in(site.message)
    if not advice:
        return None
    quoted = " / ".join(f'"{a}"' for a in advice)
    filled = (
        " (the message you see has the values in place of its `{..}`)"
        if any(has_placeholders(a, site.is_format) for a in advice)
        else ""
    )
    return f"The message itself says what to do: {quoted}{filled}."


def unwrapping(method: str) -> str:
    """`.unwrap()`, `.expect(..)`: the call `Facts.unwrapped` names, as written."""
    return "`.unwrap()`" if method == "unwrap" else f"`.{method}(..)`"


def _assumption(context: SiteContext) -> str:
    site = context.site
    facts = site.facts
    if site.kind == "expect" and facts.receiver:
        # not "it gave none": cargo's `normalized_exclude()` is a `Result<Option<_>, _>`,
        # whose `Err` fails the `expect` and whose `None` is fine (reading 149); where the
        # scan tells which, only that one (neon's `write_all(..).await`, reading 262)
        never = {"None": "(never `None`)", "Err": "(never an `Err`)"}.get(
            _told_outcome(facts.conditions), NEVER_EITHER
        )
        if (nonempty := nonempty_checked_above(site)) is not None:
            return (
                f"The code assumed `{facts.receiver}` always gives a value here {never}, as "
                f"`{nonempty.check}` above says `{nonempty.collection}` holds an item."
            )
        if fixed_input(site) is not None:
            # given only literals: no run differs from another (nushell's examples'
            # `DateTime::parse_from_str(lit, lit)` read "this time it did not", reading 282)
            return (
                f"The code assumed `{facts.receiver}` always gives a value here {never}: it "
                "is given only fixed values, so if it did not, it fails on every run that gets "
                "here, and those values are what to correct in the code."
            )
        return (
            f"The code assumed `{facts.receiver}` always gives a value here {never}; "
            "this time it did not."
        )
    if facts.unwrapped is not None and facts.receiver:
        return (
            f"The code assumed `{facts.receiver}` always succeeds here: it adds this context "
            f"and then calls {unwrapping(facts.unwrapped)}, which panics on the error."
        )
    failed = [c for c in facts.conditions if c.kind == "check_failed"]
    if failed:
        return f"The code assumed `{failed[-1].text}` always holds here, and it did not."
    if site.kind in ("todo", "unimplemented"):
        return "The code does not handle this case yet."
    if facts.conditions:
        return f"The code assumed the path in {where(site)} that leads here could not be taken."
    return f"The code assumed {where(site)} never gets here."


def _told_outcome(conditions: Sequence[Condition]) -> str:
    """What the last guarded value's failure was (`x was None (expect)`), as the scan tells
    it: "None", "Err" or "None/Err"."""
    for condition in reversed(conditions):
        failed = _held_nothing(condition)
        if failed is not None:
            return failed[1]
    return "None/Err"


def _held_nothing(condition: Condition) -> tuple[str, str] | None:
    """`_failed_call` of a condition that says a value held nothing (`x was None (expect)`),
    not that a call failed (`f(x) failed (map_err)`)."""
    if condition.kind != "closure" or " was " not in condition.text:
        return None
    return _failed_call(condition)


def option_checked_above(site: Site) -> str | None:
    """The check above an `.expect(..)` on a name that already stops the code when the name
    is `None` (`if az_id.is_none() { panic!(..) }`, passed: `az_id.is_none()`); None
    otherwise. A reassignment of the name between the two is not looked for."""
    conditions = site.facts.conditions
    failed = _held_nothing(conditions[-1]) if conditions else None
    if failed is None or failed[1] != "None" or not re.fullmatch(r"[a-z_]\w*", failed[0]):
        return None
    for condition in conditions[:-1]:
        if checked_above(condition) and condition.text.strip() == f"{failed[0]}.is_none()":
            return condition.text.strip()
    return None


def prevention(
    context: SiteContext,
    check: str | None,
    failure_class: str,
    guess: Classification | None = None,
) -> list[str]:
    """How to keep the error from happening (`guess`: how single keywords chose the class,
    when they did: its tip is given as an "if")."""
    tips: list[str] = []
    site = context.site
    unset = [r.name for r in environment_reads(site.facts.conditions) if r.need == "unset"]
    valued = set_variable(site.facts.conditions)
    directory = missing_directory(site)
    if directory is not None:
        tips.append(directory_tip(directory[1]))
    elif context.error_type == "panic" and unset and in_build_script(context):
        by_cargo = {set_by_cargo(name) for name in unset}
        if "always" in by_cargo:  # helix's `OUT_DIR`, reading 252; rustup's `TARGET`, 280
            tips.append("Run the build script only through Cargo, which sets its environment.")
        elif None not in by_cargo:  # `CARGO_CFG_FEATURE`, `DEP_OPENSSL_VERSION_NUMBER`
            tips.append(
                f"Build with the features and target the package expects: Cargo sets "
                f"`{unset[-1]}` for a build script only then."
            )
        else:
            tips.append(f"Set `{unset[-1]}` in the environment the build runs in.")
    elif context.error_type == "panic" and unset:
        tips.append(f"Set `{unset[-1]}` in the environment the program runs in.")
    elif context.error_type == "panic" and valued:
        tips.append(f"Set `{valued}` only to a value the program accepts, or leave it unset.")
    elif context.error_type == "panic" and (asserted := assertion_macro(site)) is not None:
        tips.append(f"Give `{asserted}!` only what the test expects to hold.")
    elif context.error_type == "panic" and documented_panic(site) is not None:
        under = " under `# Panics`" if panics_section(site) else " for its callers"
        tips.append(f"Meet what the docs of {where(site)} state{under} before calling it.")
    elif context.error_type == "panic" and misuse_worded(site):
        tips.append("Make the calls in the order and number the message states.")
    elif context.error_type == "panic" and state_panic(site):
        tips.append(state_tip(site))
    elif context.error_type == "panic" and (trait := unit_stub(site)) is not None:
        tips.append(f"Give a type that implements `{trait}` for real wherever one is expected.")
    elif context.error_type == "panic" and missing_argument(site) is not None:
        tips.append("Run the program with every command-line argument it reads.")
    elif context.error_type == "panic" and poisoned_lock(site) is not None:
        tips.append("Find and fix the first panic of the run; this one only follows from it.")
    elif context.error_type == "panic" and clock_before_epoch(site):
        tips.append("Keep the clock of the machine that runs it set (NTP).")
    elif context.error_type == "panic" and registered_metric(site) is not None:
        tips.append(
            "Register each metric once, under a name no other metric takes; a test that "
            "reads every metric at start shows a definition the registry refuses."
        )
    elif context.error_type == "panic" and non_utf8_path(site) is not None:
        tips.append("Keep the names of the files and directories it reads UTF-8.")
    elif context.error_type == "panic" and (program := started_program(site)) is not None:
        name = path_program(program)
        tips.append(
            f"Install `{name}` and put it on `PATH` where the program runs."
            if name is not None
            else "Make the program it starts available where it runs."
        )
    elif context.error_type == "panic" and failed_thread_step(site):
        tips.append("Leave the program room for the threads it starts (process and memory limits).")
    elif context.error_type == "panic" and failure_worded(site):
        tips.append("Make sure what the step the message names needs is there before the run.")
    elif context.error_type == "panic" and failed_fs_step(site):
        tips.append("Make sure what that file-system step needs is there before the run.")
    elif context.error_type == "panic" and failure_class == "configuration-error":
        tips.append("Set the manifest or configuration as the message says before the run.")
    elif platform_stub(site) is not None:
        tips.append("Build and run it only for the targets it supports.")
    elif context.error_type == "panic" and not refused_inputs(context, check):
        tips.append(ASSUMPTION_TIP)
    elif context.error_type == "panic" and (converted := refused_conversion(context, check)):
        tips.append(f"Before calling {where(site)}, make sure `{converted}` succeeds.")
    elif (
        check is not None
        and not is_guard(context, context.site.facts.conditions)
        and caller_can_test(context.site, check_test(check), receiver=True)
    ):  # not "before calling it, make sure `!scheduled_error`": a value it computes itself
        tips.append(_before_calling(context.site, check_test(check)))
    if context.error_type == "panic" and failure_class == FALLBACK and tips:
        # the class's tip is how to print an error with its causes: a panic is no value a
        # caller prints (mdBook's "never give error-formatting advice for a panic", reading
        # 309; 199 panics of 9 repositories carried it beside their own tip)
        return tips
    known = load_taxonomy()[failure_class]
    tip = known.prevention or first_sentence(known.description)
    if failure_class == "io-error" and (step := fs_step_tip(site) or process_step_tip(site)):
        tip = step  # what that call needs, not every call's (reading 183's `create_dir_all`)
    if failure_class == "timeout" and (limit := _constant_limit(site.facts.conditions)):
        # `started_at.elapsed() >= POSTGRES_WAIT_TIMEOUT`: no one sizes a `const` but by
        # editing the code (neon's 60 s wait, reading 191)
        tip = (
            f"The time limit is the constant `{limit}` of the code, which no setting "
            "changes: watch what makes the operation slow."
        )
    if guess is not None:
        whose = "the checks' words" if guess.source == "conditions" else "its words"
        tip = f'If it is a case of "{known.title}", as {whose} suggest: {lowered(tip)}'
    tips.append(tip)
    return tips


def lowered(sentence: str) -> str:
    """`sentence` with its first letter in lower case, to follow a colon."""
    return sentence[:1].lower() + sentence[1:]


def said_before(tip: str, class_tip: str) -> str | None:
    """What comes before a class's tip in a prevention tip: "" when `tip` is that tip, the
    words' guess ('If it is a case of "Invalid argument", as its words suggest: ') when it
    is given as one (`prevention`), None when `tip` is another."""
    if tip == class_tip:
        return ""
    told = lowered(class_tip)
    return tip.removesuffix(told) if tip.endswith(f": {told}") else None


# a time compared with a constant: `elapsed() >= POSTGRES_WAIT_TIMEOUT`, `Self::MAX_WAIT < t`
_CONST_LIMIT = re.compile(
    r"(?:elapsed\(\)|\bnow\(\)|\bwaited\w*|\btime\w*|\bduration\w*)\s*[<>]=?\s*"
    r"(?:Self::|\w+::)?([A-Z][A-Z0-9_]{2,})\b(?!\s*[.(])"
)


def _constant_limit(conditions: Sequence[Condition]) -> str | None:
    """The `const` a held condition compares a time with, when one does (`_CONST_LIMIT`)."""
    for condition in conditions:
        if condition.kind in ("if", "while", "ensure"):
            found = _CONST_LIMIT.search(condition.text)
            if found is not None:
                return found[1]
    return None


def _before_calling(site: Site, test: str) -> str:
    """The tip of a check a caller can make first; a fn named as a check is that check
    itself, given values (or, with none, called in a state) for which its test holds:
    risingwave's argument-less `check_..()` read "give it values" (reading 146's recheck)."""
    test = as_caller(test, site)  # `self` as the value the caller calls it on
    if not is_validator(site):
        return f"Before calling {where(site)}, make sure `{test}`."
    if call_parameters(site.facts.call):
        return f"{where(site)} is itself the check: give it values for which `{test}` holds."
    return f"{where(site)} is itself the check: call it where `{test}` holds."


def doc_summary(doc: str) -> str:
    """A doc comment's first sentence, within its first paragraph (a `## Resolution` heading
    below it is not part of it)."""
    paragraph: list[str] = []
    for line in doc.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            if paragraph:
                break
            continue
        paragraph.append(line)
    return first_sentence("\n".join(paragraph) or doc)


def first_sentence(text: str) -> str:
    """The first sentence: up to a `.` that ends a sentence outside quotes, not an ellipsis."""
    flat = " ".join(text.split())
    quoted = False
    for index, ch in enumerate(flat):
        if ch == '"':
            quoted = not quoted
        elif (
            ch == "."
            and not quoted
            and flat[index + 1 : index + 2] in (" ", "")
            and flat[index - 1 : index] != "."
            and flat[index + 2 : index + 3][:1].isupper() | (index + 1 == len(flat))
        ):
            return flat[: index + 1]
    return flat
