"""Memory of a run bounded per record (issue 16: 200,000 tiny files took 3 GB): record lines
and provenance spill to disk, version snapshots and `records.jsonl` are written in pieces."""

from __future__ import annotations

import gzip
import tracemalloc
from pathlib import Path

from pipeline.dataset import history
from pipeline.dataset.atomicdir import rewrite
from pipeline.dataset.spill import Layered, Spilled


def _line(n: int) -> str:
    pad = "x" * 2000
    return f'{{"id":"{n:016x}","errorMessage":"tiny failure é {n}","pad":"{pad}"}}'


def test_spilled_lines_cost_memory_per_key_not_per_byte(tmp_path: Path) -> None:
    n = 3000
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        spilled = Spilled(tmp_path)
        for i in range(n):
            spilled.put(f"{i:016x}", _line(i))
        spilled.seal()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held / n < 400, f"{held / n:.0f} bytes a 2 KB line"  # a str would take 2,100
    assert len(spilled) == n and spilled[f"{17:016x}"] == _line(17)
    assert list(spilled)[:2] == [f"{0:016x}", f"{1:016x}"] and "nope" not in spilled


def test_layered_lines_give_the_first_layer_that_has_a_key(tmp_path: Path) -> None:
    spilled = Spilled(tmp_path)
    spilled.put("a", "spilled a")
    spilled.put("b", "spilled b")
    view = Layered({"a": "carried a"}, spilled, {"c": "made c"})
    assert dict(view) == {"a": "carried a", "b": "spilled b", "c": "made c"} and len(view) == 3


def test_a_streamed_snapshot_is_the_packed_body_byte_for_byte(tmp_path: Path) -> None:
    lines = {f"{i:016x}": _line(i)[: 40 + i % 900] for i in range(2500)}
    body = "".join(f"{lines[k]}\n" for k in sorted(lines)).encode()
    assert history.jsonl(lines) == body
    packed = history.pack_chunks(history.jsonl_chunks(lines, per_chunk=7))
    assert packed == history.pack(body) and gzip.decompress(packed) == body
    assert history.pack_chunks([]) == history.pack(b"")
    target = tmp_path / "records.jsonl"
    target.write_bytes(b"y" * (len(body) + 5000))  # a longer file is cut to the new end
    rewrite(target, history.jsonl_chunks(lines))
    assert target.read_bytes() == body
