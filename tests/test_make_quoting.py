"""make passes its variables to the CLI as inert arguments and fails when errdoc fails (issue 16: 7)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _make(tmp_path: Path, target: str, **variables: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    args = [f"{k}={v}" for k, v in variables.items()]
    # -o: never rebuild .venv (nor compile its bytecode) from inside the test suite.
    make = ["make", "--no-print-directory", "-o", ".venv/.installed", "-o", ".venv/.compiled"]
    return subprocess.run(
        [*make, target, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


CASES = [
    ("extract", {"REPO": "o/n`touch {m}`", "SHA": "HEAD"}),
    ("extract", {"REPO": 'o/n" ; touch {m}; echo "', "SHA": "HEAD"}),
    ("extract", {"REPO": "o/n'; touch {m}; echo '", "SHA": "HEAD"}),
    ("extract", {"REPO": "o/n", "SHA": "HEAD", "SOURCE": "$$(touch {m})"}),
    ("extract", {"REPO": "o/n", "SHA": "$$(touch {m})"}),
    ("extract", {"REPO": "o/n", "SHA": "HEAD", "ARGS": "; touch {m}"}),
    ("extract", {"REPO": "o/n", "SHA": "HEAD", "ARGS": "`touch {m}`"}),
    ("extract", {"REPO": "o/n", "SHA": "HEAD", "ARGS": "$$(touch {m})"}),
    ("diff", {"OLD": 'x" ; touch {m}; echo "', "NEW": "y"}),
    ("diff", {"OLD": "", "NEW": "`touch {m}`"}),
    ("render", {"SITE": "$$(touch {m})", "OUT": "`touch {m}`"}),
    ("regenerate", {"REPO": "o/n", "REF": "'$$(touch {m})'"}),
]


@pytest.mark.parametrize(
    "target, variables", CASES, ids=[f"{t}-{n}" for n, (t, _) in enumerate(CASES)]
)
def test_a_variable_never_runs_a_command(
    tmp_path: Path, target: str, variables: dict[str, str]
) -> None:
    marker = tmp_path / "pwned"
    given = {k: v.format(m=marker) for k, v in variables.items()}
    given.setdefault("OUT", str(tmp_path / "out"))
    given.setdefault("SOURCE", str(tmp_path / "no-such-source"))
    given.setdefault("CACHE", str(tmp_path / "cache"))
    done = _make(tmp_path, target, **given)
    assert not marker.exists(), done.stdout + done.stderr
    # nor does a value taken as a relative path leave a directory in the project
    assert not [p for p in os.listdir(ROOT) if p[0] in "$`'\""], done.stdout + done.stderr
    assert done.returncode != 0, done.stdout + done.stderr  # errdoc failed, so make fails


def test_a_value_reaches_the_cli_as_one_argument(tmp_path: Path) -> None:
    repo = 'o/n" ; echo "'
    done = _make(tmp_path, "extract", REPO=repo, SHA="HEAD", OUT=str(tmp_path / "out"))
    assert done.returncode != 0
    assert "o/n" in done.stderr and "errdoc: error:" in done.stderr, done.stderr
