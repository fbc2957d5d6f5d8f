"""The Student's t distribution with ``df`` degrees of freedom, location ``mean`` and
scale ``sd``."""
from __future__ import annotations

import math

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import FLOAT_TYPES, check_dtype, check_greater_zero
from .distribution import Distribution

_HALF_LOG_PI = 0.5 * math.log(math.pi)


class StudentT(Distribution):
    """StudentT distribution; it defines ``log_prob`` (and so ``prob``) only."""

    def __init__(self, df=None, mean=None, sd=None, seed=None, dtype=mstype.float32,
                 name: str = "StudentT"):
        param = dict(locals())
        param["param_dict"] = {"df": df, "mean": mean, "sd": sd}
        check_dtype(dtype, FLOAT_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._df_value = self._add_parameter(df, "df")
        self._mean_value = self._add_parameter(mean, "mean")
        self._sd_value = self._add_parameter(sd, "sd")
        if self._sd_value is not None:
            check_greater_zero(self._sd_value, "Standard deviation")
        if self._df_value is not None:
            check_greater_zero(self._df_value, "Degrees of freedom")

    def _log_prob(self, value, df=None, mean=None, sd=None):
        value, df, mean, sd = self._value_and_params(value, df, mean, sd)
        y = (value - mean) / sd
        log_unnormalized = -0.5 * (df + 1.0) * ops.log1p(ops.square(y) / df)
        log_normalization = (ops.log(ops.abs(sd)) + 0.5 * ops.log(df) + _HALF_LOG_PI
                             + ops.lgamma(0.5 * df) - ops.lgamma(0.5 * (df + 1.0)))
        return log_unnormalized - log_normalization
