"""Related errors within a repository, and failure-class counts across every repository."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pipeline.dataset.summary import Summary

TAG_WEIGHT = 3
FILE_WEIGHT = 2
CLASS_WEIGHT = 2
WORD_WEIGHT = 1
# A feature shared by more records than this says little and would make ranking quadratic.
MAX_POSTING = 150
_WORD = re.compile(r"[a-z][a-z0-9_]{2,}")
_STOP = frozenset({"the", "and", "for", "not", "with", "from", "was", "has", "are", "this", "that"})


@dataclass(frozen=True)
class ClassCount:
    """How many repositories and records share one failure class."""

    repositories: int
    records: int


def _features(record: Summary) -> dict[str, int]:
    feats = {f"tag:{t}": TAG_WEIGHT for t in record.tags}
    feats[f"file:{record.filePath}"] = FILE_WEIGHT
    message = re.sub(r"\{[^{}]*\}", " ", record.errorMessage.lower())
    for word in _WORD.findall(message):
        if word not in _STOP:
            feats.setdefault(f"word:{word}", WORD_WEIGHT)
    return feats


def related_records(records: Sequence[Summary], limit: int = 5) -> dict[str, list[Summary]]:
    """For each record, the records of the same repository most like it, best first."""
    feats = [_features(r) for r in records]
    postings: dict[str, list[int]] = defaultdict(list)
    for i, fs in enumerate(feats):
        for f in fs:
            postings[f].append(i)
    out: dict[str, list[Summary]] = {}
    for i, record in enumerate(records):
        scores: Counter[int] = Counter()
        for f, weight in feats[i].items():
            posting = postings[f]
            if len(posting) > MAX_POSTING:
                continue
            for j in posting:
                if j != i and records[j].repo == record.repo:
                    scores[j] += weight
        for j in scores:  # the class only breaks ties among records already alike
            if records[j].backgroundTag == record.backgroundTag:
                scores[j] += CLASS_WEIGHT
        ranked = sorted(scores, key=lambda j: (-scores[j], records[j].id))
        out[record.id] = [records[j] for j in ranked[:limit]]
    return out


def same_message(records: Sequence[Summary]) -> dict[str, Sequence[Summary]]:
    """For each record whose message another record of its repository writes word for word
    too, every record of that message, itself included, in file order (neon writes "failed
    to define a metric" at 145 places: the message alone does not tell a reader which of
    them ran). One list per message, shared by its records; a message written once has none."""
    groups: dict[tuple[str, str], list[Summary]] = defaultdict(list)
    for r in records:
        groups[(r.repo, r.errorMessage)].append(r)
    out: dict[str, Sequence[Summary]] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda r: (r.filePath, r.lineNumber, r.id))
        for r in group:
            out[r.id] = group
    return out


def class_counts(records: Iterable[Summary]) -> dict[str, ClassCount]:
    """backgroundTag -> repositories and records of the whole site that carry it."""
    repos: dict[str, set[str]] = defaultdict(set)
    counts: Counter[str] = Counter()
    for r in records:
        repos[r.backgroundTag].add(r.repo)
        counts[r.backgroundTag] += 1
    return {tag: ClassCount(len(repos[tag]), counts[tag]) for tag in counts}
