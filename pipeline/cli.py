"""The command line: one click group, one subcommand per verb, each a thin call."""

from __future__ import annotations

import click

from pipeline import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="errdoc")
def main() -> None:
    """errdoc: turn a Rust repository at a pinned commit into documented error records.

    \b
    Typical use:
      errdoc extract --repo risingwavelabs/risingwave --sha main --source /path/to/clone
      errdoc render --out output --site site
      errdoc explain "cannot create batch refresh job while database barrier is paused"
    """


# Commands are registered below, one module each. Keep this list sorted.
