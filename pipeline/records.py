"""From a site in its context to the published record (SPEC 4). Pure."""

from __future__ import annotations

from pipeline.context import SiteContext, error_type, severity
from pipeline.formats import slugify
from pipeline.model import Explanation, Record


def github_url(repo: str, sha: str, path: str, start: int, end: int) -> str:
    """The pinned link to the window."""
    return f"{github_tree(repo, sha)}/{path}#L{start}-L{end}"


def github_tree(repo: str, sha: str) -> str:
    """What every `githubUrl` of a version starts with."""
    return f"https://github.com/{repo}/blob/{sha}"


def build_record(
    context: SiteContext, explanation: Explanation, analyzed_at: str, changed_at: str
) -> Record:
    """The published record of one site."""
    site = context.site
    end = context.window_start + context.window.count("\n")
    return Record(
        id=context.record_id,
        repo=context.repo,
        slug=slugify(site.message),
        errorCode=site.error_code,
        errorMessage=site.message,
        messagePattern=context.message_pattern,
        errorType=error_type(site),
        errorClass=context.error_class,
        httpStatus=site.http_status,
        severity=severity(site),
        filePath=site.file_path,
        lineNumber=site.line,
        sourceCode=context.window,
        sourceCodeStart=context.window_start,
        sourceCodeEnd=end,
        githubUrl=github_url(context.repo, context.sha, site.file_path, context.window_start, end),
        **explanation.model_dump(),
        analyzedSha=context.sha,
        analyzedAt=analyzed_at,
        contentChangedAt=changed_at,
        schemaVersion=2,
    )


def relocated(old: Record, context: SiteContext) -> Record:
    """An unchanged site's previous record at its new place and commit (SPEC 7).

    Content hash equal means message, pattern and window are equal, so only the
    location fields move; the derived fields are recomputed because they also depend
    on things outside the window (an alias in another file). No re-validation: every
    value comes from a validated record or from this module.
    """
    site = context.site
    end = context.window_start + context.window.count("\n")
    return old.model_copy(
        update={
            "lineNumber": site.line,
            "sourceCodeStart": context.window_start,
            "sourceCodeEnd": end,
            "githubUrl": github_url(
                context.repo, context.sha, site.file_path, context.window_start, end
            ),
            "analyzedSha": context.sha,
            "errorClass": context.error_class,
            "errorCode": site.error_code,
            "errorType": error_type(site),
            "severity": severity(site),
            "httpStatus": site.http_status,
        }
    )
