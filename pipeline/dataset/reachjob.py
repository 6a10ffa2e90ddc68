"""The index stage of a run, beside the scan: a child process indexes the commit and builds
its call graph while the run scans, carries and settles ids; the run then sends what its
sites' reach depends on and gets back their reach and the bytes of `reach.json`.

Why a process: the index of a regeneration is mostly serial work (decode the cached file
indexes, link the graph, find the carried records' paths), and so is the rest of a
regeneration (scan the changed files, carry the others, settle ids): side by side on two
cores they take the time of the longer one, not of both. A cold run is CPU-bound either
way; there the run writes the static explanations while the child finishes (the reach's
two sentences are added when it answers), so no core waits for the other side.

The answer comes in two messages: first the reach of the sites the run sent (what its
explanations need), then `reach.json`, whose rows for every record (the carried ones'
paths found again) the child makes while the run explains and stages the records; the run
takes the document last, when it writes `reach.json` (`Reached.document`). Given the
staged directory's path (`send(into=..)`), the child writes the file there itself and the
second message only says it did: risingwave's 21 MB are not pickled, piped and written again.

What its link resolved is kept for the next run's (`save_link_memo`: 0.25-0.4 s for
risingwave). A regeneration keeps it by a fork started as soon as the graph is built,
beside the paths: kept after the document, it was the last 0.2 s of every regeneration, the
run waiting for it. A first run (no memo kept before) keeps it after the document: beside
its paths, every site's, the fork's shared pages cost more than that (`_link_saver`). The
child ends once it is kept; `close` gives it that long once the document came, no more
(`MEMO_WAIT`).

The child is started as soon as the commit is known, told only the commit (`Unlisted`): it
lists the files it indexes itself, while the run lists and reads what its scan needs (the
error-macro table: 0.2 s of risingwave's regeneration, which the child no longer waits for).
It is forked before the run opens any reader, so it holds no pipe of the run's; it
asks the kernel to kill it with the run (`die_with_parent`), and `close` ends it on any
exit of the run (an error, ^C), so no index is left running behind a run that ended.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

from pipeline.core.orphans import die_with_parent
from pipeline.core.progress import Progress
from pipeline.core.reach import Reach, reach_json_text
from pipeline.core.timeline import mark
from pipeline.dataset import atomicdir
from pipeline.dataset.previous import line_field
from pipeline.dataset.store import reach_file
from pipeline.languages import INDEX_VERSION, RepositoryModules
from pipeline.scan.builders import (
    counted_file,
    in_patterns,
    settle_mentions,
    unbuilt_candidates,
)
from pipeline.scan.callerpaths import SiteSpec, Walks, reaches_of
from pipeline.scan.callgraph import CallGraph
from pipeline.scan.collect import index_files
from pipeline.scan.entrypatterns import EntryPattern
from pipeline.scan.forked import (
    WorkerDied,
    balanced,
    map_forked,
    parts_wanted,
    portable,
    start_forked,
)
from pipeline.scan.linkmemo import memo_path
from pipeline.scan.reachmemo import KeptPaths
from pipeline.scan.reachstage import (
    index_enabled,
    index_graph,
    reach_head,
    save_link_memo,
)
from pipeline.source.repository import TreeEntry
from pipeline.source.wordcount import value_counts

_POLL_SECONDS = 0.1
_W = TypeVar("_W")
# How long `close` waits for the child to keep its link once it has sent the document.
MEMO_WAIT = 30.0


class IndexFailed(WorkerDied):
    """The index child died; the message says how and what to do."""


@dataclass(frozen=True)
class Unlisted:
    """A commit whose files the child lists itself (`collect.index_files`: every source
    file but the `exclude`d ones, and what the build manifests call them)."""

    sha: str
    exclude: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reached:
    """The reach of the scanned sites by record id; `document()`: `reach.json` for every
    record (waits for the child's second message, and says so if it died), or None once the
    child has written it where `send` said."""

    reaches: dict[str, Reach]
    document: Callable[[], bytes | None]


# What the run sends: the scanned sites, the carried records' (`carried_specs`), the sha,
# and where to write `reach.json` (None: send it).
_Request = tuple[list[SiteSpec], list[SiteSpec], str, Path | None]


class ReachJob:
    """A running index child: `send(...)` once, `wait()`, then `close()` (also on error)."""

    def __init__(
        self, total: Any, process: Any, conn: Connection, done: Any, finished: Any
    ) -> None:
        self._total = total  # files to index: set by the child when it lists them itself
        self._process = process
        self._conn = conn
        self._done = done  # files indexed so far, written by the child
        self._finished = finished  # set by the child once its work is kept, or it failed
        self._sender: threading.Thread | None = None
        self._delivered = False  # the document came: the child is keeping its link

    @classmethod
    def start(
        cls,
        git_dir: Path,
        entries: Sequence[TreeEntry] | Unlisted,
        cache_dir: Path,
        jobs: int | None,
        patterns: Sequence[EntryPattern] = (),
        repo: str | None = None,
        modules: RepositoryModules | None = None,
    ) -> ReachJob | None:
        """Start indexing `entries` (or the files of an `Unlisted` commit, which the child
        lists) in a child; None when the index is turned off (`patterns`: the repository's
        own entry points; `repo`: its `owner/name`, under which the cache keeps each link for
        the next one, `linkmemo`; `modules`: what the build manifests call the files, for the
        entry points' names; found by the child for an `Unlisted` commit)."""
        if not index_enabled():
            return None
        context = multiprocessing.get_context("fork")
        ours, theirs = context.Pipe()
        given = entries if isinstance(entries, Unlisted) else list(entries)
        total = context.Value("q", 0 if isinstance(given, Unlisted) else len(given), lock=False)
        done = context.Value("q", 0, lock=False)
        finished = context.Event()
        process = context.Process(
            target=_serve,
            args=(
                theirs, git_dir, given, cache_dir, jobs,
                (done, finished, total), (tuple(patterns), modules), repo,
            ),
            name="errdoc-index",
        )  # fmt: skip
        # What exists now is not collected in the child: a collection there would write to
        # every object's pages, and a fork shares pages only until either side writes them.
        gc.freeze()
        try:
            process.start()
        finally:
            gc.unfreeze()
        theirs.close()
        return cls(total, process, ours, done, finished)

    def send(
        self,
        specs: list[SiteSpec],
        carried: list[SiteSpec],
        sha: str,
        into: Path | None = None,
    ) -> None:
        """Send the sites whose reach is wanted (`carried`: the records carried over, whose
        reach only `reach.json` needs); returns at once (`wait` gets the answer).

        `into`: the child writes `reach.json` there (a staged directory's), and
        `Reached.document()` says when with None; else the document comes as bytes."""
        request: _Request = (specs, carried, sha, into)
        # The child reads only once its graph is built: a large request would block here.
        self._sender = threading.Thread(target=self._send, args=(request,), daemon=True)
        self._sender.start()

    def wait(self) -> Reached:
        """The answer to `send` (a bar counts the files indexed meanwhile)."""
        with Progress(self._total.value, "index") as bar:
            while not self._conn.poll(_POLL_SECONDS):
                bar.advance(self._done.value - bar.done)
                if not self._process.is_alive() and not self._conn.poll(0):
                    raise self._died()
            bar.advance(self._done.value - bar.done)
        try:
            answer = self._conn.recv()
        except EOFError:  # it ended (was killed) before it answered
            raise self._died() from None
        if self._sender is not None:
            self._sender.join()
        if answer[0] == "error":
            raise answer[1]
        # Received as soon as it is sent, whatever the run does meanwhile (a model's answers
        # may take hours): the child then ends, and its memory is given back.
        later: Future[Any] = Future()
        threading.Thread(target=self._receive, args=(later,), daemon=True).start()
        return Reached(answer[1], lambda: self._document(later))

    def _receive(self, later: Future[Any]) -> None:
        try:
            later.set_result(self._conn.recv())
        except BaseException as exc:  # EOFError, OSError: it ended before it sent it
            later.set_exception(exc)

    def _document(self, later: Future[Any]) -> bytes | None:
        try:
            answer = later.result()
        except (EOFError, OSError):
            raise self._died() from None
        # Its work is done and it is ending: not waited for here (a large index takes
        # ~0.2 s to tear down), `close` reaps it when the run ends.
        if answer[0] == "error":
            raise answer[1]
        self._delivered = True
        return None if answer[1] is None else bytes(answer[1])

    def _died(self) -> IndexFailed:
        self._process.join(5)
        code = self._process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"status {code}"
        return IndexFailed(
            f"the repository index died ({how}); run again, or set ERRDOC_NO_INDEX=1 to "
            "extract without caller paths"
        )

    def _send(self, request: _Request) -> None:
        with contextlib.suppress(OSError):  # the child died: `wait` says so
            self._conn.send(request)

    def close(self) -> None:
        """End the child if it still runs, and reap it (again: a no-op). Once it has sent
        the document, it is first given `MEMO_WAIT` seconds to keep its link.

        A child that said it is done is not waited for: all it has left is its exit, the
        kernel freeing its memory (0.11-0.17 s for risingwave's index), and it no longer
        holds the run's output
        (`_let_go_of_output`). A thread reaps it; a run that ends first leaves it to init."""
        deadline = time.monotonic() + MEMO_WAIT
        while (  # not past its death: a child killed meanwhile never says it is done
            self._delivered
            and self._process.is_alive()
            and not self._finished.wait(_POLL_SECONDS)
            and time.monotonic() < deadline
        ):
            pass
        if self._finished.is_set():
            threading.Thread(target=self._process.join, daemon=True).start()
        else:
            if self._process.is_alive():
                self._process.terminate()
            self._process.join()
        if not self._conn.closed:
            self._conn.close()


def _serve(
    conn: Connection,
    git_dir: Path,
    entries: list[TreeEntry] | Unlisted,
    cache_dir: Path,
    jobs: int | None,
    shared: tuple[Any, Any, Any],
    names: tuple[tuple[EntryPattern, ...], RepositoryModules | None] = ((), None),
    repo: str | None = None,
) -> None:
    """The child: index, link, then answer the one request: the reach of the sites sent,
    then `reach.json`; then keep the link for the next run (the files of an `Unlisted` commit
    listed first). `shared`: the count of files indexed, the event set when the child is
    done, and the count of files to index (set here for an `Unlisted` commit)."""
    done, finished, total = shared
    die_with_parent()
    # The child builds one large structure that only grows (file indexes, then the graph)
    # and ends with the run: the cyclic collector would walk it again and again and find
    # nothing (decoding risingwave's cached indexes 0.93 -> 0.36 s, linking 1.17 -> 0.85 s;
    # a regeneration over 50 commits 5.14 -> 4.91 s, mean of 3 alternated).
    gc.disable()
    mark("index: started")

    def advance(count: int) -> None:
        done.value += count

    def listed(count: int) -> None:
        total.value = count

    try:
        source = (git_dir, entries, cache_dir)
        _held, keep = _answered(conn, source, jobs, (advance, listed), names, repo)
        keep()  # the link kept for the next run: done before the child ends
    finally:
        conn.close()
        _let_go_of_output()
        finished.set()
    # Done, and said so: it ends here with the graph still `_held`, its objects not freed one by
    # one (risingwave's took 0.15 s to free, which the run waited for while the graph was
    # freed before `finished`); nothing is left to flush, its output is /dev/null's.
    os._exit(0)


def _let_go_of_output() -> None:
    """Point the child's stdout and stderr (the run's, inherited) at /dev/null: whoever
    reads the run's output to its end (a pipe, `subprocess.run`) then stops waiting when
    the run ends, not when this child has also been torn down."""
    with contextlib.suppress(OSError):
        sink = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            os.dup2(sink, fd)
        os.close(sink)


def _answered(
    conn: Connection,
    source: tuple[Path, list[TreeEntry] | Unlisted, Path],
    jobs: int | None,
    counts: tuple[Callable[[int], None], Callable[[int], None]],
    names: tuple[tuple[EntryPattern, ...], RepositoryModules | None],
    repo: str | None,
) -> tuple[CallGraph | None, Callable[[], None]]:
    """Index, link, answer; returns the graph (freed only once the child has said it is
    done) and what finishes keeping its link for the next run. `counts`: told of each n
    files indexed, and of the files to index once an `Unlisted` commit's are listed."""
    git_dir, unlisted, cache_dir = source
    advance, listed = counts
    keep: Callable[[], None] = lambda: None  # noqa: E731
    graph: CallGraph | None = None
    try:
        # `--jobs 1`: one thing at a time, so the index waits until the run has scanned
        early: _Request | None = conn.recv() if jobs == 1 else None
        patterns, modules = names
        if isinstance(unlisted, Unlisted):
            entries, modules = index_files(git_dir, unlisted.sha, unlisted.exclude)
            listed(len(entries))
        else:
            entries = tuple(unlisted)
        mark("index: files listed")
        graph = index_graph(git_dir, entries, cache_dir, jobs, advance, patterns, repo, modules)
        mark("index: linked")
        assert graph is not None  # the parent starts a job only with the index on
        # The link's memo is kept by a fork, which shares the graph's pages: each page either
        # side then writes (a reference count) is copied. Beside a regeneration's few paths
        # that costs little and takes the memo off the run's last steps; beside a cold run's
        # (every site's) it cost more than it saved (risingwave, 3 alternated cold runs:
        # 12.7 s median, 11.1 s kept here): there the child keeps it once the document is sent.
        saving, relinked = _link_saver(cache_dir, repo, graph)
        if saving is not None and relinked:
            keep = _keeping(saving, jobs)
        specs, carried, sha, into = early if early is not None else conn.recv()
        mark("index: sites received")
        # the names of variants nothing the index reads builds, as the files write them
        settle_mentions(
            graph,
            value_counts(
                git_dir,
                sha,
                unbuilt_candidates(graph, ((s.path, s.line) for s in (*specs, *carried))),
                lambda path: counted_file(graph, path),
                {e.path: e.blob_sha for e in entries},
                in_patterns,
            ),
        )
        walked: Walks = {}
        found = _reaches_in_parts(graph, specs, jobs, walked)
        mark("index: reaches found")
        if saving is not None and not relinked:
            keep = saving
        # Meanwhile the run explains with `found` and stages the records (with `--jobs 1`,
        # one thing at a time: the document first).
        if jobs != 1 and not _answer(conn, ("ok", found)):
            return graph, keep
        # The last run's walks are looked at only now: the scanned sites sit in changed
        # files (their fns' walks are made again anyway), the carried records' rows are
        # what the walks taken over save, and the run is not kept waiting for them.
        kept: KeptPaths | None = None
        if repo is not None:
            blobs = {e.path: e.blob_sha for e in entries}
            kept = KeptPaths.open(cache_dir, repo, graph, blobs, INDEX_VERSION, bool(carried))
            for walk, paths in kept.taken.items():
                walked.setdefault(walk, paths)
            mark(f"index: {len(kept.taken)} walks taken over")
        rows = _rows_in_parts(graph, carried, jobs, found, walked)
        body = reach_file(reach_head(sha), rows)
        mark("index: reach.json made")
        if kept is not None:
            keep = _also(keep, _keeping(lambda: kept.save(walked), jobs))
        document: bytes | None = body
        if into is not None:  # 21 MB for risingwave: written here, not sent to be written
            atomicdir.rewrite(into, body)
            document = None
        if jobs == 1 and not _answer(conn, ("ok", found)):
            return graph, keep
    except BaseException as exc:
        _answer(conn, ("error", portable(exc)))
        return graph, keep
    _answer(conn, ("ok", document))
    return graph, keep


def _link_saver(
    cache_dir: Path, repo: str | None, graph: CallGraph
) -> tuple[Callable[[], None] | None, bool]:
    """What keeps `graph`'s link for the next run (None: no repository to key it by), and
    whether a link of the repository was kept before (this run is a regeneration)."""
    if repo is None:
        return None, False
    relinked = memo_path(cache_dir, repo, INDEX_VERSION).is_file()
    return lambda: save_link_memo(cache_dir, repo, graph), relinked


def _keeping(keep: Callable[[], None], jobs: int | None) -> Callable[[], None]:
    """Start `keep` (a memo written for the next run: the link's, beside a regeneration's
    paths; the walks', beside the run's last steps) in a fork; returns the wait for it. With `--jobs 1`
    (one thing at a time) it is kept when waited for.

    The fork yields (`start_forked`): on a cold risingwave run the link's memo took 1.3 s
    of CPU from the paths and the explaining this run waits for; at the lowest priority it
    runs on what they leave idle (the run's last second is the publishing, on one core)."""
    if jobs == 1:
        return keep
    saver = start_forked(keep, yielding=True)
    return lambda: saver.join()


def _also(first: Callable[[], None], then: Callable[[], None]) -> Callable[[], None]:
    def both() -> None:
        first()
        then()

    return both


def _answer(conn: Connection, answer: tuple[Any, ...]) -> bool:
    """Send `answer`; False when the run is gone (nothing more to do)."""
    try:
        conn.send(answer)
    except OSError:
        return False
    return True


# Below this many sites, one process finds their paths: a fork costs more than it saves.
PARALLEL_MIN = 500


def _shares(graph: CallGraph, specs: Sequence[SiteSpec], parts: int) -> list[list[SiteSpec]]:
    """The sites split for `map_forked` by enclosing fn, so that each fn's paths are still
    found once, in one part."""
    groups: dict[int | None, list[SiteSpec]] = {}
    for spec in specs:
        groups.setdefault(graph.enclosing(spec.path, spec.line), []).append(spec)
    shares = balanced(list(groups.values()), len, parts, [0] * parts)
    return [[spec for group in share for spec in group] for share in shares]


def _reaches_in_parts(
    graph: CallGraph,
    specs: Sequence[SiteSpec],
    jobs: int | None,
    walked: Walks | None = None,
    minimum: int = PARALLEL_MIN,
) -> dict[str, Reach]:
    """The reach of each site by record id (the graph is built: each part is a fork that
    shares it). `walked`: the walks known so far (taken over from the last run), to which
    the walks made here are added."""
    walked = {} if walked is None else walked
    found: dict[str, Reach] = {}
    parts = parts_wanted(jobs, len(specs), minimum)
    for more, new in map_forked(
        lambda share: _walked(walked, lambda memo: reaches_of(share, graph, memo)),
        _shares(graph, specs, parts),
    ):
        found.update(more)
        walked.update(new)
    return found


def _walked(walked: Walks, work: Callable[[Walks], _W]) -> tuple[_W, Walks]:
    """`work(walked)`, and the walks it added to `walked` (in a fork, to its own copy:
    they go back with its result)."""
    before = len(walked)
    out = work(walked)
    return out, dict(itertools.islice(walked.items(), before, None))


def _rows_in_parts(
    graph: CallGraph,
    specs: Sequence[SiteSpec],
    jobs: int | None,
    found: Mapping[str, Reach] | None = None,
    walked: Walks | None = None,
    minimum: int = PARALLEL_MIN,
) -> dict[str, str]:
    """The `reach.json` row of each site of `specs` that has a reach, and of each reach of
    `found`, by record id. A part finds its sites' reaches and encodes them with its share of
    `found` (the reaches of one fn's sites share their paths: they go together, encoded once)."""
    found = found or {}
    walked = {} if walked is None else walked
    # Encoding alone (a cold run: no carried record to find) is no work for a fork: 6,200
    # of risingwave's reaches encode in 0.16 s of CPU; in one part the rows and the file
    # took 0.13 s of a cold run's wall time (one timeline), in two 0.22-0.30 s (two).
    parts = parts_wanted(jobs, len(specs) + len(found), minimum) if specs else 1
    shares = _shares(graph, specs, parts)
    by_paths: dict[int, list[str]] = {}
    for rid, reach in found.items():
        by_paths.setdefault(id(reach.paths), []).append(rid)
    # a site to find weighs about 3 to encode
    groups = balanced(list(by_paths.values()), len, parts, [3 * len(s) for s in shares])
    made = [[rid for group in share for rid in group] for share in groups]
    rows: dict[str, str] = {}
    for more, new in map_forked(
        lambda part: _walked(
            walked,
            lambda memo: _rows_of(
                graph, shares[part], {rid: found[rid] for rid in made[part]}, memo
            ),
        ),
        list(range(parts)),
    ):
        rows.update(more)
        walked.update(new)
    return rows


def _rows_of(
    graph: CallGraph,
    specs: list[SiteSpec],
    found: Mapping[str, Reach],
    walked: Walks | None = None,
) -> dict[str, str]:
    shared: dict[int, Any] = {}  # a fn's paths converted once for all its sites
    reaches = {**found, **reaches_of(specs, graph, walked)}
    return {rid: reach_json_text(reach, shared) for rid, reach in reaches.items()}


def carried_specs(
    lines: Mapping[str, str], provenance: Mapping[str, Mapping[str, Any]]
) -> list[SiteSpec]:
    """What the reach of records carried over unparsed depends on, from their record line
    and provenance (the conditions' texts, and their kinds from the `kind: ` prefix). The run makes them
    and sends them to the index child, not the lines: risingwave's 5,800 carried lines are
    31 MB to pickle, pipe and read again, their specs 1 MB, and the child's time is the
    regeneration's (0.15 s of it, when it read the lines)."""
    specs = []
    for rid, line in lines.items():  # three fields of ~4 KB lines: not decoded whole
        written = [str(c).split(": ", 1) for c in provenance.get(rid, {}).get("conditions", ())]
        conditions = tuple(parts[-1] for parts in written)
        kinds = tuple(parts[0] if len(parts) == 2 else "" for parts in written)
        klass, path = line_field(line, "errorClass"), str(line_field(line, "filePath"))
        number, panics = (
            int(line_field(line, "lineNumber")),
            line_field(line, "errorType") == "panic",
        )
        given = provenance.get(rid, {})
        rebound = tuple(str(name) for name in given.get("rebound", ()))
        made = given.get("madeBy")
        made_by = made if isinstance(made, str) else None
        needs = given.get("needs")
        required = (
            tuple(sorted((str(k), str(v)) for k, v in needs.items()))
            if isinstance(needs, dict)
            else None
        )
        specs.append(
            SiteSpec(
                rid, klass, path, number, conditions, panics, kinds, rebound, made_by, required
            )
        )
    return specs
