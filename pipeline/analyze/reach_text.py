"""Sentences about how a site is reached, for the static analyzer (from `SiteContext.reach`).

Each names the commit its facts hold at. A caller path is a fact of the whole repository:
an edit anywhere may change it while the site's own content stays, and SPEC 7 keeps the
explanation of unchanged content (its file's record is not even rewritten). So the text
says when it was true ("At commit 448c6570b1 it is reached from ..."), and the page's
"How you get here" and `reach.json` give the path at the dataset's commit; the two never
contradict each other, one is dated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.analyze.condition_text import describe
from pipeline.core.reach import (
    NOT_RETURNED,
    PATH_DEPTH,
    SUPPORT_NOTE,
    ArmBuilt,
    BuildStep,
    CalleeBuild,
    CallerPath,
    FailedCall,
    Hop,
    Reach,
    ReadInto,
    guard_parts,
    handoff_text,
    no_entry_note,
)
from pipeline.core.sitetypes import Condition


def path_text(path: CallerPath) -> str:
    """`handle` -> `handle_insert` -> RPC `put_key` -> `Engine::write`, ambiguity marked."""
    return " -> ".join(_hop_text(hop) for hop in path.hops)


def _hop_text(hop: Hop) -> str:
    text = f"RPC `{hop.name}`" if hop.resolution == "rpc" else f"`{hop.name}`"
    if hop.resolution == "conversion":
        text += " (through `?`)"
    if hop.resolution == "message":
        text += " (an actor, sent a message it handles)"
    if hop.resolution == "iterator":
        text += " (an iterator, whose items the previous hop takes)"
    if hop.resolution == "extractor":
        text += " (the framework's extractor of an argument of the previous hop)"
    if hop.via:
        many = f", one of {hop.impls} impls" if hop.impls else ""
        text += f" (called as `{hop.via}`{many})"
    if hop.candidates:
        text += f" (or {', '.join(f'`{c}`' for c in hop.candidates)}: the call is ambiguous)"
    return text


def commit_label(sha: str) -> str:
    """How a sentence names the commit it holds at: `At commit 448c6570b1`."""
    return f"At commit {sha[:10]}"


def undated(text: str) -> str:
    """`text` with the commits its sentences name left out: an explanation kept since an
    earlier commit and one written today compare equal when only their dates differ."""
    return _DATED.sub(r"\1 commit", text)


_DATED = re.compile(r"\b([Aa]t) commit [0-9a-f]{10}\b")


def undated_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record (as JSON) with the commits its reach sentences name left out (`undated`): an
    explanation kept for unchanged content names the commit it was written at."""
    return {k: _undated_value(v) for k, v in record.items()}


def _undated_value(value: Any) -> Any:
    if isinstance(value, str):
        return undated(value)
    if isinstance(value, list):  # `solutions`: a builder's sentence is dated too
        return [undated(v) if isinstance(v, str) else v for v in value]
    return value


def trigger_sentence(reach: Reach | None, sha: str, never: bool = False) -> str | None:
    """The path from an entry point, and where the conditions' values come from, at `sha`.
    `never`: a check above the site leaves first as the code stands (`exited_above`,
    `option_checked_above`): the path reaches its fn, and no run gets on to the site."""
    if reach is None:
        return None
    at = commit_label(sha)
    it = "its fn" if never else "it"
    parts: list[str] = []
    if reach.built and reach.paths:
        parts.append(f"{at}, {_built_sentence(reach, reach.built, reach.callers, reach.paths[0])}")
    elif reach.initialized and reach.paths:
        parts.append(f"{at}, {_initialized_sentence(reach, reach.initialized, reach.paths[0])}")
    elif reach.paths:
        best = reach.paths[0]
        if best.entry_label and len(best.hops) == 1:  # no path to tell: the fn is the entry
            parts.append(
                f"{at} `{best.hops[0].name}` is itself an entry point: {best.entry_label}."
            )
        elif best.entry_label and (dispatched := _dispatches(best)):
            parts.append(f"{at} {it} can be reached from {_one_of(reach)}{best.entry_label}, "
                         f"{_when_runs(dispatched)}: {path_text(best)}.")  # fmt: skip
        elif best.entry_label:
            parts.append(f"{at} {it} is reached from {_one_of(reach)}{best.entry_label}: "
                         f"{path_text(best)}.")  # fmt: skip
        elif len(best.hops) == 1 and best.hops[0].support:  # the site's own fn, no caller
            parts.append(
                f"{at} no code the index reads calls `{best.hops[0].name}`: {SUPPORT_NOTE}."
            )
        else:
            parts.append(f"{at} {it} is called through {path_text(best)} ({no_entry_note(best)}).")
        if (guarded := guarded_text(best)) is not None:
            parts.append(guarded)
        if (unwrapped := unwrapped_text(best)) is not None:
            parts.append(unwrapped)
        if never:
            parts.append("As the code stands, no run gets past the check above to this step.")
        if reach.logged:
            parts.append(
                f"Elsewhere {reach.logged} and goes on: there a user sees it as that log line, "
                "not as a failure."
            )
    elif reach.dropped_by and reach.logged:
        calls = (
            "the one call of it the index found handles"
            if reach.dropped_by == 1
            else f"the calls of it by all {reach.dropped_by} callers the index found handle"
        )
        parts.append(
            f"{at} {calls} the error it returns without passing it on: {reach.logged} and goes "
            "on. A user sees it as that log line, not as the failure of what they ran."
        )
    elif reach.dropped_by:
        calls = (
            "the one call of it the index found drops"
            if reach.dropped_by == 1
            else f"the calls of it by all {reach.dropped_by} callers the index found drop"
        )
        parts.append(
            f"{at} {calls} the error it returns (`.ok()`, `.unwrap_or(..)`, `if let Ok(..)`, "
            "`let _ =`, a `match` arm that only logs it at debug level): none passes it on toward a user."
        )
    if reach.callee_builds:
        parts.append(callee_builds_text(reach.callee_builds))
    if reach.read_into:
        parts.append(read_into_text(reach.read_into, at if not parts else None))
    if reach.failed_call is not None:
        parts.append(failed_call_text(reach.failed_call))
    sources = [
        f"`{d.name}` ({d.kind} `{d.text}`"
        + (f", the command-line option `{d.option}`" if d.option else "")
        + (", which the fn binds again before the check" if d.rebound else "")
        + "".join(
            # each further up passes it to the one before it, not to the site's fn (tikv's
            # `on_casual_msg` read as passing `index` to `verify_and_store_hash`, reading 241)
            f"; {handoff_text(h, d.passed[i - 1].caller if i else None)}"
            for i, h in enumerate(d.passed)
        )
        + (f": {doc_sentences(d.doc)}" if d.doc else "")
        + (f"; a program sets it with `{d.setter}(..)`" if d.setter else "")
        + ")"
        for d in reach.dependencies
    ]
    if sources:
        depend = "The conditions depend on " if parts else f"{at} the conditions depend on "
        parts.append(depend + "; ".join(sources) + ".")
    return " ".join(parts) or None


_GUARDS_SAID = 3  # of a path's hops under an `if`, those said (nearest the entry first)
# the fields a struct pattern binds, said `{ .. }` (`Command::Create { mut info, job_type, }`)
_FIELDS_BOUND = re.compile(r"\{[^{}]*\}")


def guarded_text(path: CallerPath) -> str | None:
    """The `if`s (and `match` arms) around the path's calls (`Hop.guard`), as a reader
    follows them from the entry: "On that path `main` calls `run` only when
    `opts.list_details` holds (src/main.rs:120)"; None when no call is under one."""
    said = []
    for at, (hop, below) in enumerate(zip(path.hops, path.hops[1:], strict=False)):
        if hop.guard is None:
            continue
        kind, condition = guard_parts(hop.guard)
        if at == 0 and kind == "match_arm" and path.entry in ("statement", "cli"):
            continue  # the arm of the dispatch the entry point names already
        condition = _FIELDS_BOUND.sub("{ .. }", condition)
        # a hop that calls the next at other lines too (`Hop.also_at`) keeps the guard of its
        # first call alone: alacritty's `migrate` calls `migrate_config` under `if
        # !options.dry_run` and again under none (reading 328: "only when" was false)
        only = "" if hop.also_at else "only "
        if kind == "if":
            when = f"{only}when `{condition}` holds"
        elif kind == "else":
            when = f"{only}when `{condition}` does not hold"
        elif kind == "match_arm" and condition.startswith("match ") and ": " in condition:
            value, _, arm = condition[len("match ") :].partition(": ")
            when = f"{only}in the arm `{arm.removesuffix(' =>')}` of `match {value}`"
        else:
            continue
        lines = ", ".join(str(n) for n in hop.also_at)
        also = (
            f", and again at line{'s' if len(hop.also_at) > 1 else ''} {lines} (which call a "
            "run takes, its values decide)"
            if lines
            else ""
        )
        said.append(
            f"`{hop.name}` calls `{below.name}` {when} ({hop.file_path}:{hop.call_line}){also}"
            + (arm_built_text(hop.arm_built) if hop.arm_built else "")
        )
    if not said:
        return None
    more = len(said) - _GUARDS_SAID
    tail = f", and {more} more such call{'s' if more > 1 else ''}" if more > 0 else ""
    return f"On that path {'; '.join(said[:_GUARDS_SAID])}{tail}."


def read_into_text(fields: Sequence[ReadInto], at: str | None) -> str:
    """Which fields a `Deserialize` impl's value is read for (`Reach.read_into`): "serde runs
    this `Deserialize` impl to read the field `UiConfig.scrolling.history` (..:14): ..";
    `at` opens it when nothing was said before it."""
    named = ", ".join(f"`{f.path}` ({f.file_path}:{f.line})" for f in fields)
    which = f"the field {named}" if len(fields) == 1 else f"the fields {named}"
    opening = f"{at} serde" if at else "Serde"
    return (
        f"{opening} runs this `Deserialize` impl to read {which}: the value at fault is that "
        "field's in what the program deserializes (a config file, a request), by the names "
        "the code gives its fields (a `#[serde(rename)]` spells a key otherwise)."
    )


def arm_built_text(armed: ArmBuilt) -> str:
    """ ", and only `CatalogBatch::restore` (src/log.rs:164) builds a `CatalogBatch::Restore`
    by name": where the value the arm takes comes from, so a reader can tell which of the
    path's callers can pass one (`Hop.arm_built`); "by name": a value decoded from input
    (serde, protobuf) takes the arm too."""
    named = ", ".join(f"`{b.name}` ({b.file_path}:{b.line})" for b in armed.builders)
    if armed.count == 1:
        return f", and only {named} builds a `{armed.variant}` by name"
    among = "" if armed.count == len(armed.builders) else ", among them"
    return f", and {armed.count} fns build a `{armed.variant}` by name{among}: {named}"


def unwrapped_text(path: CallerPath) -> str | None:
    """What becomes of a returned error on `path` at the hop nearest the site that unwraps
    it (`Hop.unwraps`): "On that path `Record::encrypt` (src/record.rs:183) unwraps what
    `encrypt_sync` returns with `.unwrap()`: .."; None when no hop does."""
    for at in range(len(path.hops) - 2, -1, -1):
        hop = path.hops[at]
        if hop.unwraps:
            shown = (
                "that text, a colon and the error's `Debug` form"
                if hop.unwraps.startswith("`.expect(") and hop.unwraps != "`.expect(..)`"
                else "the error's `Debug` form"
            )
            return (
                f"On that path `{hop.name}` ({hop.file_path}:{hop.call_line}) unwraps what "
                f"`{path.hops[at + 1].name}` returns with {hop.unwraps}: there the error becomes "
                f"a panic, whose message shows {shown}, and the callers above get no error value."
            )
    return None


def _dispatches(path: CallerPath) -> list[Hop]:
    """The hops of a path that a trait method with several impls dispatched to
    (`Hop.impls`): the path holds only for values of those impls' types."""
    return [hop for hop in path.hops if hop.via and hop.impls]


def _when_runs(hops: list[Hop]) -> str:
    """ "when `PollHandler::handle_normal` there runs `RaftPoller`'s (one of 4 impls)": the
    values the path needs, which the index does not follow (tikv's v2 `StoreSystem` read as
    running v1's `RaftPoller`, reading 181). Each such hop is named, the first two in full:
    a later one may be the one no value takes (reading 181's recheck, its record 15)."""
    named = []
    for hop in hops[:2]:
        owner, _, _ = hop.name.rpartition("::")
        runs = f"`{owner}`'s" if owner else f"`{hop.name}`"
        named.append(f"`{hop.via}` there runs {runs} (one of {hop.impls} impls)")
    more = f", and {len(hops) - 2} more such calls" if len(hops) > 2 else ""
    return "when " + " and ".join(named) + more


def _guessed(paths: list[CallerPath]) -> str:
    """What makes each way in a guess: a call of a name several fns share, a trait's
    method of several impls, or both."""
    named = any(h.candidates for p in paths for h in p.hops)
    dispatched = any(h.via and h.impls for p in paths for h in p.hops)
    if named and dispatched:
        return (
            " (each through a call that may also run another fn of its name, or another impl"
            " of a trait's method)"
        )
    if dispatched:
        return " (each through a trait's method, which may run another of its impls)"
    return " (each through a call that may also run another fn of its name)"


def _one_of(reach: Reach) -> str:
    """`40 entry points found within 8 calls, among them ` when the paths name fewer."""
    if not reach.entries:
        return ""
    return f"{reach.entries} entry points found within {PATH_DEPTH} calls, among them "


def _built_sentence(reach: Reach, built: str, builders: int, best: CallerPath) -> str:
    """`E::V` is built in 2 functions; one is reached from X: a -> b (builds it at f.rs:9)."""
    last = best.hops[-1]
    count = "one function" if builders == 1 else f"{builders} functions"
    at = f" at {last.file_path}:{last.call_line}" if last.call_line else ""
    head = (
        f"`{built}` is built in {count}, `{last.name}`{at}"
        if builders == 1
        else (f"`{built}` is built in {count}, among them `{last.name}`{at}")
    )
    if reach.converts:
        head += f" (its `#[from]` field: `?` builds it from a call's `{reach.converts}`)"
    if reach.built_when:
        head += f", {built_when_text(reach)}"
    return _reached_after(reach, head, best)


def built_when_text(reach: Reach) -> str:
    """ "when `value.is_some()` is true and `!last` is false (else branch)": the conditions
    in the best path's builder on the way to its build (`Reach.built_when`), its other
    builds there with theirs (`Reach.built_also`), and the values of the consts they name
    (`Reach.built_values`), as a callee's build says them."""
    values = ", ".join(f"`{v}`" for v in reach.built_values)
    said = f"when {_steps_text(reach.built_when)}"
    for place in reach.built_also:  # its other builds there (influxdb's `InvalidChar`, 327)
        said += (
            f"; it builds it also at line {place.line}, {_also_text(reach.built_when, place.when)}"
        )
    return said + (f" ({values})" if values else "")


def _also_text(first: Sequence[BuildStep], steps: Sequence[BuildStep]) -> str:
    """ "after the same first 3 conditions, when `b` is false": another build's conditions,
    those it shares with the first build's from the start said once."""
    shared = 0
    while shared < min(len(first), len(steps)) and first[shared] == steps[shared]:
        shared += 1
    first_n = "the same first condition" if shared == 1 else f"the same first {shared} conditions"
    if shared == len(steps):
        return "under the same conditions" if shared == len(first) else f"under {first_n} alone"
    rest = _steps_text(steps[shared:])
    return f"after {first_n}, when {rest}" if shared else f"when {rest}"


def _steps_text(steps: Sequence[BuildStep]) -> str:
    """ "`a` is true and `b` is false (else branch)": conditions on the way to a build."""
    return " and ".join(
        describe(Condition(s.kind, s.text, 0, s.negated, s.excluded)) for s in steps
    )


def failed_call_text(failed: FailedCall) -> str:
    """ "`Settings::new` (src/settings.rs:53) is the call that failed; it passes on the errors
    of the calls it makes with `?`: `fs::create_dir_all(..)`, `.build()`: the cause printed
    after this message is one of theirs, or a check of its own." (`Reach.failed_call`)"""
    calls = ", ".join(f"`{t}`" for t in failed.tried)
    more = f" and {failed.more} more" if failed.more else ""
    return (
        f"`{failed.callee}` ({failed.file_path}:{failed.line}) is the call that failed; it "
        f"passes on the errors of the calls it makes with `?`: {calls}{more}. The cause "
        "printed after this message is one of theirs, or a check of its own."
    )


def callee_builds_text(builds: Sequence[CalleeBuild]) -> str:
    """ "`validate_uri` builds the `UriError::TooLong` this arm takes (src/uri.rs:40) when
    `uri.len() > MAX` is true (`MAX = 256`)."; of several places, each with its own
    conditions (`Reach.callee_builds`)."""

    def when(build: CalleeBuild) -> str:
        values = f" ({', '.join(f'`{v}`' for v in build.values)})" if build.values else ""
        return f"({build.file_path}:{build.line}) when {_steps_text(build.when)}{values}"

    first = builds[0]
    head = f"`{first.callee}` builds the `{first.variant}` this arm takes"
    if len(builds) == 1:
        return f"{head} {when(first)}."
    return f"{head} at {len(builds)} places: " + "; ".join(map(when, builds)) + "."


def _initialized_sentence(reach: Reach, static: str, best: CallerPath) -> str:
    """`S` is a static set up at its first use; 2 functions use it, among them `f` at f.rs:9,
    reached from X: a -> f."""
    last = best.hops[-1]
    at = f" at {last.file_path}:{last.call_line}" if last.call_line else ""
    users = (
        f"`{last.name}` uses it{at}"
        if reach.callers == 1
        else f"{reach.callers} functions use it, among them `{last.name}`{at}"
    )
    head = f"this code sets up the static `{static}` on its first use; {users}"
    return _reached_after(reach, head, best)


def _reached_after(reach: Reach, head: str, best: CallerPath) -> str:
    """`head`, then how its last hop is reached: `best` from its entry point, if any."""
    if len(best.hops) == 1 and not best.entry_label:
        return f"{head} ({no_entry_note(best, named=False)})."
    if best.entry_label and len(best.hops) == 1:
        return f"{head}, itself an entry point: {best.entry_label}."
    if best.entry_label:
        return f"{head}, reached from {_one_of(reach)}{best.entry_label}: {path_text(best)}."
    return f"{head}, called through {path_text(best)} ({no_entry_note(best)})."


def builders_solution(reach: Reach | None, sha: str) -> str | None:
    """For an `#[error]` variant that the index finds built: which fn builds it, where, at
    `sha` (None when nothing builds it that the index knows)."""
    if reach is None or not reach.built or not reach.paths:
        return None
    last = reach.paths[0].hops[-1]
    where = f" ({last.file_path}:{last.call_line})" if last.call_line else f" ({last.file_path})"
    who = (
        f"`{last.name}` builds `{reach.built}`{where}"
        if reach.callers <= 1
        else f"{reach.callers} functions build `{reach.built}`, among them `{last.name}`{where}"
    )
    if reach.converts:
        who += f" (`?` builds it from a call's `{reach.converts}`)"
    said = "the conditions on its way there say"
    if reach.built_when:  # the builder's own, then those of the way to it
        who += f" {built_when_text(reach)}"
        said = "those, and the conditions on the way to it, say"
    if reach.held_in == NOT_RETURNED:  # its builders log it, drop it or hand it on
        return (
            f"{commit_label(sha).lower()}, {who}: {said} which input or state makes it; no fn "
            "that builds it returns it (it is logged, dropped or handed on there), so it is "
            "met in their output, not as an error a caller holds."
        )
    return (
        f"{commit_label(sha).lower()}, {who}: {said} which input or state returns it; meet "
        "them, or handle this error where it is returned."
    )


def situation_sentence(
    reach: Reach | None,
    sha: str,
    fixed: bool = False,
    assumed: bool = False,
    never: bool = False,
) -> str | None:
    """Which user-facing entry points lead here, and how the error reaches the user, at
    `sha`. `fixed`: the site fails on a call given only literals (`fixed_input`): runs get
    there through the entry points, but nothing a user sends changes whether it fails.
    `assumed`: a panic on what its code assumes (an `unreachable!` arm, an `.expect(..)` on
    a value it just checked): runs get there, users meet it only if the assumption breaks
    (bat's `--binary` arm that clap's value parser rules out, reading 300). `never`: a
    check above leaves first as the code stands (`trigger_sentence`): runs reach its fn, and
    none gets on to the site (starship's `Continuation` arm, reading 314's recheck)."""
    if reach is None:
        return None
    at = commit_label(sha)
    parts: list[str] = []
    # the ways in whose every call the index told apart, when there is one: a path through a
    # call it guessed among same-named fns is no place users surely meet it (hyper's
    # examples' `send_request`, taken for http2's when they hold http1's: reading 122's
    # recheck); with none such, the guessed ones, said to be guesses
    # a path through a trait method of several impls holds only for one impl's values
    # (reading 181): no sure way in either
    sure = [
        p
        for p in reach.paths
        if p.entry_label and not any(h.candidates or (h.via and h.impls) for h in p.hops)
    ]
    shown = sure or [p for p in reach.paths if p.entry_label]
    labels = list(dict.fromkeys(p.entry_label for p in shown if p.entry_label))
    if labels:
        among = f"{reach.entries} entry points, among them " if reach.entries else ""
        guessed = "" if sure else _guessed(shown)
        if never:
            parts.append(
                f"{at}, runs reach its fn through {among}" + ", ".join(labels) + guessed + "; "
                "a check above leaves before this step, so as the code stands none gets here."
            )
        elif fixed:
            parts.append(
                f"{at}, runs get here through {among}" + ", ".join(labels) + guessed + "; "
                "its input is fixed in the code, so nothing a user sends makes it fail."
            )
        elif assumed:
            parts.append(
                f"{at}, runs get here through {among}" + ", ".join(labels) + guessed + "; "
                "it fails there only where what its code assumes does not hold."
            )
        else:
            parts.append(f"{at}, users meet it through {among}" + ", ".join(labels) + guessed + ".")
    if reach.paths and reach.logged and not fixed:
        lead = "They also meet it" if labels else f"{at}, users meet it"
        parts.append(f"{lead} as a log line: {reach.logged} and goes on.")
    if reach.conversion:
        status = f" (HTTP {reach.http_status})" if reach.http_status else ""
        lead = "It reaches" if parts else f"{at} it reaches"
        parts.append(f"{lead} the client through {reach.conversion}{status}.")
    if reach.wrapped_by:
        lead = "Where" if parts else f"{at}, where"
        parts.append(
            f"{lead} `?` or `.into()` turns it into {reach.wrapped_by} (its `#[from]`), a user "
            "reads that text, and this one only where the error's causes are printed "
            "(`source()`, anyhow's `{:#}`)."
        )
    return " ".join(parts) or None


_DOC_SAID = 300  # of a field's or a const's doc, the sentences said, in characters at most
# where a doc's sentence ends: `.`, `!` or `?` before a space and what may begin the next one
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z'`\"(\[])")


def doc_sentences(doc: str) -> str:
    """A doc comment's first sentences, its first paragraph's lines joined, as many as fit in
    `_DOC_SAID` characters (at least the first, cut with "…" past that): fd's `--changed-within`
    had read "Filter results based on the file modification time. Files with modification
    times", its first line, and lost the formats the option takes (reading 325)."""
    paragraph = " ".join(doc.strip().split("\n\n", 1)[0].split())
    said = ""
    for sentence in _SENTENCE_END.split(paragraph):
        joined = f"{said} {sentence}".strip()
        if said and len(joined) > _DOC_SAID:
            break
        said = joined
    return said if len(said) <= _DOC_SAID else said[: _DOC_SAID - 2].rstrip() + " …"
