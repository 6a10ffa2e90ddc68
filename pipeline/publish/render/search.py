"""The site's search: the matcher's rows and constants, shipped as a script the page loads."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pipeline.dataset.summary import Summary
from pipeline.publish.explain import SITE_FIELDS, matcher_constants, site_rows

INDEX_SCRIPT = "static/search-index.js"


def index_script(records: Sequence[Summary]) -> str:
    """`static/search-index.js`: a script, not JSON, so that a site opened from disk searches too."""
    enclosing = {r.id: r.enclosingFn for r in records}
    data = {
        "fields": SITE_FIELDS,
        "constants": matcher_constants(),
        "rows": site_rows(records, enclosing),
    }
    # `</` and U+2028/9 cannot end the script or a string early: JSON escapes them here
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    body = body.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"window.errdocIndex = {body};\n"
