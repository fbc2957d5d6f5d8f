"""``Model``: train, evaluate and predict a network with callbacks and metrics.

The network runs in the current mode (GRAPH_MODE compiles the training step once). Dataset
sink mode is accepted and runs as MindSpore runs it on CPU: step by step, with the step and
epoch numbers MindSpore's callbacks see (``batch_num`` is ``sink_size`` when one is given).
"""
from __future__ import annotations

import copy

import numpy as np

import graphkiln.amp as amp
import graphkiln.nn as nn

from ..common.tensor import Tensor
from ..context import GRAPH_MODE, get_context
from ..nn.metrics import Loss, get_metrics
from ..parallel.context import (  # noqa: F401  (mindspore.train.model exports ParallelMode)
    ParallelMode,
    get_auto_parallel_context,
)
from .callback import CallbackManager, ProgressBar, RunContext
from .callback import __all__ as _BUILTIN_CALLBACKS
from .callback.callback import CallbackParams, callback_list, logger
from .callback.progress import progress_wanted
from .loss_scale_manager import LossScaleManager

_AMP_LEVELS = ("O0", "O1", "O2", "O3", "auto")
_OLD_HOOKS = {"begin", "end", "epoch_begin", "epoch_end", "step_begin", "step_end"}


def _check_positive_int(value, name: str, owner: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"For '{owner}', the '{name}' must be a positive int, but got "
                         f"{value!r}.")
    return value


def _to_inputs(element) -> tuple:
    """A dataset row (Tensor, tuple/list or dict of Tensors or arrays) as network inputs."""
    if isinstance(element, dict):
        element = tuple(element.values())
    elif isinstance(element, Tensor):
        element = (element,)
    return tuple(Tensor(x) if isinstance(x, np.ndarray) else x for x in element)


class _Epochs:
    """One epoch of a dataset per iteration: the dataset's own tuple iterator (one pipeline
    across epochs, as MindSpore runs it) or, for a plain iterable, ``iter(dataset)``."""

    def __init__(self, dataset, num_epochs: int):
        self._dataset = dataset
        self._iterator = None
        if hasattr(dataset, "create_tuple_iterator"):
            self._iterator = dataset.create_tuple_iterator(num_epochs=num_epochs, do_copy=True)

    def epoch(self):
        source = self._iterator if self._iterator is not None else iter(self._dataset)
        for element in source:
            yield _to_inputs(element)

    def close(self) -> None:
        stop = getattr(self._iterator, "stop", None)
        if stop is not None:
            stop()


def _dataset_size(dataset) -> int:
    size_of = getattr(dataset, "get_dataset_size", None)
    if size_of is None:
        raise TypeError("The dataset must have 'get_dataset_size()' (a graphkiln/MindSpore "
                        f"dataset), but got {type(dataset).__name__}.")
    return size_of()


def _warn_old_hooks(callbacks: list, mode: str) -> None:
    """MindSpore's check of custom callbacks that override the old hook names."""
    for cb in callbacks:
        name = type(cb).__name__
        if name in _BUILTIN_CALLBACKS:
            continue
        old = set(type(cb).__dict__) & _OLD_HOOKS
        if not old:
            continue
        message = (f"For {name} callback, {old} methods may not be supported in later version, "
                   f"Use methods prefixed with 'on_train' or 'on_eval' instead when using "
                   f"customized callbacks.")
        if mode == "fit":
            raise ValueError(message)
        logger.warning(message)


class Model:
    """High-level training and inference: ``Model(network, loss_fn, optimizer, metrics)``.

    With an optimizer the training step is ``TrainOneStepCell(WithLossCell(network, loss_fn),
    optimizer)`` (or ``TrainOneStepCell(network, optimizer)`` when ``network`` computes its own
    loss); with ``metrics`` evaluation uses ``eval_network`` or ``WithEvalCell(network,
    loss_fn)``. ``amp_level`` casts the network as ``amp.build_train_network`` does (with
    ``keep_batchnorm_fp32`` from ``kwargs``); ``boost_level`` is accepted and has no effect."""

    def __init__(self, network: nn.Cell, loss_fn: nn.Cell | None = None, optimizer=None,
                 metrics=None, eval_network: nn.Cell | None = None,
                 eval_indexes: list | None = None, amp_level: str = "O0",
                 boost_level: str = "O0", **kwargs):
        for key in kwargs:
            if key not in ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict",
                           "acc_level"):
                raise ValueError("The argument in 'kwargs' should be 'loss_scale_manager' or "
                                 "'keep_batchnorm_fp32' or 'boost_config_dict' or 'acc_level', "
                                 f"but got '{key}'.")
        if not isinstance(network, nn.Cell):
            raise TypeError(f"For 'Model', the type of 'network' should be Cell, but got "
                            f"{type(network).__name__}.")
        if amp_level not in _AMP_LEVELS:
            raise ValueError(f"For 'Model', the 'amp_level' must be one of {list(_AMP_LEVELS)}, "
                             f"but got {amp_level!r}.")
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None."
                             "Please set amp_level='O0' to disable auto mixed precision or set "
                             "'optimizer' not be None to use auto mixed precision.")
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._amp_options = ({"keep_batchnorm_fp32": kwargs["keep_batchnorm_fp32"]}
                             if "keep_batchnorm_fp32" in kwargs else {})
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        if self._loss_scale_manager is not None:
            if optimizer is None:
                raise ValueError("The argument 'optimizer' can not be None when set "
                                 "'loss_scale_manager'.")
            if not isinstance(self._loss_scale_manager, LossScaleManager):
                raise TypeError("For 'Model', the 'loss_scale_manager' must be a "
                                "LossScaleManager, but got "
                                f"{type(self._loss_scale_manager).__name__}.")
        self._train_network = self._build_train_network()
        self._metric_fns = get_metrics(metrics)
        self._eval_network, self._eval_indexes = self._build_eval_network(
            metrics, eval_network, eval_indexes)
        self._predict_network = network
        self.batch_num = -1
        self.epoch_iter = 0

    # ------------------------------------------------------------------ networks
    def _build_train_network(self) -> nn.Cell:
        network = self._network
        if self._optimizer is not None:
            if self._amp_level != "O0":
                network = amp.mixed_precision_network(network, self._loss_fn, self._amp_level,
                                                      **self._amp_options)
            elif self._loss_fn is not None:
                network = nn.WithLossCell(network, self._loss_fn)
            manager = self._loss_scale_manager
            if manager is None:
                return nn.TrainOneStepCell(network, self._optimizer)
            if manager.get_drop_overflow_update():
                return nn.TrainOneStepWithLossScaleCell(network, self._optimizer,
                                                        manager.get_update_cell())
            return nn.TrainOneStepCell(network, self._optimizer,
                                       sens=manager.get_loss_scale())
        if self._loss_fn is not None:
            return nn.WithLossCell(network, self._loss_fn)
        return network

    def _overflow_update(self, outputs) -> None:
        """MindSpore's Python-side manager update after a loss-scale step."""
        manager = self._loss_scale_manager
        if manager is not None and manager.get_drop_overflow_update():
            manager.update_loss_scale(bool(np.all(outputs[1].asnumpy())))

    def _build_eval_network(self, metrics, eval_network, eval_indexes):
        if not self._metric_fns:
            return eval_network, eval_indexes
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list)
                                                 and len(eval_indexes) == 3):
                raise ValueError("The argument 'eval_indexes' must be a list or None. If "
                                 "'eval_indexes' is a list, length of it must be three. But got "
                                 f"'eval_indexes' {eval_indexes}")
            return eval_network, eval_indexes
        if self._loss_fn is None:
            raise ValueError("If `metrics` is set, `eval_network` must not be None. Do not set "
                             "`metrics` if you don't want an evaluation.\nIf evaluation is "
                             "required, you need to specify `eval_network`, which will be used "
                             "in the framework to evaluate the model.\nFor the simple scenarios "
                             "with one data, one label and one logits, `eval_network` is "
                             "optional, and then you can set `eval_network` or `loss_fn`. For "
                             "the latter case, framework will automatically build an evaluation "
                             "network with `network` and `loss_fn`.")
        return nn.WithEvalCell(self._network, self._loss_fn,
                               self._amp_level in ("O2", "O3", "auto")), [0, 1, 2]

    @property
    def train_network(self) -> nn.Cell:
        return self._train_network

    @property
    def predict_network(self) -> nn.Cell:
        return self._predict_network

    @property
    def eval_network(self) -> nn.Cell:
        return self._eval_network

    # ------------------------------------------------------------------ metrics
    def _clear_metrics(self) -> None:
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs) -> None:
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got "
                             f"{type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    # ------------------------------------------------------------------ training
    def _check_train_args(self, owner: str, epoch, train_dataset, sink_size, initial_epoch):
        if isinstance(sink_size, bool) or not isinstance(sink_size, int):
            raise TypeError(f"For '{owner}', the type of 'sink_size' should be int, but got "
                            f"{type(sink_size).__name__}.")
        _check_positive_int(epoch, "epoch", owner)
        if isinstance(initial_epoch, bool) or not isinstance(initial_epoch, int) \
                or initial_epoch < 0:
            raise ValueError(f"For '{owner}', the 'initial_epoch' must be a non-negative int, "
                             f"but got {initial_epoch!r}.")
        if initial_epoch >= epoch:
            raise ValueError(f"For '{owner}', the parameter 'epoch' must bigger than parameter "
                             f"'initial_epoch', but got the parameter 'epoch' is {epoch}, "
                             f"'initial_epoch' is {initial_epoch}.")
        if _dataset_size(train_dataset) == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file "
                             "firstly.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"For '{owner}', The argument 'sink_size' must be -1 or positive, "
                             f"but got {sink_size}.")

    def train(self, epoch: int, train_dataset, callbacks=None, dataset_sink_mode: bool = False,
              sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train ``epoch`` epochs (from ``initial_epoch``) over ``train_dataset``, calling
        ``callbacks`` around every step and epoch."""
        self._check_train_args("Model.train", epoch, train_dataset, sink_size, initial_epoch)
        callbacks = callback_list(callbacks)
        _warn_old_hooks(callbacks, "train")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                    initial_epoch, None)

    def fit(self, epoch: int, train_dataset, valid_dataset=None, valid_frequency=1,
            callbacks=None, dataset_sink_mode: bool = False,
            valid_dataset_sink_mode: bool = False, sink_size: int = -1,
            initial_epoch: int = 0) -> None:
        """Train, evaluating on ``valid_dataset`` after every ``valid_frequency`` epochs (an int,
        or a list of epoch numbers); callbacks see ``metrics`` and ``eval_results``."""
        self._check_train_args("Model.fit", epoch, train_dataset, sink_size, initial_epoch)
        if isinstance(valid_frequency, bool) or not isinstance(valid_frequency, (int, list)):
            raise TypeError("For 'Model.fit', the type of 'valid_frequency' must be a list or an "
                            f"integer, but got type {type(valid_frequency)}.")
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument "
                             "'metrics' can not beNone or empty, you should set the argument "
                             "'metrics' for model.")
        callbacks = callback_list(callbacks)
        _warn_old_hooks(callbacks, "fit")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                    initial_epoch, (valid_dataset, valid_frequency))

    def _train(self, epoch, train_dataset, callbacks, sink_mode, sink_size, initial_epoch,
               valid) -> None:
        cb_params = CallbackParams()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        cb_params.initial_epoch = initial_epoch
        cb_params.batch_num = sink_size if sink_mode and sink_size > 0 \
            else _dataset_size(train_dataset)
        self.batch_num = cb_params.batch_num
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = get_auto_parallel_context("parallel_mode")
        cb_params.device_number = get_auto_parallel_context("device_num")
        cb_params.train_dataset = train_dataset
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        cb_params.loss_scale_mananger = self._loss_scale_manager
        cb_params.dataset_sink_mode = False
        if progress_wanted() and not any(isinstance(cb, ProgressBar) for cb in callbacks):
            callbacks = [ProgressBar(), *callbacks]
        cb_params.list_callback = callbacks
        epochs = _Epochs(train_dataset, epoch)  # as MindSpore: all epochs, for set_init_step
        self._train_network.set_train(True)
        try:
            with CallbackManager(callbacks) as manager:
                self._train_loop(epoch, epochs, manager, cb_params, initial_epoch, valid)
        finally:
            epochs.close()

    def _train_loop(self, epoch, epochs: _Epochs, manager, cb_params, initial_epoch,
                    valid) -> None:
        run_context = RunContext(cb_params)
        manager.on_train_begin(run_context)
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self.epoch_iter = i - initial_epoch
            manager.on_train_epoch_begin(run_context)
            for inputs in epochs.epoch():
                if self._loss_fn is not None and len(inputs) != 2:
                    raise ValueError("When 'loss_fn' is not None, 'train_dataset' should return "
                                     f"two elements, but got {len(inputs)}, please check the "
                                     "number of elements returned by 'train_dataset'")
                cb_params.cur_step_num += 1
                cb_params.train_dataset_element = inputs
                manager.on_train_step_begin(run_context)
                if not self._train_network.training:  # a callback may have evaluated
                    self._train_network.set_train(True)
                cb_params.net_outputs = self._train_network(*inputs)
                self._overflow_update(cb_params.net_outputs)
                manager.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            if valid is not None:
                self._eval_during_train(valid, cb_params, manager)
            manager.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        manager.on_train_end(run_context)

    def _eval_during_train(self, valid, cb_params, manager) -> None:
        valid_dataset, frequency = valid
        epoch = cb_params.cur_epoch_num
        due = epoch % frequency == 0 if isinstance(frequency, int) else epoch in frequency
        if valid_dataset is None or not due:
            return
        saved = {k: cb_params.get(k) for k in ("cur_step_num", "batch_num", "dataset_sink_mode",
                                               "net_outputs")}
        eval_callbacks = [cb for cb in manager._callbacks
                          if type(cb).__name__ not in _BUILTIN_CALLBACKS
                          or type(cb).__name__ == "TimeMonitor"]
        self._eval(valid_dataset, eval_callbacks, cb_params, add_eval_loss=True)
        self._train_network.set_train(True)
        cb_params.mode = "train"
        cb_params.update(saved)

    # ------------------------------------------------------------------ evaluation
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode: bool = False) -> dict:
        """``{metric name: value}`` of the metrics over ``valid_dataset``."""
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or "
                             "empty, you should set the argument 'metrics' for model.")
        callbacks = callback_list(callbacks)
        _warn_old_hooks(callbacks, "eval")
        cb_params = CallbackParams()
        cb_params.list_callback = callbacks
        cb_params.network = self._network
        return self._eval(valid_dataset, callbacks, cb_params, add_eval_loss=False)

    def _eval(self, valid_dataset, callbacks, cb_params, add_eval_loss: bool) -> dict:
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = _dataset_size(valid_dataset)
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.dataset_sink_mode = False
        self._clear_metrics()
        eval_loss = Loss()
        epochs = _Epochs(valid_dataset, 1)
        self._eval_network.set_train(False)
        try:
            with CallbackManager(callbacks) as manager:
                run_context = RunContext(cb_params)
                manager.on_eval_begin(run_context)
                manager.on_eval_epoch_begin(run_context)
                for inputs in epochs.epoch():
                    cb_params.cur_step_num += 1
                    cb_params.eval_dataset_element = inputs
                    manager.on_eval_step_begin(run_context)
                    outputs = self._eval_network(*inputs)
                    cb_params.net_outputs = outputs
                    manager.on_eval_step_end(run_context)
                    self._update_metrics(outputs)
                    if add_eval_loss:
                        eval_loss.update(outputs[self._eval_indexes[0]])
                    if run_context.get_stop_requested():
                        break
                manager.on_eval_epoch_end(run_context)
                metrics = {name: metric.eval() for name, metric in self._metric_fns.items()}
                cb_params.metrics = metrics
                if add_eval_loss:
                    cb_params.eval_results = {**copy.deepcopy(metrics),
                                              "eval_loss": eval_loss.eval()}
                manager.on_eval_end(run_context)
        finally:
            epochs.close()
        return metrics

    # ------------------------------------------------------------------ inference
    def predict(self, *predict_data, backend=None, config=None):
        """The network's output on ``predict_data`` (in inference mode)."""
        if backend not in ("lite", None):
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got "
                             f"{backend}")
        for item in predict_data:
            if isinstance(item, Tensor):
                if item.size == 0:
                    raise ValueError("The input data can not be empty.")
            elif item is not None and not isinstance(item, (int, float, str)):
                raise TypeError("The types of input data must be in the Union(Tensor, None, int, "
                                "float, str, tuple[Tensor, None, int, float, str], "
                                "list[Tensor, None, int, float, str], dict[Tensor, None, int, "
                                f"float, str]), but got type {type(item).__name__}.")
        self._predict_network.set_train(False)
        return self._predict_network(*predict_data)

    def build(self, train_dataset=None, valid_dataset=None, sink_size: int = -1,
              epoch: int = 1, sink_mode: bool = True) -> None:
        """Compile the training (and evaluation) step on the first batch of each dataset
        ahead of ``train``/``fit``, leaving every weight and optimizer state as it was.
        (In PYNATIVE_MODE nothing is compiled.)"""
        _check_positive_int(epoch, "epoch", "Model.build")
        if get_context("mode") != GRAPH_MODE:
            return
        if train_dataset is not None:
            self._compile_on_first_batch(self._train_network, train_dataset, training=True)
        if valid_dataset is not None and self._eval_network is not None:
            self._compile_on_first_batch(self._eval_network, valid_dataset, training=False)

    @staticmethod
    def _compile_on_first_batch(network: nn.Cell, dataset, training: bool) -> None:
        epochs = _Epochs(dataset, 1)
        try:
            inputs = next(iter(epochs.epoch()), None)
        finally:
            epochs.close()
        if inputs is None:
            return
        saved = [(p, p.asnumpy().copy()) for p in network.get_parameters()]
        network.set_train(training)
        try:
            network(*inputs)
        finally:
            for param, value in saved:
                param.set_data(value)

__all__ = ["Model"]
