"""``Optimizer``: the base of every optimizer, as MindSpore's.

It holds the weights (a list of Parameters, or parameter groups: dicts with ``params`` and
optional ``lr``, ``weight_decay``, ``grad_centralization``, plus one ``{'order_params':
...}``), the learning rate (a number, a list or 1-D Tensor indexed by the global step, or
a ``LearningRateSchedule`` cell evaluated on it inside the graph), weight decay (a number,
or a Cell evaluated on the global step; added to the gradients of weights whose names
contain neither 'beta' nor 'gamma'), loss-scale
division and gradient centralization. Subclasses write their update in ``construct``
with the MindSpore update primitives.
"""
from __future__ import annotations

import functools
import inspect

import numpy as np

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ...context import get_context
from ..cell import Cell
from ..container import CellList
from ..learning_rate_schedule import LearningRateSchedule


def opt_init_args_register(fn):
    """Decorate an optimizer's ``__init__`` to keep its arguments, as MindSpore does:
    ``init_params`` (``{"params": ...}``, a wrapped optimizer's for ``optimizer=``),
    ``init_learning_rate`` (a Tensor as a list, None for a schedule Cell) and ``init_args``
    (the other arguments with their defaults)."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def register(self, *args, **kwargs):
        arguments = signature.bind(self, *args, **kwargs)
        arguments.apply_defaults()
        arguments = dict(arguments.arguments)
        arguments.pop("self")
        if "params" in arguments:
            self.init_params = {"params": arguments.pop("params")}
        if "optimizer" in arguments:
            self.init_params = {"params": arguments.pop("optimizer").init_params["params"]}
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            self.init_learning_rate = None if isinstance(lr, Cell) else lr
        self.init_args = arguments
        fn(self, *args, **kwargs)

    return register


def decays(weight_decay) -> bool:
    """Whether a weight decay (a float, or a Tensor from a schedule) changes the update."""
    return isinstance(weight_decay, Tensor) or weight_decay > 0


def _default_decay_filter(param) -> bool:
    return "beta" not in param.name and "gamma" not in param.name


class _StepIndexedLR(Cell):
    """A list of learning rates read at the global step (the last one after the end); the
    result has the step's shape, as MindSpore's gather (``[1]`` for the optimizer's)."""

    keep_fp32_weights = True  # (as the optimizer's state)

    def __init__(self, values, name: str):
        super().__init__()
        self.learning_rate = Parameter(Tensor(np.asarray(values, np.float32)), name=name)
        self.last = len(values) - 1

    def construct(self, global_step):
        return ops.gather(self.learning_rate, ops.minimum(global_step, self.last), 0)


class _FixedLR(Cell):
    """A fixed learning rate as a cell of the global step (beside dynamic group rates)."""

    keep_fp32_weights = True

    def __init__(self, learning_rate: Parameter):
        super().__init__()
        self.learning_rate = learning_rate

    def construct(self, global_step):
        return self.learning_rate


def _check_lr_value(owner: str, lr):
    if isinstance(lr, bool):
        raise TypeError(f"For '{owner}', the 'learning_rate' must be float, int, Tensor, "
                        f"Iterable or LearningRateSchedule, but got bool.")
    if isinstance(lr, (int, float)):
        if lr < 0:
            raise ValueError(f"For '{owner}', the 'learning_rate' must be >= 0, but got {lr}.")
        return float(lr)
    if isinstance(lr, Tensor):
        if lr.ndim > 1:
            raise ValueError(f"For '{owner}', the dim of Tensor type 'learning_rate' should "
                             f"be 0 or 1, but got {lr.ndim}.")
        return lr.asnumpy().tolist() if lr.ndim == 1 else float(lr.asnumpy())
    if isinstance(lr, (list, tuple)):
        if not lr:
            raise ValueError(f"For '{owner}', the 'learning_rate' list must not be empty.")
        return [float(v) for v in lr]
    if isinstance(lr, LearningRateSchedule):
        return lr
    raise TypeError(f"For '{owner}', the 'learning_rate' must be float, int, Tensor, Iterable "
                    f"or LearningRateSchedule, but got {type(lr).__name__}.")


class Optimizer(Cell):
    """Base class of optimizers (see the module docstring)."""

    # its state (trainable Parameters, as MindSpore's) is never read cast under to_float
    keep_fp32_weights = True

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        owner = type(self).__name__
        if isinstance(parameters, (Parameter, Tensor)) or parameters is None:
            raise TypeError(f"For '{owner}', the argument 'parameters' must be a list of "
                            f"Parameters or a list of dicts, but got "
                            f"{type(parameters).__name__}.")
        items = list(parameters)
        if not items:
            raise ValueError(f"For '{owner}', the argument 'parameters' must not be empty.")
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, (int, float)) or \
                loss_scale <= 0:
            raise ValueError(f"For '{owner}', the argument 'loss_scale' must be > 0, but got "
                             f"{loss_scale}.")
        self.loss_scale = float(loss_scale)
        self.reciprocal_scale = 1.0 / self.loss_scale
        base_lr = _check_lr_value(owner, learning_rate)
        base_wd = self._check_weight_decay(weight_decay)
        params, lrs, wds, gcs = [], [], [], []
        lr_names = []  # MindSpore's: a group's own lr is learning_rate_group_<its index>
        order = None
        self.is_group = isinstance(items[0], dict)
        for index, item in enumerate(items):
            if isinstance(item, dict):
                if "order_params" in item:
                    order = list(item["order_params"])
                    continue
                group = list(item["params"])
                lr = _check_lr_value(owner, item.get("lr", learning_rate))
                wd = self._check_weight_decay(item.get("weight_decay", weight_decay))
                gc = bool(item.get("grad_centralization", False))
                name = f"learning_rate_group_{index}" if "lr" in item else "learning_rate"
            elif isinstance(item, Parameter):
                group, lr, wd, gc = [item], base_lr, base_wd, False
                name = "learning_rate"
            else:
                raise TypeError(f"For '{owner}', the element of 'parameters' must be "
                                f"Parameter or dict, but got {type(item).__name__}.")
            for p in group:
                if not isinstance(p, Parameter):
                    raise TypeError(f"For '{owner}', the 'params' of a group must be "
                                    f"Parameters, but got {type(p).__name__}.")
                if any(p is q for q in params):
                    raise RuntimeError(f"For '{owner}', the parameter {p.name} appears in "
                                       f"more than one group.")
                params.append(p)
                lrs.append(lr)
                lr_names.append(name)
                wds.append(wd)
                gcs.append(gc)
        if order is not None:
            index = {id(p): i for i, p in enumerate(params)}
            missing = [p.name for p in order if id(p) not in index]
            if missing:
                raise ValueError(f"For '{owner}', the 'order_params' has parameters not in "
                                 f"any group: {missing}.")
            perm = [index[id(p)] for p in order]
            params, lrs, wds, gcs, lr_names = ([seq[i] for i in perm]
                                               for seq in (params, lrs, wds, gcs, lr_names))
        self.param_length = len(params)
        # MindSpore's parallel optimizer shards the update across ranks; graphkiln's data
        # parallelism updates every parameter on every rank (see broadcast_params)
        self.use_parallel = False
        self.dev_num = 1
        self.param_rank = (0,) * self.param_length
        # (MindSpore's order of the state: the step, the rates, the weights, the slots)
        self.global_step = Parameter(Tensor(np.array([0], np.int32)), name="global_step")
        # what MindSpore's user optimizers call to advance it: assignadd(step, increase)
        self.assignadd = ops.AssignAdd()
        self.global_step_increase_tensor = Tensor(np.array([1], np.int32))
        self._target = get_context("device_target")
        self.is_group_lr = self.is_group and any(
            isinstance(item, dict) and "lr" in item for item in items)
        self.dynamic_lr = any(isinstance(lr, (list, LearningRateSchedule)) for lr in lrs)
        self._lr_cells = None
        if self.is_group_lr:
            self.learning_rate = self._group_lrs(lrs, lr_names)
        else:
            self.learning_rate = self._lr_of(lrs[0], "learning_rate")
        self._parameters = ParameterTuple(params)
        self.parameters = self._parameters
        self.weight_decay = wds[0] if not self.is_group else tuple(wds)
        self.dynamic_weight_decay = any(isinstance(wd, Cell) for wd in wds)
        self._group_decays = tuple(wds)
        self.set_decay_flags(tuple(_default_decay_filter(p) for p in params))
        self.grad_centralization_flags = tuple(gcs)
        # MindSpore's mappers over the weights, for the construct of user optimizers
        self.map_, self.map_reverse = ops.Map(), ops.Map(None, True)
        self.hyper_map, self.hyper_map_reverse = ops.HyperMap(), ops.HyperMap(None, True)

    @property
    def target(self) -> str:
        """Where the weights are updated: ``'CPU'``, ``'GPU'`` or ``'Ascend'``."""
        return self._target

    @target.setter
    def target(self, value: str) -> None:
        # MindSpore's base class refuses; the optimizers with a host (fused) update
        # override the setter with ``_set_base_target``
        raise NotImplementedError

    def _set_base_target(self, value: str) -> None:
        """Check and set ``target`` (MindSpore's checks: a device name, never one of
        another device than the context's)."""
        if not isinstance(value, str):
            raise TypeError(f"For 'Optimizer', the property 'target' must be string, but got "
                            f"{type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(f"For 'Optimizer', the property 'target' must be one of ['CPU', "
                             f"'Ascend' ,'GPU'], but got {value}")
        if (self._target, value) in (("CPU", "Ascend"), ("CPU", "GPU"), ("Ascend", "GPU"),
                                     ("GPU", "Ascend")):
            devices = "'GPU' or 'Ascend'" if self._target == "CPU" else f"'{value}'"
            raise ValueError(f"For 'Optimizer', the property 'target' cannot be set to {devices} "
                             f"in the '{self._target}' environment.")
        self._target = value

    def _is_dynamic_lr_or_weight_decay(self) -> bool:
        """Whether the learning rate or the weight decay depends on the global step."""
        return self.dynamic_lr or self.dynamic_weight_decay

    def set_decay_flags(self, flags: tuple) -> None:
        """Which weights the weight decay applies to (by default not biases and norms)."""
        self.decay_flags = tuple(flags)
        # scaled by the loss scale, as MindSpore does, so that the decay survives the
        # division of the (scaled) gradients by it (a schedule Cell's value at each step)
        self._weight_decays = tuple(
            (wd if isinstance(wd, Cell) else wd * self.loss_scale) if flag else 0.0
            for wd, flag in zip(self._group_decays, self.decay_flags))
        self.exec_weight_decay = any(isinstance(w, Cell) or w > 0 for w in self._weight_decays)

    @staticmethod
    def _check_weight_decay(wd) -> float | Cell:
        """A fixed decay as a float, or a schedule Cell (``global_step -> decay``)."""
        if isinstance(wd, Cell):
            return wd
        if isinstance(wd, bool) or not isinstance(wd, (int, float)):
            raise TypeError(f"For 'Optimizer', the argument 'weight_decay' must be int, float "
                            f"or Cell, but got {type(wd).__name__}.")
        if wd < 0:
            raise ValueError(f"The 'weight_decay' must be a float >= 0, but got {wd!r}.")
        return float(wd)

    def _lr_of(self, lr, name: str):
        if isinstance(lr, LearningRateSchedule):
            return lr
        if isinstance(lr, list):
            return _StepIndexedLR(lr, name)
        return Parameter(Tensor(np.array(lr, np.float32)), name=name)

    def _group_lrs(self, lrs, names):
        """One rate per group that sets ``lr`` (named by the group's index), and one shared
        ``learning_rate`` for the groups that do not, as MindSpore's: the Parameters, or
        when one is dynamic a CellList of every weight's rate (fixed ones as cells)."""
        cells, seen = [], {}
        for lr, name in zip(lrs, names):
            if name not in seen:
                seen[name] = self._lr_of(lr, name)
                if self.dynamic_lr and isinstance(seen[name], Parameter):
                    seen[name] = _FixedLR(seen[name])
            cells.append(seen[name])
        self._lr_cells = tuple(cells)
        if self.dynamic_lr:
            return CellList(cells, auto_prefix=False)
        return ParameterTuple(dict.fromkeys(cells))

    def _lr_value(self, lr):
        if isinstance(lr, Parameter):
            return lr
        return ops.reshape(lr(self.global_step), ())

    def get_lr(self):
        """The learning rate of this step (a tuple, one per weight, with per-group rates)."""
        if self.is_group_lr:
            return tuple(self._lr_value(c) for c in self._lr_cells)
        return self._lr_value(self.learning_rate)

    def advance_step(self, updates):
        """``updates``, after the global step has been increased by one (each optimizer's
        ``construct`` does this once per step, after reading the learning rate)."""
        return ops.depend(updates, ops.assign_add(self.global_step, Tensor(
            np.array([1], np.int32))))

    def current_lrs(self) -> tuple:
        """This step's learning rate of every weight, without advancing the step."""
        if self.is_group_lr:
            return tuple(self._lr_value(c) for c in self._lr_cells)
        return (self._lr_value(self.learning_rate),) * self.param_length

    def get_lr_parameter(self, param):
        """The learning-rate Parameter or schedule cell that applies to ``param``."""
        params = param if isinstance(param, (list, tuple)) else [param]
        out = []
        for p in params:
            i = next((k for k, q in enumerate(self._parameters) if q is p), None)
            if i is None:
                raise ValueError(f"The parameter {p.name} is not in the optimizer.")
            out.append(self._lr_cells[i] if self.is_group_lr else self.learning_rate)
        return out if isinstance(param, (list, tuple)) else out[0]

    def broadcast_params(self, optim_result):
        """The parameters after the update ``optim_result`` stands for, as one group per
        rank that owns a share of them. Every rank updates every parameter here, so there
        is one group and nothing to send."""
        return [ops.depend(tuple(self._parameters), optim_result)]

    def current_weight_decays(self) -> tuple:
        """This step's weight decay of every weight, times the loss scale (0.0 where the
        decay does not apply): a float, or a scalar Tensor from a schedule Cell."""
        return tuple(ops.mul(ops.reshape(wd(self.global_step), ()), self.loss_scale)
                     if isinstance(wd, Cell) else wd for wd in self._weight_decays)

    def get_weight_decay(self):
        """The weight decay (per weight when grouped); a schedule's value at this step."""
        if self.is_group:
            return self.current_weight_decays()
        if isinstance(self.weight_decay, Cell):
            return ops.reshape(self.weight_decay(self.global_step), ())
        return self.weight_decay

    # ------------------------------------------------------------ gradient preparation
    def flatten_gradients(self, gradients):
        """The gradients as they are: graphkiln never packs weights into contiguous chunks
        (MindSpore's ``Cell.flatten_weights``), so there is nothing to flatten."""
        return gradients

    def _grad_sparse_indices_deduplicate(self, gradients):
        """The gradients as they are: the CPU update kernels accept repeated indices of
        sparse gradients (MindSpore merges them only for device targets)."""
        return gradients

    def scale_grad(self, gradients):
        """Undo the loss scale: each gradient times ``1 / loss_scale``."""
        if self.loss_scale == 1.0:
            return gradients
        return tuple(ops.mul(g, self.reciprocal_scale) for g in gradients)

    def decay_weight(self, gradients):
        """``g + weight_decay * w`` for the weights the decay applies to."""
        if not self.exec_weight_decay:
            return gradients
        return tuple(ops.add(g, ops.mul(p, wd)) if decays(wd) else g for p, g, wd in zip(
            self._parameters, gradients, self.current_weight_decays()))

    def gradients_centralization(self, gradients):
        """Subtract each flagged gradient's mean over all but its first axis (as MindSpore,
        only where the second axis is a multiple of 16: convolution weights)."""
        if not any(self.grad_centralization_flags):
            return gradients
        return tuple(ops.sub(g, ops.mean(g, tuple(range(1, g.ndim)), True))
                     if flag and g.ndim > 1 and g.shape[1] % 16 == 0 else g
                     for g, flag in zip(gradients, self.grad_centralization_flags))

    def prepare_gradients(self, gradients):
        """Weight decay, centralization and loss-scale division, in MindSpore's order."""
        gradients = self.decay_weight(tuple(gradients))
        gradients = self.gradients_centralization(gradients)
        return self.scale_grad(gradients)

    def lr_per_param(self, lr) -> tuple:
        return lr if self.is_group_lr else (lr,) * self.param_length

    def slots(self, prefix: str, init: float = 0.0) -> ParameterTuple:
        """One state Parameter per weight, named ``<prefix>.<weight name>``."""
        return ParameterTuple(
            Parameter(Tensor(np.full(p.shape, init, p.dtype.np_dtype), p.dtype),
                      name=f"{prefix}.{p.name}")
            for p in self._parameters)

    @staticmethod
    def scalar_slot(name: str, value: float) -> Parameter:
        """A float32 scalar of optimizer state (saved in checkpoints, as MindSpore's)."""
        return Parameter(Tensor(np.array(value, np.float32), mstype.float32), name=name)

    @staticmethod
    def scalar_const(value: float) -> Tensor:
        """A float32 scalar hyper-parameter: a constant of the step, not checkpointed state
        (MindSpore keeps Adam's betas and RMSProp's decay as Tensors, not Parameters)."""
        return Tensor(np.array(value, np.float32), mstype.float32)
