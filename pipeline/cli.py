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
from pipeline.diff_cli import diff_command  # noqa: E402

main.add_command(diff_command)
from pipeline.explain import explain_command  # noqa: E402

main.add_command(explain_command)
from pipeline.render import render_command  # noqa: E402

main.add_command(render_command)
from pipeline.commands import (  # noqa: E402
    extract_command,
    regenerate_command,
    schema_command,
    sites_command,
    validate_command,
)

main.add_command(extract_command)
main.add_command(validate_command)
main.add_command(schema_command)
main.add_command(sites_command)
main.add_command(regenerate_command)
from pipeline.schedule import regenerate_all_command  # noqa: E402

main.add_command(regenerate_all_command)
