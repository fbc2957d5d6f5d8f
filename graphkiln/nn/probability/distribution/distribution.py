"""``Distribution``: the base Cell of MindSpore's probability distributions.

A distribution keeps default parameters (``mean``/``sd`` for a Normal...), each method
(``prob``, ``log_prob``, ``cdf``, ``mean``, ``sample``...) may be given other parameters
as trailing Tensor arguments, and a subclass defines only some of the private methods
(``_log_prob`` or ``_prob``, ``_sd`` or ``_var``...): the others are derived from them
(``prob = exp(log_prob)``, ``survival = 1 - cdf``...), or raise NotImplementedError.
The methods are plain Python on graphkiln ops, so they trace in GRAPH_MODE and run
eagerly in PYNATIVE_MODE.
"""
from __future__ import annotations

import numpy as np

import graphkiln.ops as ops

from ....common.tensor import Tensor
from ...cell import Cell
from .._checks import (
    cast_to_tensor,
    check_seed,
    check_tensor,
    check_tuple,
    not_implemented,
    param_dtype,
)

# public function -> the private methods that compute it, in order of preference, and
# how each one's result becomes the function's (None: as it is)
_DERIVED = {
    "prob": (("_prob", None), ("_log_prob", "exp")),
    "log_prob": (("_log_prob", None), ("_prob", "log")),
    "cdf": (("_cdf", None), ("_log_cdf", "exp"), ("_survival_function", "one_minus"),
            ("_log_survival", "one_minus_exp")),
    "survival_function": (("_survival_function", None), ("_log_survival", "exp"),
                          ("cdf", "one_minus")),
    "log_cdf": (("_log_cdf", None), ("cdf", "log")),
    "log_survival": (("_log_survival", None), ("survival_function", "log")),
    "sd": (("_sd", None), ("_var", "sqrt")),
    "var": (("_var", None), ("_sd", "square")),
    "cross_entropy": (("_cross_entropy", None),),
}
_MAPS = {
    "exp": ops.exp, "log": ops.log, "sqrt": ops.sqrt, "square": ops.square,
    "one_minus": lambda x: 1.0 - x, "one_minus_exp": lambda x: 1.0 - ops.exp(x),
}


class Distribution(Cell):
    """Base class of the distributions (``seed``, the event ``dtype``, ``name`` and the
    constructor's arguments ``param``, with the distribution's parameters under
    ``param['param_dict']``)."""

    def __init__(self, seed, dtype, name: str, param: dict):
        super().__init__()
        if not isinstance(name, str):
            raise TypeError(f"For '{type(self).__name__}', the 'name' must be str, "
                            f"but got {type(name).__name__}.")
        self._name = name
        self._seed = check_seed(seed, name)
        self._dtype = dtype
        self._dist_parameters = {k: v for k, v in param.items()
                                 if k != "self" and not k.startswith("_")}
        self.default_parameters = []
        self.parameter_names = []
        if "distribution" not in self._dist_parameters:
            param_dict = self._dist_parameters.get("param_dict", {})
            self.parameter_type = param_dtype(param_dict, dtype)
            self._batch_shape = _batch_shape(param_dict)
            self._is_scalar_batch = all(v is None or isinstance(v, (int, float))
                                        for v in param_dict.values())
            self._broadcast_shape = self._batch_shape
        self._how = {}
        for func in _DERIVED:  # in order: a derived function may use one resolved before it
            self._how[func] = self._resolve(func)

    def _resolve(self, func: str):
        """(source, map) computing ``func``, or None when the subclass cannot."""
        for source, how in _DERIVED[func]:
            if source.startswith("_"):
                if hasattr(self, source):
                    return source, how
            elif self._how.get(source) is not None:
                return source, how
        return None

    def _call(self, func: str, *args, **kwargs):
        how = self._how[func]
        if how is None:
            not_implemented(func, self._name)
        source, mapping = how
        if source.startswith("_"):
            out = getattr(self, source)(*args, **kwargs)
        else:
            out = self._call(source, *args, **kwargs)
        return out if mapping is None else _MAPS[mapping](out)

    # ------------------------------------------------------------------ properties
    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def parameters(self) -> dict:
        """The constructor's arguments."""
        return self._dist_parameters

    @property
    def is_scalar_batch(self) -> bool:
        return self._is_scalar_batch

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def broadcast_shape(self):
        return self._broadcast_shape

    # ------------------------------------------------------------- parameter handling
    def _reset_parameters(self) -> None:
        self.default_parameters = []
        self.parameter_names = []

    def _add_parameter(self, value, name: str):
        """Store ``value`` (cast to the parameter dtype) as the default of ``name``."""
        tensor = None if value is None else cast_to_tensor(value, self.parameter_type)
        self.default_parameters.append(tensor)
        self.parameter_names.append(name)
        return tensor

    def _check_param_type(self, *args):
        """The distribution's parameters for one call: each given Tensor or else the
        default, cast to the parameter dtype and broadcast to one shape."""
        out = []
        first_dtype = None
        for arg, name, default in zip(args, self.parameter_names, self.default_parameters):
            if arg is None:
                if default is None:
                    raise TypeError(f"the type {name} must be subclass of Tensor. It can not "
                                    f"be None since it is not specified during "
                                    f"initialization.")
                arg = default
            else:
                check_tensor(arg, name)
            if first_dtype is None:
                first_dtype = arg.dtype
            elif arg.dtype != first_dtype:
                raise TypeError(f"For '{self._name}', the dtype of '{name}' ({arg.dtype}) "
                                f"differs from the other parameters' ({first_dtype}).")
            out.append(ops.cast(arg, self.parameter_type))
        if len(out) == 1:
            return out[0]
        shape = _broadcast_shapes([tuple(a.shape) for a in out])
        return tuple(a if tuple(a.shape) == shape else ops.broadcast_to(a, shape)
                     for a in out)

    def _check_value(self, value, name: str):
        return check_tensor(value, name)

    def _value_and_params(self, value, *params):
        """(value cast to the event dtype, *the call's parameters)."""
        value = ops.cast(check_tensor(value, "value"), self.dtype)
        checked = self._check_param_type(*params)
        return (value, *checked) if isinstance(checked, tuple) else (value, checked)

    def _other_params(self, *named):
        """The parameters of the other distribution of ``kl_loss``/``cross_entropy``:
        Tensors, cast to the parameter dtype."""
        return tuple(ops.cast(check_tensor(t, name), self.parameter_type)
                     for t, name in named)

    def _dist_args(self, given: tuple) -> tuple:
        """``get_dist_args``: each given Tensor, else the default."""
        return tuple(default if arg is None else check_tensor(arg, name)
                     for arg, name, default in zip(given, self.parameter_names,
                                                   self.default_parameters))

    def _shaped_sample(self, shape: tuple, draw):
        """``draw(shape)`` cast to the event dtype; a scalar sample is drawn as one
        element and squeezed."""
        if shape == ():
            return ops.squeeze(ops.cast(draw((1,)), self.dtype), 0)
        return ops.cast(draw(shape), self.dtype)

    checktensor = staticmethod(check_tensor)
    checktuple = staticmethod(check_tuple)

    # -------------------------------------------------------------- public functions
    def get_dist_args(self, *args, **kwargs):
        """The distribution's parameters: the given ones, else the defaults."""
        return self._get_dist_args(*args, **kwargs)

    def get_dist_type(self) -> str:
        """The distribution's type name ('Normal'...)."""
        return self._get_dist_type()

    def _get_dist_args(self, *args, **kwargs):
        not_implemented("get_dist_args", self._name)

    def _get_dist_type(self):
        not_implemented("get_dist_type", self._name)

    def prob(self, value, *args, **kwargs):
        """The probability (density or mass) at ``value``."""
        return self._call("prob", value, *args, **kwargs)

    def log_prob(self, value, *args, **kwargs):
        """The log probability at ``value``."""
        return self._call("log_prob", value, *args, **kwargs)

    def cdf(self, value, *args, **kwargs):
        """The cumulative distribution function at ``value``."""
        return self._call("cdf", value, *args, **kwargs)

    def log_cdf(self, value, *args, **kwargs):
        """log of the cdf at ``value``."""
        return self._call("log_cdf", value, *args, **kwargs)

    def survival_function(self, value, *args, **kwargs):
        """1 - cdf at ``value``."""
        return self._call("survival_function", value, *args, **kwargs)

    def log_survival(self, value, *args, **kwargs):
        """log of the survival function at ``value``."""
        return self._call("log_survival", value, *args, **kwargs)

    def sd(self, *args, **kwargs):
        """The standard deviation."""
        return self._call("sd", *args, **kwargs)

    def var(self, *args, **kwargs):
        """The variance."""
        return self._call("var", *args, **kwargs)

    def cross_entropy(self, dist, *args, **kwargs):
        """The cross entropy H(self, other) with the ``dist`` distribution given by its
        parameters."""
        return self._call("cross_entropy", dist, *args, **kwargs)

    def mean(self, *args, **kwargs):
        """The mean."""
        return self._mean(*args, **kwargs)

    def mode(self, *args, **kwargs):
        """The mode."""
        return self._mode(*args, **kwargs)

    def entropy(self, *args, **kwargs):
        """The entropy."""
        return self._entropy(*args, **kwargs)

    def kl_loss(self, dist, *args, **kwargs):
        """KL(self || other), the ``dist`` distribution given by its parameters."""
        return self._kl_loss(dist, *args, **kwargs)

    def sample(self, *args, **kwargs):
        """Samples of shape ``shape + batch_shape``."""
        return self._sample(*args, **kwargs)

    def _mean(self, *args, **kwargs):
        not_implemented("mean", self._name)

    def _mode(self, *args, **kwargs):
        not_implemented("mode", self._name)

    def _entropy(self, *args, **kwargs):
        not_implemented("entropy", self._name)

    def _kl_loss(self, *args, **kwargs):
        not_implemented("kl_loss", self._name)

    def _sample(self, *args, **kwargs):
        not_implemented("sample", self._name)

    def construct(self, name, *args, **kwargs):
        """Call the function ``name`` ('log_prob', 'mean', 'sample'...)."""
        if name == "get_dist_type":  # (the parameters a caller passes along do not matter)
            return self._get_dist_type()
        if name in _DERIVED:
            return self._call(name, *args, **kwargs)
        if name in _DIRECT:
            return getattr(self, "_" + name)(*args, **kwargs)
        return not_implemented(name, self._name)


_DIRECT = ("mean", "mode", "entropy", "kl_loss", "sample", "get_dist_args")


def _broadcast_shapes(shapes: list) -> tuple:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(f"Shape {shapes[0]} and {shapes[1:]} is not broadcastable.") from None


def _batch_shape(param_dict: dict):
    """The broadcast shape of the constructor's parameters (None when one is missing)."""
    shapes = []
    for value in param_dict.values():
        if value is None:
            return None
        shapes.append(value.shape if isinstance(value, (Tensor, np.ndarray))
                      else np.shape(value))
    return _broadcast_shapes(shapes) if shapes else ()
