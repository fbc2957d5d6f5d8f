"""``KLDivLoss(x, target)``: ``target * (log(target) - x)`` (0 where ``target <= 0``), reduced
by ``reduction`` (``none``, ``mean``, ``sum`` or ``batchmean``: the sum over ``x.shape[0]``), and
``KLDivLossGrad(dy, x, target)``, its backward for ``x``: ``-target * dy`` scaled as the
reduction scales (not masked by ``target <= 0``, as MindSpore's kernel). MindSpore gives
``target`` a zero gradient.
"""
from __future__ import annotations

import numpy as np

from ...ir.abstract import AbstractTensor
from ...ir.primitive import OpDef
from ._infer import FLOATS, quiet, shapes_match, tensor_type

_REDUCTIONS = ("none", "mean", "batchmean", "sum")


def _check_reduction(reduction) -> None:
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For 'KLDivLoss', the 'reduction' must be str and must be in "
                         f"'{list(_REDUCTIONS)}', but got '{reduction}'.")


def _check_pair(name: str, x, target):
    for arg, a in (("x", x), ("target", target)):
        t = tensor_type(name, arg, a)
        if t not in FLOATS:
            raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type "
                            f"of {{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but "
                            f"got Tensor[{t}].")
    if x.dtype is not target.dtype:
        raise TypeError(f"For primitive[{name}], the input type must be same, but got "
                        f"Tensor[{x.dtype}] and Tensor[{target.dtype}].")
    if not shapes_match(tuple(x.shape), tuple(target.shape)):
        raise ValueError(f"For primitive[{name}], the x shape: {list(x.shape)} must be equal to "
                         f"{list(target.shape)}.")


def reduction_scale(reduction: str, shape: tuple) -> float:
    """What the reduction divides the elementwise sum by."""
    if reduction == "mean":
        return float(max(int(np.prod(shape)), 1))
    if reduction == "batchmean":
        return float(shape[0]) if shape else 1.0
    return 1.0


def _loss_infer(x, target, reduction="mean"):
    _check_reduction(reduction)
    _check_pair("KLDivLoss", x, target)
    return AbstractTensor(x.dtype, tuple(x.shape) if reduction == "none" else ())


@quiet
def _loss(x, target, reduction="mean"):
    x, target = np.asarray(x), np.asarray(target)
    xw = x.astype(np.float32) if x.dtype == np.float16 else x
    tw = target.astype(xw.dtype)
    positive = tw > 0
    loss = np.where(positive, tw * (np.log(np.where(positive, tw, 1)) - xw), 0)
    if reduction != "none":
        loss = np.asarray(loss.sum() / reduction_scale(reduction, x.shape))
    return loss.astype(x.dtype)


def _grad_infer(dy, x, target, reduction="mean"):
    _check_reduction(reduction)
    _check_pair("KLDivLossGrad", x, target)
    if tensor_type("KLDivLossGrad", "dy", dy) is not x.dtype:
        raise TypeError(f"For primitive[KLDivLossGrad], the input type must be same, but got "
                        f"Tensor[{dy.dtype}] and Tensor[{x.dtype}].")
    return AbstractTensor(x.dtype, tuple(x.shape))


@quiet
def _grad(dy, x, target, reduction="mean"):
    x = np.asarray(x)
    dy = np.asarray(dy)
    if reduction != "none":
        dy = dy.reshape(-1)[0] if dy.size else dy
    return (-np.asarray(target) * dy / reduction_scale(reduction, x.shape)).astype(x.dtype)


KLDivLoss = OpDef("KLDivLoss", _loss_infer, _loss, attrs={"reduction": "mean"})
KLDivLossGrad = OpDef("KLDivLossGrad", _grad_infer, _grad, attrs={"reduction": "mean"})
