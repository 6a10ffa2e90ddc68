"""`errdoc eval`: offline figures on a small dataset, and the judge mode over the loopback server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from gitrepo import GitRepo
from llm_server import FakeOpenAI, Reply
from render_fixtures import REPO, seed_doc, write_dataset

from pipeline.cli import main
from pipeline.publish.evaluate import parses_as_rust, reads_as_rust
from pipeline.publish.judge import dataset_first

SEED = seed_doc("a71b6a9059b622d5")["record"]
MESSAGE = SEED["errorMessage"]


def body(rid: str, **fields: Any) -> dict[str, Any]:
    return {**SEED, "id": rid, **fields}


def small_dataset(out: Path) -> Path:
    """Four records, each breaking (or keeping) one check on purpose."""
    filled = MESSAGE.replace("{}", "42", 1)
    bodies = [
        body("0000000000000001", documentation="First, its own.", validationCode=None,
             tryCatchPattern="match alter(id).await {\n    Err(e) => warn!(\"{e}\"),\n    Ok(()) => {}\n}"),
        body("0000000000000002", documentation="Shared text.", validationCode=None, tryCatchPattern=None,
             exampleFix="-- before\nALTER TABLE t SET PARALLELISM = 4;"),
        body("0000000000000003", documentation="Shared text.", validationCode="if x.is_paused() { bail!(",
             tryCatchPattern=None, commonSituations=f"The log says `{filled}`.",
             solutions=["a", "b", "c", "d", "e"],
             triggerScenarios="`frobnicate_epoch` fails in `reschedule_streaming_job_backfill_parallelism`."),
        body("0000000000000004", documentation="Via `alter_backfill_parallelism` of the DDL controller.",
             validationCode=None, tryCatchPattern=None),
    ]  # fmt: skip
    hops = [
        {
            "name": "DdlController::alter_backfill_parallelism",
            "file_path": "src/ddl.rs",
            "line": 9,
            "signature": "fn a()",
        },
        {
            "name": "reschedule_streaming_job_backfill_parallelism",
            "file_path": "src/s.rs",
            "line": 5,
            "signature": "fn r()",
        },
    ]
    unrelated = [{"name": "Foo::unrelated_hop", "file_path": "src/f.rs", "line": 1, "signature": "fn u()"}]  # fmt: skip
    fn = "reschedule_streaming_job_backfill_parallelism"
    manifest = {
        "records": {
            "0000000000000003": {"enclosingFn": fn},
            "0000000000000004": {"enclosingFn": fn},
        }
    }
    root = write_dataset(out, REPO, bodies, **manifest)
    reach = {"format": 1, "records": {
        "0000000000000004": {"paths": [{"hops": hops}]},
        "0000000000000001": {"paths": [{"hops": unrelated}]},
    }}  # fmt: skip
    (out / REPO / "reach.json").write_text(json.dumps(reach))
    return root


@pytest.mark.parametrize(
    ("code", "rust", "parses"),
    [
        ("match f() {\n    Err(e) => {}\n    _ => {}\n}", True, True),
        ("// before\nx.unwrap()\n// after\nx?", True, True),
        ("if x.is_paused() { bail!(", True, False),
        ("-- x\nSELECT a FROM b;", False, False),
        ("cargo build --release", False, False),
    ],
)
def test_code_fields(code: str, rust: bool, parses: bool) -> None:
    assert (reads_as_rust(code), parses_as_rust(code)) == (rust, parses)


def test_offline_figures_of_a_small_dataset(tmp_path: Path) -> None:
    small_dataset(tmp_path / "out")
    result = CliRunner().invoke(main, ["eval", str(tmp_path / "out"), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)[REPO]
    assert figures["records"] == 4
    # record 1's tryCatchPattern parses, record 3's validationCode does not; SQL is not Rust.
    assert (figures["codeFieldsChecked"], figures["codeParses"]) == (2, 0.5)
    assert figures["distinctDocumentation"] == 0.5  # records 2 and 3 share theirs
    assert figures["placeholdersKept"] == 0.75  # record 3 quotes the message with 42 in it
    assert figures["withinLengthLimits"] == 0.75  # record 3 has five solutions
    # records 3 and 4 name their fn; of the two with paths, 4 names a hop and 1 does not.
    assert figures["namesEnclosingFn"] == 0.5
    assert (figures["recordsWithCallerPaths"], figures["namesCallerHop"]) == (2, 0.5)
    assert figures["groundedNames"] < 1.0


def test_repository_grounds_names_the_window_lacks(tmp_path: Path) -> None:
    out = tmp_path / "out"
    small_dataset(out)
    git = GitRepo.init(tmp_path / "repo")
    # The dataset's sha is the seed's; the repository is made at that name with a ref.
    sha = git.commit(
        {"src/ddl.rs": "impl DdlController {\n    fn alter_backfill_parallelism() {}\n}\n"}
    )
    manifest = out / REPO / "manifest.json"
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "sha": sha}))

    def grounded(args: list[str]) -> float:
        result = CliRunner().invoke(main, ["eval", str(out), "--json", *args])
        assert result.exit_code == 0, result.output
        return float(json.loads(result.output)[REPO]["groundedNames"])

    assert grounded(["--source", str(git.path)]) > grounded([])


def test_no_dataset_is_one_line_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["eval", str(tmp_path)])
    assert result.exit_code != 0 and "no dataset there" in result.output


REFERENCES = [
    {"repo": REPO, "sha": SEED["analyzedSha"], "filePath": SEED["filePath"], "lineNumber": 978,
     "errorMessage": MESSAGE, "callerPath": ["SQL statement `ALTER ... SET BACKFILL_PARALLELISM`"],
     "triggerScenarios": "REFERENCE-TEXT", "documentation": "ref", "commonSituations": "ref",
     "solutions": ["ref"], "exampleFix": "", "handlingStrategy": "validation"},
    {"repo": REPO, "sha": SEED["analyzedSha"], "filePath": "src/nowhere.rs", "lineNumber": 1,
     "errorMessage": "no such site", "callerPath": [], "triggerScenarios": "REFERENCE-TEXT",
     "documentation": "", "commonSituations": "", "solutions": [], "exampleFix": "",
     "handlingStrategy": "validation"},
]  # fmt: skip


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        monkeypatch.setenv("MODEL", "judge-model")
        yield srv


def prefer(which: str) -> Any:
    """A judge that prefers the reference or the dataset, wherever it is shown."""

    def respond(body: dict[str, Any]) -> Reply:
        user = body["messages"][1]["content"]
        a = user.split("<a>", 1)[1].split("</a>", 1)[0]
        reference_is_a = "REFERENCE-TEXT" in a
        winner = "A" if reference_is_a == (which == "reference") else "B"
        verdict = {"correctness": winner, "usefulness": winner, "invention": "tie", "reason": "r"}
        return Reply(content=json.dumps(verdict))

    return respond


@pytest.mark.parametrize(("which", "rate"), [("dataset", 1.0), ("reference", 0.0)])
def test_judge_win_rate(server: FakeOpenAI, tmp_path: Path, which: str, rate: float) -> None:
    small_dataset(tmp_path / "out")
    reference = tmp_path / "ref.jsonl"
    reference.write_text("\n".join(json.dumps(r) for r in REFERENCES) + "\n")
    server.responder = prefer(which)
    server.script(Reply(content="not json"))  # the first verdict is re-asked
    args = ["eval", str(tmp_path / "out"), "--judge", "--reference", str(reference), "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    judged = json.loads(result.output)["judge"]
    # All four records share the seed's file and message: the nearest line is the match.
    assert (judged["pairs"], judged["unmatched"], judged["failed"]) == (1, 1, 0)
    assert judged["winRate"][0] == rate
    assert len(server.requests) == 2
    prompt = server.requests[1].body["messages"][1]["content"]
    assert "ALTER ... SET BACKFILL_PARALLELISM" in prompt and "// <- error site" in prompt
    assert re.search(r"<a>.*</a>.*<b>.*</b>", prompt, re.S)


def test_half_the_records_show_the_dataset_first() -> None:
    firsts = [dataset_first(type("R", (), {"id": f"{i:016x}"})()) for i in range(200)]  # type: ignore[arg-type]
    assert 70 < sum(firsts) < 130


def test_judge_without_a_model_is_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    small_dataset(tmp_path / "out")
    for name in ("MODEL", "ERRDOC_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    result = CliRunner().invoke(main, ["eval", str(tmp_path / "out"), "--judge"])
    assert result.exit_code != 0 and "needs a model" in result.output


def test_shipped_reference_set() -> None:
    from pipeline.analyze.fields import STRATEGIES
    from pipeline.publish.eval_command import DEFAULT_REFERENCE
    from pipeline.publish.judge import load_references

    references = load_references(DEFAULT_REFERENCE)
    assert len(references) >= 25 and len({r.repo for r in references}) >= 3
    strategies = {name for name, _ in STRATEGIES}
    for ref in references:
        assert len(ref.callerPath) >= 2, ref.filePath  # an entry point and the enclosing fn
        assert ref.handlingStrategy in strategies
        assert ref.triggerScenarios and ref.documentation and ref.solutions
    keys = [(r.repo, r.filePath, r.lineNumber) for r in references]
    assert len(set(keys)) == len(keys)


def test_a_dataset_commit_missing_from_the_source_is_one_line_error(tmp_path: Path) -> None:
    small_dataset(tmp_path / "out")  # the seed's commit, which this repository lacks
    git = GitRepo.init(tmp_path / "repo")
    head = git.commit({"src/lib.rs": "fn reschedule_streaming_job_backfill_parallelism() {}\n"})
    args = ["eval", str(tmp_path / "out"), "--source", str(git.path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "is not a commit" in result.output
    assert "Traceback" not in result.output
    again = CliRunner().invoke(main, [*args, "--at", head, "--json"])
    assert again.exit_code == 0, again.output
