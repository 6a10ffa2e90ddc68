"""Grounding: names, SQL keywords and commands an answer claims, checked against a real repository."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo
from llm_server import TAXONOMY, FakeOpenAI, Reply, answer, make_context, static_stand_in

from pipeline.analyze.grounding import claims, describe, invented
from pipeline.analyze.llm import LlmAnalyzer, LlmSettings
from pipeline.source.repository import word_in_code, word_in_tree

# A repository whose parser knows ALTER ... PAUSE but has RESUME only inside a query string,
# and whose CLI has `risectl meta pause` but no `resume-all` nor `--force-all`.
FILES = {
    "src/sqlparser/src/keywords.rs": "define_keywords!(\n    ALTER,\n    DATABASE,\n    PAUSE,\n);\n",
    "src/connector/src/sink.rs": 'fn q(t: &str) -> String {\n    format!("ALTER TASK {} RESUME", t) // RESUME here\n}\n',
    "src/ctl/src/lib.rs": (
        '#[command(name = "risectl")]\nenum Commands {\n    Meta(MetaCommands),\n}\n'
        "enum MetaCommands {\n    Pause,\n    Resume { backfill_rate: u32 },\n}\n"
    ),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    git = GitRepo.init(tmp_path_factory.mktemp("repo"))
    sha = git.commit(FILES)
    yield git.git_dir, sha


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Run `ALTER DATABASE d RESUME`.",
            [("sql", "ALTER"), ("sql", "DATABASE"), ("sql", "RESUME")],
        ),
        (
            "then ALTER DATABASE db PAUSE again",
            [("sql", "ALTER"), ("sql", "DATABASE"), ("sql", "PAUSE")],
        ),
        ("`SET x TO 4`", [("sql", "SET")]),  # TO is every parser's
        (
            "Run `risectl meta resume-all --force-all 3`.",
            [
                ("command", "risectl"),
                ("command", "meta"),
                ("command", "resume-all"),
                ("command", "force_all"),
            ],
        ),
        ("Run `git pull --rebase` then `cargo build`.", []),  # tools outside the repository
        ("See `FooBar::reset()`.", [("name", "FooBar"), ("name", "reset")]),
        ("The `paused` flag, `Some(x)`, `is_ok`.", [("name", "paused")]),
        ("a sentence in plain words", []),
    ],
)
def test_claims(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(c.kind, c.word) for c in claims([text])] == expected


def test_keywords_are_looked_up_in_code_not_in_strings(repo: tuple[Path, str]) -> None:
    git_dir, sha = repo
    assert word_in_code(git_dir, sha, "PAUSE") and word_in_code(git_dir, sha, "ALTER")
    assert not word_in_code(git_dir, sha, "RESUME")  # in a format string and a comment only
    assert word_in_tree(git_dir, sha, "RESUME")  # which a plain word search would accept
    assert not word_in_code(git_dir, sha, "RESUME; rm")  # not a word: never reaches git


def test_invented_claims_against_the_repository(repo: tuple[Path, str]) -> None:
    git_dir, sha = repo
    found = claims(
        [
            "Pause with `ALTER DATABASE d PAUSE` or `risectl meta pause`; resume with"
            " `ALTER DATABASE d RESUME` or `risectl meta resume-all --force-all`;"
            " `risectl meta resume --backfill-rate 4` also works."
        ]
    )
    missing = invented(
        found,
        frozenset(),
        lambda w: word_in_tree(git_dir, sha, w),
        lambda w: word_in_code(git_dir, sha, w),
    )
    assert [(c.kind, c.word) for c in missing] == [
        ("sql", "RESUME"),
        ("command", "resume-all"),
        ("command", "force_all"),
    ]
    text = describe(missing)
    assert "SQL keywords" in text and "RESUME (in `ALTER DATABASE d RESUME`)" in text
    assert "`resume-all` (in `risectl meta resume-all --force-all`)" in text


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        yield srv


def test_an_answer_inventing_sql_and_commands_is_reasked_with_them(
    server: FakeOpenAI, repo: tuple[Path, str], tmp_path: Path
) -> None:
    git_dir, sha = repo
    invented_answer = answer(
        solutions=[
            "Resume it: `ALTER DATABASE d RESUME`.",
            "Or `risectl meta resume-all --force-all`.",
        ]
    )
    grounded_answer = answer(solutions=["Resume it with `risectl meta resume`."])
    server.script(
        Reply(content=json.dumps(invented_answer)), Reply(content=json.dumps(grounded_answer))
    )
    settings = LlmSettings(server.base_url, "k", "gpt-4o-mini", timeout_s=5.0, backoff_s=0.01)
    analyzer = LlmAnalyzer(
        settings,
        tmp_path,
        static_stand_in,
        identifier_exists=lambda w: word_in_tree(git_dir, sha, w),
        keyword_exists=lambda w: word_in_code(git_dir, sha, w),
        taxonomy=TAXONOMY,
    )
    [analysis] = list(analyzer.analyze([make_context(0)]))
    assert len(server.requests) == 2
    reask = server.requests[1].body["messages"][-1]["content"]
    assert "RESUME (in `ALTER DATABASE d RESUME`)" in reask
    assert "`resume-all`" in reask and "`force_all`" in reask
    assert "DATABASE (in" not in reask and "ALTER (in" not in reask  # the parser has them
    assert (
        analysis.grounded is True and analysis.explanation.solutions == grounded_answer["solutions"]
    )
    assert analyzer.summary.reasks == 1 and analyzer.summary.ungrounded == 0


def test_an_answer_that_keeps_inventing_is_kept_and_marked(
    server: FakeOpenAI, repo: tuple[Path, str], tmp_path: Path
) -> None:
    git_dir, sha = repo
    bad = Reply(content=json.dumps(answer(exampleFix="`ALTER DATABASE d RESUME`")))
    server.script(bad, bad)
    settings = LlmSettings(server.base_url, "k", "gpt-4o-mini", timeout_s=5.0, backoff_s=0.01)
    analyzer = LlmAnalyzer(
        settings,
        tmp_path,
        static_stand_in,
        identifier_exists=lambda w: word_in_tree(git_dir, sha, w),
        keyword_exists=lambda w: word_in_code(git_dir, sha, w),
        taxonomy=TAXONOMY,
    )
    [analysis] = list(analyzer.analyze([make_context(0)]))
    assert len(server.requests) == 2 and analysis.grounded is False
    assert analyzer.summary.ungrounded == 1


def test_words_in_tree_answers_many_names_in_one_pass(repo: tuple[Path, str]) -> None:
    from pipeline.source.repository import words_in_tree

    git_dir, sha = repo
    asked = ["MetaCommands", "backfill_rate", "RESUME", "frobnicate", "risectl", "x-y", ""]
    assert words_in_tree(git_dir, sha, asked) == {
        "MetaCommands",
        "backfill_rate",
        "RESUME",
        "risectl",
    }
    assert words_in_tree(git_dir, sha, []) == frozenset()
