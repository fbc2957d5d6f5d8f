"""The HalfNormal distribution: a Normal folded at its mean, with MindSpore's density
``sqrt(2/pi) / sd * exp(-((x - mean) / sd)^2 / 2)`` for ``x >= 0`` (0 below)."""
from __future__ import annotations

import math

import graphkiln.ops as ops

from ....common import dtype as mstype
from ._location_scale import LocationScale

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


class HalfNormal(LocationScale):
    """HalfNormal distribution with ``mean`` and ``sd``; it defines ``prob`` (and so
    ``log_prob``) only."""

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32,
                 name: str = "HalfNormal"):
        super().__init__(mean, sd, seed, dtype, name, dict(locals()))

    def _prob(self, value, mean=None, sd=None):
        value, mean, sd = self._value_and_params(value, mean, sd)
        pdf = _SQRT_2_OVER_PI / sd * ops.exp(-0.5 * ops.square((value - mean) / sd))
        return pdf * ops.cast(value >= 0, self.dtype)
