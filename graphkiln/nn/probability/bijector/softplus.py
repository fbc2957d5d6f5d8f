"""The Softplus bijector ``y = log(1 + exp(k * x)) / k`` with sharpness k."""
from __future__ import annotations

from .._math import inverse_softplus, softplus
from .bijector import Bijector


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
        return inverse_softplus(scaled) / sharpness

    def _forward_log_jacobian(self, x):
        scaled, _ = self._scaled(x)
        return -softplus(-scaled)

    def _inverse_log_jacobian(self, y):
        scaled, _ = self._scaled(y)
        return scaled - inverse_softplus(scaled)
