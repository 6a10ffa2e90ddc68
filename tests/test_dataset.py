"""Loading a published dataset: the one-file fast path reads what the record files hold."""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.core.model import Provenance, Record
from pipeline.dataset.reader import load_dataset
from pipeline.dataset.store import Publication, publish

SEEDS = Path(__file__).parent / "golden" / "seed_records"


def seed_records() -> list[Record]:
    return [
        Record.model_validate(json.loads(p.read_text("utf-8"))["record"])
        for p in sorted(SEEDS.glob("*.json"))
    ]


def published(tmp_path: Path) -> Path:
    records = seed_records()
    provenance = {
        r.id: Provenance(analyzer="llm", contentHash=f"sha256:{r.id}", kind="bail") for r in records
    }
    root = tmp_path / "risingwavelabs" / "risingwave"
    publish(
        root,
        Publication(
            "risingwavelabs/risingwave",
            "6" * 40,
            "2026-09-14T16:17:12.679Z",
            records,
            provenance,
            {},
        ),
        None,
    )
    return root


def test_records_jsonl_and_the_record_files_load_the_same(tmp_path: Path) -> None:
    root = published(tmp_path)
    fast = load_dataset(root)
    (root / "records.jsonl").unlink()
    slow = load_dataset(root)
    assert fast.records == slow.records == tuple(sorted(seed_records(), key=lambda r: r.id))
    assert fast.dataset_version == slow.dataset_version == "2026-09-14T16:17:12.679Z"


def test_a_records_jsonl_that_disagrees_with_records_is_not_trusted(tmp_path: Path) -> None:
    root = published(tmp_path)
    lines = (root / "records.jsonl").read_text("utf-8").splitlines()
    (root / "records.jsonl").write_text(lines[0] + "\n", "utf-8")  # one record short
    assert len(load_dataset(root).records) == 2
