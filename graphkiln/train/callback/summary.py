"""``SummaryCollector``: accepted with MindSpore's arguments; writes the loss, learning rate and
eval metrics as JSON lines (``summary_dir/graphkiln_summary.jsonl``). MindSpore's binary
summary events (for MindInsight) are not written."""
from __future__ import annotations

import json
import os
import time

import numpy as np

from .callback import Callback, RunContext, loss_value


class SummaryCollector(Callback):
    """Every ``collect_freq`` steps append ``{"step", "epoch", "loss", "lr"}``; after each eval,
    ``{"step", "epoch", "metrics"}``."""

    def __init__(self, summary_dir: str, collect_freq: int = 10, collect_specified_data=None,
                 keep_default_action: bool = True, custom_lineage_data=None,
                 collect_tensor_freq=None, max_file_size=None, export_options=None):
        super().__init__()
        if not isinstance(summary_dir, str) or not summary_dir:
            raise ValueError(f"For 'SummaryCollector', the 'summary_dir' must be a non-empty "
                             f"string, but got {summary_dir!r}.")
        if isinstance(collect_freq, bool) or not isinstance(collect_freq, int) \
                or collect_freq <= 0:
            raise ValueError(f"For 'SummaryCollector', the 'collect_freq' must be a positive "
                             f"int, but got {collect_freq}.")
        self.summary_dir = os.path.realpath(summary_dir)
        self.collect_freq = collect_freq
        self.path = os.path.join(self.summary_dir, "graphkiln_summary.jsonl")

    def _write(self, record: dict) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")

    def on_train_begin(self, run_context: RunContext) -> None:
        os.makedirs(self.summary_dir, exist_ok=True)
        self._write({"event": "train_begin", "time": time.time()})

    def on_train_step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if cb_params.cur_step_num % self.collect_freq and cb_params.cur_step_num != 1:
            return
        record = {"step": cb_params.cur_step_num, "epoch": cb_params.cur_epoch_num}
        loss = loss_value(cb_params.get("net_outputs"))
        if loss is not None:
            record["loss"] = loss
        lr = getattr(cb_params.get("optimizer"), "learning_rate", None)
        if lr is not None:
            record["lr"] = float(np.asarray(lr))
        self._write(record)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            self._write({"step": cb_params.cur_step_num, "epoch": cb_params.cur_epoch_num,
                         "metrics": {k: np.asarray(v).tolist() for k, v in metrics.items()}})
