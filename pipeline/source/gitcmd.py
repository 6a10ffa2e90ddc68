"""Running git on untrusted repositories: one safe way, used by every git call of errdoc.

The contract (SPEC section 2): every git call runs with a fixed, safe environment
(`_ENV`, `_GIT_OPTIONS`): no system or global config, no prompts, no hooks, no `ext::`
or other transports outside the allow list, no lazy fetch of objects missing from a
partial clone, no submodule recursion; never in the user's working directory.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from git.cmd import Git
from git.exc import GitCommandError

from pipeline.core.redact import redact as redact_secrets

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
ORIGIN_FILE = "errdoc-origin"  # in the git dirs we own: the SOURCE it stands for
SHA_RE = re.compile(r"[0-9a-f]{40}")


class SourceError(Exception):
    """One-line, user-facing: says what is wrong and what to do."""


def git_env() -> dict[str, str]:
    env = dict(_ENV)
    # Keep a user's own ssh command; otherwise never let ssh stop to ask anything.
    env.setdefault("GIT_SSH_COMMAND", os.environ.get("GIT_SSH_COMMAND", "ssh -o BatchMode=yes"))
    return env


def git_command(git_dir: Path | None, *args: str) -> list[str]:
    base = [Git.GIT_PYTHON_GIT_EXECUTABLE or "git", *_GIT_OPTIONS]
    if git_dir is not None:
        base.append(f"--git-dir={git_dir}")
    return [*base, *args]


def run_git(git_dir: Path | None, *args: str, cwd: Path | None = None) -> bytes:
    """Run one git command safely and return its stdout; GitCommandError on failure."""
    # Run inside a directory of ours, never the user's cwd (which may sit in a hostile work tree).
    out: bytes = Git(str(cwd or git_dir)).execute(
        git_command(git_dir, *args),
        stdout_as_string=False,
        strip_newline_in_stdout=False,
        env=git_env(),
    )
    return out


def git_reason(err: GitCommandError) -> str:
    """The line of git's stderr that says what failed, for a one-line message."""
    stderr = err.stderr if isinstance(err.stderr, str) else str(err.stderr or "")
    lines = [
        ln.strip().removeprefix("stderr:").strip().strip("'").strip() for ln in stderr.splitlines()
    ]
    lines = [ln for ln in lines if ln]
    fatal = [ln for ln in lines if ln.startswith(("fatal:", "error:"))]
    reason = (fatal or lines or [f"git exited with {err.status}"])[0]
    return redact(reason.removeprefix("fatal:").removeprefix("error:").strip())


def origin_of(git_dir: Path) -> str:
    """What the user passed as SOURCE for this git dir, for messages."""
    marker = git_dir / ORIGIN_FILE
    return marker.read_text(encoding="utf-8").strip() if marker.is_file() else str(git_dir)


def redact(text: str) -> str:
    """Hide credentials written into a URL (https://user:token@host) and other secrets."""
    return redact_secrets(text)
