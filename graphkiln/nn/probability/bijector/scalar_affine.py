"""The ScalarAffine bijector ``y = scale * x + shift``."""
from __future__ import annotations

import graphkiln.ops as ops

from .bijector import Bijector


class ScalarAffine(Bijector):
    """ScalarAffine with ``scale`` and ``shift`` (its Jacobian is constant)."""

    def __init__(self, scale=1.0, shift=0.0, name: str = "ScalarAffine"):
        param = dict(locals())
        param["param_dict"] = {"scale": scale, "shift": shift}
        super().__init__(is_constant_jacobian=True, is_injective=True, name=name,
                         dtype=None, param=param)
        self._scale = self._add_parameter(scale, "scale")
        self._shift = self._add_parameter(shift, "shift")

    @property
    def scale(self):
        return self._scale

    @property
    def shift(self):
        return self._shift

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"scale = {self._scale}, shift = {self._shift}"
        return f"batch_shape = {self.batch_shape}"

    def _forward(self, x):
        x = self._check_value_dtype(x)
        scale = self.cast_param_by_value(x, self._scale)
        shift = self.cast_param_by_value(x, self._shift)
        return scale * x + shift * ops.ones_like(x)

    def _inverse(self, y):
        y = self._check_value_dtype(y)
        scale = self.cast_param_by_value(y, self._scale)
        return (y - self.cast_param_by_value(y, self._shift)) / scale

    def _forward_log_jacobian(self, x):
        x = self._check_value_dtype(x)
        return ops.log(ops.abs(self.cast_param_by_value(x, self._scale)))

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        return -ops.log(ops.abs(self.cast_param_by_value(y, self._scale)))
