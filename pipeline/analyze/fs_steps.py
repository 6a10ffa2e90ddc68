"""The tip of an I/O error whose file-system or process call the code shows: what that call
needs, not the class's list of every call's needs. Pure.

The I/O class's tip says "that what it creates anew does not yet (`create_dir`,
`create_new`)"; cargo's `fs::create_dir_all(p).with_context(..)` succeeds on a directory
that exists, and the tip pointed the reader the wrong way (reading 183)."""

from __future__ import annotations

import re

from pipeline.analyze.taxonomy import failed_process_call
from pipeline.core.sitetypes import Site

_READS = "Check before the run that what it reads exists and that it may read it."
_TIPS = {
    "create_dir_all": (
        "Check before the run that nothing but directories is in the way on that path, that "
        "it may write there, and that the disk has room."
    ),
    "create_dir": (
        "Check before the run that the directory does not exist yet, that its parent does, "
        "and that it may write there."
    ),
    "create_new": (
        "Check before the run that the file does not exist yet and that it may write there."
    ),
    "create": "Check before the run that it may write where it does and that the disk has room.",
    "write": "Check before the run that it may write where it does and that the disk has room.",
    "copy": (
        "Check before the run that what it copies exists, that it may write where it copies "
        "to, and that the disk has room."
    ),
    "rename": "Check before the run that what it renames exists and that it may write there.",
    "remove_file": "Check before the run that it may remove what it removes.",
    "remove_dir": "Check before the run that the directory is empty and that it may remove it.",
    "remove_dir_all": "Check before the run that it may remove what it removes.",
    "open": _READS,
    "read": _READS,
    "read_to_string": _READS,
    "read_to_end": _READS,
    "read_dir": _READS,
    "metadata": _READS,
    "canonicalize": _READS,
    "read_link": _READS,
}
# A call of the file system's as written: `fs::create_dir_all(`, `std::fs::read(`,
# `fs_err::write(`, `File::open(`, `tokio::fs::create_dir_all(`; a bare `create_dir_all(`
_FS_CALL = re.compile(
    r"(?<![\w.])(?:(?:std|tokio|async_std)::)?(?:(?:fs|fs_err)::(?:File::)?|File::)?"
    rf"({'|'.join(sorted(_TIPS, key=len, reverse=True))})\s*\("
)
# `fs::`-qualified or `File::`: `read(` alone is any fn's
_QUALIFIED = re.compile(
    r"(?:fs|fs_err|File)::\w+\s*\($|^(?:create_dir_all|create_dir|remove_dir_all|read_to_string|read_dir|canonicalize)\($"
)


def fs_step_tip(site: Site) -> str | None:
    """The tip of the file-system call whose failure the site reports, when its receiver or
    its innermost condition shows one; None otherwise."""
    texts = [site.facts.receiver or ""]
    if site.facts.conditions:
        texts.append(site.facts.conditions[-1].text)
    for text in texts:
        for found in _FS_CALL.finditer(text):
            written = text[found.start() : found.end()].replace(" ", "")
            if _QUALIFIED.search(written):
                step = found.group(1)
                if step == "create_dir" and _ALREADY_EXISTS.search(text):
                    return _EXISTING_KEPT
                return _TIPS[step]
    return None


# `if let Err(err) = fs::create_dir(path) && err.kind() != ErrorKind::AlreadyExists`, one
# condition: an existing directory is what the code wants, not a failure (ripgrep's index,
# reading 315: F, "check that the directory does not exist yet")
_ALREADY_EXISTS = re.compile(r"\bAlreadyExists\b")
_EXISTING_KEPT = (
    "Check before the run that the directory's parent exists and that it may write there "
    "(an existing directory is fine: the code goes on with it)."
)


# A process the code starts, or one it started and waits for or stops (`failed_process_call`):
# cargo's `child.wait().context("credential process never started")` got the file tips
# ("what it reads exists"), none of which makes a wait fail (reading 302's recheck)
_STARTS = (
    "Check before the run that the program it starts is installed where it is looked for "
    "(the `PATH`, or the path the code gives) and that it may be run."
)
_WAITS = (
    "Nothing checked before the run prevents it: waiting for or stopping a process it "
    "started fails only when the operating system refuses; read the error underneath."
)
_PROCESS_TIPS = {"spawn": _STARTS, "output": _STARTS, "wait": _WAITS,
                 "wait_with_output": _WAITS, "kill": _WAITS}  # fmt: skip


def process_step_tip(site: Site) -> str | None:
    """The tip of the process call whose failure the site reports (its innermost condition);
    None otherwise."""
    call = failed_process_call([c.text for c in site.facts.conditions])
    return _PROCESS_TIPS.get(call.rsplit(".", 1)[-1]) if call is not None else None
