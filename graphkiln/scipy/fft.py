"""``mindspore.scipy.fft``: the type-2 discrete cosine transform and its inverse, along one
axis (``dct``, ``idct``) or several (``dctn``, ``idctn``), orthonormal as MindSpore's
(``norm`` None or ``"ortho"``), on the ``DCTN`` primitive (lengths and axes constants or
run-time values; gradients by its adjoint)."""
from __future__ import annotations

import graphkiln.ops as ops

from ..common import dtype as mstype
from ..common.symbolic_scalar import SymbolicScalar
from ..common.tensor import Tensor
from ..ops.fft_ops import cosine_transform

_INTS_HALF = (mstype.int16, mstype.int32, mstype.int64, mstype.float16, mstype.float32)


def _check(name: str, x, type_: int, norm) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', 'x' must be a Tensor, but got {type(x).__name__}.")
    if type_ != 2:
        raise ValueError(f"For '{name}', only type 2 is supported, but got {type_}.")
    if norm not in (None, "ortho"):
        raise ValueError(f"For '{name}', only norm 'ortho' is supported, but got {norm!r}.")
    if x.dtype in _INTS_HALF:
        return ops.cast(x, mstype.float32) if x.dtype != mstype.float32 else x
    if x.dtype != mstype.float64:
        raise TypeError(f"For '{name}', the type of 'x' must be one of int16, int32, int64, "
                        f"float16, float32, float64, but got {x.dtype}.")
    return x


def _int(name: str, arg: str, v):
    """``v`` if it is an int (or an int known when the graph runs), else TypeError."""
    if isinstance(v, SymbolicScalar) or isinstance(v, int) and not isinstance(v, bool):
        return v
    raise TypeError(f"For '{name}', '{arg}' must be an int, but got {type(v).__name__}.")


def dct(x, type=2, n=None, axis=-1, norm=None) -> Tensor:  # noqa: A002
    """The orthonormal DCT-II of ``x`` along ``axis`` (``n`` truncates or zero-pads)."""
    x = _check("dct", x, type, norm)
    n = None if n is None else (_int("dct", "n", n),)
    return cosine_transform(x, n, (_int("dct", "axis", axis),))


def idct(x, type=2, n=None, axis=-1, norm=None) -> Tensor:  # noqa: A002
    """The inverse of ``dct`` along ``axis``."""
    x = _check("idct", x, type, norm)
    n = None if n is None else (_int("idct", "n", n),)
    return cosine_transform(x, n, (_int("idct", "axis", axis),), inverse=True)


def _seq(v):
    return (v,) if isinstance(v, (int, SymbolicScalar)) else v


def dctn(x, type=2, s=None, axes=None, norm=None) -> Tensor:  # noqa: A002
    """The orthonormal DCT-II over each of ``axes`` (all by default)."""
    return cosine_transform(_check("dctn", x, type, norm), _seq(s), _seq(axes))


def idctn(x, type=2, s=None, axes=None, norm=None) -> Tensor:  # noqa: A002
    """The inverse of ``dctn``."""
    return cosine_transform(_check("idctn", x, type, norm), _seq(s), _seq(axes), inverse=True)
