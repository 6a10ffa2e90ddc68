"""A function over parts of one piece of work, the parts in forks that share this process's
memory (a built call graph: nothing to send but each part's result).

The first part runs here; each other one in a forked process that sends its result back
through a pipe and exits. A fork asks to die with this process (`die_with_parent`); what
exists at the fork is frozen from collection, so that neither side's collector writes
the shared pages. Results come back in the order of the parts, whoever finished first.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import traceback
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from pipeline.core.orphans import die_with_parent

_T = TypeVar("_T")
_R = TypeVar("_R")


class WorkerDied(RuntimeError):
    """A forked part ended without its result."""


def parts_wanted(jobs: int | None, size: int, minimum: int) -> int:
    """How many parts `size` units of work are split into: one per core (`jobs`, at most
    4), one when there are fewer than `minimum` units (a fork costs more than it saves)."""
    if size < minimum:
        return 1
    return max(1, min(jobs or os.cpu_count() or 1, 4))


def balanced(
    items: Sequence[_T],
    weight: Callable[[_T], int],
    parts: int,
    loads: Sequence[int] | None = None,
) -> list[list[_T]]:
    """`items` in `parts` shares of about equal weight (heaviest first, each to the lightest
    share), each share in `items`' order; no share empty unless there are fewer items.
    `loads`: what each share already weighs (then there are exactly that many shares)."""
    count = len(loads) if loads is not None else max(1, min(parts, len(items)))
    shares: list[list[int]] = [[] for _ in range(count)]
    loads = list(loads) if loads is not None else [0] * count
    for at in sorted(range(len(items)), key=lambda k: -weight(items[k])):
        lightest = loads.index(min(loads))
        shares[lightest].append(at)
        loads[lightest] += weight(items[at]) + 1
    return [[items[k] for k in sorted(share)] for share in shares]


def map_forked(func: Callable[[_T], _R], parts: Sequence[_T]) -> list[_R]:
    """`[func(part) for part in parts]`, the parts after the first in forks."""
    if len(parts) <= 1:
        return [func(part) for part in parts]
    context = multiprocessing.get_context("fork")
    helpers: list[tuple[Any, Connection]] = []
    gc.freeze()
    try:
        for part in parts[1:]:
            ours, theirs = context.Pipe(duplex=False)
            process = context.Process(target=_serve, args=(theirs, func, part))
            process.start()
            theirs.close()
            helpers.append((process, ours))
    finally:
        gc.unfreeze()
    try:
        results = [func(parts[0])]
        for process, conn in helpers:
            try:
                status, value = conn.recv()
            except EOFError:
                process.join(5)
                raise WorkerDied(
                    f"a worker process died (exit status {process.exitcode}); run again"
                ) from None
            if status == "error":
                raise value
            results.append(value)
        return results
    finally:
        for process, conn in helpers:
            if process.is_alive():
                process.terminate()
            process.join()
            conn.close()


def start_forked(func: Callable[[], object], yielding: bool = False) -> Any:
    """`func()` in a fork started now, beside this process's work (a cache to write from a
    built graph); returns the process, for the caller to `join`. Its result is dropped and
    its failure only ends it: what it does must be something that may be lost.

    `yielding`: the fork runs at the lowest priority (`nice` 19), on what CPU the run leaves
    idle: work for a later run, which this one should not wait for while it has work."""
    context = multiprocessing.get_context("fork")
    process = context.Process(target=_run_alone, args=(func, yielding))
    gc.freeze()
    try:
        process.start()
    finally:
        gc.unfreeze()
    return process


@contextlib.contextmanager
def beside(func: Callable[[], object], alone: bool = False) -> Iterator[None]:
    """`func()` in a fork (`start_forked`) while the block runs, joined when it ends; ended,
    not waited for, when the block raises (^C). `alone` (`--jobs 1`): `func()` here, first."""
    if alone:
        func()
        yield
        return
    process = start_forked(func)
    try:
        yield
    except BaseException:
        process.terminate()
        raise
    finally:
        process.join()


def _run_alone(func: Callable[[], object], yielding: bool = False) -> None:
    die_with_parent()
    if yielding:
        with contextlib.suppress(OSError):
            os.nice(19)
    func()


def _serve(conn: Connection, func: Callable[[_T], _R], part: _T) -> None:
    die_with_parent()
    try:
        answer: tuple[str, Any] = ("ok", func(part))
    except BaseException as exc:
        answer = ("error", portable(exc))
    with contextlib.suppress(OSError):  # the parent is gone
        conn.send(answer)
    conn.close()


def portable(exc: BaseException) -> BaseException:
    """The exception itself when it pickles, else a `WorkerDied` with its last line."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return WorkerDied(f"a worker process failed: {last}")
