"""The Bernoulli distribution: 1 with probability ``probs``, else 0."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import (
    NUMBER_TYPES,
    check_distribution_name,
    check_dtype,
    check_prob,
    check_tensor,
    check_tuple,
)
from .distribution import Distribution


class Bernoulli(Distribution):
    """Bernoulli distribution with success probability ``probs`` (0 < probs < 1); its
    events have ``dtype`` (int32 by default)."""

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name: str = "Bernoulli"):
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        check_dtype(dtype, NUMBER_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            check_prob(self._probs)

    @property
    def probs(self):
        return self._probs

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"probs = {self._probs}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self) -> str:
        return "Bernoulli"

    def _get_dist_args(self, probs1=None):
        return self._dist_args((probs1,))

    def _mean(self, probs1=None):
        return self._check_param_type(probs1)

    def _mode(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        return ops.cast(probs1 > 0.5, self.dtype)

    def _var(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        return ops.exp(ops.log(1.0 - probs1) + ops.log(probs1))

    def _entropy(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        probs0 = 1.0 - probs1
        return -(probs0 * ops.log(probs0)) - probs1 * ops.log(probs1)

    def _cross_entropy(self, dist, probs1_b, probs1=None):
        check_distribution_name(dist, "Bernoulli")
        return self._entropy(probs1) + self._kl_loss(dist, probs1_b, probs1)

    def _log_prob(self, value, probs1=None):
        value = ops.cast(check_tensor(value, "value"), self.parameter_type)
        probs1 = _clamp_probs(self._check_param_type(probs1))
        return ops.log(probs1) * value + ops.log(1.0 - probs1) * (1.0 - value)

    def _cdf(self, value, probs1=None):
        value = ops.floor(ops.cast(check_tensor(value, "value"), self.parameter_type))
        probs1 = self._check_param_type(probs1)
        probs0 = 1.0 - probs1
        shape = ops.shape(value * probs1)
        value = ops.broadcast_to(value, shape)
        probs0 = ops.broadcast_to(probs0, shape)
        zeros = ops.zeros_like(probs0)
        below_one = ops.select(value < 0.0, zeros, probs0)
        return ops.select(value < 1.0, below_one, ops.ones_like(probs0))

    def _kl_loss(self, dist, probs1_b, probs1=None):
        check_distribution_name(dist, "Bernoulli")
        (probs1_b,) = self._other_params((probs1_b, "probs1_b"))
        probs1_a = self._check_param_type(probs1)
        probs0_a = 1.0 - probs1_a
        probs0_b = 1.0 - probs1_b
        return (probs1_a * ops.log(probs1_a / probs1_b)
                + probs0_a * ops.log(probs0_a / probs0_b))

    def _sample(self, shape=(), probs1=None):
        shape = check_tuple(shape, "shape")
        probs1 = self._check_param_type(probs1)
        zero = ops.scalar_to_tensor(0.0, mstype.float32)
        one = ops.scalar_to_tensor(1.0, mstype.float32)
        return self._shaped_sample(shape + tuple(probs1.shape),
                                   lambda s: ops.uniform(s, zero, one, self.seed) < probs1)


def _clamp_probs(probs):
    """``probs`` clipped to [eps, 1 - eps] of its dtype, so its logs are finite."""
    eps = float(np.finfo(mstype.dtype_to_nptype(probs.dtype)).eps)
    return ops.clip_by_value(probs, eps, 1.0 - eps)
