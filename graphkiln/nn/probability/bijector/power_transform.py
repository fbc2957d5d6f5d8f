"""The PowerTransform bijector ``y = (1 + x * c)^(1 / c)`` (``y = exp(x)`` for c = 0),
and Exp, its c = 0 case."""
from __future__ import annotations

import graphkiln.ops as ops

from .bijector import Bijector


class PowerTransform(Bijector):
    """PowerTransform with ``power`` c >= 0."""

    def __init__(self, power=0.0, name: str = "PowerTransform"):
        param = dict(locals())
        param["param_dict"] = {"power": power}
        super().__init__(name=name, param=param)
        self._power = self._add_parameter(power, "power")
        if (self._power.asnumpy() < 0).any():
            raise ValueError("Power must be greater than or equal to zero.")

    @property
    def power(self):
        return self._power

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"power = {self._power}"
        return f"batch_shape = {self.batch_shape}"

    def _power_like(self, value):
        """(value, power, power == 0, a power safe to divide by) broadcast together."""
        power = self.cast_param_by_value(value, self._power)
        ones = ops.ones_like(value + power)
        power, value = power * ones, value * ones
        is_zero = ops.equal(power, ops.zeros_like(power))
        return value, power, is_zero, ops.select(is_zero, ones, power)

    def _forward(self, x):
        x, _, is_zero, safe = self._power_like(self._check_value_dtype(x))
        return ops.select(is_zero, ops.exp(x), ops.exp(ops.log1p(x * safe) / safe))

    def _inverse(self, y):
        y, _, is_zero, safe = self._power_like(self._check_value_dtype(y))
        return ops.select(is_zero, ops.log(y), ops.expm1(ops.log(y) * safe) / safe)

    def _forward_log_jacobian(self, x):
        x, power, is_zero, safe = self._power_like(self._check_value_dtype(x))
        return ops.select(is_zero, x, (1.0 / safe - 1.0) * ops.log1p(x * power))

    def _inverse_log_jacobian(self, y):
        y = self._check_value_dtype(y)
        return (self.cast_param_by_value(y, self._power) - 1.0) * ops.log(y)


class Exp(PowerTransform):
    """The Exp bijector ``y = exp(x)``."""

    def __init__(self, name: str = "Exp"):
        super().__init__(name=name)

    def extend_repr(self) -> str:
        return "exp" if self.is_scalar_batch else f"batch_shape = {self.batch_shape}"


__all__ = ["Exp", "PowerTransform"]
