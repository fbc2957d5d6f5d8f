"""``OnRequestExit``: on a signal (SIGTERM by default), stop training after the current step
and save ``directory/rank_0/<file_name>_train.ckpt`` (the next run resumes from it) and the
train network's graph on the last step's inputs as ``<file_name>_train.mindir`` (``_eval``
for an evaluation)."""
from __future__ import annotations

import os
import signal
import threading

from ..model_export import export
from ..serialization import load_checkpoint, save_checkpoint
from .callback import Callback, RunContext, logger


class OnRequestExit(Callback):
    """Graceful exit on ``sig``, saving the checkpoint (``save_ckpt``) and the MINDIR graph
    (``save_mindir``) of the network that ran."""

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
            cb_params = run_context.original_args()
            self._save(cb_params.train_network, cb_params.train_dataset_element,
                       self.train_name)

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
            cb_params = run_context.original_args()
            self._save(cb_params.eval_network, cb_params.eval_dataset_element, self.eval_name)

    def _save(self, network, inputs, name: str) -> None:
        os.makedirs(os.path.dirname(name), exist_ok=True)
        if self.save_ckpt:
            save_checkpoint(network, name)
        if self.save_mindir and inputs is not None:
            try:
                export(network, *inputs, file_name=name, file_format="MINDIR")
            except (TypeError, ValueError) as e:  # a primitive MINDIR files cannot hold yet
                logger.warning(f"OnRequestExit: the MINDIR file was not saved: {e}")
