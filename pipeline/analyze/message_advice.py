"""The advice an error message gives in its own words: "help: view all installed commands
with `cargo --list`", "Please enable it in `Cargo.toml` and rebuild.", "use '{}' instead".

The person who meets the error has read it; the explanation should not bury the one
sentence its authors wrote for them under generic advice, nor contradict it. Only what
the message says is quoted, as written (its placeholders are filled in where it is
shown): a hint's marker (`help:`, `hint:`), a sentence or clause that tells the reader
to do something (`Please ..`, `Try ..`, `Use .. instead`, `You can ..`, `Did you mean ..`).
The first sentence of a message names the failure, so a verb there is read as advice only
when it cannot be a noun (`Use of moved value`, `Check failed` are not advice): `Please`,
`Try`, `Consider`, `Make sure`, or `Use .. instead`. Pure.
"""

from __future__ import annotations

import re

# "help: ...", "HINT: ...", "- hint: ...", "tip: ..."
_MARKED = re.compile(r"^(?:help|hint|tip|suggestion)\s*:\s*(\S.*)$", re.IGNORECASE)
# Verbs of what a reader is told to do (`_ALWAYS`, after "must").
_ACTS = (
    r"(?:specify|set|provide|pass|use|enable|disable|add|define|declare|include|give|supply|"
    r"choose|select|configure|install|run|call)"
)
# "Try" as advice: to do something, again, a gerund, a quoted command or value; not a verb
# after it (tantivy's panic "try merge on different types" reports what was tried, and was
# read "the message itself says what to do", reading 301)
_TRY = (
    r"try(?=\s*:|\s+(?:to|again|later|it|this|that|with|without|a|an|the|another|one|"
    r"adding|removing|setting|passing|using|running|\w+ing)\b|\s+[`'\"-])"
)
# What advice opens with in any sentence, the first one included.
_ALWAYS = re.compile(
    rf"^(?:please|{_TRY}|consider|make sure|ensure that|did you mean|to fix this|to fix it|"
    r"to resolve this|to resolve it|to solve this|to solve it|to avoid this|"
    # an instruction in the first sentence too: "Must specify 'connector' in WITH clause"
    rf"(?:you )?(?:must|need to|have to) {_ACTS})\b",
    re.IGNORECASE,
)
# What is required, said in the passive: "'connector' must be specified", "RW_CI must be set".
# Or "feedback strategy is required", "Global access is required" (qdrant), not what a
# refusal says of something else ("cannot drop schema {} because it is required by ..").
_REQUIRED = re.compile(
    r"^(?!(?:cannot|can't|can not|could not|failed|unable)\b)[^.;:]{1,80}?\b(?:"
    r"(?:must|needs to|has to) be (?:specified|set|provided|given|defined|declared|enabled|"
    r"included|passed|supplied|configured)|(?:is|are) required(?! by))\b",
    re.IGNORECASE,
)
# Imperatives read as advice after the first sentence, not followed by a word that makes
# them a noun or a report ("Set of ..", "Check failed", "Call to .. failed").
_LATER = re.compile(
    r"^(?:use|run|set|enable|pass|specify|add|remove|install|upgrade|update|restart|"
    r"provide|split|rename|increase|reduce|retry|define|declare|rebuild|recreate|see|"
    r"visit|contact|report|check|call|change|choose|select|start|delete|move|wait|"
    r"you (?:can|could|may|might|must|should|need|have to|will need)|"
    r"instead,? (?:use|run|call|pass|set|try))\b(?! (?:of|failed|error|errors|is|was|"
    r"has|had|for|to|on|in|at|the same)\b)",
    re.IGNORECASE,
)
# A clause after a comma that advises: ", please recreate cursor", ", use '{}' instead".
_CLAUSE = re.compile(
    rf",\s+((?:please|{_TRY}|consider|maybe you (?:want|meant|need)|perhaps you (?:want|meant|need))"
    r"\b[^;]*|use\b[^,;]*\binstead\b[^,;]*)$",
    re.IGNORECASE,
)
_FIRST_USE_INSTEAD = re.compile(r"^use\b.*\binstead\b", re.IGNORECASE)
# A verb on a quoted command or value, for a purpose: "Run `{}` to authenticate uv with
# pyx", "Use '--force' to overwrite": no report opens so (a noun is not followed by a
# quoted command and "to").
_FIRST_DO_QUOTED = re.compile(
    rf"^{_ACTS}\s+(?:`[^`]+`|'[^']+'|\"[^\"]+\")\s+(?:to [a-z]{{2,}}|first|instead)\b"
    r"(?!.*\b(?:failed|failure|error)\b)",
    re.IGNORECASE,
)
# A bullet is its marks and the space after them: "- hint: ..", "  * ..", "> ..". Not the
# dashes of a flag the sentence opens with ("--bucket is required ..").
_BULLET = re.compile(r"^\s*(?:[-*•|>]+(?:\s+|$))*")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# Advice is a sentence, not a page: a longer one (a repository's hostile literal) is none,
# which also bounds the clause search, quadratic in a sentence's commas.
MAX_SENTENCE = 1_000


def advice_in(message: str) -> tuple[str, ...]:
    """The sentences of `message` that tell the reader what to do, in order, as written."""
    found: list[str] = []
    for index, sentence in enumerate(_sentences(message)):
        if len(sentence) > MAX_SENTENCE:
            continue
        marked = _MARKED.match(sentence)
        clause = _CLAUSE.search(sentence)
        if marked:
            found.append(marked.group(1))
        elif _advises(sentence, first=index == 0):
            found.append(sentence)
        elif clause:
            found.append(clause.group(1))
    return tuple(dict.fromkeys(a.strip() for a in found if _says_something(a.strip())))


def _advises(sentence: str, first: bool) -> bool:
    if _ALWAYS.match(sentence) or _REQUIRED.match(sentence):
        return True
    if first:
        return bool(_FIRST_USE_INSTEAD.match(sentence) or _FIRST_DO_QUOTED.match(sentence))
    return bool(_LATER.match(sentence)) and not _reads_as_report(sentence)


def _reads_as_report(sentence: str) -> bool:
    """A short sentence ending in a past participle reports: "Run time exceeded"."""
    words = sentence.rstrip(".!").split()
    return len(words) <= 4 and words[-1].lower().endswith("ed")


def _says_something(advice: str) -> bool:
    """Not a bare placeholder (`hint: {1}`) nor a lead-in to lines below (`try:`)."""
    words = _PLACEHOLDER.sub("", advice).strip(" \t:.,;`'\"")
    return bool(words) and not (advice.endswith(":") and len(advice.split()) <= 2)


def has_placeholders(text: str, is_format: bool = True) -> bool:
    """Whether quoted advice holds a `{..}` the rendered message fills in."""
    return is_format and bool(_PLACEHOLDER.search(text.replace("{{", "").replace("}}", "")))


def _sentences(message: str) -> list[str]:
    """The message cut at line breaks, at `; ` and at sentence ends outside backticks and
    quotes; each piece stripped of list bullets."""
    pieces: list[str] = []
    for line in _unwrapped(message.splitlines()):
        for part in _split_line(line):
            part = _BULLET.sub("", part).strip()
            if part:
                pieces.append(part)
    return pieces


def _unwrapped(lines: list[str]) -> list[str]:
    """The lines with a sentence wrapped over two joined again: a line that ends no sentence
    (no `.`, `!`, `?`, `:` or `;`) and a next one that goes on in lowercase. cargo's "remove
    the source replacement configuration, generate a lock file, and then\nrestore the source
    replacement configuration to continue the build" was quoted cut at "and then" (reading
    163)."""
    out: list[str] = []
    for line in lines:
        text = line.strip()
        if out and _goes_on(out[-1], text):
            out[-1] = f"{out[-1].rstrip()} {text}"
        else:
            out.append(line)
    return out


def _goes_on(before: str, line: str) -> bool:
    """Whether `line` continues the sentence `before` ends without closing it: `before` is
    as long as a wrapped line is (a short one is a line of its own: "could not find\nrun
    `cargo init` first"), or ends on a word that cannot end one ("and then", "to")."""
    ended = before.strip()
    if not ended or ended[-1] in ".!?:;" or not line[:1].islower():
        return False
    if _BULLET.sub("", line, count=1) != line:
        return False
    return len(ended) >= _WRAPPED or ended.rsplit(None, 1)[-1].lower() in _GOES_ON


_WRAPPED = 60  # characters: a line of prose that long was cut by its width, not its sense
_GOES_ON = frozenset(
    ("and", "or", "but", "then", "to", "the", "a", "an", "of", "in", "on", "for", "with",
     "be", "is", "are", "that", "which", "by", "from", "as", "at", "it", "not")
)  # fmt: skip


def _split_line(line: str) -> list[str]:
    out: list[str] = []
    start, quoted = 0, ""
    for index, ch in enumerate(line):
        if ch in "`\"'" and (not quoted or ch == quoted):
            if ch == "'" and not quoted and _inside_word(line, index):
                continue  # an apostrophe: "provider's", "don't"
            quoted = "" if quoted else ch
            continue
        if quoted:
            continue
        after = line[index + 1 : index + 3]
        if ch == ";" and after[:1] == " ":
            out.append(line[start:index])
            start = index + 1
        elif ch in ".!?" and after[:1] == " " and _opens_sentence(after[1:2]):
            out.append(line[start : index + 1])
            start = index + 1
    out.append(line[start:])
    return out


def _inside_word(line: str, index: int) -> bool:
    return index > 0 and line[index - 1].isalnum() and line[index + 1 : index + 2].isalpha()


def _opens_sentence(ch: str) -> bool:
    return ch.isupper() or ch in "`\"'{"
