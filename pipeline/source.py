"""Everything errdoc knows about git: where a repository comes from and what is in it at a commit.

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

import contextlib
import hashlib
import logging
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import TracebackType
from typing import Any

from git.cmd import Git
from git.exc import GitCommandError

from pipeline.globs import compile_filter

log = logging.getLogger(__name__)

ALLOWED_SCHEMES = ("https", "http", "ssh", "git", "file")
_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_ASKPASS": "/bin/true",
    "SSH_ASKPASS": "/bin/true",
    "GIT_ALLOW_PROTOCOL": ":".join(ALLOWED_SCHEMES),
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "GIT_PAGER": "cat",
    "GIT_EDITOR": "/bin/false",
}
_GIT_OPTIONS = (
    "-c", "core.hooksPath=/dev/null",
    "-c", "protocol.ext.allow=never",
    "-c", "submodule.recurse=false",
    "-c", "core.fsmonitor=false",
    "-c", "credential.helper=",
    "--no-pager",
)  # fmt: skip
_ORIGIN_FILE = "errdoc-origin"  # in the git dirs we own: the SOURCE it stands for
_SHA_RE = re.compile(r"[0-9a-f]{40}")
_REPO_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")
_SCHEME_RE = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_SCP_RE = re.compile(r"(?:[^@/:\s]+@)?([^@/:\s]+):(?!//)")


class SourceError(Exception):
    """One-line, user-facing: says what is wrong and what to do."""


@dataclass(frozen=True, slots=True)
class TreeEntry:
    path: str
    blob_sha: str
    size: int


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    reason: str  # 'symlink', 'submodule', 'too-large', 'missing-blob', 'non-utf8-path'


@dataclass(frozen=True, slots=True)
class Listing:
    entries: tuple[TreeEntry, ...]
    skipped: tuple[Skipped, ...]


def _env() -> dict[str, str]:
    env = dict(_ENV)
    # Keep a user's own ssh command; otherwise never let ssh stop to ask anything.
    env.setdefault("GIT_SSH_COMMAND", os.environ.get("GIT_SSH_COMMAND", "ssh -o BatchMode=yes"))
    return env


def _cmd(git_dir: Path | None, *args: str) -> list[str]:
    base = [Git.GIT_PYTHON_GIT_EXECUTABLE or "git", *_GIT_OPTIONS]
    if git_dir is not None:
        base.append(f"--git-dir={git_dir}")
    return [*base, *args]


def _run(git_dir: Path | None, *args: str, cwd: Path | None = None) -> bytes:
    """Run one git command safely and return its stdout; GitCommandError on failure."""
    # Run inside a directory of ours, never the user's cwd (which may sit in a hostile work tree).
    out: bytes = Git(str(cwd or git_dir)).execute(
        _cmd(git_dir, *args), stdout_as_string=False, strip_newline_in_stdout=False, env=_env()
    )
    return out


def _git_reason(err: GitCommandError) -> str:
    """The line of git's stderr that says what failed, for a one-line message."""
    stderr = err.stderr if isinstance(err.stderr, str) else str(err.stderr or "")
    lines = [
        ln.strip().removeprefix("stderr:").strip().strip("'").strip() for ln in stderr.splitlines()
    ]
    lines = [ln for ln in lines if ln]
    fatal = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
    reason = (fatal or lines or [f"git exited with {err.status}"])[0]
    return _redact(reason.removeprefix("fatal:").removeprefix("error:").strip())


def _origin(git_dir: Path) -> str:
    """What the user passed as SOURCE for this git dir, for messages."""
    marker = git_dir / _ORIGIN_FILE
    return marker.read_text(encoding="utf-8").strip() if marker.is_file() else str(git_dir)


def _redact(text: str) -> str:
    """Hide credentials written into a URL (https://user:token@host)."""
    return re.sub(r"(://)[^/@\s]+@", r"\1***@", text)


def validate_repo_name(repo: str) -> str:
    """Return `repo` if it is a GitHub-style 'owner/name', else raise SourceError."""
    name = repo.partition("/")[2]
    if not _REPO_RE.fullmatch(repo) or name in (".", "..") or name.endswith(".git"):
        raise SourceError(
            f"REPO {repo!r} is not of the form owner/name (e.g. risingwavelabs/risingwave)"
        )
    return repo


# --- where the repository comes from -------------------------------------------------------


def _classify_url(source: str) -> str | None:
    """Return the scheme when `source` is a git URL git would accept; raise for refused ones."""
    if "::" in source:
        raise SourceError(
            f"SOURCE {_redact(source)!r} uses a '<transport>::' remote helper, which is refused; "
            "pass a local clone or an https/ssh/git/file URL"
        )
    if m := _SCHEME_RE.match(source):
        scheme = m.group(1).lower()
        if scheme not in ALLOWED_SCHEMES:
            raise SourceError(
                f"SOURCE {_redact(source)!r} uses transport {scheme!r}; "
                f"allowed are {', '.join(ALLOWED_SCHEMES)}"
            )
        host = source[m.end() :].partition("/")[0].rpartition("@")[2]
        if host.startswith("-"):
            raise SourceError(f"SOURCE {_redact(source)!r} has a host starting with '-'; refused")
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
    if not (_SHA_RE.fullmatch(head) or re.fullmatch(r"ref: refs/\S+", head)):
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
    _write(shim / _ORIGIN_FILE, f"{git_dir}\n")
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
    """Keep a bare copy of `url` under cache_dir/repos: clone once, fetch on later calls."""
    owner, name = repo.split("/")
    target = cache_dir / "repos" / f"{owner}+{name}.git"
    shown = _redact(url)
    if (target / "HEAD").is_file():
        try:
            _run(target, "config", "remote.origin.url", url)
            _write(target / _ORIGIN_FILE, f"{shown}\n")
            _run(target, "fetch", "--prune", "--no-recurse-submodules", "--quiet", "origin")
        except GitCommandError as err:
            log.warning(
                "could not fetch %s (%s); going on with the cached copy", shown, _git_reason(err)
            )
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        clone = ("clone", "--bare", "--no-recurse-submodules", "--quiet",
                 "--config", "core.hooksPath=/dev/null", "--", url, str(tmp))  # fmt: skip
        _run(None, *clone, cwd=target.parent)
        for spec in ("+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"):
            _run(tmp, "config", "--add", "remote.origin.fetch", spec)
        _write(tmp / _ORIGIN_FILE, f"{shown}\n")
    except GitCommandError as err:
        shutil.rmtree(tmp, ignore_errors=True)
        raise SourceError(
            f"could not clone {shown}: {_git_reason(err)}; "
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


# --- what is in it at a commit --------------------------------------------------------------


def _check_rev(rev: str) -> None:
    if (
        not rev
        or len(rev) > 256
        or rev.startswith("-")
        or ".." in rev
        or any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in rev)
    ):
        raise SourceError(f"SHA {rev!r} is not a valid revision; pass a commit sha, tag or branch")


def resolve_commit(git_dir: Path, rev: str) -> str:
    """Resolve a short sha, tag, branch or full sha to the full 40-hex commit (tags peeled)."""
    _check_rev(rev)
    try:
        out = _run(git_dir, "rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}")
    except GitCommandError as err:
        reason = _git_reason(err).replace("Needed a single revision", "no such commit")
        raise SourceError(
            f"SHA {rev!r} is not a commit in {_origin(git_dir)}: {reason}; "
            "pass a commit sha, tag or branch that exists there"
        ) from None
    sha = out.decode("ascii", "replace").strip()
    if not _SHA_RE.fullmatch(sha):
        raise SourceError(f"SHA {rev!r} did not resolve to a commit in {_origin(git_dir)}")
    return sha


def commit_exists(git_dir: Path, sha: str) -> bool:
    """True if `sha` names a commit present in the repository."""
    try:
        _check_rev(sha)
        _run(git_dir, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{sha}^{{commit}}")
    except (SourceError, GitCommandError):
        return False
    return True


def newest_commit_time(git_dir: Path, sha: str) -> str:
    """The committer date of commit `sha` as ISO-8601 with its UTC offset."""
    commit = resolve_commit(git_dir, sha)
    # Parse the raw object ourselves: `git log`/`show` would obey hostile log.showSignature.
    raw = _run(git_dir, "cat-file", "commit", commit).decode("utf-8", "replace")
    for line in raw.split("\n\n", 1)[0].splitlines():
        if line.startswith("committer "):
            stamp, offset = line.rsplit(" ", 2)[1:]
            sign = -1 if offset.startswith("-") else 1
            try:  # a hostile commit may carry any bytes here
                hours, minutes = int(offset[1:3]), int(offset[3:5])
                tz = timezone(sign * timedelta(hours=hours, minutes=minutes))
                return datetime.fromtimestamp(int(stamp), tz).isoformat()
            except (ValueError, OverflowError, OSError):
                break
    raise SourceError(f"commit {commit} in {_origin(git_dir)} has no readable committer date")


def list_files(
    git_dir: Path,
    commit: str,
    *,
    suffix: str = ".rs",
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    max_bytes: int = 2_000_000,
) -> Listing:
    """List the regular files at `commit` that end with `suffix` and pass the globs."""
    if not _SHA_RE.fullmatch(commit):
        commit = resolve_commit(git_dir, commit)
    wanted = compile_filter(include, exclude)
    try:
        out = _run(git_dir, "ls-tree", "-r", "-l", "-z", "--full-tree", commit)
    except GitCommandError as err:
        raise SourceError(
            f"cannot list the tree of {commit} in {_origin(git_dir)}: {_git_reason(err)}"
        ) from None
    entries: list[TreeEntry] = []
    skipped: list[Skipped] = []
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, _kind, sha, size = meta.decode("ascii", "replace").split()
        try:
            path = raw_path.decode("utf-8")
        except UnicodeDecodeError:
            path = raw_path.decode("utf-8", "backslashreplace")
            if path.endswith(suffix) and wanted(path):
                skipped.append(Skipped(path, "non-utf8-path"))
            continue
        if mode == "160000":  # a gitlink may hold source files, so judge it by the globs alone
            if wanted(path):
                skipped.append(Skipped(path, "submodule"))
            continue
        if not path.endswith(suffix) or not wanted(path):
            continue
        if mode == "120000":
            skipped.append(Skipped(path, "symlink"))
        elif not mode.startswith("100"):
            continue
        elif not size.isdigit():  # ls-tree prints no size for an object it cannot find
            skipped.append(Skipped(path, "missing-blob"))
        elif int(size) > max_bytes:
            skipped.append(Skipped(path, "too-large"))
        else:
            entries.append(TreeEntry(path, sha, int(size)))
    return Listing(tuple(entries), tuple(skipped))


# Requests written at once stay well under a pipe's 64 KiB, so git never blocks on them.
_BATCH = 512


class BlobReader:
    """Reads blobs by id through one persistent `git cat-file --batch`; picklable, starts lazily."""

    def __init__(self, git_dir: Path) -> None:
        self.git_dir = Path(git_dir)
        self._proc: Any = None

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __getstate__(self) -> dict[str, Path]:
        return {"git_dir": self.git_dir}

    def __setstate__(self, state: dict[str, Path]) -> None:
        self.git_dir = state["git_dir"]
        self._proc = None

    def _process(self) -> Any:
        if self._proc is None:
            self._proc = Git(str(self.git_dir)).execute(
                _cmd(self.git_dir, "cat-file", "--batch"),
                istream=subprocess.PIPE,
                as_process=True,
                env=_env(),
            )
        return self._proc

    def read(self, blob_sha: str) -> bytes | None:
        """The blob's bytes, or None when it is missing (partial clone) or not a blob."""
        if not _SHA_RE.fullmatch(blob_sha):
            raise ValueError(f"not a full blob id: {blob_sha!r}")
        proc = self._process()
        try:
            proc.stdin.write(blob_sha.encode("ascii") + b"\n")
            proc.stdin.flush()
            return self._answer(proc)
        except (BrokenPipeError, EOFError) as err:
            # git died (a corrupt object is fatal to cat-file); the next read starts afresh.
            log.warning(
                "git cat-file stopped while reading %s in %s: %s", blob_sha, self.git_dir, err
            )
            self.close()
            return None

    def read_many(self, blob_shas: Sequence[str]) -> list[bytes | None]:
        """`read` for several blobs, with one write of all the requests (fewer round trips)."""
        answers: list[bytes | None] = []
        for start in range(0, len(blob_shas), _BATCH):
            batch = blob_shas[start : start + _BATCH]
            if any(not _SHA_RE.fullmatch(sha) for sha in batch):
                raise ValueError(f"not a full blob id among {batch!r}")
            proc = self._process()
            try:
                proc.stdin.write(b"".join(sha.encode("ascii") + b"\n" for sha in batch))
                proc.stdin.flush()
                answers.extend(self._answer(proc) for _ in batch)
            except (BrokenPipeError, EOFError):
                self.close()  # fall back to one at a time: `read` logs and skips the bad one
                answers.extend(self.read(sha) for sha in batch[len(answers) - start :])
        return answers

    @staticmethod
    def _answer(proc: Any) -> bytes | None:
        header = proc.stdout.readline()
        if not header:
            raise EOFError("no answer")
        fields = header.split()
        if len(fields) != 3:  # "<sha> missing" / "<sha> ambiguous"
            return None
        size = int(fields[2])
        data: bytes = proc.stdout.read(size)
        if len(data) != size or proc.stdout.read(1) != b"\n":
            raise EOFError("short read")
        return data if fields[1] == b"blob" else None

    def close(self) -> None:
        """Stop the cat-file process, if one is running."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            proc.stdin.close()
        with contextlib.suppress(Exception):
            proc.proc.wait(timeout=5)
        with contextlib.suppress(Exception):
            proc.proc.kill()


def word_in_tree(git_dir: Path, commit: str, word: str) -> bool:
    """Whether `word` occurs as a whole word in any `.rs` file at `commit` (`git grep`)."""
    if not word or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_:]*", word):
        return False
    try:
        _run(git_dir, "grep", "-q", "-F", "-w", "-e", word, commit, "--", "*.rs")
    except GitCommandError:
        return False  # exit status 1: not found
    return True
