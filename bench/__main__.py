"""`make bench`: every benchmark, each against its named competitor, in one run."""

from __future__ import annotations

import os
import sys

from bench import (
    completeness,
    explain_stage,
    extract_stage,
    hostile_stage,
    index_stage,
    llm_acceptance,
    llm_stage,
    pasted_stage,
    prompt_stage,
    quality_stage,
    regen_stage,
)
from bench.common import SOURCE_ENV, BenchError, default_source, no_source_help

STAGES = {
    "extract": extract_stage.main,
    "completeness": completeness.main,
    "regen": regen_stage.main,
    "llm": llm_stage.main,
    "llm-acceptance": llm_acceptance.main,
    "prompt": prompt_stage.main,
    "explain": explain_stage.main,
    "quality": quality_stage.main,
    "hostile": hostile_stage.main,  # issue 16: 200,000 tiny files, pathological patterns
    "index": index_stage.main,
    "pasted": pasted_stage.main,  # errors from the repository's own tests, pasted into explain
}


def main(argv: list[str]) -> int:
    """Run the named stages (all by default); the worst exit status wins.

    `--source DIR` (or `ERRDOC_BENCH_SOURCE`) names the repository every stage reads.
    """
    if argv[:1] == ["--source"] and len(argv) > 1:
        os.environ[SOURCE_ENV] = argv[1]
        argv = argv[2:]
    if not default_source():
        print(f"bench: {no_source_help()}", file=sys.stderr)
        return 2
    names = argv or list(STAGES)
    unknown = [n for n in names if n not in STAGES]
    if unknown:
        print(f"bench: unknown stage(s) {', '.join(unknown)}; choose from {', '.join(STAGES)}")
        return 2
    missed = []
    for name in names:
        print(f"== {name} ==", flush=True)
        try:
            status = STAGES[name]([])
        except BenchError as err:  # a command of the stage failed, or its source is missing
            print(f"bench: stage {name} failed: {err}", flush=True)
            status = 1
        except Exception as err:  # one broken stage must not hide the others' figures
            print(f"bench: stage {name} failed: {type(err).__name__}: {err}", flush=True)
            status = 1
        except SystemExit as exit_:  # a stage (or its argparse) that exits: still not the run's end
            print(f"bench: stage {name} exited: {exit_.code}", flush=True)
            status = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
        if status:
            missed.append(name)
    print(
        f"== bench: {'targets missed or failed in: ' + ', '.join(missed) if missed else 'every target met'}"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
