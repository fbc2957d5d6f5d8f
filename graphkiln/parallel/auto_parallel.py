"""``mindspore.parallel.auto_parallel.AutoParallel``: a network wrapped with its parallel
settings (MindSpore 2.5+'s replacement for the global auto-parallel context).

As for ``set_auto_parallel_context`` (parallel/context.py), graphkiln runs the wrapped
network as data parallel: on more than one rank, every ``TrainOneStepCell`` inside it gets a
gradient all-reduce (a mean after ``enable_gradients_mean()``), and sharding settings
(operator strategies, ``hsdp``) are kept and read back but do not split the model. Pipeline
stages cannot be run that way, so more than one stage on more than one rank is an error.
"""
from __future__ import annotations

import warnings

from ..common import comm_engine
from ..nn import Cell, TrainOneStepCell
from ..nn.wrap import DistributedGradReducer
from .shard import Layout

_MODES = ("semi_auto", "sharding_propagation", "recursive_programming")
_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


def _require(cls: str, name: str, value, kind, what: str) -> None:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"For '{cls}', the argument '{name}' must be {what} type, but got "
                        f"the type : {type(value)}.")


class AutoParallel(Cell):
    """Run ``network`` with the parallel settings set on this wrapper."""

    def __init__(self, network: Cell, parallel_mode: str = "semi_auto"):
        super().__init__(auto_prefix=False)
        if parallel_mode not in _MODES:
            raise ValueError(f"the argument 'parallel_mode' must be one of {list(_MODES)}, "
                             f"but got the value : {parallel_mode} .")
        self.network = network
        self.settings = {"parallel_mode": parallel_mode, "dataset_strategy": "data_parallel",
                         "gradients_mean": False, "pipeline_stages": 1,
                         "pipeline_scheduler": "1f1b", "enable_parallel_optimizer": False,
                         "init_param_in_compile": True, "comm_fusion": {},
                         "load_strategy_file": "", "save_strategy_file": "",
                         "load_operator_strategy_file": "", "save_operator_strategy_file": "",
                         "gradient_fp32_sync": True, "loss_repeated_mean": True,
                         "force_fp32_communication": False, "group_ckpt_save_file": "",
                         "dump_local_norm": False, "dump_local_norm_path": "",
                         "dump_device_local_norm": False, "only_trainable_params": True}
        self._prepared = False

    # ------------------------------------------------------------------ settings
    def _set_path(self, key: str, method: str, file_path) -> None:
        _require(f"AutoParallel.{method}", "file_path", file_path, str, "str")
        self.settings[key] = file_path

    def no_init_parameters_in_compile(self) -> None:
        self.settings["init_param_in_compile"] = False

    def load_param_strategy_file(self, file_path: str) -> None:
        self._set_path("load_strategy_file", "load_param_strategy_file", file_path)

    def save_param_strategy_file(self, file_path: str) -> None:
        self._set_path("save_strategy_file", "save_param_strategy_file", file_path)

    def disable_strategy_file_only_for_trainable_params(self) -> None:
        self.settings["only_trainable_params"] = False

    def save_operator_strategy_file(self, file_path: str) -> None:
        self._set_path("save_operator_strategy_file", "save_operator_strategy_file", file_path)

    def load_operator_strategy_file(self, file_path: str) -> None:
        self._set_path("load_operator_strategy_file", "load_operator_strategy_file", file_path)

    def set_group_ckpt_save_file(self, file_path: str) -> None:
        self._set_path("group_ckpt_save_file", "set_group_ckpt_save_file", file_path)

    def dump_local_norm(self, file_path: str) -> None:
        self._set_path("dump_local_norm_path", "dump_local_norm", file_path)
        self.settings["dump_local_norm"] = True

    def dataset_strategy(self, config) -> None:
        """``'data_parallel'`` (each rank reads its shard), ``'full_batch'``, or a tuple of
        per-input strategies (tuples of ints, or Layouts)."""
        if config is None:
            raise ValueError("dataset_strategy is none in config!")
        if isinstance(config, str):
            if config not in ("full_batch", "data_parallel"):
                raise ValueError(f"For 'AutoParallel.dataset_strategy', the argument 'config' "
                                 f"must be 'full_batch' or 'data_parallel', but got the value "
                                 f": {config}.")
        elif isinstance(config, tuple):
            for strategy in config:
                if isinstance(strategy, Layout):
                    continue
                _require("AutoParallel.dataset_strategy", "config", strategy, tuple,
                         "tuple or Layout")
                for dim in strategy:
                    _require("AutoParallel.dataset_strategy", "config", dim, int, "int")
        else:
            raise TypeError(f"For 'AutoParallel.dataset_strategy', the argument 'config' must "
                            f"be str or tuple type, but got the type : {type(config)}.")
        self.settings["dataset_strategy"] = config

    def hsdp(self, shard_size: int = -1, threshold: int = 64,
             optimizer_level: str = "level1") -> None:
        """Optimizer-state sharding settings (kept; the optimizer runs replicated)."""
        if isinstance(shard_size, bool) or not isinstance(shard_size, int) or (
                shard_size <= 0 and shard_size != -1):
            raise ValueError(f"shard_size must be a positive integer or -1, but got "
                             f"{shard_size}.")
        if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
            raise ValueError(f"threshold must be a non-negative integer, but got {threshold}.")
        if optimizer_level not in ("level1", "level2", "level3"):
            raise ValueError(f"Optimizer level should in ['level1', 'level2', 'level3'], but "
                             f"got {optimizer_level}")
        self.settings.update(enable_parallel_optimizer=True, optimizer_weight_shard_size=shard_size,
                             parallel_optimizer_threshold=threshold,
                             optimizer_level=optimizer_level)

    def pipeline(self, stages: int = 1, output_broadcast: bool = False,
                 interleave: bool = False, scheduler: str = "1f1b") -> None:
        _require("AutoParallel.pipeline", "stages", stages, int, "int")
        if stages <= 0:
            raise ValueError(f"For 'AutoParallel.pipeline', the argument 'stages' must be "
                             f"larger than zero, but got value: {stages}.")
        _require("AutoParallel.pipeline", "output_broadcast", output_broadcast, bool, "bool")
        _require("AutoParallel.pipeline", "interleave", interleave, bool, "bool")
        _require("AutoParallel.pipeline", "scheduler", scheduler, str, "str")
        if scheduler not in _SCHEDULERS:
            raise ValueError(f"For 'AutoParallel.pipeline', the argument 'scheduler' must be "
                             f"one of {'/'.join(_SCHEDULERS)}, but got the value : {scheduler}.")
        self.settings.update(pipeline_stages=stages, pipeline_result_broadcast=output_broadcast,
                             pipeline_interleave=interleave, pipeline_scheduler=scheduler)

    def get_pipeline_stages(self) -> int:
        return self.settings["pipeline_stages"]

    def comm_fusion(self, config) -> None:
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"For 'AutoParallel.comm_fusion', the argument 'config' must be "
                            f"dict type, but got the type : {type(config)}.")
        self.settings["comm_fusion"] = config

    def enable_fp32_communication(self) -> None:
        self.settings["force_fp32_communication"] = True

    def print_local_norm(self) -> None:
        self.settings["dump_local_norm"] = True

    def enable_device_local_norm(self) -> None:
        self.settings["dump_device_local_norm"] = True

    def enable_gradients_mean(self) -> None:
        self.settings["gradients_mean"] = True

    def disable_gradient_fp32_sync(self) -> None:
        self.settings["gradient_fp32_sync"] = False

    def disable_loss_repeated_mean(self) -> None:
        self.settings["loss_repeated_mean"] = False

    def transformer_opt(self, file_path) -> None:
        self.settings["transformer_opt"] = file_path

    # ------------------------------------------------------------------ running
    def _prepare(self) -> None:
        """On more than one rank, give each training step inside a gradient all-reduce."""
        self._prepared = True
        size = comm_engine.world().size if comm_engine.initialized() else 1
        if size == 1:
            return
        if self.settings["pipeline_stages"] > 1:
            raise RuntimeError("graphkiln runs AutoParallel networks as data parallel and "
                               "cannot split them into pipeline stages; remove the "
                               "pipeline(stages=...) setting.")
        warnings.warn("graphkiln trains AutoParallel networks as data parallel: sharding "
                      "strategies are kept but the model is replicated on every rank.",
                      stacklevel=3)
        for _, cell in self.network.cells_and_names():
            if isinstance(cell, TrainOneStepCell) and not cell.reducer_flag:
                cell.reducer_flag = True
                cell.grad_reducer = DistributedGradReducer(
                    cell.weights, self.settings["gradients_mean"], size)

    def __call__(self, *args, **kwargs):
        if not self._prepared:
            self._prepare()
        return super().__call__(*args, **kwargs)

    def construct(self, *args, **kwargs):
        return self.network(*args, **kwargs)
