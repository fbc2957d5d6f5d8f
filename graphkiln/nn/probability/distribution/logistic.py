"""The Logistic distribution with location ``loc`` and scale ``scale``."""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import check_tuple
from .._math import softplus
from ._location_scale import LocScale


class Logistic(LocScale):
    """Logistic distribution with ``loc`` and ``scale > 0``."""

    def __init__(self, loc=None, scale=None, seed=None, dtype=mstype.float32,
                 name: str = "Logistic"):
        super().__init__(loc, scale, seed, dtype, name, dict(locals()))

    def _mean(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[0]

    def _mode(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[0]

    def _sd(self, loc=None, scale=None):
        return self._check_param_type(loc, scale)[1] * (math.pi / math.sqrt(3.0))

    def _entropy(self, loc=None, scale=None):
        return ops.log(self._check_param_type(loc, scale)[1]) + 2.0

    def _z(self, value, loc, scale):
        value, loc, scale = self._value_and_params(value, loc, scale)
        return (value - loc) / scale, scale

    def _log_prob(self, value, loc=None, scale=None):
        z, scale = self._z(value, loc, scale)
        return -z - 2.0 * softplus(-z) - ops.log(scale)

    def _cdf(self, value, loc=None, scale=None):
        return ops.sigmoid(self._z(value, loc, scale)[0])

    def _log_cdf(self, value, loc=None, scale=None):
        return -softplus(-self._z(value, loc, scale)[0])

    def _survival_function(self, value, loc=None, scale=None):
        return ops.sigmoid(-self._z(value, loc, scale)[0])

    def _log_survival(self, value, loc=None, scale=None):
        return -softplus(self._z(value, loc, scale)[0])

    def _sample(self, shape=(), loc=None, scale=None):
        shape = check_tuple(shape, "shape")
        loc, scale = self._check_param_type(loc, scale)
        tiny = ops.scalar_to_tensor(float(np.finfo(np.float64).tiny), mstype.float32)
        one = ops.scalar_to_tensor(1.0, mstype.float32)

        def draw(s):
            u = ops.uniform(s, tiny, one, self.seed)
            return (ops.log(u) - ops.log1p(-u)) * scale + loc
        return self._shaped_sample(shape + tuple(loc.shape), draw)
