"""The Normal (Gaussian) distribution N(mean, sd)."""
from __future__ import annotations

import math

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import check_distribution_name, check_tuple
from ._location_scale import LocationScale

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


class Normal(LocationScale):
    """Normal distribution with ``mean`` and standard deviation ``sd``."""

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32,
                 name: str = "Normal"):
        super().__init__(mean, sd, seed, dtype, name, dict(locals()))

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"mean = {self._mean_value}, standard deviation = {self._sd_value}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self) -> str:
        return "Normal"

    def _get_dist_args(self, mean=None, sd=None):
        return self._dist_args((mean, sd))

    def _mean(self, mean=None, sd=None):
        return self._check_param_type(mean, sd)[0]

    def _mode(self, mean=None, sd=None):
        return self._check_param_type(mean, sd)[0]

    def _sd(self, mean=None, sd=None):
        return self._check_param_type(mean, sd)[1]

    def _entropy(self, mean=None, sd=None):
        _, sd = self._check_param_type(mean, sd)
        return 0.5 + _HALF_LOG_2PI + ops.log(sd)

    def _cross_entropy(self, dist, mean_b, sd_b, mean=None, sd=None):
        check_distribution_name(dist, "Normal")
        return self._entropy(mean, sd) + self._kl_loss(dist, mean_b, sd_b, mean, sd)

    def _log_prob(self, value, mean=None, sd=None):
        value, mean, sd = self._value_and_params(value, mean, sd)
        return -0.5 * ops.square((value - mean) / sd) - _HALF_LOG_2PI - ops.log(sd)

    def _cdf(self, value, mean=None, sd=None):
        value, mean, sd = self._value_and_params(value, mean, sd)
        return 0.5 * (1.0 + ops.erf((value - mean) / (sd * math.sqrt(2.0))))

    def _kl_loss(self, dist, mean_b, sd_b, mean=None, sd=None):
        check_distribution_name(dist, "Normal")
        mean_b, sd_b = self._other_params((mean_b, "mean_b"), (sd_b, "sd_b"))
        mean_a, sd_a = self._check_param_type(mean, sd)
        diff_log_scale = ops.log(sd_a) - ops.log(sd_b)
        squared_diff = ops.square(mean_a / sd_b - mean_b / sd_b)
        return 0.5 * squared_diff + 0.5 * ops.expm1(2.0 * diff_log_scale) - diff_log_scale

    def _sample(self, shape=(), mean=None, sd=None):
        shape = check_tuple(shape, "shape")
        mean, sd = self._check_param_type(mean, sd)
        return self._shaped_sample(shape + tuple(mean.shape),
                                   lambda s: ops.normal(s, mean, sd, self.seed))
