"""A dataset edited by an attacker: render, validate and explain write nothing outside SITE,
follow no link, wait on no FIFO, inflate no bomb, and fail in one line (issue 16: 1, 6, 9-11)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from render_fixtures import REPO, SEED_IDS, seed_doc, write_dataset, write_version

from pipeline.cli import main
from pipeline.dataset.validate import validate_out
from pipeline.publish.render import render_site
from pipeline.publish.render.site import RenderError

ROOT = Path(__file__).resolve().parent.parent


def _bodies() -> list[dict[str, Any]]:
    return [seed_doc(rid)["record"] for rid in SEED_IDS]


def _retired(message: str = "gone") -> dict[str, str]:
    return {"since": "a" * 40, "lastVersion": "2026-01-01T00:00:00.000Z",
            "errorMessage": message, "filePath": "src/x.rs"}  # fmt: skip


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*")}


@pytest.mark.parametrize(
    "key",
    ["../../../../x", "../../../x", "/x", "..", "a/../../../x", "x\nnl", "../" * 12 + "tmp/x"],
)
def test_a_retired_key_never_becomes_a_path_outside_the_site(tmp_path: Path, key: str) -> None:
    out, site = tmp_path / "out", tmp_path / "a" / "b" / "c" / "site"
    site.parent.mkdir(parents=True)
    write_dataset(out, REPO, _bodies(), retired={key: _retired()})
    before = _files(tmp_path)
    render_site(out, site)
    written = _files(tmp_path) - before
    assert written and all(site in p.parents or p == site for p in written), sorted(written)
    assert not list(tmp_path.rglob("x-retired.html"))
    assert "gone" not in (site / REPO / "index.html").read_text(encoding="utf-8")


def test_a_retired_last_version_never_reads_outside_versions(tmp_path: Path) -> None:
    out, site = tmp_path / "out", tmp_path / "site"
    body = _bodies()[0] | {"id": "0123456789abcdef"}
    root = write_dataset(out, REPO, _bodies(), retired={"0123456789abcdef": _retired()})
    write_version(tmp_path, "evil", [body])  # tmp_path/versions/evil.jsonl.gz
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["retired"]["0123456789abcdef"]["lastVersion"] = "../../../versions/evil"
    (root / "manifest.json").write_text(json.dumps(manifest))
    render_site(out, site)
    assert (site / REPO / "0123456789abcdef-retired.html").is_file()  # a stub, not the body


def test_a_symlinked_record_is_refused_not_copied(tmp_path: Path) -> None:
    out, site = tmp_path / "out", tmp_path / "site"
    root = write_dataset(out, REPO, _bodies())
    secret = tmp_path / "secret.json"
    target = root / "records" / f"{SEED_IDS[0]}.json"
    secret.write_bytes(target.read_bytes().replace(b"cannot", b"SECRET-cannot"))
    target.unlink()
    target.symlink_to(secret)
    with pytest.raises(RenderError, match="symbolic link"):
        render_site(out, site)
    assert not site.exists()
    _, problems = validate_out(out)
    assert any("symbolic link" in p for p in problems), problems


def test_a_symlink_beside_a_records_jsonl_is_not_copied(tmp_path: Path) -> None:
    """The fast path reads records.jsonl; the API file must still not follow the link."""
    out, site = tmp_path / "out", tmp_path / "site"
    root = write_dataset(out, REPO, _bodies(), records={})
    lines = [json.dumps(b, separators=(",", ":")) for b in _bodies()]
    (root / "records.jsonl").write_text("\n".join(lines) + "\n")
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    target = root / "records" / f"{SEED_IDS[1]}.json"
    target.unlink()
    target.symlink_to(passwd)
    with pytest.raises(RenderError, match="symbolic link"):
        render_site(out, site)
    files = [p for p in tmp_path.rglob("*.json") if not p.is_symlink()]
    leaked = [p for p in files if b"root:x:0" in p.read_bytes()]
    assert leaked == []


@pytest.mark.timeout(30)
@pytest.mark.parametrize("which", ["record", "manifest", "records.jsonl"])
def test_a_fifo_is_refused_without_blocking(tmp_path: Path, which: str) -> None:
    out = tmp_path / "out"
    root = write_dataset(out, REPO, _bodies(), records={})
    path = {
        "record": root / "records" / f"{SEED_IDS[0]}.json",
        "manifest": root / "manifest.json",
        "records.jsonl": root / "records.jsonl",
    }[which]
    path.unlink(missing_ok=True)
    os.mkfifo(path)
    _, problems = validate_out(out)
    if which != "records.jsonl":  # validate reads records/, never records.jsonl
        assert any("FIFO" in p for p in problems), problems
    result = CliRunner().invoke(main, ["render", "--out", str(out), "--site", str(tmp_path / "s")])
    if which == "records.jsonl":  # the fast path falls back to the record files
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 1 and "FIFO" in result.output, result.output
        assert "Traceback" not in result.output


NESTED = "[" * 100_000 + "]" * 100_000
HUGE_NUMBER = "9" * 5000

# Every manifest field, replaced by a value of the wrong type, size or nesting.
MANIFESTS: list[tuple[str, str]] = [
    ("list", "[1, 2]"),
    ("string", '"manifest"'),
    ("format-string", '{"format": "9"}'),
    ("format-huge", '{"format": ' + HUGE_NUMBER + "}"),
    ("records-list", '{"records": [1, 2]}'),
    ("records-nested", '{"records": {"x": ' + NESTED + "}}"),
    ("retired-list", '{"retired": ["a"]}'),
    ("retired-entry-int", '{"retired": {"0123456789abcdef": 7}}'),
    ("no-sha", '{"repo": "risingwavelabs/risingwave"}'),
    ("sha-int", '{"sha": 7}'),
    ("source-int", '{"source": 7}'),
    ("repo-int", '{"repo": 7}'),
    ("repo-traversal", '{"repo": "../../etc"}'),
    ("repo-hidden", '{"repo": "o/.n"}'),
    ("version-int", '{"datasetVersion": 12}'),
    ("version-traversal", '{"datasetVersion": "../../x"}'),
    ("nested", NESTED),
    ("number", HUGE_NUMBER),
    ("not-json", "{"),
    ("not-utf8", '{"repo": "\udcff"}'),
]


def _run(args: list[str], stdin: str | None = None) -> Any:
    return CliRunner().invoke(main, args, input=stdin)


@pytest.mark.parametrize("name, text", MANIFESTS, ids=[m[0] for m in MANIFESTS])
def test_a_hostile_manifest_is_one_line_never_a_traceback(
    tmp_path: Path, name: str, text: str
) -> None:
    out = tmp_path / "out"
    root = write_dataset(out, REPO, _bodies())
    (root / "manifest.json").write_bytes(text.encode("utf-8", "surrogateescape"))
    before = _files(tmp_path)
    for args in (
        ["render", "--out", str(out), "--site", str(tmp_path / "site")],
        ["validate", str(out)],
        ["explain", "--out", str(out), "cannot create batch refresh job"],
    ):
        result = _run(args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            name,
            args[0],
            result.output,
        )
        assert result.exit_code in (0, 1), (name, args[0], result.output)
        assert "Traceback" not in result.output
    outside = {
        p for p in _files(tmp_path) - before if not str(p).startswith(str(tmp_path / "site"))
    }
    assert outside == set(), outside


# Every record field replaced by a value of the wrong type, size or nesting.
RECORD_VALUES: list[Any] = [None, 7, "x" * 10, [], {}, [[[]]], -1, True, 10**4000]


@pytest.mark.parametrize("field", sorted(seed_doc(SEED_IDS[0])["record"]))
def test_every_record_field_fuzzed_is_a_problem_not_a_crash(tmp_path: Path, field: str) -> None:
    out = tmp_path / "out"
    good, other = _bodies()
    for n, value in enumerate(RECORD_VALUES):
        root = out / f"o{n}" / "r"
        write_dataset(out, f"o{n}/r", [good | {"repo": f"o{n}/r"}, other | {"repo": f"o{n}/r"}])
        doc = {"record": good | {"repo": f"o{n}/r", field: value}, "datasetVersion": "v"}
        (root / "records" / f"{good['id']}.json").write_text(json.dumps(doc))
    result = _run(["validate", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    for args in (
        ["render", "--out", str(out), "--site", str(tmp_path / "site")],
        ["explain", "--out", str(out), "cannot create batch refresh job"],
    ):
        result = _run(args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            args[0],
            result.output,
        )
        assert "Traceback" not in result.output


def test_a_nested_record_file_is_one_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    root = write_dataset(out, REPO, _bodies())
    (root / "records" / f"{SEED_IDS[0]}.json").write_text(NESTED)
    _, problems = validate_out(out)
    assert any("nested too deeply" in p for p in problems), problems
    result = _run(["render", "--out", str(out), "--site", str(tmp_path / "site")])
    assert result.exit_code == 1 and "nested too deeply" in result.output, result.output


def _bomb(path: Path, size: int) -> None:
    """A gzip file of `size` zero bytes with no newline: tiny on disk, huge inflated."""
    chunk = b"0" * (1 << 20)
    with gzip.open(path, "wb", compresslevel=9) as fh:
        for _ in range(size >> 20):
            fh.write(chunk)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", ["render", "diff"])
def test_a_gzip_bomb_in_versions_is_bounded(tmp_path: Path, command: str) -> None:
    out = tmp_path / "out"
    version = "2026-01-01T00:00:00.000Z"
    root = write_dataset(out, REPO, _bodies(), retired={"0123456789abcdef": _retired()})
    (root / "versions").mkdir()
    bomb = root / "versions" / f"{version}.jsonl.gz"
    _bomb(bomb, 600 << 20)
    assert bomb.stat().st_size < 2 << 20
    args = {
        "render": ["render", "--out", str(out), "--site", str(tmp_path / "site")],
        "diff": ["diff", str(bomb), str(bomb), "--out", str(out)],
    }[command]
    code = (
        "import resource, sys\n"
        "from pipeline.cli import main\n"
        f"try:\n    main({args!r})\n"
        "except SystemExit as e:\n    code = e.code\nelse:\n    code = 0\n"
        # VmHWM: this program's own peak. ru_maxrss also counts the pytest process it was
        # forked from (Linux keeps the larger of the two across exec): 412 MB in a full run
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "for line in open('/proc/self/status'):\n"
        "    if line.startswith('VmHWM:'):\n        peak = int(line.split()[1])\n"
        "print('PEAK', peak, 'CODE', code, file=sys.stderr)\n"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=110
    )
    elapsed = time.monotonic() - started
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    peak_kb = int(done.stderr.split("PEAK ")[1].split()[0])
    assert peak_kb < 400 * 1024, (peak_kb, done.stderr[-500:])  # 600 MB inflated, never held
    assert elapsed < 60, elapsed


@pytest.fixture(scope="module")
def source_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from gitrepo import GitRepo

    repo = GitRepo.init(tmp_path_factory.mktemp("src") / "repo")
    repo.commit({"src/lib.rs": 'fn f() -> anyhow::Result<()> {\n    anyhow::bail!("boom");\n}\n'})
    return repo.path


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name, text", MANIFESTS, ids=[m[0] for m in MANIFESTS])
def test_extract_regenerate_and_diff_over_a_hostile_manifest_are_one_line(
    tmp_path: Path, source_repo: Path, name: str, text: str
) -> None:
    out = tmp_path / "out"
    root = write_dataset(out, REPO, _bodies())
    (root / "manifest.json").write_bytes(text.encode("utf-8", "surrogateescape"))
    common = ["--repo", REPO, "--source", str(source_repo), "--out", str(out)]
    for args in (
        ["extract", *common, "--sha", "main"],
        ["regenerate", *common, "--ref", "main"],
        ["diff", str(root), str(root), "--out", str(out)],
    ):
        result = _run(args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            name,
            args[0],
            result.output,
        )
        assert "Traceback" not in result.output


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", ["extract", "regenerate"])
def test_a_fifo_manifest_never_blocks_a_run(
    tmp_path: Path, source_repo: Path, command: str
) -> None:
    out = tmp_path / "out"
    root = write_dataset(out, REPO, _bodies(), records={})
    (root / "manifest.json").unlink()
    os.mkfifo(root / "manifest.json")
    rev = ["--sha", "main"] if command == "extract" else ["--ref", "main"]
    args = [command, "--repo", REPO, "--source", str(source_repo), "--out", str(out), *rev]
    result = _run(args)
    assert result.exit_code != 0 and "FIFO" in result.output, result.output


@pytest.mark.parametrize("which", ["records", "versions", "dataset"])
def test_a_symlinked_dataset_directory_is_refused(tmp_path: Path, which: str) -> None:
    out = tmp_path / "out"
    root = write_dataset(tmp_path / "elsewhere", REPO, _bodies())
    (root / "versions").mkdir()
    target = out / REPO
    target.parent.mkdir(parents=True)
    if which == "dataset":
        target.symlink_to(root)
    else:
        write_dataset(out, REPO, _bodies())
        if which == "records":
            shutil.rmtree(target / "records")
        (target / which).symlink_to(root / which)
    with pytest.raises(RenderError, match="symbolic link"):
        render_site(out, tmp_path / "site")
