"""How often each of some words is written in a commit's files: one `git grep` over the
commit's tree (C, and every core), not a read of each blob in Python."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from pathlib import Path

from git.exc import GitCommandError

from pipeline.source.gitcmd import run_git


def word_counts(
    git_dir: Path,
    sha: str,
    words: Collection[str],
    counted: Callable[[str], bool],
    suffix: str = ".rs",
) -> dict[str, int] | None:
    """How many times each of `words` (identifiers) is written as a whole word in the files
    of commit `sha` whose names end in `suffix` and that `counted(path)` keeps; None when
    git could not tell (an unreadable tree: no count is better than a wrong one)."""
    if not words:
        return {}
    patterns = [arg for word in sorted(words) for arg in ("-e", word)]
    try:
        out = run_git(
            git_dir, "grep", "--no-color", "--no-textconv", "-I", "-o", "-w", "-F", "-z",
            *patterns, sha, "--", f"*{suffix}",
        )  # fmt: skip
    except GitCommandError as err:
        if err.status == 1:  # no match at all
            return dict.fromkeys(words, 0)
        return None
    counts: Counter[str] = Counter()
    prefix = f"{sha}:".encode()
    for line in out.split(b"\n"):
        name, _, word = line.partition(b"\0")
        if (
            word
            and name.startswith(prefix)
            and counted(name[len(prefix) :].decode("utf-8", "replace"))
        ):
            counts[word.decode("utf-8", "replace")] += 1
    return {word: counts.get(word, 0) for word in words}
