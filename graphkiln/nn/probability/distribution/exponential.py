"""The Exponential distribution with ``rate`` (density ``rate * exp(-rate * x)``)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import (
    FLOAT_TYPES,
    check_distribution_name,
    check_dtype,
    check_greater_zero,
    check_tuple,
)
from .distribution import Distribution


class Exponential(Distribution):
    """Exponential distribution with ``rate > 0``."""

    def __init__(self, rate=None, seed=None, dtype=mstype.float32, name: str = "Exponential"):
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        check_dtype(dtype, FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._rate = self._add_parameter(rate, "rate")
        if self._rate is not None:
            check_greater_zero(self._rate, "rate")

    @property
    def rate(self):
        return self._rate

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"rate = {self._rate}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self) -> str:
        return "Exponential"

    def _get_dist_args(self, rate=None):
        return self._dist_args((rate,))

    def _mean(self, rate=None):
        return 1.0 / self._check_param_type(rate)

    def _mode(self, rate=None):
        return ops.zeros_like(ops.cast(self._check_param_type(rate), self.dtype))

    def _sd(self, rate=None):
        return 1.0 / self._check_param_type(rate)

    def _entropy(self, rate=None):
        return 1.0 - ops.log(self._check_param_type(rate))

    def _cross_entropy(self, dist, rate_b, rate=None):
        check_distribution_name(dist, "Exponential")
        return self._entropy(rate) + self._kl_loss(dist, rate_b, rate)

    def _log_prob(self, value, rate=None):
        value, rate = self._value_and_params(value, rate)
        prob = ops.log(rate) - rate * value
        return ops.select(value < 0.0, ops.full_like(prob, -np.inf), prob)

    def _cdf(self, value, rate=None):
        value, rate = self._value_and_params(value, rate)
        cdf = 1.0 - ops.exp(-rate * value)
        return ops.select(value < 0.0, ops.zeros_like(cdf), cdf)

    def _log_survival(self, value, rate=None):
        value, rate = self._value_and_params(value, rate)
        log_sf = -rate * value
        return ops.select(value < 0.0, ops.zeros_like(log_sf), log_sf)

    def _kl_loss(self, dist, rate_b, rate=None):
        check_distribution_name(dist, "Exponential")
        (rate_b,) = self._other_params((rate_b, "rate_b"))
        rate_a = self._check_param_type(rate)
        return ops.log(rate_a) - ops.log(rate_b) + rate_b / rate_a - 1.0

    def _sample(self, shape=(), rate=None):
        shape = check_tuple(shape, "shape")
        rate = self._check_param_type(rate)
        tiny = ops.scalar_to_tensor(float(np.finfo(np.float64).tiny), mstype.float32)
        one = ops.scalar_to_tensor(1.0, mstype.float32)
        return self._shaped_sample(
            shape + tuple(rate.shape),
            lambda s: -ops.log(ops.uniform(s, tiny, one, self.seed)) / rate)
