"""``Adam`` (with ``use_amsgrad``/``use_nesterov``) and ``AdamWeightDecay``, through the
``Adam``, ``ApplyAdamWithAmsgradV2`` and ``AdamWeightDecay`` primitives."""
from __future__ import annotations

import graphkiln.ops as ops
import graphkiln.ops.defs.optim as O

from .optimizer import Optimizer, opt_init_args_register


def _check_betas(owner: str, beta1, beta2, eps) -> None:
    for name, v in (("beta1", beta1), ("beta2", beta2)):
        if isinstance(v, bool) or not isinstance(v, float) or not 0.0 < v < 1.0:
            raise ValueError(f"For '{owner}', the '{name}' must be a float in range (0.0, "
                             f"1.0), but got {v!r}.")
    if isinstance(eps, bool) or not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{owner}', the 'eps' must be a float greater than 0, but got "
                         f"{eps!r}.")


class Adam(Optimizer):
    """Adam with bias correction through ``beta1_power``/``beta2_power``; state
    ``moment1.<w>``, ``moment2.<w>`` (and ``vhat.<w>`` with AMSGrad)."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
                 use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas("Adam", beta1, beta2, eps)
        if use_amsgrad and use_nesterov:
            raise ValueError("For 'Adam', 'use_amsgrad' and 'use_nesterov' cannot both be "
                             "True.")
        self.beta1 = self.scalar_const(beta1)
        self.beta2 = self.scalar_const(beta2)
        self.eps = self.scalar_const(eps)
        self.beta1_power = self.scalar_slot("beta1_power", 1.0)
        self.beta2_power = self.scalar_slot("beta2_power", 1.0)
        self.moment1 = self.slots("moment1")
        self.moment2 = self.slots("moment2")
        self.use_amsgrad = bool(use_amsgrad)
        if self.use_amsgrad:
            self.vhat = self.slots("vhat")
            self.opt = ops.Primitive(O.ApplyAdamWithAmsgradV2, {"use_locking": use_locking})
        else:
            self.opt = ops.Primitive(O.Adam, {"use_locking": use_locking,
                                              "use_nesterov": use_nesterov})

    @Optimizer.target.setter
    def target(self, value: str) -> None:
        self._set_base_target(value)

    def construct(self, gradients):
        gradients = self.prepare_gradients(gradients)
        lrs = self.lr_per_param(self.get_lr())
        b1p = ops.assign(self.beta1_power, ops.mul(self.beta1_power, self.beta1))
        b2p = ops.assign(self.beta2_power, ops.mul(self.beta2_power, self.beta2))
        done = ()
        for i, (w, g, lr) in enumerate(zip(self._parameters, gradients, lrs)):
            m, v = self.moment1[i], self.moment2[i]
            if self.use_amsgrad:
                out = self.opt(w, m, v, self.vhat[i], b1p, b2p, lr, self.beta1, self.beta2,
                               self.eps, g)
            else:
                out = self.opt(w, m, v, b1p, b2p, lr, self.beta1, self.beta2, self.eps, g)
            done = done + (out,)
        return self.advance_step(done)


class AdamWeightDecay(Optimizer):
    """Adam without bias correction, with decoupled weight decay (``update += decay * w``)
    for weights whose names contain neither 'beta' nor 'gamma'; state ``adam_m.<w>``,
    ``adam_v.<w>``."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_betas("AdamWeightDecay", beta1, beta2, eps)
        self.beta1 = self.scalar_const(beta1)
        self.beta2 = self.scalar_const(beta2)
        self.eps = self.scalar_const(eps)
        self.moments1 = self.slots("adam_m")
        self.moments2 = self.slots("adam_v")
        self.opt = ops.Primitive(O.AdamWeightDecay, {"use_locking": False})

    def construct(self, gradients):
        gradients = self.gradients_centralization(tuple(gradients))
        lrs = self.lr_per_param(self.get_lr())
        weight_decays = self.current_weight_decays()
        done = ()
        for i, (w, g, lr) in enumerate(zip(self._parameters, gradients, lrs)):
            done = done + (self.opt(w, self.moments1[i], self.moments2[i], lr, self.beta1,
                                    self.beta2, self.eps, weight_decays[i], g),)
        return self.advance_step(done)


class LazyAdam(Adam):
    """Adam that, for sparse gradients, updates only the rows the gradient touches;
    graphkiln's gradients are dense, so every step is ``Adam``'s (as MindSpore's LazyAdam
    on dense gradients). State as ``Adam``'s."""

    @opt_init_args_register
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        for name, v in (("use_locking", use_locking), ("use_nesterov", use_nesterov)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'LazyAdam', the '{name}' must be bool, but got "
                                f"{type(v).__name__}.")
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)
