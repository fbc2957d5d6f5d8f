# ruff: noqa: F401  (a re-export package: its names are its interface)
"""``nn.layer`` (MindSpore's ``mindspore.nn.layer`` package): the layer cells, defined in
the family modules of ``graphkiln.nn`` and re-exported here under MindSpore's path."""
from ...common.module_alias import alias_modules
from .. import (
    activation,
    basic,
    combined,
    container,
    conv,
    embedding,
    image,
    math,
    matrix,
    normalization,
    padding,
    pooling,
    rnn_cells,
    rnns,
    shuffle,
    timedistributed,
    transformer,
    unpooling,
)
from ..activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    LRN,
    FastGelu,
    Hardtanh,
    HShrink,
    HSigmoid,
    HSwish,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    RReLU,
    SeLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softmax2d,
    Softmin,
    SoftShrink,
    Softsign,
    Tanh,
    Tanhshrink,
    Threshold,
    get_activation,
)
from ..basic import (
    ClipByNorm,
    Dense,
    Dropout,
    Dropout1d,
    Dropout2d,
    Dropout3d,
    Flatten,
    Identity,
    L1Regularizer,
    Linear,
    Norm,
    OneHot,
    Pad,
    Range,
    Roll,
    Unflatten,
    Unfold,
    Upsample,
)
from ..bidense import BiDense
from ..combined import Conv2dBnAct, DenseBnAct
from ..container import CellDict, CellList, SequentialCell
from ..conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose, Conv3d, Conv3dTranspose
from ..embedding import Embedding, EmbeddingLookup
from ..fractional_pooling import FractionalMaxPool2d, FractionalMaxPool3d
from ..image import MSSSIM, PSNR, SSIM, CentralCrop, ImageGradients
from ..math import (
    DiGamma,
    IGamma,
    LBeta,
    LGamma,
    MatDet,
    MatInverse,
    MatMul,
    Moments,
    ReduceLogSumExp,
)
from ..matrix import MatrixDiag, MatrixDiagPart, MatrixSetDiag, Tril, Triu
from ..normalization import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    GroupNorm,
    InstanceNorm1d,
    InstanceNorm2d,
    InstanceNorm3d,
    LayerNorm,
    SyncBatchNorm,
)
from ..padding import (
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad2d,
)
from ..pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    LPPool1d,
    LPPool2d,
    MaxPool1d,
    MaxPool2d,
)
from ..pooling3d import AdaptiveAvgPool3d, AdaptiveMaxPool3d, AvgPool3d, MaxPool3d
from ..rnn_cells import GRUCell, LSTMCell, RNNCell
from ..rnns import GRU, LSTM, RNN
from ..shuffle import ChannelShuffle, PixelShuffle, PixelUnshuffle
from ..timedistributed import TimeDistributed
from ..transformer import (
    MultiheadAttention,
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from ..unpooling import MaxUnpool1d, MaxUnpool2d, MaxUnpool3d

__all__ = [n for n in dir() if not n.startswith("_")]  # every re-exported layer

alias_modules(__name__, {"activation": activation, "basic": basic, "combined": combined,
                         "container": container, "conv": conv, "embedding": embedding,
                         "image": image, "math": math, "matrix": matrix,
                         "normalization": normalization, "padding": padding,
                         "pooling": pooling, "rnn_cells": rnn_cells, "rnns": rnns,
                         "shuffle": shuffle, "timedistributed": timedistributed,
                         "transformer": transformer, "unpooling": unpooling})
