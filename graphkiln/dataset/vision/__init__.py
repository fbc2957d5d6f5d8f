"""``mindspore.dataset.vision``: image transforms (OpenCV for arrays, Pillow for PIL images;
both imported on first use)."""
from . import adjust as _adjust
from . import augment as _augment
from . import maybe as _maybe
from . import mix as _mix
from . import pil_ops as _pil_ops
from . import transforms as _transforms
from .adjust import *  # noqa: F403 - the fixed-parameter ops, listed in adjust.__all__
from .augment import *  # noqa: F403 - augmentation policies, in augment.__all__
from .maybe import *  # noqa: F403 - ops applied with a probability, in maybe.__all__
from .mix import *  # noqa: F403 - batch mixing, in mix.__all__
from .pil_ops import *  # noqa: F403 - PIL-only ops, listed in pil_ops.__all__
from .transforms import *  # noqa: F403 - every transform, listed in transforms.__all__
from .utils import Border, Inter

__all__ = [*_transforms.__all__, *_adjust.__all__, *_augment.__all__, *_maybe.__all__,
           *_mix.__all__,
           *_pil_ops.__all__, "Inter", "Border"]
