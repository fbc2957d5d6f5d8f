"""The Cauchy distribution with location ``loc`` and scale ``scale`` (no mean or
variance)."""
from __future__ import annotations

import math

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import (
    check_distribution_name,
    check_tuple,
    not_defined,
)
from ._location_scale import LocScale

_LOG_4PI = math.log(4.0 * math.pi)


class Cauchy(LocScale):
    """Cauchy distribution with ``loc`` and ``scale > 0``."""

    def __init__(self, loc=None, scale=None, seed=None, dtype=mstype.float32,
                 name: str = "Cauchy"):
        super().__init__(loc, scale, seed, dtype, name, dict(locals()))

    def _mode(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[0]

    def _mean(self, *args, **kwargs):
        not_defined("mean", self._name)

    def _sd(self, *args, **kwargs):
        not_defined("standard deviation", self._name)

    def _var(self, *args, **kwargs):
        not_defined("variance", self._name)

    def _entropy(self, loc=None, scale=None):
        _, scale = self._check_param_type(loc, scale)
        return ops.log(scale) + _LOG_4PI

    def _z(self, value, loc, scale):
        value, loc, scale = self._value_and_params(value, loc, scale)
        return (value - loc) / scale, scale

    def _log_prob(self, value, loc=None, scale=None):
        z, scale = self._z(value, loc, scale)
        return -ops.log1p(ops.square(z)) - ops.log(math.pi * scale)

    def _cdf(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return ops.atan(z) / math.pi + 0.5

    def _log_cdf(self, value, loc=None, scale=None):
        z, _ = self._z(value, loc, scale)
        return ops.log1p(2.0 * ops.atan(z) / math.pi) - math.log(2.0)

    def _kl_loss(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        check_distribution_name(dist, "Cauchy")
        loc_a, scale_a = self._check_param_type(loc_a, scale_a)
        loc_b, scale_b = self._other_params((loc_b, "loc_b"), (scale_b, "scale_b"))
        spread = ops.square(scale_a + scale_b) + ops.square(loc_a - loc_b)
        return ops.log(spread) - math.log(4.0) - ops.log(scale_a) - ops.log(scale_b)

    def _cross_entropy(self, dist, loc_b, scale_b, loc_a=None, scale_a=None):
        check_distribution_name(dist, "Cauchy")
        return (self._entropy(loc_a, scale_a)
                + self._kl_loss(dist, loc_b, scale_b, loc_a, scale_a))

    def _sample(self, shape=(), loc=None, scale=None):
        shape = check_tuple(shape, "shape")
        loc, scale = self._check_param_type(loc, scale)
        zero = ops.scalar_to_tensor(0.0, mstype.float32)
        one = ops.scalar_to_tensor(1.0, mstype.float32)
        return self._shaped_sample(
            shape + tuple(loc.shape),
            lambda s: loc + scale * ops.tan(math.pi * (ops.uniform(s, zero, one, self.seed)
                                                       - 0.5)))
