"""``graphkiln.nn``: cells, containers, layers, losses, optimizers, training wrappers."""
from . import init
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
from .optim import SGD, Adam, Optimizer
from .wrap import TrainOneStepCell, WithLossCell

__all__ = [
    "Cell", "CellList", "SequentialCell", "Dense", "ReLU", "GELU", "Softmax", "LayerNorm",
    "Dropout", "Embedding", "Flatten", "get_activation", "init", "set_seed",
    "MSELoss", "L1Loss", "CrossEntropyLoss", "Optimizer", "SGD", "Adam", "WithLossCell",
    "TrainOneStepCell",
]
from .grad_reducer import DistributedGradReducer  # noqa: E402

__all__ += ["DistributedGradReducer"]
