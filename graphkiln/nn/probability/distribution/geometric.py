"""The Geometric distribution: the number of failures before the first success of
Bernoulli trials with success probability ``probs``."""
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


class Geometric(Distribution):
    """Geometric distribution with ``0 < probs < 1``; its events have ``dtype`` (int32
    by default)."""

    def __init__(self, probs=None, seed=None, dtype=mstype.int32, name: str = "Geometric"):
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
        return "Geometric"

    def _get_dist_args(self, probs1=None):
        return self._dist_args((probs1,))

    def _mean(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        return (1.0 - probs1) / probs1

    def _mode(self, probs1=None):
        return ops.zeros_like(ops.cast(self._check_param_type(probs1), self.dtype))

    def _var(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        return (1.0 - probs1) / ops.square(probs1)

    def _entropy(self, probs1=None):
        probs1 = self._check_param_type(probs1)
        probs0 = 1.0 - probs1
        return (-probs0 * ops.log(probs0) - probs1 * ops.log(probs1)) / probs1

    def _cross_entropy(self, dist, probs1_b, probs1=None):
        check_distribution_name(dist, "Geometric")
        return self._entropy(probs1) + self._kl_loss(dist, probs1_b, probs1)

    def _count(self, value, probs1):
        value = ops.floor(ops.cast(check_tensor(value, "value"), self.parameter_type))
        return value, self._check_param_type(probs1)

    def _prob(self, value, probs1=None):
        value, probs1 = self._count(value, probs1)
        pmf = ops.exp(ops.log(1.0 - probs1) * value + ops.log(probs1))
        return ops.select(value < 0.0, ops.zeros_like(pmf), pmf)

    def _cdf(self, value, probs1=None):
        value, probs1 = self._count(value, probs1)
        cdf = 1.0 - ops.pow(1.0 - probs1, value + 1.0)
        return ops.select(value < 0.0, ops.zeros_like(cdf), cdf)

    def _kl_loss(self, dist, probs1_b, probs1=None):
        check_distribution_name(dist, "Geometric")
        (probs1_b,) = self._other_params((probs1_b, "probs1_b"))
        probs1_a = self._check_param_type(probs1)
        probs0_a, probs0_b = 1.0 - probs1_a, 1.0 - probs1_b
        return ops.log(probs1_a / probs1_b) + probs0_a / probs1_a * ops.log(probs0_a / probs0_b)

    def _sample(self, shape=(), probs1=None):
        shape = check_tuple(shape, "shape")
        probs1 = self._check_param_type(probs1)
        tiny = ops.scalar_to_tensor(float(np.finfo(np.float64).tiny), mstype.float32)
        one = ops.scalar_to_tensor(1.0, mstype.float32)
        return self._shaped_sample(
            shape + tuple(probs1.shape),
            lambda s: ops.floor(ops.log(ops.uniform(s, tiny, one, self.seed))
                                / ops.log(1.0 - probs1)))
