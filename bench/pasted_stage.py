"""Bench: errors as the repository's own tests expect them printed, pasted into `explain`.

A repository's test suite holds the errors its users see, written by its authors and not
by errdoc's rules: cargo's snapshots (`[ERROR] could not find `Cargo.toml` in `[ROOT]/foo`
..`), just's `.stderr("error: justfile does not contain recipe `foo`\\n")`. The stage takes
the string literals of the source's test files (`tests/`, `testsuite/`) that begin with an
error prefix (`error: `, `[ERROR] `, `Error: `), the `ERROR ..` lines of a snapshot of log
output and the `Caused by: ..` lines under them, and the `"message"` of JSON error bodies in
snapshots, keeps their first line (a format string's `{..}` is no printed line), fills snapshot
placeholders (`[ROOT]` -> `/home/user`), samples `--sample` of them (seeded) and pastes
each into the same matcher `errdoc explain` runs, over a fresh static extraction of the
source at `--rev`. A line is found when the best match is a record whose literal text it
holds (a match is never a guess: the pattern occurred in the line). Printed: the share
found, and each line not found, to read: some are no error site (a diagnostic report, a
fixture's own message). No target: an evaluation to read, and to compare between stops.
    python -m bench.pasted_stage --source DIR --repo owner/name [--rev HEAD] [--sample 40]
"""

from __future__ import annotations

import argparse
import random
import re

from bench.common import ERRDOC, add_source_args, git, require_source, run_ok, standalone, workdir
from pipeline.dataset.reader import load_dataset
from pipeline.publish.explain import ErrorIndex

_TEST_FILES = re.compile(r"(?:^|/)(?:tests?|testsuite)/.*\.rs$")
_LITERAL = re.compile(r'"((?:\[ERROR\]|error:|Error:) (?:[^"\\]|\\.)*)"')
# an HTTP API's error body in a snapshot (meilisearch's `"message": "Index `doggo` not found."`)
_JSON_MESSAGE = re.compile(r'"message":\s*"((?:[^"\\]|\\.){12,})"')
# a line of a raw snapshot (cargo's `str![[r#" .. "#]]`): `[ERROR] ..` at its start, or a
# log line's `ERROR ..` (mdBook's tracing output), or a cause below it (`[TAB]Caused by: ..`)
_SNAPSHOT_LINE = re.compile(r"(?m)^[ \t]*(\[ERROR\] [^\n]*|ERROR [^\n]*)$")
# A cause, printed as it is (no `error:`): on the line (mdBook's `[TAB]Caused by: ..`) or on
# the next one, indented (cargo's `Caused by:\n  failed to parse ..`)
_CAUSE_LINE = re.compile(r"(?m)^(?:[ \t]|\[TAB\])*Caused by:(?: |\n[ \t]+)([^\n\[{]{12,}[^\n]*)$")
# a format string in a test helper (`"error: `{cmd:?}` failed"`) is no printed line
_PLACEHOLDER = re.compile(r"\{[A-Za-z_0-9]*(?::[^}]*)?\}")
_FILLS = {"[ROOT]": "/home/user", "[CWD]": "/home/user/foo", "[..]": "x", "[EXE]": ""}


def error_lines(texts: list[str]) -> list[str]:
    """The distinct first lines of the error literals in `texts`, prefix kept as `error: `."""
    found: set[str] = set()
    for text in texts:
        quoted = (
            re.split(r"\\n|\n", m.group(1), maxsplit=1)[0].replace('\\"', '"')
            for m in _LITERAL.finditer(text)
        )
        bodies = (m.group(1).split("\\n", 1)[0] for m in _JSON_MESSAGE.finditer(text))
        snapshots = (m.group(1) for m in _SNAPSHOT_LINE.finditer(text))
        causes = (m.group(1) for m in _CAUSE_LINE.finditer(text))
        for line in [*quoted, *snapshots, *causes, *bodies]:
            line = line.rstrip()
            if _PLACEHOLDER.search(line):
                continue
            line = re.sub(r"^(?:\[ERROR\]|ERROR) ", "error: ", line)
            for token, value in _FILLS.items():
                line = line.replace(token, value)
            if len(line) > len("error: ") + 8:
                found.add(line)
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    """Paste the sampled test errors; print the share found (no target: exit 0)."""
    parser = argparse.ArgumentParser(prog="python -m bench.pasted_stage")
    add_source_args(parser)
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    require_source(args)
    paths = [
        p
        for p in git(args.source, "ls-tree", "-r", "--name-only", args.rev).decode().split("\n")
        if _TEST_FILES.search(p)
    ]
    texts = [git(args.source, "show", f"{args.rev}:{p}").decode(errors="replace") for p in paths]
    lines = error_lines(texts)
    sample = random.Random(args.seed).sample(lines, min(args.sample, len(lines)))
    with workdir("errdoc-bench-pasted-") as work:
        run_ok([*ERRDOC, "extract", "--repo", args.repo, "--sha", args.rev, "--source",
                args.source, "--out", str(work / "out"), "--cache", str(work / "cache")])  # fmt: skip
        index = ErrorIndex.from_datasets([load_dataset(work / "out" / args.repo)])
    missed = [line for line in sample if not index.search(line, limit=1)]
    found = len(sample) - len(missed)
    print(
        f"{args.repo}: {found} of {len(sample)} error lines from its own tests find a record "
        f"({len(lines)} distinct lines in {len(paths)} test files; seed {args.seed})"
    )
    for line in missed:
        print(f"  not found: {line[:150]}")
    return 0


if __name__ == "__main__":
    standalone(main)
