"""The Softplus bijector ``y = log(1 + exp(k * x)) / k`` with sharpness k."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from .bijector import Bijector

# below THRESHOLD softplus(x) == exp(x) and above -THRESHOLD softplus(x) == x in float32
_THRESHOLD = float(np.log(np.finfo(np.float32).eps) + 1)
_TINY = float(np.exp(_THRESHOLD))


def softplus(x):
    """log(1 + exp(x)), exact at both float32 extremes."""
    too_small = x < _THRESHOLD
    too_large = x > -_THRESHOLD
    ones = ops.ones_like(x)
    safe = ops.select(ops.logical_or(too_small, too_large), ones, x)
    y = ops.log(ops.exp(safe) + 1.0)
    return ops.select(too_small, ops.exp(x), ops.select(too_large, x, y))


def _inverse_softplus(x):
    too_small = x < _TINY
    too_large = x > -_THRESHOLD
    ones = ops.ones_like(x)
    safe = ops.select(ops.logical_or(too_small, too_large), ones, x)
    y = safe + ops.log(ops.abs(ops.expm1(-safe)))
    return ops.select(too_small, ops.log(x), ops.select(too_large, x, y))


class Softplus(Bijector):
    """Softplus with ``sharpness`` k."""

    def __init__(self, sharpness=1.0, name: str = "Softplus"):
        param = dict(locals())
        param["param_dict"] = {"sharpness": sharpness}
        super().__init__(name=name, dtype=None, param=param)
        self._sharpness = self._add_parameter(sharpness, "sharpness")

    @property
    def sharpness(self):
        return self._sharpness

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"sharpness = {self._sharpness}"
        return f"batch_shape = {self.batch_shape}"

    def _scaled(self, value):
        value = self._check_value_dtype(value)
        sharpness = self.cast_param_by_value(value, self._sharpness)
        return sharpness * value, sharpness

    def _forward(self, x):
        scaled, sharpness = self._scaled(x)
        return softplus(scaled) / sharpness

    def _inverse(self, y):
        scaled, sharpness = self._scaled(y)
        return _inverse_softplus(scaled) / sharpness

    def _forward_log_jacobian(self, x):
        scaled, _ = self._scaled(x)
        return -softplus(-scaled)

    def _inverse_log_jacobian(self, y):
        scaled, _ = self._scaled(y)
        return scaled - _inverse_softplus(scaled)
