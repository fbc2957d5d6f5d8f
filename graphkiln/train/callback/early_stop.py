"""``EarlyStopping``: stop training when the monitored value stops improving."""
from __future__ import annotations

import copy

from ..serialization import load_param_into_net
from .callback import Callback, RunContext
from .loss_monitor import check_non_negative_int
from .monitor import Monitor


class EarlyStopping(Callback):
    """Stop when ``monitor`` ('eval_loss', 'loss', an eval metric...) has not improved by
    ``min_delta`` for ``patience`` epochs (or has not beaten ``baseline``); optionally put
    the best epoch's weights back."""

    def __init__(self, monitor: str = "eval_loss", min_delta: float = 0, patience: int = 0,
                 verbose: bool = False, mode: str = "auto", baseline: float | None = None,
                 restore_best_weights: bool = False):
        super().__init__()
        self._monitor = Monitor("EarlyStopping", monitor, mode, min_delta)
        self.monitor = monitor
        self.min_delta = self._monitor.min_delta
        self.patience = check_non_negative_int(patience, "patience", "EarlyStopping")
        self.verbose = verbose
        self.baseline = baseline
        self.restore_best_weights = restore_best_weights
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights_param_dict = None

    @property
    def best(self):
        return self._monitor.best

    def on_train_begin(self, run_context: RunContext) -> None:
        self.wait = 0
        self.stopped_epoch = 0
        self._monitor.best = self._monitor.worst()
        self.best_weights_param_dict = None

    def _snapshot(self, network) -> dict:
        return copy.deepcopy(network.parameters_dict())

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        current = self._monitor.value(cb_params)
        if current is None:
            return
        # the network is read only to keep weights (a hand-run loop may not give one)
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = self._snapshot(cb_params.train_network)
        self.wait += 1
        if self._monitor.improves(current, self._monitor.best):
            self._monitor.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = self._snapshot(cb_params.train_network)
            if self.baseline is None or self._monitor.improves(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                load_param_into_net(cb_params.train_network, self.best_weights_param_dict)

    def on_train_end(self, run_context: RunContext) -> None:
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping")
