"""``FlopsUtilizationCollector``: after the first step, print the flops of the compiled train
(or eval) network (``compile/flops.py``), then each step its time and the model and
hardware flops utilization (MFU, HFU) against ``computility``, the peak flops a second of
one device. graphkiln runs one device: the full flops are the shard flops."""
from __future__ import annotations

import os
import stat
import time
from math import floor

from ...compile.flops import flops_collection
from .callback import Callback, RunContext


def _check_bool(name: str, value) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"The '{name}' must be a bool, but got {type(value).__name__}.")


def _check_positive_int(name: str, value) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return
    if isinstance(value, (int, bool)):
        error = TypeError if isinstance(value, bool) else ValueError
        raise error(f"The '{name}' must be int and must > 0, but got '{value}' with type "
                    f"'{type(value).__name__}'.")
    raise TypeError(f"The '{name}' must be int, but got '{type(value).__name__}'")


def _floored_percentage(label: str, value: float, digits: int) -> str:
    scaled = floor(value * 10 ** (digits + 2)) / 10 ** digits
    return f"{label}{scaled:.{digits}f}%"


class FlopsUtilizationCollector(Callback):
    """Print the network's flops once, then each step's time, MFU and HFU (graph mode with
    static shapes only; ``data_size`` steps between the summaries of an epoch)."""

    def __init__(self, data_size: int, computility: float = 1, full_flops: bool = True,
                 enable_ma_collector: bool = False):
        super().__init__()
        _check_bool("full_flops", full_flops)
        _check_bool("enable_ma_collector", enable_ma_collector)
        _check_positive_int("data_size", data_size)
        self.data_size = data_size
        self.computility = computility
        self.full_flops = full_flops
        self.ma = enable_ma_collector
        self.verbose = not (computility == 1 and enable_ma_collector)
        self.step_time = time.time()
        self.mfu_calculated = False
        self.full_model_flops = self.full_hardware_flops = 0.0
        self.shard_model_flops = self.shard_hardware_flops = 0.0
        self.full_mfu = self.full_hfu = self.shard_mfu = self.shard_hfu = 0.0
        self.batch_step_size = None
        self.time_step_path = ""

    def step_begin(self, run_context: RunContext) -> None:
        if self.batch_step_size is None:
            batch_num = getattr(run_context.original_args(), "batch_num", None)
            valid = isinstance(batch_num, int) and batch_num > 0
            self.batch_step_size = batch_num if valid else self.data_size
        self.step_time = time.time()

    def _refuse(self, message: str) -> bool:
        if self.verbose:
            raise ValueError(message)
        return False

    def _collect(self, run_context: RunContext) -> bool:
        """Read the flops of the network the run compiled; False if there are none."""
        cb_params = run_context.original_args()
        if cb_params.mode not in ("train", "eval"):
            return self._refuse("FlopsUtilizationCollector only support train and eval mode!")
        network = cb_params.train_network if cb_params.mode == "train" \
            else cb_params.eval_network
        try:
            flops = flops_collection(network)
        except ValueError:  # never compiled: PYNATIVE_MODE
            return self._refuse("FlopsUtilizationCollector now only support graph mode.")
        if flops.is_dynamic_shape:
            return self._refuse("FlopsUtilizationCollector now do not support dynamic shape.")
        self.full_model_flops, self.full_hardware_flops = flops[0], flops[1]
        self.shard_model_flops, self.shard_hardware_flops = flops[2], flops[3]
        return True

    def step_end(self, run_context: RunContext) -> None:
        step_ms = (time.time() - self.step_time) * 1000
        if not self.mfu_calculated:
            if not self._collect(run_context):
                return
            self._first_report()
        cb_params = run_context.original_args()
        if cb_params.dataset_sink_mode:
            step_ms /= self.batch_step_size
        if self.ma:
            with _private_file(self.time_step_path) as f:
                f.write(f'time_monitor{{type="per_step_time", rank_id="0"}} {step_ms} '
                        f'{int(round(time.time() * 1000))}\n')
        if self.verbose and cb_params.cur_step_num % self.data_size:
            mfu, hfu = (self.full_mfu, self.full_hfu) if self.full_flops \
                else (self.shard_mfu, self.shard_hfu)
            print(f"{cb_params.mode.title()} per step time: {step_ms:5.3f} ms"
                  + _floored_percentage(" mfu:", 1000 * mfu / step_ms, 2)
                  + _floored_percentage(" hfu:", 1000 * hfu / step_ms, 2), flush=True)

    def _first_report(self) -> None:
        self.full_mfu = self.full_model_flops / self.computility
        self.full_hfu = self.full_hardware_flops / self.computility
        self.shard_mfu = self.shard_model_flops / self.computility
        self.shard_hfu = self.shard_hardware_flops / self.computility
        self.mfu_calculated = True
        if self.ma:
            directory = os.path.realpath(os.getenv("MA_LOG_DIR", "./"))
            self.time_step_path = os.path.join(directory, "time_step_rank_0.txt")
            stamp = int(round(time.time() * 1000))
            with _private_file(os.path.join(directory, "flops_rank_0.txt")) as f:
                f.write(f'flops{{type="model_flops", rank_id="0"}} '
                        f'{self.shard_model_flops} {stamp}\n')
                f.write(f'flops{{type="hardware_flops", rank_id="0"}} '
                        f'{self.shard_hardware_flops} {stamp}\n')
        if not self.verbose:
            return
        shard = (f"Shard model flops is {self.shard_model_flops}, "
                 f"Shard hardware flops is {self.shard_hardware_flops}.")
        if self.full_flops:
            full_model = self.full_mfu * self.computility
            full_hardware = self.full_hfu * self.computility
            shard = (f"Full model flops is {full_model}, Full hardware flops is "
                     f"{full_hardware}, " + shard)
        print(shard, flush=True)


def _private_file(path: str):
    """``path`` opened for writing, readable and writable by its owner only."""
    flags = os.O_WRONLY | os.O_CREAT
    return os.fdopen(os.open(path, flags, stat.S_IWUSR | stat.S_IRUSR), "w")
