"""Shared fixtures: no test touches the real cache, and git never asks anything."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("ERRDOC_CACHE", str(tmp_path / "errdoc-cache"))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "errdoc test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@errdoc.invalid")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "errdoc test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@errdoc.invalid")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    yield
