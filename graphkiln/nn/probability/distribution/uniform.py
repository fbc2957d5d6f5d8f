"""The continuous Uniform distribution on [low, high)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import FLOAT_TYPES, check_distribution_name, check_dtype, check_greater, check_tuple
from .distribution import Distribution


class Uniform(Distribution):
    """Uniform distribution between ``low`` and ``high`` (``low < high``)."""

    def __init__(self, low=None, high=None, seed=None, dtype=mstype.float32,
                 name: str = "Uniform"):
        param = dict(locals())
        param["param_dict"] = {"low": low, "high": high}
        check_dtype(dtype, FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._low = self._add_parameter(low, "low")
        self._high = self._add_parameter(high, "high")
        if self._low is not None and self._high is not None:
            check_greater(self._low, self._high, "low", "high")

    @property
    def low(self):
        return self._low

    @property
    def high(self):
        return self._high

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"low = {self._low}, high = {self._high}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self) -> str:
        return "Uniform"

    def _get_dist_args(self, low=None, high=None):
        return self._dist_args((low, high))

    def _mean(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return (low + high) / 2.0

    def _var(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return ops.square(high - low) / 12.0

    def _entropy(self, low=None, high=None):
        low, high = self._check_param_type(low, high)
        return ops.log(high - low)

    def _cross_entropy(self, dist, low_b, high_b, low=None, high=None):
        check_distribution_name(dist, "Uniform")
        return self._entropy(low, high) + self._kl_loss(dist, low_b, high_b, low, high)

    def _prob(self, value, low=None, high=None):
        value, low, high = self._value_and_params(value, low, high)
        prob = ops.exp(-ops.log(high - low)) + ops.zeros_like(value)
        zeros = ops.zeros_like(prob)
        inside = ops.select(value < low, zeros, prob)
        return ops.select(value <= high, inside, zeros)

    def _kl_loss(self, dist, low_b, high_b, low=None, high=None):
        check_distribution_name(dist, "Uniform")
        low_b, high_b = self._other_params((low_b, "low_b"), (high_b, "high_b"))
        low_a, high_a = self._check_param_type(low, high)
        kl = ops.log(high_b - low_b) - ops.log(high_a - low_a)
        covered = ops.logical_and(low_b <= low_a, high_a <= high_b)
        return ops.select(covered, kl, ops.full_like(kl, np.inf))

    def _cdf(self, value, low=None, high=None):
        value, low, high = self._value_and_params(value, low, high)
        prob = (value - low) / (high - low)
        below = ops.select(value < low, ops.zeros_like(prob), prob)
        return ops.select(value < high, below, ops.ones_like(prob))

    def _sample(self, shape=(), low=None, high=None):
        shape = check_tuple(shape, "shape")
        low, high = self._check_param_type(low, high)
        zero = ops.scalar_to_tensor(0.0, mstype.float32)
        one = ops.scalar_to_tensor(1.0, mstype.float32)
        return self._shaped_sample(
            shape + tuple(low.shape),
            lambda s: (high - low) * ops.uniform(s, zero, one, self.seed) + low)
