"""A panic on a path that is not UTF-8: `path.to_str().expect(..)` gives `None` only when the
path holds bytes that are no UTF-8 (Unix file names may; Windows names with unpaired
surrogates). That is the name of a file or directory on the machine, or a path given to the
program, not a broken invariant of the code (cargo's `home.to_str().expect(..)` on an SSH
host key's path read "a bug, not your input", reading 140; 27 of 63 such records over 44
repositories were "Internal invariant violated"). Only what the code shows: the innermost
condition is `to_str()` on a value the code names as a path (`path`, `dir`, `root`, `home`,
`.join(..)`, `.parent()`, `.file_name()`), not a header's or a C string's `to_str` (axum's
and uv's `filename`/`files` are `HeaderValue`s), and the message does not say the path
was checked before. Pure."""

from __future__ import annotations

import re

from pipeline.analyze.guarded import guarded_call
from pipeline.core.sitetypes import Site

_TO_STR = re.compile(r"\.\s*to_str\(\)$")
_PATH_WORDS = re.compile(
    r"(?i)(?:path|dir|folder|root|home|exe|cwd)\w*(?:\(\))?\s*\.\s*(?:unwrap\(\)\s*\.\s*)?"
    r"to_str\(\)$|\.\s*(?:join|parent|file_name|file_stem|extension|with_extension)"
    r"\([^()]*\)(?:\s*\.\s*(?:unwrap|expect)\([^()]*\))?\s*\.\s*to_str\(\)$"
)
_NOT_A_PATH = re.compile(r"(?i)header|value|c_?str|cstr|env|var")
# the authors say the path was checked before: their assumption stands (cargo's "everything
# was utf8", axum's "This was a HeaderValue so this can not fail")
_ASSERTED = re.compile(r"(?i)\balways\b|\bcan ?not fail\b|\bnever\b|\bwas utf-?8\b|\bchecked\b")

UTF8_ADVICE = (
    "the path is not valid UTF-8 (a file or directory name with bytes outside UTF-8, which "
    "Unix allows, or an unpaired surrogate on Windows): `to_str()` gives `None` only then. "
    "Use a path whose every component is UTF-8 (rename or move the file or directory), then "
    "run again."
)


def non_utf8_path(site: Site) -> str | None:
    """The path whose `to_str()` a panicking site's innermost condition is, as written
    (`home.to_str()`), when the code names it a path; None otherwise."""
    if site.kind not in ("expect", "panic") or _ASSERTED.search(site.message):
        return None
    call = guarded_call(site, ("None", "None/Err"))
    if call is None or not _TO_STR.search(call) or _NOT_A_PATH.search(call):
        return None
    return call if _PATH_WORDS.search(call) else None
