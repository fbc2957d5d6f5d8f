"""``TransformedDistribution``: the distribution of ``y = bijector(x)`` for ``x`` drawn
from another distribution (change of variables: ``log p(y) = log p_x(f^-1(y)) +
log |df^-1/dy|``)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from . import _utils as U
from .distribution import Distribution


class TransformedDistribution(Distribution):
    """``bijector`` applied to ``distribution`` (a float one)."""

    def __init__(self, bijector, distribution, seed=None,
                 name: str = "transformed_distribution"):
        from ..bijector.bijector import Bijector  # the bijectors build this class

        param = dict(locals())
        owner = type(self).__name__
        if not isinstance(bijector, Bijector):
            raise TypeError(f"For '{owner}', the 'bijector' must be Bijector, but got "
                            f"{type(bijector).__name__}.")
        if not isinstance(distribution, Distribution):
            raise TypeError(f"For '{owner}', the 'distribution' must be Distribution, but "
                            f"got {type(distribution).__name__}.")
        U.check_dtype(distribution.dtype, U.FLOAT_TYPES, owner)
        super().__init__(seed, distribution.dtype, name, param)
        self._bijector = bijector
        self._distribution = distribution
        self._is_scalar_batch = distribution.is_scalar_batch and bijector.is_scalar_batch
        self._batch_shape = distribution.batch_shape
        self.default_parameters = distribution.default_parameters
        self.parameter_names = distribution.parameter_names
        self.parameter_type = distribution.parameter_type
        self._broadcast_shape = None
        if self._batch_shape is not None and bijector.batch_shape is not None:
            self._broadcast_shape = tuple(np.broadcast_shapes(tuple(bijector.batch_shape),
                                                              tuple(self._batch_shape)))

    @property
    def bijector(self):
        return self._bijector

    @property
    def distribution(self) -> Distribution:
        return self._distribution

    @property
    def is_linear_transformation(self) -> bool:
        return self._bijector.is_constant_jacobian

    def _cdf(self, value, *args, **kwargs):
        return self._distribution("cdf", self._bijector("inverse", value), *args, **kwargs)

    def _log_cdf(self, value, *args, **kwargs):
        return ops.log(self._cdf(value, *args, **kwargs))

    def _survival_function(self, value, *args, **kwargs):
        return 1.0 - self._cdf(value, *args, **kwargs)

    def _log_survival(self, value, *args, **kwargs):
        return ops.log(self._survival_function(value, *args, **kwargs))

    def _log_prob(self, value, *args, **kwargs):
        unadjusted = self._distribution("log_prob", self._bijector("inverse", value),
                                        *args, **kwargs)
        adjusted = unadjusted + self._bijector("inverse_log_jacobian", value)
        # -inf stays -inf (rather than -inf + inf = nan outside the support)
        return ops.select(unadjusted == -np.inf, unadjusted, adjusted)

    def _prob(self, value, *args, **kwargs):
        return ops.exp(self._log_prob(value, *args, **kwargs))

    def _sample(self, *args, **kwargs):
        return self._bijector("forward", self._distribution("sample", *args, **kwargs))

    def _mean(self, *args, **kwargs):
        if not self.is_linear_transformation:
            raise ValueError("mean function must be implemented for non-linear "
                             "transformation")
        return self._bijector("forward", self._distribution("mean", *args, **kwargs))
