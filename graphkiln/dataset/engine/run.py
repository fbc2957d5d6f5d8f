"""``Run``: the execution state one iterator shares across its pipeline's nodes.

A node's ``_rows(run)`` streams rows (tuples of ndarrays). ``run.rng(node, ...)`` gives the
generator for a random choice, keyed on (seed, node position, epoch, repeat pass, ...), so a
seeded pipeline repeats exactly however its work is scheduled. Worker pools live as long as the
iterator and are closed with it.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..config import seed_was_set
from ..randomness import keyed, root_seed
from .mt_shuffle import PassOrders
from .samplers import DistributedSampler
from .workers import OrderedPool, describe

_USER_ERROR = "Exception thrown from user defined Python function in dataset."
_RULE = "-" * 66


class Run:
    """Seed, node numbering and worker pools of one iterator; ``key`` scopes randomness."""

    def __init__(self, root, key: tuple = (), shared: dict | None = None):
        if shared is None:
            nodes: list = []
            _walk(root, nodes)
            shared = {"seed": root_seed(), "seed_set": seed_was_set(),
                      "ids": {id(n): i for i, n in enumerate(nodes)}, "pools": {},
                      "passes": {}, "orders": {}, "shard_seeds": {
                          id(n): n.sampler.seed for n in nodes
                          if isinstance(getattr(n, "sampler", None), DistributedSampler)}}
        self._shared = shared
        self.key = key

    def scoped(self, *key: int) -> Run:
        """The same run, with randomness keyed further (an epoch, a repeat pass)."""
        return Run(None, self.key + key, self._shared)

    def rng(self, node, *key: int) -> np.random.Generator:
        return keyed(*self.row_key(node, *key))

    def row_key(self, node, *key: int) -> tuple:
        return (self._shared["seed"], self._shared["ids"][id(node)], *self.key, *key)

    def mindspore_order(self, node, n: int) -> np.ndarray | None:
        """The node's permutation for this pass in MindSpore's stream (passes numbered in
        the order the run first reaches them): for a ``DistributedSampler`` always, from its
        seed; for a ``RandomSampler`` with a user seed; else None."""
        seed = self._shared["shard_seeds"].get(id(node))
        if seed is None:
            if not self._shared["seed_set"]:
                return None
            seed = self._shared["seed"]
        passes = self._shared["passes"].setdefault(id(node), {})
        number = passes.setdefault(self.key, len(passes))
        orders = self._shared["orders"]
        if id(node) not in orders or orders[id(node)].n != n:
            orders[id(node)] = PassOrders(n, seed)
        return orders[id(node)].order(number)

    def pool(self, node, fn: Callable, num_workers: int, use_processes: bool) -> OrderedPool:
        """The node's worker pool, made on first use and kept for later epochs."""
        pools = self._shared["pools"]
        if id(node) not in pools:
            pools[id(node)] = OrderedPool(fn, num_workers, use_processes)
        return pools[id(node)]

    def close(self) -> None:
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
