"""``Callback`` (hooks around training and evaluation), ``RunContext`` (what the hooks see)
and the manager that runs a list of callbacks in order."""
from __future__ import annotations

import logging
from contextlib import ExitStack

import numpy as np

from ...common.tensor import Tensor

logger = logging.getLogger("graphkiln.train")


class CallbackParams(dict):
    """The run's state as a dict whose keys also read and write as attributes
    (``cb_params.cur_step_num``)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key, value):
        self[key] = value


class RunContext:
    """What a callback hook receives: ``original_args()`` (the run's state: ``cur_epoch_num``,
    ``cur_step_num``, ``batch_num``, ``net_outputs``, ``train_network``, ``optimizer``...) and
    ``request_stop()``."""

    def __init__(self, original_args: dict):
        if not isinstance(original_args, dict):
            raise TypeError("The argument 'original_args' of RunContext should be dict type, "
                            f"but got {type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self) -> dict:
        return self._original_args

    def request_stop(self) -> None:
        """Ask training (or evaluation) to stop after the current step."""
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        return self._stop_requested


class Callback:
    """Base of callbacks. Override ``on_train_*`` / ``on_eval_*`` hooks (``begin``, ``epoch_begin``,
    ``epoch_end``, ``step_begin``, ``step_end``, ``end``); the old names ``begin``, ``step_end``...
    are what the new ones call by default. A callback is a context manager around the run."""

    def __enter__(self):
        return self

    def __exit__(self, *err):
        return None

    def begin(self, run_context: RunContext) -> None:
        """Before the run (default of ``on_train_begin`` and ``on_eval_begin``)."""

    def epoch_begin(self, run_context: RunContext) -> None:
        """Before each epoch."""

    def epoch_end(self, run_context: RunContext) -> None:
        """After each epoch."""

    def step_begin(self, run_context: RunContext) -> None:
        """Before each step."""

    def step_end(self, run_context: RunContext) -> None:
        """After each step."""

    def end(self, run_context: RunContext) -> None:
        """After the run."""

    def on_train_begin(self, run_context: RunContext) -> None:
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context: RunContext) -> None:
        self.step_begin(run_context)

    def on_train_step_end(self, run_context: RunContext) -> None:
        self.step_end(run_context)

    def on_train_end(self, run_context: RunContext) -> None:
        self.end(run_context)

    def on_eval_begin(self, run_context: RunContext) -> None:
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context: RunContext) -> None:
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context: RunContext) -> None:
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context: RunContext) -> None:
        self.step_end(run_context)

    def on_eval_end(self, run_context: RunContext) -> None:
        self.end(run_context)


HOOKS = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
         *(f"on_{phase}_{what}" for phase in ("train", "eval")
           for what in ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end")))


def callback_list(callbacks) -> list[Callback]:
    """``callbacks`` (None, a Callback or a list of them) as a list, checked."""
    if callbacks is None:
        return []
    if isinstance(callbacks, Callback):
        return [callbacks]
    if isinstance(callbacks, list):
        for cb in callbacks:
            if not isinstance(cb, Callback):
                raise TypeError("When the 'callbacks' is a list, the elements in 'callbacks' "
                                "must be Callback functions.")
        return list(callbacks)
    raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")


class CallbackManager(Callback):
    """Runs every hook of each callback in order; entering it enters each callback."""

    def __init__(self, callbacks):
        self._callbacks = callback_list(callbacks)
        self._stack: ExitStack | None = None

    def __enter__(self):
        self._stack = ExitStack().__enter__()
        entered = []
        for cb in self._callbacks:
            target = self._stack.enter_context(cb)
            entered.append(target if isinstance(target, Callback) else cb)
        self._callbacks = entered
        return self

    def __exit__(self, *err):
        return self._stack.__exit__(*err) if self._stack is not None else None

    def __getattribute__(self, name):
        if name in HOOKS:
            callbacks = object.__getattribute__(self, "_callbacks")

            def run_all(run_context: RunContext) -> None:
                for cb in callbacks:
                    getattr(cb, name)(run_context)
            return run_all
        return object.__getattribute__(self, name)


def handle_loss(outputs):
    """The loss as MindSpore's LossMonitor shows it: the first Tensor of a tuple output as it
    is; the mean of a Tensor output as a Python float; anything else unchanged."""
    if isinstance(outputs, (tuple, list)):
        return outputs[0] if outputs and isinstance(outputs[0], Tensor) else outputs
    if isinstance(outputs, Tensor):
        return float(np.mean(outputs.asnumpy()))
    return outputs


_handle_loss = handle_loss  # MindSpore's name (train.callback._callback), which tests import


def loss_value(outputs) -> float | None:
    """The loss of a step output (a Tensor, or the first Tensor of a tuple) as a float mean,
    or None when the output holds no Tensor."""
    if isinstance(outputs, (tuple, list)) and outputs:
        outputs = outputs[0]
    return float(np.mean(outputs.asnumpy())) if isinstance(outputs, Tensor) else None
