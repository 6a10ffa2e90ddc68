"""Typed data handed between the stages.

`Site` and `FileScan` (in `sitetypes`, re-exported here) come out of
`Language.find_sites` (pure, no IO); `Explanation`
comes out of an analyzer; `Record` is the published record of schemaVersion 2
(SPEC 4), with its keys in the order the seeds show; `Provenance` is the
per-record entry of the manifest (SPEC 6).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# Re-exported: `pipeline.core.model` is the model of the whole pipeline.
from pipeline.core.sitetypes import Condition as Condition
from pipeline.core.sitetypes import ConditionKind as ConditionKind
from pipeline.core.sitetypes import ErrorType as ErrorType
from pipeline.core.sitetypes import Facts as Facts
from pipeline.core.sitetypes import FileScan as FileScan
from pipeline.core.sitetypes import HandlingStrategy as HandlingStrategy
from pipeline.core.sitetypes import Severity as Severity
from pipeline.core.sitetypes import Site as Site
from pipeline.core.sitetypes import SiteKind as SiteKind
from pipeline.core.sitetypes import TypeAlias as TypeAlias

SCHEMA_VERSION = 2


class Explanation(BaseModel):
    """How a developer should understand, fix and prevent one error.

    Every statement must be grounded in the source window and facts given;
    say less rather than invent.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    documentation: str = Field(
        description="What the error means, naming the function and what it was doing."
    )
    triggerScenarios: str = Field(
        description="The exact path of conditions in the code that reaches the site."
    )
    commonSituations: str = Field(
        description="What users are typically doing when they see this error."
    )
    solutions: list[str] = Field(description="Fixes, most likely first.")
    exampleFix: str = Field(description="Before/after code or commands.")
    handlingStrategy: HandlingStrategy = Field(description="How a caller should handle it.")
    validationCode: str | None = Field(
        description="A check that avoids the error before the call, or null."
    )
    typeGuard: str | None = Field(description="A type-level guard, or null.")
    tryCatchPattern: str | None = Field(
        description="How to match and handle the error at the call site, or null."
    )
    preventionTips: list[str] = Field(description="How to keep it from happening.")
    tags: list[str] = Field(description="Short lowercase tags.")
    backgroundTag: str = Field(description="One slug of the failure-class taxonomy.")


class Record(BaseModel):
    """One published error record, schemaVersion 2 (SPEC 4); key order is the seeds'."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: str = Field(pattern=r"^[0-9a-f]{16}$")
    repo: str = Field(pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
    slug: str
    errorCode: str | None
    errorMessage: str
    messagePattern: str
    errorType: ErrorType
    errorClass: str | None
    httpStatus: int | None
    severity: Severity
    filePath: str
    lineNumber: int = Field(ge=1)
    sourceCode: str
    sourceCodeStart: int = Field(ge=1)
    sourceCodeEnd: int = Field(ge=1)
    githubUrl: str
    documentation: str
    triggerScenarios: str
    commonSituations: str
    solutions: list[str]
    exampleFix: str
    handlingStrategy: HandlingStrategy
    validationCode: str | None
    typeGuard: str | None
    tryCatchPattern: str | None
    preventionTips: list[str]
    tags: list[str]
    backgroundTag: str
    analyzedSha: str = Field(pattern=r"^[0-9a-f]{40}$")
    analyzedAt: str
    contentChangedAt: str
    schemaVersion: Literal[2]


class RecordFile(BaseModel):
    """The content of `records/<id>.json`."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    record: Record
    datasetVersion: str


class Usage(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    prompt_tokens: int = 0
    completion_tokens: int = 0


class Provenance(BaseModel):
    """Per-record pipeline facts kept in the manifest, not in the record."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    analyzer: Literal["static", "llm"]
    status: Literal["ok", "failed"] = "ok"
    reason: str | None = None
    model: str | None = None
    promptVersion: str | None = None
    contentHash: str
    usage: Usage = Field(default_factory=Usage)
    kind: str
    grounded: bool | None = None
    enclosingFn: str | None = None
    conditions: list[str] = Field(default_factory=list)
    # what the reach of a record carried over unparsed reads besides its conditions: the
    # parameters the fn binds again first (`Facts.rebound`), what makes its error
    # (`callerpaths.made_by`: a variant or fn whose HTTP status the code may show)
    rebound: list[str] = Field(default_factory=list)
    madeBy: str | None = None
    # what the conditions need of the fn's parameters (`valueflow.site_needs`: `mode` ->
    # `out:Mode::A`, from the arms a catch-all comes after, which `conditions` do not keep)
    needs: dict[str, str] | None = None


class Retired(BaseModel):
    """A record whose site is gone: no longer emitted since `since` (a commit)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    since: str
    lastVersion: str
    errorMessage: str
    filePath: str
