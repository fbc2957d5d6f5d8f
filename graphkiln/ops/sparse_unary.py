"""MindSpore's element-wise functions of sparse tensors (``ops.csr_cos``, ``ops.coo_relu``...):
the dense function applied to the stored values, the sparsity pattern kept."""
from __future__ import annotations

import graphkiln.ops.activation_functions as activation_functions
import graphkiln.ops.elementwise as elementwise
import graphkiln.ops.elementwise_ops as elementwise_ops
import graphkiln.ops.functional as F

from ..common.sparse_tensor import COOTensor, CSRTensor

_DENSE = {name: getattr(module, name) for module, names in (
    (F, "cos tan exp relu expm1 asin sqrt log isnan acos floor atan square sinh ceil cosh "
        "log1p round tanh asinh neg acosh atanh sigmoid abs sin"),
    (elementwise_ops, "inv isfinite isinf"),
    (elementwise, "relu6"),
    (activation_functions, "softsign"),
) for name in names.split()}


def _csr(name: str, dense):
    def fn(x: CSRTensor) -> CSRTensor:
        if not isinstance(x, CSRTensor):
            raise TypeError(f"Expects CSRTensor for csr_{name}, but got {type(x).__name__}.")
        return CSRTensor(x.indptr, x.indices, dense(x.values), x.shape)
    fn.__name__ = fn.__qualname__ = f"csr_{name}"
    fn.__doc__ = f"``{name}`` of the stored values of a CSRTensor."
    return fn


def _coo(name: str, dense):
    def fn(x: COOTensor) -> COOTensor:
        if not isinstance(x, COOTensor):
            raise TypeError(f"Expects COOTensor for coo_{name}, but got {type(x).__name__}.")
        return COOTensor(x.indices, dense(x.values), x.shape)
    fn.__name__ = fn.__qualname__ = f"coo_{name}"
    fn.__doc__ = f"``{name}`` of the stored values of a COOTensor."
    return fn


__all__ = []
for _name, _dense in _DENSE.items():
    globals()[f"csr_{_name}"] = _csr(_name, _dense)
    globals()[f"coo_{_name}"] = _coo(_name, _dense)
    __all__ += [f"csr_{_name}", f"coo_{_name}"]
