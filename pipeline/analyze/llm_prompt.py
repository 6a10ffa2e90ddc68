"""Prompts for the LLM analyzer: files under `prompts/`, rendered strictly, versioned by content.

A prompt is two files, `<name>.system.md` (the fixed part: instructions, the
failure-class taxonomy, the answer's fields) and `<name>.user.md` (one site).
The fixed part comes first so that providers' prefix caching applies to every
request after the first. The prompt version is a short sha256 of both files'
bytes plus `PROMPT_REVISION`; it enters the cache key and the manifest.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from jinja2 import StrictUndefined, Template
from jinja2.sandbox import SandboxedEnvironment

from pipeline.analyze import SiteContext
from pipeline.core.model import SCHEMA_VERSION, Explanation

# Bump by hand when the code that fills the templates changes meaning.
PROMPT_REVISION = "1"
PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"
# No tokenizer is a dependency: ~4 characters per token is the usual English/code average.
CHARS_PER_TOKEN = 4
# Repository text enters only as variables, never as template source; the sandbox
# guards against prompt files that are themselves untrusted (a user's override).
_ENV = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False)


class FailureClassLike(Protocol):
    """What the prompt needs of a taxonomy entry (`pipeline.analyze.taxonomy.FailureClass`)."""

    @property
    def slug(self) -> str: ...
    @property
    def title(self) -> str: ...


def estimate_tokens(text: str) -> int:
    """Estimate the token count of text as characters / 4 (no tokenizer installed)."""
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def strict_schema(slugs: list[str]) -> dict[str, Any]:
    """The JSON schema of `Explanation` for OpenAI strict structured output.

    Descriptions are dropped: the system prompt already lists every field with
    its description, and each schema token is paid on every request.
    """
    schema = Explanation.model_json_schema()

    def fix(node: Any) -> None:
        if isinstance(node, dict):
            node.pop("default", None)
            node.pop("title", None)
            if isinstance(node.get("description"), str):
                node.pop("description")
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            for value in node.values():
                fix(value)
        elif isinstance(node, list):
            for value in node:
                fix(value)

    fix(schema)
    if slugs:
        schema["properties"]["backgroundTag"]["enum"] = list(slugs)
    return schema


def schema_version(schema: Mapping[str, Any]) -> str:
    """A short hash naming the answer schema (record schema version + the JSON schema sent)."""
    canonical = json.dumps(schema, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(f"{SCHEMA_VERSION}\n{canonical}".encode()).hexdigest()
    return f"s{SCHEMA_VERSION}-{digest[:10]}"


def _field_lines() -> list[dict[str, str]]:
    """One line per answer field (name, JSON type, description) for the system prompt."""
    out = []
    for name, info in Explanation.model_fields.items():
        annotation = str(info.annotation)
        if "list" in annotation:
            kind = "array of strings"
        elif "None" in annotation:
            kind = "string or null"
        elif "Literal" in annotation:
            kind = "one of " + ", ".join(repr(v) for v in info.annotation.__args__)  # type: ignore[union-attr]
        else:
            kind = "string"
        out.append({"name": name, "type": kind, "description": info.description or ""})
    return out


@dataclass(frozen=True)
class Prompt:
    """A loaded prompt: two templates and their version."""

    name: str
    system_source: str
    user_source: str
    version: str

    def render(
        self, ctx: SiteContext, taxonomy: Mapping[str, FailureClassLike]
    ) -> list[dict[str, str]]:
        """The chat messages for one site: fixed system part first, the site last."""
        system = self._system(tuple((c.slug, c.title) for c in taxonomy.values()))
        user = self._user_template.render(**site_variables(ctx))
        return [
            {"role": "system", "content": system},
            {"role": "user", "content": user.strip() + "\n"},
        ]

    @functools.cached_property
    def _user_template(self) -> Template:
        return _ENV.from_string(self.user_source)

    @functools.lru_cache(maxsize=4)  # noqa: B019 - a handful of prompts per process
    def _system(self, taxonomy: tuple[tuple[str, str], ...]) -> str:
        text = _ENV.from_string(self.system_source).render(
            taxonomy=[{"slug": slug, "title": title} for slug, title in taxonomy],
            fields=_field_lines(),
        )
        return text.strip() + "\n"


def site_variables(ctx: SiteContext) -> dict[str, Any]:
    """The template variables describing one site; every one is untrusted repository text."""
    site, facts = ctx.site, ctx.site.facts
    conditions = [
        ("not " if c.negated else "") + f"{c.kind} `{c.text}` (line {c.line})"
        for c in facts.conditions
    ]
    return {
        "repo": ctx.repo,
        "file": site.file_path,
        "line": site.line,
        "kind": site.kind,
        "macro": site.macro,
        "message": site.message,
        "pattern": ctx.message_pattern,
        "error_class": ctx.error_class or "unknown",
        "error_type": ctx.error_type,
        "severity": ctx.severity,
        "error_code": site.error_code,
        "enclosing_fn": facts.enclosing_fn,
        "enclosing_impl": facts.enclosing_impl,
        "return_type": facts.return_type,
        "enclosing_type": facts.enclosing_type,
        "variant": facts.variant,
        "type_doc": facts.type_doc,
        "receiver": facts.receiver,
        "callee": facts.callee,
        "conditions": conditions,
        "fn_doc": None if facts.fn_doc and facts.fn_doc in ctx.window else facts.fn_doc,
        "window": numbered_window(ctx),
    }


def numbered_window(ctx: SiteContext) -> str:
    """The window with right-aligned line numbers, the site's line marked `>`, and the
    indentation common to all lines removed (fewer tokens)."""
    lines = ctx.window.split("\n")
    width = len(str(ctx.window_start + len(lines) - 1))
    indent = min((len(t) - len(t.lstrip(" ")) for t in lines if t.strip()), default=0)
    return "\n".join(
        f"{'>' if number == ctx.site.line else ' '}{number:>{width}} | {text[indent:]}"
        for number, text in enumerate(lines, ctx.window_start)
    )


def load_prompt(name: str = "explain", directory: Path | None = None) -> Prompt:
    """Read `<name>.system.md` and `<name>.user.md`; the version hashes their bytes."""
    base = directory or PROMPTS_DIR
    system_path, user_path = base / f"{name}.system.md", base / f"{name}.user.md"
    try:
        system_bytes, user_bytes = system_path.read_bytes(), user_path.read_bytes()
    except OSError as exc:
        raise ValueError(f"prompt {name!r} not found: {exc.filename} is missing") from exc
    digest = hashlib.sha256()
    for part in (PROMPT_REVISION.encode(), system_bytes, b"\0", user_bytes):
        digest.update(part)
    return Prompt(
        name=name,
        system_source=system_bytes.decode("utf-8"),
        user_source=user_bytes.decode("utf-8"),
        version=f"{name}-{digest.hexdigest()[:12]}",
    )
