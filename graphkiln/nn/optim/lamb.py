"""``Lamb``: Adam moments with bias correction, scaled per weight by the trust ratio
``||w|| / ||update||`` (clipped to [0, 10]); written with ops and ``Assign``."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common import dtype as mstype
from .adam import _check_betas
from .optimizer import Optimizer, decays, opt_init_args_register


def _norm(x):
    return ops.sqrt(ops.reduce_sum(ops.square(x)))


class Lamb(Optimizer):
    """State ``lamb_m.<w>``, ``lamb_v.<w>``; the global step drives the bias correction."""

    @opt_init_args_register
    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_betas("Lamb", beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.moments1 = self.slots("lamb_m")
        self.moments2 = self.slots("lamb_v")

    def construct(self, gradients):
        gradients = self.gradients_centralization(tuple(gradients))
        lrs = self.lr_per_param(self.get_lr())
        step = ops.add(ops.cast(ops.reshape(self.global_step, ()), mstype.float32), 1.0)
        correction1 = ops.sub(1.0, ops.pow(self.beta1, step))
        correction2 = ops.sub(1.0, ops.pow(self.beta2, step))
        weight_decays = self.current_weight_decays()
        done = ()
        for i, (w, g, lr) in enumerate(zip(self._parameters, gradients, lrs)):
            m, v = self.moments1[i], self.moments2[i]
            g = ops.cast(g, mstype.float32)
            next_m = ops.add(ops.mul(m, self.beta1), ops.mul(g, 1.0 - self.beta1))
            next_v = ops.add(ops.mul(v, self.beta2), ops.mul(ops.square(g), 1.0 - self.beta2))
            update = ops.div(ops.div(next_m, correction1),
                             ops.add(ops.sqrt(ops.div(next_v, correction2)), self.eps))
            if decays(weight_decays[i]):
                update = ops.add(update, ops.mul(w, weight_decays[i]))
            w_norm, g_norm = _norm(w), _norm(g)
            ratio = ops.div(w_norm, _norm(update))
            ratio = ops.select(ops.greater(w_norm, 0.0),
                               ops.select(ops.greater(g_norm, 0.0), ratio, 1.0), 1.0)
            ratio = ops.clip_by_value(ratio, 0.0, 10.0)
            next_w = ops.sub(w, ops.mul(ops.mul(lr, ratio), update))
            done = done + (ops.depend(ops.assign(w, next_w), (ops.assign(m, next_m),
                                                               ops.assign(v, next_v))),)
        return self.advance_step(done)
