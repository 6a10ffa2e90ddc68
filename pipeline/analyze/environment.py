"""The environment variables a site's conditions read, and what the path to the error needs
of each: set, unset, or only read. A person can look at and change these from a shell, so
the advice names them as the code does (`RUSTUP_IO_THREADS`, not "configuration").

Only a read of a literal name in upper case counts (`env::var("X")`, `env::var_os("X")`,
a wrapper's `.var("X")`): a lower-case `.var("x")` is a template's or a form's, and a name
held in a const is not shown to the reader here. Whether the path needs the variable set
comes from the condition's shape alone: `let Ok(v) = env::var("X")` matching, or
`env::var("X").is_ok()` true, needs it set; the same not matching, or the read itself
failing (`env::var("X").context(..)`), needs it unset. Anything else is only a read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pipeline.core.sitetypes import Condition

Need = Literal["set", "unset", "read"]

# (a name may open with underscores: nextest's `__NEXTEST_TEST_VERSION`, reading 134)
_READ = re.compile(r"(?:\benv::|\.|(?<![\w.:]))(var|var_os)\(\s*\"(_*[A-Z][A-Z0-9_]*)\"\s*\)")
_PRESENT = re.compile(r"^\s*(?:Ok|Some)\s*\(")  # the pattern of `let Ok(v) = env::var(..)`
_TESTS: dict[str, Need] = {
    ".is_ok()": "set",
    ".is_some()": "set",
    ".is_err()": "unset",
    ".is_none()": "unset",
}
_FAILED = (" was None/Err (", " was Err (", " was None (")
# a combinator's closure got the read's value (`map_or(.., |v| ..)`, `.ok().map(|v| ..)`)
_GOT_VALUE = (" was Ok (", " was Some (")
# what keeps a read's outcome as it is: `env::var("X").ok()`, `.as_deref()`
_SAME_OUTCOME = re.compile(r"(?:\.(?:ok|as_deref|as_ref)\(\))+$")
_PATH = re.compile(r"[\w:.()&]*")  # what may stand before the read: `std::`, `self.process`
_RECEIVER = re.compile(r"(?:[A-Za-z_]\w*(?:\(\))?(?:::|\.))*$")  # `std::` before `env::var(..)`
_OBJECT = re.compile(r"(?:[A-Za-z_]\w*(?:\(\))?(?:::|\.))*[A-Za-z_]\w*(?:\(\))?$")  # `self.process`
# What Cargo always sets in a build script's environment (the Cargo Book, "Environment
# variables Cargo sets for build scripts"); not the ones set only with a feature, a `links`
# key, a wrapper or a cfg that holds (`CARGO_FEATURE_X`, `DEP_X_Y`, `CARGO_CFG_FEATURE`).
_CARGO_SETS = re.compile(
    r"CARGO|CARGO_(?:MANIFEST_DIR|MANIFEST_PATH|PKG_NAME|PKG_VERSION(?:_MAJOR|_MINOR|_PATCH)?|"
    r"CFG_TARGET_(?:OS|ARCH|ENDIAN|POINTER_WIDTH|ENV|VENDOR)|ENCODED_RUSTFLAGS)|"
    r"OUT_DIR|TARGET|HOST|NUM_JOBS|OPT_LEVEL|DEBUG|PROFILE|RUSTC|RUSTDOC"
)
_CARGO_SOMETIMES = re.compile(r"CARGO_\w+|DEP_\w+|RUSTC_\w+")  # Cargo's, set in some builds
_LOOK_BACK = 200  # characters a receiver is looked for in, before a read (linear on any text)


@dataclass(frozen=True, slots=True)
class EnvironmentRead:
    """A variable a condition reads: its name, what the path needs of it, and whether it is
    read as Unicode (`var`: a value that is not fails like a missing one)."""

    name: str
    need: Need
    unicode: bool
    decisive: bool = False  # read by the innermost condition: the step the error is about
    # only whether it is set matters (`env::var("X").is_ok()`): its value is never read
    presence: bool = False


def environment_reads(conditions: Sequence[Condition]) -> list[EnvironmentRead]:
    """Each variable the conditions read, once, with what the outermost condition that
    reads it needs (outermost first, as the conditions are)."""
    found: dict[str, EnvironmentRead] = {}
    for at, condition in enumerate(conditions):
        for read in _READ.finditer(condition.text):
            name = read[2]
            if name not in found:
                need = _need(condition, read)
                last = at == len(conditions) - 1
                presence = _tested_for_presence(condition.text, read)
                found[name] = EnvironmentRead(name, need, read[1] == "var", last, presence)
    return list(found.values())


def _need(condition: Condition, read: re.Match[str]) -> Need:
    text, kind = condition.text, condition.kind
    if kind == "closure":  # `env::var("X") was None/Err (context)`: the read itself failed
        value = _value_before(text, _FAILED)
        if value is not None:
            return "unset" if _is_the_read(value, read) else "read"
        # `env::var("X") was Ok (map_or)`: in the closure that gets its value, it is set
        value = _value_before(text, _GOT_VALUE)
        return "set" if value is not None and _is_the_read(value, read) else "read"
    if kind in ("if_let", "let_else") or (kind in ("else", "exit") and text.startswith("let ")):
        # `let Ok(v) = env::var("X")`: matched (if let), or not (let-else, an if-let's else)
        pattern, equals, value = text.removesuffix(" did not match").partition("=")
        pattern = pattern.removeprefix("let ").strip()
        if not equals or not _PRESENT.match(pattern) or not _is_the_read(value, read):
            return "read"
        matched = kind == "if_let" and not condition.negated
        return "set" if matched else "unset"
    if kind == "match_arm":  # `match env::var("X"): Ok(s) =>`
        scrutinee, _, arm = text.removeprefix("match ").rpartition(": ")
        if not _is_the_read(scrutinee, read):
            return "read"
        if _PRESENT.match(arm) or "NotUnicode" in arm:
            return "set"
        if re.match(r"\s*None\b", arm) or "NotPresent" in arm:
            return "unset"
        if re.match(r"\s*Err\s*\(", arm):  # after an arm for `NotPresent`: set, not Unicode
            return "set" if any("NotPresent" in p for p in condition.excluded) else "unset"
        return "read"
    if kind in ("if", "else", "ensure", "check_failed", "exit"):
        holds = kind in ("if", "ensure") and not condition.negated
        if kind == "check_failed":
            holds = False  # the check failed: its test is false
        # one test of the read, alone or among tests that all held (`a && b` true)
        tests = text.split("&&") if holds and "||" not in text else [text]
        test = next((t.strip() for t in tests if read.group() in t), "")
        at = test.find(read.group())
        need = _TESTS.get(test[at + len(read.group()) :].strip())
        if need is None or _PATH.fullmatch(test[:at].strip()) is None:
            return "read"
        return need if holds else ("unset" if need == "set" else "set")
    return "read"


def _tested_for_presence(text: str, read: re.Match[str]) -> bool:
    """Whether the condition tests only that the read succeeded (`env::var("X").is_ok()`,
    `.is_none()`): the variable's value plays no part, an empty one counts as set."""
    after = text[read.end() :]
    return any(after.lstrip().startswith(test) for test in _TESTS)


def _is_the_read(value: str, read: re.Match[str]) -> bool:
    """Whether `value` is the read and nothing else (`std::env::var("X")`, `process.var("X")`)."""
    value = _SAME_OUTCOME.sub("", value.strip().removesuffix(" else").strip())
    return value.endswith(read.group()) and _PATH.fullmatch(value[: -len(read.group())]) is not None


def environment_advice(
    reads: Sequence[EnvironmentRead], guard: bool, build_script: bool = False
) -> tuple[list[str], list[str]]:
    """What to do about the variables: what to say first (a variable that must be set, or
    one whose absence is the error), and what to say after the advice about the failed step
    (a variable the path needs unset, or only reads). `guard`: the check guards access or a
    limit, so it is never advised away by unsetting what it checks. `build_script`: the site
    is in a Cargo build script, whose `OUT_DIR`, `TARGET`, `CARGO_*` Cargo sets."""
    first: list[str] = []
    later: list[str] = []
    for read in reads:
        if read.need == "set":
            first.append(_while_set(read, guard))
        elif read.need == "read" and read.presence:  # `env::var_os("X").is_some() || ..`
            later.append(
                f"The check tests whether the environment variable `{read.name}` is set, to "
                f"any value, an empty one too (`printenv {read.name} >/dev/null && echo set` "
                "tells); its value plays no part."
            )
        elif read.need == "read":
            name = read.name
            later.append(
                f"The check reads the environment variable `{name}`: look at its value ({_look(name)})."
            )
    unset = [read for read in reads if read.need == "unset"]
    by_cargo = [read for read in unset if _CARGO_SETS.fullmatch(read.name)]
    if by_cargo and build_script:
        # the path needs each unset, and Cargo always sets one: only a run outside Cargo
        # takes it (rustup's `TARGET` after its own two overrides, reading 280)
        first.append(_unset_by_cargo(by_cargo))
    elif unset and build_script and all(_CARGO_SOMETIMES.fullmatch(r.name) for r in unset):
        names = _listed([f"`{read.name}`" for read in unset])
        first.append(
            f"Cargo sets {names} for a build script only in some builds (with a feature, a "
            "`links` key, a wrapper or a cfg that holds): this build did not; build with the "
            "features and target the package expects."
        )
    elif unset:  # the path needs each of them unset: setting any one leaves it
        said = _while_unset(unset, "build" if build_script else "run the program")
        (first if any(read.decisive for read in unset) else later).append(said)
    return first, later


# Names of variables that hold a secret: their value is never printed by advice
_SECRET = re.compile(
    r"SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|PRIVATE|API_?KEY|ACCESS_?KEY|(?:^|_)KEY$"
)


def _look(name: str) -> str:
    """A shell command that shows a variable's value, or only its length for a secret (a
    terminal's scrollback and a pasted log keep what `echo` printed)."""
    if _SECRET.search(name):
        return f'without printing a secret: `printf %s "${name}" | wc -c` gives its length'
    return f'`echo "${name}"`'


def _while_set(read: EnvironmentRead, guard: bool) -> str:
    name = read.name
    if read.presence:  # `env::var("X").is_ok()`: set to anything, even "", takes the path
        said = (
            f"The error is reached only while the environment variable `{name}` is set, to any "
            f"value, an empty one too (`printenv {name} >/dev/null && echo set` tells)"
        )
        if guard:
            return said + "."
        return f"{said}: unset it (`unset {name}`) if it was not meant to be set."
    said = f"The error is reached only while the environment variable `{name}` is set: check its value ({_look(name)}) and correct it"
    if guard:
        return said + "."
    return f"{said}, or unset it (`unset {name}`): the code takes this path only while it is set."


def _while_unset(reads: Sequence[EnvironmentRead], again: str) -> str:
    names = [f"`{read.name}`" for read in reads]
    export = f"`export {reads[-1].name}=<value>`"
    if not any(read.decisive for read in reads):
        which = (
            f"the environment variable {names[0]} is"
            if len(names) == 1
            else f"none of the environment variables {_listed(names)} is"
        )
        one = "it" if len(names) == 1 else "one of them"
        return f"The code takes this path only while {which} not set: setting {one} ({export}) avoids it."
    if len(names) == 1:
        how = "is not set or not valid Unicode" if reads[0].unicode else "is not set"
        return f"The error is reached when the environment variable {names[0]} {how}: set it ({export}) before you {again} again."
    return f"The error is reached when none of the environment variables {_listed(names)} is set: set one of them ({export}) before you {again} again."


def unset_note(reads: Sequence[EnvironmentRead], build_script: bool = False) -> str | None:
    """A code comment for a panic whose path needs variables unset (`env::var("X")
    .expect(..)`), or None: the environment's, not a bug."""
    unset = [read.name for read in reads if read.need == "unset"]
    if not unset:
        return None
    by_cargo = [name for name in unset if _CARGO_SETS.fullmatch(name)]
    if build_script and by_cargo:
        return f"// A panic here means Cargo did not set `{by_cargo[0]}`: build with Cargo."
    if build_script and all(_CARGO_SOMETIMES.fullmatch(name) for name in unset):
        return f"// A panic here means Cargo did not set `{unset[0]}` for this build."
    return f"// A panic here means `{unset[-1]}` is not set in the environment: set it."


def set_variable(conditions: Sequence[Condition]) -> str | None:
    """The last variable whose value the path got (`if let Ok(v) = env::var("X")`, `match
    env::var("X"): Ok(v) =>`, the closure of `env::var("X").map(|v| ..)`), or None: a
    panic there is on its value. Not one a test only needs set (`if env::var_os("X")
    .is_some() { step().expect(..) }`: the step failed, not the value)."""
    names = [
        read[2]
        for condition in conditions
        if condition.kind in _GETS_THE_VALUE
        for read in _READ.finditer(condition.text)
        if _need(condition, read) == "set"
    ]
    return names[-1] if names else None


_GETS_THE_VALUE = frozenset(("closure", "if_let", "match_arm"))


def value_note(conditions: Sequence[Condition]) -> str | None:
    """A code comment for a panic on a variable's value, on a path that needs it set
    (`env::var("X").map_or(8, |v| v.parse().expect(..))`), or None."""
    name = set_variable(conditions)
    if name is None:
        return None
    return f"// A panic here means `{name}` is set to a value this code does not accept: correct it, or unset it."


def set_by_cargo(name: str) -> str | None:
    """Whether Cargo sets the variable `name` when it runs a build script: "always", or
    "sometimes" (with a feature, a `links` key, a cfg that holds); None when it does not."""
    if _CARGO_SETS.fullmatch(name):
        return "always"
    return "sometimes" if _CARGO_SOMETIMES.fullmatch(name) else None


def _unset_by_cargo(reads: Sequence[EnvironmentRead]) -> str:
    names = _listed([f"`{read.name}`" for read in reads])
    return (
        f"Cargo sets {names} when it runs a build script: the script ran without "
        f"{'it' if len(reads) == 1 else 'them'} (by hand, or by a tool other than Cargo); "
        "build the package with Cargo (`cargo build`)."
    )


def _listed(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} or {names[-1]}"


def without_reads(text: str) -> str:
    """`text` with each read and its receiver replaced by `ENV`: `p.var("X").is_ok()` reads
    the environment, not the parameter `p`."""
    out, last = [], 0
    for read in _READ.finditer(text):
        if read.start() < last:
            continue
        window = text[max(last, read.start() - _LOOK_BACK) : read.start()]
        receiver = (_OBJECT if read.group().startswith(".") else _RECEIVER).search(window)
        start = read.start() - (len(receiver.group()) if receiver is not None else 0)
        out.append(text[last:start] + "ENV")
        last = read.end()
    return "".join(out) + text[last:]


def value_read(text: str) -> str | None:
    """The variable whose value a condition's closure got (`env::var("X") was Ok (map_or)`:
    it is set, and what the closure does with its value is the path), or None."""
    return _variable_of(text, _GOT_VALUE)


def failed_read(text: str) -> str | None:
    """The variable whose read itself failed in a condition's text (`env::var("X") was
    None/Err (expect)`: it is not set), or None."""
    return _variable_of(text, _FAILED)


def _variable_of(text: str, outcomes: Sequence[str]) -> str | None:
    """The variable read by what a closure condition says had one of `outcomes`, when that
    is the read itself (`std::env::var("X")`, `.ok()` after it), or None."""
    value = _value_before(text, outcomes)
    if value is None:
        return None
    read = _READ.search(value)
    return read[2] if read is not None and _is_the_read(value, read) else None


def _value_before(text: str, outcomes: Sequence[str]) -> str | None:
    """What a closure condition's text says had the first of `outcomes` it holds
    (`env::var("X")` of "env::var("X") was Ok (map_or)"), or None."""
    return next((text.split(o, 1)[0] for o in outcomes if o in text), None)
