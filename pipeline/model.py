"""Typed data handed between the stages.

`Site` and `FileScan` come out of `sites.find_sites` (pure, no IO); `Explanation`
comes out of an analyzer; `Record` is the published record of schemaVersion 2
(SPEC 4), with its keys in the order the seeds show; `Provenance` is the
per-record entry of the manifest (SPEC 6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION = 2

SiteKind = Literal[
    "bail",
    "anyhow",
    "ensure",
    "format_err",
    "eyre",
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
    "assert",
    "error_attr",
    "expect",
    "context",
    "constructor",
]
ErrorType = Literal["exception", "panic", "error_code"]
Severity = Literal["critical", "error", "warning"]
HandlingStrategy = Literal[
    "validation", "try-catch", "retry", "configuration", "upgrade", "fail-fast"
]
ConditionKind = Literal[
    "if",
    "else",
    "match_arm",
    "let_else",
    "if_let",
    "while",
    "ensure",
    "closure",
    "loop",
    "check_failed",
]


@dataclass(frozen=True, slots=True)
class Condition:
    """One step of the path of conditions that leads to a site, outermost first."""

    kind: ConditionKind
    text: str  # the condition as written (`self.state.is_paused()`, `Some(x) =>`)
    line: int  # 1-based
    negated: bool = False  # True for an `else` branch: the condition did NOT hold


@dataclass(frozen=True, slots=True)
class Facts:
    """What the syntax tree says about the code around a site."""

    enclosing_fn: str | None = None
    enclosing_impl: str | None = (
        None  # `impl Foo` / `impl Trait for Foo` -> "Foo" / "Trait for Foo"
    )
    fn_doc: str | None = None  # the doc comment of the enclosing fn, `///` stripped
    return_type: str | None = None  # the enclosing fn's return type as written
    conditions: tuple[Condition, ...] = ()
    enclosing_type: str | None = None  # for `#[error]`: the enum or struct
    variant: str | None = None  # for `#[error]` on a variant
    type_doc: str | None = None  # doc comment on that enum/struct/variant
    receiver: str | None = None  # `.expect`/`.context`: the expression it is called on
    callee: str | None = (
        None  # constructor: `ErrorCode::InvalidParameter`, `Status::invalid_argument`
    )


@dataclass(frozen=True, slots=True)
class Site:
    """A place in one file where the code produces an error message a user can see."""

    kind: SiteKind
    file_path: str
    line: int  # 1-based line of the macro or call start
    column: int  # 0-based byte column
    message: str  # the format string as written, escapes decoded, placeholders kept
    is_format: bool  # False for `.expect("..")`-style literals, whose braces are literal
    pattern: str  # `messagePattern`: the regex every rendering of `message` fullmatches
    macro: (
        str  # the macro or method as written (`anyhow::bail`, `expect`, `Status::invalid_argument`)
    )
    format_args: tuple[str, ...] = ()
    error_code: str | None = None
    http_status: int | None = None
    facts: Facts = field(default_factory=Facts)
    window: str = ""  # source lines line-18 .. line+18, clipped to the file, joined by "\n"
    window_start: int = 1  # 1-based line of the window's first line


@dataclass(frozen=True, slots=True)
class TypeAlias:
    """`type MetaResult<T> = Result<T, MetaError>`: name -> the error type."""

    name: str
    error_type: str


@dataclass(frozen=True, slots=True)
class FileScan:
    """Everything `find_sites` learns from one file."""

    sites: tuple[Site, ...]
    aliases: tuple[TypeAlias, ...] = ()
    parse_errors: int = 0  # 1 when tree-sitter had to recover from a syntax error
    uses_anyhow_result: bool = False  # `use anyhow::Result` (or `{.., Result}`): bare `Result<T>`


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


class Retired(BaseModel):
    """A record whose site is gone: no longer emitted since `since` (a commit)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    since: str
    lastVersion: str
    errorMessage: str
    filePath: str
