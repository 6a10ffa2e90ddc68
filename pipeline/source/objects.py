"""What is in a repository at a commit: the commit itself, its `.rs` files, their blobs.

Files are read as blobs straight from the object database (no checkout): exact,
fast, safe, and an object missing from a partial clone reads as missing.
"""

from __future__ import annotations

import contextlib
import logging
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from git.cmd import Git
from git.exc import GitCommandError

from pipeline.core.macros import NO_MACROS, ErrorMacros
from pipeline.source.gitcmd import (
    SHA_RE,
    SourceError,
    git_command,
    git_env,
    git_reason,
    origin_of,
    run_git,
)
from pipeline.source.globs import compile_filter

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TreeEntry:
    path: str
    blob_sha: str
    size: int


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    # 'symlink', 'submodule', 'too-large', 'missing-blob', 'non-utf8-path', and a language's
    # 'not-compiled' (`collect.compiled_only`: no build compiles the file)
    reason: str


@dataclass(frozen=True, slots=True)
class Listing:
    entries: tuple[TreeEntry, ...]
    skipped: tuple[Skipped, ...]
    # the build manifests asked for by file name (`Cargo.toml`), wherever they are and
    # whatever the globs say: listed in the same pass over the tree
    manifests: tuple[TreeEntry, ...] = ()
    # the repository's own error macros at the commit (`scan.collect.locate`), which its
    # scan reads: an invocation of one is a site
    macros: ErrorMacros = NO_MACROS


# what is in it at a commit --------------------------------------------------------------


def _check_rev(rev: str, option: str) -> None:
    if (
        not rev
        or len(rev) > 256
        or rev.startswith("-")
        or ".." in rev
        or any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in rev)
    ):
        raise SourceError(
            f"{option} {rev!r} is not a valid revision; pass a commit sha, tag or branch"
        )


def resolve_commit(git_dir: Path, rev: str, option: str = "SHA") -> str:
    """Resolve a short sha, tag, branch or full sha to the full 40-hex commit (tags peeled).

    `option` names what the user set (`SHA`, `REF`) in the error messages.
    """
    _check_rev(rev, option)
    try:
        out = run_git(git_dir, "rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}")
    except GitCommandError as err:
        reason = git_reason(err).replace("Needed a single revision", "no such commit")
        raise SourceError(
            f"{option} {rev!r} is not a commit in {origin_of(git_dir)}: {reason}; "
            "pass a commit sha, tag or branch that exists there"
        ) from None
    sha = out.decode("ascii", "replace").strip()
    if not SHA_RE.fullmatch(sha):
        raise SourceError(f"{option} {rev!r} did not resolve to a commit in {origin_of(git_dir)}")
    return sha


def list_files(
    git_dir: Path,
    commit: str,
    *,
    suffixes: tuple[str, ...] = (".rs",),
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    max_bytes: int = 2_000_000,
    manifests: tuple[str, ...] = (),
) -> Listing:
    """List the regular files at `commit` that end with one of `suffixes` and pass the globs,
    and (`Listing.manifests`) those named one of `manifests`, globs aside."""
    if not SHA_RE.fullmatch(commit):
        commit = resolve_commit(git_dir, commit)
    wanted = compile_filter(include, exclude)
    try:
        out = run_git(git_dir, "ls-tree", "-r", "-l", "-z", "--full-tree", commit)
    except GitCommandError as err:
        raise SourceError(
            f"cannot list the tree of {commit} in {origin_of(git_dir)}: {git_reason(err)}"
        ) from None
    entries: list[TreeEntry] = []
    skipped: list[Skipped] = []
    found: list[TreeEntry] = []
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, _kind, sha, size = meta.decode("ascii", "replace").split()
        try:
            path = raw_path.decode("utf-8")
        except UnicodeDecodeError:
            path = raw_path.decode("utf-8", "backslashreplace")
            if path.endswith(suffixes) and wanted(path):
                skipped.append(Skipped(path, "non-utf8-path"))
            continue
        if (
            manifests
            and mode.startswith("100")
            and size.isdigit()
            and int(size) <= max_bytes
            and path.rsplit("/", 1)[-1] in manifests
        ):
            found.append(TreeEntry(path, sha, int(size)))
        if mode == "160000":  # a gitlink may hold source files, so judge it by the globs alone
            if wanted(path):
                skipped.append(Skipped(path, "submodule"))
            continue
        if not path.endswith(suffixes) or not wanted(path):
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
    return Listing(tuple(entries), tuple(skipped), tuple(found))


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
                git_command(self.git_dir, "cat-file", "--batch"),
                istream=subprocess.PIPE,
                as_process=True,
                env=git_env(),
            )
        return self._proc

    def read(self, blob_sha: str) -> bytes | None:
        """The blob's bytes, or None when it is missing (partial clone) or not a blob."""
        if not SHA_RE.fullmatch(blob_sha):
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
            if any(not SHA_RE.fullmatch(sha) for sha in batch):
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
        run_git(git_dir, "grep", "-q", "-F", "-w", "-e", word, commit, "--", "*.rs")
    except GitCommandError:
        return False  # exit status 1: not found
    return True


_RUST_STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def word_in_code(git_dir: Path, commit: str, word: str) -> bool:
    """Whether `word` occurs as a whole word in the code of a `.rs` file at `commit`, outside
    string literals and `//` comments: a keyword the parser knows, not one a query string uses."""
    if not word or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", word):
        return False
    try:
        out = run_git(
            git_dir, "grep", "-h", "-F", "-w", "-m", "200", "-e", word, commit, "--", "*.rs"
        )
    except GitCommandError:
        return False
    pattern = re.compile(rf"(?<![\w]){re.escape(word)}(?![\w])")
    for raw in out.decode("utf-8", "replace").splitlines():
        code = _RUST_STRING.sub('""', raw).split("//", 1)[0]
        if pattern.search(code):
            return True
    return False
