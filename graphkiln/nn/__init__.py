"""``graphkiln.nn``: cells, containers, layers, losses, optimizers, training wrappers."""
from . import init, metrics
from .activation import (
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
from .basic import ClipByNorm, Dense, Dropout, Flatten, Identity, Pad, Unfold
from .cell import Cell
from .container import CellDict, CellList, SequentialCell
from .conv import Conv1d, Conv1dTranspose, Conv2d, Conv2dTranspose, Conv3d, Conv3dTranspose
from .dynamic_lr import (
    cosine_decay_lr,
    exponential_decay_lr,
    inverse_decay_lr,
    natural_exp_decay_lr,
    piecewise_constant_lr,
    polynomial_decay_lr,
    warmup_lr,
)
from .embedding import Embedding
from .init import set_seed
from .learning_rate_schedule import (
    CosineDecayLR,
    ExponentialDecayLR,
    InverseDecayLR,
    LearningRateSchedule,
    NaturalExpDecayLR,
    PolynomialDecayLR,
    WarmUpLR,
)
from .loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CosineEmbeddingLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    LossBase,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
    SoftmaxCrossEntropyWithLogits,
)
from .metrics import (
    F1,
    MAE,
    MSE,
    Accuracy,
    BleuScore,
    ConfusionMatrix,
    ConfusionMatrixMetric,
    Dice,
    Fbeta,
    Loss,
    Metric,
    Precision,
    Recall,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
    get_metric_fn,
    names,
    rearrange_inputs,
)
from .normalization import (
    BatchNorm1d,
    BatchNorm2d,
    BatchNorm3d,
    GroupNorm,
    InstanceNorm2d,
    LayerNorm,
)
from .optim import (
    LARS,
    SGD,
    Adagrad,
    Adam,
    AdamWeightDecay,
    Lamb,
    Momentum,
    Optimizer,
    RMSProp,
)
from .pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AvgPool1d,
    AvgPool2d,
    MaxPool1d,
    MaxPool2d,
)
from .rnn_cells import GRUCell, LSTMCell, RNNCell
from .rnns import GRU, LSTM, RNN
from .transformer import (
    MultiheadAttention,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from .wrap.cell_wrapper import TrainOneStepCell, WithEvalCell, WithLossCell
from .wrap.loss_scale import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepWithLossScaleCell,
)

__all__ = [
    "Cell", "CellList", "CellDict", "SequentialCell", "init", "set_seed",
    # layers
    "Dense", "Dropout", "Flatten", "Identity", "Unfold", "Embedding", "Pad", "ClipByNorm",
    "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
    "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "InstanceNorm2d",
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "HSwish", "HSigmoid", "Sigmoid", "Tanh",
    "Softmax", "LogSoftmax", "Mish", "ELU", "PReLU", "get_activation",
    "RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell", "MultiheadAttention",
    "TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer",
    "TransformerDecoder",
    # losses
    "LossBase", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "CrossEntropyLoss",
    "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss", "CosineEmbeddingLoss",
    "SoftmaxCrossEntropyWithLogits",
    # optimizers and learning rates
    "Optimizer", "Momentum", "SGD", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad", "Lamb",
    "LARS", "LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR",
    "InverseDecayLR", "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR",
    "exponential_decay_lr", "natural_exp_decay_lr", "inverse_decay_lr", "cosine_decay_lr",
    "piecewise_constant_lr", "warmup_lr", "polynomial_decay_lr",
    # training wrappers
    "WithLossCell", "TrainOneStepCell", "TrainOneStepWithLossScaleCell",
    "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell", "WithEvalCell",
    # metrics
    "metrics", "Metric", "rearrange_inputs", "names", "get_metric_fn", "Accuracy", "Precision",
    "Recall", "Fbeta", "F1", "MAE", "MSE", "Loss", "TopKCategoricalAccuracy",
    "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "ConfusionMatrix",
    "ConfusionMatrixMetric", "Dice", "BleuScore",
]
from .wrap.grad_reducer import DistributedGradReducer  # noqa: E402

__all__ += ["DistributedGradReducer"]

from .parameter_update import ParameterUpdate  # noqa: E402

__all__ += ["ParameterUpdate"]
