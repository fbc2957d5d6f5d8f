"""``PyExecute(fn, *args)``: the run-time fallback. Its kernel calls the Python function
``fn`` on the run-time values of ``args`` (Tensors for tensor inputs, as MindSpore passes
them; ``tensor_dtypes`` holds each input's dtype, None for the others) and gives whatever
it returns (an opaque Python object). It is an IO effect, so calls run in program order and
are never dropped (``np.save`` of a graph value, ``print`` of a run-time object)."""
from __future__ import annotations

import numpy as np

from ...common.tensor import Tensor
from ...ir.abstract import PY_OBJECT_ABS, AbstractScalar, AbstractTensor
from ...ir.primitive import IO_EFFECT, OpDef
from ._infer import describe


def _py_execute_infer(fn, *args, tensor_dtypes=(), out_dtype=None):
    if not (isinstance(fn, AbstractScalar) and callable(fn.value)):
        raise TypeError(f"For 'PyExecute', the 'fn' must be a Python callable known while "
                        f"compiling, but got {describe(fn)}.")
    return PY_OBJECT_ABS if out_dtype is None else AbstractTensor(out_dtype, ())


def _py_execute(fn, *args, tensor_dtypes=(), out_dtype=None):
    out = fn(*[a if t is None else Tensor._from_array(a, t)
               for a, t in zip(args, tensor_dtypes + (None,) * len(args))])
    return out if out_dtype is None else np.asarray(out, out_dtype.np_dtype).reshape(())


# ``out_dtype``: the result is a scalar of that dtype (a run-time value as a graph value,
# e.g. the condition of an ``if``); else an opaque Python object
PyExecute = OpDef("PyExecute", _py_execute_infer, _py_execute, effect=IO_EFFECT,
                  differentiable=False, attrs={"tensor_dtypes": (), "out_dtype": None})
