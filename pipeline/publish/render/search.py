"""The site's search: the matcher's rows and constants, shipped as a script the page loads."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pipeline.dataset.reader import Dataset
from pipeline.publish.explain import SITE_FIELDS, ErrorIndex, matcher_constants

INDEX_SCRIPT = "static/search-index.js"


def index_script(datasets: Sequence[Dataset]) -> str:
    """`static/search-index.js`: a script, not JSON, so that a site opened from disk searches too."""
    enclosing = {rid: prov.enclosingFn for ds in datasets for rid, prov in ds.provenance.items()}
    index = ErrorIndex.from_datasets(list(datasets))
    data = {
        "fields": SITE_FIELDS,
        "constants": matcher_constants(),
        "rows": index.site_rows(enclosing),
    }
    # `</` and U+2028/9 cannot end the script or a string early: JSON escapes them here
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    body = body.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f"window.errdocIndex = {body};\n"
