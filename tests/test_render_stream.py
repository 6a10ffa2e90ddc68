"""`render` in bounded memory (issue 16: 200,000 records took 2.3 GB): it keeps a small summary
per record and reads each whole record once, for its own page, from where it first read it."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from render_fixtures import SEED_IDS, seed_doc, write_dataset

from pipeline.dataset.reader import DatasetChanged, load_dataset
from pipeline.dataset.summary import outline
from pipeline.publish.render import render_site

BODY_CHARS = 40_000  # a long explanation: what a summary leaves out


def _bodies(n: int, repo: str = "acme/big") -> list[dict[str, Any]]:
    seed = seed_doc(SEED_IDS[0])["record"]
    out = []
    for i in range(n):
        rid = f"{i + 1:016x}"
        out.append(
            seed
            | {
                "id": rid,
                "repo": repo,
                "slug": f"failure-{i}",
                "errorMessage": f"failure number {i} in the store",
                "messagePattern": f"failure number {i} in the store",
                "filePath": f"src/part{i % 7}/file{i}.rs",
                "githubUrl": f"https://github.com/{repo}/blob/{'0' * 40}/src/x.rs#L{i + 1}",
                "documentation": f"{i} " + "explained at length " * (BODY_CHARS // 20),
            }
        )
    return out


def test_render_holds_a_summary_per_record_not_the_records(tmp_path: Path) -> None:
    n = 240
    root = write_dataset(tmp_path / "out", "acme/big", _bodies(n), records={})
    (root / "records.jsonl").write_text(  # what extract publishes beside the record files
        "".join(
            json.dumps(json.loads(p.read_text())["record"]) + "\n"
            for p in sorted((root / "records").iterdir())
        )
    )
    tracemalloc.start()
    try:
        report = render_site(tmp_path / "out", tmp_path / "site")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.pages == n and report.api_files == n
    held = n * BODY_CHARS
    # every record at once would be over 9.6 MB of explanations alone; one at a time is not
    assert peak < held / 2, f"peak {peak / 1e6:.1f} MB for {held / 1e6:.1f} MB of records"
    page = next((tmp_path / "site" / "acme" / "big").glob("0000000000000005-*.html")).read_text()
    assert "4 explained at length" in page  # each page still has its whole record


def _dataset(out: Path, n: int, repo: str = "acme/big") -> Path:
    bodies = _bodies(n, repo)
    return write_dataset(out, repo, bodies, records={})


def test_a_dataset_swapped_in_after_the_read_does_not_mix_into_the_pages(tmp_path: Path) -> None:
    root = _dataset(tmp_path / "out", 3)
    first = outline(root)
    assert [s.id for s in first.summaries] == [f"{i:016x}" for i in (1, 2, 3)]
    newer = write_dataset(
        tmp_path / "newer",
        "acme/big",
        [b | {"errorMessage": "published later"} for b in _bodies(4)],
        records={},
    )
    shutil.rmtree(root)
    os.rename(newer, root)  # as a publish's exchange does: another directory, same path
    records = [r for r, _ in first.records()]  # the records of the publication first read
    assert [r.id for r in records] == [s.id for s in first.summaries]
    assert all(r.errorMessage.startswith("failure number") for r in records)
    assert len(outline(root).summaries) == 4  # a new read sees the new publication


def test_records_jsonl_rewritten_after_the_read_is_not_seen(tmp_path: Path) -> None:
    root = _dataset(tmp_path / "out", 3)
    lines = [json.loads(p.read_text())["record"] for p in sorted((root / "records").iterdir())]
    (root / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    first = outline(root)
    assert first.from_jsonl
    changed = [lines[0] | {"errorMessage": "changed since"}, *lines[1:]]
    (root / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in changed))
    assert [r.errorMessage for r, _ in first.records()] == [r["errorMessage"] for r in lines]


def test_a_record_file_gone_before_its_api_file_is_copied_is_a_change(tmp_path: Path) -> None:
    root = _dataset(tmp_path / "out", 2)
    lines = [json.loads(p.read_text())["record"] for p in sorted((root / "records").iterdir())]
    (root / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    first = outline(root)
    (root / "records" / f"{2:016x}.json").unlink()
    with pytest.raises(DatasetChanged):
        list(first.records())


def test_outline_answers_as_the_full_loader_does(tmp_path: Path) -> None:
    root = _dataset(tmp_path / "out", 5)
    (root / "manifest.json").write_text(json.dumps({"datasetVersion": "v9", "repo": "acme/big"}))
    full, light = load_dataset(root), outline(root)
    assert (light.repo, light.sha, light.dataset_version) == (
        full.repo,
        full.sha,
        full.dataset_version,
    )
    assert [s.id for s in light.summaries] == [r.id for r in full.records]
    assert [s.errorMessage for s in light.summaries] == [r.errorMessage for r in full.records]
    assert [r for r, _ in light.records()] == list(full.records)


def _no_big_files() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a refused write, not a killed process
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))


def test_a_spill_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    _dataset(tmp_path / "out", 2)  # each record is over 40 KB: its spill is refused
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "render", "--out", str(tmp_path / "out"),
         "--site", str(tmp_path / "site")],
        capture_output=True, text=True, check=False, preexec_fn=_no_big_files,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "cannot write the site" in done.stderr and not (tmp_path / "site").exists()
