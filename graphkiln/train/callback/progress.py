"""``ProgressBar`` (beyond MindSpore): a live tqdm bar with epoch, step, loss, throughput and
ETA. ``Model.train`` adds one when stdout is a terminal (``GRAPHKILN_PROGRESS=0`` turns it
off); with stdout redirected nothing is drawn, so logs stay clean. While the bar is up, lines
printed by other callbacks (LossMonitor...) go above it."""
from __future__ import annotations

import os
import shutil
import sys

from tqdm import tqdm

from .callback import Callback, RunContext, loss_value


def progress_wanted() -> bool:
    """True when stdout is a terminal and ``GRAPHKILN_PROGRESS`` is not "0" (a stdout
    replaced by an object without ``isatty``, as scripts capturing prints do, is not one)."""
    isatty = getattr(sys.stdout, "isatty", None)
    return os.environ.get("GRAPHKILN_PROGRESS", "1") != "0" and callable(isatty) and isatty()


class _AboveBar:
    """A stdout stand-in that sends whole lines through ``tqdm.write`` so they land above
    the bar (a partial line waits for its end)."""

    def __init__(self, stream):
        self._stream = stream
        self._pending = ""

    def write(self, text: str) -> int:
        *lines, self._pending = (self._pending + text).split("\n")
        for line in lines:
            tqdm.write(line, file=self._stream)
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def close(self) -> None:
        """Write out a last unfinished line."""
        if self._pending:
            tqdm.write(self._pending, file=self._stream)
            self._pending = ""

    def isatty(self) -> bool:
        return self._stream.isatty()


class ProgressBar(Callback):
    """One bar per training epoch (steps done / batch_num, loss, steps per second, ETA)."""

    def __init__(self, file=None):
        super().__init__()
        self._file = file
        self._bar = None
        self._stdout = None

    def on_train_begin(self, run_context: RunContext) -> None:
        self._stdout = sys.stdout
        self._file = self._file or self._stdout
        sys.stdout = _AboveBar(self._file)

    def on_train_epoch_begin(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        epochs = cb_params.get("epoch_num", 0) + cb_params.get("initial_epoch", 0)
        self._bar = tqdm(total=cb_params.batch_num, file=self._file, unit="step",
                         desc=f"epoch {cb_params.cur_epoch_num}/{epochs}", leave=True,
                         ncols=shutil.get_terminal_size().columns)  # 80 when a pty has no size

    def on_train_step_end(self, run_context: RunContext) -> None:
        if self._bar is None:
            return
        loss = loss_value(run_context.original_args().get("net_outputs"))
        if loss is not None:
            self._bar.set_postfix(loss=f"{loss:.4f}", refresh=False)
        self._bar.update(1)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def on_train_end(self, run_context: RunContext) -> None:
        self.on_train_epoch_end(run_context)
        if self._stdout is not None:
            if isinstance(sys.stdout, _AboveBar):
                sys.stdout.close()
            sys.stdout = self._stdout
            self._stdout = None

    def __exit__(self, *err):
        self.on_train_end(None)  # put stdout back even when training raised
