"""`errdoc eval --judge`: a model compares a dataset's explanations with a reference set.

Each reference site is paired with the dataset's record of the same file and message
(the nearest line when there are several). The model sees the source, the
reference's checked caller path and both explanations, in an order fixed by the
record id (half the pairs put the dataset first), and says which is better on
correctness, usefulness and invention. A pair is won when the dataset wins more of
the three than it loses; the win rate counts a tie as half, with a 95% interval.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pipeline.analyze.llm_answer import AnswerError, extract_json
from pipeline.analyze.llm_prompt import PROMPTS_DIR, SITE_MARKER
from pipeline.analyze.llm_settings import LlmSettings
from pipeline.core.model import Record

Verdict = Literal["A", "B", "tie"]
CRITERIA = ("correctness", "usefulness", "invention")
JUDGED_FIELDS = (
    "triggerScenarios",
    "documentation",
    "commonSituations",
    "solutions",
    "exampleFix",
    "handlingStrategy",
)
_ENV = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False)


class Reference(BaseModel):
    """One reference site, written by reading the code, with its caller path checked."""

    model_config = ConfigDict(extra="forbid")

    repo: str
    sha: str = Field(pattern=r"^[0-9a-f]{7,40}$")
    filePath: str
    lineNumber: int = Field(ge=1)
    errorMessage: str
    callerPath: list[str]  # entry point first: "SQL statement ...", "fn_name (file:line)"
    triggerScenarios: str
    documentation: str
    commonSituations: str
    solutions: list[str]
    exampleFix: str
    handlingStrategy: str


class JudgeAnswer(BaseModel):
    """The judge's verdicts."""

    model_config = ConfigDict(extra="ignore")

    correctness: Verdict
    usefulness: Verdict
    invention: Verdict
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Pair:
    """One reference site, its dataset record and the judge's verdicts (dataset's view)."""

    reference: Reference
    record: Record
    outcome: dict[str, str]  # criterion -> "win" | "loss" | "tie" for the dataset
    score: float  # 1 won, 0.5 tie, 0 lost
    reason: str


@dataclass(frozen=True)
class JudgeResult:
    """The pairs judged, the unmatched references and the win rate."""

    pairs: tuple[Pair, ...]
    unmatched: tuple[Reference, ...]
    failed: tuple[tuple[Reference, str], ...]

    def win_rate(self) -> tuple[float, float, float] | None:
        """(rate, low, high): the mean score with a normal 95% interval, clipped to [0, 1]."""
        scores = [p.score for p in self.pairs]
        if not scores:
            return None
        n, mean = len(scores), sum(scores) / len(scores)
        var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.25
        half = 1.96 * math.sqrt(var / n) if n > 1 else 1.0
        return mean, max(0.0, mean - half), min(1.0, mean + half)

    def format(self) -> str:
        """Lines for the terminal."""
        lines = [f"judged {len(self.pairs)} pairs ({len(self.unmatched)} references unmatched,"
                 f" {len(self.failed)} failed)"]  # fmt: skip
        rate = self.win_rate()
        if rate is not None:
            lines.append(
                f"win rate against the reference: {100 * rate[0]:.1f}%"
                f" (95% CI {100 * rate[1]:.1f}-{100 * rate[2]:.1f}%)"
            )
            for criterion in CRITERIA:
                c = {
                    k: sum(p.outcome[criterion] == k for p in self.pairs)
                    for k in ("win", "tie", "loss")
                }
                lines.append(f"  {criterion:<12} {c['win']} won, {c['tie']} tied, {c['loss']} lost")
        return "\n".join(lines)


def load_references(path: Path) -> list[Reference]:
    """A reference set: one JSON object per line (a directory: every `*.jsonl` in it)."""
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    out = []
    for file in files:
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(Reference.model_validate_json(line))
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                raise ValueError(f"{file}:{number}: {where}: {first['msg']}") from None
    return out


def match(
    references: Iterable[Reference], records: Sequence[Record]
) -> tuple[list[tuple[Reference, Record]], list[Reference]]:
    """Pair each reference with the record of the same repo, file and message, nearest line."""
    index: dict[tuple[str, str, str], list[Record]] = {}
    for record in records:
        index.setdefault((record.repo, record.filePath, record.errorMessage), []).append(record)
    pairs, unmatched = [], []
    for ref in references:
        candidates = index.get((ref.repo, ref.filePath, ref.errorMessage), [])
        if not candidates:
            unmatched.append(ref)
            continue
        pairs.append((ref, min(candidates, key=lambda r: abs(r.lineNumber - ref.lineNumber))))
    return pairs, unmatched


def _explanation(source: Reference | Record) -> str:
    data = {name: getattr(source, name) for name in JUDGED_FIELDS}
    return json.dumps(data, ensure_ascii=False, indent=1)


def _window(record: Record) -> str:
    lines = record.sourceCode.split("\n")
    out = []
    for number, text in enumerate(lines, record.sourceCodeStart):
        out.append(f"{text} {SITE_MARKER}" if number == record.lineNumber else text)
    return "\n".join(out)


def dataset_first(record: Record) -> bool:
    """Whether the dataset's explanation is shown as A (fixed per record: half the pairs)."""
    return hashlib.sha256(record.id.encode()).digest()[0] % 2 == 0


def judge_messages(
    ref: Reference, record: Record, directory: Path | None = None
) -> list[dict[str, str]]:
    """The judge's chat messages for one pair."""
    base = directory or PROMPTS_DIR
    system = (base / "judge.system.md").read_text(encoding="utf-8").strip()
    first = dataset_first(record)
    a, b = (_explanation(record), _explanation(ref))
    if not first:
        a, b = b, a
    user = _ENV.from_string((base / "judge.user.md").read_text(encoding="utf-8")).render(
        repo=record.repo,
        file=record.filePath,
        line=record.lineNumber,
        message=record.errorMessage,
        path=ref.callerPath,
        window=_window(record),
        a=a,
        b=b,
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user.strip() + "\n"}]


def _outcome(answer: JudgeAnswer, first: bool) -> dict[str, str]:
    ours, theirs = ("A", "B") if first else ("B", "A")
    out = {}
    for criterion in CRITERIA:
        verdict = getattr(answer, criterion)
        out[criterion] = "win" if verdict == ours else "loss" if verdict == theirs else "tie"
    return out


def _score(outcome: dict[str, str]) -> float:
    wins = sum(v == "win" for v in outcome.values())
    losses = sum(v == "loss" for v in outcome.values())
    return 1.0 if wins > losses else 0.0 if losses > wins else 0.5


def judge(
    references: Sequence[Reference], records: Sequence[Record], settings: LlmSettings
) -> JudgeResult:
    """Ask the model about every matched pair (one re-ask on an invalid answer)."""
    import openai

    pairs, unmatched = match(references, records)
    client = openai.OpenAI(
        base_url=settings.base_url,
        api_key=settings.api_key or "unused",
        timeout=settings.timeout_s,
        max_retries=settings.max_retries,
    )
    judged: list[Pair] = []
    failed: list[tuple[Reference, str]] = []
    try:
        for ref, record in pairs:
            messages: list[Any] = judge_messages(ref, record)
            try:
                answer = _ask(client, settings.model, messages)
            except (openai.OpenAIError, ValueError) as exc:
                failed.append((ref, " ".join(str(exc).split())[:200]))
                continue
            outcome = _outcome(answer, dataset_first(record))
            judged.append(Pair(ref, record, outcome, _score(outcome), answer.reason))
    finally:
        client.close()
    return JudgeResult(tuple(judged), tuple(unmatched), tuple(failed))


def _ask(client: Any, model: str, messages: list[Any]) -> JudgeAnswer:
    for attempt in range(2):
        completion = client.chat.completions.create(model=model, messages=messages)
        text = str(completion.choices[0].message.content or "") if completion.choices else ""
        try:
            return JudgeAnswer.model_validate(extract_json(text))
        except (AnswerError, ValidationError) as exc:
            if attempt:
                raise ValueError(f"invalid verdict after a re-ask: {exc}") from None
            messages = [
                *messages,
                {"role": "assistant", "content": text[:4000]},
                {
                    "role": "user",
                    "content": f"Not valid ({exc}). Answer with the JSON object only.",
                },
            ]
    raise AssertionError("unreachable")
