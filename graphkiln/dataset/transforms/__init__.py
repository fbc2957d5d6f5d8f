"""``mindspore.dataset.transforms``: general transforms and composition."""
from . import transforms as _transforms
from .transforms import *  # noqa: F403 - every transform, listed in transforms.__all__

__all__ = list(_transforms.__all__)
