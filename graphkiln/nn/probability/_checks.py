"""Checks shared by the distributions: turning user parameters into Tensors of one
parameter dtype, the value checks MindSpore makes at construction (``sd > 0``,
``0 < p < 1``...) and the argument checks it makes at call time."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...common.parameter import Parameter
from ...common.tensor import Tensor

_INT_TYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64,
              mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64)
FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)
NUMBER_TYPES = _INT_TYPES + FLOAT_TYPES


def check_dtype(dtype, valid: tuple, owner: str) -> None:
    """TypeError unless ``dtype`` is one of ``valid``."""
    if dtype not in valid:
        names = ", ".join(str(t) for t in valid)
        raise TypeError(f"For '{owner}', the 'dtype' must be one of [{names}], "
                        f"but got {dtype}.")


def check_seed(seed, name: str) -> int:
    """The seed (``None`` means 0); a negative or non-int one is an error."""
    seed = 0 if seed is None else seed
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"For '{name}', the 'seed' must be int, but got {type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"For '{name}', the 'seed' must be non-negative, but got {seed}.")
    return seed


def param_dtype(params: dict, hint) -> mstype.Type:
    """The dtype the parameters are computed in: theirs when they are arrays (they must
    agree), else ``hint``; integer kinds and float64 become float32, as MindSpore's."""
    if hint is None or hint in _INT_TYPES:
        hint = mstype.float32
    common = None
    for name, arg in params.items():
        if isinstance(arg, np.ndarray):
            cur = mstype.pytype_to_dtype(arg.dtype)
        elif isinstance(arg, Tensor):
            cur = arg.dtype
        else:
            continue
        if common is None:
            common = cur
        elif cur != common:
            raise TypeError(f"{name} should have the same dtype as other arguments.")
    if common in _INT_TYPES or common == mstype.float64:
        return mstype.float32
    return hint if common is None else common


def cast_to_tensor(value, dtype=mstype.float32):
    """A Tensor of ``dtype`` from a number, list, array or Tensor (a Parameter stays
    itself, so it can be trained)."""
    if value is None:
        raise ValueError("Input cannot be None in cast_to_tensor")
    if isinstance(value, Parameter):
        return value
    if isinstance(value, bool):
        raise TypeError("Input cannot be Type Bool")
    if isinstance(value, Tensor):
        return Tensor(value.asnumpy(), dtype=dtype)
    if isinstance(value, (np.ndarray, list, int, float)):
        return Tensor(value, dtype=dtype)
    raise TypeError(f"Unable to convert input of type {type(value)} to a Tensor of type "
                    f"{dtype}")


def _host(value):
    """The NumPy value to check, or None for a Parameter (it may change in training)."""
    if value is None:
        raise ValueError("input value cannot be None")
    return None if isinstance(value, Parameter) else value.asnumpy()


def check_greater_zero(value, name: str) -> None:
    """ValueError unless every element of ``value`` is > 0."""
    v = _host(value)
    if v is not None and not (v > 0).all():
        raise ValueError(f"{name} must be greater than zero.")


def check_greater(low, high, name_low: str, name_high: str) -> None:
    """ValueError unless ``low < high`` elementwise."""
    lo, hi = _host(low), _host(high)
    if lo is not None and hi is not None and not (lo < hi).all():
        raise ValueError(f"{name_low} must be less than {name_high}")


def check_prob(probs) -> None:
    """ValueError unless ``0 < probs < 1`` elementwise."""
    p = _host(probs)
    if p is None:
        return
    if not (p > 0).all():
        raise ValueError("Probabilities must be greater than zero")
    if not (p < 1).all():
        raise ValueError("Probabilities must be less than one")


def check_categorical_probs(probs) -> None:
    """ValueError unless ``probs`` has rank >= 1, is positive and sums to one on its
    last axis."""
    p = _host(probs)
    if p is None:
        return
    if p.ndim == 0:
        raise ValueError("probs for Categorical distribution must have rank >= 1.")
    if not (p > 0).all():
        raise ValueError("Probabilities must be greater than zero")
    total = p.sum(axis=-1)
    eps = np.finfo(total.dtype).eps
    if not np.allclose(total, 1.0, rtol=eps * 10, atol=eps):
        raise ValueError("Probabilities for each category should sum to one for "
                         "Categorical distribution.")


def check_tensor(value, name: str):
    """``value`` itself; TypeError unless it is a Tensor."""
    if not isinstance(value, Tensor):
        raise TypeError(f"For {name}, input type must be a Tensor or Parameter.")
    return value


def check_tuple(value, name: str) -> tuple:
    """``value`` itself; TypeError unless it is a tuple."""
    if not isinstance(value, tuple):
        raise TypeError(f"For {name}, input type must be a tuple.")
    return value


def check_distribution_name(name, expected: str) -> None:
    """ValueError unless the ``dist`` argument names the expected distribution."""
    if name is None:
        raise ValueError("Input dist must be a constant which is not None.")
    if name != expected:
        raise ValueError(f"Expected dist input is {expected}, but got {name}.")


def not_implemented(func_name: str, dist_name: str):
    """NotImplementedError for a function the distribution does not define."""
    raise NotImplementedError(f"{func_name} is not implemented for {dist_name} distribution.")


def not_defined(func_name: str, dist_name: str):
    """ValueError for a function the distribution has no value of (Cauchy's mean)."""
    raise ValueError(f"{func_name} is undefined for {dist_name} distribution.")


def refuse_scalars(**params) -> None:
    """TypeError for a parameter given as a Python number where MindSpore wants arrays."""
    for name, value in params.items():
        if isinstance(value, (int, float)):
            raise TypeError(f"Input {name} can't be scalar")
