"""Errors every command reports as one line; defined apart so that importing them is free."""

from __future__ import annotations


class StoreError(Exception):
    """A dataset on disk that cannot be read as one."""
