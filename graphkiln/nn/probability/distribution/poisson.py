"""The Poisson distribution with ``rate`` (events per interval)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import NUMBER_TYPES, check_dtype, check_greater_zero, check_tuple, refuse_scalars
from .distribution import Distribution


class Poisson(Distribution):
    """Poisson distribution with a Tensor/array ``rate > 0`` (a Python number is refused,
    as in MindSpore)."""

    def __init__(self, rate=None, seed=None, dtype=mstype.float32, name: str = "Poisson"):
        param = dict(locals())
        param["param_dict"] = {"rate": rate}
        check_dtype(dtype, NUMBER_TYPES, type(self).__name__)
        refuse_scalars(rate=rate)
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
        return "Poisson"

    def _get_dist_args(self, rate=None):
        return self._dist_args((rate,))

    def _mean(self, rate=None):
        return self._check_param_type(rate)

    def _mode(self, rate=None):
        return ops.floor(self._check_param_type(rate))

    def _var(self, rate=None):
        return self._check_param_type(rate)

    def _log_prob(self, value, rate=None):
        value, rate = self._value_and_params(value, rate)
        log_rate = ops.log(rate)
        safe = ops.select(value < 0.0, ops.zeros_like(value), value)
        y = log_rate * safe - ops.lgamma(safe + 1.0)
        unnormalized = ops.select(value == safe, y, ops.full_like(y, -np.inf))
        return unnormalized - ops.exp(log_rate)

    def _cdf(self, value, rate=None):
        value, rate = self._value_and_params(value, rate)
        below = value < 0.0
        safe = ops.select(below, ops.zeros_like(value), value)
        cdf = 1.0 - ops.igamma(1.0 + safe, rate)
        return ops.select(below, ops.zeros_like(cdf), cdf)

    def _sample(self, shape=(), rate=None):
        shape = check_tuple(shape, "shape")
        rate = ops.cast(self._check_param_type(rate), mstype.float32)
        return self._shaped_sample(shape + tuple(rate.shape),
                                   lambda s: ops.poisson(s, rate, self.seed))
