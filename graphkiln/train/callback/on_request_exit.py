"""``OnRequestExit``: on a signal (SIGTERM by default), stop training after the current step
and save ``directory/rank_0/<file_name>_train.ckpt``; the next run resumes from it."""
from __future__ import annotations

import os
import signal
import threading

from ..serialization import load_checkpoint, save_checkpoint
from .callback import Callback, RunContext, logger


class OnRequestExit(Callback):
    """Graceful exit on ``sig``. ``save_mindir`` is accepted, but graphkiln does not export
    MindIR (a warning says so when an exit saves)."""

    def __init__(self, save_ckpt: bool = True, save_mindir: bool = True, file_name: str = "Net",
                 directory: str = "./", config_file=None, sig: int = signal.SIGTERM):
        super().__init__()
        for name, value in (("save_ckpt", save_ckpt), ("save_mindir", save_mindir)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'OnRequestExit', the type of '{name}' should be bool, but "
                                f"got {type(value).__name__}.")
        if isinstance(sig, bool) or not isinstance(sig, int):
            raise TypeError(f"For 'OnRequestExit', the type of 'sig' should be int, but got "
                            f"{type(sig).__name__}.")
        if hasattr(signal, "SIGKILL") and sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.save_ckpt = save_ckpt
        self.save_mindir = save_mindir
        self.sig = sig
        self.exit = False
        self._lock = threading.Lock()
        base = os.path.join(directory if directory is not None else os.getcwd(), "rank_0")
        self.train_name = os.path.join(base, f"{file_name}_train")
        self.eval_name = os.path.join(base, f"{file_name}_eval")
        self._previous_handler = None

    def _handle_signal(self, signum, frame) -> None:
        with self._lock:
            self.exit = True

    def _install(self) -> None:
        if threading.current_thread() is threading.main_thread():
            self._previous_handler = signal.signal(self.sig, self._handle_signal)

    def _restore(self) -> None:
        if self._previous_handler is not None:
            signal.signal(self.sig, self._previous_handler)
            self._previous_handler = None

    def on_train_begin(self, run_context: RunContext) -> None:
        self._install()
        if self.save_ckpt and os.path.isfile(f"{self.train_name}.ckpt"):
            load_checkpoint(f"{self.train_name}.ckpt",
                            net=run_context.original_args().train_network)

    def on_train_step_end(self, run_context: RunContext) -> None:
        if self.exit:
            run_context.request_stop()

    def on_train_end(self, run_context: RunContext) -> None:
        self._restore()
        if self.exit:
            self._save(run_context.original_args().train_network, self.train_name)

    def on_eval_begin(self, run_context: RunContext) -> None:
        self._install()
        if not self.save_ckpt:
            return
        network = run_context.original_args().eval_network
        for name in (self.eval_name, self.train_name):
            if os.path.isfile(f"{name}.ckpt"):
                load_checkpoint(f"{name}.ckpt", net=network)
                return

    def on_eval_step_end(self, run_context: RunContext) -> None:
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context: RunContext) -> None:
        self._restore()
        if self.exit:
            self._save(run_context.original_args().eval_network, self.eval_name)

    def _save(self, network, name: str) -> None:
        if self.save_ckpt:
            os.makedirs(os.path.dirname(name), exist_ok=True)
            save_checkpoint(network, name)
        if self.save_mindir:
            logger.warning("OnRequestExit: graphkiln does not export MindIR; only the checkpoint "
                           "was saved.")
