"""The pre-2.0 path of the general transforms (``transforms.c_transforms``)."""
from .transforms import (  # noqa: F401
    Compose,
    Concatenate,
    Duplicate,
    Fill,
    OneHot,
    RandomApply,
    RandomChoice,
    TypeCast,
)
