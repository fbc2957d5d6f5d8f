"""Primitives that read a value's description: ``Shape``, ``TensorShape``, ``DType``,
``Rank``, ``Size`` and ``TopTypeof``. Dtypes, ranks and known dimensions are constants:
inside a graph they fold to Python values while the graph is built; a dimension known only
at run time (``-1``) is a run-time int of the ``Shape`` node (a ``SymbolicScalar``)."""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor, AbstractTuple
from ...ir.primitive import OpDef
from ._infer import describe


def _tensor(name: str, x) -> AbstractTensor:
    if not isinstance(x, AbstractTensor):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got {describe(x)}.")
    return x


def _shape_infer(x):
    return AbstractTuple([AbstractScalar(int(d)) if d >= 0 else AbstractScalar.unknown(int)
                          for d in _tensor("Shape", x).shape])


def _tensor_shape_infer(x):
    return AbstractTensor(mstype.int64, (len(_tensor("TensorShape", x).shape),))


def _dtype_infer(x):
    return AbstractScalar(_tensor("DType", x).dtype)


def _rank_infer(x):
    return AbstractScalar(len(_tensor("Rank", x).shape))


def _size_infer(x):
    s = _tensor("Size", x).shape
    if any(d < 0 for d in s):
        return AbstractScalar.unknown(int)
    return AbstractScalar(int(np.prod(s, dtype=np.int64)))


def _type_of_abstract(x):
    if isinstance(x, AbstractTensor):
        return mstype.tensor_type
    if isinstance(x, AbstractTuple):
        return mstype.list_ if x.is_list else mstype.tuple_
    if isinstance(x, AbstractScalar):
        return mstype.type_of(x.value)
    return mstype.function


def _top_typeof_kernel(x):
    if isinstance(x, np.ndarray):
        return mstype.tensor_type
    return mstype.type_of(x)


Shape = OpDef("Shape", _shape_infer, lambda x: tuple(int(d) for d in np.shape(x)),
              differentiable=False)
# the shape as an int64 Tensor (``ops.dyn_shape``), computed when the graph runs
TensorShape = OpDef("TensorShape", _tensor_shape_infer,
                    lambda x: np.asarray(np.shape(x), np.int64), differentiable=False)
DType = OpDef("DType", _dtype_infer, lambda x: mstype.from_numpy(np.asarray(x).dtype),
              differentiable=False)
Rank = OpDef("Rank", _rank_infer, lambda x: int(np.ndim(x)), differentiable=False)
Size = OpDef("Size", _size_infer, lambda x: int(np.size(x)), differentiable=False)
TopTypeof = OpDef("TopTypeof", lambda x: AbstractScalar(_type_of_abstract(x)),
                  _top_typeof_kernel, differentiable=False)


def _float_status_infer(x):
    t = _tensor("FloatStatus", x).dtype
    if not t.is_float:
        raise TypeError(f"For 'FloatStatus', the input must be a float Tensor, but got "
                        f"Tensor[{t}].")
    return AbstractTensor(mstype.float32, (1,))


def _float_status(x):
    return np.array([0.0 if np.isfinite(x).all() else 1.0], np.float32)


# [1.] when the input holds a NaN or an infinity, else [0.] (a check, no gradient)
FloatStatus = OpDef("FloatStatus", _float_status_infer, _float_status, differentiable=False)

