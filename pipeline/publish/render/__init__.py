"""`render`: the static site and JSON API of every dataset under OUT."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline.publish.render.site import RenderError, RenderReport, render_site

__all__ = ["RenderError", "RenderReport", "render_command", "render_site"]


@click.command("render")
@click.option("--out", default="output", show_default=True, type=click.Path(path_type=Path))
@click.option("--site", default="site", show_default=True, type=click.Path(path_type=Path))
def render_command(out: Path, site: Path) -> None:
    """Write one page per record, an index per repository and the JSON API into SITE."""
    try:
        report = render_site(out, site)
    except RenderError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(
        f"rendered {report.pages} pages ({report.retired_pages} retired) and "
        f"{report.api_files} API files for {report.repositories} repositories into {report.site}/"
    )
