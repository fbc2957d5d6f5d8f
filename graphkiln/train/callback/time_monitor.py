"""``TimeMonitor``: prints the epoch time and the time per step."""
from __future__ import annotations

import time

from .callback import Callback, RunContext


class TimeMonitor(Callback):
    """After each epoch print ``Train epoch time: T ms, per step time: t ms`` (per step over
    the run's ``batch_num``, else ``data_size``), with the data-loading time if ``data_time``."""

    def __init__(self, data_size: int | None = None, data_time: bool = False):
        super().__init__()
        if not isinstance(data_time, bool):
            raise TypeError(f"For 'TimeMonitor', the type of 'data_time' should be bool, but got "
                            f"{type(data_time).__name__}.")
        self.data_size = data_size
        self.data_time = data_time
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = 0.0

    def on_train_step_begin(self, run_context: RunContext) -> None:
        if self.data_time:
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context: RunContext) -> None:
        if self.data_time:
            self.data_time_start = time.time()

    def epoch_begin(self, run_context: RunContext) -> None:
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self.data_time_start = time.time()

    def epoch_end(self, run_context: RunContext) -> None:
        epoch_ms = (time.time() - self.epoch_time) * 1000
        cb_params = run_context.original_args()
        step_size = self.data_size
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            step_size = batch_num
        if isinstance(step_size, bool) or not isinstance(step_size, int) or step_size <= 0:
            raise ValueError(f"For 'TimeMonitor', the 'data_size' must be a positive int, but "
                             f"got {step_size}.")
        mode = cb_params.get("mode", "")
        line = (f"{mode.title()} epoch time: {epoch_ms:5.3f} ms, per step time: "
                f"{epoch_ms / step_size:5.3f} ms")
        if self.data_time:
            line += f" (data time: {self.data_time_sum * 1000 / step_size:5.3f} ms)"
        print(line, flush=True)
