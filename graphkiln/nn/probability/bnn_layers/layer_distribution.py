"""The weight distributions of the Bayesian layers: ``NormalPrior`` (a fixed Normal) and
``NormalPosterior`` (a Normal with trainable mean and softplus-transformed scale)."""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common import dtype as mstype
from ....common.parameter import Parameter
from ....common.tensor import Tensor
from ...cell import Cell
from ..distribution.normal import Normal


class NormalPrior(Cell):
    """A Normal(``mean``, ``std``) prior; calls go to its distribution (``'kl_loss'``...)."""

    def __init__(self, dtype=mstype.float32, mean=0, std=0.1):
        super().__init__()
        self.normal = Normal(mean, std, dtype=dtype)

    def construct(self, *inputs):
        return self.normal(*inputs)


def _check_number(name: str, value, non_negative: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            (non_negative and value < 0):
        tail = " and its value must > 0" if non_negative else ""
        raise TypeError(f"The type of `{name}` must be `int` or `float`{tail}")


class NormalPosterior(Cell):
    """A Normal with trainable ``<name>_mean`` and ``<name>_untransformed_std``
    (``std = 1e-6 + softplus(untransformed_std)``), both drawn from NumPy's global
    generator as MindSpore's are."""

    def __init__(self, name: str, shape, dtype=mstype.float32, loc_mean=0, loc_std=0.1,
                 untransformed_scale_mean=-5, untransformed_scale_std=0.1):
        super().__init__()
        if not isinstance(name, str):
            raise TypeError("The type of `name` must be `str`")
        if not isinstance(shape, (tuple, list)):
            raise TypeError("The type of `shape` must be `tuple` or `list`")
        _check_number("loc_mean", loc_mean)
        _check_number("untransformed_scale_mean", untransformed_scale_mean)
        _check_number("loc_std", loc_std, non_negative=True)
        _check_number("untransformed_scale_std", untransformed_scale_std, non_negative=True)
        self.mean = Parameter(Tensor(np.random.normal(loc_mean, loc_std, shape), dtype=dtype),
                              name=name + "_mean")
        self.untransformed_std = Parameter(
            Tensor(np.random.normal(untransformed_scale_mean, untransformed_scale_std, shape),
                   dtype=dtype), name=name + "_untransformed_std")
        self.normal = Normal()

    def construct(self, *inputs):
        std = 1e-6 + ops.log(ops.exp(self.untransformed_std) + 1.0)
        return self.normal(*inputs, mean=self.mean, sd=std)


def normal_post_fn(name: str, shape) -> NormalPosterior:
    """The default posterior factory of the Bayesian layers."""
    return NormalPosterior(name=name, shape=shape)
