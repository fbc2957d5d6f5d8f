"""Loss and normalization primitives, as MindSpore's: ``SigmoidCrossEntropyWithLogits``,
``SoftmaxCrossEntropyWithLogits``, ``SparseSoftmaxCrossEntropyWithLogits``, ``SmoothL1Loss``,
``L2Normalize``.

float16 inputs are computed in float32 and the result cast back. SmoothL1Loss promotes
its two float inputs to one type (MindSpore converts them); SigmoidCrossEntropyWithLogits
needs one type. ``L2Normalize`` divides by ``sqrt(max(sum(x**2), epsilon))``.
"""
from __future__ import annotations

import numpy as np

from ...common import dtype as mstype
from ...ir.abstract import AbstractTensor, AbstractTuple
from ...ir.primitive import OUT_INPLACE
from ..primitive import OpDef
from ._infer import (
    FLOATS,
    buffer_for,
    into,
    norm_axes,
    promote_types,
    quiet,
    require_dtype,
    scratch_like,
    shapes_match,
    tensor_type,
    wide_type,
)

_REDUCTIONS = ("none", "mean", "sum")


def _wide(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _same_shape(name: str, a: str, b: str, x, y) -> None:
    if not shapes_match(x.shape, y.shape):
        raise ValueError(f"For '{name}', the shape of '{a}' and '{b}' must be the same, but "
                         f"got {list(x.shape)} and {list(y.shape)}.")


def _logits_and_labels(name: str, label_name: str, logits, labels):
    """The float dtype that logits and labels share (MindSpore's checks), same shapes."""
    t, tl = tensor_type(name, "logits", logits), tensor_type(name, label_name, labels)
    require_dtype(name, "logits", t, FLOATS)
    if tl is not t:
        raise TypeError(f"For primitive[{name}], the input type must be same: 'logits' is "
                        f"{t} and '{label_name}' {tl}.")
    _same_shape(name, "logits", label_name, logits, labels)
    return t


def _sigmoid_ce_infer(logits, label):
    t = _logits_and_labels("SigmoidCrossEntropyWithLogits", "label", logits, label)
    return AbstractTensor(t, logits.shape)


def _sigmoid_ce(logits, label):
    x, y = _wide(logits), _wide(label)
    loss = np.maximum(x, 0) - x * y + np.log1p(np.exp(-np.abs(x)))
    return loss.astype(logits.dtype, copy=False)


SigmoidCrossEntropyWithLogits = OpDef("SigmoidCrossEntropyWithLogits", _sigmoid_ce_infer,
                                      quiet(_sigmoid_ce))


def _softmax_ce_infer(logits, labels):
    name = "SoftmaxCrossEntropyWithLogits"
    t = _logits_and_labels(name, "labels", logits, labels)
    if len(logits.shape) != 2:
        raise ValueError(f"For '{name}', the 'logits' must be a 2-D Tensor [batch, classes], "
                         f"but got shape {list(logits.shape)}.")
    return AbstractTuple([AbstractTensor(t, logits.shape[:1]), AbstractTensor(t, logits.shape)])


def _softmax_ce(logits, labels):
    """``(loss, backprop)``: per-row ``-sum(labels * log_softmax(logits))`` and its
    gradient ``softmax(logits) - labels``."""
    x, y = _wide(logits), _wide(labels)
    shifted = x - x.max(axis=1, keepdims=True)
    log_sum = np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    log_p = shifted - log_sum
    loss = -(y * log_p).sum(axis=1)
    return loss.astype(logits.dtype, copy=False), (np.exp(log_p) - y).astype(logits.dtype,
                                                                           copy=False)


SoftmaxCrossEntropyWithLogits = OpDef("SoftmaxCrossEntropyWithLogits", _softmax_ce_infer,
                                      quiet(_softmax_ce))


_SPARSE_CE = "SparseSoftmaxCrossEntropyWithLogits"


def _sparse_ce_type(name: str, features, labels) -> mstype.Type:
    """The features' float type, after MindSpore's checks of both inputs."""
    t = tensor_type(name, "features", features)
    require_dtype(name, "features", t, FLOATS)
    require_dtype(name, "labels", tensor_type(name, "labels", labels),
                  (mstype.int32, mstype.int64))
    if len(features.shape) < 2:
        raise ValueError(f"For '{name}', the features shape length must be greater "
                         f"than 1, but got shape {list(features.shape)}.")
    if not shapes_match(labels.shape, features.shape[:-1]):
        raise ValueError(f"For '{name}', the 'labels' must have the shape of "
                         f"'features' without its last (class) axis, "
                         f"{list(features.shape[:-1])}, but got {list(labels.shape)}.")
    return t


def _sparse_ce_infer(features, labels, is_grad=False, sens=1.0):
    t = _sparse_ce_type(_SPARSE_CE, features, labels)
    return AbstractTensor(t, features.shape if is_grad else ())


def _sparse_ce(features, labels, is_grad=False, sens=1.0, out=None, scratch=None):
    """The mean over every example (all axes but the last) of ``-log softmax(features)``
    at its label, times ``sens``; with ``is_grad``, its gradient with respect to the
    features, ``(softmax - one_hot) * sens / N``. One pass each for the maximum, the shift,
    the exponential and the sum (and the gradient's scaling), in the planned ``out=``
    (the gradient) or scratch array (the loss), either of which may be ``features``'."""
    parts = _SoftmaxParts(features, labels, sens, out if is_grad else scratch and scratch[0])
    if is_grad:
        return into(out, parts.grad())
    return into(out, parts.loss())


class _SoftmaxParts:
    """The exponentials of the shifted features (in ``buf`` when it can hold them), their
    row sums and the shifted features at the labels: what the loss and the gradient share.
    The loss reads them; :meth:`grad` then overwrites the exponentials."""

    __slots__ = ("dtype", "shifted", "rows", "total", "picked", "at", "scale")

    def __init__(self, features, labels, sens, buf):
        x = _wide(features)
        classes = x.shape[-1]
        label = np.asarray(labels).reshape(-1)
        _check_labels(label, classes)
        self.dtype = features.dtype
        self.shifted = np.subtract(x, x.max(axis=-1, keepdims=True), out=buffer_for(buf, x))
        self.rows = self.shifted.reshape(-1, classes)
        self.at = np.arange(self.rows.shape[0]), label
        self.picked = self.rows[self.at]  # (before the exponential overwrites it)
        np.exp(self.rows, out=self.rows)
        self.total = self.rows.sum(axis=1, keepdims=True)
        self.scale = float(sens) / max(self.rows.shape[0], 1)

    def loss(self) -> np.ndarray:
        loss = (np.log(self.total[:, 0]) - self.picked).sum(dtype=np.float64) * self.scale
        return np.asarray(loss, self.dtype)

    def grad(self) -> np.ndarray:
        self.rows *= self.scale / self.total
        self.rows[self.at] -= self.scale
        return self.shifted.astype(self.dtype, copy=False)


def _check_labels(label: np.ndarray, classes: int) -> None:
    """Class indices in ``[0, classes)`` (MindSpore's CPU kernel reads past the row for
    labels at or above ``classes``: here they are refused too)."""
    bad = np.flatnonzero((label < 0) | (label >= classes))
    if bad.size:
        k = int(bad[0])
        raise RuntimeError(f"For '{_SPARSE_CE}' got error label! label[index] must be in "
                           f"[0, {classes}), but got index = {k} label[index] = "
                           f"{int(label[k])}")


SparseSoftmaxCrossEntropyWithLogits = OpDef(
    _SPARSE_CE, _sparse_ce_infer, quiet(_sparse_ce), attrs={"is_grad": False, "sens": 1.0},
    out_buffer=OUT_INPLACE, scratch=scratch_like(wide_type))


_GRAD_AND_LOSS = "SparseSoftmaxCrossEntropyWithLogitsGradAndLoss"


def _sparse_ce_grad_and_loss_infer(features, labels, sens=1.0):
    t = _sparse_ce_type(_GRAD_AND_LOSS, features, labels)
    return AbstractTuple([AbstractTensor(t, features.shape), AbstractTensor(t, ())])


def _sparse_ce_grad_and_loss(features, labels, sens=1.0, out=None):
    """``(gradient, loss)`` of :data:`SparseSoftmaxCrossEntropyWithLogits` from one
    exponential pass, the same bits as its two kernels; the gradient in ``out=``."""
    parts = _SoftmaxParts(features, labels, sens, out)
    loss = parts.loss()  # (the gradient overwrites what the loss reads)
    return into(out, parts.grad()), loss


# Made by the backend (``backend/sibling_merge.py``) from a gradient step's loss and
# gradient kernels on the same features; users never write it.
SparseSoftmaxCrossEntropyWithLogitsGradAndLoss = OpDef(
    _GRAD_AND_LOSS, _sparse_ce_grad_and_loss_infer,
    quiet(_sparse_ce_grad_and_loss), attrs={"sens": 1.0}, out_buffer=OUT_INPLACE,
    differentiable=False)


def check_smooth_l1_beta_type(beta) -> None:
    """MindSpore's check when SmoothL1Loss is built (a bool counts as a number)."""
    if not isinstance(beta, (bool, int, float)):
        raise TypeError(f"For 'SmoothL1Loss', the type of 'beta' should be one of '[bool, "
                        f"int, float]', but got {type(beta)}.")


def _check_smooth_l1_attrs(beta, reduction) -> None:
    check_smooth_l1_beta_type(beta)
    if beta < 0:  # MindSpore's kernel errors, when the op runs
        raise RuntimeError(f"For 'SmoothL1Loss', the values for beta not support negative "
                           f"values, but got {beta:g}.")
    if beta == 0:
        raise RuntimeError(f"For 'SmoothL1Loss', the values for beta should greater than 0, "
                           f"but got {beta:g}.")
    if reduction not in _REDUCTIONS:
        raise ValueError(f"For 'SmoothL1Loss', the 'reduction' must be in "
                         f"{list(_REDUCTIONS)}, but got {reduction}.")


def _smooth_l1_infer(logits, labels, beta=1.0, reduction="none"):
    _check_smooth_l1_attrs(beta, reduction)
    tx, ty = tensor_type("SmoothL1Loss", "logits", logits), tensor_type("SmoothL1Loss",
                                                                        "labels", labels)
    require_dtype("SmoothL1Loss", "logits", tx, FLOATS)
    require_dtype("SmoothL1Loss", "labels", ty, FLOATS)
    _same_shape("SmoothL1Loss", "logits", "labels", logits, labels)
    return AbstractTensor(promote_types(tx, ty), logits.shape if reduction == "none" else ())


def _smooth_l1(logits, labels, beta=1.0, reduction="none"):
    result = np.promote_types(logits.dtype, labels.dtype)  # the float types promote
    d = np.abs(_wide(logits.astype(result)) - _wide(labels.astype(result)))
    b = np.asarray(beta, d.dtype)
    loss = np.where(d < b, 0.5 * d * d / b, d - 0.5 * b)
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return np.asarray(loss).astype(result, copy=False)


SmoothL1Loss = OpDef("SmoothL1Loss", _smooth_l1_infer, quiet(_smooth_l1),
                     attrs={"beta": 1.0, "reduction": "none"},
                     check_attrs=lambda attrs: check_smooth_l1_beta_type(attrs["beta"]))


def l2_axes(axis, ndim: int) -> tuple:
    return norm_axes("L2Normalize", axis, ndim)


def _l2_normalize_infer(x, axis=0, epsilon=1e-4):
    require_dtype("L2Normalize", "input_x", tensor_type("L2Normalize", "input_x", x), FLOATS)
    l2_axes(axis, len(x.shape))
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)):
        raise TypeError(f"For 'L2Normalize', the 'epsilon' must be a float, but got "
                        f"{type(epsilon).__name__}.")
    return AbstractTensor(x.dtype, x.shape)


def l2_norm(x: np.ndarray, axis, epsilon) -> np.ndarray:
    """``sum(x**2)`` over ``axis`` (kept), in x's (widened) dtype."""
    w = _wide(x)
    return np.sum(w * w, axis=l2_axes(axis, x.ndim), keepdims=True)


def _l2_normalize(x, axis=0, epsilon=1e-4):
    w = _wide(x)
    out = w / np.sqrt(np.maximum(l2_norm(x, axis, epsilon), np.asarray(epsilon, w.dtype)))
    return out.astype(x.dtype, copy=False)


L2Normalize = OpDef("L2Normalize", _l2_normalize_infer, quiet(_l2_normalize),
                    attrs={"axis": 0, "epsilon": 1e-4})
