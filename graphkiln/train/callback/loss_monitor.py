"""``LossMonitor``: prints ``epoch: E step: S, loss is L`` every ``per_print_times`` steps."""
from __future__ import annotations

import numpy as np

from .callback import Callback, RunContext, handle_loss


def check_non_negative_int(value, name: str, owner: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"For '{owner}', the '{name}' must be a non-negative int, but got "
                         f"{value!r}.")
    return value


class LossMonitor(Callback):
    """Print the loss every ``per_print_times`` steps (0: never) and, in ``Model.fit``, the eval
    metrics after each evaluated epoch. A NaN or infinite loss stops training with ValueError."""

    def __init__(self, per_print_times: int = 1):
        super().__init__()
        self._per_print_times = check_non_negative_int(per_print_times, "per_print_times",
                                                       "LossMonitor")
        self._last_print_time = 0

    def step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        epoch = cb_params.get("cur_epoch_num", 1)
        loss = handle_loss(cb_params.net_outputs)
        step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"In epoch: {epoch} step: {step_in_epoch}, loss is NAN or INF, "
                             f"training process cannot continue, terminating training.")
        if self._per_print_times == 0:
            return
        # a resumed run may restart below the last printed step: step back in print periods
        period = max(self._per_print_times,
                     cb_params.batch_num if cb_params.get("dataset_sink_mode") else 1)
        while cb_params.cur_step_num <= self._last_print_time:
            self._last_print_time -= period
        if cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {cb_params.cur_epoch_num:d}, metrics: {metrics}")
