"""``SGD``: gradient descent with optional momentum, dampening and Nesterov, through the
``SGD`` primitive (weight decay, per group, is added to the gradients first, as in
MindSpore)."""
from __future__ import annotations

import graphkiln.ops as ops

from ...ops.defs.optim import SGD as SGDOp
from .optimizer import Optimizer, opt_init_args_register


class SGD(Optimizer):
    """State ``accum.<weight>`` and ``stat.<weight>`` (1 until the first step)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0,
                 weight_decay=0.0, nesterov=False, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, v in (("momentum", momentum), ("dampening", dampening)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise ValueError(f"For 'SGD', the argument '{name}' must be at least 0.0, "
                                 f"but got {v}.")
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and "
                             f"'dampening' must equal to 0.0, but got 'momentum': {momentum}, "
                             f"'dampening': {dampening}.")
        if self.dynamic_weight_decay:
            raise TypeError("For 'SGD', dynamic weight decay is currently not supported, the "
                            "argument 'weight_decay' or 'weight_decay' set in grouped 'params' "
                            "must be float or int type.")
        self.momentum = self.scalar_slot("momentum", momentum)
        self.accum = self.slots("accum")
        self.stat = self.slots("stat", 1.0)
        self.opt = ops.Primitive(SGDOp, {"dampening": float(dampening), "weight_decay": 0.0,
                                         "nesterov": bool(nesterov)})

    def construct(self, gradients):
        gradients = self.prepare_gradients(gradients)
        lrs = self.lr_per_param(self.get_lr())
        done = ()
        for w, g, lr, a, s in zip(self._parameters, gradients, lrs, self.accum, self.stat):
            done = done + (self.opt(w, g, lr, a, self.momentum, s),)
        return self.advance_step(done)
