"""From a site in its context to the published record (SPEC 4). Pure."""

from __future__ import annotations

import ast
import re
from typing import Any
from urllib.parse import quote

from pipeline.core.model import Explanation, Record
from pipeline.languages import language_of
from pipeline.languages.base import Language
from pipeline.scan.context import SiteContext

SLUG_LENGTH = 50


def slugify(message: str) -> str:
    """First 50 characters, lowercased, runs of non-`[a-z0-9]` to `-`, trimmed (SPEC 4).

    ASCII `[a-z0-9]` only, as the seeds do: a message with no ASCII letter or digit in
    its first 50 characters (`"{}"`, a message in Cyrillic) has the empty slug, and
    callers decide what to show.
    """
    return re.sub(r"[^a-z0-9]+", "-", message[:SLUG_LENGTH].lower()).strip("-")


def github_url(repo: str, sha: str, path: str, start: int, end: int) -> str:
    """The pinned link to the window; the path percent-encoded (`#`, `?`, spaces, newlines, bidi)."""
    return f"{github_tree(repo, sha)}/{quote(path, safe='/')}#L{start}-L{end}"


def github_tree(repo: str, sha: str) -> str:
    """What every `githubUrl` of a version starts with."""
    return f"https://github.com/{repo}/blob/{sha}"


def build_record(
    context: SiteContext, explanation: Explanation, analyzed_at: str, changed_at: str
) -> Record:
    """The published record of one site."""
    site = context.site
    return Record(
        id=context.record_id,
        repo=context.repo,
        slug=slugify(site.message),
        errorMessage=site.message,
        messagePattern=context.message_pattern,
        sourceCode=context.window,
        **_located(context),
        **_code_checked(explanation, site.file_path),
        analyzedAt=analyzed_at,
        contentChangedAt=changed_at,
        schemaVersion=2,
    )


# Code fields that must be code (exampleFix may be commands as well, so any analyzer's
# answer keeps it; the static analyzer's own is checked where it is built).
CODE_ONLY_FIELDS = ("validationCode", "typeGuard", "tryCatchPattern")


def check_code(explanation: Explanation, path: str) -> None:
    """Check the code fields now (the checks are memoized): `build_record` then finds them
    done. A run does it while its index runs, since no code field depends on the reach."""
    _code_checked(explanation, path)


def _code_checked(explanation: Explanation, path: str) -> dict[str, Any]:
    """The explanation's fields, a code field that does not parse nulled: never broken text."""
    fields = explanation.model_dump()
    language = language_of(path)
    for name in CODE_ONLY_FIELDS:
        if fields[name] is not None and not field_parses(name, fields[name], language):
            fields[name] = None
    return fields


def field_parses(name: str, text: str, language: Language) -> bool:
    """Whether a code field parses: as the repository's language, or, for a
    `tryCatchPattern`, as the Python `try:` that the caller of a fn pyo3 exports writes
    (`analyze/python_catch`): that caller is a Python program."""
    if language.parses_as_code(text):
        return True
    return name == "tryCatchPattern" and text.startswith("try:\n") and _parses_as_python(text)


def _parses_as_python(text: str) -> bool:
    """Python's own parser accepts it (parsed only, never run)."""
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def relocated(old: Record, context: SiteContext) -> Record:
    """An unchanged site's previous record at its new place and commit (SPEC 7).

    Content hash equal means message, pattern and window are equal, so only the
    location fields move; the derived fields are recomputed because they also depend
    on things outside the window (an alias in another file). No re-validation: every
    value comes from a validated record or from this module.
    """
    return old.model_copy(update=_located(context))


def _located(context: SiteContext) -> dict[str, Any]:
    """The fields of a record that its place, its commit and the rest of the repository give."""
    site = context.site
    end = context.window_start + context.window.count("\n")
    code = site.error_code or _answered_code(context)
    return {
        "filePath": site.file_path,
        "lineNumber": site.line,
        "sourceCodeStart": context.window_start,
        "sourceCodeEnd": end,
        "githubUrl": github_url(
            context.repo, context.sha, site.file_path, context.window_start, end
        ),
        "analyzedSha": context.sha,
        "errorClass": context.error_class,
        "errorCode": code,
        "errorType": "error_code"
        if code and context.error_type == "exception"
        else context.error_type,
        "severity": context.severity,
        # else the status the error type's conversion shows (`IntoResponse`; issue 10)
        "httpStatus": site.http_status
        if site.http_status is not None or context.reach is None
        else context.reach.http_status,
    }


def _answered_code(context: SiteContext) -> str | None:
    """The code the repository's own code answers the site's error with (`Reach.code`:
    greptimedb's `status_code()` arm `TooManyPartitions { .. } => StatusCode::InvalidArguments`,
    meilisearch's `error_code()` arm `Code::DatabaseSizeLimitReached`, which its users read
    as `database_size_limit_reached`; reading 311 found it in `reach.json` and not in the
    record), by its variant's name as SPEC 4 names a code; None without one (a panic has
    none: no error value carries it, and the reach gives it none). A fact of the repository,
    like `httpStatus`'s: `_located` recomputes it at each commit."""
    reach = context.reach
    if reach is None or not reach.code:
        return None
    return reach.code.rsplit("::", 1)[-1] or None
