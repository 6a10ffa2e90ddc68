"""What one page shows: a pure view of a record (highlighted window, safe links, labels)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import RustLexer

from pipeline.analyze.reach_text import built_when_text, callee_builds_text, failed_call_text
from pipeline.core.model import Record, Retired
from pipeline.core.reach import PATH_DEPTH, Reach, guard_parts, no_entry_note
from pipeline.dataset.reader import page_path
from pipeline.dataset.summary import Summary
from pipeline.publish.render.related import ClassCount

SHORT_SHA = 10  # as the seed page shows it (`6469eb736d`)
TITLE_CHARS = 60  # the seed page's title and related links cut the message here
SAME_MESSAGE_SHOWN = 20  # other places of the same message a page links; the rest counted
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'self'"
)
_LEXER = RustLexer(stripnl=False, ensurenl=True)
_FORMATTER = HtmlFormatter(nowrap=True)
_UNSAFE_URL = re.compile(r"[\x00-\x20\x7f\"'<>\\`]")


@dataclass(frozen=True)
class Line:
    """One line of the source window, highlighted (Pygments escapes every token)."""

    number: int
    html: Markup
    thrown: bool


@dataclass(frozen=True)
class Link:
    """A related error: its shortened message and its page, relative to this page."""

    title: str
    href: str


_SLUG = re.compile(r"[^a-z0-9]+")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def slugify(text: str) -> str:
    """A file-name-safe slug (`src/meta` -> `src-meta`, a class tag stays itself)."""
    return _SLUG.sub("-", text.lower()).strip("-") or "other"


def inline_code(text: str) -> Markup:
    """Escape `text`, then show its `backticked` spans as <code> (the escape runs first)."""
    escaped = str(Markup.escape(text))
    return Markup(_CODE_SPAN.sub(r"<code>\1</code>", escaped))


def pygments_css() -> str:
    """Class-based highlighting rules for `static/pygments.css`."""
    return str(_FORMATTER.get_style_defs(".highlight"))  # type: ignore[no-untyped-call]


def safe_url(url: str) -> str | None:
    """The URL when it is an absolute http(s) link with nothing odd in it, else None."""
    if _UNSAFE_URL.search(url):
        return None
    parts = urlsplit(url)
    return url if parts.scheme in ("http", "https") and parts.netloc else None


def short_title(message: str) -> str:
    """The message cut to the seed page's title length."""
    return message if len(message) <= TITLE_CHARS else message[:TITLE_CHARS].rstrip() + "…"


def window_lines(record: Record) -> list[Line]:
    """The source window, one highlighted line each, the thrown line marked."""
    source = record.sourceCode.split("\n")
    html = highlight(record.sourceCode, _LEXER, _FORMATTER).split("\n")
    if len(html) < len(source):  # never expected; keep every line visible anyway
        html += [""] * (len(source) - len(html))
    return [
        Line(
            record.sourceCodeStart + i,
            Markup(html[i]),
            record.sourceCodeStart + i == record.lineNumber,
        )
        for i in range(len(source))
    ]


def highlighted(code: str) -> Markup:
    """An example fix or snippet highlighted as Rust (Pygments escapes every token)."""
    return Markup(highlight(code, _LEXER, _FORMATTER).rstrip("\n"))


def distinct_links(record: Record, related: list[Summary]) -> list[Link]:
    """Related errors titled so that none reads like another or like this page's own title."""
    own = record.repo + "/"
    titles = [short_title(r.errorMessage) for r in related]
    seen = Counter([*titles, short_title(record.errorMessage)])
    links = []
    for r, title in zip(related, titles, strict=True):
        if seen[title] > 1:  # `invalid state` five times says nothing: say where each is
            title = f"{title} — {r.filePath}:{r.lineNumber}"
        links.append(Link(title, page_path(r).removeprefix(own)))
    return links


def same_message_links(record: Record, group: Sequence[Summary]) -> tuple[list[Link], int]:
    """The other places of the repository that write this record's message word for word
    (`related.same_message`), each titled by its file, line and fn, the first
    SAME_MESSAGE_SHOWN of them; and how many more there are."""
    own = record.repo + "/"
    # the first places but this one: a page reads as many of its group as it shows, so a
    # message written n times costs n pages of ~20 reads, not n x n
    shown = [r for r in group[: SAME_MESSAGE_SHOWN + 1] if r.id != record.id][:SAME_MESSAGE_SHOWN]
    links = [
        Link(
            f"{r.filePath}:{r.lineNumber}" + (f" in {r.enclosingFn}" if r.enclosingFn else ""),
            page_path(r).removeprefix(own),
        )
        for r in shown
    ]
    return links, max(len(group) - 1, 0) - len(links)


def analysis_label(analyzer: str | None, status: str | None) -> str:
    """The footer's name for how the explanation was produced (analyzer None: no provenance)."""
    if analyzer is None:
        return "Analysis"
    if analyzer == "llm" and status == "ok":
        return "AI-assisted analysis"
    return "Static analysis"


def _guard_words(guard: str | None) -> tuple[str, str] | None:
    """A hop's `Hop.guard` as the page says it: ("inside", "if opts.list_details"), ("in
    the else of", "if opts.full_path"), ("in the arm", "Mode::Fast") of `match mode`."""
    if guard is None:
        return None
    kind, condition = guard_parts(guard)
    if kind == "else":
        return "in the else of", f"if {condition}"
    if kind == "match_arm":
        return "in the arm", condition
    return "inside", f"if {condition}"


def reach_context(record: Record, reach: Reach | None) -> dict[str, Any]:
    """The "How you get here" section: paths with a pinned link per hop, condition sources."""
    if reach is None:
        return {
            "reach_paths": [], "reach_sources": [], "reach_conversion": None, "reach_built": None,
            "reach_converts": None, "reach_initialized": None,
            "reach_entries": None, "reach_built_when": None, "reach_callee_build": None,
            "reach_failed_call": None,
        }  # fmt: skip
    base = f"https://github.com/{record.repo}/blob/{record.analyzedSha}/"

    def pinned(path: str | None, line: int | None) -> str | None:
        if not path or not isinstance(line, int):
            return None
        return safe_url(f"{base}{quote(path, safe='/')}#L{line}")  # `#`, spaces, bidi: encoded

    paths = [
        {
            "label": p.entry_label or f"`{p.hops[0].name}` ({no_entry_note(p, named=False)})",
            "hops": [
                {
                    "name": h.name,
                    "href": pinned(h.file_path, h.line),
                    "where": f"{h.file_path}:{h.line}",
                    "signature": h.signature,
                    "rpc": h.resolution == "rpc",
                    "conversion": h.resolution == "conversion",
                    "message": h.resolution == "message",
                    "iterator": h.resolution == "iterator",
                    "extractor": h.resolution == "extractor",
                    "guess": h.resolution == "name" or bool(h.candidates),
                    "candidates": ", ".join(h.candidates),
                    "via": h.via,
                    "impls": h.impls,
                    "call_href": pinned(h.file_path, h.call_line),
                    "call_line": h.call_line,
                    "unwraps": h.unwraps,
                    "guard": _guard_words(h.guard),
                    "arm_built": {
                        "count": h.arm_built.count,
                        "builders": [
                            {"name": b.name, "href": pinned(b.file_path, b.line)}
                            for b in h.arm_built.builders
                        ],
                    }
                    if h.arm_built
                    else None,
                    "also": [(n, pinned(h.file_path, n)) for n in h.also_at],
                    "builds": bool(reach.built) and n == len(p.hops) - 1,
                    "uses": bool(reach.initialized) and n == len(p.hops) - 1,
                }
                for n, h in enumerate(p.hops)
            ],
        }
        for p in reach.paths
    ]
    sources = [
        {
            "name": d.name,
            "kind": d.kind,
            "text": d.text,
            "doc": d.doc,
            "setter": d.setter,
            "href": pinned(d.file_path, d.line),
            "passed": [
                {"caller": h.caller, "argument": h.argument, "href": pinned(h.file_path, h.line)}
                for h in d.passed
            ],
        }
        for d in reach.dependencies
    ]
    return {
        "reach_paths": paths,
        "reach_sources": sources,
        "reach_conversion": reach.conversion,
        "reach_built": reach.built,
        "reach_converts": reach.converts,
        "reach_built_when": inline_code(built_when_text(reach)) if reach.built_when else None,
        "reach_callee_build": (
            inline_code(callee_builds_text(reach.callee_builds)) if reach.callee_builds else None
        ),
        "reach_failed_call": (
            inline_code(failed_call_text(reach.failed_call)) if reach.failed_call else None
        ),
        "reach_initialized": reach.initialized,
        "reach_entries": reach.entries,
        "reach_depth": PATH_DEPTH,
    }


def record_context(
    record: Record,
    *,
    analysis: str,
    retired: Retired | None,
    related: list[Summary],
    klass: tuple[str, str],
    count: ClassCount,
    reach: Reach | None = None,
    same: Sequence[Summary] = (),
) -> dict[str, Any]:
    """Template variables of one record page (`record.html.j2`)."""
    same_links, same_more = same_message_links(record, same)
    snippets = [
        (label, highlighted(text))
        for label, text in (
            ("Check before the call", record.validationCode),
            ("Type guard", record.typeGuard),
            ("Handling at the call site", record.tryCatchPattern),
        )
        if text
    ]
    return {
        "root": "../../",
        "csp": CSP,
        "r": record,
        "title": short_title(record.errorMessage),
        "lines": window_lines(record),
        "github_url": safe_url(record.githubUrl),
        "sha_short": record.analyzedSha[:SHORT_SHA],
        "snippets": snippets,
        "klass_title": klass[0],
        "klass_description": klass[1],
        "klass_repos": count.repositories,
        "klass_records": count.records,
        "related": distinct_links(record, related),
        "same_message": same_links,
        "same_more": same_more,
        "example_fix": highlighted(record.exampleFix),
        "klass_href": f"../../classes/{slugify(record.backgroundTag)}.html",
        "analysis": analysis,
        "date": record.analyzedAt[:10],
        "api_href": f"../../api/errors/{record.id}.json",
        "api_path": f"/api/errors/{record.id}",
        "issues_url": safe_url(f"https://github.com/{record.repo}/issues"),
        "retired": retired,
        "retired_since": retired.since[:SHORT_SHA] if retired else "",
        **reach_context(record, reach),
    }


def stub_context(repo: str, retired: Retired) -> dict[str, Any]:
    """Template variables of a retired record whose last body is not on disk."""
    return {
        "root": "../../",
        "csp": CSP,
        "repo": repo,
        "message": retired.errorMessage,
        "title": short_title(retired.errorMessage),
        "retired": retired,
        "retired_since": retired.since[:SHORT_SHA],
    }


def class_of(tag: str, taxonomy: Mapping[str, Any]) -> tuple[str, str]:
    """Title and description of a failure class; the slug itself when it is unknown."""
    fc = taxonomy.get(tag)
    if fc is None:
        return tag.replace("-", " ").capitalize(), ""
    return str(fc.title), str(fc.description)
