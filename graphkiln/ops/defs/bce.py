"""Binary cross entropy primitives.

``BinaryCrossEntropy(x, y, weight=None)``: ``-weight * (y log x + (1 - y) log(1 - x))`` for
probabilities ``x`` (each log at least ``log 1e-12``, as MindSpore clamps).
``BCEWithLogitsLoss(logits, label, weight, pos_weight)``: the same for ``x = sigmoid(logits)``,
computed stably, with ``pos_weight`` scaling the positive term; ``weight`` and ``pos_weight``
broadcast to ``logits``. Both reduce by ``reduction`` (``none``, ``mean`` or ``sum``).
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractScalar, AbstractTensor
from ...ir.primitive import OpDef
from ._infer import broadcast_shapes, quiet, shapes_match, tensor_type

EPS = 1e-12
# MindSpore's CPU kernels take float16/float32; float64 is accepted here too (computed exactly)
_TYPES = (mstype.float16, mstype.float32, mstype.float64)


def check_reduction(name: str, reduction) -> None:
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"For '{name}', the 'reduction' must be 'none', 'mean' or 'sum', but "
                         f"got {reduction!r}.")


def _reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return np.asarray(loss.mean())
    if reduction == "sum":
        return np.asarray(loss.sum())
    return loss


def _float_type(name: str, arg: str, a) -> mstype.Type:
    t = tensor_type(name, arg, a)
    if t not in _TYPES:
        raise TypeError(f"For Primitive[{name}], the type of the input must be [Float16, "
                        f"Float32], but got {t}!")
    return t


def _bce_infer(x, y, weight=None, reduction="mean"):
    name = "BinaryCrossEntropy"
    check_reduction(name, reduction)
    t = _float_type(name, "logits", x)
    for arg, a in (("labels", y), ("weight", weight)):
        if arg == "weight" and (weight is None or isinstance(weight, AbstractScalar)
                                and weight.value is None):
            continue  # no weight: every element counts once
        _float_type(name, arg, a)
        if not shapes_match(tuple(a.shape), tuple(x.shape)):
            raise ValueError(f"For primitive[{name}], the input_shape: {list(x.shape)} must be "
                             f"equal to {list(a.shape)}.")
    return AbstractTensor(t, tuple(x.shape) if reduction == "none" else ())


@quiet
def _bce(x, y, weight=None, reduction="mean"):
    x = np.asarray(x)
    xw = x.astype(np.float32) if x.dtype == np.float16 else x
    yw = np.asarray(y, xw.dtype)
    loss = -(yw * np.log(np.maximum(xw, EPS)) + (1 - yw) * np.log(np.maximum(1 - xw, EPS)))
    if weight is not None:
        loss = loss * np.asarray(weight, xw.dtype)
    return _reduce(loss, reduction).astype(x.dtype)


def _bce_logits_infer(logits, label, weight, pos_weight, reduction="mean"):
    name = "BCEWithLogitsLoss"
    check_reduction(name, reduction)
    t = _float_type(name, "logits", logits)
    shape = tuple(logits.shape)
    if not shapes_match(tuple(_float_and_shape(name, "label", label)), shape):
        raise ValueError(f"For '{name}', the shape of 'label' must be the shape of 'logits' "
                         f"{list(shape)}, but got {list(label.shape)}.")
    for arg, a in (("weight", weight), ("pos_weight", pos_weight)):
        try:
            broadcast_shapes(name, tuple(_float_and_shape(name, arg, a)), shape, arg, "input")
        except ValueError:
            raise ValueError(f"For '{name}', the shape of '{arg}' can not broadcast to the "
                             f"shape of 'input'.") from None
    return AbstractTensor(t, shape if reduction == "none" else ())


def _float_and_shape(name: str, arg: str, a) -> tuple:
    _float_type(name, arg, a)
    return tuple(a.shape)


def softplus_neg(x: np.ndarray) -> np.ndarray:
    """``log(1 + exp(-x))`` without overflow."""
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)


@quiet
def _bce_logits(logits, label, weight, pos_weight, reduction="mean"):
    x = np.asarray(logits)
    xw = x.astype(np.float32) if x.dtype == np.float16 else x
    y, w, pw = (np.asarray(v, xw.dtype) for v in (label, weight, pos_weight))
    loss = w * ((1 - y) * xw + (1 + (pw - 1) * y) * softplus_neg(xw))
    return _reduce(loss, reduction).astype(x.dtype)


BinaryCrossEntropy = OpDef("BinaryCrossEntropy", _bce_infer, _bce, attrs={"reduction": "mean"})
BCEWithLogitsLoss = OpDef("BCEWithLogitsLoss", _bce_logits_infer, _bce_logits,
                          attrs={"reduction": "mean"})
