"""Row updates along axis 0 that return a new tensor (MindSpore's ``InplaceAdd``,
``InplaceSub``, ``InplaceUpdate``, ``InplaceUpdateV2``; despite the names the input is left
unchanged, as on MindSpore's CPU): ``x`` with rows ``indices`` plus, minus or replaced by the
rows of ``v``. A row named twice gets both additions; an update keeps the last one. As on
MindSpore, they carry no gradient (zero cotangents for ``x`` and ``v``).

``indices`` is an int or a tuple of ints (a constructor attribute), or for
``InplaceUpdateV2`` an int32/int64 Tensor input.
"""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import (
    INDEX_TYPES,
    NUMBERS,
    UNKNOWN_DIM,
    const_value,
    describe,
    require_dtype,
    tensor_type,
)
from .math import _WIDE_UINTS

_TYPES = NUMBERS + _WIDE_UINTS


def _index_tuple(name: str, indices) -> tuple:
    if isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
        return (int(indices),)
    if isinstance(indices, (tuple, list)) and all(
            isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in indices):
        return tuple(int(i) for i in indices)
    raise TypeError(f"For '{name}', 'indices' must be an int or a tuple of ints, but got "
                    f"{indices!r}.")


def check_rows(name: str, x, v, count: int | None) -> AbstractTensor:
    """``x`` and ``v`` of one type, ``v`` holding ``count`` rows shaped like ``x``'s."""
    tx, tv = tensor_type(name, "x", x), tensor_type(name, "v", v)
    if tx is not tv:
        raise TypeError(f"For primitive[{name}], the input type must be same, but got "
                        f"x: {describe(x)} and v: {describe(v)}.")
    require_dtype(name, "x", tx, _TYPES)
    sx, sv = tuple(x.shape), tuple(v.shape)
    if len(sx) != len(sv) or not sx:
        raise ValueError(f"For primitive[{name}], 'v' must have the rank of 'x' ({len(sx)}), "
                         f"but got {len(sv)}.")
    for axis in range(1, len(sx)):
        if UNKNOWN_DIM not in (sx[axis], sv[axis]) and sx[axis] != sv[axis]:
            raise ValueError(f"For primitive[{name}], the {axis}th dim of x must be equal to "
                             f"{axis}th dim of v which is {sv[axis]} , but got {sx[axis]}.")
    if count is not None and sv[0] not in (count, UNKNOWN_DIM):
        raise ValueError(f"For primitive[{name}], the size of 'indices' must be equal to the "
                         f"first dimension of 'v' ({sv[0]}), but got {count}.")
    return AbstractTensor(tx, sx)


def _check_range(name: str, rows: int, indices) -> None:
    for i in indices:
        if not 0 <= i < rows:
            raise ValueError(f"For primitive[{name}], the value of indices must be in "
                             f"[0,{rows}), but got {i}.")


def _attr_infer(name: str):
    def infer(x, v, indices=()):
        idx = _index_tuple(name, indices)
        out = check_rows(name, x, v, len(idx))
        if x.shape[0] != UNKNOWN_DIM:
            _check_range(name, x.shape[0], idx)
        return out
    return infer


def _kernel(name: str, update):
    def kernel(x, v, indices=()):
        idx = _index_tuple(name, indices)
        _check_range(name, x.shape[0], idx)  # the rows are known here (dynamic shapes)
        out = np.array(x, copy=True)
        update(out, np.asarray(idx, np.int64), np.asarray(v))
        return out
    return kernel


def _add(out, idx, v):
    np.add.at(out, idx, v)


def _sub(out, idx, v):
    np.subtract.at(out, idx, v)


def _assign(out, idx, v):
    out[idx] = v


InplaceAdd = OpDef("InplaceAdd", _attr_infer("InplaceAdd"), _kernel("InplaceAdd", _add),
                   attrs={"indices": ()}, differentiable=False)
InplaceSub = OpDef("InplaceSub", _attr_infer("InplaceSub"), _kernel("InplaceSub", _sub),
                   attrs={"indices": ()}, differentiable=False)
InplaceUpdate = OpDef("InplaceUpdate", _attr_infer("InplaceUpdate"),
                      _kernel("InplaceUpdate", _assign), attrs={"indices": ()},
                      differentiable=False)


def _update_v2_infer(x, indices, v):
    name = "InplaceUpdateV2"
    if isinstance(indices, AbstractTensor):
        require_dtype(name, "indices", indices.dtype, INDEX_TYPES)
        if len(indices.shape) > 1:
            raise ValueError(f"For primitive[{name}], 'indices' must be 0-D or 1-D, but got "
                             f"shape {list(indices.shape)}.")
        count = indices.shape[0] if indices.shape and indices.shape[0] != UNKNOWN_DIM else None
        return check_rows(name, x, v, 1 if not indices.shape else count)
    return _attr_infer(name)(x, v, const_value(name, "indices", indices))


def _update_v2(x, indices, v):
    idx = np.atleast_1d(np.asarray(indices)).tolist()
    return _kernel("InplaceUpdateV2", _assign)(x, v, tuple(idx))


InplaceUpdateV2 = OpDef("InplaceUpdateV2", _update_v2_infer, _update_v2, differentiable=False)
