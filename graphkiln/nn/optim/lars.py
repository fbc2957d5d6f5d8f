"""``LARS``: wraps another optimizer and rescales each filtered gradient by the layer-wise
trust ratio ``coefficient * ||w|| / (||g|| + wd ||w|| + eps)`` before that optimizer's
update (the wrapped optimizer's weight decay moves into the ratio)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ...common.parameter import Parameter
from ...common.tensor import Tensor
from .optimizer import Optimizer, decays, opt_init_args_register


def _default_lars_filter(param) -> bool:
    return "LayerNorm" not in param.name and "bias" not in param.name


def _norm(x):
    return ops.sqrt(ops.reduce_sum(ops.square(x)))


class LARS(Optimizer):
    """Layer-wise adaptive rate scaling around ``optimizer``. Its own state is MindSpore's
    (``global_step``, ``fake_param``, ``fake_lr``), so checkpoints name the same tensors."""

    @opt_init_args_register
    def __init__(self, optimizer: Optimizer, epsilon=1e-05, coefficient=0.001,
                 use_clip=False, lars_filter=_default_lars_filter):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"For 'LARS', the 'optimizer' must be an Optimizer, but got "
                            f"{type(optimizer).__name__}.")
        super().__init__(0.0, [Parameter(Tensor(np.array(0.0, np.float32)),
                                         name="fake_param")])
        self.opt = optimizer
        self.parameters = optimizer.parameters
        self.epsilon = float(epsilon)
        self.coefficient = float(coefficient)
        self.use_clip = bool(use_clip)
        self.lars_flags = tuple(bool(lars_filter(p)) for p in optimizer.parameters)
        optimizer.exec_weight_decay = False  # the decay is part of the ratio below
        self.learning_rate = Parameter(Tensor(np.array(0.0, np.float32)), name="fake_lr")
        self.global_step = optimizer.global_step  # one step count, as in MindSpore

    def _ratio(self, w, g, wd, lr):
        w_norm, g_norm = _norm(w), _norm(g)
        ratio = ops.div(ops.mul(w_norm, self.coefficient),
                        ops.add(ops.add(g_norm, ops.mul(w_norm, wd)), self.epsilon))
        ratio = ops.select(ops.greater(w_norm, 0.0),
                           ops.select(ops.greater(g_norm, 0.0), ratio, 1.0), 1.0)
        if self.use_clip:
            ratio = ops.minimum(ops.div(ratio, lr), 1.0)
        return ratio

    def construct(self, gradients):
        opt = self.opt
        lrs = opt.current_lrs()
        scaled = ()
        for w, g, wd, flag, lr_i in zip(opt.parameters, gradients, opt.current_weight_decays(),
                                        self.lars_flags, lrs):
            if flag:
                decayed = ops.add(g, ops.mul(w, wd)) if decays(wd) else g
                g = ops.mul(decayed, self._ratio(w, g, wd, lr_i))
            scaled = scaled + (g,)
        return opt(scaled)
