"""The LogNormal distribution: ``exp(x)`` for ``x ~ Normal(loc, scale)``."""
from __future__ import annotations

import math

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import check_distribution_name, check_tuple
from ..bijector.power_transform import Exp
from .normal import Normal
from .transformed_distribution import TransformedDistribution

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


class LogNormal(TransformedDistribution):
    """LogNormal distribution with ``loc`` and ``scale`` of the underlying Normal."""

    def __init__(self, loc=None, scale=None, seed=0, dtype=mstype.float32,
                 name: str = "LogNormal"):
        super().__init__(Exp(), Normal(loc, scale, dtype=dtype), seed=seed, name=name)
        self._reset_parameters()
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"loc = {self._loc}, scale = {self._scale}"
        return f"batch_shape = {self.broadcast_shape}"

    def _get_dist_type(self) -> str:
        return "LogNormal"

    def _get_dist_args(self, loc=None, scale=None):
        return self._dist_args((loc, scale))

    def _mean(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        return ops.exp(mean + 0.5 * ops.square(sd))

    def _mode(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        return ops.exp(mean - ops.square(sd))

    def _var(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        var = ops.square(sd)
        return ops.expm1(var) * ops.exp(2.0 * mean + var)

    def _entropy(self, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        return mean + 0.5 + ops.log(sd) + _HALF_LOG_2PI

    def _cdf(self, value, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        cdf = self._distribution("cdf", self._bijector("inverse", value), mean, sd)
        return ops.select(value > 0.0, cdf, ops.zeros_like(cdf))

    def _log_prob(self, value, loc=None, scale=None):
        mean, sd = self._check_param_type(loc, scale)
        unadjusted = self._distribution("log_prob", self._bijector("inverse", value), mean, sd)
        return unadjusted + self._bijector("inverse_log_jacobian", value)

    def _cross_entropy(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        check_distribution_name(dist, "LogNormal")
        return (self._entropy(loc_a, scale_a)
                + self._kl_loss(dist, loc_b, scale_b, loc_a, scale_a))

    def _kl_loss(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        check_distribution_name(dist, "LogNormal")
        return self._distribution("kl_loss", "Normal", loc_b, scale_b, loc_a, scale_a)

    def _sample(self, shape=(), loc=None, scale=None):
        shape = check_tuple(shape, "shape")
        mean, sd = self._check_param_type(loc, scale)
        drawn = self._distribution("sample", shape or (1,), mean, sd)
        value = self._bijector("forward", ops.cast(drawn, self.dtype))
        return ops.squeeze(value, 0) if shape == () else value
