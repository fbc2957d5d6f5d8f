"""The Laplace distribution with location ``mean`` and scale ``sd``."""
from __future__ import annotations

import graphkiln.ops as ops

from ....common import dtype as mstype
from ._location_scale import LocationScale


class Laplace(LocationScale):
    """Laplace distribution: ``log p(x) = -|x - mean| / sd - log(2 sd)``; it defines
    ``log_prob`` (and so ``prob``) only."""

    def __init__(self, mean=None, sd=None, seed=None, dtype=mstype.float32,
                 name: str = "Laplace"):
        super().__init__(mean, sd, seed, dtype, name, dict(locals()))

    def _log_prob(self, value, mean=None, sd=None):
        value, mean, sd = self._value_and_params(value, mean, sd)
        return -ops.abs((value - mean) / sd) - ops.log(2.0 * sd)
