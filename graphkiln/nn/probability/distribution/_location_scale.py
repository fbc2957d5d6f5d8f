"""The shared constructors of the distributions given by a location and a scale: ``mean``
and ``sd`` (Normal, HalfNormal, Laplace) or ``loc`` and ``scale`` (Cauchy, Logistic), and
their common call-time helpers."""
from __future__ import annotations

from .._checks import FLOAT_TYPES, check_dtype, check_greater_zero
from .distribution import Distribution


class LocationScale(Distribution):
    """A distribution with parameters ``mean`` and ``sd`` (``sd > 0``)."""

    def __init__(self, mean, sd, seed, dtype, name: str, param: dict):
        param["param_dict"] = {"mean": mean, "sd": sd}
        check_dtype(dtype, FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        if self._sd_value is not None:
            check_greater_zero(self._sd_value, "Standard deviation")


class LocScale(Distribution):
    """A distribution with parameters ``loc`` and ``scale`` (``scale > 0``), named by its
    class in ``_get_dist_type``."""

    def __init__(self, loc, scale, seed, dtype, name: str, param: dict):
        param["param_dict"] = {"loc": loc, "scale": scale}
        check_dtype(dtype, FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._loc = self._add_parameter(loc, "loc")
        self._scale = self._add_parameter(scale, "scale")
        if self._scale is not None:
            check_greater_zero(self._scale, "scale")

    @property
    def loc(self):
        return self._loc

    @property
    def scale(self):
        return self._scale

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"location = {self._loc}, scale = {self._scale}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self) -> str:
        return type(self).__name__

    def _get_dist_args(self, loc=None, scale=None):
        return self._dist_args((loc, scale))
