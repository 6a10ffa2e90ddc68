"""The command line: one click group, one subcommand per verb, each a thin call.

Each command's module is imported only when that command runs (`errdoc explain`
should not pay for jinja2, pygments, the openai client or the diff engine).
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from pipeline import __version__
from pipeline.core.cliconfig import ConfigError, load_config

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
    "explain": "pipeline.publish.explain_cli:explain_command",
    "extract": "pipeline.commands:extract_command",
    "regenerate": "pipeline.commands:regenerate_command",
    "regenerate-all": "pipeline.versions.schedule:regenerate_all_command",
    "render": "pipeline.publish.render:render_command",
    "schema": "pipeline.commands:schema_command",
    "sites": "pipeline.commands:sites_command",
    "validate": "pipeline.commands:validate_command",
}
PREFIX = "errdoc: error:"  # the one style every failure is printed in


def _fail(message: str, hint: str | None = None, code: int = 1) -> None:
    click.echo(f"{PREFIX} {message}", err=True)
    if hint:
        click.echo(hint, err=True)
    sys.exit(code)


def _quiet_pipe() -> None:
    """A reader that went away (`| head`) is not an error: drop the rest of the output."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _option_names(command: click.Command) -> dict[str, str]:
    """Config key -> parameter name: every long option (`dry-run`) and the parameter's own name."""
    names: dict[str, str] = {}
    for param in command.params:
        if param.name is None or not isinstance(param, click.Option):
            continue
        names[param.name.replace("_", "-")] = param.name
        for opt in param.opts:
            if opt.startswith("--"):
                names[opt[2:]] = param.name
    return names


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use, with defaults from a config file."""

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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with its whole first sentence: a summary cut by `...` says too little."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and name is not None:
            try:
                defaults = load_config(Path.cwd()).for_command(name, _option_names(command))
            except ConfigError as exc:
                _fail(str(exc))
            if defaults:
                ctx.default_map = {**(ctx.default_map or {}), name: defaults}
        return name, command, rest

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:  # `errdoc --help | head -1`
            _quiet_pipe()
            raise click.exceptions.Exit(0) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # before click's own handler, which exits 1
            _quiet_pipe()
            raise click.exceptions.Exit(0) from None

    def main(  # type: ignore[override]
        self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any
    ) -> Any:
        """Run with one error style; a closed pipe ends the run quietly with status 0."""
        try:
            code = super().main(args, prog_name, standalone_mode=False, **extra)
            try:
                sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
            except BrokenPipeError:
                _quiet_pipe()
            if isinstance(code, int):  # `ctx.exit(n)`, --help, --version
                sys.exit(code)
            return code
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else str(exc), err=True)
            sys.exit(2)
        except click.UsageError as exc:
            command = exc.ctx.command_path if exc.ctx else "errdoc"
            _fail(exc.format_message(), f"Try '{command} --help' for help.", exc.exit_code)
        except click.ClickException as exc:
            _fail(exc.format_message(), None, exc.exit_code)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except click.Abort:
            _fail("aborted", None, 130)
        except BrokenPipeError:
            _quiet_pipe()
            sys.exit(0)
        except KeyboardInterrupt:
            _fail("interrupted", None, 130)


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

    Option defaults may be set in errdoc.toml or [tool.errdoc] in pyproject.toml.
    """
    gc.set_threshold(*GC_THRESHOLD)
