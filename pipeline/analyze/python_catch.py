"""The handling a Python caller writes for an error a pyo3-exported fn raises. Pure.

lance's `KMeans.predict` is a `#[pymethods]` method: `Err(PyValueError::new_err("Must be
a FixedSizeList"))` is a `ValueError` in the Python program that called it, and no Rust code
calls the method (the index found none: it is itself the entry point). A Rust `match` on
its result was written for the wrong reader (reading 232); this is the `try`/`except` that
reader writes. The exception is the one the site's pyo3 constructor names (`PyIOError` an
`OSError`); an error pyo3 converts (`?` on a crate's own error type) is caught as
`Exception`, the class its conversion to `PyErr` chooses being the conversion's to say.
"""

from __future__ import annotations

import re

from pipeline.core.reach import Reach
from pipeline.core.sitetypes import Site

# `PyValueError::new_err`, `pyo3::exceptions::PyIOError::new_err`, `exceptions::PyKeyError`
_PY_EXCEPTION = re.compile(r"^(?:(?:pyo3::)?exceptions::)?Py([A-Z]\w*)::new_err$")
# pyo3's names whose Python class is another's (`IOError` is `OSError` since Python 3.3)
_PYTHON_CLASS = {"IOError": "OSError", "EnvironmentError": "OSError"}
_ENTRY = re.compile(r"^Python (method|static method|constructor|function) `([^`]+)`")


def python_entry(reach: Reach | None) -> tuple[str, str] | None:
    """(what Python calls: "method", "static method", "constructor" or "function"; its Python
    name) when the site's fn is itself an entry point pyo3 exports (`_Dataset.get_version`);
    None otherwise."""
    if reach is None or not reach.paths:
        return None
    best = reach.paths[0]
    found = _ENTRY.match(best.entry_label or "") if len(best.hops) == 1 else None
    return (found[1], found[2]) if found is not None else None


def raised_class(site: Site) -> str | None:
    """The Python exception the site's pyo3 constructor raises (`PyValueError::new_err`:
    `ValueError`); None for any other site."""
    found = _PY_EXCEPTION.match(site.macro or "") if site.kind == "constructor" else None
    if found is None:
        return None
    return _PYTHON_CLASS.get(found[1], found[1])


def python_catch(site: Site, reach: Reach | None, needle: str) -> str | None:
    """`try: .. except ValueError as e:` around the Python call of the site's fn, telling
    this error by `needle` (the message's longest literal part); None when the fn is no
    Python entry point or the needle is empty."""
    entry = python_entry(reach)
    if entry is None or not needle.strip():
        return None
    kind, name = entry
    # an object's method on an object; a class's, a constructor (`KMeans(..)`), a function
    # by its name
    called = f"obj.{name.rsplit('.', 1)[-1]}(...)" if kind == "method" else f"{name}(...)"
    raised = raised_class(site)
    caught = raised or "Exception"
    why = "" if raised else "  # the class its conversion to `PyErr` chooses"
    literal = needle.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return "\n".join(
        [
            "try:",
            f"    {called}  # Python `{name}`, which pyo3 exports",
            f"except {caught} as e:{why}",
            f'    if "{literal}" not in str(e):',
            "        raise",
            "    ...  # handle this case",
        ]
    )
