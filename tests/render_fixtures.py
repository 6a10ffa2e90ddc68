"""Datasets for the render, explain and browser tests, made from the seeds' two JSON records."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

SEEDS = Path(__file__).parent / "golden" / "seed_records"
SEED_IDS = ("a71b6a9059b622d5", "f16c5768bcd8aade")
REPO = "risingwavelabs/risingwave"


def seed_doc(record_id: str) -> dict[str, Any]:
    """One seed record file, parsed."""
    doc: dict[str, Any] = json.loads((SEEDS / f"{record_id}.json").read_text(encoding="utf-8"))
    return doc


def seed_dataset(out: Path) -> Path:
    """OUT/risingwavelabs/risingwave/records/ holding the seed files byte for byte, no manifest."""
    records = out / REPO / "records"
    records.mkdir(parents=True)
    for rid in SEED_IDS:
        shutil.copyfile(SEEDS / f"{rid}.json", records / f"{rid}.json")
    return out / REPO


def write_dataset(out: Path, repo: str, bodies: list[dict[str, Any]], **manifest: Any) -> Path:
    """A dataset of the given record bodies, with a manifest when keyword fields are given."""
    root = out / repo
    (root / "records").mkdir(parents=True)
    version = "2026-09-14T16:17:12.679Z"
    for rec in bodies:
        doc = {"record": rec, "datasetVersion": version}
        (root / "records" / f"{rec['id']}.json").write_text(json.dumps(doc), encoding="utf-8")
    if manifest:
        body = {"repo": repo, "sha": bodies[0]["analyzedSha"], "datasetVersion": version}
        (root / "manifest.json").write_text(json.dumps(body | manifest), encoding="utf-8")
    return root


def write_version(root: Path, version: str, records: list[dict[str, Any]]) -> None:
    """versions/<version>.jsonl.gz with one compact record per line."""
    (root / "versions").mkdir(exist_ok=True)
    with gzip.open(root / "versions" / f"{version}.jsonl.gz", "wt", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
