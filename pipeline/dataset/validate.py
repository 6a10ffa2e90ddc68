"""`validate`: every record file under OUT against the exported JSON Schema, plus consistency."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jsonschema

from pipeline.core.model import RecordFile
from pipeline.core.patterns import pattern_problem
from pipeline.dataset import store
from pipeline.dataset.records import CODE_ONLY_FIELDS, field_parses
from pipeline.dataset.safefile import UnsafeFile, read_json
from pipeline.languages import language_of


def record_schema() -> dict[str, Any]:
    """The JSON Schema of `records/<id>.json`."""
    schema = RecordFile.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "errdoc record file (schemaVersion 2)"
    return schema


def dataset_dirs(out: Path) -> list[Path]:
    """Every dataset directory under OUT (or OUT itself if it is one)."""
    if (out / "records").is_dir():
        return [out]
    return store.dataset_dirs(out)


def validate_out(out: Path) -> tuple[int, list[str]]:
    """(records checked, problems found), one line per problem."""
    validator = jsonschema.Draft202012Validator(record_schema())
    problems: list[str] = []
    checked = 0
    roots = dataset_dirs(out)
    if not roots:
        return 0, [f"{out}: no dataset found (expected OUT/<owner>/<name>/records/)"]
    for root in roots:
        manifest = _manifest(root, problems)
        for path in sorted((root / "records").glob("*.json")):
            checked += 1
            problems.extend(_check_file(path, validator, manifest))
    return checked, problems


def _manifest(root: Path, problems: list[str]) -> dict[str, Any] | None:
    path = root / "manifest.json"
    if not os.path.lexists(path):
        return None
    try:
        manifest = read_json(path)
    except OSError as err:  # a link, a FIFO, a huge file: said, never followed or waited on
        problems.append(str(err) if isinstance(err, UnsafeFile) else f"{path}: {err}")
        return None
    except ValueError as err:
        problems.append(f"{path}: not JSON ({err})")
        return None
    if not isinstance(manifest, dict):
        problems.append(f"{path}: not a JSON object")
        return None
    return manifest


def _check_file(
    path: Path, validator: jsonschema.Draft202012Validator, manifest: dict[str, Any] | None
) -> list[str]:
    try:
        data = read_json(path)
    except OSError as err:
        return [str(err) if isinstance(err, UnsafeFile) else f"{path}: {err}"]
    except ValueError as err:
        return [f"{path}: not JSON ({err})"]
    problems = [
        f"{path}: {'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
        for e in validator.iter_errors(data)
    ]
    if problems:
        return problems
    record = data["record"]
    if path.stem != record["id"]:
        problems.append(f"{path}: file name does not match id {record['id']}")
    problem = pattern_problem(record["messagePattern"])
    if problem:  # what `explain` would not run (core/patterns.py), `validate` refuses
        problems.append(f"{path}: messagePattern {problem}")
    lines = record["sourceCode"].count("\n") + 1
    if record["sourceCodeEnd"] - record["sourceCodeStart"] + 1 != lines:
        problems.append(f"{path}: sourceCode has {lines} lines, the window bounds say otherwise")
    if not record["sourceCodeStart"] <= record["lineNumber"] <= record["sourceCodeEnd"]:
        problems.append(f"{path}: lineNumber is outside the source window")
    language = language_of(record["filePath"])
    provenance = manifest.get("records") if manifest is not None else None
    origin = provenance.get(record["id"]) if isinstance(provenance, dict) else None
    # exampleFix is code for the static analyzer; a model may answer with commands there.
    static = isinstance(origin, dict) and origin.get("analyzer") == "static"
    for name in ("exampleFix", *CODE_ONLY_FIELDS) if static else CODE_ONLY_FIELDS:
        text = record.get(name)
        if text is not None and not field_parses(name, text, language):
            problems.append(f"{path}: {name} is not valid {language.name} code")
    if manifest is not None and (
        not isinstance(provenance, dict) or record["id"] not in provenance
    ):
        problems.append(f"{path}: no provenance in manifest.json")
    return problems
