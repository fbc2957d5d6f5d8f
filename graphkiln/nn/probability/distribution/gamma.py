"""The Gamma distribution with ``concentration`` (shape) and ``rate`` (inverse scale)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import (
    FLOAT_TYPES,
    check_distribution_name,
    check_dtype,
    check_greater_zero,
    check_tuple,
    refuse_scalars,
)
from .distribution import Distribution


class Gamma(Distribution):
    """Gamma distribution; ``concentration`` and ``rate`` are arrays/Tensors > 0 (a Python
    number is refused, as in MindSpore)."""

    def __init__(self, concentration=None, rate=None, seed=None, dtype=mstype.float32,
                 name: str = "Gamma"):
        param = dict(locals())
        param["param_dict"] = {"concentration": concentration, "rate": rate}
        check_dtype(dtype, FLOAT_TYPES, type(self).__name__)
        refuse_scalars(concentration=concentration, rate=rate)
        super().__init__(seed, dtype, name, param)
        self._concentration = self._add_parameter(concentration, "concentration")
        self._rate = self._add_parameter(rate, "rate")
        if self._concentration is not None:
            check_greater_zero(self._concentration, "concentration")
        if self._rate is not None:
            check_greater_zero(self._rate, "rate")

    @property
    def concentration(self):
        return self._concentration

    @property
    def rate(self):
        return self._rate

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"concentration = {self._concentration}, rate = {self._rate}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self) -> str:
        return "Gamma"

    def _get_dist_args(self, concentration=None, rate=None):
        return self._dist_args((concentration, rate))

    def _mean(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return concentration / rate

    def _var(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return concentration / ops.square(rate)

    def _sd(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return ops.sqrt(concentration) / rate

    def _mode(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        mode = (concentration - 1.0) / rate
        return ops.select(concentration > 1.0, mode, ops.full_like(mode, np.nan))

    def _entropy(self, concentration=None, rate=None):
        concentration, rate = self._check_param_type(concentration, rate)
        return (concentration - ops.log(rate) + ops.lgamma(concentration)
                + (1.0 - concentration) * ops.digamma(concentration))

    def _cross_entropy(self, dist, concentration_b, rate_b, concentration_a=None,
                       rate_a=None):
        check_distribution_name(dist, "Gamma")
        return (self._entropy(concentration_a, rate_a)
                + self._kl_loss(dist, concentration_b, rate_b, concentration_a, rate_a))

    def _log_prob(self, value, concentration=None, rate=None):
        value, concentration, rate = self._value_and_params(value, concentration, rate)
        unnormalized = (concentration - 1.0) * ops.log(value) - rate * value
        return unnormalized - (ops.lgamma(concentration) - concentration * ops.log(rate))

    def _cdf(self, value, concentration=None, rate=None):
        value, concentration, rate = self._value_and_params(value, concentration, rate)
        return ops.igamma(concentration, rate * value)

    def _kl_loss(self, dist, concentration_b, rate_b, concentration_a=None, rate_a=None):
        check_distribution_name(dist, "Gamma")
        c_b, r_b = self._other_params((concentration_b, "concentration_b"), (rate_b, "rate_b"))
        c_a, r_a = self._check_param_type(concentration_a, rate_a)
        return ((c_a - c_b) * ops.digamma(c_a) + ops.lgamma(c_b) - ops.lgamma(c_a)
                + c_b * ops.log(r_a) - c_b * ops.log(r_b) + c_a * (r_b / r_a - 1.0))

    def _sample(self, shape=(), concentration=None, rate=None):
        shape = check_tuple(shape, "shape")
        concentration, rate = self._check_param_type(concentration, rate)
        return self._shaped_sample(shape + tuple(concentration.shape),
                                   lambda s: ops.gamma(s, concentration, rate, self.seed))
