"""The Invert bijector: another bijector run backwards."""
from __future__ import annotations

from .bijector import Bijector


class Invert(Bijector):
    """``Invert(b).forward == b.inverse`` (and the Jacobians swapped likewise)."""

    def __init__(self, bijector: Bijector, name: str = ""):
        param = dict(locals())
        if not isinstance(bijector, Bijector):
            raise TypeError(f"For 'Invert', the 'bijector' must be Bijector, but got "
                            f"{type(bijector).__name__}.")
        name = name or "Invert" + bijector.name
        param["name"] = name
        super().__init__(is_constant_jacobian=bijector.is_constant_jacobian,
                         is_injective=bijector.is_injective, name=name,
                         dtype=bijector.dtype, param=param)
        self._bijector = bijector
        self._batch_shape = bijector.batch_shape
        self._is_scalar_batch = bijector.is_scalar_batch

    @property
    def bijector(self) -> Bijector:
        return self._bijector

    def forward(self, x):
        return self._bijector("inverse", x)

    def inverse(self, y):
        return self._bijector("forward", y)

    def forward_log_jacobian(self, x):
        return self._bijector("inverse_log_jacobian", x)

    def inverse_log_jacobian(self, y):
        return self._bijector("forward_log_jacobian", y)
