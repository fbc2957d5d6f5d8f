"""``BackupAndRestore``: save the train network to ``backup_dir/backup.ckpt`` every
``save_freq`` epochs, load it back when a later training starts (so an interrupted run
resumes from its last backup), and delete it when training ends (``delete_checkpoint``)."""
from __future__ import annotations

import os

from ..serialization import load_checkpoint, save_checkpoint
from .callback import Callback, RunContext, logger


class BackupAndRestore(Callback):
    """Back up and restore the train network's weights across runs."""

    def __init__(self, backup_dir: str, save_freq="epoch", delete_checkpoint: bool = True):
        super().__init__()
        if not isinstance(backup_dir, str) or not backup_dir.strip():
            raise ValueError(f"The 'backup_dir' must be a non-empty string, but got "
                             f"{backup_dir!r}.")
        path = os.path.realpath(backup_dir)
        os.makedirs(path, mode=0o700, exist_ok=True)
        self.backup_file = os.path.join(path, "backup.ckpt")
        if save_freq == "epoch":
            self.save_freq = 1
        elif isinstance(save_freq, bool) or not isinstance(save_freq, int):
            raise TypeError(f"The 'save_freq' must be 'epoch' or int, but got "
                            f"{type(save_freq).__name__}.")
        elif save_freq <= 0:
            raise ValueError(f"The 'save_freq' must be a positive int, but got {save_freq}.")
        else:
            self.save_freq = save_freq
        if not isinstance(delete_checkpoint, bool):
            raise TypeError(f"The 'delete_checkpoint' must be bool, but got "
                            f"{type(delete_checkpoint).__name__}.")
        self.delete_checkpoint = delete_checkpoint

    def on_train_begin(self, run_context: RunContext) -> None:
        if os.path.exists(self.backup_file):
            logger.info("Restore checkpoint file is %s, load checkpoint into train net.",
                        self.backup_file)
            load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            save_checkpoint(cb_params.train_network, self.backup_file)

    def on_train_end(self, run_context: RunContext) -> None:
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            os.remove(self.backup_file)
