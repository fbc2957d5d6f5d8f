# ruff: noqa: F401  (a re-export package: its names are its interface)
"""``nn.layer`` (MindSpore's ``mindspore.nn.layer`` package): the layer cells, defined in
the family modules of ``graphkiln.nn`` and re-exported here under MindSpore's path."""
from ..activation import (
    ELU,
    GELU,
    HSigmoid,
    HSwish,
    LeakyReLU,
    LogSoftmax,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    Sigmoid,
    SiLU,
    Softmax,
    Tanh,
    get_activation,
)
from ..basic import ClipByNorm, Dense, Dropout, Flatten, Identity, Pad, Range, Unfold
from ..container import CellDict, CellList, SequentialCell
from ..conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose, Conv3d, Conv3dTranspose
from ..embedding import Embedding
from ..math import DiGamma, IGamma, LGamma
from ..normalization import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    GroupNorm,
    InstanceNorm2d,
    LayerNorm,
    SyncBatchNorm,
)
from ..pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
)
from ..rnn_cells import GRUCell, LSTMCell, RNNCell
from ..rnns import GRU, LSTM, RNN
from ..transformer import (
    MultiheadAttention,
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)

__all__ = [n for n in dir() if not n.startswith("_")]  # every re-exported layer
