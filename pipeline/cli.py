"""The command line: one click group, one subcommand per verb, each a thin call.

Each command's module is imported only when that command runs (`errdoc explain`
should not pay for jinja2, pygments, the openai client or the diff engine).
"""

from __future__ import annotations

import gc
import importlib

import click

from pipeline import __version__

# A run keeps millions of small objects alive to its end (scans, records, the manifest), and the
# default threshold (700 allocations) has the cyclic collector walk them again and again:
# 0.45 s of CPU in a cold extraction of risingwave (3.5 -> 3.1 s), 0.19 s in a regeneration;
# peak RSS the same (213 MB).
# Cycles are still collected, only less often.
GC_THRESHOLD = (100_000, 50, 1000)

# name -> "module:attribute" of the click command. Keep sorted.
COMMANDS = {
    "diff": "pipeline.versions.diff_cli:diff_command",
    "eval": "pipeline.publish.eval_command:eval_command",
    "explain": "pipeline.publish.explain:explain_command",
    "extract": "pipeline.commands:extract_command",
    "regenerate": "pipeline.commands:regenerate_command",
    "regenerate-all": "pipeline.versions.schedule:regenerate_all_command",
    "render": "pipeline.publish.render:render_command",
    "schema": "pipeline.commands:schema_command",
    "sites": "pipeline.commands:sites_command",
    "validate": "pipeline.commands:validate_command",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *super().list_commands(ctx)})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return super().get_command(ctx, cmd_name)
        module, _, attribute = COMMANDS[cmd_name].partition(":")
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{COMMANDS[cmd_name]} is not a click command")
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="errdoc")
def main() -> None:
    """errdoc: turn a Rust repository at a pinned commit into documented error records.

    \b
    Typical use:
      errdoc extract --repo risingwavelabs/risingwave --sha main --source /path/to/clone
      errdoc regenerate --repo risingwavelabs/risingwave --ref main
      errdoc render --out output --site site
      errdoc explain "cannot create batch refresh job while database barrier is paused"
    """
    gc.set_threshold(*GC_THRESHOLD)
