"""The GumbelCDF bijector ``y = exp(-exp(-(x - loc) / scale))``."""
from __future__ import annotations

import graphkiln.ops as ops

from .._checks import check_greater_zero
from .bijector import Bijector


class GumbelCDF(Bijector):
    """GumbelCDF with ``loc`` and ``scale > 0``."""

    def __init__(self, loc=0.0, scale=1.0, name: str = "GumbelCDF"):
        param = dict(locals())
        param["param_dict"] = {"loc": loc, "scale": scale}
        super().__init__(name=name, param=param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        check_greater_zero(self._scale, "scale")

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"loc = {self._loc}, scale = {self._scale}"
        return f"batch_shape = {self.batch_shape}"

    def _loc_scale(self, value):
        value = self._check_value_dtype(value)
        return (value, self.cast_param_by_value(value, self._loc),
                self.cast_param_by_value(value, self._scale))

    def _forward(self, x):
        x, loc, scale = self._loc_scale(x)
        return ops.exp(-ops.exp(-(x - loc) / scale))

    def _inverse(self, y):
        y, loc, scale = self._loc_scale(y)
        return loc - scale * ops.log(-ops.log(y))

    def _forward_log_jacobian(self, x):
        x, loc, scale = self._loc_scale(x)
        z = (x - loc) / scale
        return -z - ops.exp(-z) - ops.log(scale)

    def _inverse_log_jacobian(self, y):
        y, _, scale = self._loc_scale(y)
        return ops.log(scale / (-y * ops.log(y)))
