"""The Gumbel distribution with location ``loc`` and scale ``scale``: the inverse
GumbelCDF bijector applied to Uniform(0, 1). Its functions use the constructor's
parameters only."""
from __future__ import annotations

import math

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import FLOAT_TYPES, check_distribution_name, check_dtype, check_tensor, check_tuple
from ..bijector.gumbel_cdf import GumbelCDF
from ..bijector.invert import Invert
from .transformed_distribution import TransformedDistribution
from .uniform import Uniform

_EULER = float(np.euler_gamma)


class Gumbel(TransformedDistribution):
    """Gumbel distribution with ``loc`` and ``scale > 0``."""

    def __init__(self, loc, scale, seed=0, dtype=mstype.float32, name: str = "Gumbel"):
        check_dtype(dtype, FLOAT_TYPES, type(self).__name__)
        gumbel_cdf = GumbelCDF(loc, scale)
        super().__init__(Invert(gumbel_cdf), Uniform(0.0, 1.0, dtype=dtype), seed=seed,
                         name=name)
        self._reset_parameters()
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        self._gumbel_bijector = gumbel_cdf
        self._broadcast_shape = tuple(np.broadcast_shapes(tuple(self._loc.shape),
                                                          tuple(self._scale.shape)))

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"loc = {self._loc}, scale = {self._scale}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self) -> str:
        return "Gumbel"

    def _get_dist_args(self, loc=None, scale=None):
        return self._dist_args((loc, scale))

    def _full_scale(self):
        return ops.broadcast_to(self._scale, self._broadcast_shape)

    def _mean(self):
        return self._loc + self._scale * _EULER

    def _mode(self):
        return self._loc * ops.ones_like(self._scale)

    def _sd(self):
        return self._full_scale() * (math.pi / math.sqrt(6.0))

    def _entropy(self):
        return 1.0 + ops.log(self._full_scale()) + _EULER

    def _log_prob(self, value):
        value = ops.cast(check_tensor(value, "value"), self.dtype)
        z = (value - self._loc) / self._scale
        return -(z + ops.exp(-z)) - ops.log(self._scale)

    def _cdf(self, value):
        value = ops.cast(check_tensor(value, "value"), self.dtype)
        return self._gumbel_bijector("forward", value)

    def _cross_entropy(self, dist, loc_b, scale_b):
        check_distribution_name(dist, "Gumbel")
        return self._entropy() + self._kl_loss(dist, loc_b, scale_b)

    def _kl_loss(self, dist, loc_b, scale_b):
        check_distribution_name(dist, "Gumbel")
        loc_b, scale_b = self._other_params((loc_b, "loc_b"), (scale_b, "scale_b"))
        loc, scale = self._loc, self._scale
        return (ops.log(scale_b / scale) + _EULER * (scale / scale_b - 1.0)
                + (loc - loc_b) / scale_b
                + ops.expm1((loc_b - loc) / scale_b + ops.lgamma(scale / scale_b + 1.0)))

    def _sample(self, shape=()):
        shape = check_tuple(shape, "shape")
        return self._shaped_sample(
            shape + self._broadcast_shape,
            lambda s: self._bijector("forward", ops.cast(self._distribution("sample", s),
                                                         self.dtype)))
