"""The scan and index caches are keyed by a blob's bytes; what a path alone decides is never
read from them. A file under a test directory has no sites and no index whatever it holds,
and the same bytes may sit at a product path too: tauri's examples and its benchmarks'
tests share one `build.rs`. A blob's empty scan cached from `tests/lib.rs` had made the
same bytes at `src/lib.rs` scan empty in the next run (its record lost), and a product
blob's index read back for a test path had given a warm run three build scripts' `main`s a
cold run leaves out (91 of tauri's records read other paths warm than cold; stop 54)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gitrepo import GitRepo
from test_index_units import warm_and_cold

from pipeline.core.index import FileIndex

ROOT = Path(__file__).parent.parent
SITE = (
    "pub fn f(x: u32) -> anyhow::Result<()> {\n"
    "    if x > 2 {\n"
    '        anyhow::bail!("the value is far too large");\n'
    "    }\n"
    "    Ok(())\n"
    "}\n"
)
MANIFEST = '[package]\nname = "dup"\n'


def extract(repo: GitRepo, sha: str, out: Path, cache: Path) -> list[str]:
    subprocess.run(
        [sys.executable, "-m", "pipeline", "extract", "--repo", "o/dup", "--sha", sha,
         "--source", str(repo.path), "--out", str(out), "--cache", str(cache)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, check=True,
    )  # fmt: skip
    records = out / "o" / "dup" / "records.jsonl"
    return sorted(json.loads(line)["filePath"] for line in records.read_text().splitlines())


def test_bytes_first_seen_at_a_test_path_still_scan_at_a_product_path(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    first = repo.commit(
        {"Cargo.toml": MANIFEST, "tests/lib.rs": SITE, "src/lib.rs": "pub fn g() {}\n"}
    )
    second = repo.commit({"src/lib.rs": SITE})
    out, cache = tmp_path / "out", tmp_path / "cache"

    assert extract(repo, first, out, cache) == []
    assert extract(repo, second, out, cache) == ["src/lib.rs"]
    assert extract(repo, second, tmp_path / "cold", tmp_path / "cold-cache") == ["src/lib.rs"]


def test_a_test_path_has_no_index_whatever_the_cache_holds_for_its_bytes(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    code = "pub fn main_helper() -> u32 {\n    1\n}\n"
    first = repo.commit({"src/lib.rs": code})
    second = repo.commit({"tests/common.rs": code})  # the same blob, under tests/
    warm, cold, _ = warm_and_cold(repo, (first, second), tmp_path)

    assert warm == cold
    assert warm["tests/common.rs"] == FileIndex(clean=False)
    assert [d.name for d in warm["src/lib.rs"].definitions] == ["main_helper"]
