"""What EarlyStopping and ReduceLROnPlateau watch: the training loss or an eval result, and
whether a new value improves on the best one."""
from __future__ import annotations

import numpy as np

from .callback import handle_loss, logger

SMALLER_IS_BETTER = ("hausdorff_distance", "mae", "mse", "loss", "perplexity",
                     "mean_surface_distance", "root_mean_square_distance", "eval_loss")


class Monitor:
    """The watched value of ``monitor`` ('loss' or an eval metric name) and its best so far."""

    def __init__(self, owner: str, monitor: str, mode: str, min_delta):
        if not isinstance(monitor, str):
            raise TypeError(f"For '{owner}', the type of 'monitor' should be str, but got "
                            f"{type(monitor).__name__}.")
        if isinstance(min_delta, bool) or not isinstance(min_delta, (int, float)):
            raise TypeError(f"For '{owner}', the type of 'min_delta' should be float or int, but "
                            f"got {type(min_delta).__name__}.")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {mode}.")
        self.owner = owner
        self.monitor = monitor
        self.min_delta = abs(min_delta)
        self.smaller = mode == "min" or (mode == "auto" and monitor in SMALLER_IS_BETTER)
        self.best = self.worst()

    def worst(self) -> float:
        return np.inf if self.smaller else -np.inf

    def improves(self, value, reference) -> bool:
        if self.smaller:
            return bool(np.less(value, reference - self.min_delta))
        return bool(np.greater(value, reference + self.min_delta))

    def value(self, cb_params):
        """The current value, or None (with a warning) when the run does not have it."""
        candidates = {}
        if self.monitor == "loss":
            value = handle_loss(cb_params.get("net_outputs"))
        else:
            candidates = cb_params.get("eval_results", {}) or {}
            value = candidates.get(self.monitor)
        if value is None:
            logger.warning("%s is conditioned on %s, which is not available. Available choices "
                           "are: %s", self.owner, self.monitor, {"loss", *candidates})
            return None
        if isinstance(value, np.ndarray) and value.shape != ():
            raise ValueError(f"{self.owner} only supports scalar monitor now.")
        return np.array(value)
