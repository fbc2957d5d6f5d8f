"""Ordered parallel map over a stream: a thread pool or forked worker processes.

``OrderedPool.imap(items)`` applies ``fn`` to chunks of items on N workers, keeps a bounded
number of chunks in flight (bounded memory) and yields results in input order. A worker's
exception comes back as :class:`WorkerError` carrying the worker's formatted traceback.
"""
from __future__ import annotations

import collections
import concurrent.futures
import itertools
import multiprocessing
import os
import queue
import signal
import traceback
import weakref
from collections.abc import Callable, Iterable, Iterator

_POLL_SECONDS = 0.5


class OpFailed(Exception):
    """Raised by a failing pipeline step; ``where`` names it, ``__cause__`` is the error."""

    def __init__(self, where: str):
        super().__init__(where)
        self.where = where


class WorkerError(Exception):
    """A failure in a worker: ``where`` names the step, ``text`` is the formatted traceback."""

    def __init__(self, where: str, text: str):
        super().__init__(f"{where}: {text}")
        self.where = where
        self.text = text


def describe(exc: BaseException) -> tuple[str, str]:
    """(step name, traceback text of the user's error) of an exception from a step."""
    if isinstance(exc, WorkerError):
        return exc.where, exc.text
    where = exc.where if isinstance(exc, OpFailed) else "Python function"
    cause = exc.__cause__ if isinstance(exc, OpFailed) and exc.__cause__ is not None else exc
    return where, "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))


def _apply_chunk(fn: Callable, chunk: list) -> list:
    return [fn(item) for item in chunk]


def _chunks(items: Iterable, size: int) -> Iterator[list]:
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _process_main(fn: Callable, tasks, results, parent_pid: int) -> None:
    """Worker process loop: apply ``fn`` to each task chunk until the sentinel ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    while True:
        try:
            task = tasks.get(timeout=_POLL_SECONDS)
        except queue.Empty:
            if os.getppid() != parent_pid:  # the parent died: never live on as an orphan
                return
            continue
        if task is None:
            return
        index, chunk = task
        try:
            results.put((index, True, _apply_chunk(fn, chunk)))
        except Exception as exc:  # noqa: BLE001 - any user error goes back to the parent
            results.put((index, False, describe(exc)))


class _Processes:
    """Forked workers fed by a task queue; ``fn`` is inherited by fork, never pickled."""

    def __init__(self, fn: Callable, num_workers: int):
        ctx = multiprocessing.get_context("fork")
        self.tasks = ctx.Queue()
        self.results = ctx.Queue()
        self.procs = [ctx.Process(target=_process_main, daemon=True,
                                  args=(fn, self.tasks, self.results, os.getpid()))
                      for _ in range(num_workers)]
        for p in self.procs:
            p.start()
        self.done: dict[int, tuple] = {}
        self.abandoned: set[int] = set()

    def submit(self, index: int, chunk: list) -> None:
        self.tasks.put((index, chunk))

    def result(self, index: int) -> list:
        while index not in self.done:
            try:
                got = self.results.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                dead = [p for p in self.procs if not p.is_alive()]
                if dead:
                    raise RuntimeError(f"A dataset worker process (pid {dead[0].pid}) exited "
                                       f"unexpectedly with code {dead[0].exitcode}.") from None
                continue
            if got[0] in self.abandoned:
                self.abandoned.discard(got[0])
            else:
                self.done[got[0]] = got[1:]
        ok, payload = self.done.pop(index)
        if not ok:
            raise WorkerError(*payload)
        return payload

    def abandon(self, index: int) -> None:
        if self.done.pop(index, None) is None:
            self.abandoned.add(index)

    def close(self) -> None:
        for _ in self.procs:
            try:
                self.tasks.put_nowait(None)
            except (ValueError, OSError):
                break
        for p in self.procs:
            p.join(timeout=1.0)
            if p.is_alive():
                p.terminate()
                p.join(timeout=1.0)
        for q in (self.tasks, self.results):
            q.cancel_join_thread()
            q.close()


class _Threads:
    def __init__(self, fn: Callable, num_workers: int):
        self.fn = fn
        self.executor = concurrent.futures.ThreadPoolExecutor(num_workers)
        self.futures: dict[int, concurrent.futures.Future] = {}

    def submit(self, index: int, chunk: list) -> None:
        self.futures[index] = self.executor.submit(_apply_chunk, self.fn, chunk)

    def result(self, index: int) -> list:
        try:
            return self.futures.pop(index).result()
        except Exception as exc:  # noqa: BLE001 - re-raised with the worker's traceback
            raise WorkerError(*describe(exc)) from None

    def abandon(self, index: int) -> None:
        self.futures.pop(index).cancel()

    def close(self) -> None:
        for f in self.futures.values():
            f.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)


class OrderedPool:
    """Apply ``fn`` to a stream in order on ``num_workers`` threads or processes."""

    def __init__(self, fn: Callable, num_workers: int, use_processes: bool,
                 chunk_size: int = 16, chunks_per_worker: int = 2):
        self.chunk_size = chunk_size
        self.window = max(2, num_workers * chunks_per_worker)
        self._backend = (_Processes if use_processes else _Threads)(fn, num_workers)
        self._ids = itertools.count()  # chunk ids stay unique across imap calls
        self._finalizer = weakref.finalize(self, self._backend.close)

    def imap(self, items: Iterable) -> Iterator:
        pending: collections.deque[int] = collections.deque()
        chunks = zip(self._ids, _chunks(items, self.chunk_size))
        try:
            for index, chunk in itertools.islice(chunks, self.window):
                self._backend.submit(index, chunk)
                pending.append(index)
            while pending:
                out = self._backend.result(pending.popleft())
                nxt = next(chunks, None)
                if nxt is not None:
                    self._backend.submit(*nxt)
                    pending.append(nxt[0])
                yield from out
        finally:  # a consumer that stops early leaves chunks in flight: drop their results
            for index in pending:
                self._backend.abandon(index)

    def close(self) -> None:
        self._finalizer()


class LanePool:
    """One thread per lane, each running its own items in the order given: MindSpore's
    ``map`` workers, each drawing from its own copies of the random ops."""

    def __init__(self, lanes: int, rows_per_lane: int = 32):
        self._lanes = [concurrent.futures.ThreadPoolExecutor(1) for _ in range(lanes)]
        self.window = lanes * rows_per_lane
        self._finalizer = weakref.finalize(self, _shutdown, self._lanes)

    def imap(self, items: Iterable[tuple[int, Callable, object]]) -> Iterator:
        """``fn(arg)`` for each ``(lane, fn, arg)``, in order. Items a consumer that stops
        early leaves in flight still run, so every lane's draws stay in sequence."""
        pending: collections.deque = collections.deque()
        for lane, fn, arg in items:
            pending.append(self._lanes[lane].submit(fn, arg))
            if len(pending) >= self.window:
                yield _result(pending.popleft())
        while pending:
            yield _result(pending.popleft())

    def close(self) -> None:
        self._finalizer()


def _result(future: concurrent.futures.Future):
    try:
        return future.result()
    except Exception as exc:  # noqa: BLE001 - re-raised with the worker's traceback
        raise WorkerError(*describe(exc)) from None


def _shutdown(executors: list) -> None:
    for executor in executors:
        executor.shutdown(wait=False, cancel_futures=True)
