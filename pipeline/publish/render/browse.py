"""Pages to browse: a repository's records by crate, failure class, severity and kind, and
each failure class across every repository, split so that no page grows past a reader's patience."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment

from pipeline.dataset.reader import page_path
from pipeline.dataset.summary import Summary
from pipeline.publish.render.pages import CSP, slugify

# 250 entries of ~330 bytes each keep a listing near 90 KB, far under the 300 KB limit
# even with long messages (an entry's message is cut to MESSAGE_CHARS)
PAGE_ENTRIES = 250
MESSAGE_CHARS = 200


@dataclass(frozen=True)
class Group:
    """Records that share one value of a facet (a crate, a class, a severity, a kind)."""

    slug: str
    title: str
    records: tuple[Summary, ...]


@dataclass(frozen=True)
class Facet:
    """One way of browsing a repository: its name, its directory, its groups."""

    name: str
    folder: str
    groups: tuple[Group, ...]


def crate_of(path: str) -> str:
    """The crate a file belongs to: the directory above its first `src/`, else its top directory."""
    head, sep, _ = path.partition("/src/")
    if sep and head:
        return head
    top, slash, _ = path.partition("/")
    return top if slash else "(top level)"


def _group(
    records: Iterable[Summary], key: Callable[[Summary], str], title: Callable[[str], str]
) -> tuple[Group, ...]:
    buckets: dict[str, list[Summary]] = defaultdict(list)
    for r in records:
        buckets[key(r)].append(r)
    groups = [Group(slugify(k), title(k), tuple(v)) for k, v in buckets.items()]
    return tuple(sorted(groups, key=lambda g: (-len(g.records), g.title)))


def facets(records: Sequence[Summary], class_title: Callable[[str], str]) -> tuple[Facet, ...]:
    """A repository's records grouped four ways, biggest group first."""

    def kind(r: Summary) -> str:
        return r.kind if r.kind is not None else "unknown"

    return (
        Facet("By crate or top directory", "crate", _group(records, lambda r: crate_of(r.filePath), str)),
        Facet("By failure class", "class", _group(records, lambda r: r.backgroundTag, class_title)),
        Facet("By severity", "severity", _group(records, lambda r: r.severity, str)),
        Facet("By kind of site", "kind", _group(records, kind, str)),
    )  # fmt: skip


def _cut(message: str) -> str:
    return message if len(message) <= MESSAGE_CHARS else message[:MESSAGE_CHARS].rstrip() + "…"


def entry(record: Summary, to_root: str, show_repo: bool) -> dict[str, str]:
    """One line of a listing: the message, where it is thrown, in which item."""
    where = f"{record.filePath}:{record.lineNumber}"
    if record.enclosingFn:  # only a provenance entry carries one
        where += f" in {record.enclosingFn}"
    return {
        "href": to_root + page_path(record),
        "message": _cut(record.errorMessage),
        "repo": record.repo if show_repo else "",
        "where": where,
        "severity": record.severity,
    }


def listing_pages(
    env: Environment,
    path: str,
    *,
    heading: str,
    summary: str,
    crumbs: list[tuple[str, str]],
    entries: Sequence[dict[str, str]],
    intro: str = "",
) -> Iterator[tuple[str, str]]:
    """Pages of one listing, PAGE_ENTRIES each: (`x.html`, `x-2.html`, ..., their HTML)."""
    depth = path.count("/")
    root = "../" * depth
    stem = path.rsplit("/", 1)[-1].removesuffix(".html")
    chunks = [entries[i : i + PAGE_ENTRIES] for i in range(0, len(entries), PAGE_ENTRIES)] or [[]]
    names = [f"{stem}.html" if n == 0 else f"{stem}-{n + 1}.html" for n in range(len(chunks))]
    folder = path.rsplit("/", 1)[0] + "/" if "/" in path else ""
    template = env.get_template("listing.html.j2")
    for n, chunk in enumerate(chunks):
        ctx: dict[str, Any] = {
            "root": root,
            "csp": CSP,
            "heading": heading,
            "summary": summary,
            "intro": intro,
            "crumbs": [(root + href, text) for href, text in crumbs],
            "entries": chunk,
            "page": n + 1,
            "pages": len(chunks),
            "prev": names[n - 1] if n else None,
            "next": names[n + 1] if n + 1 < len(chunks) else None,
        }
        yield folder + names[n], template.render(ctx)


def _ordered(records: Iterable[Summary]) -> list[Summary]:
    """Listings go by repository, file and line, the way a reader of the code meets them."""
    return sorted(records, key=lambda r: (r.repo, r.filePath, r.lineNumber, r.id))


RETIRED_ON_INDEX = 20


def repo_pages(
    env: Environment,
    repo: str,
    summary: str,
    records: Sequence[Summary],
    class_title: Callable[[str], str],
    retired: Sequence[dict[str, str]],
    write: Callable[[str, str], None],
) -> None:
    """A repository's index (its facets) and one listing per group, each page written as made."""
    shown: list[dict[str, Any]] = []
    for facet in facets(records, class_title):
        groups = []
        for g in facet.groups:
            rel = f"{facet.folder}/{g.slug}.html"
            entries = [entry(r, "../../../", False) for r in _ordered(g.records)]
            pages = listing_pages(
                env,
                f"{repo}/{rel}",
                heading=g.title,
                summary=f"{len(g.records)} error records of {repo}: {facet.name.lower()}.",
                crumbs=[(f"{repo}/index.html", repo)],
                entries=entries,
            )
            for path, html in pages:
                write(path, html)
            groups.append({"title": g.title, "href": rel, "count": len(g.records), "note": ""})
        shown.append({"id": facet.folder, "name": facet.name, "groups": groups})
    own = repo + "/"
    retired_here = [e | {"href": e["href"].removeprefix(own)} for e in retired]
    more = ""
    if len(retired) > RETIRED_ON_INDEX:
        more = "retired.html"
        entries = [
            {"href": "../../" + e["href"], "message": _cut(e["message"]), "repo": "",
             "where": f"no longer emitted since {e['since']}", "severity": "retired"}
            for e in retired
        ]  # fmt: skip
        for path, html in listing_pages(
            env,
            f"{repo}/retired.html",
            heading=f"No longer emitted in {repo}",
            summary=f"{len(retired)} records whose site is gone; their pages stay.",
            crumbs=[(f"{repo}/index.html", repo)],
            entries=entries,
        ):
            write(path, html)
    index = env.get_template("index.html.j2").render(
        root="../../",
        csp=CSP,
        heading=repo,
        repo=repo,
        summary=summary,
        repos=[],
        facets=shown,
        retired=retired_here[:RETIRED_ON_INDEX],
        retired_more=more,
        retired_total=len(retired),
    )
    write(f"{repo}/index.html", index)


def libraries(n: int) -> str:
    """`across 1 library`, `across 31 libraries`: the reference page's words."""
    return f"across {n} {'library' if n == 1 else 'libraries'}"


def class_pages(
    env: Environment,
    records: Sequence[Summary],
    klass: Callable[[str], tuple[str, str]],
    write: Callable[[str, str], None],
) -> list[dict[str, Any]]:
    """One listing per failure class over every repository (written), and the home page's list."""
    groups: list[dict[str, Any]] = []
    for g in _group(records, lambda r: r.backgroundTag, lambda t: klass(t)[0]):
        repos = len({r.repo for r in g.records})
        tag = g.records[0].backgroundTag
        entries = [entry(r, "../", True) for r in _ordered(g.records)]
        for path, html in listing_pages(
            env,
            f"classes/{slugify(tag)}.html",
            heading=f"“{g.title}” errors",
            summary=f"{len(g.records)} error records {libraries(repos)}.",
            intro=klass(tag)[1],
            crumbs=[],
            entries=entries,
        ):
            write(path, html)
        groups.append(
            {
                "title": g.title,
                "href": f"classes/{slugify(tag)}.html",
                "count": len(g.records),
                "note": libraries(repos),
            }
        )
    return groups
