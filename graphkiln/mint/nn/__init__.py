"""``mindspore.mint.nn``: PyTorch-style layers (``mint.nn.Linear(in_features,
out_features)``, ``mint.nn.ReLU()``...) built on graphkiln's cells and ops."""
from __future__ import annotations

import graphkiln.nn as _nn

from ...nn import GELU as _GELU
from ...nn import Cell, Identity, L1Loss, MSELoss, ReLU, Sigmoid, Tanh  # noqa: F401
from . import extra_layers, functional, sampling_layers
from . import functional as F  # noqa: F401  (MindSpore's mint.nn.F)
from .extra_layers import *  # noqa: F401,F403  (activations, paddings, losses)
from .layers import (  # noqa: F401
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveAvgPool3d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    AvgPool3d,
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    Conv1d,
    Conv2d,
    Conv3d,
    ConvTranspose2d,
    GroupNorm,
    LayerNorm,
    MaxPool2d,
    SyncBatchNorm,
)
from .sampling_layers import *  # noqa: F401,F403  (embedding, fold, unpool, upsample)


class Linear(_nn.Dense):
    """``input @ weight.T + bias`` with ``weight`` of shape ``(out_features, in_features)``."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 weight_init=None, bias_init=None, dtype=None):
        super().__init__(in_features, out_features, weight_init, bias_init, has_bias=bias,
                         **({} if dtype is None else {"dtype": dtype}))


class Flatten(_nn.Flatten):
    """Merge the dimensions ``start_dim..end_dim``."""


class Softmax(_nn.Cell):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return functional.softmax(input, self.dim)


class LogSoftmax(_nn.Cell):
    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return functional.log_softmax(input, self.dim)


class GELU(_GELU):
    def __init__(self, approximate: str = "none"):
        if approximate not in ("none", "tanh"):
            raise ValueError(f"For 'GELU', 'approximate' must be 'none' or 'tanh', but got "
                             f"{approximate!r}.")
        super().__init__(approximate == "tanh")


class SiLU(_nn.Cell):
    def construct(self, input):
        return functional.silu(input)


class ReLU6(_nn.Cell):
    def construct(self, input):
        return functional.relu6(input)


class Hardtanh(_nn.Cell):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val, self.max_val = min_val, max_val

    def construct(self, input):
        return functional.hardtanh(input, self.min_val, self.max_val)


class Dropout(_nn.Cell):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        self.p = p

    def construct(self, input):
        return functional.dropout(input, self.p, self.training)


__all__ = ["functional", "Linear", "Identity", "ReLU", "Sigmoid", "Tanh", "Flatten", "Softmax",
           "LogSoftmax", "GELU", "SiLU", "ReLU6", "Hardtanh", "Dropout", "L1Loss", "MSELoss",
           "Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d", "MaxPool2d", "AvgPool1d",
           "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
           "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "BatchNorm1d",
           "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "GroupNorm", "LayerNorm",
           *extra_layers.__all__, *sampling_layers.__all__]
