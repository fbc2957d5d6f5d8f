"""The pre-2.0 path of the array image transforms (``vision.c_transforms``)."""
from .mix import CutMixBatch, MixUpBatch  # noqa: F401 - 1.x kept the batch mixers here
from .transforms import *  # noqa: F403 - the same transforms under the old name
from .utils import (  # noqa: F401
    Border,
    ImageBatchFormat,  # noqa: F401
    Inter,
)
