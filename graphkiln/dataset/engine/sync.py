"""``Dataset.sync_wait``/``sync_update``: a gate in the pipeline that lets a budget of rows
through and then blocks until the training loop calls ``sync_update`` (which may hand data
to a callback first, e.g. a new augmentation policy the rows after the gate then use).

As in MindSpore: the budget is ``num_batch`` rows, multiplied by the batch size of every
``batch`` built on top; ``sync_update`` adds its ``num_batch`` times the pipeline's batch size
(default: the initial budget); the budget carries over epochs and restarts with each
iterator; a gate left waiting ``config.get_callback_timeout()`` seconds logs a warning and
opens for good. Here a closed run also ends the wait, so no thread waits on it forever.
The node is ``datasets.SyncWaitDataset``; this module holds its gate and ``sync_update``.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from ..config import get_callback_timeout

_POLL_SECONDS = 0.05


class SyncGate:
    """MindSpore's ``BlockReleasePair``: ``count`` is negative while rows may pass."""

    def __init__(self, rows: int, callback: Callable | None):
        if rows <= 0:
            raise ValueError("num_batch need to be greater than 0.")
        self.default_rows = rows
        self.count = -rows
        self.callback = callback
        self.disabled = False
        self._cv = threading.Condition()

    def reset(self) -> None:
        """A new iterator: the initial budget again (a disabled gate stays open)."""
        with self._cv:
            self.count = -self.default_rows
            self._cv.notify_all()

    def scale(self, batch_size: int) -> None:
        """A ``batch`` built above the gate: budgets count rows of its batches."""
        if batch_size <= 0:
            raise ValueError("num_batch need to be greater than 0.")
        self.count *= batch_size
        self.default_rows *= batch_size

    def wait(self, stopped: threading.Event) -> None:
        """Let one row through, once the budget allows, the gate is disabled, the run is
        stopped, or the timeout passed (then the gate opens for good)."""
        with self._cv:
            deadline = time.monotonic() + get_callback_timeout()
            while self.count >= 0 and not self.disabled and not stopped.is_set():
                if time.monotonic() >= deadline:
                    logging.getLogger("mindspore").warning(
                        "Timeout happened in sync_wait, maybe dataset.sync_update(condition="
                        "...) is not added after dataset.create_dict_iterator(...), now "
                        "disabling lock.")
                    self.disabled = True
                    break
                self._cv.wait(_POLL_SECONDS)
            self.count += 1

    def release(self, rows: int | None, data, restart: bool = False) -> None:
        """``sync_update``: let ``rows`` more rows through (default the initial budget),
        after the callback has taken ``data``; with ``restart``, on top of a new initial
        budget (in one step, so every row it lets through sees the new data)."""
        with self._cv:
            if restart:
                self.count = -self.default_rows
            self.count -= self.default_rows if rows is None else rows
            try:
                if self.callback is not None:
                    self.callback(data)
            finally:
                self._cv.notify_all()

    def disable(self) -> None:
        with self._cv:
            self.disabled = True
            self._cv.notify_all()


def disable_first_gate(node) -> None:
    """MindSpore's reaction to a bad ``sync_update``: the nearest gate opens for good."""
    while node.children and not hasattr(node, "gate"):
        node = node.children[0]
    if hasattr(node, "gate"):
        node.gate.disable()


def sync_update(dataset, condition_name: str, num_batch: int | None, data) -> None:
    """Release ``num_batch`` batches (None: the initial budget) at the named sync point."""
    if (num_batch is not None and (isinstance(num_batch, bool) or
                                   not isinstance(num_batch, int) or num_batch <= 0)):
        disable_first_gate(dataset)
        raise RuntimeError(f"Sync_update batch size can only be positive integer, got: "
                           f"{num_batch}.")
    gates = dataset._sync_gates()
    if not isinstance(condition_name, str):
        raise TypeError(f"Argument condition_name with value {condition_name} is not of "
                        f"type str, but got {type(condition_name)}.")
    if condition_name not in gates:
        disable_first_gate(dataset)
        raise RuntimeError("Condition name not found.")
    rows, restart = None, False
    if num_batch is not None:
        restart = _first_getter_resets(dataset, gates[condition_name])
        rows = num_batch * dataset.get_batch_size()
    gates[condition_name].release(rows, data, restart)


def _first_getter_resets(dataset, target: SyncGate) -> bool:
    """MindSpore 2.10 asks a copy of the pipeline for its batch size the first time a
    ``sync_update`` names ``num_batch`` (then caches it); building that copy restarts every
    gate's initial budget, which the running iterator then gets on top (recorded). The
    other gates restart here; whether ``target`` must restart (with its release) is
    returned. (In MindSpore the rows the restart lets through race the callback; here they
    see its data.)"""
    if getattr(dataset, "_sync_batch_size_asked", False):
        return False
    dataset._sync_batch_size_asked = True
    pending = [dataset]
    while pending:
        node = pending.pop()
        if hasattr(node, "gate") and node.gate is not target:
            node.gate.reset()
        pending.extend(node.children)
    return True
