"""The Categorical distribution over classes 0..K-1 with probabilities ``probs`` (the
last axis; the leading axes are the batch)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from .._checks import (
    NUMBER_TYPES,
    check_categorical_probs,
    check_distribution_name,
    check_dtype,
    check_tensor,
    check_tuple,
)
from .distribution import Distribution


class Categorical(Distribution):
    """Categorical distribution; its events have ``dtype`` (int32 by default)."""

    def __init__(self, probs=None, seed=None, dtype=mstype.int32,
                 name: str = "Categorical"):
        param = dict(locals())
        param["param_dict"] = {"probs": probs}
        check_dtype(dtype, NUMBER_TYPES, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        self._probs = self._add_parameter(probs, "probs")
        if self._probs is not None:
            check_categorical_probs(self._probs)
            if tuple(self._probs.shape[:-1]) == ():
                self._is_scalar_batch = True
            self._broadcast_shape = self._broadcast_shape[:-1]

    @property
    def probs(self):
        return self._probs

    def extend_repr(self) -> str:
        if self.is_scalar_batch:
            return f"probs = {self._probs}"
        return f"batch_shape = {self._broadcast_shape}"

    def _get_dist_type(self) -> str:
        return "Categorical"

    def _get_dist_args(self, probs=None):
        return self._dist_args((probs,))

    def _moments(self, probs):
        index = ops.arange(0, probs.shape[-1], 1, dtype=probs.dtype)
        first = ops.reduce_sum(index * probs, -1, keep_dims=True)
        second = ops.reduce_sum(ops.square(index) * probs, -1, keep_dims=True)
        return first, second

    def _mean(self, probs=None):
        return self._moments(self._check_param_type(probs))[0]

    def _mode(self, probs=None):
        return ops.cast(ops.argmax(self._check_param_type(probs), -1), self.dtype)

    def _var(self, probs=None):
        first, second = self._moments(self._check_param_type(probs))
        return second - ops.square(first)

    def _entropy(self, probs=None):
        probs = self._check_param_type(probs)
        return ops.squeeze(-ops.reduce_sum(ops.log(probs) * probs, -1, keep_dims=True))

    def _kl_loss(self, dist, probs_b, probs=None):
        check_distribution_name(dist, "Categorical")
        (probs_b,) = self._other_params((probs_b, "probs_b"))
        probs_a = self._check_param_type(probs)
        logits_a, logits_b = ops.log(probs_a), ops.log(probs_b)
        kl = ops.softmax(logits_a, -1) * (ops.log_softmax(logits_a, -1)
                                          - ops.log_softmax(logits_b, -1))
        return ops.squeeze(ops.reduce_sum(kl, -1, keep_dims=True))

    def _cross_entropy(self, dist, probs_b, probs=None):
        check_distribution_name(dist, "Categorical")
        return self._entropy(probs) + self._kl_loss(dist, probs_b, probs)

    def _gather_class(self, value, table):
        """``table[..., value]`` broadcast over the batch, with the class index rounded
        down (values in (-1, 0) count as 0) and clipped to the classes; also the mask
        of values below 0 and above K-1."""
        value = ops.cast(check_tensor(value, "value"), table.dtype)
        in_minus_one_zero = ops.logical_and(value < 0.0, value > -1.0)
        value = ops.select(in_minus_one_zero, ops.zeros_like(value), ops.floor(value))
        num_classes = table.shape[-1]
        shape = tuple(np.broadcast_shapes(tuple(value.shape), tuple(table.shape[:-1])))
        value = ops.broadcast_to(value, shape)
        table = ops.broadcast_to(table, shape + (num_classes,))
        index = ops.cast(ops.clip_by_value(value, 0.0, float(num_classes - 1)), mstype.int32)
        picked = ops.squeeze(ops.gather_elements(table, -1, ops.expand_dims(index, -1)), -1)
        return picked, value < 0.0, value > float(num_classes - 1)

    def _log_prob(self, value, probs=None):
        probs = self._check_param_type(probs)
        picked, below, above = self._gather_class(value, ops.log(probs))
        out_of_bound = ops.logical_or(below, above)
        return ops.select(out_of_bound, ops.full_like(picked, np.nan), picked)

    def _cdf(self, value, probs=None):
        probs = self._check_param_type(probs)
        picked, below, _ = self._gather_class(value, ops.cumsum(probs, -1))
        return ops.select(below, ops.zeros_like(picked), picked)

    def _sample(self, shape=(), probs=None):
        shape = check_tuple(shape, "shape")
        probs = self._check_param_type(probs)
        num_classes = probs.shape[-1]
        sample_shape = shape + tuple(probs.shape[:-1])
        num_sample = int(np.prod(shape)) if shape else 1
        probs_2d = ops.reshape(probs, (-1, num_classes))
        draws = ops.multinomial(probs_2d, num_sample, True, self.seed)
        draws = ops.transpose(draws, (1, 0))
        if sample_shape == ():
            return ops.cast(ops.reshape(draws, ()), self.dtype)
        return ops.stop_gradient(ops.cast(ops.reshape(draws, sample_shape), self.dtype))
