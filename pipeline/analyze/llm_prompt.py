"""Prompts for the LLM analyzer: files under `prompts/`, rendered strictly, versioned by content.

A prompt is up to four files: `<name>.system.md` (the fixed prefix: rules, the
fields with their limits, the taxonomy, guidance per site kind), `<name>.example.md`
(a worked example, inserted verbatim into the prefix), `<name>.file.md` (the
block shared by every site of one file) and `<name>.user.md` (one site). The
request is the prefix, then the file block, then the site, so that a provider's
prefix cache serves the prefix to every request and the file block to the
sites of a file sent together (`prompt_cache_key` names the file). The prompt
version is a short sha256 of the files' bytes plus `PROMPT_REVISION`; it enters
the cache key and the manifest.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from jinja2 import StrictUndefined, Template
from jinja2.sandbox import SandboxedEnvironment

from pipeline.analyze import SiteContext
from pipeline.analyze.fields import FIELD_ORDER, FIELDS, RULES, STRATEGIES
from pipeline.analyze.reach_text import built_when_text, callee_builds_text, failed_call_text
from pipeline.core.model import SCHEMA_VERSION, Explanation
from pipeline.core.reach import CallerPath, Reach, guard_parts, handoff_text, no_entry_note
from pipeline.core.sitetypes import Condition, checked_above

# Bump by hand when the code that fills the templates changes meaning.
PROMPT_REVISION = "3"
PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"
# The estimate used where no tokenizer is at hand (dry runs, rate limits): ~4 characters
# per token is the usual English/code average; the bench counts with a real tokenizer.
CHARS_PER_TOKEN = 4
# Appended to the thrown line of the window: a marker instead of a line-number gutter,
# which cost ~10% of the prompt's tokens.
SITE_MARKER = "// <- error site"
# Repository text enters only as variables, never as template source; the sandbox
# guards against prompt files that are themselves untrusted (a user's override).
_ENV = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False)
_ENTRY_WORDS = {
    "main": "program entry `main`",
    "cli": "CLI command",
    "rpc": "RPC",
    "http": "HTTP route",
    "statement": "SQL statement",
    "pub-api": "public API",
    "macro": "procedural macro (the compiler runs it)",
    "custom": "entry point",
    "example": "example program",
    "build": "build script",
    "bench": "benchmark program",
}


class FailureClassLike(Protocol):
    """What the prompt needs of a taxonomy entry (`pipeline.analyze.taxonomy.FailureClass`)."""

    @property
    def slug(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def description(self) -> str: ...


def estimate_tokens(text: str) -> int:
    """Estimate the token count of text as characters / 4 (no tokenizer installed)."""
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def strict_schema(slugs: list[str]) -> dict[str, Any]:
    """The JSON schema of `Explanation` for OpenAI strict structured output.

    Descriptions are dropped: the system prompt already lists every field with
    its description, and each schema token is paid on every request. Properties
    come in reasoning order (`triggerScenarios` first): a model writes them so.
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
    properties = schema["properties"]
    order = [name for name in FIELD_ORDER if name in properties]
    order += [name for name in properties if name not in order]
    schema["properties"] = {name: properties[name] for name in order}
    schema["required"] = order
    if slugs:
        schema["properties"]["backgroundTag"]["enum"] = list(slugs)
    return schema


def schema_version(schema: Mapping[str, Any]) -> str:
    """A short hash naming the answer schema (record schema version + the JSON schema sent)."""
    canonical = json.dumps(schema, sort_keys=False, separators=(",", ":"))
    digest = hashlib.sha256(f"{SCHEMA_VERSION}\n{canonical}".encode()).hexdigest()
    return f"s{SCHEMA_VERSION}-{digest[:10]}"


def prompt_cache_key(version: str, repo: str, file_path: str) -> str:
    """The provider's `prompt_cache_key` for a site: one per prompt version and file, so
    that a file's sites, sent together, land on the server that holds that prefix."""
    digest = hashlib.sha256(f"{repo}\n{file_path}".encode()).hexdigest()[:16]
    return f"errdoc-{version}-{digest}"


def _field_lines() -> list[dict[str, str]]:
    """One line per answer field in reasoning order: name, JSON type, limit, meaning."""
    out = []
    for name in FIELD_ORDER:
        info, rule = Explanation.model_fields[name], RULES[name]
        annotation = str(info.annotation)
        if "list" in annotation:
            kind = "array of strings"
            limit = f"at most {rule.max_items} items of {rule.max_chars}"
        elif "None" in annotation:
            kind, limit = "string or null", f"at most {rule.max_chars}"
        elif "Literal" in annotation:
            values = info.annotation.__args__  # type: ignore[union-attr]
            kind, limit = "one of " + ", ".join(repr(v) for v in values), ""
        else:
            kind, limit = "string", f"at most {rule.max_chars}"
        if name == "backgroundTag":
            limit = ""
        out.append({"name": name, "type": kind, "limit": limit, "meaning": rule.meaning})
    return out


@dataclass(frozen=True)
class Prompt:
    """A loaded prompt: its templates and their version."""

    name: str
    system_source: str
    user_source: str
    version: str
    file_source: str = ""
    example: str = ""

    def parts(
        self, ctx: SiteContext, taxonomy: Mapping[str, FailureClassLike]
    ) -> tuple[str, str, str]:
        """The three parts of a request: shared prefix, file block, site block."""
        classes = tuple((c.slug, c.title, c.description) for c in taxonomy.values())
        variables = site_variables(ctx)
        file_block = self._file_template.render(**variables).strip() if self.file_source else ""
        site_block = self._user_template.render(**variables).strip()
        return self._system(classes), file_block, site_block

    def prefix(self, taxonomy: Mapping[str, FailureClassLike]) -> str:
        """The shared prefix (the system message), the same for every site."""
        return self._system(tuple((c.slug, c.title, c.description) for c in taxonomy.values()))

    def render(
        self, ctx: SiteContext, taxonomy: Mapping[str, FailureClassLike]
    ) -> list[dict[str, str]]:
        """The chat messages for one site: prefix (system), then the file and the site."""
        system, file_block, site_block = self.parts(ctx, taxonomy)
        user = f"{file_block}\n\n{site_block}\n" if file_block else f"{site_block}\n"
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def cache_key(self, ctx: SiteContext) -> str:
        """The `prompt_cache_key` of a site's request."""
        return prompt_cache_key(self.version, ctx.repo, ctx.site.file_path)

    @functools.cached_property
    def _user_template(self) -> Template:
        return _ENV.from_string(self.user_source)

    @functools.cached_property
    def _file_template(self) -> Template:
        return _ENV.from_string(self.file_source)

    @functools.lru_cache(maxsize=4)  # noqa: B019 - a handful of prompts per process
    def _system(self, taxonomy: tuple[tuple[str, str, str], ...]) -> str:
        text = _ENV.from_string(self.system_source).render(
            taxonomy=[
                {"slug": slug, "title": title, "description": definition(description)}
                for slug, title, description in taxonomy
            ],
            fields=_field_lines(),
            strategies=STRATEGIES,
            example=self.example.strip(),
        )
        return text.strip() + "\n"


def definition(description: str) -> str:
    """A taxonomy description's first sentence: what the class is. The rest (how to fix it)
    is for readers of a page; sent with every request it cost ~1,500 tokens."""
    text = " ".join(description.split())
    return re.split(r"(?<=[.!?])\s+(?=[A-Z])", text, maxsplit=1)[0]


def failpoint_condition(name: str) -> str:
    """The first condition of a site in a `fail_point!`'s closure, as the prompt lists it."""
    return (
        f"the failpoint `{name}` is configured to run its closure (`fail_point!` of the `fail` "
        "crate: only a build with its `failpoints` feature, in a test or under `FAILPOINTS`, "
        "runs it; no input makes it)"
    )


def _condition_line(c: Condition) -> str:
    """One step of the site's condition chain as the prompt lists it."""
    if not c.negated:
        return f"{c.kind} `{c.text}` (line {c.line})"
    if c.kind == "exit":
        why = "an early exit above"
    elif checked_above(c):
        why = "an earlier check that fails above"
    else:
        why = f"{c.kind} branch"
    return f"`{c.text}` does not hold ({why}, line {c.line})"


def site_variables(ctx: SiteContext) -> dict[str, Any]:
    """The template variables describing one site; every one is untrusted repository text."""
    site, facts = ctx.site, ctx.site.facts
    conditions = [_condition_line(c) for c in facts.conditions]
    if facts.failpoint:  # a test's injection (`analyze/failpoints.py`), said as a condition:
        # the site's own text, so that the templates, and every cached answer, stay as they are
        conditions.insert(0, failpoint_condition(facts.failpoint))
    window, end = marked_window(ctx)
    reach = ctx.reach or Reach()
    return {
        "repo": ctx.repo,
        "sha": ctx.sha,
        "file": site.file_path,
        "crate": crate_of(site.file_path),
        "module": ctx.module,  # what Cargo calls the file (`risingwave_meta::stream`), if known
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
        "type_doc": _one_line(facts.type_doc),
        "enum_doc": _one_line(facts.enum_doc),
        "gates": list(facts.gates),
        "receiver": facts.receiver,
        "callee": facts.callee,
        "conditions": conditions,
        "state_field": facts.state_field if facts.state_setters else None,
        "state_setters": [list(s) for s in facts.state_setters],
        "state_getter": facts.state_getter,
        "fn_doc": None if facts.fn_doc and facts.fn_doc in ctx.window else _one_line(facts.fn_doc),
        "paths": _paths_variables(reach.paths),
        "callers": reach.callers,
        "entries": reach.entries,
        "built": reach.built,
        "built_when": built_when_text(reach) if reach.built_when else None,
        "callee_build": callee_builds_text(reach.callee_builds) if reach.callee_builds else None,
        "failed_call": failed_call_text(reach.failed_call) if reach.failed_call else None,
        "unbuilt": reach.unbuilt,
        "converts": reach.converts,
        "initialized": reach.initialized,
        "dependencies": [
            {
                "name": d.name,
                "kind": d.kind,
                "text": d.text,
                "passed": [
                    handoff_text(h, d.passed[i - 1].caller if i else None)
                    for i, h in enumerate(d.passed)
                ],
                "doc": _first_paragraph(d.doc),
                "setter": d.setter,
                "where": f"{d.file_path}:{d.line}" if d.file_path and d.line else d.file_path,
            }
            for d in reach.dependencies
        ],
        "conversion": reach.conversion,
        "http_status": reach.http_status,
        "code": reach.code,
        "code_by": reach.code_by,
        "window": window,
        "window_start": ctx.window_start,
        "window_end": end,
    }


def _paths_variables(paths: Sequence[CallerPath]) -> list[dict[str, Any]]:
    """The paths for the prompt; a hop an earlier path showed is named, not shown again
    (risingwave's paths share `handle` and the last two hops: ~40% of their tokens)."""
    seen: set[tuple[str, str, int]] = set()
    out = []
    for path in paths:
        variables = _path_variables(path)
        for hop, shown in zip(path.hops, variables["hops"], strict=True):
            key = (hop.name, hop.file_path, hop.line)
            shown["seen"] = key in seen
            seen.add(key)
        out.append(variables)
    return out


def _path_variables(path: CallerPath) -> dict[str, Any]:
    if path.entry_label:
        entry = path.entry_label
    elif path.entry is not None:
        entry = f"{_ENTRY_WORDS[path.entry]} `{path.hops[0].name}`" if path.hops else path.entry
    elif path.beyond is not None:
        entry = f"outermost caller first, {no_entry_note(path)}"
    else:
        entry = "no entry point reached within the search depth; outermost caller first"
    hops = [
        {
            "name": hop.name,
            "where": f"{hop.file_path}:{hop.line}",
            "signature": " ".join(hop.signature.split()),
            "doc": _first_paragraph(hop.doc),
            "call": f"{hop.file_path}:{hop.call_line}" if hop.call_line is not None else None,
            "also_at": ", ".join(str(n) for n in hop.also_at),
            "candidates": ", ".join(f"`{c}`" for c in hop.candidates),
            "conversion": hop.resolution == "conversion",
            "unwraps": hop.unwraps,
            "guard": guard_parts(hop.guard)[1] if hop.guard else None,
            "guard_kind": guard_parts(hop.guard)[0] if hop.guard else None,
        }
        for hop in path.hops
    ]
    return {"entry": entry, "hops": hops}


def _one_line(text: str | None) -> str | None:
    return " ".join(text.split()) if text else None


def _first_paragraph(doc: str | None, limit: int = 400) -> str | None:
    """A doc comment's first paragraph on one line: what a reader needs of a hop."""
    if not doc:
        return None
    text = " ".join(doc.strip().split("\n\n", 1)[0].split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def crate_of(path: str) -> str | None:
    """`src/meta/src/stream/x.rs` -> `src/meta`: the directory holding the crate's `src/`."""
    head, found, _ = path.partition("/src/")
    return head if found and head else None


def marked_window(ctx: SiteContext) -> tuple[str, int]:
    """The window without a gutter: common indentation removed, the thrown line marked at
    its end; and the window's last line number."""
    lines = ctx.window.split("\n")
    indent = min((len(t) - len(t.lstrip(" ")) for t in lines if t.strip()), default=0)
    out = []
    for number, text in enumerate(lines, ctx.window_start):
        text = text[indent:].rstrip()
        out.append(f"{text} {SITE_MARKER}" if number == ctx.site.line else text)
    return "\n".join(out), ctx.window_start + len(lines) - 1


def _optional(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""


def load_prompt(name: str = "explain", directory: Path | None = None) -> Prompt:
    """Read the prompt's files (system and user required); the version hashes their bytes."""
    base = directory or PROMPTS_DIR
    system_path, user_path = base / f"{name}.system.md", base / f"{name}.user.md"
    try:
        system_bytes, user_bytes = system_path.read_bytes(), user_path.read_bytes()
    except OSError as exc:
        raise ValueError(f"prompt {name!r} not found: {exc.filename} is missing") from exc
    file_bytes = _optional(base / f"{name}.file.md")
    example_bytes = _optional(base / f"{name}.example.md")
    digest = hashlib.sha256()
    for part in (PROMPT_REVISION.encode(), system_bytes, b"\0", user_bytes, b"\0", file_bytes):
        digest.update(part)
    digest.update(b"\0" + example_bytes)
    # The fields' meanings and limits are rendered into the prefix: a change re-asks.
    digest.update(b"\0" + repr((FIELDS, STRATEGIES)).encode())
    return Prompt(
        name=name,
        system_source=system_bytes.decode("utf-8"),
        user_source=user_bytes.decode("utf-8"),
        version=f"{name}-{digest.hexdigest()[:12]}",
        file_source=file_bytes.decode("utf-8"),
        example=example_bytes.decode("utf-8"),
    )
