"""``ModelCheckpoint`` with ``CheckpointConfig``: save the training network every N steps or
seconds as ``prefix-epoch_step.ckpt``, keeping the newest ``keep_checkpoint_max`` files."""
from __future__ import annotations

import os
import stat
import time

from ...context import GRAPH_MODE, get_context
from ...nn import Cell
from ..graph_meta import save_graph_meta
from ..serialization import save_checkpoint, wait_async_saves
from .callback import Callback, RunContext
from .loss_monitor import check_non_negative_int

_APPEND_KEYS = ("epoch_num", "step_num")


def _append_dict(append_info) -> dict:
    """``append_info`` (names 'epoch_num'/'step_num' and at most one dict) as one dict."""
    if not append_info:
        return {}
    if not isinstance(append_info, list):
        raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' must be list,but got "
                        f"{type(append_info)}.")
    out = {key: 0 for key in _APPEND_KEYS if key in append_info}
    dicts = 0
    for item in append_info:
        if not isinstance(item, (str, dict)):
            raise TypeError("For 'CheckpointConfig', the type of 'append_info' element must be "
                            f"str or dict,but got {type(item)}.")
        if isinstance(item, str) and item not in _APPEND_KEYS:
            raise ValueError("For 'CheckpointConfig', the value of element in the argument "
                             f"'append_info' must be in {list(_APPEND_KEYS)}, but got {item}.")
        if isinstance(item, dict):
            dicts += 1
            if dicts > 1:
                raise TypeError("For 'CheckpointConfig', the element of 'append_info' must has "
                                "only one dict.")
            for key, value in item.items():
                if not isinstance(key, str):
                    raise TypeError("For 'CheckpointConfig', the key type of the dict "
                                    f"'append_info' must be string, but got {type(key)}.")
                out[key] = value
    return out


class CheckpointConfig:
    """When and how ModelCheckpoint saves: every ``save_checkpoint_steps`` steps (or, if that
    is None/0, every ``save_checkpoint_seconds``), keeping at most ``keep_checkpoint_max``
    files (or one per ``keep_checkpoint_per_n_minutes``)."""

    def __init__(self, save_checkpoint_steps: int = 1, save_checkpoint_seconds: int = 0,
                 keep_checkpoint_max: int = 5, keep_checkpoint_per_n_minutes: int = 0,
                 integrated_save: bool = True, async_save: bool = False,
                 saved_network: Cell | None = None, append_info: list | None = None,
                 enc_key: bytes | None = None, enc_mode: str = "AES-GCM",
                 exception_save: bool = False, crc_check: bool = False,
                 format: str = "ckpt", **kwargs):  # noqa: A002 (MindSpore's name)
        values = {"save_checkpoint_steps": save_checkpoint_steps,
                  "save_checkpoint_seconds": save_checkpoint_seconds,
                  "keep_checkpoint_max": keep_checkpoint_max,
                  "keep_checkpoint_per_n_minutes": keep_checkpoint_per_n_minutes}
        for name, value in values.items():
            if value is not None:
                check_non_negative_int(value, name, "CheckpointConfig")
        if not save_checkpoint_steps and not save_checkpoint_seconds \
                and not keep_checkpoint_max and not keep_checkpoint_per_n_minutes:
            raise ValueError("For 'CheckpointConfig', the input arguments "
                             "'save_checkpoint_steps', 'save_checkpoint_seconds', "
                             "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can't be "
                             "all None or 0.")
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError("For 'CheckpointConfig', the type of 'saved_network' must be None or "
                            f"Cell, but got {type(saved_network)}.")
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"For 'CheckpointConfig', the format must be 'ckpt' or "
                             f"'safetensors', but got {format}.")
        self._save_checkpoint_steps = save_checkpoint_steps
        self._save_checkpoint_seconds = save_checkpoint_seconds
        if save_checkpoint_steps and save_checkpoint_steps > 0:
            self._save_checkpoint_seconds = None
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        if keep_checkpoint_max and keep_checkpoint_max > 0:
            self._keep_checkpoint_per_n_minutes = None
        elif not keep_checkpoint_per_n_minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save = integrated_save
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_dict = _append_dict(append_info)
        self._enc_key = enc_key
        self._enc_mode = enc_mode
        self.exception_save = exception_save
        self._crc_check = crc_check
        self._format = format

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    append_dict = property(lambda self: self._append_dict)
    enc_key = property(lambda self: self._enc_key)
    enc_mode = property(lambda self: self._enc_mode)
    crc_check = property(lambda self: self._crc_check)
    format = property(lambda self: self._format)

    def get_checkpoint_policy(self) -> dict:
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}


def unique_prefix(directory: str, prefix: str) -> str:
    """``prefix``, or ``prefix_N`` when checkpoints named ``prefix-...`` (or ``prefix_K-...``)
    already exist in ``directory`` (N one more than the largest K, or 1)."""
    suffix = 0
    for filename in os.listdir(directory):
        if os.path.splitext(filename)[1] not in (".ckpt", ".safetensors") \
                or filename.endswith("_breakpoint.ckpt") or not filename.startswith(prefix) \
                or filename[len(prefix)].isalpha():
            continue
        rest = filename[len(prefix):]
        dash = rest.find("-")
        if dash == 0:
            suffix = max(suffix, 1)
        elif dash > 0 and rest[1:dash].isdigit():
            suffix = max(suffix, int(rest[1:dash]) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class _CheckpointFiles:
    """The checkpoints ``prefix-<digits and _>.<format>`` in a directory, oldest first."""

    def __init__(self, directory: str, prefix: str, fmt: str):
        self.files = []
        for filename in os.listdir(directory):
            middle = filename[len(prefix):-len(fmt) - 1]
            if filename.endswith(f".{fmt}") and filename.startswith(prefix + "-") \
                    and not any(c.isalpha() for c in middle):
                self.files.append(os.path.join(directory, filename))
        self.files.sort(key=os.path.getmtime)

    def remove(self, path: str) -> None:
        os.chmod(path, stat.S_IWRITE | stat.S_IREAD)
        os.remove(path)
        self.files.remove(path)

    def keep_one_per(self, minutes: float, now: float) -> None:
        """Of the files written in the last ``minutes``, keep only the oldest."""
        recent = [f for f in self.files if now - os.path.getmtime(f) < 60 * minutes]
        for path in recent[1:]:
            self.remove(path)


class ModelCheckpoint(Callback):
    """Save the training network (or ``config.saved_network``) to
    ``directory/prefix-<epoch>_<step in epoch>.ckpt`` as ``config`` says, and once more at the
    end of training. A prefix already used in ``directory`` becomes ``prefix_1``, ``prefix_2``...
    ``prefix`` and ``directory`` may be callables of the run's state."""

    def __init__(self, prefix="CKP", directory=None, config: CheckpointConfig | None = None):
        super().__init__()
        if not callable(prefix) and (not isinstance(prefix, str) or "/" in prefix):
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file "
                             "name is invalid, it must be callable or string that does not "
                             f"contain '/', but got {prefix}.")
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError("For 'ModelCheckpoint', the type of argument 'config' should be "
                            f"'CheckpointConfig', but got {type(config)}.")
        self._config = config
        self._prefix_func = prefix if callable(prefix) else None
        self._directory_func = directory if callable(directory) else None
        self._directory = os.getcwd() if directory is None or callable(directory) \
            else self._make_directory(directory)
        self._prefix = prefix
        if not callable(prefix) and not callable(directory):
            self._prefix = unique_prefix(self._directory, prefix)
        self._append_dict = dict(config.append_dict)
        self._append_base = {k: self._append_dict.get(k, 0) for k in _APPEND_KEYS}
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._latest_ckpt_file_name = ""
        self._graph_saved = False

    @staticmethod
    def _make_directory(directory: str) -> str:
        if not isinstance(directory, str) or not directory.strip():
            raise ValueError(f"For 'ModelCheckpoint', the 'directory' must be a non-empty string "
                             f"or a callable, but got {directory!r}.")
        path = os.path.realpath(directory)
        os.makedirs(path, mode=0o700, exist_ok=True)
        return path

    @property
    def latest_ckpt_file_name(self) -> str:
        return self._latest_ckpt_file_name

    def step_end(self, run_context: RunContext) -> None:
        cb_params = run_context.original_args()
        if self._prefix_func:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or "/" in self._prefix:
                raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint "
                                 "file name is callable, it must return a string that does not "
                                 f"contain '/', but got {self._prefix}.")
        if self._directory_func:
            self._directory = self._make_directory(self._directory_func(cb_params))
        if not self._graph_saved and get_context("mode") == GRAPH_MODE:
            # as MindSpore: the compiled step's graph, once, next to the checkpoints
            save_graph_meta(os.path.join(self._directory, f"{self._prefix}-graph.meta"),
                            cb_params.train_network, cb_params.get("train_dataset_element"),
                            cb_params.get("net_outputs"))
            self._graph_saved = True
        self._save_ckpt(cb_params)

    def end(self, run_context: RunContext) -> None:
        self._save_ckpt(run_context.original_args(), force_to_save=True)

    def _due(self, cb_params, force_to_save: bool) -> bool:
        config = self._config
        if config.save_checkpoint_steps and config.save_checkpoint_steps > 0:
            return force_to_save or \
                cb_params.cur_step_num >= self._last_triggered_step + config.save_checkpoint_steps
        if config.save_checkpoint_seconds and config.save_checkpoint_seconds > 0:
            now = time.time()
            if now - self._last_time > config.save_checkpoint_seconds or force_to_save:
                self._last_time = now
                return True
        return False

    def _save_ckpt(self, cb_params, force_to_save: bool = False) -> None:
        if cb_params.cur_step_num == self._last_triggered_step:
            return
        if not self._due(cb_params, force_to_save):
            return
        wait_async_saves()  # the file list below must include the previous save
        config = self._config
        fmt = config.format
        if self._prefix_func:
            name = f"{self._prefix}.{fmt}"
        else:
            step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
            name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.{fmt}"
        files = _CheckpointFiles(self._directory, self._prefix, fmt)
        if config.keep_checkpoint_max and 0 < config.keep_checkpoint_max <= len(files.files):
            files.remove(files.files[0])
        elif config.keep_checkpoint_per_n_minutes and config.keep_checkpoint_per_n_minutes > 0:
            now = time.time()
            if now - self._last_time_for_keep < config.keep_checkpoint_per_n_minutes * 60:
                files.keep_one_per(config.keep_checkpoint_per_n_minutes, now)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb_params.cur_step_num
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_base["epoch_num"] + \
                cb_params.cur_epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_base["step_num"] + \
                cb_params.cur_step_num
        network = config.saved_network if config.saved_network is not None \
            else cb_params.train_network
        path = os.path.join(self._directory, name)
        save_checkpoint(network, path, config.integrated_save, config.async_save,
                        self._append_dict or None, config.enc_key, config.enc_mode,
                        crc_check=config.crc_check, format=fmt)
        self._latest_ckpt_file_name = path
