"""``History`` (per-epoch network output and eval metrics) and ``LambdaCallback``."""
from __future__ import annotations

import numpy as np

from ...common.tensor import Tensor
from .callback import HOOKS, Callback, RunContext


class History(Callback):
    """``history``: per epoch, the mean network output (``net_output``) and each eval metric;
    ``epoch``: ``{"epoch": [epoch numbers]}``."""

    def __init__(self):
        super().__init__()
        self.history: dict = {}
        self.epoch = None

    def begin(self, run_context: RunContext) -> None:
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        self.epoch["epoch"].append(cb_params.get("cur_epoch_num", 1))
        output = cb_params.net_outputs
        if isinstance(output, (tuple, list)) and output and isinstance(output[0], Tensor):
            output = output[0]
        if isinstance(output, Tensor):
            output = np.mean(output.asnumpy())
        record = {"net_output": output, **(cb_params.get("metrics") or {})}
        for key, value in record.items():
            self.history.setdefault(key, []).append(value)


class LambdaCallback(Callback):
    """A callback from plain functions: ``LambdaCallback(on_train_epoch_end=fn, ...)``, each
    taking the RunContext."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None,
                 on_train_step_begin=None, on_train_step_end=None, on_train_begin=None,
                 on_train_end=None, on_eval_epoch_begin=None, on_eval_epoch_end=None,
                 on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        super().__init__()
        given = dict(locals())
        for hook in HOOKS:
            if hook.startswith("on_"):
                setattr(self, hook, given[hook] or (lambda run_context: None))
