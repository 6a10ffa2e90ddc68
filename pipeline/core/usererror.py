"""What every command shares: the one-line user error and the default cache directory."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from pipeline.core.redact import clean_error


class UserError(click.ClickException):
    """A one-line error for the user; exit status 1."""

    def format_message(self) -> str:
        return self.message

    def show(self, file: Any = None) -> None:
        click.echo(f"errdoc: error: {clean_error(self.message)}", err=True)


def default_cache() -> Path:
    """`ERRDOC_CACHE`, else `~/.cache/errdoc`."""
    return Path(os.environ.get("ERRDOC_CACHE") or Path.home() / ".cache" / "errdoc")
