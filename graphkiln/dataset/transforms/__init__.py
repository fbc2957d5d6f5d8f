"""``mindspore.dataset.transforms``: general transforms and composition."""
from . import tensor_ops as _tensor_ops
from . import transforms as _transforms
from .tensor_ops import *  # noqa: F403 - Mask, Slice, Unique, listed in tensor_ops.__all__
from .transforms import *  # noqa: F403 - every transform, listed in transforms.__all__

__all__ = [*_transforms.__all__, *_tensor_ops.__all__]
