"""Build real git repositories in tmp_path with the git CLI, for tests.

    from gitrepo import GitRepo                     # tests/ is on sys.path (rootdir conftest)
    repo = GitRepo.init(tmp_path / "src")           # a work-tree repo on branch main
    sha = repo.commit({"src/lib.rs": "fn f() {}"})  # write files, stage all, commit, return sha
    repo.tag("v1")                                  # lightweight tag at HEAD (annotated=True: -a)
    bare = repo.bare_copy(tmp_path / "bare.git")    # `git clone --bare` of it (packed)
    repo.blob_sha("src/lib.rs")                     # blob id of a path at HEAD (or at rev=...)
    repo.delete_loose_object(blob)                  # drop one object, as in a partial clone
    repo.add_gitlink("vendor/sub", sha)             # a submodule entry; commit(stage_all=False)
    repo.partial_clone(tmp_path / "p.git", "blob:limit=5")  # bare --filter clone of it

Files map path -> str | bytes; None deletes the path. Commit identity comes from the autouse
fixture's GIT_AUTHOR_*/GIT_COMMITTER_* variables. Global and system config are ignored.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_AUTHOR_NAME": "errdoc test",
    "GIT_AUTHOR_EMAIL": "test@errdoc.invalid",
    "GIT_COMMITTER_NAME": "errdoc test",
    "GIT_COMMITTER_EMAIL": "test@errdoc.invalid",
}


def git(cwd: Path, *args: str, input: bytes | None = None) -> str:
    """Run git in `cwd` (hooks off, no user config) and return stripped stdout."""
    env = {**os.environ, **_ENV}
    out = subprocess.run(
        ["git", "-c", "core.hooksPath=/dev/null", "-c", "protocol.file.allow=always", *args],
        cwd=cwd,
        env=env,
        input=input,
        capture_output=True,
        check=True,
    )
    return out.stdout.decode().strip()


@dataclass(frozen=True)
class GitRepo:
    """A work-tree git repository at `path` (its git dir is `path / '.git'`)."""

    path: Path

    @property
    def git_dir(self) -> Path:
        return self.path / ".git"

    @classmethod
    def init(cls, path: Path, branch: str = "main") -> GitRepo:
        """Create an empty repository with `branch` as its initial branch."""
        path.mkdir(parents=True, exist_ok=True)
        git(path, "init", "-q", "-b", branch)
        return cls(path)

    def git(self, *args: str) -> str:
        """Run a git command in this repository."""
        return git(self.path, *args)

    def write(self, files: Mapping[str, str | bytes | None]) -> None:
        """Write (or, for None, delete) files in the work tree without committing."""
        for rel, content in files.items():
            target = self.path / rel
            if content is None:
                target.unlink(missing_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")

    def commit(
        self,
        files: Mapping[str, str | bytes | None] | None = None,
        message: str = "c",
        stage_all: bool = True,
    ) -> str:
        """Write files, stage everything (or only `files`), commit and return the sha."""
        files = files or {}
        self.write(files)
        if stage_all:
            self.git("add", "-A")
        elif files:
            self.git("add", "-A", "--", *files)
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.head()

    def head(self) -> str:
        """The full sha of HEAD."""
        return self.git("rev-parse", "HEAD")

    def tag(self, name: str, rev: str = "HEAD", annotated: bool = False) -> None:
        """Tag `rev` as `name` (annotated with -a when asked)."""
        if annotated:
            self.git("tag", "-a", "-m", name, name, rev)
        else:
            self.git("tag", name, rev)

    def branch(self, name: str, rev: str = "HEAD") -> None:
        """Create branch `name` at `rev` without switching to it."""
        self.git("branch", name, rev)

    def blob_sha(self, path: str, rev: str = "HEAD") -> str:
        """The blob id of `path` at `rev`."""
        return self.git("rev-parse", f"{rev}:{path}")

    def add_gitlink(self, path: str, sha: str) -> None:
        """Stage a gitlink (submodule entry, mode 160000); commit it with stage_all=False."""
        self.git("update-index", "--add", "--cacheinfo", f"160000,{sha},{path}")

    def bare_copy(self, target: Path) -> Path:
        """`git clone --bare` this repository to `target` (a path ending in .git) and return it."""
        git(target.parent, "clone", "-q", "--bare", "--no-local", str(self.path), str(target))
        return target

    def partial_clone(self, target: Path, filter_spec: str = "blob:none") -> Path:
        """A bare `--filter` clone (objects it lacks are promised by remote origin); returns it."""
        self.git("config", "uploadpack.allowFilter", "true")
        git(target.parent, "clone", "-q", "--bare", f"--filter={filter_spec}",
            f"file://{self.path}", str(target))  # fmt: skip
        return target

    def delete_loose_object(self, sha: str, git_dir: Path | None = None) -> None:
        """Delete the loose object file of `sha` (objects must still be loose, i.e. not gc'd)."""
        objects = (git_dir or self.git_dir) / "objects"
        (objects / sha[:2] / sha[2:]).unlink()
