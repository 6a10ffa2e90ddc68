"""The failure-class taxonomy (`backgroundTag`, SPEC 4) and its offline keyword classifier.

The classes live in `pipeline/data/taxonomy.toml`, in priority order. `classify`
is deterministic and explainable (`classify_explained` says why):

1. `unreachable!` is always `internal-invariant`; `todo!`/`unimplemented!` are
   always `not-implemented`: the macro states the class, whatever the message says.
2. Inputs that exclude each other ("cannot specify both", "mutually exclusive") or one
   that "must be specified" are a `configuration-error` when the prose names settings,
   else an `invalid-argument`.
3. Otherwise each class scores the keywords found in the message (placeholders
   removed) and in `names` (error code, variant, constructor): a keyword of n
   words scores n. The highest score wins; a tie goes to the class written first.
   A message that says a step failed ("failed to check table exists") keeps the
   class only when the step's verb, the failure's own words ("failed to find") or
   a cause after the step (", timeout {:?}") chose it, else it is `operation-failed`:
   the step's object is what it was about, not how it failed.
4. With no keyword: a failed call of the file system's as the innermost condition
   (`File::create(p) failed`) is an `io-error` (also for a failed step); then a
   constraint the message states on a value ("must be one of", "must be between",
   "must be of type") chooses (`taxonomy_rules.CONSTRAINTS`).
5. With no hit there: a panicking site (`panic`, `assert`, `expect`) is
   `internal-invariant`; any other site is scored on its path `conditions`, whose
   words count only in a predicate's name (`self.state.is_paused()` reads as "is
   paused"; `config.editor` says nothing) or as a class's `condition_keywords`
   (`self.status`), and with no hit there either it is `operation-failed`.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Literal

from pipeline.analyze.environment import failed_read, value_read
from pipeline.analyze.taxonomy_rules import (
    CONFLICT,
    CONSTRAINTS,
    CONTEXT_VERBS,
    MISSING_INPUT,
    PANIC_PHRASES,
    PHRASES,
    UNKNOWN_VALUE,
    first_match,
    without_code,
)
from pipeline.languages import language_of

INVALID_STATE = "invalid-state-transition"
INTERNAL_INVARIANT = "internal-invariant"
CONFIGURATION = "configuration-error"
INVALID_ARGUMENT = "invalid-argument"
IO_ERROR = "io-error"
NOT_IMPLEMENTED = "not-implemented"
FALLBACK = "operation-failed"
RESOURCE_EXHAUSTED = "resource-exhausted"
PARSE_ERROR = "parse-error"
NOT_FOUND = "not-found"
OUT_OF_RANGE = "out-of-range"
_REQUIRED = (INVALID_STATE, INTERNAL_INVARIANT, INVALID_ARGUMENT, NOT_IMPLEMENTED, FALLBACK)

_KIND_CLASSES = {
    "unreachable": INTERNAL_INVARIANT,
    "todo": NOT_IMPLEMENTED,
    "unimplemented": NOT_IMPLEMENTED,
}
_PANICKING_KINDS = frozenset({"panic", "assert", "expect"})

_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_KEYWORD = re.compile(r"^[a-z0-9]+( [a-z0-9]+)*\*?$")


@dataclass(frozen=True, slots=True)
class FailureClass:
    """One cross-repository class of failure, as a reader meets it on a record's page."""

    slug: str
    title: str
    description: str
    keywords: tuple[str, ...]
    # Keywords that name what the message is about, not how it failed ("version", "path",
    # "column"): they add to a class's score, but a class no other keyword hits is not chosen.
    topics: frozenset[str] = frozenset()
    # Keywords read in the conditions alone: `self.status` in a check is the state it
    # keeps; "status" in a message is mostly an HTTP or exit status, which says nothing.
    condition_keywords: tuple[str, ...] = ()
    # The tip every record of the class ends its `preventionTips` with (true of any member);
    # a taxonomy without one: the description's first sentence.
    prevention: str = ""
    # Keywords that count only beside a topic ("incompatible": a version's where the message
    # names one, else two inputs that conflict).
    with_topic: frozenset[str] = frozenset()

    @property
    def condition_class(self) -> FailureClass:
        """This class as it scores the whole text of conditions: its condition keywords
        alone (`classify_explained` reads the other keywords in predicates' names only)."""
        return replace(self, keywords=self.condition_keywords, topics=frozenset())


@dataclass(frozen=True, slots=True)
class Classification:
    """A class and why: the words that matched its keywords, and where they were found."""

    slug: str
    source: Literal[
        "kind", "panic", "phrase", "context", "message", "name", "step", "conditions", "call",
        "environment", "fallback", "bound",
    ]  # fmt: skip
    hits: tuple[str, ...] = ()

    @property
    def guessed(self) -> bool:
        """Whether single keywords of the message or the conditions chose the class: what
        the words are about more than how it failed ("not ready" of a transport that failed,
        "exceeded maximum" of a setting's range check, readings 106-108). Not the macro, a
        phrase, a context's verb, the error's own name, a failed call or the environment."""
        return (
            self.source in ("message", "conditions")
            and self.slug != FALLBACK
            and not any(" " in hit for hit in self.hits)  # "timed out", "already exists"
        )

    def reason(self) -> str:
        """One line saying why the site got its class."""
        if self.source == "kind":
            return f"the macro itself marks {self.slug}"
        if self.source == "panic":
            return f"a panic whose message names no misuse or limit: {self.slug}"
        if self.source in ("phrase", "context"):
            what = "the message says" if self.source == "phrase" else "the context's verb"
            return f"{self.slug}: {what} {', '.join(repr(h) for h in self.hits)}"
        if self.source == "name":
            quoted = ", ".join(repr(hit) for hit in self.hits)
            return f"{self.slug}: keywords in the error's name: {quoted}"
        if self.source == "call":
            return f"{self.slug}: a call of the operating system's failed: {self.hits[0]}"
        if self.source == "environment":
            return f"{self.slug}: a panic on the environment variable {self.hits[0]}"
        if self.source == "bound":
            return f"{self.slug}: a number checked against a bound the code holds: {self.hits[0]}"
        if self.source == "fallback":
            return f"no keyword of any class matched; {self.slug} by default"
        if self.source == "step":
            aside = ", ".join(repr(hit) for hit in self.hits)
            return f"a step that failed, its object's words ({aside}) set aside: {self.slug}"
        where = "the message" if self.source == "message" else "the conditions"
        quoted = ", ".join(repr(hit) for hit in self.hits)
        return f"{self.slug}: keywords in {where}: {quoted}"


@functools.cache
def load_taxonomy() -> dict[str, FailureClass]:
    """The failure classes by slug, in priority order, read once from package data."""
    text = resources.files("pipeline").joinpath("data/taxonomy.toml").read_text("utf-8")
    return parse_taxonomy(text)


def parse_taxonomy(text: str) -> dict[str, FailureClass]:
    """Parse and validate a taxonomy TOML document; ValueError names the first problem."""
    tables = tomllib.loads(text).get("class")
    if not isinstance(tables, list) or not tables:
        raise ValueError("taxonomy: expected one or more [[class]] tables")
    classes: dict[str, FailureClass] = {}
    for table in tables:
        failure_class = _failure_class(table)
        if failure_class.slug in classes:
            raise ValueError(f"taxonomy: duplicate slug {failure_class.slug!r}")
        classes[failure_class.slug] = failure_class
    missing = [slug for slug in _REQUIRED if slug not in classes]
    if missing:
        raise ValueError(f"taxonomy: the classifier needs the classes {missing}")
    return classes


def _failure_class(table: object) -> FailureClass:
    if not isinstance(table, dict):
        raise ValueError("taxonomy: a [[class]] entry is not a table")
    slug, title, description = (table.get(key) for key in ("slug", "title", "description"))
    keywords = table.get("keywords", [])
    if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
        raise ValueError(f"taxonomy: slug {slug!r} is not lowercase-words-with-dashes")
    if not isinstance(title, str) or not title.strip():
        raise ValueError(f"taxonomy: class {slug!r} has no title")
    if not isinstance(description, str) or not description.strip():
        raise ValueError(f"taxonomy: class {slug!r} has no description")
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise ValueError(f"taxonomy: class {slug!r}: keywords must be a list of strings")
    condition_keywords = table.get("condition_keywords", [])
    if not isinstance(condition_keywords, list) or not all(
        isinstance(k, str) for k in condition_keywords
    ):
        raise ValueError(f"taxonomy: class {slug!r}: condition_keywords must be strings")
    normalised = [_keyword(slug, keyword) for keyword in keywords]
    in_conditions = [_keyword(slug, keyword) for keyword in condition_keywords]
    topics = table.get("topics", [])
    if not isinstance(topics, list) or not all(t in keywords for t in topics):
        raise ValueError(f"taxonomy: class {slug!r}: topics must be some of its keywords")
    with_topic = table.get("with_topic", [])
    if not isinstance(with_topic, list) or not all(t in keywords for t in with_topic):
        raise ValueError(f"taxonomy: class {slug!r}: with_topic must be some of its keywords")
    prevention = table.get("prevention", "")
    if not isinstance(prevention, str):
        raise ValueError(f"taxonomy: class {slug!r}: prevention must be a string")
    return FailureClass(
        slug,
        title.strip(),
        " ".join(description.split()),
        tuple(normalised),
        frozenset(_words(t, keep_star=True) for t in topics),
        tuple(in_conditions),
        " ".join(prevention.split()),
        frozenset(_words(t, keep_star=True) for t in with_topic),
    )


def _keyword(slug: str, keyword: str) -> str:
    words = _words(keyword, keep_star=True)
    if keyword != keyword.lower() or not _KEYWORD.fullmatch(words):
        raise ValueError(f"taxonomy: class {slug!r}: bad keyword {keyword!r}")
    return words


# A name ending in an acronym, one word whatever its case: "OpenGL" is no "open" (alacritty's
# "OpenGL error requesting .." had been an I/O error), "PostgreSQL", "MySQL", "MongoDB".
_ACRONYM_NAME = re.compile(r"\b[A-Z][a-z]+[A-Z]{2,}s?\b")


def _words(text: str, *, keep_star: bool = False) -> str:
    """Lowercase words separated by single spaces; punctuation and `_` split words."""
    text = _ACRONYM_NAME.sub(lambda m: m.group().lower(), text)
    # camelCase and PascalCase split too, so `InvalidParameterValue` reads as words.
    text = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", text).lower()
    keep = r"a-z0-9*" if keep_star else r"a-z0-9"
    return re.sub(rf"[^{keep}]+", " ", text).strip()


@functools.cache
def _prefix_matcher(keyword: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z0-9]){re.escape(keyword[:-1])}[a-z0-9]*")


def _find(keyword: str, padded: str) -> str | None:
    """The words matching `keyword` in `padded` (normalised words, space-padded), or None."""
    if keyword.endswith("*"):
        match = _prefix_matcher(keyword).search(padded)
        return match.group() if match else None
    # Both sides are single-space-separated words, so this is a whole-word phrase match.
    return keyword if f" {keyword} " in padded else None


@functools.cache
def _any_keyword(keywords: tuple[str, ...]) -> re.Pattern[str]:
    """One search that tells whether any of a class's keywords occurs (most classes: none)."""
    parts = [
        re.escape(k[:-1]) + "[a-z0-9]*" if k.endswith("*") else re.escape(k) + "(?![a-z0-9])"
        for k in keywords
    ]
    return re.compile(rf"(?<![a-z0-9])(?:{'|'.join(parts) or '(?!)'})")


def _best(texts: Iterable[str], classes: Iterable[FailureClass]) -> Classification | None:
    """The highest-scoring class over the texts (earliest on a tie), or None without hits."""
    padded = f" {' | '.join(texts)} "
    best: tuple[int, FailureClass, tuple[str, ...]] | None = None
    for failure_class in classes:
        if not _any_keyword(failure_class.keywords).search(padded):
            continue
        found = (_find(keyword, padded) for keyword in failure_class.keywords)
        hits = tuple(hit for hit in found if hit is not None)
        if failure_class.with_topic and not any(_topic(h, failure_class.topics) for h in hits):
            hits = tuple(hit for hit in hits if hit not in failure_class.with_topic)
        if all(_topic(hit, failure_class.topics) for hit in hits):
            continue  # what the message is about, not how it failed
        score = sum(len(hit.split()) for hit in hits)
        if score and (best is None or score > best[0]):
            best = (score, failure_class, hits)
    if best is None:
        return None
    return Classification(best[1].slug, "message", best[2])


# A predicate's name in a condition: `is_paused`, `isPaused`, `has_expired`.
_PREDICATE = re.compile(r"\b(?:is|has)(?:_[a-z0-9_]+|[A-Z]\w*)")

# A context that opens with what the code was doing ("serializing effective config",
# "querying LFC state"): the step that failed, as "failed to .." says it (neon's read
# Configuration error by "config" and Invalid state transition by "state", reading 210).
# Not a word that only ends so: "missing ..", "pending ..", "string ..".
_DOING = re.compile(
    r"^\W*(?!(?:missing|pending|string|nothing|something|anything|everything|during|warning|"
    r"incoming|outgoing|existing|remaining|matching|corresponding|following|preceding)\b)"
    r"([a-z]+ing)\b",
    re.IGNORECASE,
)
# A message that opens by saying a step failed (a placeholder or punctuation before it).
_FAILED_STEP = re.compile(r"^\W*(?:could not|couldn't|failed to|unable to)\s+(\w+)", re.IGNORECASE)
_FAILURE_OPENERS = ("could not ", "couldn t ", "failed to ", "unable to ", "cannot ", "can not ")


def _names_failure(found: Classification, verb: str) -> bool:
    """Whether a keyword that chose the class says how the step failed: the failure's own
    words ("failed to find") or the step's verb ("failed to open ..": opening failed); or
    the step is a check, whose failure is what it checked (`_CHECKING_VERBS`)."""
    verb = verb.lower()
    if verb in _CHECKING_VERBS:  # "failed to verify the checksum": the check found the fault
        return True
    return any(hit.startswith(_FAILURE_OPENERS) or hit.split()[0] == verb for hit in found.hits)


# Steps whose failure is the finding of what they check: "failed to verify the checksum of
# `{}`" (cargo) says the checksum did not match, not that verifying could not be done. Not
# `check`: "Failed to check iceberg table exists" is a step that failed.
_CHECKING_VERBS = frozenset(("verify", "validate"))


# Where a failed step's message goes on to say why it failed: "..: notifier dropped",
# "..due to cancellation", "..because ..", "..., timeout {:?}".
_CAUSE = re.compile(r":|,\s|\bdue to\b|\bbecause\b", re.IGNORECASE)


def _in_cause(found: Classification, text: str) -> bool:
    """Whether a keyword that chose the class is in what a failed step's message (`text`:
    from the step's verb on) says of why it failed, after the step itself."""
    at = _CAUSE.search(text)
    if at is None:
        return False
    cause = f" {_words(without_code(text[at.end() :]))} "
    return any(_find(hit, cause) is not None for hit in found.hits)


def _phrased(found: Classification) -> bool:
    """Whether a keyword of more than one word chose the class ("already exists", not
    "invalid" and "expected": single words are as often about something else)."""
    return any(" " in hit for hit in found.hits)


def _topic(hit: str, topics: frozenset[str]) -> bool:
    """Whether a matched word is one of a class's topics (`convert*` matches `converting`)."""
    return hit in topics or any(t.endswith("*") and hit.startswith(t[:-1]) for t in topics)


# A later sentence that says what the program does about the failure, not what failed:
# bat's "IO circle detected. The input from stdin is also an output. Aborting to prevent
# infinite loop." read "Cancelled or shut down" by "aborting" (reading 300)
_REACTION = re.compile(
    r"(?<=[.!])\s+(?:aborting|exiting|giving up|stopping|bailing out)\b[^.!]*[.!]?",
    re.IGNORECASE,
)


def without_reaction(message: str) -> str:
    """The message without a later sentence that only says the program stops (`_REACTION`)."""
    return _REACTION.sub("", message) if "." in message or "!" in message else message


def first_paragraph(message: str) -> str:
    """The message up to its first blank line: what failed. What follows is its hints ("Note:
    You can search for literal substrings with '--fixed-strings' .. option", "If you want
    your pattern to match the full file path, use: .."): fd's read "Configuration error" by
    the word "option" and "Resource exhausted" by "full" there (reading 117)."""
    head, blank, _ = message.partition("\n\n")
    return head if blank else message


# classes of an input the code refused, and of what a run met (no input of the reader's)
_INPUT_REFUSED = frozenset(("invalid-argument", "parse-error"))
_RUNTIME = frozenset(
    ("resource-exhausted", "timeout", "connection-failure", "io-error", "concurrency-conflict")
)


def classify_explained(
    message: str,
    kind: str,
    conditions: Sequence[str] = (),
    names: Sequence[str] = (),
    *,
    path: str = "",
) -> Classification:
    """Classify a site's message into a failure class, saying why (see the module doc)."""
    message = without_reaction(first_paragraph(message))
    # A catch-all constructor names no class (`io::Error::other(..)` carries an error of no
    # OS call: starship's "can't convert to str", qdrant's "download cancelled")
    names = [name for name in names if not name.endswith("::other")]
    if kind in _KIND_CLASSES:
        return Classification(_KIND_CLASSES[kind], "kind")
    literal_text = " ".join(language_of(path).literal_segments(message))
    if kind in _PANICKING_KINDS:
        # A panic on a variable the environment lacks (`env::var("X").expect(..)`) is the
        # environment's: configuration, not a broken invariant.
        # So is one on the variable's value, in the closure that gets it
        # (`env::var("X").map_or(8, |v| v.parse().expect(..))`: a value that does not parse).
        unset = next(
            (name for c in conditions if (name := failed_read(c) or value_read(c)) is not None),
            None,
        )
        if unset is not None:
            return Classification(CONFIGURATION, "environment", (unset,))
        # A panic states what the code assumed; only words of a caller's misuse or a limit
        # move it elsewhere (`path.parent().expect(..)` is no I/O error).
        hit = first_match(PANIC_PHRASES, literal_text)
        if hit is not None:
            return Classification(hit[0], "phrase", (hit[1],))
        return Classification(INTERNAL_INVARIANT, "panic")
    if kind == "context":
        # A context names the step that failed: its verb decides, not a noun (`toml`).
        hit = first_match(CONTEXT_VERBS, _valued(message))
        if hit is not None:
            return Classification(hit[0], "context", (hit[1],))
        # .. else the call it is the context of, when that is the operating system's: a file
        # or a process (cargo's `child.wait().context("credential process never started")`
        # read "Unauthenticated" by its word, reading 302)
        os_call = failed_filesystem_call(conditions) or failed_process_call(conditions)
        if os_call is not None:
            return Classification(IO_ERROR, "call", (os_call,))
    prose = without_code(literal_text)
    conflict = CONFLICT.search(prose) or MISSING_INPUT.search(prose)
    if conflict is not None:
        # inputs that exclude each other, or one that must be given: settings (a
        # configuration's keywords in the prose or the error's names: zellij's `ConfigError`
        # for a layout file), else arguments
        settings = _best(
            [_words(prose), *(_words(name) for name in names)], [load_taxonomy()[CONFIGURATION]]
        )
        return Classification(
            CONFIGURATION if settings is not None else INVALID_ARGUMENT,
            "phrase",
            (" ".join(conflict.group().split()), *(settings.hits if settings is not None else ())),
        )
    hit = first_match(PHRASES, literal_text)
    if hit is not None:
        return Classification(hit[0], "phrase", (hit[1],))
    unknown = UNKNOWN_VALUE.search(prose)
    if unknown is not None:
        # a setting when the prose or the error's names say so ("unknown configuration key
        # for aws", `ConfigError`), not for "option" or "flag" alone (a command's flags)
        said = _SETTINGS.search(" ".join(_words(text) for text in (prose, *names)))
        return Classification(
            CONFIGURATION if said is not None else INVALID_ARGUMENT,
            "phrase",
            (" ".join(unknown.group().split()), *((said.group(),) if said else ())),
        )
    classes = load_taxonomy().values()
    spoken = _words(prose)
    found = _best([spoken, *(_words(name) for name in names)], classes)
    if names and found is not None:
        # The message's own phrase over the error's name: risingwave's `ErrorCode::
        # InvalidInputSyntax` carries "column .. already exists" and "aggregate functions are
        # not allowed": a name is the kind of error the code chose, the message the case.
        worded = _best([spoken], classes)
        if worded is not None and worded.slug != found.slug and _phrased(worded):
            found = worded
        named = _best([_words(name) for name in names], classes)
        if named is not None and named.slug in _INPUT_REFUSED and found.slug in _RUNTIME:
            # .. but not a case the run met where the name says the input was refused:
            # risingwave's `ErrorCode::InvalidInputSyntax("ALTER FRAGMENT .. SET rate limit
            # supports exactly one fragment id")` read "Resource exhausted", and "retry"
            # (reading 146); the rate limit is what the statement sets
            found = named
    if found is not None and found.slug == RESOURCE_EXHAUSTED:
        converted = failed_int_conversion(conditions)
        if converted is not None:  # "too big", "exceeds": a value's range, no resource's
            return Classification(OUT_OF_RANGE, "bound", (converted,))
    io = failed_filesystem_call(conditions)
    step = _FAILED_STEP.match(literal_text) or (
        _DOING.match(literal_text) if kind == "context" else None
    )
    if (
        found is not None
        and step is not None
        and not _names_failure(found, step[1])
        and not _in_cause(found, literal_text[step.end() :])
    ):
        # "Failed to check iceberg table exists", "failed to open read-only database": the
        # step failed, and the words after it say what it was about, not how it failed
        # (`classify_step`'s rule); only a keyword of the failure itself ("failed to find")
        # still decides.
        if io is not None:  # .. unless the step that failed is the file system's
            return Classification(IO_ERROR, "call", (io,))
        return Classification(FALLBACK, "step", found.hits)
    if found is not None:
        # chosen by the error's name (`ErrorCode::PermissionDenied`) when the prose alone
        # would not have scored its words
        if any(_find(hit, f" {spoken} ") is None for hit in found.hits):
            return replace(found, source="name")
        return found
    if io is not None:
        return Classification(IO_ERROR, "call", (io,))
    hit = first_match(CONSTRAINTS, prose)  # a constraint on a value, stated
    if hit is not None:
        return Classification(hit[0], "phrase", (" ".join(hit[1].split()),))
    # The conditions are code, whose words mostly name things (`config.editor`,
    # `&parser_path`, `socket`): only a predicate's name (`self.is_paused()`,
    # `e.is_timeout()`, `args.is_empty()`) says what was checked, and a class's
    # `condition_keywords` (`self.status`) are read anywhere in them. Read word for word,
    # they chose a false class for 7 of the 9 labelled sites that got theirs there.
    found = _best(
        [_words(" ".join(_PREDICATE.findall(condition))) for condition in conditions], classes
    ) or _best(
        [_words(_as_state(condition)) for condition in conditions],
        [c.condition_class for c in classes],
    )
    if found is not None:
        return Classification(found.slug, "conditions", found.hits)
    return Classification(FALLBACK, "fallback")


# A number that does not fit the integer type the code converts it to, as the innermost
# condition (`u32::try_from(scancode)` failed): out of range, no resource run out, whatever
# "too big" or "exceeds" says (alacritty's "scancode is too big", surrealdb's "semver major
# component too large", sqlx's "too many parameter format codes" read Resource exhausted, and
# "retry": reading 324)
_INT_CONVERSION = re.compile(r"\b[ui](?:8|16|32|64|128|size)::try_from\s*\(")
# .. and a value compared with a bound the code holds (`lines > MAX_SCROLLBACK_LINES`), which
# says as much only where the value is an input being read (`static`: a `Deserialize` impl's);
# elsewhere a count the run keeps may be checked so (`self.compilations >= MAX_COMPILATIONS`)
_BOUND_CHECK = re.compile(
    r"[A-Za-z_][\w.]*\s*(?:>=?|<=?)\s*(?:\w+::)*(?:[A-Z0-9]+_)*(?:MAX|MIN)(?:_[A-Z0-9]+)*"
)


def failed_int_conversion(conditions: Sequence[str]) -> str | None:
    """The conversion (`u32::try_from`) when the innermost condition is one that failed."""
    last = conditions[-1].strip() if conditions else ""
    converted = _INT_CONVERSION.search(last)
    if converted is not None and ("Err(" in last or _CALL_FAILED.search(last)):
        return converted.group().rstrip("( ")
    return None


def bound_check(conditions: Sequence[str]) -> str | None:
    """The innermost condition when it compares a value with a `MAX_`/`MIN_` bound."""
    last = conditions[-1].strip() if conditions else ""
    return last if _BOUND_CHECK.fullmatch(last) else None


# A condition that is a call which failed (`cmd.args(..).status() was None/Err (context)`):
# the names of the calls in it are steps that ran, not a state read (tauri's "failed to run
# {self}" was an invalid state transition by `Command::status()`); its fields still are.
_CALL_FAILED = re.compile(r" (?:was (?:None|Err|None/Err)|failed) \(\w+\)$")
_CALLED_NAME = re.compile(r"\b\w+(?=\s*(?:::<[^>]*>)?\s*\()")


# A child process's exit status (`!status.success()`, `output.status.code()`): how a program
# it ran ended, no state of an object's (rustup's "self-updated failed to replace rustup
# executable" and "failed to install Visual Studio" were invalid state transitions).
_EXIT_STATUS = re.compile(r"[\w.]*\bstatus\s*\.\s*(?:success|code|signal)\s*\(\s*\)")


# A response's status (`!resp.status().is_success()`, `res.status != StatusCode::OK`,
# `STARROCKS_SUCCESS_STATUS.contains(&res.status.as_str())`): how a request a peer answered
# ended, no state of an object's (neon's "STS request failed with status {status}", 71 of
# the 136 records of 18 repositories classed so by "status", reading 210)
_STATUS_WORD = re.compile(r"\bstatus\b")


def without_status_words(conditions: Sequence[str], read: Iterable[str]) -> list[str]:
    """`conditions` without the word `status` where a check among `read` (all the site's
    conditions and the arms a catch-all arm follows) reads a response's or a process's status
    (`status.is_success()`, `StatusCode::FORBIDDEN`, `.status()`): the `status` the others
    read is that one, no object's state (atuin's `match status { .., _ => bail!("Hub password
    change failed with status {status}") }` read "Invalid state transition", reading 327)."""
    if not any(_RESPONSE_STATUS.search(text) for text in read):
        return list(conditions)
    return [_STATUS_WORD.sub(" ", condition) for condition in conditions]


_RESPONSE_STATUS = re.compile(
    r"[\w.]*\bstatus\b(?:\s*\(\s*\))?\s*\.\s*(?:is_success|is_client_error|is_server_error|"
    r"is_redirection|is_informational|as_u16|as_str)\s*\(\s*\)"
    r"|[\w.]*\bstatus\b(?:\s*\(\s*\))?\s*[!=]=\s*(?:[\w:]*::)?StatusCode::\w+"
    r"|(?:[\w:]*::)?StatusCode::\w+\s*[!=]=\s*[\w.]*\bstatus\b(?:\s*\(\s*\))?"
    r"|(?:[\w:]*::)?StatusCode::\w+|[\w.]*\bstatus\s*\(\s*\)|\b[A-Z_]*SUCCESS[A-Z_]*\b"
    # a field of a response's (foundry's Etherscan answers `resp.status == "0"`, reading 327)
    r"|\b(?:resp|res|response|reply)\.status\b"
)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
# a failed call's arguments: values it was given (`create_timeline_struct(.., rel_size_v2_status,
# ..) was None/Err`), no state it tested
_ARGUMENTS = re.compile(r"\((?:[^()]|\([^()]*\))*\)")


def _as_state(condition: str) -> str:
    """A condition as the state it reads: a failed call's without the names it calls and
    the arguments it was given, and without a child process's exit status, a response's
    status, or a string literal (`url.join("status")`)."""
    condition = _RESPONSE_STATUS.sub(" ", _EXIT_STATUS.sub(" ", _STRING.sub(" ", condition)))
    if _CALL_FAILED.search(condition):
        return _CALLED_NAME.sub(" ", _ARGUMENTS.sub("()", condition))
    return condition


# The innermost condition: a call of the file system's that failed (`File::create(path)
# failed (map_err)`, `std::fs::rename(a, b) was Err (expect)`): its error is an I/O error,
# whatever the message calls the step ("Error with file name: {e}", "could not open <INPUT>").
# `fs_err::` wraps `std::fs` with the path in its errors (uv, qdrant); a bare
# `create_dir_all(..)` is `std::fs`'s, imported.
_FAILED_FS_CALL = re.compile(
    r"^(?:(?:std|tokio|async_std)::)?(?:(?:fs|fs_err)::\w+|(?:fs::)?File::(?:open|create|"
    r"create_new)|create_dir_all|create_dir|remove_dir_all|remove_file|read_to_string|read_dir|"
    r"canonicalize)\(.*\) (?:failed|was Err|was None/Err) \(\w+\)$"
)


def failed_filesystem_call(conditions: Sequence[str]) -> str | None:
    """The file-system call whose failure the innermost condition is, or None."""
    found = _failed_call(_FAILED_FS_CALL, conditions)
    return found.split("(", 1)[0] if found is not None else None


# a process the code started, waited for or killed (`child.wait()`, `cmd.output()`)
_FAILED_PROCESS_CALL = re.compile(
    r"^.*?\.(?:wait|wait_with_output|spawn|output|kill)\(\)(?:\.await)? "
    r"(?:failed|was Err|was None/Err) \(\w+\)$"
)


def failed_process_call(conditions: Sequence[str]) -> str | None:
    """The process call (`child.wait`, `Command::new(x).spawn`) whose failure the innermost
    condition is, or None."""
    found = _failed_call(_FAILED_PROCESS_CALL, conditions)
    return found.split(" ", 1)[0].removesuffix(".await").removesuffix("()") if found else None


def _failed_call(pattern: re.Pattern[str], conditions: Sequence[str]) -> str | None:
    """The innermost condition, when `pattern` (a failed call's) matches it."""
    found = pattern.match(conditions[-1]) if conditions else None
    return found.group() if found is not None else None


def _valued(message: str) -> str:
    """The message with each placeholder an empty `{}`: its words are not the message's
    (`{permission_denied}`), but where it stands is ("rename {} to {}": a path)."""
    return _PLACEHOLDER.sub("{}", message.replace("{{", "(").replace("}}", ")"))


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_SETTINGS = re.compile(
    r"\b(?:config\w*|settings?|features?|environment variables?)\b", re.IGNORECASE
)


def classify_step(message: str, *, path: str = "", conditions: Sequence[str] = ()) -> str:
    """The class of a message that names a step that failed ("Failed to open file", "Could
    not compile grpc"): its verb, then a phrase, else the generic class. Not its nouns: the
    object of a failed step is what it was about, not how it failed ("Failed to create
    expected DataFrame" is no invalid argument, "Failed to compile grpc!" no connection)."""
    literal_text = " ".join(language_of(path).literal_segments(message))
    hit = first_match(CONTEXT_VERBS, _valued(message)) or first_match(PHRASES, literal_text)
    if hit is not None:
        return hit[0]
    # `conditions`: the path's, whose innermost failed call of the file system's says how
    # the step failed ("could not read fixture" on `std::fs::read(path)`)
    return IO_ERROR if failed_filesystem_call(conditions) is not None else FALLBACK


def classify(
    message: str,
    kind: str,
    conditions: Sequence[str] = (),
    names: Sequence[str] = (),
    *,
    path: str = "",
) -> str:
    """The failure-class slug of a site: message keywords, then kind, then conditions."""
    return classify_explained(message, kind, conditions, names, path=path).slug
