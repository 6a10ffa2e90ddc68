"""Every identifier of a tree's Rust files, read in one pass: what a model's answer may name."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from pipeline.source.objects import BlobReader, list_files

_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_CHUNK = 256


def tree_identifiers(
    git_dir: Path, commit: str, suffixes: tuple[str, ...] = (".rs",)
) -> frozenset[str]:
    """The identifiers (whole words) of every file at commit ending with one of suffixes.

    One `ls-tree` and one `cat-file --batch` for the whole tree, instead of a `git grep`
    per word asked about.
    """
    shas = [entry.blob_sha for entry in list_files(git_dir, commit, suffixes=suffixes).entries]
    words: set[bytes] = set()
    with BlobReader(git_dir) as reader:
        for start in range(0, len(shas), _CHUNK):  # a chunk at a time: memory stays small
            for data in reader.read_many(shas[start : start + _CHUNK]):
                if data:
                    words.update(_IDENT.findall(data))
    return frozenset(w.decode("ascii") for w in words)


def words_in_tree(git_dir: Path, commit: str, words: Iterable[str]) -> frozenset[str]:
    """Which of `words` are identifiers of the tree's `.rs` files (one pass, `tree_identifiers`)."""
    wanted = frozenset(words)
    return wanted & tree_identifiers(git_dir, commit) if wanted else frozenset()
