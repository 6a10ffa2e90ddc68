"""How often each of some words is written in a commit's files: one `git grep` over the
commit's tree (C, and every core), not a read of each blob in Python; and how many of those
writings a file's parse shows to be no value made (a `match` arm's pattern)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping
from pathlib import Path

from git.exc import GitCommandError

from pipeline.source.gitcmd import run_git
from pipeline.source.objects import BlobReader

# A word written in more files than this is taken for written as a value somewhere among
# them: its files are not parsed to tell its patterns (a common word such as `Other`)
MAX_PATTERN_FILES = 20


def word_hits(
    git_dir: Path,
    sha: str,
    words: Collection[str],
    counted: Callable[[str], bool],
    suffix: str = ".rs",
) -> Counter[tuple[str, str]] | None:
    """How many times each of `words` (identifiers) is written as a whole word in each file
    of commit `sha` whose name ends in `suffix` and that `counted(path)` keeps, by (path,
    word); None when git could not tell (an unreadable tree: no count is better than a
    wrong one)."""
    hits: Counter[tuple[str, str]] = Counter()
    if not words:
        return hits
    patterns = [arg for word in sorted(words) for arg in ("-e", word)]
    try:
        out = run_git(
            git_dir, "grep", "--no-color", "--no-textconv", "-I", "-o", "-w", "-F", "-z",
            *patterns, sha, "--", f"*{suffix}",
        )  # fmt: skip
    except GitCommandError as err:
        if err.status == 1:  # no match at all
            return hits
        return None
    prefix = f"{sha}:".encode()
    for line in out.split(b"\n"):
        name, _, word = line.partition(b"\0")
        if word and name.startswith(prefix):
            path = name[len(prefix) :].decode("utf-8", "replace")
            if counted(path):
                hits[(path, word.decode("utf-8", "replace"))] += 1
    return hits


def value_counts(
    git_dir: Path,
    sha: str,
    words: Collection[str],
    counted: Callable[[str], bool],
    blobs: Mapping[str, str],
    mentions_in: Callable[[str, bytes, Collection[str]], Mapping[str, int]],
) -> dict[str, int] | None:
    """How many times each of `words` is written in the counted files of `sha` outside the
    places a parse shows match a value, never make one (`pattern_counts`); None when git
    could not tell."""
    hits = word_hits(git_dir, sha, words, counted)
    if hits is None:
        return None
    counts: Counter[str] = Counter()
    for (_, word), count in hits.items():
        counts[word] += count
    patterns = pattern_counts(git_dir, hits, blobs, mentions_in)
    return {word: counts.get(word, 0) - patterns.get(word, 0) for word in words}


def pattern_counts(
    git_dir: Path,
    hits: Mapping[tuple[str, str], int],
    blobs: Mapping[str, str],
    mentions_in: Callable[[str, bytes, Collection[str]], Mapping[str, int]],
) -> Counter[str]:
    """How many of each word's writings (`word_hits`) sit where `mentions_in(path, bytes,
    words)` says the file matches a value, never makes one: a `match` arm's pattern. Read:
    the files (`blobs`: path -> blob id) of the words written in at most
    `MAX_PATTERN_FILES` files; a file `blobs` does not hold counts none."""
    files_of: dict[str, list[str]] = {}
    for path, word in hits:
        files_of.setdefault(word, []).append(path)
    wanted: dict[str, list[str]] = {}
    for word, paths in files_of.items():
        if len(paths) <= MAX_PATTERN_FILES:
            for path in paths:
                if path in blobs:
                    wanted.setdefault(path, []).append(word)
    found: Counter[str] = Counter()
    paths = sorted(wanted)
    if not paths:
        return found
    with BlobReader(git_dir) as reader:
        datas = reader.read_many([blobs[path] for path in paths])
    for path, data in zip(paths, datas, strict=True):
        if data is not None:
            for word, count in mentions_in(path, data, sorted(wanted[path])).items():
                found[word] += min(count, hits[(path, word)])
    return found
