"""Error texts from the outside made safe to keep and to print: no secrets, no escape sequences.

A model server's error may echo the API key; a base URL may carry credentials
(`http://user:key@host`, `?api-key=`); a repository or a server may put terminal control
sequences (OSC, BEL, bidi overrides) into any text errdoc prints. `redact` is applied
wherever an error text is kept (the manifest's `reason`), `for_terminal` wherever one is
printed, `clean_error` (both) where it is both.
"""

from __future__ import annotations

import os
import re

REDACTED = "[redacted]"
# Environment variables whose values are secrets wherever they turn up.
SECRET_ENV = ("OPENAI_API_KEY", "ERRDOC_API_KEY", "AZURE_OPENAI_API_KEY", "GITHUB_TOKEN")
_MIN_SECRET = 6  # shorter values ("x", "test") would blank out ordinary words

_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]{0,20}://)[^/\s@?#]{1,512}@")
_QUERY_SECRET = re.compile(
    r"(?i)([?&;\s\"'](?:api[-_]?key|key|token|access[-_]?token|secret|password|passwd|sig"
    r"|signature|auth|authorization)=)[^&\s\"'#]{1,4096}"
)
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,4096}")
_KEY_SHAPED = re.compile(r"\b(?:sk|pk|rk|ghp|gho|ghs|xox[abp])[-_][A-Za-z0-9_-]{12,4096}")
_HEADER = re.compile(
    r"(?i)((?:api[-_]?key|x-api-key|authorization)[\"']?\s*[:=]\s*[\"']?)[^\s\"',}]{4,4096}"
)

# C0 and C1 controls but newline and tab, DEL, and the invisible format characters that
# reorder or hide text (bidi embeddings, overrides, isolates, marks; zero-width joiners).
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]"
)


def _secrets() -> list[str]:
    values = (os.environ.get(name, "") for name in SECRET_ENV)
    return sorted({v for v in values if len(v) >= _MIN_SECRET}, key=len, reverse=True)


def redact(text: str) -> str:
    """`text` without credentials: known secret values, URL user info, key-like tokens."""
    for secret in _secrets():
        text = text.replace(secret, REDACTED)
    text = _USERINFO.sub(lambda m: m[1] + REDACTED + "@", text)
    text = _QUERY_SECRET.sub(lambda m: m[1] + REDACTED, text)
    text = _BEARER.sub(lambda m: m[1] + " " + REDACTED, text)
    text = _HEADER.sub(lambda m: m[1] + REDACTED, text)
    return _KEY_SHAPED.sub(REDACTED, text)


def for_terminal(text: str, *, one_line: bool = False) -> str:
    """`text` with every control or invisible reordering character replaced by `?`."""
    if one_line:
        text = text.replace("\r\n", "\n").replace("\n", " ").replace("\t", " ")
    return _UNPRINTABLE.sub("?", text)


def clean_error(text: str) -> str:
    """An error text fit to keep and to print: redacted, then made inert for a terminal."""
    return for_terminal(redact(text))


def escape_json_text(line: str) -> str:
    """A JSON text (from `ensure_ascii=False`) with unprintable characters as `\\uXXXX` escapes."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m[0]):04x}", line)
