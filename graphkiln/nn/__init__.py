"""``graphkiln.nn``: cells, containers, layers and weight initializers."""
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

__all__ = [
    "Cell", "CellList", "SequentialCell", "Dense", "ReLU", "GELU", "Softmax", "LayerNorm",
    "Dropout", "Embedding", "Flatten", "get_activation", "init", "set_seed",
]
