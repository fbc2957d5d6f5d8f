"""The shared constructor of the distributions given by a location ``mean`` and a scale
``sd`` (Normal, HalfNormal, Laplace) and their common call-time helpers."""
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
