"""``Bijector``: the base Cell of MindSpore's invertible transformations y = f(x), and
``TransformedDistribution``, the distribution of ``y = bijector(x)`` (change of variables:
``log p(y) = log p_x(f^-1(y)) + log |df^-1/dy|``). They share a module because each
builds the other: a bijector called on a distribution makes a TransformedDistribution.

A bijector defines ``_forward``, ``_inverse``, ``_forward_log_jacobian`` and
``_inverse_log_jacobian``; its parameters are kept as Tensors and cast to each input's
dtype. Calling a bijector on a Distribution makes the TransformedDistribution of it.
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common.tensor import Tensor
from ...cell import Cell
from .._checks import FLOAT_TYPES, check_dtype, check_tensor
from ..distribution.distribution import Distribution


class Bijector(Cell):
    """Base class of the bijectors (``name``, an optional float ``dtype`` its inputs
    must have, and the constructor's arguments ``param``)."""

    def __init__(self, is_constant_jacobian: bool = False, is_injective: bool = True,
                 name: str | None = None, dtype=None, param: dict | None = None):
        super().__init__()
        owner = type(self).__name__
        for arg, value, kind in (("name", name, str),
                                 ("is_constant_jacobian", is_constant_jacobian, bool),
                                 ("is_injective", is_injective, bool)):
            if not isinstance(value, kind):
                raise TypeError(f"For '{owner}', the '{arg}' must be {kind.__name__}, "
                                f"but got {type(value).__name__}.")
        if dtype is not None:
            check_dtype(dtype, FLOAT_TYPES, owner)
        param = param or {}
        self._name = name
        self._dtype = dtype
        self._bijector_parameters = {k: v for k, v in param.items()
                                     if k not in ("param", "self") and not k.startswith("_")}
        self.default_parameters = []
        self.parameter_names = []
        self.common_dtype = None
        if "bijector" not in param:
            param_dict = self._bijector_parameters.get("param_dict")
            self._batch_shape = _batch_shape(param_dict)
            self._is_scalar_batch = param_dict is not None and all(
                v is None or isinstance(v, (int, float)) for v in param_dict.values())
        self._is_constant_jacobian = is_constant_jacobian
        self._is_injective = is_injective

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def parameters(self) -> dict:
        return self._bijector_parameters

    @property
    def is_constant_jacobian(self) -> bool:
        return self._is_constant_jacobian

    @property
    def is_injective(self) -> bool:
        return self._is_injective

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def is_scalar_batch(self) -> bool:
        return self._is_scalar_batch

    def _add_parameter(self, value, name: str) -> Tensor:
        """``value`` as a Tensor; its dtype must be float and agree with the others'
        (or be the bijector's ``dtype``)."""
        if isinstance(value, bool) or value is None:
            raise TypeError(f"{name} cannot be type {type(value)}")
        tensor = value if isinstance(value, Tensor) else Tensor(value)
        if self._dtype is None:
            if self.common_dtype is None:
                self.common_dtype = tensor.dtype
            elif tensor.dtype != self.common_dtype:
                raise TypeError(f"{name} should have the same dtype as other arguments.")
            check_dtype(tensor.dtype, FLOAT_TYPES, type(self).__name__)
        elif tensor.dtype != self._dtype:
            raise TypeError(f"{name} should have the same dtype as the bijector's dtype.")
        self.default_parameters.append(value)
        self.parameter_names.append(name)
        return tensor

    def _check_value_dtype(self, value):
        """``value``; TypeError unless it is a float Tensor (of the bijector's dtype when
        it has one)."""
        check_tensor(value, "input value of bijector")
        if self._dtype is None:
            if not value.dtype.is_float:
                raise TypeError(f"For input value of bijector , the type must be or be "
                                f"subclass of Float, but got {value.dtype}")
        elif value.dtype != self._dtype:
            raise TypeError(f"For '{self._name}', the input value must have dtype "
                            f"{self._dtype}, but got {value.dtype}.")
        return value

    def _check_value(self, value, name: str):
        return check_tensor(value, name)

    def cast_param_by_value(self, value, para):
        """``para`` cast to the dtype of ``value``."""
        return ops.cast(para, value.dtype)

    def shape_mapping(self, shape: tuple) -> tuple:
        """The shape of the output for an input of ``shape``."""
        return self._shape_mapping(shape)

    def _shape_mapping(self, shape: tuple) -> tuple:
        return tuple(np.broadcast_shapes(tuple(shape), tuple(self._batch_shape or ())))

    def forward(self, value, *args, **kwargs):
        """y = f(value)."""
        return self._forward(value, *args, **kwargs)

    def inverse(self, value, *args, **kwargs):
        """x = f^-1(value)."""
        return self._inverse(value, *args, **kwargs)

    def forward_log_jacobian(self, value, *args, **kwargs):
        """log |df/dx| at ``value``."""
        return self._forward_log_jacobian(value, *args, **kwargs)

    def inverse_log_jacobian(self, value, *args, **kwargs):
        """log |df^-1/dy| at ``value``."""
        return self._inverse_log_jacobian(value, *args, **kwargs)

    def __call__(self, *args, **kwargs):
        if args and isinstance(args[0], Distribution):
            return TransformedDistribution(self, args[0])
        return super().__call__(*args, **kwargs)

    def construct(self, name, *args, **kwargs):
        """Call the function ``name`` ('forward', 'inverse', 'forward_log_jacobian' or
        'inverse_log_jacobian')."""
        if name in _FUNCTIONS:
            return getattr(self, name)(*args, **kwargs)
        raise ValueError(f"For '{self._name}', the function name must be one of "
                         f"{_FUNCTIONS}, but got '{name}'.")


_FUNCTIONS = ("forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian")


class TransformedDistribution(Distribution):
    """``bijector`` applied to ``distribution`` (a float one)."""

    def __init__(self, bijector, distribution, seed=None,
                 name: str = "transformed_distribution"):
        param = dict(locals())
        owner = type(self).__name__
        if not isinstance(bijector, Bijector):
            raise TypeError(f"For '{owner}', the 'bijector' must be Bijector, but got "
                            f"{type(bijector).__name__}.")
        if not isinstance(distribution, Distribution):
            raise TypeError(f"For '{owner}', the 'distribution' must be Distribution, but "
                            f"got {type(distribution).__name__}.")
        check_dtype(distribution.dtype, FLOAT_TYPES, owner)
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


def _batch_shape(param_dict):
    if param_dict is None:
        return None
    shapes = []
    for value in param_dict.values():
        if value is None:
            return None
        shapes.append(tuple(value.shape) if isinstance(value, (Tensor, np.ndarray))
                      else np.shape(value))
    return tuple(np.broadcast_shapes(*shapes)) if shapes else ()


__all__ = ["Bijector", "TransformedDistribution"]
