"""The site's search data: the matcher's own rows and constants, safe to load as a script."""

from __future__ import annotations

import json
import re
from pathlib import Path

from render_fixtures import seed_dataset, seed_doc, write_dataset

from pipeline.dataset.reader import load_all
from pipeline.publish import explain
from pipeline.publish.explain import SITE_FIELDS, ErrorIndex
from pipeline.publish.render import render_site
from pipeline.publish.render.search import INDEX_SCRIPT, matcher_constants

PREFIX = "window.errdocIndex = "


def _data(site: Path) -> dict[str, object]:
    text = (site / INDEX_SCRIPT).read_text(encoding="utf-8")
    assert text.startswith(PREFIX) and text.endswith(";\n")
    data: dict[str, object] = json.loads(text[len(PREFIX) : -2])
    return data


def test_the_site_ships_the_rows_and_constants_explain_uses(tmp_path: Path) -> None:
    seed_dataset(tmp_path / "out")
    render_site(tmp_path / "out", tmp_path / "site")
    data = _data(tmp_path / "site")
    assert data["fields"] == SITE_FIELDS
    assert data["constants"] == matcher_constants()
    assert data["constants"]["location"] == explain._LOCATION.pattern  # type: ignore[index]
    index = ErrorIndex.from_datasets(load_all(tmp_path / "out"))
    assert data["rows"] == json.loads(json.dumps(index.site_rows({})))
    row = dict(zip(SITE_FIELDS, data["rows"][0], strict=True))  # type: ignore[index]
    assert row["key"] in row["errorMessage"] and re.fullmatch(row["pattern"], row["errorMessage"])
    page = (tmp_path / "site" / "search.html").read_text(encoding="utf-8")
    assert 'src="static/search-index.js"' in page and 'src="static/search.js"' in page
    assert "form-action &#39;self&#39;" in page  # the index pages' forms lead here


def test_hostile_text_cannot_end_the_index_script(tmp_path: Path) -> None:
    evil = "bad </script><script>alert(1)</script> \u2028 {} here"
    body = seed_doc("f16c5768bcd8aade")["record"] | {
        "repo": "evil/repo",
        "errorMessage": evil,
        "messagePattern": re.escape(evil).replace(r"\{\}", "(.+?)"),
    }
    write_dataset(tmp_path / "out", "evil/repo", [body])
    render_site(tmp_path / "out", tmp_path / "site")
    raw = (tmp_path / "site" / INDEX_SCRIPT).read_text(encoding="utf-8")
    assert "</script" not in raw and "\u2028" not in raw
    rows = _data(tmp_path / "site")["rows"]
    assert rows[0][SITE_FIELDS.index("errorMessage")] == evil  # type: ignore[index]
