"""Where a repository comes from: a local clone, a bare mirror, or a git URL cloned into the cache.

Repositories are untrusted (SPEC section 2). The contract kept here:
- every git call runs with a fixed, safe environment (`_ENV`, `_GIT_OPTIONS`): no system or
  global config, no prompts, no hooks, no `ext::` or other transports outside the allow list,
  no lazy fetch of objects missing from a partial clone, no submodule recursion;
- no work tree is ever checked out; files are read as blobs from the object database;
- a local SOURCE is never read through its own git dir: `open_source` builds a small "shim" git
  dir that we own (our config; the source's objects through `objects/info/alternates`; its refs
  through symlinks). The source's config (hooks, fsmonitor, filters, promisor remotes, ...) is
  therefore never consulted, and an object missing from a partial clone reads as missing;
- a git URL is cloned once (bare, no submodules) into the cache and fetched on later runs.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
from pathlib import Path

from git.exc import GitCommandError

from pipeline.source.gitcmd import (
    ALLOWED_SCHEMES,
    ORIGIN_FILE,
    SHA_RE,
    SourceError,
    git_reason,
    redact,
    run_git,
)
from pipeline.source.identifiers import words_in_tree
from pipeline.source.objects import (  # re-exported: callers read a repository through `source`
    BlobReader,
    Listing,
    Skipped,
    TreeEntry,
    list_files,
    resolve_commit,
    word_in_code,
    word_in_tree,
)

log = logging.getLogger(__name__)

# `.github` is a dataset; `.x.staging-1`, `.x.spare`, `.x.trash-1` are errdoc's own directories.
_DOT_NAME = re.compile(r"\.[A-Za-z0-9_-]+")
_REPO_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")
_SCHEME_RE = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_SCP_RE = re.compile(r"(?:[^@/:\s]+@)?([^@/:\s]+):(?!//)")


def validate_repo_name(repo: str) -> str:
    """Return `repo` if it is a GitHub-style 'owner/name', else raise SourceError."""
    name = repo.partition("/")[2]
    if not _REPO_RE.fullmatch(repo) or name in (".", "..") or name.endswith(".git"):
        raise SourceError(
            f"REPO {repo!r} is not of the form owner/name (e.g. risingwavelabs/risingwave)"
        )
    if name.startswith(".") and not _DOT_NAME.fullmatch(name):
        raise SourceError(
            f"REPO {repo!r}: a name starting with '.' may hold no other '.' "
            "(errdoc's staging, trash and spare directories are named so); `org/.github` is fine"
        )
    return repo


# --- where the repository comes from -------------------------------------------------------


def _classify_url(source: str) -> str | None:
    """Return the scheme when `source` is a git URL git would accept; raise for refused ones."""
    if "::" in source:
        raise SourceError(
            f"SOURCE {redact(source)!r} uses a '<transport>::' remote helper, which is refused; "
            "pass a local clone or an https/ssh/git/file URL"
        )
    if m := _SCHEME_RE.match(source):
        scheme = m.group(1).lower()
        if scheme not in ALLOWED_SCHEMES:
            raise SourceError(
                f"SOURCE {redact(source)!r} uses transport {scheme!r}; "
                f"allowed are {', '.join(ALLOWED_SCHEMES)}"
            )
        host = source[m.end() :].partition("/")[0].rpartition("@")[2]
        if host.startswith("-"):
            raise SourceError(f"SOURCE {redact(source)!r} has a host starting with '-'; refused")
        return scheme
    if (m := _SCP_RE.match(source)) and not Path(source).exists():
        if m.group(1).startswith("-"):
            raise SourceError(f"SOURCE {source!r} has a host starting with '-'; refused")
        return "ssh"
    return None


def _common_dir(git_dir: Path) -> Path:
    """Where objects and refs live: the git dir itself, or the main one of a linked work tree."""
    pointer = git_dir / "commondir"
    if pointer.is_file():
        return (git_dir / pointer.read_text(encoding="utf-8").strip()).resolve()
    return git_dir


def _find_git_dir(path: Path) -> Path:
    """The git dir of a work-tree clone, a bare repo or a config-less mirror at `path`."""
    dot_git = path / ".git"
    if dot_git.is_file():  # a linked work tree or submodule: "gitdir: <path>" (followed once)
        text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
        path = (path / text.removeprefix("gitdir:").strip()).resolve()
    elif dot_git.is_dir():
        path = dot_git
    common = _common_dir(path)
    if (path / "HEAD").is_file() and (common / "objects").is_dir() and (common / "refs").is_dir():
        return path
    raise SourceError(
        f"SOURCE {str(path)!r} is not a git repository (no HEAD, objects/ and refs/); "
        "pass a local clone, a bare repo or a git URL"
    )


def _build_shim(repo: str, git_dir: Path, cache_dir: Path) -> Path:
    """A git dir of our own that reads the source's objects and refs and none of its config."""
    common = _common_dir(git_dir)
    config = common / "config"
    text = config.read_text(encoding="utf-8", errors="replace") if config.is_file() else ""
    if re.search(r"^\s*objectformat\s*=\s*(?!sha1\b)", text, re.IGNORECASE | re.MULTILINE):
        raise SourceError(f"SOURCE {str(git_dir)!r} uses sha256 object ids; errdoc reads sha1 only")
    objects = common / "objects"
    if any(c in str(objects) for c in '\n\r"') or not objects.is_absolute():
        raise SourceError(f"SOURCE path {str(objects)!r} cannot be read as an alternate; rename it")
    head = (git_dir / "HEAD").read_text(encoding="utf-8", errors="replace").strip()
    if not (SHA_RE.fullmatch(head) or re.fullmatch(r"ref: refs/\S+", head)):
        raise SourceError(f"SOURCE {str(git_dir)!r} has an unreadable HEAD; is it a git repo?")
    digest = hashlib.sha256(str(git_dir).encode()).hexdigest()[:12]
    owner, name = repo.split("/")
    shim = cache_dir / "sources" / f"{owner}+{name}-{digest}.git"
    (shim / "objects" / "info").mkdir(parents=True, exist_ok=True)
    _write(
        shim / "config",
        "[core]\n\trepositoryformatversion = 0\n\tbare = true\n\thooksPath = /dev/null\n",
    )
    _write(shim / "objects" / "info" / "alternates", f"{objects}\n")
    _write(shim / "HEAD", head + "\n")
    _write(shim / ORIGIN_FILE, f"{git_dir}\n")
    for part in ("refs", "packed-refs", "shallow"):
        link, target = shim / part, common / part
        if target.exists():  # replace atomically: a concurrent run may be reading refs
            tmp = shim / f".{part}.{os.getpid()}.tmp"
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(target)
            os.replace(tmp, link)
        elif link.is_symlink():
            link.unlink()
    return shim


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _clone_or_fetch(repo: str, url: str, cache_dir: Path) -> Path:
    """Keep a bare copy of `url` under cache_dir/repos: clone once, fetch on later calls.

    The copy is keyed by the URL as well as the name: a failed fetch of another URL for
    the same name must never fall back on the first URL's objects (issue 16).
    """
    owner, name = repo.split("/")
    digest = hashlib.sha256(url.encode()).hexdigest()[:12]
    target = cache_dir / "repos" / f"{owner}+{name}-{digest}.git"
    shown = redact(url)
    if (target / "HEAD").is_file():
        try:
            run_git(target, "fetch", "--prune", "--no-recurse-submodules", "--quiet", "origin")
        except GitCommandError as err:
            log.warning(
                "could not fetch %s (%s); going on with the cached copy", shown, git_reason(err)
            )
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        clone = ("clone", "--bare", "--no-recurse-submodules", "--quiet",
                 "--config", "core.hooksPath=/dev/null", "--", url, str(tmp))  # fmt: skip
        run_git(None, *clone, cwd=target.parent)
        for spec in ("+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"):
            run_git(tmp, "config", "--add", "remote.origin.fetch", spec)
        _write(tmp / ORIGIN_FILE, f"{shown}\n")
    except GitCommandError as err:
        shutil.rmtree(tmp, ignore_errors=True)
        raise SourceError(
            f"could not clone {shown}: {git_reason(err)}; "
            "check the URL or pass a local clone as SOURCE"
        ) from None
    try:
        os.rename(tmp, target)
    except OSError:  # another run finished the same clone first; theirs is as good as ours
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def open_source(repo: str, source: str | None, cache_dir: Path) -> Path:
    """Return the git dir to read for `repo`: a shim over a local SOURCE, or a cached bare clone."""
    validate_repo_name(repo)
    if source is None:
        source = f"https://github.com/{repo}.git"
    if not source or source.startswith("-") or any(ord(c) < 32 for c in source):
        raise SourceError(f"SOURCE {source!r} is not a path or URL errdoc accepts")
    if _classify_url(source) is not None:
        return _clone_or_fetch(repo, source, Path(cache_dir))
    path = Path(source).expanduser()
    if not path.exists():
        raise SourceError(f"SOURCE {source!r} does not exist; pass a local clone or a git URL")
    return _build_shim(repo, _find_git_dir(path.resolve()), Path(cache_dir))


__all__ = [
    "BlobReader",
    "Listing",
    "Skipped",
    "SourceError",
    "TreeEntry",
    "list_files",
    "open_source",
    "resolve_commit",
    "validate_repo_name",
    "word_in_code",
    "word_in_tree",
    "words_in_tree",
]
