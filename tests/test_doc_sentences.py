"""What a reader is told of a field's or a const's doc where the conditions depend on it:
its first sentences, not its first line. fd's `--changed-within` read "Filter results based
on the file modification time. Files with modification times", and lost the formats the
option takes (reading 325)."""

from __future__ import annotations

from pipeline.analyze.reach_text import doc_sentences

CHANGED_WITHIN = """\
Filter results based on the file modification time. Files with modification times
greater than the argument are returned. The argument can be provided
as a specific point in time (YYYY-MM-DD HH:MM:SS or @timestamp) or as a duration (10h, 1d, 35min).
If the time is not specified, it defaults to 00:00:00.
'--change-newer-than', '--newer', or '--changed-after' can be used as aliases.

Examples:
{n}    --changed-within 2weeks
"""


def test_the_first_paragraph_s_sentences_that_fit_in_300_characters() -> None:
    assert doc_sentences(CHANGED_WITHIN) == (
        "Filter results based on the file modification time. Files with modification times "
        "greater than the argument are returned. The argument can be provided as a specific "
        "point in time (YYYY-MM-DD HH:MM:SS or @timestamp) or as a duration (10h, 1d, 35min)."
    )


def test_a_sentence_ends_only_before_what_may_begin_another() -> None:
    assert doc_sentences("The cap, e.g. 10 MB per file.\nIgnored when 0.") == (
        "The cap, e.g. 10 MB per file. Ignored when 0."
    )


def test_one_sentence_longer_than_that_is_cut() -> None:
    said = doc_sentences("word " * 100)
    assert len(said) <= 300 and said.endswith(" …")
