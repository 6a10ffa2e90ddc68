"""Records and on-disk datasets for the diff tests, built from the seed records."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path

from pipeline.core.model import Record, RecordFile

GOLDEN = Path(__file__).parent / "golden" / "diff"
REPO = "risingwavelabs/risingwave"
OLD_SHA = "6469eb736d691e8e9b8a419a57edd6429ca77417"
NEW_SHA = "0123456789abcdef0123456789abcdef01234567"
V1 = "2026-09-14T16:17:12.679Z"
V2 = "2026-09-21T08:00:00.000Z"


def seed(number: str) -> Record:
    """Seed record 002 or 004 (copied from shared/seeds so that a fresh clone has them)."""
    return RecordFile.model_validate_json((GOLDEN / f"seed_{number}.json").read_text()).record


def record_id(repo: str, path: str, pattern: str, ordinal: int) -> str:
    """The SPEC 4 identity (the joining is ours; the diff only needs ids to be ids)."""
    return hashlib.sha256(f"{repo}\0{path}\0{pattern}\0{ordinal}".encode()).hexdigest()[:16]


def pattern_of(message: str) -> str:
    """A messagePattern for a message with `{...}` placeholders (enough for fixtures)."""
    parts = re.split(r"\{[^{}]*\}", message)
    return "(.+?)".join(re.escape(p) for p in parts)


def slug_of(message: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", message[:50].lower()).strip("-")


def _url(r: Record) -> str:
    return f"https://github.com/{r.repo}/blob/{r.analyzedSha}/{r.filePath}#L{r.sourceCodeStart}-L{r.sourceCodeEnd}"


def variant(base: Record, ordinal: int = 0, **changes: object) -> Record:
    """`base` with fields replaced; id, slug, pattern and link follow from the rest."""
    r = base.model_copy(update=changes)
    if "errorMessage" in changes:
        r = r.model_copy(
            update={
                "messagePattern": pattern_of(r.errorMessage),
                "slug": slug_of(r.errorMessage),
                "sourceCode": r.sourceCode.replace(base.errorMessage, r.errorMessage),
            }
        )
    r = r.model_copy(
        update={"id": changes.get("id") or record_id(r.repo, r.filePath, r.messagePattern, ordinal)}
    )
    return r.model_copy(update={"githubUrl": _url(r)})


def shifted(r: Record, lines: int, sha: str = NEW_SHA) -> Record:
    """The same site `lines` further down, at another commit."""
    return variant(
        r,
        id=r.id,
        lineNumber=r.lineNumber + lines,
        sourceCodeStart=r.sourceCodeStart + lines,
        sourceCodeEnd=r.sourceCodeEnd + lines,
        analyzedSha=sha,
    )


def edit_line(r: Record, offset: int, text: str) -> Record:
    """Replace the window line `offset` lines from the site line (same id)."""
    lines = r.sourceCode.split("\n")
    lines[r.lineNumber - r.sourceCodeStart + offset] = text
    return variant(r, id=r.id, sourceCode="\n".join(lines))


def fixture_pair() -> tuple[list[Record], list[Record]]:
    """Old and new records with one of every kind of difference."""
    a, b = seed("002"), seed("004")
    moved_from = variant(a, filePath="src/meta/src/barrier/mod.rs")
    dropped = variant(
        b,
        filePath="src/meta/src/stream/drop.rs",
        errorMessage="Cannot drop the job {} because its creating backfill is running",
    )
    kept = variant(b, filePath="src/frontend/src/handler/alter.rs")
    edited = variant(
        a, filePath="src/meta/src/barrier/pause.rs", errorMessage="cannot pause {job_id}"
    )
    old = [a, b, moved_from, dropped, kept, edited]
    new = [
        shifted(a, 3),
        variant(
            edit_line(b, -12, "        let _guard = self.reschedule_lock_write_guard().await?;"),
            id=b.id,
            analyzedSha=NEW_SHA,
            documentation=b.documentation + " Deferred reschedules are not checked.",
        ),
        variant(moved_from, filePath="src/meta/src/barrier/inject.rs", analyzedSha=NEW_SHA),
        variant(
            b,
            filePath="src/meta/src/stream/create.rs",
            errorMessage="Cannot create `{}` | the job is already creating",
            analyzedSha=NEW_SHA,
        ),
        variant(kept, id=kept.id, analyzedSha=NEW_SHA),
        variant(
            edited,
            errorMessage="cannot pause while snapshot backfill job {job_id} runs",
            analyzedSha=NEW_SHA,
        ),
    ]
    return old, new


def write_version(path: Path, records: Sequence[Record]) -> Path:
    """A `versions/<datasetVersion>.jsonl.gz` file: one compact record per line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = "".join(r.model_dump_json() + "\n" for r in sorted(records, key=lambda r: r.id))
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.write(lines)
    return path


def write_dataset(
    out: Path,
    versions: dict[str, tuple[str, Sequence[Record]]],
    repo: str = REPO,
    jsonl: bool = True,
) -> Path:
    """OUT/<owner>/<name> as SPEC 6 lays it out; the last version is the current one."""
    root = out / repo
    (root / "records").mkdir(parents=True, exist_ok=True)
    for version, (_, records) in versions.items():
        write_version(root / "versions" / f"{version}.jsonl.gz", records)
    version, (sha, records) = list(versions.items())[-1]
    ordered = sorted(records, key=lambda r: r.id)
    if jsonl:
        (root / "records.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in ordered))
    for r in ordered:
        body = RecordFile(record=r, datasetVersion=version).model_dump_json()
        (root / "records" / f"{r.id}.json").write_text(body)
    manifest = {
        "repo": repo,
        "sha": sha,
        "datasetVersion": version,
        "counts": {"records": len(ordered)},
        "records": {},
        "retired": {},
        "versions": [
            {"datasetVersion": v, "sha": s, "records": len(rs)} for v, (s, rs) in versions.items()
        ],
    }
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return root
