"""`render`: the static site and JSON API of every dataset under OUT."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import click

from pipeline.core.usererror import UserError
from pipeline.publish.render.site import RenderError, RenderReport, render_site

__all__ = ["RenderError", "RenderReport", "render_command", "render_site"]


def _plural(n: int, one: str, many: str) -> str:
    return f"{n:,} {one if n == 1 else many}"


@click.command("render")
@click.option(
    "--out",
    default="output",
    show_default=True,
    type=click.Path(path_type=Path),
    help="Where the datasets live (OUT/<owner>/<name>/); every one is rendered.",
)
@click.option(
    "--site",
    default="site",
    show_default=True,
    type=click.Path(path_type=Path),
    help="The site directory, replaced whole (only one errdoc made, or an empty one).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object: what was written where."
)
def render_command(out: Path, site: Path, as_json: bool) -> None:
    """Write one page per record, indexes to browse, the search page and the JSON API into SITE.

    A progress bar shows on stderr when it is a terminal.
    """
    try:
        report = render_site(out, site, show_progress=not as_json)
    except RenderError as exc:
        raise UserError(str(exc)) from exc
    except BrokenPipeError:
        raise
    except (FileExistsError, NotADirectoryError) as exc:
        raise UserError(
            f"cannot write the site: {exc.filename} is a file, not a directory"
        ) from None
    except OSError as exc:  # a SITE under a file, a read-only or full disk
        where = f" {exc.filename}" if exc.filename else ""
        raise UserError(f"cannot write the site{where}: {exc.strerror or exc}") from None
    if as_json:
        doc = asdict(report) | {"site": str(report.site)}
        doc = {"repositories": doc["repositories"], "pages": doc["pages"],
               "retiredPages": doc["retired_pages"], "apiFiles": doc["api_files"],
               "site": doc["site"]}  # fmt: skip
        click.echo(json.dumps(doc))
        return
    click.echo(
        f"rendered {_plural(report.pages, 'page', 'pages')} ({report.retired_pages:,} retired) "
        f"and {_plural(report.api_files, 'API file', 'API files')} for "
        f"{_plural(report.repositories, 'repository', 'repositories')} into {report.site}/"
    )
