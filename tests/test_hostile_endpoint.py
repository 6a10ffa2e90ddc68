"""A hostile model server and a leaky configuration: no secret is kept or printed, no escape
sequence reaches the terminal (issue 16: 5, 13). The real openai client over real HTTP.

The client-side hang on a server that drips bytes (issue 16: 4) belongs to the model
analyzer's run-level limits (issue 12); its test lives with that work.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from gitrepo import GitRepo
from llm_server import FakeOpenAI, Reply
from render_fixtures import seed_doc, write_dataset

from pipeline.core.redact import clean_error, escape_json_text, for_terminal, redact

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-test-Zq8mN3vX5tY7uW9pR2kL4jH6"
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\u202eevil\u202c\u2066"
SOURCE = (
    'fn a() -> anyhow::Result<()> {\n    anyhow::bail!("first failure");\n}\n'
    'fn b() -> anyhow::Result<()> {\n    anyhow::bail!("second failure");\n}\n'
)


def _extract(tmp_path: Path, base_url: str, key: str = KEY) -> subprocess.CompletedProcess[str]:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({"src/lib.rs": SOURCE})
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "OPENAI_API_KEY": key,
        "OPENAI_BASE_URL": base_url,
    }
    args = ["extract", "--repo", "o/n", "--sha", "main", "--source", str(repo.path)]
    args += ["--out", str(tmp_path / "out"), "--analyzer", "llm", "--model", "gpt-4o-mini"]
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args, "--allow-failures"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def _kept(tmp_path: Path) -> str:
    """Everything the run kept under OUT, as text."""
    out = tmp_path / "out"
    return "\n".join(p.read_text("utf-8", "replace") for p in out.rglob("*.json"))


def _assert_inert(text: str) -> None:
    for char in "\x1b\x07\u202e\u202c\u2066":
        assert char not in text, repr(text[-600:])


@pytest.mark.timeout(200)
def test_a_server_echoing_the_key_never_publishes_it(tmp_path: Path) -> None:
    error = f"Incorrect API key provided: {KEY}. {ESCAPES} Bearer {KEY}"
    with FakeOpenAI() as server:
        server.responder = lambda body: Reply(status=400, error=error)
        done = _extract(tmp_path, server.base_url)
    assert done.returncode == 0, done.stderr
    kept = _kept(tmp_path)
    assert '"status":"failed"' in kept.replace(" ", "")  # the failure itself is kept
    assert KEY not in kept and KEY not in done.stderr and KEY not in done.stdout
    assert "[redacted]" in kept or "[redacted]" in done.stderr
    _assert_inert(done.stderr)


@pytest.mark.timeout(200)
def test_credentials_in_the_base_url_are_never_printed_or_kept(tmp_path: Path) -> None:
    url = "http://admin:hunter2-pass@127.0.0.1:9/v1?api-key=topsecret-query"
    done = _extract(tmp_path, url)
    text = done.stderr + done.stdout + _kept(tmp_path)
    for secret in ("hunter2-pass", "topsecret-query", KEY):
        assert secret not in text, text[-2000:]


@pytest.mark.parametrize(
    "text, secret",
    [
        (f"bad key {KEY}", KEY),
        ("GET http://user:pa55word@host/v1 failed", "pa55word"),
        ("https://host/v1?api-key=abc123def&x=1", "abc123def"),
        ("https://host/v1?key=abc123def", "abc123def"),
        ("Authorization: Bearer abcdefgh12345678", "abcdefgh12345678"),
        ('{"api_key": "abcdefgh12345678"}', "abcdefgh12345678"),
        ("token ghp_abcdefghijklmnop1234", "ghp_abcdefghijklmnop1234"),
    ],
)
def test_redact_removes_each_kind_of_secret(
    text: str, secret: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    assert secret not in redact(text) and "[redacted]" in redact(text)
    assert secret not in clean_error(text)


def test_redact_keeps_ordinary_text() -> None:
    text = "connection refused (token limit 4096 exceeded; see https://example.com/docs?page=2)"
    assert redact(text) == text


def test_terminal_text_has_no_escape_or_reordering() -> None:
    shown = for_terminal(f"a{ESCAPES}b\nc", one_line=True)
    _assert_inert(shown)
    assert "\n" not in shown and shown.startswith("a") and shown.endswith("b c")
    line = escape_json_text(json.dumps({"m": f"x{ESCAPES}"}, ensure_ascii=False))
    _assert_inert(line)
    assert json.loads(line)["m"].endswith("\u2066")  # still the same string once parsed


def test_explain_prints_no_bidi_override(tmp_path: Path) -> None:
    body = seed_doc("f16c5768bcd8aade")["record"] | {
        "repo": "o/n",
        "errorMessage": "boom \u202eevil\u202c done",
        "messagePattern": "boom (.+?) done",
        "filePath": "src/\u202eevil.rs",
        "solutions": ["run \x1b]0;pwned\x07 this"],
    }
    out = tmp_path / "out"
    write_dataset(out, "o/n", [body])
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "explain", "--out", str(out), "boom x done"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "boom ?evil? done" in done.stdout
    _assert_inert(done.stdout + done.stderr)


def test_sites_prints_no_bidi_override(tmp_path: Path) -> None:
    repo = GitRepo.init(tmp_path / "src")
    repo.commit({"src/lib.rs": 'fn a() { panic!("boom \u202eevil\u202c \x1b[2J done"); }\n'})
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pipeline",
            "sites",
            *("--repo", "o/n", "--sha", "main"),
            "--source",
            str(repo.path),
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    _assert_inert(done.stdout)
    (line,) = done.stdout.splitlines()
    assert json.loads(line)["message"].startswith("boom \u202eevil")  # data kept, display inert
