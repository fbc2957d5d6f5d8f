"""``Optimizer``: the base of ``mindspore.experimental.optim``'s optimizers.

``params`` is a list of Parameters or of parameter groups (dicts with ``params`` and any of
the optimizer's options); each group takes the defaults it lacks. ``param_groups[i]['lr']``
is a float32 scalar Parameter (``learning_rate_group_<i>``, also ``lrs[i]``) that the
schedulers of ``lr_scheduler`` write, so a compiled train step reads the current value.
``parameters`` is the ParameterTuple of every group's weights, in order; group ``i`` holds
``parameters[group_start_id[i]:group_start_id[i + 1]]``. Subclasses write ``construct``
with ops; the helpers here give a group's learning rate and its gradients (negated for
``maximize``, with ``weight_decay * w`` added).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import numpy as np

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.parameter import Parameter, ParameterTuple
from ...common.tensor import Tensor
from ...nn.cell import Cell


def _lr_parameter(lr, name: str, owner: str) -> Parameter:
    """A group's learning rate as a float32 scalar Parameter."""
    if isinstance(lr, (float, int)) and not isinstance(lr, bool):
        if lr < 0:
            raise ValueError(f"For '{owner}', the 'learning rate' must be >= 0, but got "
                             f"{float(lr)}.")
        return Parameter(Tensor(np.array(lr, np.float32)), name)
    if isinstance(lr, Tensor):
        if lr.ndim != 0:
            raise ValueError("For 'Optimizer', if 'learning_rate' is a Tensor, then it should "
                             "be scalar Tensor")
        return Parameter(Tensor(lr.asnumpy().astype(np.float32)), name)
    raise TypeError(f"For 'Optimizer', the argument 'learning_rate' must be int, float or "
                    f"Tensor, but got {type(lr)}.")


def _slot(prefix: str, init: float, scalar: bool, weight: Parameter) -> Parameter:
    """A state Parameter of ``weight``: like it (``<prefix>.<name>``) or a float32 scalar
    (``<prefix><name>``), filled with ``init``."""
    if scalar:
        return Parameter(Tensor(np.array(init, np.float32)), f"{prefix}{weight.name}")
    return Parameter(Tensor(np.full(weight.shape, init, weight.dtype.np_dtype), weight.dtype),
                     name=f"{prefix}.{weight.name}")


class Optimizer(Cell):
    """Base class of the experimental optimizers (see the module docstring)."""

    # its state (trainable Parameters, as MindSpore's) is never read cast under to_float
    keep_fp32_weights = True

    def __init__(self, params, defaults: dict):
        super().__init__(auto_prefix=False)
        if params is None:
            raise ValueError("For 'Optimizer', the argument params can not be None.")
        if not isinstance(params, Iterable):
            raise TypeError(f"For 'Optimizer', the argument params must be Iterable type, but "
                            f"got {type(params)}.")
        groups = list(params)
        if not groups:
            raise ValueError("For 'Optimizer', the argument params must not be empty.")
        self.defaults = defaults
        self.state = defaultdict(dict)
        self._slot_specs = {}  # id of a slot container -> (prefix, init, scalar)
        self.param_groups = []
        self.parameters = []
        self.lrs = []
        self.group_start_id = [0]
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        self.parameters = ParameterTuple(self.parameters)
        self.map_ = ops.Map()  # for subclasses written as MindSpore's are
        self.hyper_map = ops.HyperMap()

    def __repr__(self) -> str:
        text = f"{type(self).__name__} ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(k for k in group if k != "params"):
                value = group[key]
                if isinstance(value, Parameter):
                    value = Tensor(value.asnumpy())
                text += f"    {key}: {value}\n"
        return text + ")"

    def add_param_group(self, param_group: dict) -> None:
        """Add a group (a dict with ``params``) to ``param_groups``; it takes the defaults it
        lacks, its ``lr`` becomes a Parameter."""
        if not isinstance(param_group, dict):
            raise TypeError("Param group must be a dict.")
        group_id = len(self.param_groups)
        weights = param_group["params"]
        if isinstance(weights, Parameter):
            weights = [weights]
        elif isinstance(weights, set):
            raise TypeError("Optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        weights = list(weights)
        for w in weights:
            if not isinstance(w, Parameter):
                raise TypeError(f"Optimizer can only optimize Parameters, but one of the params "
                                f"is {type(w)}")
        seen = {id(w) for group in self.param_groups for w in group["params"]}
        if any(id(w) in seen for w in weights):
            raise ValueError("some parameters appear in more than one parameter group.")
        param_group["params"] = weights
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        owner = type(self).__name__
        lr = _lr_parameter(param_group.get("lr"), f"learning_rate_group_{group_id}", owner)
        weight_decay = param_group.get("weight_decay", 0.0)
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, (float, int)):
            raise TypeError(f"For 'Optimizer', the argument 'Weight_decay' must be int or "
                            f"float.but got {type(weight_decay)}")
        if weight_decay < 0:
            raise ValueError(f"For '{owner}', the 'weight_decay' must be >= 0, but got "
                             f"{float(weight_decay)}.")
        param_group["lr"] = lr
        param_group["weight_decay"] = float(weight_decay)
        self.parameters = type(self.parameters)(list(self.parameters) + weights)
        self._extend_slots(weights)
        self.lrs = self.lrs + [lr]
        self.param_groups.append(param_group)
        self.group_start_id.append(self.group_start_id[-1] + len(weights))

    def group_lr(self, group_id: int):
        """The learning rate of a group: its Parameter, or a float32 constant when the user
        replaced ``param_groups[i]['lr']`` by a number."""
        lr = self.param_groups[group_id]["lr"]
        if isinstance(lr, float):
            return Tensor(np.array(lr, np.float32))
        return self.lrs[group_id]

    def group_params(self, group_id: int, slots=None):
        """The weights of a group (or its share of the per-weight ``slots``)."""
        start, end = self.group_start_id[group_id], self.group_start_id[group_id + 1]
        return tuple((self.parameters if slots is None else slots)[start:end])

    def group_slots(self, group_id: int, slots) -> tuple:
        """A group's share of optional per-weight ``slots`` (Nones when there are none)."""
        if slots is None:
            return (None,) * (self.group_start_id[group_id + 1] - self.group_start_id[group_id])
        return self.group_params(group_id, slots)

    def group_grads(self, group_id: int, gradients, maximize: bool = False,
                    decay: bool = True) -> tuple:
        """A group's gradients, negated when ``maximize``, then with ``weight_decay * w``
        added when ``decay`` and the group's weight decay is not 0."""
        start, end = self.group_start_id[group_id], self.group_start_id[group_id + 1]
        grads = tuple(gradients[start:end])
        if maximize:
            grads = tuple(ops.neg(g) for g in grads)
        weight_decay = self.param_groups[group_id]["weight_decay"]
        if decay and weight_decay != 0.0:
            wd = Tensor(np.array(weight_decay, np.float32))
            grads = tuple(ops.add(ops.mul(w, ops.cast(wd, w.dtype)), g)
                          for w, g in zip(self.group_params(group_id), grads))
        return grads

    def slots(self, prefix: str, init: float = 0.0) -> ParameterTuple:
        """One state Parameter per weight, like it, named ``<prefix>.<weight name>`` (groups
        added later get theirs too)."""
        slots = ParameterTuple(_slot(prefix, init, False, p) for p in self.parameters)
        self._slot_specs[id(slots)] = (prefix, init, False)
        return slots

    def scalar_slots(self, prefix: str, value: float) -> list:
        """One float32 scalar state Parameter per weight, named ``<prefix><weight name>``
        (groups added later get theirs too)."""
        slots = [_slot(prefix, value, True, p) for p in self.parameters]
        self._slot_specs[id(slots)] = (prefix, value, True)
        return slots

    def _extend_slots(self, weights: list) -> None:
        """Give the weights of a group added after construction their state Parameters."""
        for name, value in list(vars(self).items()):
            spec = self._slot_specs.pop(id(value), None)
            if spec is not None:
                grown = type(value)(list(value) + [_slot(*spec, w) for w in weights])
                self._slot_specs[id(grown)] = spec
                setattr(self, name, grown)

    @staticmethod
    def step_counter(name: str, dtype=mstype.int32, value=0) -> Parameter:
        """A scalar step count Parameter (``state_step``, ``step_t``)."""
        return Parameter(Tensor(np.array(value, dtype.np_dtype)), name)

    def construct(self, *hyper_params):
        raise NotImplementedError(f"{type(self).__name__} must define construct(gradients), "
                                  f"the update of its weights (as MindSpore's Optimizer "
                                  f"subclasses do).")
