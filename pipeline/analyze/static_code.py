"""The offline analyzer's code fields: exampleFix, validationCode, typeGuard, tryCatchPattern.

Each is built from the site's whole statement and its condition chain, then parsed
by the language front end; a field that does not parse is None (exampleFix, which
the record requires, falls back to the statement alone, then to comments).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from pipeline.analyze import SiteContext
from pipeline.analyze.arguments import missing_argument
from pipeline.analyze.clock import clock_before_epoch
from pipeline.analyze.documented import assertion_macro, documented_panic, panics_section
from pipeline.analyze.environment import environment_reads, unset_note, value_note
from pipeline.analyze.fixed_input import LITERAL
from pipeline.analyze.guarded import guarded_call
from pipeline.analyze.homedirs import missing_directory
from pipeline.analyze.locks import poisoned_lock
from pipeline.analyze.message_advice import advice_in
from pipeline.analyze.metrics import registered_metric
from pipeline.analyze.programs import path_program, started_program
from pipeline.analyze.taxonomy import CONFIGURATION, failed_filesystem_call
from pipeline.analyze.utf8paths import non_utf8_path
from pipeline.core.model import Condition, Site
from pipeline.core.sitetypes import (
    EARLIER_STEPS,
    MACRO_INVOCATION,
    MACRO_RULES,
    TEXT_KINDS,
    call_parameters,
    value_name,
)
from pipeline.languages import language_of
from pipeline.scan.buildable import type_name
from pipeline.scan.context import PANIC_KINDS, STREAM_OF

# a name a reader reads a value by; not a macro's (`matches!`: the bang right after it, not
# the `!=` of `channel != "dev"`) nor a path's head
_ROOT_NAME = re.compile(r"(?<![.\w:'\"])([a-z_]\w*)\b(?!\s*::|!(?!=))")
MIN_NEEDLE = 12  # a shorter literal (`"lsn"`) matches unrelated errors too
_ANYHOW_CLASSES = ("anyhow::Error", "anyhow::Result", "eyre::Report", "eyre::Error")


def where(site: Site) -> str:
    """The item the site is in, as a reader names it: `Type::fn`, `fn`, `static FOO`."""
    facts = site.facts
    if facts.enclosing_fn and facts.enclosing_impl:
        owner = impl_type(facts.enclosing_impl)
        if owner == "()":  # `impl Session for ()`: `<() as Session>::write_body`
            trait = facts.enclosing_impl.rpartition(" for ")[0]
            return f"`<() as {trait}>::{facts.enclosing_fn}`"
        return f"`{owner}::{facts.enclosing_fn}`"
    if facts.enclosing_fn:
        return f"`{facts.enclosing_fn}`"
    if facts.item and facts.item.startswith(MACRO_RULES):
        name = facts.item.removeprefix(MACRO_RULES)
        return f"the body of macro `{name}!` (expanded where it is used)"
    if facts.item and facts.item.startswith(MACRO_INVOCATION):
        head = facts.item.removeprefix(MACRO_INVOCATION)
        name, _, first = head.partition("!")
        if first.strip(" {[("):  # `cast! { Binding`: the type it is for
            return f"the code that `{name}!` generates from `{head} ..`"
        return f"the code that `{name}!` generates where `{site.file_path}` invokes it"
    if facts.item:
        return f"the initializer of `{facts.item}`"
    if facts.enclosing_type:
        return f"`{facts.enclosing_type}`"
    return f"the top-level code of `{site.file_path}`"


def text_owner(site: Site) -> str:
    """What a type's text (`#[error]`, `Display`: `TEXT_KINDS`) is the text of, as a reader
    names it: its variant (`Error::Io`), else its type (`Wrapped`)."""
    return "::".join(p for p in (site.facts.enclosing_type, site.facts.variant) if p)


def wraps_an_error(site: Site) -> bool:
    """A `.context(..)` on an error value (`anyhow!(err).context(..)`, `e.context(..)`): the
    front end gives no failed call for its receiver, which is an error already."""
    receiver = site.facts.receiver
    return (
        site.kind == "context"
        and receiver is not None
        and not any(
            c.text.startswith((f"{receiver} was ", EARLIER_STEPS)) for c in site.facts.conditions
        )
    )  # `…?.peel_to_tree() was None/Err`: the steps after the chain's last `?` (`Facts`)


def impl_type(impl: str) -> str:
    """An impl as a reader names its methods' owner: `RegistryData for HttpRegistry<'gctx>`
    -> `HttpRegistry` (as the caller paths name it), `Map<K, V>` -> `Map`."""
    written = _REFERENCE.sub("", impl.rpartition(" for ")[2].strip())
    return written.split("<", 1)[0].rstrip() or written


class Conversion(NamedTuple):
    """A site in a conversion that input drives: the trait, the type made, what it is made
    from (`S` of `TryFrom<S>`; "" when the impl does not say)."""

    trait: str  # FromStr, TryFrom, From, Deserialize or Visitor
    target: str
    source: str


# The trait and the method of it whose error rejects the value converted
_CONVERTING = {
    "FromStr": "from_str", "TryFrom": "try_from", "From": "from", "Deserialize": "deserialize"
}  # fmt: skip


def conversion(site: Site) -> Conversion | None:
    """The conversion the site is in, when its fn is `FromStr::from_str`, `TryFrom::try_from`,
    `From::from`, `Deserialize::deserialize` or a serde `Visitor`'s `visit_*`, as the impl it
    is in says (`impl TryFrom<grpc::Query> for Query`): its error (but `From`'s, which cannot
    fail) is how the type rejects what it is converted from."""
    facts = site.facts
    impl, name = facts.enclosing_impl or "", facts.enclosing_fn or ""
    trait, found, _ = impl.partition(" for ")
    if not found:
        return None
    generic, _, arguments = trait.partition("<")
    base = generic.rsplit("::", 1)[-1].strip()
    if _CONVERTING.get(base) != name and not (base == "Visitor" and name.startswith("visit_")):
        return None
    source = arguments.rpartition(">")[0].strip() if base in ("TryFrom", "From") else ""
    return Conversion(base, impl_type(impl), source)


def constructed(site: Site) -> str | None:
    """The type an inherent `new`/`try_new` makes, when its return type says it is the
    impl's own (`Self`, `Result<Self>`, `Option<Segment>`): `Segment` for `Segment::new`."""
    facts = site.facts
    impl = facts.enclosing_impl or ""
    if facts.enclosing_fn not in ("new", "try_new") or not impl or " for " in impl:
        return None
    made = impl_type(impl)
    last = made.rsplit("::", 1)[-1]
    if not re.search(rf"\b(?:Self|{re.escape(last)})\b", facts.return_type or ""):
        return None
    return made


def a_type(name: str) -> str:
    """`name` in backticks after its article, as it is read aloud: "an `IdGenerator`",
    "a `&PbFunction`", "a `Url`"."""
    spoken = name.lstrip("&' ").removeprefix("mut ").lstrip()
    vowel = spoken[:1].lower() in ("a", "e", "i", "o", "u")
    if spoken[:1].lower() == "u" and re.match(r"(?i)u(?:ni|s[aeiu]|r[il]|uid|tf)", spoken):
        vowel = False  # "a `Url`", "a `UnixStream`", "a `Uuid`"
    return f"{'an' if vowel else 'a'} `{name}`"


def converting(found: Conversion) -> str:
    """What the code is doing in a conversion, for a sentence's subject: "text is parsed into
    `Version`", "a `grpc::Query` is converted into `Query`"."""
    if found.trait == "FromStr":
        return f"text is parsed into `{found.target}`"
    if found.trait in ("TryFrom", "From"):
        made = a_type(found.source) if found.source else "a value"
        return f"{made} is converted into `{found.target}`"
    if found.trait == "Deserialize":
        return f"input is deserialized into `{found.target}`"
    return "input is deserialized by a serde `Visitor`"


# What an impl's type is reached through, not its name: `impl GetSpan for &'a StateWorkingSet`
_REFERENCE = re.compile(r"^(?:&\s*(?:'\w+\s+)?(?:mut\s+)?|dyn\s+)+")


# A placeholder that prints the error underneath, not a value: by its name, or the last one
# after a colon in a message of a failure (`LDAP bind failed: {}`).
_CAUSE_NAMES = frozenset(("e", "err", "error", "cause", "source", "reason", "inner"))
_FAILURE = re.compile(r"\b(?:fail\w*|error|unable|could not|cannot|can't)\b", re.IGNORECASE)
_LAST_AFTER_COLON = re.compile(r":\s*`?\{[^{}]*\}`?\s*\.?\s*$")


def _slots(site: Site) -> list[str]:
    return language_of(site.file_path).placeholders(site.message) if site.is_format else []


# An argument that is the error underneath, converted or reported: `e`, `e.into()`,
# `err.to_string()`, `error.as_report()`, `&e` (tonic's "Service was not ready: {}", e.into()).
_CAUSE_ARGUMENT = re.compile(
    r"&?(?:" + "|".join(sorted(_CAUSE_NAMES)) + r")(?:\.(?:into|to_string|as_report|"
    r"display|report|as_ref)\(\))*"
)


# "got {:?}" prints a value the code did not want, whatever its name (cargo's mdman: `e`, an
# event of the parser, not an error).
_SHOWN_VALUE = re.compile(r"\b(?:got|found|received|saw|is|was|but)\s*`?$", re.IGNORECASE)


def _cause_at(
    slots: Sequence[str], message: str, args: Sequence[str], fields: Mapping[str, str]
) -> int | None:
    """Which placeholder prints the underlying error (`cause_slot`), or None: by its name,
    by the argument it prints (`format!("..: {}", e.into())`), or as the last after a colon
    of a failure's message. Never a field of an `#[error]`'s type that holds a value, not an
    error (`fields`: cargo's `{bytes:?}` of `bytes: Vec<u8>`, reading 140)."""
    for at, slot in enumerate(slots):
        if slot.split(":", 1)[0] in _CAUSE_NAMES and not _holds_value(fields, slot):
            return at
    for at, slot in enumerate(slots):
        if _holds_error(fields, slot):
            return at
    for at, value in enumerate(_arguments(slots, args) if args else ()):
        if value and _CAUSE_ARGUMENT.fullmatch(value.strip()):
            before = message.split("{" + slots[at] + "}", 1)[0]
            if not _SHOWN_VALUE.search(before):  # "got {:?}": a value shown, whatever its name
                return at
    if (
        slots
        and _FAILURE.search(message)
        and _LAST_AFTER_COLON.search(message)
        and not _LISTED_BEFORE.search(message)
    ):
        last = len(slots) - 1
        value = (_arguments(slots, args) if args else [None] * len(slots))[last]
        before = message.rsplit("{" + slots[last] + "}", 1)[0].rstrip(" `").removesuffix(":")
        if _SHOWN_VALUE.search(before):  # "where property 'in' is: {value}" (reading 313)
            return None
        printed = value if value is not None else slots[last].split(":", 1)[0]
        if _shows_a_value(printed) or _names_its_value(before, printed):
            return None
        return None if _holds_value(fields, slots[last]) else last
    return None


# The word a colon follows, and the name an argument prints (`topic`, `self.topic`,
# `region_id.to_string()`)
_LABEL_WORD = re.compile(r"(\w+)\s*$")
_PRINTED_NAME = re.compile(r"[&*]*(?:self\.)?(\w+)(?:\.\w+\(\))*")
_ERROR_WORDS = re.compile(r"err|cause|reason|source|inner", re.IGNORECASE)


def _names_its_value(before: str, argument: str) -> bool:
    """Whether the word before the colon names the value the placeholder prints: "..from
    Kafka, topic: {}" of `topic`, "region_id: {}" or "region id: {}" of `region_id`
    (greptimedb's snafu `display("Failed to read a record from Kafka, topic: {}", topic)`
    read "The message prints the error underneath", reading 321). Not a name that says error
    (`io_error`, `cause`): that is the error still."""
    label = _LABEL_WORD.search(before)
    printed = _PRINTED_NAME.fullmatch(argument.strip())
    if label is None or printed is None or _ERROR_WORDS.search(printed[1]):
        return False
    name, word = printed[1].lower(), label[1].lower()
    return name == word or name.endswith("_" + word)


# A type that holds an error, or may: `std::io::Error`, `Box<dyn Error + Send>`, `ErrorKind`,
# `tonic::Status`, `Report`, `Arc<Self>` (thiserror's shared self), a type parameter `E`
_ERROR_TYPE = re.compile(
    r"Err|Report|(?<!Exit)Status\b|Errno|Exception|Fail|Cause|Problem|Diagnostic|\bSelf\b"
    r"|^\s*&?\s*[A-Z]\s*$"
)


def _holds_error(fields: Mapping[str, str], slot: str) -> bool:
    """Whether the placeholder prints a field of the `#[error]`'s type whose type is an error
    (`_ERROR_TYPE`), not a kind or code of one: tikv's `#[error("{0:?}")] Encryption(#[from]
    encryption::Error)` prints the error it wraps, whatever the message's words (reading
    181 read it as "which object it was")."""
    written = fields.get(slot.split(":", 1)[0].strip())
    return (
        written is not None
        and _ERROR_TYPE.search(written) is not None
        and not _KIND_OF_ERROR.search(written)
    )


_KIND_OF_ERROR = re.compile(r"Kind|Code|\bSelf\b")


# Text, which may be an error's as well as a value's (risingwave's `Decode(String)` holds
# the text of the decoder's error)
_TEXT_TYPE = re.compile(r"&?\s*(?:'\w+\s+)?(?:String|str|Cow<.*str>|Box<str>|Arc<str>|SmolStr)")


def _holds_value(fields: Mapping[str, str], slot: str) -> bool:
    """Whether the placeholder prints a field of the `#[error]`'s type whose type is no
    error nor text (`bytes: Vec<u8>`, `status: ExitStatus`, `capacity: u64`)."""
    written = fields.get(slot.split(":", 1)[0].strip())
    return (
        written is not None
        and not _ERROR_TYPE.search(written)
        and not _TEXT_TYPE.fullmatch(written.strip())
    )


# What a placeholder's argument holds when its name says so: a path displayed, a name, an
# id, a code (cargo's "failed to parse lock file at: {}" prints `f.path().display()`,
# zellij's "got status code: {}" `status_code`, bat's "Unable to write config file to: {}"
# `config_file.to_string_lossy()`, surrealdb's "..property 'in' is: {value}" the offending
# value's text), not the error underneath.
_VALUE_ARGUMENT = re.compile(
    r"(?:.*\.(?:display|to_string_lossy|to_str|as_os_str|as_path|file_name)\(\)(?:\.unwrap\(\))?"
    r"|(?:.*[._])?(?:path|file|filename|dir|directory|name|url|uri|id|key|code|command|cmd|"
    r"list|value)s?)",
    re.IGNORECASE,
)
# "..commit the changes to these files:\n\n{}" (cargo's `files_list`): the words before the
# colon name what the placeholder lists
_LISTED_BEFORE = re.compile(
    r"\b(?:files|paths|directories|names|packages|crates|items|entries|values|candidates|"
    r"options|following)\s*:\s*`?\{[^{}]*\}`?\s*\.?\s*$",
    re.IGNORECASE,
)


def _shows_a_value(argument: str) -> bool:
    """Whether a format argument (or a captured name) is a value the message shows
    (`_VALUE_ARGUMENT`), not an error (`err_path`, `cause_name`: an error's still)."""
    text = argument.strip().lstrip("&*")
    if re.search(r"err|cause|reason", text, re.IGNORECASE):
        return False
    if _FIELD_PATH.fullmatch(text) and not _ERROR_HOLDER.match(text):
        return True  # a value the code holds (atuin's `settings.db_settings`, reading 324)
    return bool(_VALUE_ARGUMENT.fullmatch(text))


# A field of a value, read as it is (`settings.db_settings`, `self.config.path`): no error
# the step met; unless it is read off the error (`e.kind`) or is a field that holds one or
# tells how it failed (ripgrep's glob error's `self.kind`, a child's `output.status`, the
# text risingwave's `FieldEncodeError` keeps of its cause in `self.message`)
_FIELD_PATH = re.compile(r"[a-z_]\w*(?:\.[a-z_]\w*)+")
_ERROR_HOLDER = re.compile(
    r"(?:e|source|inner|cause)\.|.*\.(?:source|inner|kind|status|message|msg|details?|description)$"
)


def cause_slot(site: Site) -> str | None:
    """The placeholder that prints the underlying error (`{e}`, or `{}` ending `... failed:
    {}`), as written; None when the message has none."""
    slots = _slots(site)
    at = _cause_at(slots, site.message, site.format_args, dict(site.facts.fields))
    return None if at is None else f"`{{{slots[at]}}}`"


def fatal_failure(site: Site) -> str | None:
    """The placeholder of the error a `panic!` prints (`panic!("Failed to claim terminal:
    {}", err)`: a failure made fatal, not a broken invariant), or None."""
    return cause_slot(site) if site.kind == "panic" else None


# A panic whose message reports a failed step (`.expect("Could not get home directory")`,
# `.expect("Failed to open file")`) rather than the assumption it checks (`.expect("a plain
# text syntax is available")`): the step may fail in the reader's environment. Not
# "cannot": a library's refusal of its caller ("Cannot merge two `Router`s that both have a
# fallback", axum) or an invariant ("cannot serialize", cargo) far more often than a step
# that failed (read on axum, cargo, meilisearch, risingwave).
# "Error loading groups" (vaultwarden's 78 database `.expect`s), "error sending push": an
# error in a step named by its verb.
_FAILURE_WORDS = re.compile(
    r"(?:could not|couldn't|failed to|unable to|error (?:while|when|in))\s+\w"
    r"|error\s+(?!(?:string|thing|something|nothing)\b)[a-z]+ing\b",
    re.IGNORECASE,
)
# On an `.expect(..)`, whose receiver is a call that can fail, "cannot write to stdout"
# says that call failed too; in a `panic!` "cannot convert X to Y" states what the code
# assumed. Not "cannot be empty", "cannot happen": assumptions either way.
_EXPECT_FAILURE_WORDS = re.compile(
    r"(?:cannot|can't|can not)(?!\s+(?:be|have|happen|fail|occur|reach)\b)\s+\w", re.IGNORECASE
)


# A panic whose message states how the code must be called (axum's "Called `Event::retry`
# multiple times", "polled after completion", "`update()` must be called before `get()`"):
# the calls broke a rule of the API, which is the caller's code to fix.
_MISUSE_WORDS = re.compile(
    r"\b(?:called|polled|invoked|used)\b[^.;:]*?\b(?:more than once|multiple times|twice|"
    r"after|before|without|again)\b|\b(?:must|should) (?:not |only )?be (?:called|polled|used)\b",
    re.IGNORECASE,
)


def misuse_worded(site: Site) -> bool:
    """Whether a panicking site's message says how the code must be called (then the calls,
    the reader's or the repository's own, broke that rule)."""
    if site.kind not in ("expect", "panic", "assert"):
        return False
    text = " ".join(language_of(site.file_path).literal_segments(site.message))
    return _MISUSE_WORDS.search(re.sub(r"`[^`]*`", "X", text[:1000])) is not None


# Words of a message or its help that call the error the program's own bug (nushell's "this
# is a compiler bug. Please report it", "..; please file a bug report").
_A_BUG = re.compile(
    r"\bbug\b|\binternal error\b|\bplease report\b|\bshould never happen\b", re.IGNORECASE
)


def owns_a_bug(site: Site) -> bool:
    """Whether the message or its authors' help calls the error a bug of the program: its
    printed values were no refused input, and no failed step of the reader's is to blame."""
    return any(_A_BUG.search(text) for text in (site.message, site.facts.help or ""))


def says_it_is_a_bug(site: Site) -> bool:
    """Whether the message or its authors' help calls the error a bug of the program and
    hedges nothing ("This is most likely a bug. Please report it."), not as one cause of
    several ("the plugin may have exited, or there was a bug", "possibly an internal
    error")."""
    return any(
        _A_BUG.search(text) and not _HEDGED.search(text)
        for text in (site.message, site.facts.help or "")
    )


# Constructors whose library documents them as a broken invariant of the code, not a failure
# of input or environment: DataFusion's `Internal` "should not happen in normal usage of
# DataFusion .. raised when one of those invariants is not verified during execution"
# (influxdb's "Invalid variable WindowDuration encoding" of its own encoder's output read
# "Invalid argument" and "correct the value you gave", reading 327)
_INVARIANT_CONSTRUCTORS = frozenset(("DataFusionError::Internal",))


def documented_invariant(site: Site) -> str | None:
    """The constructor (`DataFusionError::Internal`) the site's error is made with, where its
    library documents it as an error no input should cause; None otherwise."""
    callee = site.facts.callee or ""
    short = "::".join(callee.split("::")[-2:])
    return callee if short in _INVARIANT_CONSTRUCTORS else None


# A constructor whose variant names what the error is, over the message's words: foundry's
# `SymbolicError::Unsupported("out-of-bounds symbolic RETURNDATACOPY")`, the symbolic
# engine's limitation, read "Out of range or overflow" and "meet it with valid input,
# credentials or permissions" (reading 328)
_NAMED_KIND = re.compile(
    r"(?:^|::)(?:(?P<unsupported>Unsupported\w*|NotSupported)|(?P<unimplemented>NotImplemented"
    r"|Unimplemented))$"
)


def constructor_kind(site: Site) -> str | None:
    """ "unsupported" or "unimplemented" when the site's error is made by a constructor whose
    variant says so (`SymbolicError::Unsupported`, `ErrorCode::NotSupported`,
    `DataFusionError::NotImplemented`); None otherwise."""
    callee = site.facts.callee or ""
    found = _NAMED_KIND.search(callee) if "::" in callee else None
    if found is None:
        return None
    return "unsupported" if found["unsupported"] else "unimplemented"


_HEDGED = re.compile(r"\b(?:possibly|perhaps|maybe|may|might|could|either|or)\b", re.IGNORECASE)


def names_a_step(site: Site) -> bool:
    """Whether the message opens by saying a step failed ("failed to open {}", "could not
    connect"), whatever the site's kind."""
    opening = _opening(site)
    return opening is not None and _FAILURE_WORDS.match(opening) is not None


def _opening(site: Site) -> str | None:
    """The message's first literal words (before any placeholder), or None."""
    segments = language_of(site.file_path).literal_segments(site.message)
    return segments[0].lstrip() if segments else None


# The innermost condition: the start of an OS thread or of a tokio runtime (its worker
# threads, its I/O driver) that failed: the system refused a thread or a handle (`ulimit -u`,
# a container's pids limit, memory for a stack), whatever the message assumes (starship's
# "should be able to spawn timer thread" read "a bug, not something to fix in your input").
# Not `tokio::task::Builder`, whose spawn starts no thread; not the `.join()` of a thread that
# started (uv's "Tokio executor failed, was there a panic?": the thread panicked).
_THREAD_BUILDER = re.compile(r"^(?:(?:::)?std::)?(?:thread::)?Builder::new\(\)")
_RUNTIME_BUILDER = re.compile(
    r"^(?:(?:::)?tokio::)?(?:runtime::)?(?:Builder::new_(?:multi|current)_thread\(\)|Runtime::new\(\))"
)
_FAILED = re.compile(r" (?:failed|was Err|was None/Err) \(\w+\)$")


def platform_stub(site: Site) -> str | None:
    """The `#[cfg(..)]` gate (as `Facts.gates` writes it) that makes a panic the one thing
    its code does on some targets: a `panic!`/`unimplemented!`/`todo!` no condition leads
    to, under a gate on the target (neon's `#[cfg(not(target_os = "linux"))] fn main() {
    panic!("the monitor requires cgroups, which are only available on linux") }` read as a
    bug to report, reading 138); or an error it returns the same way (tikv's
    `#[cfg(not(any(target_os = "linux", ..)))] mod stub { pub fn init() -> Result<(), String>
    { Err("No I/O tracing tool available".to_owned()) } }` read "I/O error", reading 150).
    None otherwise."""
    if site.kind not in _STUB_KINDS or site.facts.conditions or not _first_statement(site):
        return None
    if any(_DOCS_GATE.search(gate) for gate in site.facts.gates):
        return None  # tokio's `#[cfg(docsrs)]` stubs: built for the docs, never run
    return next((gate for gate in site.facts.gates if _TARGET_GATE.search(gate)), None)


_UNIT_IMPL = re.compile(r"(.+?) for \(\)")
_UNIT_STUB_KINDS = frozenset(("panic", "unreachable", "todo", "unimplemented"))


def unit_stub(site: Site) -> str | None:
    """The trait of an `impl Trait for ()` whose method does nothing but panic, when the
    site is that panic: `()` is a placeholder that stands where a `Trait` is expected
    (pingora's `impl Session for ()`, every method `unreachable!("server session: ..")`,
    read "a bug, not something to fix in your input", reading 201). None otherwise."""
    found = _UNIT_IMPL.fullmatch(site.facts.enclosing_impl or "")
    if found is None or site.kind not in _UNIT_STUB_KINDS or site.facts.conditions:
        return None
    return found.group(1) if _first_statement(site) else None


# a line that opens a block of control flow, not a fn's body
_CONTROL_OPENING = re.compile(r"\b(?:if|else|for|while|loop|match|unsafe)\b|=>|=\s*\{|\|\s*\{")


def _first_statement(site: Site) -> bool:
    """Whether the site's statement is the first of its fn's body (only blank lines,
    comments and attributes between it and the `{` that opens the body): a stub does
    nothing else. tikv's Linux `disk_stat` returns "disk stat for {}:{} not found" after a
    loop that looked for it, under `#[cfg(target_os = "linux")]`: no stub."""
    lines = site.window.splitlines()
    at = site.line - site.window_start - 1
    while 0 <= at < len(lines):
        text = lines[at].strip()
        if text.startswith("#[cfg"):
            # the statement is gated itself: what the fn does on those targets (meilisearch's
            # `get_arch` ends in `#[cfg(not(..))] anyhow::bail!("unsupported platform")`)
            return True
        if text and not text.startswith(("//", "#[")):
            return text.endswith("{") and _CONTROL_OPENING.search(text) is None
        at -= 1
    return False


def compile_time_const(site: Site) -> str | None:
    """The `const` whose initializer holds a panicking site, outside any closure: the
    compiler evaluates it, so the panic can only fail the build (meilisearch's `const
    _CELLULITE_DB_CHECK: () = if .. { panic!("Cellulite database count has changed ..") }`
    read as a panic users meet at run time, reading 153). None otherwise."""
    if site.kind not in PANIC_KINDS or not site.facts.item:
        return None
    found = _CONST_ITEM.match(site.facts.item)
    if found is None:
        return None
    # from the `const` to the site, in the window: no closure nor fn between (`const F:
    # fn(u8) = |x| { .. panic!(..) }` runs where it is called); unknown past the window
    lines = site.window.splitlines()
    at = site.line - site.window_start
    start = next(
        (i for i in range(min(at, len(lines) - 1), -1, -1) if _declares(lines[i], found[1])),
        None,
    )
    if start is None:
        return None
    between = "\n".join(lines[start : at + 1]).partition("=")[2]
    return None if _CLOSURE_OR_FN.search(between) else found[1]


def _declares(line: str, name: str) -> bool:
    return re.search(rf"\bconst\s+{re.escape(name)}\b", line) is not None


_CONST_ITEM = re.compile(r"(?:pub(?:\([^)]*\))?\s+)?const\s+(\w+)")
# a closure where a value starts (`= |x|`, `(|| ..`), not the `||` of a condition
_CLOSURE_OR_FN = re.compile(r"(?:\A|[=(,])\s*(?:move\s*)?\|[^|]*\||\bfn\b")


# what a stub does each time: panic, or return an error it makes there
_STUB_KINDS = frozenset(("panic", "todo", "unimplemented", "bail", "anyhow", "constructor"))
_DOCS_GATE = re.compile(r"\b(?:docsrs|doc)\b")


_TARGET_GATE = re.compile(
    r"\b(?:target_os|target_family|target_arch|target_env|target_vendor|"
    r"target_pointer_width|target_endian|windows|unix)\b"
)


def failed_thread_step(site: Site) -> bool:
    """Whether a panicking site's innermost condition is the start of an OS thread or a
    tokio runtime that failed (`thread::Builder::new().spawn(f).expect(..)`): the system
    it runs on refused it, not an assumption of the code's."""
    if site.kind not in ("expect", "panic") or not site.facts.conditions:
        return False
    text = site.facts.conditions[-1].text.removeprefix("closure: ")
    failed = _FAILED.search(text)
    if failed is None:
        return False
    chain = text[: failed.start()]
    last, cut = _last_call(chain), chain.endswith("…")
    if _THREAD_BUILDER.match(chain):
        return last in ("spawn", "spawn_scoped")
    if _RUNTIME_BUILDER.match(chain):
        # a chain cut short among the builder's settings ends in `build()`; not one that
        # goes on to use the runtime (tauri's `.build().expect(..).block_on(server)`)
        return last in ("build", "new") or (cut and _USED.search(chain) is None)
    return False


_USED = re.compile(r"\.\s*(?:expect|unwrap\w*|block_on|spawn\w*|enter|handle)\s*\(")


def _last_call(chain: str) -> str:
    """The name of a call chain's last call (`a.b(x).c(y)` -> `c`, `T::new()` -> `new`),
    read through any brackets; a chain cut short inside a call's arguments ends in it."""
    depth, last = 0, -1
    for at, char in enumerate(chain):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "." and depth == 0:
            last = at
    return chain[last + 1 :].partition("(")[0].strip().rsplit("::", 1)[-1]


def failed_fs_step(site: Site) -> bool:
    """Whether a panicking site's innermost condition is a call of the file system's that
    failed (`create_dir_all(path).expect("should create")`): the step may fail in the
    reader's environment (a permission, a full disk), whatever the message says."""
    if site.kind not in ("expect", "panic"):
        return False
    return failed_filesystem_call([c.text for c in site.facts.conditions]) is not None


def parsed_text(site: Site) -> str | None:
    """The call that parses text whose failure a `.context(..)` or `.expect(..)` site wraps
    (`Url::parse(&format!("direct+{url}")).into_diagnostic()` -> `Url::parse`), past the
    methods that only convert its error; None when the receiver is no such call."""
    if site.kind not in ("context", "expect", "eyre") or not site.facts.receiver:
        return None
    receiver = site.facts.receiver
    while (adapter := _ERROR_ADAPTER.search(receiver)) is not None:
        receiver = receiver[: adapter.start()]
    found = _PARSE_CALL.search(receiver)
    return found[1] if found is not None else None


# What converts a call's error and nothing else: `.into_diagnostic()` (miette), `.map_err(..)`
_ERROR_ADAPTER = re.compile(
    r"\s*\.(?:into_diagnostic|map_err|err_into|into_report)\((?:[^()]|\([^()]*\))*\)$"
)
# A call that parses text: `Url::parse(..)`, `s.parse::<T>()`, `serde_json::from_str(..)`
# (its own name: qdrant's `get_sparse::<Random>(idx)` is none; nor `from_slice`, which
# openssl's `BigNum` has too, of bytes)
_PARSE_CALL = re.compile(
    r"(?<![\w])((?:\w+::)*(?:parse|from_str|from_str_radix)(?:::<[^()]*>)?)\s*"
    r"\((?:[^()]|\([^()]*\))*\)$"
)


def failure_worded(site: Site) -> bool:
    """Whether a panicking site's message opens by saying a step failed (then the step may
    fail in the reader's environment or on their input: not surely a bug)."""
    if site.kind not in ("expect", "panic"):
        return False
    opening = _opening(site)
    if opening is None or owns_a_bug(site) or _literal_lookup(site):
        return False
    return _FAILURE_WORDS.match(opening) is not None or (
        site.kind == "expect" and _EXPECT_FAILURE_WORDS.match(opening) is not None
    )


# A lookup by a key the code writes (`color_hm.get("bold_magenta")`): the code filled what it
# looks in, whatever its message says ("Error getting bold magenta text color", nushell)
_LITERAL_LOOKUP = re.compile(r".*\.get(?:_mut)?\(\s*&?\"[^\"]*\"\s*\)(?:\.\w+\(\))*", re.S)


def _literal_lookup(site: Site) -> bool:
    """Whether the innermost condition is a lookup by a literal key that found nothing."""
    call = guarded_call(site, ("None",))
    return call is not None and _LITERAL_LOOKUP.fullmatch(call) is not None


def in_build_script(context: SiteContext) -> bool:
    """Whether the site is in a Cargo build script: as the manifests say (a `build = "..."`
    root and the modules below it, bat's `build/main.rs`), else by the file's name."""
    if context.target is not None:
        return context.target == "build"
    return context.site.file_path.rsplit("/", 1)[-1] == "build.rs"


def printed_values(site: Site) -> str:
    """The message's placeholders as a list to read (`{orig}` printed three times is one
    value; each `{}` is a value of its own), the underlying error's left out (`cause_slot`),
    or "" when it prints none."""
    slots = _slots(site)
    at = _cause_at(slots, site.message, site.format_args, dict(site.facts.fields))
    values = _arguments(slots, site.format_args)
    shown = [
        _labelled(p, values[i])
        for i, p in enumerate(slots)
        if i != at and not _fixed(p, values[i]) and not _SOURCE_OF_CAUSE.match(values[i] or "")
    ]
    named = [s for s in dict.fromkeys(shown) if not s.startswith("`{}`")]
    return ", ".join(named + [s for s in shown if s.startswith("`{}`")])


# the cause's own cause (nushell's `e.source().map(|e| format!("{e}")).unwrap_or(..)` beside
# `e`, reading 182): an error's text too, no value involved
_SOURCE_OF_CAUSE = re.compile(r"&?(?:" + "|".join(sorted(_CAUSE_NAMES)) + r")\s*\.\s*source\(\)")
_NAMED_ARGUMENT = re.compile(r"^([A-Za-z_]\w*)\s*=(?!=)\s*(.+)$", re.DOTALL)
# A value the code fixes: a literal (`"bearer"`, `42`, `b'x'`), or a const or static by
# Rust's naming (`REPLACEABLE_SCHEMA_PATH`, `consts::MAX_LEN`), maybe borrowed
_FIXED_VALUE = re.compile(
    rf"(?:{LITERAL}|&?\s*(?:(?![A-Z]::)[A-Za-z_]\w*::)*[A-Z][A-Z0-9_]*[A-Z0-9])"
    # .. styled or converted with no argument: uv's `"UV_SKIP_WHEEL_FILENAME_CHECK=1".green()`
    # is a hint it prints, no value refused (reading 147)
    r"(?:\s*\.\s*[a-z_]\w*\(\s*\))*"
)  # not a type parameter's associated const (helix's `E::ID`: each event's own name)


def _fixed(slot: str, value: str | None) -> bool:
    """Whether a placeholder prints the same text on every run: its argument is a literal or
    a const (lemmy's `{REPLACEABLE_SCHEMA_PATH}`, sccache's `"bearer"`): it tells no object."""
    key = slot.split(":", 1)[0].strip()
    written = value if value is not None else (key if not key.isdigit() else "")
    return bool(written) and _FIXED_VALUE.fullmatch(written.strip()) is not None


ARGUMENT_CHARS = 40  # an argument longer than this is cut (`…`)


def _arguments(slots: Sequence[str], args: Sequence[str]) -> list[str | None]:
    """The argument each placeholder prints, as Rust's format rules give it: `{}` the next
    positional one, `{0}` that one, `{name}` the one named so (None: a variable of the same
    name, captured, or none known: an `#[error]` attribute's fields)."""
    named = {m[1]: m[2] for a in args if (m := _NAMED_ARGUMENT.match(a))}
    positional = [a for a in args if not _NAMED_ARGUMENT.match(a)]
    out: list[str | None] = []
    counter = 0
    for slot in slots:
        key = slot.split(":", 1)[0].strip()
        if key == "":
            out.append(positional[counter] if counter < len(positional) else None)
            counter += 1
        elif key.isdigit():
            out.append(positional[int(key)] if int(key) < len(positional) else None)
        else:
            out.append(named.get(key))
    return out


def _labelled(slot: str, value: str | None) -> str:
    """`{}` from `toolchain`: a placeholder with the argument it prints, when the code says."""
    label = f"`{{{slot}}}`"
    if value is None:
        return label
    value = " ".join(value.split()).replace("`", "'")
    if len(value) > ARGUMENT_CHARS:
        value = value[: ARGUMENT_CHARS - 1] + "…"
    return f"{label} from `{value}`"


def exited_above(conditions: Sequence[Condition]) -> int | None:
    """The place in `conditions` of a `match` arm that an early exit above already left on:
    `if context.target == Target::Continuation { return .. }` then `match context.target {
    .. Target::Continuation => unreachable!(..) }` (starship's, reading 314: the trigger
    asked for both). The arm's pattern must be the exit's test's other side (`x == P`,
    `P == x`, `matches!(x, P)`), written alike; None otherwise. A reassignment of `x`
    between the two is not looked for, as for `option_checked_above`."""
    for at, condition in enumerate(conditions):
        arm = _ARM_TEXT.fullmatch(condition.text) if condition.kind == "match_arm" else None
        if arm is None:
            continue
        subject, pattern = _spaced(arm["subject"]), _spaced(arm["pattern"])
        tests = {
            f"{subject} == {pattern}",
            f"{pattern} == {subject}",
            f"matches!({subject}, {pattern})",
        }
        if any(
            c.kind in ("exit", "ensure") and c.negated and _spaced(c.text) in tests
            for c in conditions[:at]
        ):
            return at
    return None


# A `match` arm's condition as the facts write it: `match context.target: Target::X =>`
_ARM_TEXT = re.compile(r"match (?P<subject>.+?): (?P<pattern>[^|]+?) =>")


def _spaced(text: str) -> str:
    return " ".join(text.split())


def validation(context: SiteContext) -> str | None:
    """`let ok = ..;`, the whole chain negated, or None; None too in a fn that builds the
    error it returns (`builds_its_return`): its conditions choose which error, not whether."""
    if builds_its_return(context.site) or exited_above(context.site.facts.conditions) is not None:
        return None  # an arm an exit above left on first: a test of it holds whatever is passed
    return language_of(context.site.file_path).validation_code(context.site.facts.conditions)


_WRAPPED_RETURN = re.compile(r"\b(?:Result|Option|Poll)\b")


def converted_arm(site: Site) -> str | None:
    """The variant of the value a `From::from` converts, when the site is in that arm of its
    `match` (`ParseError::DuplicateKey`)."""
    arms = [c for c in site.facts.conditions if c.kind == "match_arm"]
    if not arms:
        return None
    found = _ARM_PATH.match(arms[-1].text)
    return found[1] if found is not None and "::" in found[1] else None


_ARM_PATH = re.compile(r"(?:match [^:]+:\s*)?((?:\w+::)+\w+)")


def builds_its_return(site: Site) -> bool:
    """Whether the site constructs the value its fn returns, an error and no `Result`:
    starship's `fn error(&self, msg) -> ValueError { match (self.current_key, self.info) {
    (Some(key), ..) => ValueError::custom(format!("Error in '{name}' at '{key}': {msg}")),
    _ => ValueError::custom(msg) } }` is called once an error exists, and its `match` only
    chooses how to word it: no check avoids it (reading 113)."""
    returned = (site.facts.return_type or "").strip()
    found = conversion(site)
    if found is not None and found.trait == "From" and not _WRAPPED_RETURN.search(returned):
        # `impl From<ParseError> for ShellError`: every value it is given becomes an error,
        # its arms only choose which (nushell's `DuplicateKey` arm read "goes on only when
        # `!matches!(error, ParseError::DuplicateKey { .. })`", reading 148)
        return site.kind not in PANIC_KINDS
    callee = site.facts.callee or ""
    if site.kind != "constructor" or not returned or "::" not in callee:
        return False
    if _WRAPPED_RETURN.search(returned):
        return False
    built = type_name(callee.rsplit("::", 1)[0])
    named = type_name(returned)
    if named == "Self":  # the impl's type, also of a trait's impl (`Display for ValueError`)
        named = type_name(impl_type(site.facts.enclosing_impl or ""))
    return bool(built) and built == named


def type_guard(context: SiteContext) -> str | None:
    """The pattern test of the innermost `let ... else`, or None; None as well when it
    tests no parameter nor field of the fn's (a local it made), or a parameter it binds again
    first (`Facts.rebound`: neon's `let endpoint_id =
    from_endpoint.or(spec.endpoint_id)` read as a guard on what callers pass, reading 141)."""
    site = context.site
    guard = language_of(site.file_path).type_guard(site.facts.conditions)
    if guard is None or _names(guard) & set(site.facts.rebound):
        return None
    if "self" not in _names(guard) and not inputs_read(
        site.facts.call, [Condition("if", guard, site.line)]
    ):
        # a test of the fn's own local, which no caller holds (cargo's `let Some(x) =
        # input.find_slice("\n") else`, `input` made inside the fn: reading 302)
        return None
    return guard


def check_test(check: str) -> str:
    """The test of a `validationCode` (`let ok = <test>;`)."""
    return check.removeprefix("let ok = ").removesuffix(";")


# A panic message that states an invariant of the code, not a value refused.
_INVARIANT_WORDS = re.compile(
    r"\b(?:bug|report|should(?:n'?t)?|expected|unexpected|assum\w*|internal|invariant|impossible|"
    r"never|must have|must be called)\b",
    re.IGNORECASE,
)


def refused_inputs(context: SiteContext, check: str | None) -> list[str]:
    """The parameters a panic refuses: those a `panic!` or `assert!` checks with a test the
    code states (`checked_inputs`), else those a failed conversion converted
    (`converted_inputs`). Otherwise an `expect` fails on what its receiver returned;
    `unreachable!`, `todo!` refuse no value. The one rule the class, solutions, prevention
    and example fix all follow."""
    return checked_inputs(context, check) or converted_inputs(context)


def checked_inputs(context: SiteContext, check: str | None) -> list[str]:
    """The parameters a `panic!` or `assert!` checks with a test the code states (`check`,
    its `validationCode`), unless its message states an invariant ("... please report a
    bug", "assumes x is checked first"): such a panic refuses what its caller passed."""
    site = context.site
    if (
        check is None
        or site.kind not in ("panic", "assert")
        or _INVARIANT_WORDS.search(site.message)
    ):
        return []
    converting = _conversion_call(site)
    if converting is not None and converting.group() in check:
        # `Mode::try_from(raw).unwrap_or_else(|_| panic!(..))`: the test is the conversion's
        # own, told once its `Err` is (`converted_inputs` says what it refuses)
        return []
    return inputs_read(site.facts.call, site.facts.conditions, site.facts.rebound)


def converted_inputs(context: SiteContext) -> list[str]:
    """The parameters a panic's or `expect`'s failed conversion converted (tauri's
    `permission.clone().try_into().unwrap_or_else(|_| panic!("invalid permission identifier
    '{permission}'"))`), unless its message states an invariant: a conversion fails on what
    it is given, and that came from the caller."""
    site = context.site
    call = _conversion_call(site)
    if call is None or _INVARIANT_WORDS.search(site.message):
        return []
    read = _VIEWS.sub("", (call.group("receiver") or call.group("argument")).strip())
    if not _PLACE.fullmatch(read.lstrip("&*").removeprefix("mut ").strip()):
        return []  # what a call made of it (`gctx.get_env(VAR)`, `bytes.len()`): not its value
    return inputs_read(site.facts.call, [Condition("closure", read, site.line)], site.facts.rebound)


def refused_conversion(context: SiteContext, check: str | None) -> str | None:
    """The failed conversion (`failed_conversion`) by which a panic refuses what its caller
    passed (`converted_inputs`), when no check it states does (`checked_inputs`): what the
    solutions, the example fix and the prevention tips then name."""
    if checked_inputs(context, check) or not converted_inputs(context):
        return None
    return failed_conversion(context.site)


# What views a value without making another (`permission.clone()`, `key.as_str()`), and a
# place: a variable or its field (`add_property.parallelism`).
_VIEWS = re.compile(
    r"(?:\s*\.\s*(?:clone|as_str|as_ref|as_deref|to_string|to_owned|into|borrow|as_bytes)\s*\(\s*\))+$"
)
_PLACE = re.compile(r"[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*")


# A call that converts (not a site in a conversion impl: `conversion`), and the value it
# converts: `permission.clone().try_into()`, `s.parse::<u32>()`, `Version::from_str(s)`,
# `Mode::try_from(raw)`.
_CONVERTING_CALL = re.compile(
    r"(?:(?P<receiver>.+?)\s*\.\s*(?:parse(?:\s*::\s*<[^()]*>)?|try_into)\s*\(\s*\)"
    r"|(?:[A-Za-z_]\w*\s*::\s*)+(?:from_str|try_from)\s*\((?P<argument>[^()]*(?:\([^()]*\)[^()]*)*)\))"
)


def failed_conversion(site: Site) -> str | None:
    """The conversion whose failure the site's panic or `expect` reports, as written
    (`permission.clone().try_into()` in `.unwrap_or_else(|_| panic!(..))`), or None: the
    failed call (the site's last condition) is one, and a conversion fails on what it is
    given, nothing else."""
    call = _conversion_call(site)
    return call.group() if call is not None else None


def _conversion_call(site: Site) -> re.Match[str] | None:
    """`failed_conversion`, with the value it converts (`receiver` or `argument`)."""
    if site.kind not in ("panic", "expect") or not site.facts.conditions:
        return None
    last = site.facts.conditions[-1]
    if last.kind != "closure":
        return None
    for outcome in (" was None/Err (", " was Err ("):
        value, found, _ = last.text.partition(outcome)
        call = _CONVERTING_CALL.fullmatch(value.strip()) if found else None
        if call is not None:
            return call
    return None


# Calls of the standard library that give an `Option`, whatever they are called on (`get`,
# `find`, `to_str`, `strip_prefix` are left out: some types' own return a `Result`), and the
# adapters that keep an `Option` one (`.map(..)`, `.cloned()`).
_OPTION_CALLS = (
    "ok|first|last|next|next_back|pop|pop_front|pop_back|parent|file_name|file_stem|"
    "extension|checked_add|checked_sub|checked_mul|checked_div|checked_rem|position|"
    "rposition|max|min|max_by_key|min_by_key|nth|peek"
)
_KEEPS_OPTION = "map|and_then|filter|cloned|copied|as_ref|as_deref|as_mut|flatten|or_else|or"
_OPTION_RECEIVER = re.compile(
    rf"\.\s*(?:{_OPTION_CALLS})\s*\([^()]*\)(?:\s*\.\s*(?:{_KEEPS_OPTION})\s*\((?:[^()]|\([^()]*\))*\))*\s*$"
)


def empty_option(receiver: str | None) -> bool:
    """Whether a `.context()`'s receiver is an `Option` by the standard call that makes it
    (`path.parent()`, `iter.next()`, `x.ok()`, then `.map(..)`...): when it was `None`, the
    error has no cause under it."""
    return bool(receiver) and _OPTION_RECEIVER.search(receiver or "") is not None


def inputs_read(
    call: str | None, conditions: Sequence[Condition], rebound: Sequence[str] = ()
) -> list[str]:
    """The fn's parameters the conditions read: what a caller controls. One the fn binds
    again first (`Facts.rebound`: neon's `let key = clean_utf8(..)`, reading 138) is said
    to be: the check reads what the fn made of it, not the value as passed."""
    params = call_parameters(call)
    if not params:
        return []
    texts = [STRING_LITERAL.sub('""', c.text) for c in conditions]
    # `p in text` first: a name not in a condition's text needs no pattern compiled for it
    used = [
        p
        for p in params
        if not is_handle(p) and any(p in t and _read_as_value(p).search(t) for t in texts)
    ]
    return [f"`{p}`" + (" (as the fn binds it again first)" if p in rebound else "") for p in used]


# a string literal as code writes it (its escapes kept): what a condition's names leave out
STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')


# What a parameter named so holds is a handle the code works through, not a value a caller
# chooses: "pass another `pool`" or "values the check accepts (`working_set`)" is no advice
# (lemmy's `pool`, nushell's `working_set`, sccache's `client`: readings 162, 170). Not
# `context` (a template engine's is the user's values) nor `state`, `db` or `handle`.
_HANDLE_PARTS = frozenset(
    ("pool", "conn", "connection", "ctx", "client", "txn", "transaction", "session",
     "runtime", "executor")
)  # fmt: skip
_HANDLE_NAMES = frozenset(("working_set", "engine_state", "gctx"))


def is_handle(parameter: str) -> bool:
    """Whether a parameter's name says it holds a handle (`pool`, `db_conn`, `ctx`,
    `working_set`), not a value its caller chose."""
    name = parameter.lower().lstrip("_")
    return name in _HANDLE_NAMES or name.rsplit("_", 1)[-1] in _HANDLE_PARTS


@functools.lru_cache(maxsize=1024)
def _read_as_value(name: str) -> re.Pattern[str]:
    """`name` read as a variable: not a field or method of something else (`dep.source_id()`
    reads no parameter `source_id`), nor a path segment, fn or macro called by that name."""
    return re.compile(rf"(?<![\w.])(?<!::){re.escape(name)}\b(?!\s*\(|!(?!=)|::)")


def example_fix(
    context: SiteContext,
    check: str | None,
    *,
    guard: bool = False,
    failure_class: str | None = None,
) -> str:
    """The statement that produces the error, and the check a caller can make first.

    No check for a panic (its fix is upstream), but one that refuses its fn's arguments,
    or for a `guard` (security or a limit: the negated chain would show the way around it).
    A panic the message classes as a configuration error is the reader's configuration's.
    """
    site = context.site
    language = language_of(site.file_path)
    snippet = site.facts.snippet
    body = [snippet] if snippet and language.parses_as_code(snippet) else []
    head = (
        f"// The error comes from this statement in {_plain(where(site))} ({site.file_path}):"
        if body
        else _nothing_to_show(site)
    )
    refused = bool(refused_inputs(context, check))
    # `env::var("X").expect(..)`: not set; `env::var("X").map(|v| v.parse().expect(..))`:
    # set to a value the code refuses
    environment = unset_note(
        environment_reads(site.facts.conditions), in_build_script(context)
    ) or value_note(site.facts.conditions)
    converted = refused_conversion(context, check)
    if (constant := compile_time_const(site)) is not None:
        body.append(
            f"// The compiler evaluates `const {constant}`: a build fails here, no run does."
        )
    elif context.error_type == "panic" and environment:
        body.append(environment)
    elif converted is not None:
        body.append(f"// It panics when `{converted}` fails: pass a value that converts.")
    elif context.error_type == "panic" and (argument := missing_argument(site)) is not None:
        body.append(
            "// A panic here means the program ran without the command-line argument "
            f"`{argument}` reads: pass it."
        )
    elif context.error_type == "panic" and (directory := missing_directory(site)) is not None:
        body.append(
            f"// A panic here means `{directory[0]}` found no directory: the environment the "
            "program runs in names none (`HOME` unset)."
            if directory[1] != "XDG_RUNTIME_DIR"
            else f"// A panic here means `{directory[0]}` found no directory: "
            "`XDG_RUNTIME_DIR` is unset."
        )
    elif context.error_type == "panic" and (asserted := assertion_macro(site)) is not None:
        body.append(
            f"// A panic here is the assertion `{asserted}!` makes where it is used: the value "
            "it was given did not hold."
        )
    elif context.error_type == "panic" and not refused and documented_panic(site) is not None:
        said = "say when (`# Panics`)" if panics_section(site) else "state the rule it checks"
        body.append(
            f"// A panic here is documented: the docs of {_plain(where(site))} {said}; "
            "check that before the call."
        )
    elif context.error_type == "panic" and clock_before_epoch(site):
        body.append("// A panic here means the system clock reads a time before 1970: set it.")
    elif context.error_type == "panic" and non_utf8_path(site) is not None:
        body.append("// A panic here means a path that is not UTF-8: use one that is.")
    elif context.error_type == "panic" and (gate := platform_stub(site)) is not None:
        body.append(
            f"// A panic here is all this code does where `#[cfg({gate})]` holds: build for "
            "a target where it does not."
        )
    elif context.error_type == "panic" and (program := started_program(site)) is not None:
        name = path_program(program)
        body.append(
            f"// A panic here means `{name}` could not be started: install it or put it on PATH."
            if name is not None
            else f"// A panic here means the program `{program}` names could not be started."
        )
    elif context.error_type == "panic" and (lock := poisoned_lock(site)) is not None:
        body.append(
            f"// A panic here follows an earlier panic of a thread that held `{lock}`'s "
            "lock: read that first one."
        )
    elif context.error_type == "panic" and (registering := registered_metric(site)):
        body.append(
            f"// A panic here means the registry refused this metric's definition "
            f"(`{registering}!`): a bug of the code's, to report."
        )
    elif context.error_type == "panic" and not refused and misuse_worded(site):
        body.append(
            "// A panic here means the calls broke the rule the message states: fix the code "
            "that makes them."
        )
    elif (
        context.error_type == "panic"
        and not refused
        and (failure_worded(site) or failed_fs_step(site) or failed_thread_step(site))
    ):
        body.append(
            "// It panics here when this step fails: fix what the step needs, or "
            "report it with its backtrace."
        )
    elif context.error_type == "panic" and (
        site.facts.unwrapped is not None or (not refused and fatal_failure(site) is not None)
    ):
        # `Err(e) => panic!("..: {e}")`: the step may be one no user feeds (tokio's self-pipe,
        # reading 129), so the error it prints decides, not "fix what the step needs"
        body.append(
            "// It panics here on the error it prints: read that error; unless your "
            "environment or input caused it, report it with its backtrace."
        )
    elif context.error_type == "panic" and not refused and failure_class == CONFIGURATION:
        body.append(
            "// A panic here comes from your configuration or manifest, as the message says: "
            "correct it there (if it is right, report this with its backtrace)."
        )
    elif context.error_type == "panic" and not refused and (waited := waited_out(site)):
        body.append(
            f"// It panics once `{waited}` has tried for the last time without what it waits "
            "for coming: find why that did not come."
        )
    elif context.error_type == "panic" and not refused and advice_in(site.message):
        # axum's `route_layer`: "Add the routes you want the layer to apply to first." is
        # the caller's to do, no bug to report (reading 108)
        body.append(
            "// A panic here: do what its message tells you; if that does not fit your "
            "case, report it with its backtrace."
        )
    elif context.error_type == "panic" and not refused:
        body.append("// A panic here is a bug, not bad input: report it with its backtrace.")
    elif check is not None and not guard:
        test = check_test(check)
        if caller_can_test(site, test, receiver=False) and not is_validator(site):
            # the check reads only the fn's arguments: a caller can make it before calling,
            # and answers the values it refuses itself (an `if` alone skipped the call in
            # silence: qdrant's `validate_integer_index_params`, reading 144)
            body += [
                f"// It {debug_only(site, 'panics') if refused else 'is reached only'} when this "
                "check fails; a "
                "caller can test it first:",
                f"if {as_caller(test, site)} {{",
                f"    {as_caller(written_call(site), site)}{';' if refused else '?;'}",
                "} else {",
                f"    // here {_plain(where(site))} would fail: handle this case (pass other "
                "values, or report it)",
                "}",
            ]
        elif "\n" not in test:
            body.append(f"// It is reached only when this does not hold: {test}")
    for candidate in ([head, *body], [head, *body[:1]]):
        text = "\n".join(candidate)
        if language.parses_as_code(text):
            return text
    return head


def _nothing_to_show(site: Site) -> str:
    """A comment that promises no statement when none can be shown (a comment always parses;
    names and the file path hold no newline)."""
    if site.kind in TEXT_KINDS:
        source = from_field(site)
        if source is not None:
            return (
                f"// `{text_owner(site)}` is declared in {site.file_path} with `#[from] {source}`: "
                f"each `?` on a call that fails with `{source}`, in a fn that returns this "
                "error type, builds it; the fix is where that call fails."
            )
        return (
            f"// `{text_owner(site)}` is declared in {site.file_path}; no statement here makes it: the "
            "code that builds and returns it decides when it occurs, and what that code checks "
            "says what to change (an input, a setting, or the code)."
        )
    return f"// The error comes from {_plain(where(site))} ({site.file_path}, line {site.line})."


# `Io(#[from] std::io::Error)`, `Input { #[from] source: FetchInputError }` right after the
# `#[error(..)]` a site is (its doc comments and other attributes between)
_FROM_FIELD = re.compile(
    r"\A(?:\s*(?:///[^\n]*|#\[[^\n]*\]))*\s*(?P<variant>\w+)\s*[({]\s*(?:#\[[^\]]*\]\s*)*"
    r"#\[from\]\s*(?:#\[[^\]]*\]\s*)*(?:\w+\s*:(?!:)\s*)?(?P<source>[^,(){}]+?)\s*[,)}]"
)


def from_field(site: Site) -> str | None:
    """The type an `#[error]` variant's `#[from]` field holds, as its declaration (in the
    site's window, after the attribute) writes it; None without one."""
    if site.kind != "error_attr" or not site.facts.variant:
        return None
    lines = site.window.split("\n")[site.line - site.window_start :]
    after = "\n".join(lines)[len(lines[0]) if lines else 0 :]
    found = _FROM_FIELD.match(after)
    if found is None or found["variant"] != site.facts.variant:
        return None
    return " ".join(found["source"].split())


def is_program_main(site: Site) -> bool:
    """Whether the site's fn is a program's `main`: a free fn of that name that no caller
    passes anything (crates.io's `#[tokio::main] async fn main()`, reading 139)."""
    facts = site.facts
    return facts.enclosing_fn == "main" and facts.enclosing_impl is None and facts.call is None


def reported_to(site: Site) -> str | None:
    """The method call a statement hands the error the site makes to (`Facts.reported_to`:
    `` `working_set.error(..)` ``), for a site that makes an error value; None otherwise."""
    return site.facts.reported_to if site.kind in _MADE_VALUE else None


_MADE_VALUE = frozenset(("constructor", "anyhow", "format_err", "eyre"))


def try_catch(context: SiteContext) -> str | None:
    """Handling at the caller, fitted to the error type; None for panics or short messages."""
    site = context.site
    if (
        context.error_type == "panic"
        or site.facts.spawned
        or site.facts.discarded
        or site.facts.parsed_by
    ):
        # a spawned task's error is its output, not the call's (`Facts.spawned`); one the fn
        # drops reaches no caller (`Facts.discarded`), nor one clap prints (`Facts.parsed_by`)
        return None
    if site.kind not in TEXT_KINDS and is_program_main(site):
        return None  # no code calls a program's `main`: the runtime prints what it returns
    returned = site.facts.return_type
    if (
        site.kind not in TEXT_KINDS
        and site.facts.enclosing_fn
        and (
            not returned
            or STREAM_OF.fullmatch(returned.strip())
            or not _FALLIBLE.search(returned)
            or _POLLED.match(returned.strip())
            # a tuple that holds the error beside the value (nushell's `lite_parse -> (LiteBlock,
            # Option<ParseError>)`, reading 182): no `Err` to match, no `?` to apply
            or returned.strip().startswith("(")
        )
    ):
        # a fn that returns nothing gives its callers no error to match: it handles it itself
        # (zellij's `open_file_floating` logs its `.with_context(..)` with `.non_fatal()`); a
        # stream's error is an item its reader gets, not the call's (`#[try_stream]`); a fn
        # that returns the error value itself (nushell's `impl From<ParseError> for
        # ShellError`, a helper `-> Box<dyn Error>`) has no `Err` to match
        return None
    language = language_of(site.file_path)
    # A type's text (`#[error]`, `Display`) is no call's: its site sits in no fn a caller
    # runs (a `Display` impl's is `fmt`, which prints the error, never returns it), so the
    # match is on whatever result carries the type.
    needle = message_needle(site)
    serde = serde_method(site)
    if serde is not None:
        # serde runs it as a format reads or writes the value: no code calls
        # `raw_binding_visitor.visit_map(map)` (alacritty's, reading 290: F); the error
        # comes out of the format's call, its text holding this message
        code = _text_catch(site, "result", needle, anyhow=False)
        if code is None:
            return None
        # (where a program reads each value apart and handles its error, that is where it
        # goes: alacritty's `deserialize_bindings` logs a binding's and skips it, reading 324)
        return (
            f"// serde calls `{serde}` as a format reads or writes the value: where the program "
            "reads it with a format's call (`serde_json::from_str`, `toml::from_str`, ..), the "
            "error comes back from that call; code that reads each value apart may handle it "
            "there instead.\n" + code
        )
    subject = "result" if site.kind in TEXT_KINDS else written_call(site) or "result"
    if site.kind in TEXT_KINDS and site.facts.enclosing_type:
        # the variant when the text is one variant's; a `Display` that matches a field
        # (`match self.kind`) writes several texts for one type: its text tells them apart
        owner = text_owner(site)
        typed = site.facts.variant is not None or site.kind == "error_attr"
        if typed or len(needle) < MIN_NEEDLE:
            code = _catch(subject, f"Err({owner} {{ .. }})", f"handle {_quoted(site.message)}")
            return code if language.parses_as_code(code) else None
    return _text_catch(site, subject, needle, anyhow=_is_anyhow(context))


# `Poll<io::Result<usize>>` of `poll_read`: an executor polls it, and its error is in
# `Poll::Ready(Err(e))`, no `Err(e)` a caller's `match` has (neon's, reading 141)
_POLLED = re.compile(r"(?:(?:std::)?task::)?Poll\s*<")
# A return type that can carry a failure to the caller: a `Result` (or an alias of one), an
# `Option`, a future or a stream of them, a `Poll`
_FALLIBLE = re.compile(r"Result|Option|Future|Stream|Poll|Try")


def held_catch(site: Site) -> str | None:
    """The handling of an error type's text that callers hold in an `anyhow::Error`
    (`Reach.held_in`): the type found by anyhow's own `downcast_ref`, its variant matched
    (`matches!(e.downcast_ref::<E>(), Some(E::V { .. }))`); by its text where the site
    names no type, None when that text has too short a literal part to tell it by. A text
    is no one error's: rustup's `ComponentMissingFile` and `ComponentMissingDir` print the
    same words, and `contains("could not read")` also caught `ReadingFile` (reading 312's
    recheck). Not each cause of `e.chain()`: an error attached as context
    (`.with_context(|| E::V { .. })`, rustup's `ReadingDirectory`) is a `ContextError` there,
    which downcasts to no `E`; anyhow's `downcast_ref` finds it as a context or as the error
    under any number of contexts (read and run against anyhow 1.0.104, reading 312's second
    recheck)."""
    owner = site.facts.enclosing_type
    if owner and site.kind in TEXT_KINDS:
        if site.facts.variant:
            test = f"matches!(e.downcast_ref::<{owner}>(), Some({text_owner(site)} {{ .. }}))"
        else:
            test = f"e.is::<{owner}>()"
        code = _catch("result", f"Err(e) if {test}", f"handle {_quoted(site.message)}")
        if language_of(site.file_path).parses_as_code(code):
            return code
    return _text_catch(site, "result", message_needle(site), anyhow=True)


def either_catch(pattern: str | None, site: Site) -> str | None:
    """The handling of a variant some of whose builders return it in an `anyhow::Result` and
    the others as the enum itself (`Reach.held_in` `ANYHOW_OR_ITSELF`): anyhow's form
    (`held_catch`), with a last line that says where the enum's own pattern (`Err(E::V {
    .. })`, `pattern`) is the one that compiles instead. Either alone type-checks at only
    some callers (surrealdb's `Error::Http`: `Err(Error::Http { .. })` on an
    `anyhow::Result`, reading 313). Last, so that a first line still says who can name the
    type (`catch_for_the_namers`, which leaves a pattern that starts with a comment as it
    is: its recheck). None when anyhow's form has none."""
    held = held_catch(site)
    arm = _VARIANT_ARM.search(pattern or "")
    if held is None or arm is None:
        return held
    return (
        f"{held}\n// Where a fn returns `{site.facts.enclosing_type}` itself (not in an "
        f"anyhow::Result), match `Err({arm[2]})` instead."
    )


def text_catch(site: Site) -> str | None:
    """The handling of an error type's text that callers get back as another type
    (`Reach.held_in` `CONVERTED`: a `Box<dyn Error>`, an alias the index cannot name): by its
    text, which that type's `Display` prints; None when the text has too short a literal
    part to tell it by."""
    return _text_catch(site, "result", message_needle(site), anyhow=False)


def boxed_catch(pattern: str | None, site: Site) -> str | None:
    """A variant's handling (`Err(E::V { .. }) =>`) for callers that hold the enum boxed
    (`Reach.held_in` `Box<E>`): `Err(e) if matches!(*e, E::V { .. }) =>`; None when the
    pattern has no such arm or the result does not parse."""
    if pattern is None:
        return None
    code = _VARIANT_ARM.sub(r"\1Err(e) if matches!(*e, \2) =>", pattern, count=1)
    if code == pattern or not language_of(site.file_path).parses_as_code(code):
        return None
    return code


def wrapped_catch(pattern: str | None, site: Site, accessor: str | None) -> str | None:
    """A variant's handling (`Err(E::V { .. }) =>`) for callers that get the enum inside
    another type (`Reach.held_in`, nextest's `ConfigParseError`): through the method that
    returns the enum (`Reach.held_by`), `Err(e) if matches!(e.kind(), E::V { .. }) =>`, or
    in the variant that holds it, `Err(W::Kind(E::V { .. })) =>`; None when that type has
    neither (the bare variant's pattern does not type-check) or the result does
    not parse. A pattern with no variant's arm is kept: a match on the text (meilisearch's
    `Display for Error` writes its `ErrorKind`'s text itself)."""
    if pattern is None or not _VARIANT_ARM.search(pattern):
        return pattern
    if accessor is None:
        return None
    if accessor.endswith("()"):
        arm = rf"\1Err(e) if matches!(e.{accessor}, \2) =>"
    else:  # the wrapper's variant that holds the enum: `Err(ShellError::Job(JobError::X { .. }))`
        arm = rf"\1Err({accessor}(\2)) =>"
    code = _VARIANT_ARM.sub(arm, pattern, count=1)
    return code if language_of(site.file_path).parses_as_code(code) else None


_VARIANT_ARM = re.compile(r"^(\s*)Err\(([A-Z]\w*(?:::\w+)+.*)\) =>", re.M)


# serde's traits, whose methods serde's formats call: `Deserialize<'de> for X`,
# `de::Visitor<'de> for XVisitor`, `Serialize for X`, a seed
_SERDE_TRAIT = re.compile(
    r"^(?:serde::)?(?:de::|ser::)?(?:Deserialize|DeserializeSeed|Visitor|Serialize)\b"
)


def serde_method(site: Site) -> str | None:
    """The method the site sits in when it is one of a serde trait's impl (`visit_map` of
    `impl<'de> Visitor<'de> for RawBindingVisitor`), which serde's formats call; None
    otherwise."""
    impl = site.facts.enclosing_impl or ""
    trait, found, _ = impl.partition(" for ")
    if not found or not site.facts.enclosing_fn:
        return None
    trait = re.sub(r"^impl\s*(?:<[^>]*>\s*)?", "", trait.strip())
    return site.facts.enclosing_fn if _SERDE_TRAIT.match(trait) else None


def message_needle(site: Site) -> str:
    """The longest literal part of the message: what a handler tells this error by."""
    segments = language_of(site.file_path).literal_segments(site.message, site.is_format)
    return max((s.strip() for s in segments), key=len, default="")


def _text_catch(site: Site, subject: str, needle: str, *, anyhow: bool) -> str | None:
    """`match subject` with an arm for an error whose text holds `needle`; None when the
    needle is too short to tell one error by."""
    if len(needle) < MIN_NEEDLE:
        return None
    escaped = needle.replace("\\", "\\\\").replace('"', '\\"')
    literal = '"' + escaped.replace("\n", "\\n").replace("\t", "\\t") + '"'
    if anyhow:
        # anyhow prints the outermost context: the message may be any link of the chain.
        test = f"e.chain().any(|cause| cause.to_string().contains({literal}))"
    else:
        test = f"e.to_string().contains({literal})"
    code = _catch(subject, f"Err(e) if {test}", "handle this case")
    return code if language_of(site.file_path).parses_as_code(code) else None


def _catch(subject: str, arm: str, comment: str) -> str:
    """`match subject { <arm> => { // comment }, other => { other?; } }`."""
    return "\n".join([
        f"match {subject} {{",
        f"    {arm} => {{",
        f"        // {comment}",
        "    }",
        "    other => {",
        "        other?;",
        "    }",
        "}",
    ])  # fmt: skip


def _is_anyhow(context: SiteContext) -> bool:
    klass = context.error_class or ""
    return klass in _ANYHOW_CLASSES or (
        not klass
        and not context.own_macro
        and context.site.kind in ("bail", "anyhow", "ensure", "format_err", "context")
    )


# a fn whose name says it is a check (`validate_..`, `check`, `ensure_not_set`, `verify_..`)
_VALIDATOR_NAME = re.compile(r"(?:validate|check|verify|ensure|assert|require)(?:_|\Z)")


def is_validator(site: Site) -> bool:
    """Whether the site's fn is named as a check: it exists to refuse what its test does not
    accept, so a caller's `if` on the same test before calling it skips the check (neon's
    `check_permission`, qdrant's `validate_integer_index_params`: reading 144)."""
    name = site.facts.enclosing_fn
    return name is not None and _VALIDATOR_NAME.match(name) is not None


# a message that states what must hold (greptimedb's "retry loop should always return" after
# a loop whose last try returns its error): no wait that ran out, whatever loop is above it
_ASSERTED = re.compile(r"(?i)\b(?:should|always|never|unreachable|impossible|must not)\b")


def waited_out(site: Site) -> str | None:
    """The polling loop past which the site gives up waiting (`Facts.waited`: tikv's
    `must_peer_state`), unless its message states what must hold; None otherwise."""
    waited = site.facts.waited
    return waited if waited and not _ASSERTED.search(site.message) else None


def debug_assertion(site: Site) -> bool:
    """A `debug_assert!` (`_eq`, `_ne`): it checks only where debug assertions are on."""
    return site.kind == "assert" and (site.macro or "").startswith("debug_assert")


def debug_only(site: Site, panics: str) -> str:
    """`panics` said of a `debug_assert!`: only where debug assertions are on (qdrant's
    `debug_assert!(false, ..)` read "panics otherwise" of a release build that goes on,
    reading 240)."""
    if debug_assertion(site):
        return f"{panics} (where debug assertions are on; a release build goes on)"
    return panics


def written_call(site: Site) -> str:
    """The call of the site's fn as a caller writes it (`Facts.call`), in an `unsafe` block
    for an `unsafe fn` (`unsafe { score_4bit(a, b) }`); "" when none is known."""
    call = site.facts.call or ""
    if not call or not site.facts.unsafe_fn:
        return call
    if call.endswith(".await"):
        return f"unsafe {{ {call.removesuffix('.await')} }}.await"
    return f"unsafe {{ {call} }}"


def caller_can_test(site: Site, test: str, *, receiver: bool) -> bool:
    """Whether `test` reads only what a caller of the site's fn passes: its arguments (and,
    with `receiver`, `self`), no value the fn computes itself (`scheduled_error`)."""
    if not site.facts.call:
        return False
    if receiver and "self" in _names(test) and mutates_self_before(site):
        return False
    names = _names(test) - ({"self"} if receiver else set())
    return names <= _passed(site)


def mutates_self_before(site: Site) -> bool:
    """Whether the site's fn may change `self` before the site: it takes `&mut self` or
    `mut self` and, between its start (in the window) and the site, calls a method of
    `self` or assigns a field of it. A caller's test of `self` then says nothing of the
    check (atuin's `ExprParser::parse`: `self.parse_or()?` moves `self.pos` on before `self.pos
    < self.input.len()` is tested; "before calling it, make sure `!(parser.pos < ..)`" held
    only for an empty input, reading 324)."""
    name = site.facts.enclosing_fn
    lines = site.window.split("\n")
    at = site.line - site.window_start
    if not name or not 0 <= at < len(lines):
        return False
    opens = re.compile(rf"\bfn\s+{re.escape(name)}\b")
    start = next((i for i in range(at, -1, -1) if opens.search(lines[i])), None)
    if start is None:
        return False  # the fn starts above the window: not known
    signature = " ".join(lines[start : start + 4]).split("{", 1)[0]
    if not _MUT_SELF.search(signature):
        return False
    # the fn's own statements before the one that holds the site, at its body's first
    # indentation: run before it on every way there (not another arm's, another branch's)
    brace = next((i for i in range(start, at) if "{" in lines[i]), None)
    body = [i for i in range(brace + 1, at + 1) if lines[i].strip()] if brace is not None else []
    if not body:
        return False
    depth = _indent(lines[body[0]])
    own = [i for i in body if _indent(lines[i]) == depth]
    holder = max((i for i in own if not lines[i].lstrip().startswith("}")), default=at)
    return any(_SELF_CHANGED.search(lines[i]) for i in own if i < holder)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


_MUT_SELF = re.compile(r"\bmut\s+self\b")
# a field of `self` assigned (`self.pos += n`, `*self = ..`), or a method of it called that
# may change it (`self.parse_or()`; not a getter's or a check's name: `self.is_enabled()`,
# `self.validate_trace_args()`)
_SELF_CHANGED = re.compile(
    r"\bself\.\w+(?:\.\w+)*\s*(?:[-+*/%|&^]|<<|>>)?=(?!=)|\*self\s*=(?!=)"
    r"|\bself\.(?!(?:is|has|as|to|get|len|contains|iter|clone|validate|check)(?:_|\b))\w+\s*\("
)


def _passed(site: Site) -> set[str]:
    """The names of the arguments a caller passes the site's fn, those the fn binds again
    before the site left out (`Facts.rebound`: neon's `let key = clean_utf8(..)` makes the
    check read a path, not the `&str` passed, reading 138)."""
    call = site.facts.call or ""
    return _names(call.partition("(")[2]) - set(site.facts.rebound)


def caller_check(site: Site, check: str | None) -> str | None:
    """`check` as the record's `validationCode`: only when its test reads what a caller of
    the site's fn holds (its arguments, `self`) besides fns it calls, consts and paths; None
    when it reads a value the fn computes itself. mdBook's `let ok = found;`, gitui's
    `let ok = hunk_index.is_some();`, starship's `rc.is_ok()` on the failing call's own
    result: no caller can evaluate those (readings 113-115). The prose still says when the
    code goes on (`check` itself)."""
    if check is None or not site.facts.call:
        return None
    test = check_test(check)
    if "self" in _names(test) and mutates_self_before(site):
        return None
    held = _passed(site) | {"self"}
    # an element of what the caller passes, checked per element (`for item in items`)
    held |= {m[1] for m in _FOR_EACH.finditer(site.window) if m[2] in held}
    bound = {name for pattern in _matches_patterns(test) for name in _names(pattern)}
    names = _names(test) - set(_CALLED_NAME.findall(test)) - bound
    return as_caller(check, site) if names <= held else None


def as_caller(code: str, site: Site) -> str:
    """Code of the site's fn's own (`self.0.is_empty()`, `Self::Paths(_)`) as its caller
    writes it: `self` the value it calls the fn on (the receiver `Facts.call` names:
    `alpn.emit(encoder)` -> `alpn`), `Self` the impl's type. hickory's `let ok =
    !self.0.is_empty();` for `Alpn::emit` was the callee's view (reading 133)."""
    impl = impl_type(site.facts.enclosing_impl or "")
    if not impl or not _SELF.search(code):
        return code
    called = _RECEIVER_CALL.match(site.facts.call or "")
    receiver = called[1] if called is not None else value_name(impl)
    code = _SELF_TYPE.sub(f"{impl}::", code)
    return _SELF_VALUE.sub(receiver, code)


_SELF = re.compile(r"\b[Ss]elf\b")
_SELF_VALUE = re.compile(r"(?<![\w:])self\b(?!::)")
_SELF_TYPE = re.compile(r"(?<![\w:])Self::")
_RECEIVER_CALL = re.compile(r"([a-z_]\w*)\.\w+\(")


# a root name called as a fn (`is_valid(x)`): a fn the caller can call too, no local value
_CALLED_NAME = re.compile(r"(?<![.\w:'\"])([a-z_]\w*)(?=\s*\()")
_FOR_EACH = re.compile(r"\bfor\s+([a-z_]\w*)\s+in\s+&?(?:mut\s+)?(?:self\.)?([a-z_]\w*)")


def _matches_patterns(test: str) -> list[str]:
    """The pattern (and guard) of each `matches!(v, Some(n) if n > 200)` in `test`: the names
    it binds are no values read."""
    patterns = []
    for found in re.finditer(r"\bmatches!\(", test):
        depth, comma = 0, None
        for at in range(found.end(), len(test)):
            char = test[at]
            if char in "([{":
                depth += 1
            elif char in ")]}":
                if depth == 0:
                    if comma is not None:
                        patterns.append(test[comma + 1 : at])
                    break
                depth -= 1
            elif char == "," and depth == 0 and comma is None:
                comma = at
    return patterns


def _names(code: str) -> set[str]:
    """The root names an expression reads (`a.b(c)` -> a, c), not fields, methods or macros."""
    return set(_ROOT_NAME.findall(code)) - {"true", "false", "matches", "mut"}


def _quoted(message: str) -> str:
    flat = " ".join(message.split()).replace("*/", "* /")
    return f'"{flat[:80]}"'


def _plain(text: str) -> str:
    return text.replace("`", "")
