"""A platform directory that a lookup did not find: `dirs::home_dir()`, `dirs::cache_dir()`,
`ProjectDirs::from(..)`, a wrapper's `.home_dir()`. Such a lookup gives `None` when the
environment names no home directory (`HOME` unset, on Unix, for a service, a container or a
`sudo` that clears it), or for a directory the platform does not have. That is the
environment's, not an I/O failure nor a broken invariant: bat's "Could not get home
directory", yazi's "Failed to get config directory" and delta's cache directory had been
classed as I/O errors with advice about permissions and disk room (reading 109).

Only the call the code shows as the innermost condition, alone or through a `.map(..)`
(which keeps its `None`): `dirs::home_dir() was None (expect)`, `let Some(home) =
dirs::home_dir() else { bail!(..) }`. What the environment
variable is comes from the `dirs` crate's documentation of each lookup on Linux. Pure."""

from __future__ import annotations

import re

from pipeline.analyze.guarded import guarded_call
from pipeline.core.sitetypes import Site

# the lookup's name -> the XDG variable `dirs` reads first for it on Linux ("" for none)
_LOOKUPS = {
    "home_dir": "",
    "cache_dir": "XDG_CACHE_HOME",
    "config_dir": "XDG_CONFIG_HOME",
    "config_local_dir": "XDG_CONFIG_HOME",
    "data_dir": "XDG_DATA_HOME",
    "data_local_dir": "XDG_DATA_HOME",
    "state_dir": "XDG_STATE_HOME",
    "executable_dir": "XDG_BIN_HOME",
    "runtime_dir": "XDG_RUNTIME_DIR",
    "preference_dir": "XDG_CONFIG_HOME",
}
_CALL = re.compile(
    r"^(?:[\w:]*::|(?:[\w.]+|\w+\(\))\.)?(?P<name>"
    + "|".join(_LOOKUPS)
    + r")\(\)|^(?:[\w:]*::)?(?P<made>ProjectDirs::from(?:_path)?|BaseDirs::new|UserDirs::new)\("
)
_MAPPED = re.compile(r"\.map\((?:[^()]|\([^()]*\))*\)$")  # `.map(|p| p.join(".rustup"))`
# `let Some(home) = dirs::home_dir() else { bail!(..) }`, an `if let`'s `else`
_UNMATCHED = re.compile(r"^let Some\s*\([^()]*\)\s*=\s*(.+?)(?: did not match)?$")


def missing_directory(site: Site) -> tuple[str, str] | None:
    """The lookup that found no directory, as the code writes it, and the XDG variable it
    reads first ("" for the home directory itself), when the innermost condition is one
    that gave `None`; None for any other site."""
    if not site.facts.conditions:
        return None
    condition = site.facts.conditions[-1]
    value = guarded_call(site, ("None", "None/Err"))
    unmatched = _UNMATCHED.match(condition.text) if value is None else None
    if unmatched is not None and condition.kind in ("let_else", "else", "exit"):
        value = unmatched[1].strip()
    if value is None:
        return None
    found = _CALL.match(value)
    if found is None:
        return None
    rest = value[found.end() :] if found["name"] else _after_arguments(value, found.end())
    if rest and _MAPPED.fullmatch(rest) is None:
        return None
    call = value[: len(value) - len(rest)] if rest else value
    return call, _LOOKUPS.get(found["name"] or "", "")


def _after_arguments(text: str, start: int) -> str:
    """What follows the call's closing bracket, `start` just past its opening one."""
    depth = 1
    for at in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[at], 0)
        if depth == 0:
            return text[at + 1 :]
    return ""


def directory_advice(call: str, variable: str) -> str:
    """What to do about a lookup that found no directory."""
    if variable == "XDG_RUNTIME_DIR":
        return (
            f"`{call}` found no directory: with the `dirs` crate that is `XDG_RUNTIME_DIR`, "
            "which only Linux has, and only where it is set (a login session sets it). Set "
            "it in the environment the program runs in, or run it in a login session."
        )
    first = f"`{variable}` first on Linux, then " if variable else ""
    return (
        f"`{call}` found no directory: it comes from the environment ({first}the home "
        "directory, which is `HOME` on Unix and the user's profile on Windows). Set `HOME` "
        "in the environment the program runs in (a service, a container or `sudo` may run "
        "it without one)."
    )


def directory_tip(variable: str) -> str:
    """The tip for a lookup that found no directory (`variable`: what it reads first)."""
    if variable == "XDG_RUNTIME_DIR":
        return "Run the program where `XDG_RUNTIME_DIR` is set (a login session on Linux)."
    return (
        "Run the program where `HOME` is set (a service, a container or `sudo` may run it "
        "without one)."
    )
