"""The pre-2.0 path of the general transforms (``transforms.c_transforms``)."""
from .transforms import *  # noqa: F403 - the same transforms under the old name
