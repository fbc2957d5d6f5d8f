"""``TrainingPlot`` (beyond MindSpore): at the end of training, a PNG with the loss per step
and each eval metric per epoch. Needs matplotlib (``pip install graphkiln[plot]``)."""
from __future__ import annotations

import os

import numpy as np

from .callback import Callback, RunContext, loss_value


class TrainingPlot(Callback):
    """Record the loss at every training step and the metrics of every evaluation during
    ``Model.fit``; write ``file_name`` (PNG) when training ends."""

    def __init__(self, file_name: str = "training.png", title: str | None = None):
        super().__init__()
        if not isinstance(file_name, str) or not file_name.endswith(".png"):
            raise ValueError(f"For 'TrainingPlot', the 'file_name' must be a .png path, but got "
                             f"{file_name!r}.")
        self.file_name = file_name
        self.title = title
        self.steps: list[int] = []
        self.losses: list[float] = []
        self.metrics: dict[str, list[tuple[int, float]]] = {}

    def on_train_step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        loss = loss_value(cb_params.get("net_outputs"))
        if loss is not None:
            self.steps.append(cb_params.cur_step_num)
            self.losses.append(loss)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        for name, value in (cb_params.get("metrics") or {}).items():
            if np.ndim(value) == 0:
                self.metrics.setdefault(name, []).append((cb_params.cur_epoch_num, float(value)))

    def on_train_end(self, run_context: RunContext) -> None:
        # matplotlib is optional (the ``plot`` extra): imported only when a plot is written
        import matplotlib
        matplotlib.use("Agg", force=False)
        from matplotlib import pyplot as plt

        panels = 1 + bool(self.metrics)
        fig, axes = plt.subplots(1, panels, figsize=(6 * panels, 4), squeeze=False)
        ax = axes[0][0]
        ax.plot(self.steps, self.losses, color="tab:blue", linewidth=1.2)
        ax.set_xlabel("step")
        ax.set_ylabel("loss")
        ax.set_title("training loss")
        ax.grid(alpha=0.3)
        if self.metrics:
            ax = axes[0][1]
            for name, points in sorted(self.metrics.items()):
                epochs, values = zip(*points)
                ax.plot(epochs, values, marker="o", label=name)
            ax.set_xlabel("epoch")
            ax.set_title("eval metrics")
            ax.legend()
            ax.grid(alpha=0.3)
        if self.title:
            fig.suptitle(self.title)
        fig.tight_layout()
        directory = os.path.dirname(os.path.abspath(self.file_name))
        os.makedirs(directory, exist_ok=True)
        tmp = f"{self.file_name}.tmp.png"
        fig.savefig(tmp, dpi=100)
        plt.close(fig)
        os.replace(tmp, self.file_name)
