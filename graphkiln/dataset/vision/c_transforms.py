"""The pre-2.0 path of the array image transforms (``vision.c_transforms``)."""
from .transforms import *  # noqa: F403 - the same transforms under the old name
from .utils import Border, Inter  # noqa: F401
