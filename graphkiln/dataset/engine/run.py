"""``Run``: the execution state one iterator shares across its pipeline's nodes.

A node's ``_rows(run)`` streams rows (tuples of ndarrays). ``run.rng(node, ...)`` gives the
generator for a random choice, keyed on (seed, node position, epoch, repeat pass, ...), so a
pipeline repeats exactly however its work is scheduled; with a user seed, samplers, shuffles
and random maps follow MindSpore's own streams instead (``sampler_indices``, ``node_state``).
Worker pools live as long as the iterator and are closed with it.
"""
from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from ..config import get_seed
from ..randomness import MapStreams, keyed, mindspore_seeded, root_seed
from .samplers import DistributedSampler
from .seeded_samplers import sampler_stream
from .workers import LanePool, OrderedPool, describe

_USER_ERROR = "Exception thrown from user defined Python function in dataset."
_RULE = "-" * 66


class Run:
    """Seed, node numbering and worker pools of one iterator; ``key`` scopes randomness."""

    def __init__(self, root, key: tuple = (), shared: dict | None = None,
                 iterating: bool = False):
        if shared is None:
            root.check_tree()
            nodes: list = []
            _walk(root, nodes)
            shared = {"seed": root_seed(),
                      "mindspore_seed": get_seed() if mindspore_seeded() else None,
                      "ids": {id(n): i for i, n in enumerate(nodes)}, "pools": {},
                      "passes": {}, "streams": {}, "states": {}, "iterating": iterating,
                      "stopped": threading.Event(), "shard_seeds": {
                          id(n): n.sampler.seed for n in nodes
                          if isinstance(getattr(n, "sampler", None), DistributedSampler)}}
        self._shared = shared
        self.key = key

    def scoped(self, *key: int) -> Run:
        """The same run, with randomness keyed further (an epoch, a repeat pass)."""
        return Run(None, self.key + key, self._shared)

    @property
    def iterating(self) -> bool:
        """Whether an iterator runs this (sync points block only then, not for sizes)."""
        return self._shared["iterating"]

    @property
    def stopped(self) -> threading.Event:
        """Set once the run is closed or its iterator stops: nothing may wait any longer."""
        return self._shared["stopped"]

    def rng(self, node, *key: int) -> np.random.Generator:
        return keyed(*self.row_key(node, *key))

    def row_key(self, node, *key: int) -> tuple:
        return (self._shared["seed"], self._shared["ids"][id(node)], *self.key, *key)

    @property
    def mindspore_seed(self) -> int | None:
        """The seed MindSpore's ``GetSeed()`` gives this run (None: fresh entropy there)."""
        return self._shared["mindspore_seed"]

    def engine_seed(self) -> int:
        """The seed of a C++ engine MindSpore would seed with ``GetSeed()``."""
        seed = self.mindspore_seed
        return root_seed() if seed is None else seed

    def node_state(self, node, make: Callable):
        """State a node keeps for the whole iterator (made by ``make()`` on first use)."""
        states = self._shared["states"]
        if id(node) not in states:
            states[id(node)] = make()
        return states[id(node)]

    def restart_map_streams(self) -> None:
        """Every seeded random ``map`` draws from its streams' start again (MindSpore's fast
        recovery: the rows it skips never reach the maps)."""
        for state in self._shared["states"].values():
            if isinstance(state, MapStreams):
                state.restart()

    def skip_inputs(self, node, rows: int) -> None:
        """Make ``node`` drop the first ``rows`` rows it reads in this run's next pass."""
        self._shared.setdefault("skips", {})[id(node)] = rows

    def inputs_to_skip(self, node) -> int:
        """The rows ``node`` drops from its input in this pass (once; 0 if none)."""
        return self._shared.get("skips", {}).pop(id(node), 0)

    def sampler_indices(self, node, sampler, n: int) -> np.ndarray | None:
        """The node's indices for this pass in MindSpore's stream (passes numbered in the
        order the run first reaches them): for a shuffling ``DistributedSampler`` always,
        from its own seed; for the other random samplers with a user seed; else None."""
        seed = self._shared["shard_seeds"].get(id(node))
        if seed is None:
            seed = self.mindspore_seed
        if seed is None:
            return None
        streams = self._shared["streams"]
        stream = streams.get(id(node))
        if stream is None or stream.n != n:
            stream = sampler_stream(sampler, n, seed)
            if stream is None:
                return None
            streams[id(node)] = stream
        passes = self._shared["passes"].setdefault(id(node), {})
        return stream.indices(passes.setdefault(self.key, len(passes)))

    def pool(self, node, fn: Callable, num_workers: int, use_processes: bool) -> OrderedPool:
        """The node's worker pool, made on first use and kept for later epochs."""
        pools = self._shared["pools"]
        if id(node) not in pools:
            pools[id(node)] = OrderedPool(fn, num_workers, use_processes)
        return pools[id(node)]

    def lane_pool(self, node, lanes: int) -> LanePool:
        """The node's per-lane threads (MindSpore's map workers), kept for later epochs."""
        pools = self._shared["pools"]
        key = ("lanes", id(node))
        if key not in pools:
            pools[key] = LanePool(lanes)
        return pools[key]

    def close(self) -> None:
        self.stopped.set()
        for pool in self._shared["pools"].values():
            pool.close()
        self._shared["pools"].clear()


def _walk(node, out: list) -> None:
    if any(n is node for n in out):
        return
    out.append(node)
    for child in node.children:
        _walk(child, out)


def pipeline_error(exc: BaseException) -> RuntimeError:
    """MindSpore's RuntimeError for a failed step (an :class:`OpFailed`, a
    :class:`WorkerError` or a user exception), with the user's traceback."""
    where, text = describe(exc)
    return RuntimeError(f"{_USER_ERROR}\n\n{_RULE}\n- Python Call Stack:\n{_RULE}\n"
                        f"{where} failed. Error description:\n{text}")
