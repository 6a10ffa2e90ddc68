"""Directory trees replaced atomically: stage beside, exchange in one step, recover after a crash.

A tree is built in a staging directory beside the live one, made durable (one
`syncfs`), then exchanged with the live one by `renameat2(RENAME_EXCHANGE)` (two
renames where the kernel lacks it; `recover` repairs the gap). The replaced tree
is kept as `.<name>.spare`, and the next staging rewrites its files in place:
on some filesystems creating a file costs 20x rewriting one (0.7 ms against
0.04 ms on this project's machines). The spare is never read by anyone.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temp file in the same directory, fsync, `os.replace`, fsync the directory."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def spare_of(root: Path) -> Path:
    return root.parent / f".{root.name}.spare"


def claim_staging(root: Path) -> Path:
    """A staging directory: the previous version's tree (the spare) if there is one.

    Creating a file costs far more than rewriting one on some filesystems (0.7 ms
    against 0.04 ms on this project's machines): the spare's record files are reused
    (most are links to the live ones already, the rest rewritten in place). The spare
    is not live: nobody reads it. Its other links to the live tree (`versions/`,
    `.lock`) are dropped first and made again by `link_tree`.
    """
    spare = spare_of(root)
    staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.staging-", dir=root.parent))
    os.chmod(staging, 0o777 & ~_umask())  # mkdtemp's 0700 would become the dataset's mode
    if not spare.is_dir():
        return staging
    os.rmdir(staging)
    os.rename(spare, staging)  # claimed: a crash from here on leaves a staging dir to drop
    for entry in staging.iterdir():
        if entry.name not in ("records", "records.jsonl", "manifest.json"):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    return staging


def rewrite(path: Path | str, data: bytes | Iterable[bytes], dir_fd: int | None = None) -> None:
    """Write `data` (bytes, or pieces of it) to `path`, reusing the file if it is ours alone.

    With `dir_fd`, `path` is a name in that directory (no path walk per file).
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW, dir_fd=dir_fd)
    except FileNotFoundError:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=dir_fd)
        size = 0
    else:
        stat = os.fstat(fd)
        size = stat.st_size
        if stat.st_nlink != 1:  # shared with another tree: never write through it
            os.close(fd)
            os.unlink(path, dir_fd=dir_fd)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=dir_fd)
            size = 0
    try:
        done = 0
        for block in [data] if isinstance(data, bytes) else _blocks(data):
            view, start = memoryview(block), done
            while done < start + len(block):
                done += os.pwrite(fd, view[done - start :], done)
        if size > done:
            os.ftruncate(fd, done)  # after the write: frees only a shorter file's tail
    finally:
        os.close(fd)


def _blocks(pieces: Iterable[bytes], size: int = 1 << 20) -> Iterator[bytes]:
    """Pieces joined into blocks of about `size` bytes: one write call per block."""
    held: list[bytes] = []
    count = 0
    for piece in pieces:
        held.append(piece)
        count += len(piece)
        if count >= size:
            yield b"".join(held)
            held, count = [], 0
    if held:
        yield b"".join(held)


def keep_as_spare(old: Path, root: Path) -> None:
    """Keep the previous version's tree for the next publish to rewrite (see `_claim_staging`)."""
    spare = spare_of(root)
    if spare.exists():
        discard(old)
    else:
        os.rename(old, spare)


def discard(old: Path) -> None:
    """Delete the previous version's tree off the critical path (a detached `rm -rf`).

    It is renamed out of the staging namespace first, so `recover` of a later run
    only ever sees it as trash, and removes it if the `rm` did not finish.
    """
    trash = old.with_name(old.name.replace(".staging-", ".trash-", 1))
    os.rename(old, trash)
    try:
        subprocess.Popen(
            ["rm", "-rf", "--", str(trash)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        shutil.rmtree(trash, ignore_errors=True)


def link_tree(source: Path, target: Path, skip: set[str]) -> None:
    """Hard-link every file under `source` into `target` (directories re-created), but `skip`."""
    for entry in source.iterdir():
        # `.lock` too: a hard link keeps the inode that a running writer holds locked.
        if entry.name in skip or (entry.name.startswith(".") and entry.name.endswith(".tmp")):
            continue
        if entry.is_dir() and not entry.is_symlink():
            (target / entry.name).mkdir()
            link_tree(entry, target / entry.name, set())
        else:
            os.link(entry, target / entry.name, follow_symlinks=False)


def fsync_tree(directory: Path) -> None:
    """Make a freshly written directory durable: one `syncfs` rather than a fsync per file."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        syncfs = getattr(_libc(), "syncfs", None) if _libc() is not None else None
        if syncfs is None or syncfs(fd) != 0:
            os.sync()
    finally:
        os.close(fd)


@functools.cache
def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name, use_errno=True) if name else None


def swap_in(staged: Path, live: Path) -> None:
    """Make `staged` the live directory; the old one ends up at `staged`'s path."""
    if not live.exists():
        os.rename(staged, live)
    elif not exchange(staged, live):
        backup = staged.with_name(staged.name + ".old")
        os.rename(live, backup)  # `recover` puts it back if we die before the next line
        os.rename(staged, live)
        os.rename(backup, staged)
    fsync_dir(live.parent)


def exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux renameat2 RENAME_EXCHANGE); False if unsupported."""
    libc = _libc()
    renameat2 = getattr(libc, "renameat2", None) if libc is not None else None
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return bool(result == 0)


def recover(root: Path) -> None:
    """Repair what an interrupted `publish` left: restore the live dir, drop staging dirs."""
    staged = sorted(root.parent.glob(f".{root.name}.staging-*"))
    for backup in (p for p in staged if p.name.endswith(".old")):
        if not root.exists():
            os.rename(backup, root)
    for staging in root.parent.glob(f".{root.name}.staging-*"):
        shutil.rmtree(staging, ignore_errors=True)
    for trash in root.parent.glob(f".{root.name}.trash-*"):
        shutil.rmtree(trash, ignore_errors=True)
    if root.is_dir():
        for tmp in root.glob(".*.tmp"):
            tmp.unlink(missing_ok=True)
        for old in root.glob(".staging-*"):  # left by errdoc before 0.1 published this way
            shutil.rmtree(old, ignore_errors=True)
