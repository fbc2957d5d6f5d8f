"""``graphkiln.nn``: cells, containers, layers, losses, optimizers, training wrappers."""
from . import init, metrics
from .cell import Cell, CellList, SequentialCell
from .init import set_seed
from .layers import (
    GELU,
    Dense,
    Dropout,
    Embedding,
    Flatten,
    LayerNorm,
    ReLU,
    Softmax,
    get_activation,
)
from .loss import CrossEntropyLoss, L1Loss, MSELoss
from .loss_scale import (
    DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell,
    TrainOneStepWithLossScaleCell,
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
from .optim import SGD, Adam, Optimizer
from .wrap import TrainOneStepCell, WithEvalCell, WithLossCell

__all__ = [
    "Cell", "CellList", "SequentialCell", "Dense", "ReLU", "GELU", "Softmax", "LayerNorm",
    "Dropout", "Embedding", "Flatten", "get_activation", "init", "set_seed",
    "MSELoss", "L1Loss", "CrossEntropyLoss", "Optimizer", "SGD", "Adam", "WithLossCell",
    "TrainOneStepCell", "WithEvalCell", "TrainOneStepWithLossScaleCell",
    "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
    "metrics", "Metric", "rearrange_inputs", "names", "get_metric_fn", "Accuracy", "Precision",
    "Recall", "Fbeta", "F1", "MAE", "MSE", "Loss", "TopKCategoricalAccuracy",
    "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "ConfusionMatrix",
    "ConfusionMatrixMetric", "Dice", "BleuScore",
]
from .grad_reducer import DistributedGradReducer  # noqa: E402

__all__ += ["DistributedGradReducer"]
