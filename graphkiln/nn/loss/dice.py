"""Dice losses of MindSpore's ``nn``: ``DiceLoss`` (one minus the Dice coefficient of the
flattened inputs) and ``MultiClassDiceLoss`` (its per-class average after an activation)."""
from __future__ import annotations

import graphkiln.ops as ops

from ...common import dtype as mstype
from ...common.tensor import Tensor
from ..activation import get_activation
from ..cell import Cell
from .loss import LossBase

_ACTIVATIONS = ["softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid"]


def _check_pair(owner: str, logits, label) -> None:
    for name, v in (("logits", logits), ("labels", label)):
        if not isinstance(v, Tensor):
            raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got "
                            f"{type(v).__name__}.")
    if tuple(logits.shape) != tuple(label.shape):
        raise ValueError(f"For '{owner}', the 'logits_shape' must be equal to 'label_shape', "
                         f"but got {tuple(logits.shape)} and {tuple(label.shape)}.")


def _dice(logits, label, smooth: float):
    x, y = ops.reshape(logits, (-1,)), ops.reshape(label, (-1,))
    inter = ops.reduce_sum(ops.mul(x, y))
    union = ops.add(ops.reduce_sum(ops.mul(x, x)), ops.reduce_sum(ops.mul(y, y)))
    return ops.sub(1.0, ops.div(ops.mul(inter, 2.0), ops.add(union, smooth)))


class DiceLoss(LossBase):
    """``1 - 2 sum(x y) / (sum(x^2) + sum(y^2) + smooth)`` over all elements."""

    def __init__(self, smooth: float = 1e-5):
        super().__init__()
        if isinstance(smooth, bool) or not isinstance(smooth, float):
            raise TypeError(f"For 'DiceLoss', the 'smooth' must be float, but got "
                            f"{type(smooth).__name__}.")
        if smooth <= 0:
            raise ValueError(f"For 'DiceLoss', the 'smooth' must be a positive float, but got "
                             f"{smooth}.")
        self.smooth = smooth

    def construct(self, logits, label):
        _check_pair("DiceLoss", logits, label)
        for name, v in (("logits", logits), ("labels", label)):
            if v.dtype == mstype.uint8:
                raise TypeError(f"For 'DiceLoss', the dtype of '{name}' can not be uint8.")
        return _dice(logits, label, self.smooth)


class MultiClassDiceLoss(LossBase):
    """The mean over the classes (axis 1) of the Dice loss of each class's channel, after
    ``activation``; ``weights`` (a ``(C, ...)`` Tensor) scales each class's loss and
    ``ignore_indiex`` (MindSpore's spelling) skips one class."""

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        if weights is not None and not isinstance(weights, Tensor):
            raise TypeError(f"For 'MultiClassDiceLoss', the 'weights' must be a Tensor, but "
                            f"got {type(weights).__name__}.")
        if isinstance(weights, Tensor) and weights.ndim != 2:
            raise ValueError(f"For 'MultiClassDiceLoss', the dimension of 'weights' must be 2, "
                             f"but got {weights.ndim}.")
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool) or
                                          not isinstance(ignore_indiex, int)):
            raise TypeError(f"For 'MultiClassDiceLoss', the 'ignore_indiex' must be int, but "
                            f"got {type(ignore_indiex).__name__}.")
        if isinstance(activation, str):
            if activation not in _ACTIVATIONS:
                raise ValueError(f"For 'MultiClassDiceLoss', the 'activation' must be in "
                                 f"{_ACTIVATIONS}, but got {activation}.")
            activation = get_activation(activation)
        if activation is not None and not isinstance(activation, Cell):
            raise TypeError(f"For 'MultiClassDiceLoss', the 'activation' must be str or Cell, "
                            f"but got {type(activation)}.")
        self.weights, self.ignore_indiex, self.activation = weights, ignore_indiex, activation

    def construct(self, logits, label):
        _check_pair("MultiClassDiceLoss", logits, label)
        if logits.ndim < 2:
            raise ValueError(f"For 'MultiClassDiceLoss', the 'logits' dimension must be greater "
                             f"than 1, but got {logits.ndim}.")
        if self.activation is not None:
            logits = self.activation(logits)
        classes = label.shape[1]
        if self.weights is not None and self.weights.shape[0] != classes:
            raise ValueError(f"For 'MultiClassDiceLoss', the weight_shape[0] must be equal to "
                             f"label_shape[1], but got weight_shape[0]: "
                             f"{self.weights.shape[0]} and label_shape[1]: {classes}.")
        total = 0.0
        for i in range(classes):
            if i != self.ignore_indiex:
                loss = _dice(logits[:, i], label[:, i], 1e-5)
                if self.weights is not None:
                    loss = ops.mul(loss, self.weights[i])
                total = ops.add(loss, total)
        return ops.div(total, float(classes))
