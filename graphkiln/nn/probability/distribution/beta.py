"""The Beta distribution on (0, 1) with ``concentration1`` (alpha) and
``concentration0`` (beta)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from ...math import LBeta
from .._checks import (
    FLOAT_TYPES,
    check_distribution_name,
    check_dtype,
    check_greater_zero,
    check_tuple,
)
from .distribution import Distribution


class Beta(Distribution):
    """Beta distribution; the concentrations are > 0 (a Python float is refused, as in
    MindSpore)."""

    def __init__(self, concentration1=None, concentration0=None, seed=None,
                 dtype=mstype.float32, name: str = "Beta"):
        param = dict(locals())
        param["param_dict"] = {"concentration1": concentration1,
                               "concentration0": concentration0}
        check_dtype(dtype, FLOAT_TYPES, type(self).__name__)
        for arg, value in (("concentration0", concentration0),
                           ("concentration1", concentration1)):
            if isinstance(value, float):
                raise TypeError(f"Input {arg} can't be scalar")
        super().__init__(seed, dtype, name, param)
        self._concentration1 = self._add_parameter(concentration1, "concentration1")
        self._concentration0 = self._add_parameter(concentration0, "concentration0")
        for arg, value in (("concentration1", self._concentration1),
                           ("concentration0", self._concentration0)):
            if value is not None:
                check_greater_zero(value, arg)
        self.lbeta = LBeta()

    @property
    def concentration1(self):
        return self._concentration1

    @property
    def concentration0(self):
        return self._concentration0

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return (f"concentration1 = {self._concentration1}, "
                    f"concentration0 = {self._concentration0}")
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self) -> str:
        return "Beta"

    def _get_dist_args(self, concentration1=None, concentration0=None):
        return self._dist_args((concentration1, concentration0))

    def _mean(self, concentration1=None, concentration0=None):
        c1, c0 = self._check_param_type(concentration1, concentration0)
        return c1 / (c1 + c0)

    def _var(self, concentration1=None, concentration0=None):
        c1, c0 = self._check_param_type(concentration1, concentration0)
        total = c1 + c0
        return c1 * c0 / (ops.pow(total, 2) * (total + 1.0))

    def _mode(self, concentration1=None, concentration0=None):
        c1, c0 = self._check_param_type(concentration1, concentration0)
        mode = (c1 - 1.0) / (c1 + c0 - 2.0)
        defined = ops.logical_and(c1 > 1.0, c0 > 1.0)
        return ops.select(defined, mode, ops.full_like(mode, np.nan))

    def _entropy(self, concentration1=None, concentration0=None):
        c1, c0 = self._check_param_type(concentration1, concentration0)
        total = c1 + c0
        return (self.lbeta(c1, c0) - (c1 - 1.0) * ops.digamma(c1)
                - (c0 - 1.0) * ops.digamma(c0) + (total - 2.0) * ops.digamma(total))

    def _cross_entropy(self, dist, concentration1_b, concentration0_b, concentration1_a=None,
                       concentration0_a=None):
        check_distribution_name(dist, "Beta")
        return (self._entropy(concentration1_a, concentration0_a)
                + self._kl_loss(dist, concentration1_b, concentration0_b, concentration1_a,
                                concentration0_a))

    def _log_prob(self, value, concentration1=None, concentration0=None):
        value, c1, c0 = self._value_and_params(value, concentration1, concentration0)
        unnormalized = (c1 - 1.0) * ops.log(value) + (c0 - 1.0) * ops.log1p(-value)
        return unnormalized - self.lbeta(c1, c0)

    def _kl_loss(self, dist, concentration1_b, concentration0_b, concentration1_a=None,
                 concentration0_a=None):
        check_distribution_name(dist, "Beta")
        c1_b, c0_b = self._other_params((concentration1_b, "concentration1_b"),
                                        (concentration0_b, "concentration0_b"))
        c1_a, c0_a = self._check_param_type(concentration1_a, concentration0_a)
        total_a, total_b = c1_a + c0_a, c1_b + c0_b
        return (self.lbeta(c1_b, c0_b) - self.lbeta(c1_a, c0_a)
                - ops.digamma(c1_a) * (c1_b - c1_a) - ops.digamma(c0_a) * (c0_b - c0_a)
                + ops.digamma(total_a) * (total_b - total_a))

    def _sample(self, shape=(), concentration1=None, concentration0=None):
        shape = check_tuple(shape, "shape")
        c1, c0 = self._check_param_type(concentration1, concentration0)

        def draw(s):
            ones = ops.ones(s, self.dtype)
            g1 = ops.gamma(s, c1, ones, self.seed)
            g0 = ops.gamma(s, c0, ones, self.seed)
            return g1 / (g1 + g0)
        return self._shaped_sample(shape + tuple(c1.shape), draw)
