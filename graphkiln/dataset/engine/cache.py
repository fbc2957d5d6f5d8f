"""``DatasetCache``: rows kept in memory after their first pass, so later epochs skip the
reading (a source's ``cache=``) or the transforms (``map(cache=...)``).

MindSpore keeps them in a separate cache server; here the cache lives in the process that
iterates the pipeline, is checked with MindSpore's rules and reports MindSpore's statistics.
"""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np

_MIB = 1 << 20
_tokens = itertools.count()


def _check_int(value, name: str, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], "
                        f"but got {type(value)}.")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[{low}, {high}].")


@dataclasses.dataclass
class CacheStat:
    """What ``DatasetCache.get_stat`` reports."""

    avg_cache_sz: int
    num_mem_cached: int
    num_disk_cached: int = 0


class DatasetCache:
    """A row cache for a pipeline node (``session_id`` and the server settings are
    validated as MindSpore does and kept; ``size`` MiB bounds it, 0 for no bound; rows
    beyond the bound are not cached, nothing spills to disk)."""

    def __init__(self, session_id: int, size: int = 0, spilling: bool = False,
                 hostname: str | None = None, port: int | None = None,
                 num_connections: int | None = None, prefetch_size: int | None = None):
        _check_int(session_id, "session_id", 0, 2 ** 32 - 1)
        _check_int(size, "size", 0, 2 ** 63 - 1)
        if not isinstance(spilling, bool):
            raise TypeError(f"Argument spilling with value {spilling} is not of type "
                            f"[<class 'bool'>], but got {type(spilling)}.")
        if hostname is not None and not isinstance(hostname, str):
            raise TypeError(f"Argument hostname with value {hostname} is not of type "
                            f"[<class 'str'>], but got {type(hostname)}.")
        if port is not None:
            _check_int(port, "port", 1025, 65535)
        for name, value in (("num_connections", num_connections),
                            ("prefetch_size", prefetch_size)):
            if value is not None:
                _check_int(value, name, 1, 2 ** 31 - 1)
        self.session_id, self.size, self.spilling = session_id, size, spilling
        self.hostname, self.port = hostname, port
        self.num_connections, self.prefetch_size = num_connections, prefetch_size
        self._stores: dict[int, dict[int, tuple]] = {}
        self._bytes = 0

    def attach(self) -> int:
        """A key for one pipeline node's rows."""
        token = next(_tokens)
        self._stores[token] = {}
        return token

    def lookup(self, token: int, indices) -> list[tuple] | None:
        """The rows at ``indices`` if every one is cached, else None."""
        store = self._stores[token]
        if any(i not in store for i in indices):
            return None
        return [store[i] for i in indices]

    def insert(self, token: int, index: int, row: tuple) -> None:
        """Keep ``row`` unless it is kept already or the size bound is reached."""
        store = self._stores[token]
        if index in store:
            return
        nbytes = sum(np.asarray(a).nbytes for a in row)
        if self.size and self._bytes + nbytes > self.size * _MIB:
            return
        store[index] = row
        self._bytes += nbytes

    def get_stat(self) -> CacheStat:
        """Rows cached and their average size in bytes."""
        count = sum(len(s) for s in self._stores.values())
        if not self._stores:
            raise RuntimeError("GetStat called but the cache is not in use yet.")
        return CacheStat(avg_cache_sz=self._bytes // count if count else 0,
                         num_mem_cached=count)


def check_cache(cache) -> DatasetCache | None:
    if cache is not None and not isinstance(cache, DatasetCache):
        raise TypeError(f"Argument cache with value {cache!r} is not of type "
                        f"[<class 'DatasetCache'>], but got {type(cache)}.")
    return cache


def cached_rows(cache: DatasetCache, token: int, indices: list[int], compute):
    """The rows at ``indices``: from ``cache`` when it holds every one, else from
    ``compute()`` (which yields them in that order), kept for the next epoch."""
    rows = cache.lookup(token, indices)
    if rows is not None:
        yield from rows
        return
    for index, row in zip(indices, compute()):
        cache.insert(token, index, row)
        yield row
