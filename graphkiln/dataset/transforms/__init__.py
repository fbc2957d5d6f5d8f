"""``mindspore.dataset.transforms``: general transforms and composition."""
from .transforms import (
    Compose,
    Concatenate,
    Duplicate,
    Fill,
    OneHot,
    RandomApply,
    RandomChoice,
    TensorOperation,
    TypeCast,
)

__all__ = ["Compose", "Concatenate", "Duplicate", "Fill", "OneHot", "RandomApply",
           "RandomChoice", "TensorOperation", "TypeCast"]
